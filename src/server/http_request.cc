#include "server/http_request.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "util/text.h"

namespace gpuadvisor::server {
namespace {

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view TrimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// RFC 9110 token characters (header names, methods).
bool IsTokenChar(char c) {
  if (std::isalnum(static_cast<unsigned char>(c))) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsToken(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), IsTokenChar);
}

HeadError Error(int status, std::string code, std::string message, std::string field) {
  return HeadError{status, std::move(code), std::move(message), std::move(field)};
}

HeadError Malformed(const std::string& what) {
  return Error(400, "invalid_argument", "request: malformed HTTP (" + what + ")", "");
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits "a=1&b=2" into decoded pairs; a key without "=" has the value "".
HeadError ParseQuery(std::string_view text, HttpRequest* req) {
  while (!text.empty()) {
    const size_t amp = text.find('&');
    std::string_view item = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    std::string key = PercentDecode(item.substr(0, eq), true);
    std::string value =
        eq == std::string_view::npos ? std::string() : PercentDecode(item.substr(eq + 1), true);
    if (!ValidUtf8(key)) {
      return Error(400, "invalid_argument", "query: a parameter name is not valid UTF-8", "query");
    }
    if (!ValidUtf8(value)) {
      return Error(400, "invalid_argument", key + ": expected UTF-8 text (percent-encoded)", key);
    }
    if (key.empty()) continue;
    req->query.emplace_back(std::move(key), std::move(value));
  }
  return {};
}

HeadError ParseRequestLine(std::string_view line, const HeadLimits& limits, HttpRequest* req) {
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 == sp1) return Malformed("request line");
  const std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (!IsToken(method)) return Malformed("method");
  if (target.size() > limits.max_target_bytes) {
    return Error(414, "uri_too_long", "path: the request target is too long", "path");
  }
  if (version == "HTTP/1.1") {
    req->minor_version = 1;
  } else if (version == "HTTP/1.0") {
    req->minor_version = 0;
  } else if (version.size() == 8 && version.substr(0, 5) == "HTTP/") {
    return Error(505, "unsupported", "request: HTTP/1.0 and HTTP/1.1 are served", "");
  } else {
    return Malformed("version");
  }
  if (target.empty() || target.find_first_of(" \t") != std::string_view::npos) {
    return Malformed("request target");
  }
  req->method = std::string(method);
  if (target == "*" && method == "OPTIONS") target = "/";
  if (target.front() != '/') return Malformed("request target: expected a path from /");
  target = target.substr(0, target.find('#'));
  const size_t q = target.find('?');
  req->path = PercentDecode(target.substr(0, q), false);
  if (!ValidUtf8(req->path)) {
    return Error(400, "invalid_argument", "path: expected UTF-8 text (percent-encoded)", "path");
  }
  if (q != std::string_view::npos) return ParseQuery(target.substr(q + 1), req);
  return {};
}

// The semantics of the headers the reactor acts on: body length, keep-alive, Expect.
HeadError ApplyHeaders(HttpRequest* req) {
  bool have_length = false;
  req->keep_alive = req->minor_version >= 1;
  for (const auto& [name, value] : req->headers) {
    if (IEquals(name, "Content-Length")) {
      if (value.empty() || value.size() > 18 ||
          !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return Malformed("Content-Length");
      }
      const size_t n = std::stoull(value);
      if (have_length && n != req->content_length) return Malformed("two Content-Lengths");
      req->content_length = n;
      have_length = true;
    } else if (IEquals(name, "Transfer-Encoding")) {
      return Error(411, "invalid_argument",
                   "body: send it with Content-Length (chunked bodies are not accepted)", "body");
    } else if (IEquals(name, "Connection")) {
      const std::string v = Lower(value);
      if (v.find("close") != std::string::npos) req->keep_alive = false;
      if (v.find("keep-alive") != std::string::npos && req->minor_version == 0) {
        req->keep_alive = true;
      }
    } else if (IEquals(name, "Expect")) {
      if (!IEquals(value, "100-continue")) {
        return Error(417, "invalid_argument", "Expect: only 100-continue is understood", "headers");
      }
      req->expect_continue = true;
    }
  }
  return {};
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (IEquals(k, name)) return v;
  }
  return {};
}

bool HttpRequest::HasHeader(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [name](const auto& h) { return IEquals(h.first, name); });
}

