// HTTP/1.x request heads as data: the parser the server's reactor runs on each complete head
// (request line + header lines, up to but not including the blank line), and the checks that
// belong to the head alone (limits, UTF-8 of the decoded path and query, the Host allow-list).
// Pure functions over bytes: unit-tested and fuzzed (fuzz/fuzz_http_head.cc) without sockets.
#ifndef GPUADVISOR_SERVER_HTTP_REQUEST_H_
#define GPUADVISOR_SERVER_HTTP_REQUEST_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/i18n.h"

namespace gpuadvisor::server {

struct HttpRequest {
  std::string method;                                      // "GET", "POST", ... (upper-case token)
  std::string path;                                        // percent-decoded, without the query
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order, repeats kept
  std::vector<std::pair<std::string, std::string>> headers;
  int minor_version = 1;      // HTTP/1.<minor>
  size_t content_length = 0;  // body bytes that follow the head
  bool keep_alive = true;     // HTTP/1.1 unless "Connection: close"; 1.0 only with keep-alive
  bool expect_continue = false;
  std::string body;

  // The first header named `name` (case-insensitive), or "".
  std::string_view Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct HeadLimits {
  size_t max_header_bytes = 16 << 10;  // all header lines: name + value + 4 each
  int max_headers = 64;
  size_t max_target_bytes = 8 << 10;  // the request target; longer is 414
};

// An HTTP error from the head: status, the error code and message of the JSON body, the field.
struct HeadError {
  int status = 0;  // 0 = none
  std::string code, message, field;
  explicit operator bool() const { return status != 0; }
};

// Parses `head` (the bytes before the blank line; CRLF or bare LF line ends) into *req.
// 400 malformed, 414 target too long, 431 too many / too large headers, 411 chunked or other
// transfer codings (bodies must carry Content-Length), 417 an Expect other than 100-continue,
// 505 a version other than HTTP/1.0 or 1.1. Non-UTF-8 bytes in the decoded path or query are
// 400 naming the parameter.
HeadError ParseRequestHead(std::string_view head, const HeadLimits& limits, HttpRequest* req);

// "%41+b" -> "A b" when plus_is_space (query strings); malformed escapes are kept as they are.
std::string PercentDecode(std::string_view s, bool plus_is_space);

// Whether a request with this Host header may be served (the DNS-rebinding guard). `allowed`
// holds lower-case names (no port); "*" allows any. An IP literal (any spelling inet_pton
// takes, IPv6 in brackets) is always allowed: rebinding needs a name the attacker's DNS
// answers, and a browser sends a literal only when it connected to that address. A Host with a
// port must name `port`. An empty Host (HTTP/1.0 clients) is allowed: browsers always send one.
bool HostAllowed(std::string_view host_header, const std::vector<std::string>& allowed, int port);

// Whether an Accept-Encoding value lets the answer be gzipped (RFC 9110 12.5.3): "gzip" (or
// "x-gzip") with a q-value above 0, or "*" with one when gzip is not named. "gzip;q=0" refuses
// it, and so does an empty value.
bool AcceptsGzip(std::string_view accept_encoding);

// The names every server answers to besides IP literals: "localhost".
std::vector<std::string> LoopbackHostNames();

// True for "localhost" and every spelling of a loopback address: 127.0.0.0/8, ::1 in any IPv6
// form (0:0:0:0:0:0:0:1, [::1]) and IPv4-mapped loopback (::ffff:127.0.0.1).
bool IsLoopbackAddress(std::string_view host);

// What the cross-site check needs to know about the server.
struct OriginPolicy {
  std::string cors_origin;  // --cors: "" none, "*" any, or one origin allowed besides our own
  bool tls = false;         // our own origin is https://Host, else http://Host
};

// The cross-site request guard (doc/server.md, "Threat model"). GET, HEAD and OPTIONS pass.
// Any other method (they change state or call upstream servers) is refused with 403 when it
// carries an Origin that is neither the request's own (scheme "://" Host) nor --cors, or, with
// no Origin, a Sec-Fetch-Site other than same-origin or none; and with 415 when a POST body
// does not declare a JSON type (application/json, *+json) or, on /v1/idle, a telemetry type
// (text/csv, application/xml, text/xml, application/x-ndjson, application/octet-stream). The
// three types a page may send cross-site without a preflight (text/plain,
// application/x-www-form-urlencoded, multipart/form-data) are never accepted. A PUT may omit
// the type: browsers preflight every cross-site PUT, which this server never grants.
HeadError CheckCrossSite(const HttpRequest& req, const OriginPolicy& policy);

// The language of an Accept-Language header ("zh-CN,zh;q=0.9,en;q=0.8"): the supported one
// with the highest q (ties: the first listed); q=0 excludes. nullopt when none is supported.
std::optional<Language> LanguageFromAcceptLanguage(std::string_view header);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_REQUEST_H_
