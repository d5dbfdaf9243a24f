// libFuzzer target: the server's request framing and target decoding (server/http_reader.h,
// Boost.Beast's parser), the Host allow-list of server/guards.h and the percent / UTF-8
// decoding they rely on. Every input must frame into requests or be refused
// with a status; a framed request's path and query are UTF-8; and the same bytes fed whole or split
// at a point chosen by the input frame the same requests (no desync; an error may show sooner in
// one of them).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "server/guards.h"
#include "server/http_reader.h"
#include "util/text.h"
#include "util/url.h"

namespace {

using namespace gpuadvisor::server;
using gpuadvisor::PercentDecode;
using gpuadvisor::ValidUtf8;

// One line per framed request or error, feeding `text` in two pieces cut at `cut`.
std::string Frame(std::string_view text, size_t cut) {
  ReaderLimits limits;
  limits.head.max_header_bytes = 2048;
  limits.head.max_headers = 16;
  limits.head.max_target_bytes = 1024;
  limits.max_body_bytes = 4096;
  RequestReader reader(limits);
  std::string out, pending;
  for (std::string_view piece : {text.substr(0, cut), text.substr(cut)}) {
    pending.append(piece);
    for (;;) {
      size_t used = 0;
      const RequestReader::State st = reader.Feed(pending, &used);
      if (used > pending.size()) std::abort();
      pending.erase(0, used);
      if (st == RequestReader::State::kError) {
        const HeadError& e = reader.error();
        if (e.status < 400 || e.status > 599 || e.message.empty()) std::abort();
        return out + "error " + std::to_string(e.status) + "\n";
      }
      if (st != RequestReader::State::kDone) {
        if (st == RequestReader::State::kNeedMore) break;
        continue;  // kHead: the body follows
      }
      const HttpRequest& req = reader.request();
      // 16 headers sent, plus the Host an absolute-form target supplies.
      if (!ValidUtf8(req.path) || req.headers.size() > 17 || req.body.size() > 4096) std::abort();
      for (const auto& [k, v] : req.query) {
        if (!ValidUtf8(k) || !ValidUtf8(v)) std::abort();
      }
      (void)HostAllowed(req.Header("Host"), LoopbackHostNames(), 8080);
      (void)LanguageFromAcceptLanguage(req.Header("Accept-Language"));
      out += req.method + " " + req.path + " " + std::to_string(req.body.size()) + "\n";
      reader.Next();
    }
  }
  return out;
}

// The framed-request lines of a Frame() answer, and whether it ends in an error.
std::string Requests(const std::string& a) {
  const size_t at = a.rfind("error ");
  return at == std::string::npos ? a : a.substr(0, at);
}
bool IsError(const std::string& a) { return a.rfind("error ") != std::string::npos; }

// `a` is `b` (which still waits for bytes) and then an error line.
bool EarlierError(const std::string& a, const std::string& b) {
  return a.size() > b.size() && a.compare(0, b.size(), b) == 0 &&
         a.compare(b.size(), 6, "error ") == 0 && a.find('\n', b.size()) == a.size() - 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t cut = size == 0 ? 0 : data[0] % size;
  // Split vs whole: the same requests framed. Beast resumes its scan of a head where the last
  // one stopped, so in a malformed head it may find another fault first (400 vs 505), or find
  // one where the other still waits for bytes: either way the connection is refused. Any other
  // difference (another request framed, a request's bytes taken as a body) is a desync.
  const std::string split = Frame(text, cut), whole = Frame(text, size);
  if (split != whole && !EarlierError(split, whole) && !EarlierError(whole, split) &&
      !(IsError(split) && IsError(whole) && Requests(split) == Requests(whole))) {
    std::abort();
  }
  HeadLimits limits;
  limits.max_header_bytes = 2048;
  limits.max_headers = 16;
  limits.max_target_bytes = 1024;
  HttpRequest req;
  const HeadError e = ConvertHead("GET", text, 11, {{"Host", "example.com"}}, limits, &req);
  if (e && (e.status < 400 || e.status > 599 || e.message.empty())) std::abort();
  if (PercentDecode(text, true).size() > size) std::abort();
  (void)HostAllowed(text, {"example.com", "*"}, 80);
  return 0;
}
