#include "server/responder.h"

#include <algorithm>
#include <boost/beast/http/write.hpp>
#include <cstdio>
#include <sstream>

#include "gpuadvisor/query.h"
#include "server/web_assets.h"
#include "util/text.h"

namespace gpuadvisor::server {
namespace {

namespace http = boost::beast::http;

Response ServeAsset(const HttpRequest& req, Response res, const WebAsset& a, bool gzip) {
  res.set(http::field::etag, a.etag);
  res.set(http::field::cache_control, "no-cache");
  res.set(http::field::vary, "Accept-Encoding");
  if (req.Header("If-None-Match") == a.etag) {
    res.result(http::status::not_modified);
    return res;
  }
  res.set(http::field::content_type, std::string(a.content_type));
  const bool zipped = gzip && !a.gzip.empty();
  if (zipped) res.set(http::field::content_encoding, "gzip");
  res.body() = zipped ? a.shared_gzip : a.shared_data;
  return res;
}

}  // namespace

Response ToResponse(ApiResponse r, Response res) {
  res.result(static_cast<unsigned>(r.status));
  if (r.status == 204 || r.status == 304) return res;
  res.set(http::field::content_type, r.content_type);
  if (r.shared == nullptr) r.shared = std::make_shared<const std::string>(std::move(r.body));
  res.body() = std::move(r.shared);
  return res;
}

Response ErrorAnswer(int status, std::string_view code, std::string_view msg,
                     std::string_view field, bool retry) {
  Response res = ToResponse(ErrorResponse(status, code, msg, field));
  if (retry) res.set(http::field::retry_after, "1");
  return res;
}

void Finish(Response& res, bool keep_alive, bool head_only) {
  if (res.result_int() != 204 && res.result_int() != 304) {
    res.content_length(SharedBody::size(res.body()));
  }
  if (head_only) res.body() = nullptr;
  res.set(http::field::connection, keep_alive ? "keep-alive" : "close");
}

std::string Bytes(Response res) {
  Finish(res, false, false);
  std::ostringstream out;
  out << res;
  return out.str();
}

size_t HeadBytes(const Response& res) {
  size_t n = 64;  // the status line and the blank line
  for (const auto& f : res) n += f.name_string().size() + f.value().size() + 4;
  return n;
}

Responder::Responder(const ServeOptions& options, CatalogHolder* holder, ResponseCache* cache,
                     int port)
    : options_(options), holder_(holder), cache_(cache), port_(port) {
  // Checked on every address, not only loopback: a browser on this machine reaches a server
  // bound to 0.0.0.0 through 127.0.0.1 just as well, so rebinding works against it too.
  hosts_ = LoopbackHostNames();
  for (const std::string& h : options.allow_hosts) hosts_.push_back(ToLower(h));
  origin_policy_.cors_origin = options.cors_origin;
  origin_policy_.tls = !options.tls_cert.empty();
}

Response Responder::Route(const HttpRequest& req, Response res, bool gzip,
                          const std::function<bool()>* cancelled) const {
  if (req.method == "GET" || req.method == "HEAD") {
    if (const WebAsset* a = FindWebAsset(req.path))
      return ServeAsset(req, std::move(res), *a, gzip);
  }
  ApiContext ctx;
  const std::shared_ptr<const CatalogHolder::Version> version = holder_->Current();
  ctx.catalog = version->catalog;
  ctx.generation = version->generation;
  ctx.holder = holder_;
  ctx.cache = cache_;
  ctx.fresh.today = options_.today ? options_.today() : TodayUtc();
  ctx.fresh.max_price_age_days = options_.max_price_age_days;
  ctx.prometheus_allowed = &options_.prometheus_allowed;
  ctx.account = options_.account.get();
  // A gzip upload inflates to at most 64 MiB, or to --max-body where that is larger (an operator
  // who takes 200 MB of telemetry as text takes it compressed too).
  ctx.idle_ceilings.max_inflated_bytes =
      std::max(ctx.idle_ceilings.max_inflated_bytes, options_.max_body_bytes);
  if (cancelled != nullptr) ctx.cancelled = *cancelled;
  ctx.language =
      LanguageFromAcceptLanguage(req.Header("Accept-Language")).value_or(Language::kEnglish);
  ctx.accept_gzip = gzip;
  ApiRequest api;
  api.method = req.method == "HEAD" ? "GET" : req.method;
  api.path = req.path;
  api.query = req.query;
  api.body = req.body;
  ApiResponse out = Dispatch(ctx, api);
  if (out.from_cache) res.set("X-Cache", "hit");
  if (out.gzipped) {
    res.set(http::field::content_encoding, "gzip");
    res.insert(http::field::vary, "Accept-Encoding");
  }
  // The human text follows Accept-Language (doc/i18n.md): caches must key on it too.
  res.set(http::field::content_language, LanguageTag(ctx.language));
  res.insert(http::field::vary, "Accept-Language");
  return ToResponse(std::move(out), std::move(res));
}

Response Responder::Answer(const HttpRequest& req, const std::function<bool()>* cancelled) const {
  Response res;
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set("X-Frame-Options", "DENY");
  res.set("Content-Security-Policy",
          "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
  if (!options_.cors_origin.empty()) {
    res.set(http::field::access_control_allow_origin, options_.cors_origin);
    res.set(http::field::access_control_allow_methods, "GET, POST, PUT, OPTIONS");
    res.set(http::field::access_control_allow_headers, "Content-Type");
  }
  if (!HostAllowed(req.Header("Host"), hosts_, port_)) {
    std::string names = "IP addresses";
    for (const std::string& h : hosts_) names += ", " + h;
    return ToResponse(ErrorResponse(421, "host_not_allowed",
                                    "host: this server answers to " + names +
                                        " (start it with --allow-host NAME to add one)",
                                    "host"),
                      std::move(res));
  }
  if (SuspiciousPath(req.path)) {
    return ToResponse(
        ErrorResponse(400, "invalid_argument",
                      R"(path: "." and ".." segments, backslashes and NUL are not allowed)",
                      "path"),
        std::move(res));
  }
  if (HeadError e = CheckCrossSite(req, origin_policy_)) {
    return ToResponse(ErrorResponse(e.status, e.code, e.message, e.field), std::move(res));
  }
  if (req.method == "OPTIONS" && !options_.cors_origin.empty()) {
    res.result(http::status::no_content);
    return res;
  }
  try {
    Response out =
        Route(req, std::move(res), AcceptsGzip(req.Header("Accept-Encoding")), cancelled);
    // A handler that stopped at its cancellation (the wall-time ceiling passed, or the server
    // drains) answers its own error; a client still there is told why.
    if (out.result_int() >= 500 && cancelled != nullptr && *cancelled && (*cancelled)()) {
      return ErrorAnswer(503, "timeout",
                         "server: the request was stopped: it took longer than this server's " +
                             std::to_string(options_.request_timeout_s) +
                             " s limit (serve --request-timeout), or the server is stopping",
                         "", true);
    }
    return out;
  } catch (const std::bad_alloc&) {
    // Out of memory in a handler: this request fails, the server goes on.
    ++out_of_memory_;
    LogError(req, "out of memory", 503);
    return ErrorAnswer(503, "unavailable", "server: out of memory for this request; try again", "",
                       true);
  } catch (const std::exception& e) {
    LogError(req, e.what(), 500);
    return ErrorAnswer(500, "internal", "internal error while handling the request");
  }
}

void Responder::LogError(const HttpRequest& req, std::string_view what, int status) const {
  // One fputs per line: stdio locks the stream, so lines from several workers never mix.
  const std::string line = "gpuadvisor: " + NowUtcIso() + " " + std::to_string(status) + " " +
                           TerminalSafe(req.method) + " " + TerminalSafe(req.path) + ": " +
                           TerminalSafe(what) + "\n";
  std::fputs(line.c_str(), stderr);
}

}  // namespace gpuadvisor::server
