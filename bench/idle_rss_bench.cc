// Peak memory of one idle analysis by host count (issue 16): what POST /v1/idle does with one
// upload (ReadTelemetryText -> IdleAnalyzer -> Finish -> IdleReportJsonText), on
// generated nvidia-smi CSV of 1k, 10k and 25k hosts (one GPU sample per host per line, as the
// issue's 1 MB body of 25k hosts), each case in a fresh process so that its peak RSS (VmHWM) is
// its own. With the default caps (IdleOptions::max_hosts = 10000) the 25k body is refused when
// its 10001st host arrives, so the peak stays that of 10k hosts; "--max-hosts 25000" rows show
// the per-host cost without the cap. The last rows run four such requests on four threads (the
// issue's 2.1 GB case) and report the RSS after they finish (freed memory is given back).
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   idle_rss_bench && build-bench/bench/idle_rss_bench
// One case: idle_rss_bench HOSTS MAX_HOSTS THREADS (prints one line of the table).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "app/views.h"
#include "gpuadvisor/idle.h"

namespace gpuadvisor {
namespace {

// VmHWM (peak) or VmRSS (now) of this process in KiB.
long StatusKib(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long kib = -1;
  const std::string key = std::string(field) + ":";
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::string(line).rfind(key, 0) == 0) kib = std::strtol(line + key.size(), nullptr, 10);
  }
  std::fclose(f);
  return kib;
}

// One line per host (the shape: 25k hosts in about 1 MB), the hosts' names distinct.
std::string Body(int hosts, int seed) {
  std::string out = "timestamp,hostname,index,name,utilization.gpu\n";
  char line[96];
  for (int h = 0; h < hosts; ++h) {
    std::snprintf(line, sizeof line, "2026/11/20 00:00:00,n%d-%05d,0,NVIDIA L4,%d\n", seed, h,
                  (h * 7) % 101);
    out += line;
  }
  return out;
}

struct Outcome {
  bool ok = false;
  size_t json_bytes = 0;
  std::string error;
};

Outcome OneRequest(const std::shared_ptr<const Catalog>& catalog, const std::string& body,
                   const IdleOptions& o) {
  Outcome out;
  IdleAnalyzer analyzer(catalog, o);
  Result<TelemetryFileInfo> read = ReadTelemetryText(
      body, "upload", {}, [&analyzer](const TelemetrySample& s) { return analyzer.Add(s); });
  if (!read.ok()) {
    out.error = read.status().message();
    return out;
  }
  Result<IdleReport> r = analyzer.Finish({});
  if (!r.ok()) {
    out.error = r.status().message();
    return out;
  }
  if (std::getenv("IDLE_RSS_NO_JSON") == nullptr) {
    out.json_bytes = IdleReportJsonText(*r, Freshness{"2026-12-01", 90}).size();
  }
  out.ok = true;
  return out;
}

int RunCase(int hosts, size_t max_hosts, int threads) {
  std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  std::vector<std::string> bodies;
  for (int t = 0; t < threads; ++t) bodies.push_back(Body(hosts, t));
  const long base = StatusKib("VmRSS");
  IdleOptions o;
  o.max_hosts = max_hosts;
  o.max_series = 1000000;
  std::vector<Outcome> outcomes(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] { outcomes[t] = OneRequest(catalog, bodies[t], o); });
  }
  for (std::thread& th : pool) th.join();
  const long peak = StatusKib("VmHWM"), after = StatusKib("VmRSS");
  const Outcome& first = outcomes[0];
  std::printf("%7d %9zu %7d %8.2f %8.2f %-9s %9.1f %9.1f %10.2f %9.1f\n", hosts, max_hosts, threads,
              static_cast<double>(bodies[0].size()) / (1 << 20),
              static_cast<double>(first.json_bytes) / (1 << 20), first.ok ? "ok" : "refused",
              static_cast<double>(base) / 1024, static_cast<double>(peak) / 1024,
              static_cast<double>(peak - base) / threads / std::max(1, hosts),
              static_cast<double>(after) / 1024);
  if (!first.ok && std::getenv("IDLE_RSS_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s\n", first.error.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace gpuadvisor

int main(int argc, char** argv) {
  if (argc == 4) {
    return gpuadvisor::RunCase(std::atoi(argv[1]), std::strtoul(argv[2], nullptr, 10),
                               std::atoi(argv[3]));
  }
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 1;
  self[n] = '\0';
  std::printf(
      "  hosts max_hosts threads body_MiB json_MiB result    base_MiB  peak_MiB KiB/host*  "
      "after_MiB\n");
  std::fflush(stdout);
  struct Case {
    int hosts;
    size_t max_hosts;
    int threads;
  };
  const Case cases[] = {{1000, 10000, 1},  {10000, 10000, 1}, {25000, 10000, 1}, {1000, 25000, 1},
                        {10000, 25000, 1}, {25000, 25000, 1}, {25000, 10000, 4}, {10000, 10000, 4}};
  for (const Case& c : cases) {
    const std::string cmd = std::string("'") + self + "' " + std::to_string(c.hosts) + " " +
                            std::to_string(c.max_hosts) + " " + std::to_string(c.threads);
    if (std::system(cmd.c_str()) != 0) return 1;
  }
  std::printf(
      "* (peak - base) / threads / hosts: memory per host of one request, report included\n");
  return 0;
}
