// Telemetry analysis throughput (target, doc/design.md: >= 200 MB/s of nvidia-smi CSV). Writes
// a 64 MiB log of an 8-GPU host (the columns people log: timestamp, hostname, index, name,
// utilization.gpu, memory.used, memory.total, power.draw, with units) to a temporary file, then
// times reading it and folding it into the idle analysis; also the parser alone, a gzip copy and
// Prometheus text.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   idle_bench && build-bench/bench/idle_bench
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <string>

#include "gpuadvisor/idle.h"

namespace gpuadvisor {
namespace {

constexpr size_t kTarget = size_t{64} << 20;

std::string MakeCsv() {
  std::string out =
      "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total "
      "[MiB], power.draw [W]\n";
  char line[200];
  for (long s = 0; out.size() < kTarget; ++s) {
    const long day = s / 86400, sec = s % 86400;
    for (int g = 0; g < 8; ++g) {
      const int util = (sec / 3600) % 3 == 0 ? 0 : static_cast<int>((s * 7 + g * 13) % 100);
      std::snprintf(line, sizeof line,
                    "2026/07/%02ld %02ld:%02ld:%02ld.%03d, ip-10-0-12-34, %d, NVIDIA H100 80GB "
                    "HBM3, %d %%, %d MiB, 81559 MiB, %d.%02d W\n",
                    1 + day % 28, sec / 3600, sec / 60 % 60, sec % 60, g * 2, g, util, util * 700,
                    70 + util * 6, g * 7 % 100);
      out += line;
    }
  }
  return out;
}

std::string MakeProm() {
  std::string out;
  char line[240];
  for (long s = 0; out.size() < kTarget / 4; s += 15) {
    for (int g = 0; g < 8; ++g) {
      std::snprintf(line, sizeof line,
                    "DCGM_FI_DEV_GPU_UTIL{gpu=\"%d\",UUID=\"GPU-%d\",modelName=\"NVIDIA H100 80GB "
                    "HBM3\",Hostname=\"node-1\"} %ld %ld\n"
                    "DCGM_FI_DEV_FB_USED{gpu=\"%d\",UUID=\"GPU-%d\",Hostname=\"node-1\"} %ld %ld\n",
                    g, g, (s + g) % 100, (1782864000 + s) * 1000, g, g, s % 80000,
                    (1782864000 + s) * 1000);
      out += line;
    }
  }
  return out;
}

const std::string& File(const char* kind) {
  static std::string csv, gz, prom;
  std::string* path = kind[0] == 'c' ? &csv : kind[0] == 'g' ? &gz : &prom;
  if (path->empty()) {
    *path = "/tmp/gpuadvisor-idle-bench-" + std::to_string(::getpid()) + "." + kind;
    const std::string data = kind[0] == 'p' ? MakeProm() : MakeCsv();
    if (kind[0] == 'g') {
      gzFile f = gzopen(path->c_str(), "wb6");
      gzwrite(f, data.data(), static_cast<unsigned>(data.size()));
      gzclose(f);
    } else {
      FILE* f = std::fopen(path->c_str(), "wb");
      std::fwrite(data.data(), 1, data.size(), f);
      std::fclose(f);
    }
  }
  return *path;
}

int64_t FileSize(const std::string& p) {
  FILE* f = std::fopen(p.c_str(), "rb");
  std::fseek(f, 0, SEEK_END);
  const long n = std::ftell(f);
  std::fclose(f);
  return n;
}

void Analyze(benchmark::State& state, const char* kind, int64_t raw_bytes_per_iter) {
  static std::shared_ptr<const Catalog> catalog = *EmbeddedCatalog();
  const std::string& path = File(kind);
  uint64_t samples = 0;
  for (auto _ : state) {
    IdleAnalyzer a(catalog, IdleOptions());
    if (!a.AddFile(path, {}).ok()) std::abort();
    Result<IdleReport> r = a.Finish({});
    samples += r->hosts[0].samples;
    benchmark::DoNotOptimize(r->total_wasted.totals().size());
  }
  state.SetBytesProcessed(state.iterations() * raw_bytes_per_iter);
  state.counters["samples/s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
}

void BM_IdleCsv(benchmark::State& state) { Analyze(state, "csv", FileSize(File("csv"))); }
void BM_IdleCsvGzip(benchmark::State& state) {
  Analyze(state, "gz", FileSize(File("csv")));  // uncompressed bytes per second
}
void BM_IdlePrometheus(benchmark::State& state) { Analyze(state, "prom", FileSize(File("prom"))); }

void BM_ParseCsvOnly(benchmark::State& state) {
  const std::string& path = File("csv");
  for (auto _ : state) {
    uint64_t n = 0;
    Result<TelemetryFileInfo> r = ReadTelemetryFile(path, {}, [&n](const TelemetrySample& s) {
      n += s.util_pct ? 1 : 0;
      return Status::OK();
    });
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(state.iterations() * FileSize(path));
}

BENCHMARK(BM_IdleCsv)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ParseCsvOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_IdleCsvGzip)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_IdlePrometheus)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace gpuadvisor

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const char* k : {"csv", "gz", "prom"}) std::remove(gpuadvisor::File(k).c_str());
  return 0;
}
