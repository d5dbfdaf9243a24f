// libFuzzer target: DescribeInstanceTypeOfferings and DescribeSpotPriceHistory responses.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/import/aws_formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)import::ReadInstanceTypeOfferingsJson(text, "fuzz.json");
  auto spot = import::ReadSpotPriceHistoryJson(text, "fuzz.json");
  if (spot.ok()) {
    for (const auto& r : *spot) (void)import::RegionOfAzName(r.availability_zone);
  }
  return 0;
}
