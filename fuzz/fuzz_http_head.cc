// libFuzzer target: the server's HTTP request-head parser (server/http_request.h), the Host
// allow-list and the percent / UTF-8 decoding it relies on. Every input must parse or be refused
// with a status; a parsed request's path and query are UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "server/http_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor::server;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  HeadLimits limits;
  limits.max_header_bytes = 2048;
  limits.max_headers = 16;
  limits.max_target_bytes = 1024;
  HttpRequest req;
  const HeadError e = ParseRequestHead(text, limits, &req);
  if (e) {
    if (e.status < 400 || e.status > 599 || e.message.empty()) std::abort();
  } else {
    if (!ValidUtf8(req.path) || req.headers.size() > 16) std::abort();
    for (const auto& [k, v] : req.query) {
      if (!ValidUtf8(k) || !ValidUtf8(v)) std::abort();
    }
    (void)HostAllowed(req.Header("Host"), LoopbackHostNames(), 8080);
  }
  if (PercentDecode(text, true).size() > size) std::abort();
  (void)HostAllowed(text, {"example.com", "*"}, 80);
  return 0;
}
