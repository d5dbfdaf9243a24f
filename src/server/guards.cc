#include "server/guards.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "util/text.h"

namespace gpuadvisor::server {
namespace {

HeadError Error(int status, std::string code, std::string message, std::string field) {
  return HeadError{status, std::move(code), std::move(message), std::move(field)};
}

// `name` without brackets, when it is an IPv4 or IPv6 literal; 4 or 6, else 0.
int IpLiteral(std::string_view name, unsigned char* bytes) {
  if (name.size() >= 2 && name.front() == '[' && name.back() == ']') {
    name = name.substr(1, name.size() - 2);
  }
  if (name.empty() || name.size() > 64) return 0;
  const std::string text(name);
  if (::inet_pton(AF_INET, text.c_str(), bytes) == 1) return 4;
  if (::inet_pton(AF_INET6, text.c_str(), bytes) == 1) return 6;
  return 0;
}

// Splits "name[:port]" / "[v6][:port]"; false when malformed.
bool SplitAuthority(std::string_view host, std::string_view* name, std::string_view* port) {
  *name = host;
  *port = {};
  if (!host.empty() && host.front() == '[') {  // [::1]:8080
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return false;
    *name = host.substr(0, close + 1);
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      *port = rest.substr(1);
    }
  } else if (const size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    *name = host.substr(0, colon);
    *port = host.substr(colon + 1);
  }
  return true;
}

// The media type of a Content-Type value: lower-case, parameters and spaces dropped.
std::string MediaType(std::string_view value) {
  return ToLower(Trim(value.substr(0, value.find(';'))));
}

bool IsJsonType(std::string_view type) {
  return type == "application/json" ||
         (type.size() > 5 && type.substr(type.size() - 5) == "+json" &&
          type.substr(0, 12) == "application/");
}

bool IsTelemetryType(std::string_view type) {
  for (std::string_view t : {"text/csv", "application/xml", "text/xml", "application/x-ndjson",
                             "application/octet-stream"}) {
    if (type == t) return true;
  }
  return false;
}

// Origin "scheme://authority" equals the request's own origin: our scheme, Host's name and port.
bool SameOrigin(std::string_view origin, std::string_view host, bool tls) {
  const size_t sep = origin.find("://");
  if (sep == std::string_view::npos || host.empty()) return false;
  const std::string scheme = ToLower(origin.substr(0, sep));
  if (scheme != (tls ? "https" : "http")) return false;
  std::string_view oname, oport, hname, hport;
  if (!SplitAuthority(origin.substr(sep + 3), &oname, &oport) ||
      !SplitAuthority(host, &hname, &hport)) {
    return false;
  }
  const std::string_view default_port = scheme == "https" ? "443" : "80";
  if (oport.empty()) oport = default_port;
  if (hport.empty()) hport = default_port;
  return EqualsIgnoreCase(oname, hname) && oport == hport;
}

}  // namespace

bool HostAllowed(std::string_view host_header, const std::vector<std::string>& allowed, int port) {
  const std::string_view host = Trim(host_header);
  if (host.empty()) return true;
  std::string_view name, port_text;
  if (!SplitAuthority(host, &name, &port_text)) return false;
  if (!port_text.empty() && port_text != std::to_string(port)) return false;
  unsigned char bytes[16];
  if (IpLiteral(name, bytes) != 0) return true;
  const std::string lower = ToLower(name);
  for (const std::string& a : allowed) {
    if (a == "*" || a == lower) return true;
  }
  return false;
}

bool AcceptsGzip(std::string_view accept_encoding) {
  std::optional<bool> gzip, any;
  for (std::string_view item : Split(accept_encoding, ',')) {
    const size_t semi = item.find(';');
    const std::string_view coding = Trim(item.substr(0, semi));
    bool wanted = true;  // q defaults to 1
    if (semi != std::string_view::npos) {
      for (std::string_view param : Split(item.substr(semi + 1), ';')) {
        param = Trim(param);
        if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
        // q = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ): zero when only 0s and a dot.
        const std::string_view q = param.substr(2);
        wanted = q.empty() || q.find_first_not_of("0.") != std::string_view::npos;
      }
    }
    if (EqualsIgnoreCase(coding, "gzip") || EqualsIgnoreCase(coding, "x-gzip")) {
      gzip = gzip.value_or(false) || wanted;
    } else if (coding == "*") {
      any = any.value_or(false) || wanted;
    }
  }
  return gzip ? *gzip : any.value_or(false);
}

std::vector<std::string> LoopbackHostNames() { return {"localhost"}; }

