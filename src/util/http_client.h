// The library's one outbound HTTP client (libcurl), used by the Prometheus source
// (telemetry/prometheus_source.cc) and the EC2 metadata client (watch/watch.cc). Framing, chunked
// bodies, TLS and decompression are libcurl's; the policy is here and is the same for every
// caller:
//   - only http and https, never a proxy (environment variables included), HTTP/1.1;
//   - redirects are never followed: a 3xx answer is an IOError "redirect (HTTP 302) refused";
//   - the whole operation (resolve, connect, send, headers, body) ends by `timeout_s`, the
//     connection by `connect_timeout_s`, whatever the server does;
//   - the body is refused once it passes `max_response_bytes` (from its Content-Length, or while
//     it arrives), counted after decompression when `decompress` is set, so a gzip bomb stops at
//     the ceiling;
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
#include <functional>
#include <string>
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
  int status = 0;    // 1xx-5xx except 3xx (refused)
  std::string body;  // decoded when decompress is set; at most max_response_bytes
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
