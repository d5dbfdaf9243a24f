#include "server/http_reader.h"

#include <algorithm>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <functional>
#include <optional>

#include "util/text.h"
#include "util/url.h"

namespace gpuadvisor::server {
namespace {

namespace http = boost::beast::http;

// The request line and header lines together may not exceed the header limit plus this (the
// request line's share: the target is checked on its own, 414).
constexpr size_t kRequestLineSlack = 8 << 10;
// A body's string grows with the bytes received, never reserved for the declared length: a
// client that declares 1 MB and sends a byte costs a byte (Beast's string_body reserves all).
constexpr size_t kBodyReserveMax = 16 << 10;

struct GrowingStringBody {
  using value_type = std::string;
  static std::uint64_t size(const value_type& body) { return body.size(); }

  class reader {  // NOLINT(readability-identifier-naming): Beast's Body concept names it
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : body_(body) {}
    void init(const boost::optional<std::uint64_t>& length, boost::beast::error_code& ec) {
      if (length)
        body_.reserve(static_cast<size_t>(std::min<std::uint64_t>(*length, kBodyReserveMax)));
      ec = {};
    }
    template <class ConstBufferSequence>
    size_t put(const ConstBufferSequence& buffers, boost::beast::error_code& ec) {
      size_t n = 0;
      for (const auto b : boost::beast::buffers_range_ref(buffers)) {
        body_.append(static_cast<const char*>(b.data()), b.size());
        n += b.size();
      }
      ec = {};
      return n;
    }
    void finish(boost::beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

std::string_view Sv(boost::beast::string_view s) { return {s.data(), s.size()}; }

HeadError Malformed(const std::string& what) {
  return HeadError{400, "invalid_argument", "request: malformed HTTP (" + what + ")", ""};
}

HeadError TooLargeHeaders(const HeadLimits& limits) {
  return HeadError{431, "headers_too_large",
                   "request headers: at most " + std::to_string(limits.max_headers) +
                       " headers and " + std::to_string(limits.max_header_bytes) + " bytes",
                   "headers"};
}

HeadError BodyTooLarge(size_t max) {
  return HeadError{413, "payload_too_large",
                   "body: larger than the server accepts (" + std::to_string(max) +
                       " bytes; `gpuadvisor serve --max-body` sets the limit)",
                   "body"};
}

HeadError ChunkExtensionsTooLong(size_t max) {
  return HeadError{400, "invalid_argument",
                   "body: chunk extensions longer than " + std::to_string(max) + " bytes", "body"};
}

// "http://host:port/path?q" -> authority "host:port", origin form "/path?q".
bool SplitAbsoluteForm(std::string_view target, std::string_view* authority,
                       std::string_view* origin) {
  size_t scheme = 0;
  if (target.size() >= 7 && EqualsIgnoreCase(target.substr(0, 7), "http://")) scheme = 7;
  if (target.size() >= 8 && EqualsIgnoreCase(target.substr(0, 8), "https://")) scheme = 8;
  if (scheme == 0) return false;
  const std::string_view rest = target.substr(scheme);
  const size_t slash = rest.find_first_of("/?");
  *authority = rest.substr(0, slash);
  *origin = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  return true;
}

// Splits "a=1&b=2" into decoded pairs; a key without "=" has the value "".
HeadError ParseQuery(std::string_view text, HttpRequest* req) {
  for (std::string_view item : Split(text, '&')) {
    const size_t eq = item.find('=');
    std::string key = PercentDecode(item.substr(0, eq), true);
    std::string value =
        eq == std::string_view::npos ? std::string() : PercentDecode(item.substr(eq + 1), true);
    if (!ValidUtf8(key)) {
      return HeadError{400, "invalid_argument", "query: a parameter name is not valid UTF-8",
                       "query"};
    }
    if (!ValidUtf8(value)) {
      return HeadError{400, "invalid_argument", key + ": expected UTF-8 text (percent-encoded)",
                       key};
    }
    if (!key.empty()) req->query.emplace_back(std::move(key), std::move(value));
  }
  return {};
}

// The origin-form target "/path?query#fragment" into req->path and req->query.
HeadError DecodeTarget(std::string_view target, HttpRequest* req) {
  if (target.empty() || target.front() != '/') {
    return Malformed("request target: expected a path from /");
  }
  target = target.substr(0, target.find('#'));
  const size_t q = target.find('?');
  req->path = PercentDecode(target.substr(0, q), false);
  if (!ValidUtf8(req->path)) {
    return HeadError{400, "invalid_argument", "path: expected UTF-8 text (percent-encoded)",
                     "path"};
  }
  return q == std::string_view::npos ? HeadError() : ParseQuery(target.substr(q + 1), req);
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

bool HttpRequest::HasHeader(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [name](const auto& h) { return EqualsIgnoreCase(h.first, name); });
}

HeadError ConvertHead(std::string_view method, std::string_view target, int version,
                      std::vector<std::pair<std::string, std::string>> headers,
                      const HeadLimits& limits, HttpRequest* req) {
  *req = HttpRequest();
  if (target.size() > limits.max_target_bytes) {
    return HeadError{414, "uri_too_long", "path: the request target is too long", "path"};
  }
  if (version != 10 && version != 11) {
    return HeadError{505, "unsupported", "request: HTTP/1.0 and HTTP/1.1 are served", ""};
  }
  std::string_view authority;
  std::string_view origin = target;
  const bool absolute = SplitAbsoluteForm(target, &authority, &origin);
  if (absolute && (authority.empty() || authority.find('@') != std::string_view::npos)) {
    return Malformed("request target: expected http://host[:port]/path");
  }
  // Beast checked the method token and the target's characters; "*" is OPTIONS' own target.
  if (origin == "*" && method == "OPTIONS") origin = "/";
  if (HeadError e = DecodeTarget(origin, req)) return e;
  req->method = std::string(method);
  size_t header_bytes = 0;
  for (const auto& [name, value] : headers) header_bytes += name.size() + value.size() + 4;
  if (headers.size() > static_cast<size_t>(limits.max_headers) ||
      header_bytes > limits.max_header_bytes) {
    return TooLargeHeaders(limits);
  }
  req->headers = std::move(headers);
  if (absolute) {
    auto it = std::find_if(req->headers.begin(), req->headers.end(),
                           [](const auto& h) { return EqualsIgnoreCase(h.first, "Host"); });
    if (it == req->headers.end()) {
      req->headers.emplace_back("Host", std::string(authority));
    } else {
      it->second = std::string(authority);
    }
  }
  const std::string_view te = req->Header("Transfer-Encoding");
  if (req->HasHeader("Transfer-Encoding")) {
    // HTTP/1.0 has no transfer codings (RFC 9112 6.1): a proxy of that version would frame the
    // body by the connection's end, so de-chunking it would read another request than it did.
    if (version == 10) return Malformed("Transfer-Encoding in an HTTP/1.0 request");
    if (!EqualsIgnoreCase(te, "chunked")) {
      return HeadError{501, "unsupported", "body: only the chunked transfer coding is accepted",
                       "body"};
    }
    if (req->HasHeader("Content-Length")) return Malformed("Content-Length with chunked");
  }
  if (req->HasHeader("Expect")) {
    if (!EqualsIgnoreCase(req->Header("Expect"), "100-continue")) {
      return HeadError{417, "invalid_argument", "Expect: only 100-continue is understood",
                       "headers"};
    }
    req->expect_continue = true;
  }
  // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400 (the Host allow-list must see one).
  if (version == 11 && !req->HasHeader("Host")) {
    return HeadError{400, "invalid_argument", "Host: an HTTP/1.1 request must name its host",
                     "host"};
  }
  // Compressed uploads are taken only by the file uploads, /v1/idle and /v1/commitments, as
  // gzip: their handlers inflate them within a ceiling of their own (a 1 MB gzip body can hold
  // 1 GB; IdleCeilings::max_inflated_bytes, BillLimits::max_bytes). Said at the head, before
  // any body byte is read.
  const std::string_view ce = Trim(req->Header("Content-Encoding"));
  const bool has_body = req->HasHeader("Transfer-Encoding") ||
                        (req->HasHeader("Content-Length") && req->Header("Content-Length") != "0");
  const bool upload = req->path == "/v1/idle" || req->path == "/v1/commitments";
  const bool gzip = EqualsIgnoreCase(ce, "gzip") || EqualsIgnoreCase(ce, "x-gzip");
  if (has_body && !ce.empty() && !EqualsIgnoreCase(ce, "identity") && !(upload && gzip)) {
    return HeadError{415, "unsupported_media_type",
                     "Content-Encoding: \"" + std::string(ce) + "\" is not accepted" +
                         (upload ? "; send the body uncompressed (identity) or as gzip"
                                 : "; send the body uncompressed (identity)"),
                     "headers"};
  }
  return {};
}

struct RequestReader::Parser {
  std::optional<http::request_parser<GrowingStringBody>> p;
  // Beast keeps a reference to the chunk-header callback: it lives here, beside the parser.
  std::function<void(std::uint64_t, boost::beast::string_view, boost::beast::error_code&)> on_chunk;
  size_t extension_bytes = 0;    // chunk extensions of the current request, all chunks together
  bool extension_limit = false;  // the callback refused the request for them
};

RequestReader::RequestReader(const ReaderLimits& limits)
    : limits_(limits), parser_(std::make_unique<Parser>()) {
  Next();
}

RequestReader::~RequestReader() = default;

void RequestReader::Next() {
  auto& p = parser_->p.emplace();
  p.eager(false);
  p.header_limit(static_cast<std::uint32_t>(
      std::min<size_t>(limits_.head.max_header_bytes + kRequestLineSlack, UINT32_MAX)));
  p.body_limit(limits_.max_body_bytes);
  parser_->extension_bytes = 0;
  parser_->extension_limit = false;
  parser_->on_chunk = [this](std::uint64_t, boost::beast::string_view ext,
                             boost::beast::error_code& ec) {
    // Beast hands the extensions over and forgets them; summed per request, they may not grow
    // past the limit however many chunks carry them.
    parser_->extension_bytes += ext.size();
    if (parser_->extension_bytes > limits_.max_chunk_extension_bytes) {
      parser_->extension_limit = true;
      ec = http::error::bad_chunk_extension;
    }
  };
  p.on_chunk_header(parser_->on_chunk);
  req_ = HttpRequest();
  target_.clear();
  error_ = HeadError();
  started_ = false;
  head_reported_ = false;
  head_checked_ = 0;
}

HeadError RequestReader::PendingChunkMetadata(std::string_view pending) const {
  // The bytes Beast has not taken start at a chunk's size line (after the previous chunk's
  // CRLF): "0" there is the last chunk, followed by the trailer.
  std::string_view line = pending;
  if (line.substr(0, 2) == "\r\n") line.remove_prefix(2);
  const size_t digits = std::min(line.find_first_not_of("0123456789abcdefABCDEF"), line.size());
  const bool last =
      digits > 0 && line.substr(0, digits).find_first_not_of('0') == std::string_view::npos;
  constexpr size_t kLineSlack = 64;  // the size in hex, CRLFs, whitespace
  if (!last || digits == line.size()) {
    if (pending.size() > limits_.max_chunk_extension_bytes + kLineSlack) {
      return ChunkExtensionsTooLong(limits_.max_chunk_extension_bytes);
    }
    return {};
  }
  if (pending.size() > limits_.max_chunk_extension_bytes + limits_.max_trailer_bytes + kLineSlack) {
    return HeadError{431, "headers_too_large",
                     "body: the chunked trailer is larger than " +
                         std::to_string(limits_.max_trailer_bytes) + " bytes",
                     "headers"};
  }
  return {};
}

bool RequestReader::head_done() const { return parser_->p->is_header_done(); }

size_t RequestReader::body_bytes() const { return parser_->p->get().body().size(); }

namespace {

// True when the head at the start of `bytes` (up to its blank line, or all of `bytes` while that
// has not arrived) has a line feed without its carriage return. Beast refuses such a head too,
// but when depends on how the bytes were split (its scan resumes where the last one stopped):
// one write gave 505, the same bytes in two gave nothing yet (fuzz/regressions/http_head). So
// the rule is ours and looks at the whole head every time (`started`: bytes of it were taken).
// `*checked` bytes at the start of `bytes` were looked at by an earlier call (a head dripped a
// byte at a time is then scanned once, not once per byte); it becomes all of `bytes`.
bool BareLineFeedInHead(std::string_view bytes, bool started, size_t* checked) {
  const size_t from = std::min(*checked, bytes.size());
  *checked = bytes.size();
  // Beast takes a head a whole line at a time: after a taken line, CRLF is the blank line.
  if (started && bytes.substr(0, 2) == "\r\n") return false;
  const size_t end = bytes.find("\r\n\r\n", from >= 3 ? from - 3 : 0);
  const std::string_view head = bytes.substr(0, end == std::string_view::npos ? end : end + 4);
  for (size_t i = head.find('\n', from); i != std::string_view::npos; i = head.find('\n', i + 1)) {
    if ((i == 0 && !started) || (i > 0 && head[i - 1] != '\r')) return true;
  }
  return false;
}

}  // namespace

RequestReader::State RequestReader::Feed(std::string_view bytes, size_t* consumed) {
  *consumed = 0;
  if (error_) return State::kError;
  auto& p = *parser_->p;
  while (!p.is_done()) {
    if (head_reported_ || !p.is_header_done()) {
      if (bytes.empty()) return State::kNeedMore;
      if (!p.is_header_done() && BareLineFeedInHead(bytes, started_, &head_checked_)) {
        error_ = Malformed("a line ends in LF without CR");
        return State::kError;
      }
      boost::beast::error_code ec;
      const size_t n = p.put(boost::asio::const_buffer(bytes.data(), bytes.size()), ec);
      if (n > 0) started_ = true;
      head_checked_ -= std::min(head_checked_, n);
      bytes.remove_prefix(n);
      *consumed += n;
      if (ec == http::error::need_more) {
        // Beast takes a chunk's size line (with its extensions) and the trailer only whole,
        // and header_limit covers the head alone: what waits for them is bounded here.
        if (head_reported_ && !bytes.empty()) error_ = PendingChunkMetadata(bytes);
        return error_ ? State::kError : State::kNeedMore;
      }
      if (parser_->extension_limit) {
        error_ = ChunkExtensionsTooLong(limits_.max_chunk_extension_bytes);
      } else if (ec == http::error::header_limit) {
        error_ = TooLargeHeaders(limits_.head);
      } else if (ec == http::error::bad_version) {
        error_ = HeadError{505, "unsupported", "request: HTTP/1.0 and HTTP/1.1 are served", ""};
      } else if (ec == http::error::body_limit) {
        error_ = BodyTooLarge(limits_.max_body_bytes);
      } else if (ec) {
        error_ = Malformed(ec.message());
      }
      if (error_) return State::kError;
      if (n == 0 && (head_reported_ || !p.is_header_done())) return State::kNeedMore;
    }
    if (p.is_header_done() && !head_reported_) {
      head_reported_ = true;
      const auto& h = p.get();
      target_ = std::string(Sv(h.target()));
      std::vector<std::pair<std::string, std::string>> headers;
      for (const auto& f : h)
        headers.emplace_back(std::string(Sv(f.name_string())), std::string(Sv(f.value())));
      error_ = ConvertHead(Sv(h.method_string()), Sv(h.target()), static_cast<int>(h.version()),
                           std::move(headers), limits_.head, &req_);
      if (error_) return State::kError;
      req_.keep_alive = h.keep_alive();
      if (!p.is_done()) return State::kHead;
    }
  }
  req_.body = std::move(p.get().body());
  return State::kDone;
}

}  // namespace gpuadvisor::server
