#include "server/http_server.h"

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>

#include "gpuadvisor/query.h"
#include "server/web_assets.h"
#include "util/strings.h"

namespace gpuadvisor::server {
namespace {

// A path with a "." or ".." segment, a backslash or a NUL never names anything we serve.
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

void SetApiResponse(httplib::Response& res, const ApiResponse& r) {
  res.status = r.status;
  res.set_content(r.body, r.content_type.c_str());
}

// Set by PreRoute on requests whose client accepts gzip (see TakeAcceptEncoding).
constexpr const char* kGzipMark = "X-Gpuadvisor-Accepts-Gzip";

// cpp-httplib 0.11 compresses every text/JSON response itself when the client accepts it:
// brotli at quality 11 (about 2 s for the 0.9 MB all-region listing) and again on top of a body
// that is already compressed. So we hide Accept-Encoding from it and compress ourselves (assets
// ahead of time, JSON with a fast gzip level). The Request is not const inside cpp-httplib;
// only the handler signature is.
void TakeAcceptEncoding(const httplib::Request& req) {
  auto& headers = const_cast<httplib::Request&>(req).headers;
  bool gzip = false;
  for (auto [it, end] = headers.equal_range("Accept-Encoding"); it != end; ++it) {
    gzip = gzip || it->second.find("gzip") != std::string::npos;
  }
  headers.erase("Accept-Encoding");
  headers.erase(kGzipMark);
  if (gzip) headers.emplace(kGzipMark, "1");
}

// JSON bodies at least this large are gzipped for clients that accept it.
constexpr size_t kGzipMinBytes = 1400;

void SetError(httplib::Response& res, int status, std::string_view code, std::string_view msg,
              std::string_view field) {
  SetApiResponse(res, ErrorResponse(status, code, msg, field));
}

std::string Today() {
  if (const char* today = std::getenv("GPUADVISOR_TODAY")) return today;  // tests
  return TodayUtc();
}

}  // namespace

struct HttpServer::Impl {
  ServeOptions options;
  CatalogHolder* holder = nullptr;
  std::unique_ptr<ResponseCache> cache;
  httplib::Server server;
  int listen_fd = -1;

  void ServeAsset(const httplib::Request& req, httplib::Response& res, const WebAsset& a) const {
    res.set_header("ETag", a.etag);
    res.set_header("Cache-Control", "no-cache");
    res.set_header("Vary", "Accept-Encoding");
    if (req.get_header_value("If-None-Match") == a.etag) {
      res.status = 304;
      return;
    }
    const bool gzip = !a.gzip.empty() && req.has_header(kGzipMark);
    if (gzip) {
      res.set_header("Content-Encoding", "gzip");
      res.set_content(a.gzip, std::string(a.content_type).c_str());
    } else {
      res.set_content(std::string(a.data), std::string(a.content_type).c_str());
    }
  }

  void Handle(const httplib::Request& req, httplib::Response& res) const {
    if (req.method == "GET" || req.method == "HEAD") {
      if (const WebAsset* a = FindWebAsset(req.path)) {
        ServeAsset(req, res, *a);
        return;
      }
    }
    ApiContext ctx;
    const std::shared_ptr<const CatalogHolder::Version> version = holder->Current();
    ctx.catalog = version->catalog;
    ctx.generation = version->generation;
    ctx.holder = holder;
    ctx.cache = cache.get();
    ctx.fresh.today = Today();
    ctx.fresh.max_price_age_days = options.max_price_age_days;
    ApiRequest api;
    api.method = req.method == "HEAD" ? "GET" : req.method;
    api.path = req.path;
    api.query.assign(req.params.begin(), req.params.end());
    api.body = req.body;
    ApiResponse out = Dispatch(ctx, api);
    if (out.from_cache) res.set_header("X-Cache", "hit");
    if (out.body.size() >= kGzipMinBytes && req.has_header(kGzipMark)) {
      std::string gz = Gzip(out.body, 4);
      if (!gz.empty()) {
        out.body = std::move(gz);
        res.set_header("Content-Encoding", "gzip");
        res.set_header("Vary", "Accept-Encoding");
      }
    }
    SetApiResponse(res, out);
  }

