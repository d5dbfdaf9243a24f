// libFuzzer target: the AWS API answers `catalog import` and `catalog update --aws` read
// (DescribeInstanceTypeOfferings, DescribeSpotPriceHistory, the Price List Query API,
// DescribeReservedInstancesOfferings, DescribeSavingsPlansOfferingRates,
// DescribeCapacityBlockOfferings): whatever an endpoint answers, a reader returns a result or an
// error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>
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
  const import::TypeFilter keep = [](std::string_view) { return true; };
  import::PriceListData query, ri;
  (void)import::ReadPriceListQueryJson(text, "fuzz.json", keep, &query);
  (void)import::ReadReservedOfferingsJson(text, "fuzz.json", "us-east-1", keep, &ri);
  import::SavingsPlansData sp;
  std::string token;
  (void)import::ReadSavingsPlanRatesJson(text, "fuzz.json", keep, &sp, &token);
  auto blocks = import::ReadCapacityBlockOfferingsJson(text, "fuzz.json");
  if (blocks.ok()) {
    for (const auto& b : *blocks) (void)b.per_instance_hour();
  }
  return 0;
}
