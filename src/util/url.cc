// Strict parsing of outbound URLs (see util/url.h).
#include "util/url.h"

#include <charconv>

#include "util/text.h"

namespace gpuadvisor {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsUnreserved(char c) { return IsAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }
bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Builds the InvalidArgument errors of one parse.
struct UrlError {
  std::string_view what, text;
  Status operator()(std::string_view expected) const {
    std::string field(what);
    while (!field.empty() && field.front() == '-') field.erase(0, 1);
    return Status::InvalidArgument(std::string(what) + ": expected " + std::string(expected) +
                                   ", got \"" + TerminalSafe(text) + "\"")
        .WithField(field);
  }
};

// A dotted quad a.b.c.d, each 0-255 without leading zeros.
bool IsIpv4(std::string_view s) {
  int parts = 0;
  for (std::string_view p : Split(s, '.')) {
    if (p.empty() || p.size() > 3 || (p.size() > 1 && p[0] == '0')) return false;
    int v = 0;
    for (char c : p) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v > 255) return false;
    ++parts;
  }
  return parts == 4;
}

bool IsIpv6(std::string_view s) {
  if (s.size() < 2 || s.find(':') == std::string_view::npos) return false;
  for (char c : s) {
    if (!IsHex(c) && c != ':' && c != '.') return false;
  }
  return true;
}

// A DNS name: dot-separated labels of letters, digits, '-' and '_'; a name whose last label is
// numeric must be a dotted quad (so "127.1" or "0x7f.1" cannot pose as another address).
bool IsHostName(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::string_view last;
  for (std::string_view label : Split(s, '.')) {
    if (label.empty() || label.size() > 63) return false;
    for (char c : label) {
      if (!IsAlnum(c) && c != '-' && c != '_') return false;
    }
    last = label;
  }
  bool numeric = true;
  for (char c : last) numeric = numeric && c >= '0' && c <= '9';
  const bool hex = last.size() > 1 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X');
  return (!numeric && !hex) || IsIpv4(s);
}

Status ParseAuthority(std::string_view a, const UrlError& fail, HttpUrl* out) {
  std::string_view host = a, port;
  if (!a.empty() && a.front() == '[') {
    const size_t close = a.find(']');
    if (close == std::string_view::npos) return fail("an IPv6 address closed by ']'");
    host = a.substr(1, close - 1);
    if (!IsIpv6(host)) return fail("an IPv6 address of hex digits, ':' and '.' in [...]");
    const std::string_view rest = a.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return fail("':port' after the IPv6 address");
    if (!rest.empty()) port = rest.substr(1);
    if (rest.size() == 1) return fail("a port after ':'");
  } else {
    const size_t colon = a.find(':');
    if (colon != std::string_view::npos) {
      host = a.substr(0, colon);
      port = a.substr(colon + 1);
      if (port.empty()) return fail("a port after ':'");
    }
    if (!IsHostName(host)) return fail("a host name, an IPv4 address a.b.c.d or an [IPv6] address");
  }
  out->host = ToLower(host);
  out->port = out->scheme == "https" ? 443 : 80;
  if (!port.empty()) {
    unsigned v = 0;
    const auto r = std::from_chars(port.data(), port.data() + port.size(), v);
    if (r.ec != std::errc() || r.ptr != port.data() + port.size() || v < 1 || v > 65535 ||
        port.size() > 5) {
      return fail("a port from 1 to 65535");
    }
    out->port = static_cast<uint16_t>(v);
  }
  return Status::OK();
}

// Decodes %XX of unreserved characters, drops empty segments, refuses "." and "..".
Status ParsePath(std::string_view p, const UrlError& fail, std::string* out) {
  out->clear();
  for (std::string_view seg : Split(p, '/')) {
    std::string decoded;
    for (size_t i = 0; i < seg.size(); ++i) {
      char c = seg[i];
      if (c == '%') {
        if (i + 2 >= seg.size() || !IsHex(seg[i + 1]) || !IsHex(seg[i + 2])) {
          return fail("'%' followed by two hex digits in the path");
        }
        c = static_cast<char>(HexValue(seg[i + 1]) * 16 + HexValue(seg[i + 2]));
        if (!IsUnreserved(c)) {
          return fail("a path without percent-encoded '/', '\\', '%' or other reserved characters");
        }
        i += 2;
      } else if (!IsUnreserved(c)) {
        return fail("a path of letters, digits and -._~ only");
      }
      decoded.push_back(c);
    }
    if (decoded == "." || decoded == "..") return fail("a path without '.' or '..' segments");
    if (!decoded.empty()) out->append("/").append(decoded);
  }
  return Status::OK();
}

}  // namespace

std::string HttpUrl::Authority() const {
  std::string a = ipv6() ? "[" + host + "]" : host;
  if (port != (scheme == "https" ? 443 : 80)) a += ":" + std::to_string(port);
  return a;
}

std::string HttpUrl::ToString() const { return scheme + "://" + Authority() + path; }

Result<HttpUrl> ParseHttpUrl(std::string_view text, std::string_view what) {
  const UrlError fail{what, text};
  const std::string_view kShape = "http(s)://host[:port][/path]";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) {
      return fail(std::string(kShape) + " without spaces, control or non-ASCII characters");
    }
    if (c == '@') return fail(std::string(kShape) + " without user info ('@')");
    if (c == '?' || c == '#') return fail(std::string(kShape) + " without a query or fragment");
    if (c == '\\') return fail(std::string(kShape) + " without '\\'");
  }
  const size_t sep = text.find("://");
  HttpUrl url;
  url.scheme = ToLower(text.substr(0, sep == std::string_view::npos ? 0 : sep));
  if (sep == std::string_view::npos || (url.scheme != "http" && url.scheme != "https")) {
    return fail(kShape);
  }
  const std::string_view rest = text.substr(sep + 3);
  const size_t slash = rest.find('/');
  GPUADVISOR_RETURN_IF_ERROR(ParseAuthority(rest.substr(0, slash), fail, &url));
  if (slash != std::string_view::npos) {
    GPUADVISOR_RETURN_IF_ERROR(ParsePath(rest.substr(slash), fail, &url.path));
  }
  return url;
}

bool UrlWithin(const HttpUrl& url, const HttpUrl& base) {
  if (url.scheme != base.scheme || url.host != base.host || url.port != base.port) return false;
  if (!StartsWith(url.path, base.path)) return false;
  return url.path.size() == base.path.size() || url.path[base.path.size()] == '/';
}

Result<std::vector<HttpUrl>> ParseUrlList(std::string_view text, std::string_view what) {
  std::vector<HttpUrl> out;
  for (std::string_view entry : Split(text, ',')) {
    entry = Trim(entry);
    if (entry.empty()) continue;
    Result<HttpUrl> url = ParseHttpUrl(entry, what);
    if (!url.ok()) return url.status();
    out.push_back(*std::move(url));
  }
  return out;
}

bool UrlAllowed(const HttpUrl& url, const std::vector<HttpUrl>& allowed) {
  for (const HttpUrl& base : allowed) {
    if (UrlWithin(url, base)) return true;
  }
  return false;
}

std::string PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%' && i + 2 < s.size() && IsHex(s[i + 1]) && IsHex(s[i + 2])) {
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

}  // namespace gpuadvisor