  // Header limits, path checks and the headers every response carries. Handled = answered.
  httplib::Server::HandlerResponse PreRoute(const httplib::Request& req,
                                            httplib::Response& res) const {
    TakeAcceptEncoding(req);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    if (!options.cors_origin.empty()) {
      res.set_header("Access-Control-Allow-Origin", options.cors_origin);
      res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.set_header("Access-Control-Allow-Headers", "Content-Type");
    }
    size_t header_bytes = 0;
    for (const auto& [k, v] : req.headers) header_bytes += k.size() + v.size() + 4;
    if (req.headers.size() > static_cast<size_t>(options.max_headers) ||
        header_bytes > options.max_header_bytes) {
      SetError(res, 431, "headers_too_large",
               "request headers: at most " + std::to_string(options.max_headers) + " headers and " +
                   std::to_string(options.max_header_bytes) + " bytes",
               "headers");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (SuspiciousPath(req.path)) {
      SetError(res, 400, "invalid_argument",
               R"(path: "." and ".." segments, backslashes and NUL are not allowed)", "path");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "OPTIONS" && !options.cors_origin.empty()) {
      res.status = 204;
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  }

  // Responses the HTTP layer produced itself (413, unknown method, ...) get a JSON body.
  static httplib::Server::HandlerResponse OnError(const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    switch (res.status) {
      case 413:
        SetError(res, 413, "payload_too_large", "body: larger than the server accepts", "body");
        break;
      case 414:
        SetError(res, 414, "uri_too_long", "path: the request target is too long", "path");
        break;
      case 404:
        SetError(res, 404, "not_found", "no such endpoint", "path");
        break;
      case 400:
        SetError(res, 400, "invalid_argument",
                 "request: malformed HTTP (request line, headers, or a body without "
                 "Content-Length)",
                 "");
        break;
      default:
        SetError(res, res.status, res.status >= 500 ? "internal" : "invalid_argument",
                 "request: refused with HTTP " + std::to_string(res.status), "");
    }
    return httplib::Server::HandlerResponse::Handled;
  }
};

HttpServer::HttpServer(const ServeOptions& options, CatalogHolder* holder)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->holder = holder;
  if (options.cache_entries > 0)
    impl_->cache = std::make_unique<ResponseCache>(options.cache_entries);
  Impl* impl = impl_.get();
  httplib::Server& s = impl->server;
  const auto threads = static_cast<size_t>(options.threads);
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_payload_max_length(options.max_body_bytes);
  s.set_read_timeout(options.read_timeout_s, 0);
  s.set_write_timeout(options.write_timeout_s, 0);
  s.set_keep_alive_timeout(options.keep_alive_timeout_s);
  s.set_keep_alive_max_count(static_cast<size_t>(options.keep_alive_max));
  s.set_tcp_nodelay(true);
  s.set_socket_options([impl](socket_t fd) {
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl->listen_fd = fd;
  });
  s.set_pre_routing_handler([impl](const httplib::Request& req, httplib::Response& res) {
    return impl->PreRoute(req, res);
  });
  s.set_error_handler(httplib::Server::HandlerWithResponse(Impl::OnError));
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
        SetError(res, 500, "internal", "internal error while handling the request", "");
      });
  auto handle = [impl](const httplib::Request& req, httplib::Response& res) {
    impl->Handle(req, res);
  };
  s.Get(".*", handle);
  s.Post(".*", handle);
}

HttpServer::~HttpServer() = default;

Result<int> HttpServer::Bind() {
  (void)WebAssets();  // compress the page once, before the first request
  const int port = impl_->options.port == 0
                       ? impl_->server.bind_to_any_port(impl_->options.host)
                       : (impl_->server.bind_to_port(impl_->options.host, impl_->options.port)
                              ? impl_->options.port
                              : -1);
  if (port <= 0) {
    return Status::IOError("cannot listen on " + impl_->options.host + ":" +
                           std::to_string(impl_->options.port) +
                           " (address in use, or not an address of this machine)");
  }
  // cpp-httplib listens with a backlog of 5; a burst of connections needs more.
  if (impl_->listen_fd >= 0) ::listen(impl_->listen_fd, SOMAXCONN);
  return port;
}

Status HttpServer::Run() {
  if (!impl_->server.listen_after_bind()) return Status::IOError("serve: the listener stopped");
  return Status::OK();
}

void HttpServer::Stop() { impl_->server.stop(); }

bool HttpServer::running() const { return impl_->server.is_running(); }

Result<ServeOptions> CheckServeOptions(const ServeOptions& o) {
  if (o.port < 0 || o.port > 65535) {
    return Status::InvalidArgument("--port: expected 0 to 65535, got " + std::to_string(o.port));
  }
  if (o.threads < 1 || o.threads > 1024) {
    return Status::InvalidArgument("--threads: expected 1 to 1024, got " +
                                   std::to_string(o.threads));
  }
  if (o.read_timeout_s < 1 || o.write_timeout_s < 1 || o.keep_alive_timeout_s < 1) {
    return Status::InvalidArgument("--timeout: expected at least 1 second");
  }
  if (o.max_body_bytes < 1024) {
    return Status::InvalidArgument("--max-body: expected at least 1024 bytes");
  }
  if (o.host.empty()) return Status::InvalidArgument("--host: expected an address");
  return o;
}

}  // namespace gpuadvisor::server
