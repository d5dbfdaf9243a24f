// libFuzzer target: outbound URLs (util/url.h). Every input parses or is refused with an
// InvalidArgument; a parsed URL is canonical (its text parses to itself), its path has no '.',
// '..' or empty segment and no '?', '#', '%', '\' or '@', and it is within itself; the input
// split at its first ',' is an allow-list that either parses or is refused.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "util/url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<HttpUrl> url = ParseHttpUrl(text, "--prometheus");
  if (!url.ok()) {
    if (url.status().code() != StatusCode::kInvalidArgument) std::abort();
  } else {
    const std::string canonical = url->ToString();
    Result<HttpUrl> again = ParseHttpUrl(canonical);
    if (!again.ok() || again->ToString() != canonical || !UrlWithin(*url, *again)) std::abort();
    const std::string& p = url->path;
    if (p.find_first_of("?#%\\@") != std::string::npos || p.find("//") != std::string::npos ||
        p.find("/./") != std::string::npos || p.find("/../") != std::string::npos ||
        (p.size() >= 2 && p.ends_with("/.")) || (p.size() >= 3 && p.ends_with("/..")) ||
        (!p.empty() && (p.front() != '/' || p.back() == '/')) || url->port == 0) {
      std::abort();
    }
  }
  Result<std::vector<HttpUrl>> list = ParseUrlList(text, "allow");
  if (list.ok() && url.ok() && !UrlAllowed(*url, *list)) std::abort();
  return 0;
}
