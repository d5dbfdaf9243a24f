// Outbound HTTP URLs, parsed strictly, so that an allow-list is a comparison of parsed parts and
// never a string prefix (a prefix check let `<allowed>/api/v1/admin/tsdb/delete_series?x=`,
// `<allowed>/../-/quit` or `<allowed>/tenant-a/..%2ftenant-b` through).
//
// Accepted: http(s)://host[:port][/path]
//   scheme  http or https, any case (kept lower-case)
//   host    a DNS name (letters, digits, '-', '_', dot-separated, kept lower-case), an IPv4
//           a.b.c.d, or an IPv6 literal in brackets ([::1], kept lower-case, no zone)
//   port    1-65535; default 80 (http) / 443 (https)
//   path    segments of letters, digits and -._~; %XX only for those characters (decoded);
//           empty segments ("//") and a trailing '/' are dropped; "." and ".." are refused
// Refused: user info ('@'), query ('?'), fragment ('#'), '\', spaces, control characters, NUL,
// non-ASCII bytes, any other percent-encoding (%2f, %5c, %25, ...).
// Every outbound request goes to a base URL parsed here plus a fixed path the caller owns.
#ifndef GPUADVISOR_UTIL_URL_H_
#define GPUADVISOR_UTIL_URL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct HttpUrl {
  std::string scheme;  // "http" or "https"
  std::string host;    // lower-case; an IPv6 literal without its brackets
  uint16_t port = 0;   // never 0 once parsed: the default port of the scheme when none is given
  std::string path;    // "" or "/seg/seg": normalised, no trailing '/'

  bool ipv6() const { return host.find(':') != std::string::npos; }
  // "host" or "[v6]", with ":port" when it is not the scheme's default (the Host header).
  std::string Authority() const;
  // scheme://authority + path: the canonical text of the URL.
  std::string ToString() const;
};

// InvalidArgument "<what>: expected ..., got "<text>"" naming the first problem; `what` is the
// field the caller reports (e.g. "--prometheus") and is also set as the Status field without
// its leading dashes.
Result<HttpUrl> ParseHttpUrl(std::string_view text, std::string_view what = "url");

// True iff `url` is under `base`: same scheme, host and port, and url.path equals base.path or
// continues it at a '/' boundary ("/tenant-a" allows "/tenant-a/x", not "/tenant-ab").
bool UrlWithin(const HttpUrl& url, const HttpUrl& base);

// A comma-separated allow-list (spaces around entries ignored, empty entries skipped), every
// entry parsed with ParseHttpUrl; the first bad entry is an InvalidArgument naming `what`.
Result<std::vector<HttpUrl>> ParseUrlList(std::string_view text, std::string_view what);

// "%41+b" -> "A b" when plus_is_space (query strings); a malformed escape is kept as it is.
std::string PercentDecode(std::string_view s, bool plus_is_space);

// True iff `url` is within one of `allowed`.
bool UrlAllowed(const HttpUrl& url, const std::vector<HttpUrl>& allowed);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_URL_H_
