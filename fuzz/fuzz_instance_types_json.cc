// libFuzzer target: DescribeInstanceTypes and spot-advisor JSON importers.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/build/sources.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)gpuadvisor::build::ReadDescribeInstanceTypes(text, "fuzz.json");
  (void)gpuadvisor::build::ReadSpotAdvisorJson(text, "fuzz.json");
  return 0;
}