bool IsLoopbackAddress(std::string_view host) {
  if (EqualsIgnoreCase(host, "localhost")) return true;
  unsigned char b[16];
  switch (IpLiteral(host, b)) {
    case 4:
      return b[0] == 127;
    case 6: {
      static constexpr unsigned char kLoop[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
      static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
      return std::equal(b, b + 16, kLoop) || (std::equal(b, b + 12, kMapped) && b[12] == 127);
    }
    default:
      return false;
  }
}

HeadError CheckCrossSite(const HttpRequest& req, const OriginPolicy& policy) {
  if (req.method == "GET" || req.method == "HEAD" || req.method == "OPTIONS") return {};
  if (req.HasHeader("Origin")) {
    const std::string_view origin = Trim(req.Header("Origin"));
    const bool allowed =
        SameOrigin(origin, Trim(req.Header("Host")), policy.tls) || policy.cors_origin == "*" ||
        (!policy.cors_origin.empty() && EqualsIgnoreCase(origin, policy.cors_origin));
    if (!allowed) {
      return Error(403, "cross_site_refused",
                   "origin: a page from another site may not send " + req.method +
                       " requests to this server (start it with --cors ORIGIN to allow one)",
                   "origin");
    }
  } else if (req.HasHeader("Sec-Fetch-Site")) {
    const std::string site = ToLower(Trim(req.Header("Sec-Fetch-Site")));
    if (site != "same-origin" && site != "none") {
      return Error(403, "cross_site_refused",
                   "origin: a " + site + " request without an Origin header is refused", "origin");
    }
  }
  const bool has_type = req.HasHeader("Content-Type");
  const std::string type = MediaType(req.Header("Content-Type"));
  if (!has_type && (req.method == "PUT" || req.body.empty())) return {};
  // The uploads: telemetry (/v1/idle), a bill (/v1/commitments, gzip files too: read streamed,
  // up to the bill's own limits).
  const bool idle = req.path == "/v1/idle" || req.path == "/v1/commitments";
  if (IsJsonType(type) || (idle && IsTelemetryType(type))) return {};
  if (idle && (type == "application/gzip" || type == "application/x-gzip")) return {};
  const std::string want =
      idle ? "application/json, text/csv or application/xml" : "application/json";
  return Error(
      415, "unsupported_media_type",
      "content-type: expected " + want + ", got " +
          (has_type ? "\"" + std::string(Trim(req.Header("Content-Type"))).substr(0, 60) + "\""
                    : std::string("none")) +
          " (curl: -H 'Content-Type: " + (idle ? "text/csv" : "application/json") +
          "'); browsers send form and text types across sites without asking",
      "content-type");
}

std::optional<Language> LanguageFromAcceptLanguage(std::string_view header) {
  std::optional<Language> best;
  double best_q = 0;
  while (!header.empty()) {
    const size_t comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    double q = 1;
    if (const size_t semi = item.find(';'); semi != std::string_view::npos) {
      std::string_view params = item.substr(semi + 1);
      item = item.substr(0, semi);
      while (!params.empty() && params.front() == ' ') params.remove_prefix(1);
      if (params.size() >= 2 && (params[0] == 'q' || params[0] == 'Q') && params[1] == '=') {
        const std::string number(params.substr(2));
        char* end = nullptr;
        q = std::strtod(number.c_str(), &end);
        if (end == number.c_str() || !(q >= 0 && q <= 1)) q = 0;  // malformed: ignore the item
      }
    }
    const std::optional<Language> l = ParseLanguage(item);
    if (l && q > best_q) {
      best = l;
      best_q = q;
    }
  }
  return best;
}

bool SuspiciousPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return true;
  if (path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos) {
    return true;
  }
  for (std::string_view seg : Split(path.substr(1), '/')) {
    if (seg == "." || seg == "..") return true;
  }
  return false;
}

bool CorsOriginValid(std::string_view origin) {
  if (origin.empty() || origin == "*") return true;
  std::string_view rest;
  if (StartsWith(origin, "http://")) {
    rest = origin.substr(7);
  } else if (StartsWith(origin, "https://")) {
    rest = origin.substr(8);
  } else {
    return false;
  }
  std::string_view host = rest;
  std::string_view allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-";
  if (!rest.empty() && rest.front() == '[') {  // [::1]:8080
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) return false;
    host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    allowed = "0123456789abcdefABCDEF:.";
  } else {
    host = rest.substr(0, rest.find(':'));
    rest = rest.substr(host.size());
  }
  if (host.empty() || host.find_first_not_of(allowed) != std::string_view::npos) return false;
  if (rest.empty()) return true;
  const std::string_view port = rest.substr(1);
  return rest.front() == ':' && !port.empty() && port.size() <= 5 &&
         port.find_first_not_of("0123456789") == std::string_view::npos &&
         std::stoi(std::string(port)) <= 65535;
}

Result<ServeOptions> CheckServeOptions(const ServeOptions& o) {
  if (o.host.empty()) return Status::InvalidArgument("--host: expected an address");
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    return Status::InvalidArgument(o.tls_cert.empty() ? "--tls-cert: required with --tls-key"
                                                      : "--tls-key: required with --tls-cert");
  }
  if (!CorsOriginValid(o.cors_origin)) {
    return Status::InvalidArgument(
        "--cors: expected * or one origin scheme://host[:port] (http or https, no path), got \"" +
        TerminalSafe(o.cors_origin) + "\"");
  }
  ServeOptions out = o;
  for (std::string& h : out.allow_hosts) {
    h = ToLower(Trim(h));
    const bool bracketed = !h.empty() && h.front() == '[' && h.back() == ']';
    if (h.empty() || h.find_first_of(" /@") != std::string::npos ||
        (!bracketed && h.find(':') != std::string::npos)) {
      return Status::InvalidArgument("--allow-host: expected a host name without port, got \"" + h +
                                     "\"");
    }
  }
  return out;
}

}  // namespace gpuadvisor::server
