// libFuzzer target: the streaming CSV scanner and the AWS Price List / Savings Plans CSV
// importers (gzip-compressed input is inflated first, as for files).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/import/aws_formats.h"
#include "util/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto keep = [](std::string_view) { return true; };
  {
    auto in = ByteStream::FromMemory(text, "fuzz.csv");
    import::PriceListData d;
    (void)import::ReadPriceListCsv(in.get(), keep, &d);
  }
  {
    auto in = ByteStream::FromMemory(text, "fuzz.csv");
    import::SavingsPlansData d;
    (void)import::ReadSavingsPlansCsv(in.get(), keep, &d);
  }
  {
    // A tiny buffer exercises records that span refills and buffer growth.
    auto in = ByteStream::FromMemory(text, "fuzz.csv");
    CsvReader csv(in.get(), 64, 4096);
    while (csv.Next()) (void)csv.line();
  }
  return 0;
}
