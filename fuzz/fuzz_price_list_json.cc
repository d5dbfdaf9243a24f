// libFuzzer target: the AWS Price List EC2 offer file, JSON variant (RapidJSON SAX handler).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/import/aws_formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto in = ByteStream::FromMemory(text, "fuzz.json");
  import::PriceListData d;
  (void)import::ReadPriceListJson(in.get(), [](std::string_view) { return true; }, &d);
  return 0;
}
