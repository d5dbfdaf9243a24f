// Writes a synthetic AWS Price List EC2 offer file for the import benchmarks.
//   gen_price_list csv|json OUT MEGABYTES
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "price_list_gen.h"

int main(int argc, char** argv) {
  if (argc != 4 || (std::strcmp(argv[1], "csv") != 0 && std::strcmp(argv[1], "json") != 0)) {
    std::fprintf(stderr, "usage: gen_price_list csv|json OUT MEGABYTES\n");
    return 2;
  }
  std::FILE* f = std::fopen(argv[2], "wb");
  if (!f) {
    std::perror(argv[2]);
    return 3;
  }
  const uint64_t bytes = std::strtoull(argv[3], nullptr, 10) * 1000 * 1000;
  const uint64_t n = std::strcmp(argv[1], "csv") == 0 ? gpuadvisor::bench::WriteCsv(f, bytes)
                                                      : gpuadvisor::bench::WriteJson(f, bytes);
  std::fclose(f);
  std::fprintf(stderr, "gen_price_list: %s: %llu records\n", argv[2],
               static_cast<unsigned long long>(n));
  return 0;
}
