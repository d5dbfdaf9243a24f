// What `serve` answers to one complete request, apart from the connection that carries it: the
// headers every answer carries, the guards (server/guards.h), then the embedded page
// (server/web_assets.h) or the API (server/api.h), as a Boost.Beast response whose body is
// shared, never copied (a cached answer's bytes go to every connection that writes them). Pure
// over a request: unit-tested without sockets (tests/server/security_test.cc).
#ifndef GPUADVISOR_SERVER_RESPONDER_H_
#define GPUADVISOR_SERVER_RESPONDER_H_

#include <atomic>
#include <boost/asio/buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/serve.h"
#include "server/api.h"
#include "server/guards.h"
#include "server/http_reader.h"

namespace gpuadvisor::server {

// A Beast body written from bytes shared with the response cache and every connection writing
// the same answer: one copy however many slow readers ask for it. Null: no body.
struct SharedBody {
  using value_type = std::shared_ptr<const std::string>;
  static std::uint64_t size(const value_type& body) { return body ? body->size() : 0; }
  class writer {  // NOLINT(readability-identifier-naming): Beast's Body concept names it
   public:
    using const_buffers_type = boost::asio::const_buffer;
    template <bool isRequest, class Fields>
    writer(const boost::beast::http::header<isRequest, Fields>&, const value_type& body)
        : body_(body) {}
    void init(boost::beast::error_code& ec) { ec = {}; }
    boost::optional<std::pair<const_buffers_type, bool>> get(boost::beast::error_code& ec) {
      ec = {};
      if (body_ == nullptr || body_->empty()) return boost::none;
      return {{const_buffers_type(body_->data(), body_->size()), false}};
    }

   private:
    const value_type& body_;
  };
};
using Response = boost::beast::http::response<SharedBody>;

// `res` with the API's answer: its status, type and bytes (moved, or shared as they are).
Response ToResponse(ApiResponse r, Response res = {});
// The JSON error answer (api.h's shape); `retry` adds "Retry-After: 1".
Response ErrorAnswer(int status, std::string_view code, std::string_view msg,
                     std::string_view field = {}, bool retry = false);
// Content-Length and Connection, the last of the head; a HEAD request's answer keeps the length
// and drops the bytes.
void Finish(Response& res, bool keep_alive, bool head_only);
// The bytes of a small answer, finished with "Connection: close" (for a socket that takes them
// now or never).
std::string Bytes(Response res);
// The bytes `res`'s head holds while it is written: its fields, the status line.
size_t HeadBytes(const Response& res);

class Responder {
 public:
  // `holder` and `cache` (may be null) must outlive the responder; `port` is the bound one (the
  // Host allow-list checks it).
  Responder(const ServeOptions& options, CatalogHolder* holder, ResponseCache* cache, int port);

  // The answer to `req`, never throwing: out of memory is a 503, any other exception a 500
  // (logged on stderr). `cancelled` (may be null) becomes ApiContext::cancelled.
  Response Answer(const HttpRequest& req, const std::function<bool()>* cancelled) const;

  uint64_t out_of_memory() const { return out_of_memory_.load(); }

 private:
  Response Route(const HttpRequest& req, Response res, bool gzip,
                 const std::function<bool()>* cancelled) const;
  void LogError(const HttpRequest& req, std::string_view what, int status) const;

  ServeOptions options_;
  CatalogHolder* holder_;
  ResponseCache* cache_;
  int port_;
  std::vector<std::string> hosts_;  // the Host allow-list besides IP literals
  OriginPolicy origin_policy_;
  mutable std::atomic<uint64_t> out_of_memory_{0};
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_RESPONDER_H_