HeadError ParseRequestHead(std::string_view head, const HeadLimits& limits, HttpRequest* req) {
  *req = HttpRequest();
  // Empty lines before the request line are ignored (RFC 9112 section 2.2).
  while (!head.empty() && (head.front() == '\r' || head.front() == '\n')) head.remove_prefix(1);
  bool first = true;
  size_t header_bytes = 0;
  while (!head.empty()) {
    const size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find('\0') != std::string_view::npos || line.find('\r') != std::string_view::npos) {
      return Malformed("control character in the head");
    }
    if (first) {
      first = false;
      if (HeadError e = ParseRequestLine(line, limits, req)) return e;
      continue;
    }
    if (line.empty()) break;  // only when the caller passed the blank line too
    if (line.front() == ' ' || line.front() == '\t') return Malformed("folded header line");
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || !IsToken(line.substr(0, colon))) {
      return Malformed("header line");
    }
    const std::string_view value = TrimOws(line.substr(colon + 1));
    header_bytes += colon + value.size() + 4;
    req->headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
    if (req->headers.size() > static_cast<size_t>(limits.max_headers) ||
        header_bytes > limits.max_header_bytes) {
      return Error(431, "headers_too_large",
                   "request headers: at most " + std::to_string(limits.max_headers) +
                       " headers and " + std::to_string(limits.max_header_bytes) + " bytes",
                   "headers");
    }
  }
  if (first) return Malformed("empty request");
  return ApplyHeaders(req);
}

std::string PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

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
  return Lower(TrimOws(value.substr(0, value.find(';'))));
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
  const std::string scheme = Lower(origin.substr(0, sep));
  if (scheme != (tls ? "https" : "http")) return false;
  std::string_view oname, oport, hname, hport;
  if (!SplitAuthority(origin.substr(sep + 3), &oname, &oport) ||
      !SplitAuthority(host, &hname, &hport)) {
    return false;
  }
  const std::string_view default_port = scheme == "https" ? "443" : "80";
  if (oport.empty()) oport = default_port;
  if (hport.empty()) hport = default_port;
  return IEquals(oname, hname) && oport == hport;
}

}  // namespace

bool HostAllowed(std::string_view host_header, const std::vector<std::string>& allowed, int port) {
  const std::string_view host = TrimOws(host_header);
  if (host.empty()) return true;
  std::string_view name, port_text;
  if (!SplitAuthority(host, &name, &port_text)) return false;
  if (!port_text.empty() && port_text != std::to_string(port)) return false;
  unsigned char bytes[16];
  if (IpLiteral(name, bytes) != 0) return true;
  const std::string lower = Lower(name);
  for (const std::string& a : allowed) {
    if (a == "*" || a == lower) return true;
  }
  return false;
}

bool AcceptsGzip(std::string_view accept_encoding) {
  std::optional<bool> gzip, any;
  for (std::string_view item : Split(accept_encoding, ',')) {
    const size_t semi = item.find(';');
    const std::string_view coding = TrimOws(item.substr(0, semi));
    bool wanted = true;  // q defaults to 1
    if (semi != std::string_view::npos) {
      for (std::string_view param : Split(item.substr(semi + 1), ';')) {
        param = TrimOws(param);
        if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
        // q = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ): zero when only 0s and a dot.
        const std::string_view q = param.substr(2);
        wanted = q.empty() || q.find_first_not_of("0.") != std::string_view::npos;
      }
    }
    if (IEquals(coding, "gzip") || IEquals(coding, "x-gzip")) {
      gzip = gzip.value_or(false) || wanted;
    } else if (coding == "*") {
      any = any.value_or(false) || wanted;
    }
  }
  return gzip ? *gzip : any.value_or(false);
}

std::vector<std::string> LoopbackHostNames() { return {"localhost"}; }

bool IsLoopbackAddress(std::string_view host) {
  if (IEquals(host, "localhost")) return true;
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
    const std::string_view origin = TrimOws(req.Header("Origin"));
    const bool allowed = SameOrigin(origin, TrimOws(req.Header("Host")), policy.tls) ||
                         policy.cors_origin == "*" ||
                         (!policy.cors_origin.empty() && IEquals(origin, policy.cors_origin));
    if (!allowed) {
      return Error(403, "cross_site_refused",
                   "origin: a page from another site may not send " + req.method +
                       " requests to this server (start it with --cors ORIGIN to allow one)",
                   "origin");
    }
  } else if (req.HasHeader("Sec-Fetch-Site")) {
    const std::string site = Lower(TrimOws(req.Header("Sec-Fetch-Site")));
    if (site != "same-origin" && site != "none") {
      return Error(403, "cross_site_refused",
                   "origin: a " + site + " request without an Origin header is refused", "origin");
    }
  }
  const bool has_type = req.HasHeader("Content-Type");
  const std::string type = MediaType(req.Header("Content-Type"));
  const bool empty_body = req.body.empty() && req.content_length == 0;
  if (!has_type && (req.method == "PUT" || empty_body)) return {};
  const bool idle = req.path == "/v1/idle";
  if (IsJsonType(type) || (idle && IsTelemetryType(type))) return {};
  const std::string want =
      idle ? "application/json, text/csv or application/xml" : "application/json";
  return Error(
      415, "unsupported_media_type",
      "content-type: expected " + want + ", got " +
          (has_type ? "\"" + std::string(TrimOws(req.Header("Content-Type"))).substr(0, 60) + "\""
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

}  // namespace gpuadvisor::server
