// libFuzzer target: the CSV reader and the price / offerings / datasheet CSV importers.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/build/sources.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace gpuadvisor::build;
  PriceCsvColumns sky;
  sky.instance_type = "InstanceType";
  sky.region = "Region";
  sky.az_id = "AvailabilityZone";
  sky.on_demand = "Price";
  sky.spot = "SpotPrice";
  (void)ReadPriceCsv(text, "fuzz.csv", PriceCsvColumns{});
  (void)ReadPriceCsv(text, "fuzz.csv", sky);
  (void)ReadOfferingsCsv(text, "fuzz.csv");
  (void)ReadGpuSpecsCsv(text, "fuzz.csv");
  return 0;
}
