// The server's own policy over a request, apart from the transport that carries it: which Host
// names it answers to (DNS rebinding), which cross-site requests it refuses, how it reads
// Accept-Encoding and Accept-Language, which paths are never served, and the serve options'
// checks that their declarations cannot say. Pure functions: unit-tested and fuzzed
// (fuzz/fuzz_http_head.cc) without sockets.
#ifndef GPUADVISOR_SERVER_GUARDS_H_
#define GPUADVISOR_SERVER_GUARDS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/serve.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/result.h"
#include "server/http_reader.h"

namespace gpuadvisor::server {

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

// True for a path that never names anything served: not from "/", or with a "." or ".."
// segment, a backslash or a NUL.
bool SuspiciousPath(std::string_view path);

// Returns a copy of `o` checked for what its declaration's bounds (serve.h) cannot say:
// InvalidArgument naming the option for an empty host, a TLS certificate without its key (or
// the other way round), a malformed CORS origin or allowed host. Host names in allow_hosts are
// lower-cased.
Result<ServeOptions> CheckServeOptions(const ServeOptions& o);

// True for "" (CORS off), "*" and one origin "http[s]://host[:port]" (host a name, an IPv4
// address or a bracketed IPv6 one; no path, user, whitespace or control characters): what
// may follow "Access-Control-Allow-Origin: " in a response.
bool CorsOriginValid(std::string_view origin);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_GUARDS_H_
