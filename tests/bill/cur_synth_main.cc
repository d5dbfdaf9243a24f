// Writes the synthetic Cost and Usage Report of tests/testutil/cur_synth.h to standard output:
// `cur_synth DAYS [COPIES]` (COPIES > 1 repeats the fleet under other account ids' resource ids,
// for throughput benchmarks). The push-down test (tests/bill/pushdown_test.sh) and
// bench/cur_throughput.sh use it.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "testutil/cur_synth.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cur_synth DAYS [COPIES]\n");
    return 2;
  }
  const int days = std::atoi(argv[1]);
  const int copies = argc > 2 ? std::atoi(argv[2]) : 1;
  if (days < 1 || days > 3660 || copies < 1 || copies > 1000) {
    std::fprintf(stderr, "cur_synth: DAYS 1-3660, COPIES 1-1000\n");
    return 2;
  }
  for (int c = 0; c < copies; ++c) {
    bool header = c > 0;  // later copies skip the header line
    gpuadvisor::testing::WriteSyntheticCur(days, [&](const std::string& chunk) {
      std::string_view text = chunk;
      if (header) {
        text.remove_prefix(std::min(text.size(), text.find('\n') + 1));
        header = false;
      }
      std::fwrite(text.data(), 1, text.size(), stdout);
    });
  }
  return 0;
}
