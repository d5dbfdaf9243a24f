// `catalog import` parser throughput on synthetic AWS Price List offer files (CSV and JSON) of
// GPUADVISOR_BENCH_MB megabytes (default 256), generated once into $TMPDIR. Reports bytes/s per
// core (the parsers are single-threaded) and the process's peak RSS. The ≥500 MB end-to-end run
// with /usr/bin/time and the Python side-by-side is bench/import_throughput.sh.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   import_bench && build-bench/bench/import_bench
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "catalog/import/aws_formats.h"
#include "price_list_gen.h"
#include "util/byte_stream.h"

namespace gpuadvisor {
namespace {

uint64_t BenchBytes() {
  const char* mb = std::getenv("GPUADVISOR_BENCH_MB");
  return (mb ? std::strtoull(mb, nullptr, 10) : 256) * 1000 * 1000;
}

// The file is generated on first use and removed at exit.
const std::string& File(bool json) {
  static std::string paths[2];
  std::string& p = paths[json];
  if (p.empty()) {
    const char* dir = std::getenv("TMPDIR");
    p = std::string(dir ? dir : "/tmp") + "/gpuadvisor-bench-" + std::to_string(::getpid()) +
        (json ? ".json" : ".csv");
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (json) {
      bench::WriteJson(f, BenchBytes());
    } else {
      bench::WriteCsv(f, BenchBytes());
    }
    std::fclose(f);
    std::atexit([] {
      for (const std::string& x : paths) {
        if (!x.empty()) std::remove(x.c_str());
      }
    });
  }
  return p;
}

double PeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void Run(benchmark::State& state, bool json) {
  const std::string& path = File(json);
  int64_t bytes = 0, rows = 0, taken = 0;
  for (auto _ : state) {
    auto in = ByteStream::Open(path);
    import::PriceListData d;
    auto keep = [](std::string_view t) { return t[0] == 'p' || t[0] == 'g' || t[0] == 't'; };
    Status st = json ? import::ReadPriceListJson(in->get(), keep, &d)
                     : import::ReadPriceListCsv(in->get(), keep, &d);
    if (!st.ok()) state.SkipWithError(st.message().c_str());
    bytes += (*in)->position();
    rows = d.rows;
    taken = d.canonical_rows;
  }
  state.SetBytesProcessed(bytes);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["canonical"] = static_cast<double>(taken);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}

void BM_PriceListCsv(benchmark::State& state) { Run(state, false); }
void BM_PriceListJson(benchmark::State& state) { Run(state, true); }
BENCHMARK(BM_PriceListCsv)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_PriceListJson)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
