// The library's one outbound HTTP client (libcurl), used by the Prometheus source
// (telemetry/prometheus_source.cc) and the EC2 metadata client (watch/watch.cc). Framing, chunked
// bodies, TLS and decompression are libcurl's; the policy is here and is the same for every
// caller:
//   - only http and https, HTTP/1.1; never a proxy (environment variables included) unless the
//     request opts in with `proxy` (the catalog download from AWS's public price list, which
//     corporate networks only allow through their proxy; Prometheus and IMDS never do: their
//     allow-list and link-local address hold only for a direct connection);
//   - redirects are never followed: a 3xx answer is an IOError "redirect (HTTP 302) refused";
//   - the whole operation (resolve, connect, send, headers, body) ends by `timeout_s`, the
//     connection by `connect_timeout_s`, whatever the server does;
//   - the body is refused once it passes `max_response_bytes` (from its Content-Length, or while
//     it arrives), counted after decompression when `decompress` is set, so a gzip bomb stops at
//     the ceiling;
//   - a 2xx body can be streamed to `on_body` as it arrives instead of being kept (a multi-GB
//     price-list file is never held whole);
//   - `cancelled` is asked while waiting and receiving (about every 100 ms);
//   - errors name `what` (the caller's label, e.g. a URL or "IMDS 169.254.169.254") and the cause
//     in plain words ("connection refused", "could not resolve host", "no complete answer within
//     120 s", "answer larger than N bytes"); text from libcurl or the server goes through
//     TerminalSafe.
// The caller checks the URL (ParseHttpUrl, allow-lists) before it asks: this client connects to
// whatever URL it is given.
//
// Thread-safety: one HttpClient per thread (it holds a libcurl handle and its connection cache,
// so consecutive requests to the same server reuse the connection); any number of clients may
// exist on different threads (libcurl's global initialisation is done once, thread-safely).
#ifndef GPUADVISOR_UTIL_HTTP_CLIENT_H_
#define GPUADVISOR_UTIL_HTTP_CLIENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct HttpRequest {
  std::string method = "GET";  // GET, PUT or POST
  std::string url;             // http(s)://authority/path, already checked by the caller
  // Extra "Name: value" lines (no CR/LF). Host, Content-Length, Transfer-Encoding and Expect are
  // libcurl's own and are dropped; a PUT or POST without Content-Type sends none.
  std::vector<std::string> headers;
  std::string body;                             // sent with PUT and POST
  std::string what;                             // error prefix; "" = the URL
  double timeout_s = 120;                       // whole operation, > 0
  double connect_timeout_s = 0;                 // 0 = timeout_s
  size_t max_response_bytes = size_t{1} << 20;  // body ceiling (after decompression)
  bool decompress = false;                      // ask for and decode gzip / deflate
  std::function<bool()> cancelled;              // null = never; true stops the request
  // Authorization: Bearer TOKEN when set, else Basic when basic_user is set.
  std::string bearer_token;
  std::string basic_user, basic_password;
  // Proxy opt-in: "" (the default) connects directly whatever the environment says; else the
  // proxy URL ("http://proxy.corp:3128") the caller read from HTTPS_PROXY / HTTP_PROXY, with
  // `no_proxy` (NO_PROXY's comma-separated hosts and domains, "*" = none) bypassing it.
  std::string proxy;
  std::string no_proxy;
  // Streaming: when set, each piece of a 2xx body is handed to on_body(piece, announced total
  // or -1) as it arrives and not kept in HttpResponse::body; returning false stops the transfer
  // (HttpFailure::kCancelled, "stopped: cancelled"). Bodies of other statuses are kept (at most
  // 64 KiB) for the caller's error message. The ceiling still counts every byte.
  std::function<bool(std::string_view piece, int64_t total)> on_body;
};

// Why a request failed (for callers that word some causes their own way).
enum class HttpFailure {
  kNone,
  kResolve,    // the host name does not resolve
  kConnect,    // no connection (refused, unreachable, connect timeout)
  kTimeout,    // no complete answer within timeout_s
  kTooLarge,   // body over max_response_bytes
  kCancelled,  // `cancelled` said so
  kRedirect,   // a 3xx answer
  kOther,      // anything else (TLS, protocol, connection lost)
};

struct HttpResponse {
  int status = 0;          // 1xx-5xx except 3xx (refused); 304 Not Modified is an answer too
  std::string body;        // decoded when decompress is set; at most max_response_bytes
  int64_t body_bytes = 0;  // body bytes received (streamed ones included)
  // The final answer's header lines as (name in lower case, value trimmed), in order.
  std::vector<std::pair<std::string, std::string>> headers;
  // The first value of header `name` (lower case), "" when absent.
  std::string Header(std::string_view name) const;
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `req` and reads the whole answer. Any HTTP status except 3xx is a response (the
  // caller judges 4xx/5xx); failures are IOError "<what>: <cause>", with the cause's kind in
  // `*failure` when given (kNone on success). InvalidArgument for a method other than GET, PUT
  // or POST.
  Result<HttpResponse> Send(const HttpRequest& req, HttpFailure* failure = nullptr);

 private:
  void* curl_;  // CURL*, kept for its connection cache; null when libcurl could not start
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_HTTP_CLIENT_H_
