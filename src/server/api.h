// The HTTP API as plain functions: a request (method, path, query, body) in, a response
// (status, JSON text) out. Independent of the HTTP library, so every endpoint is tested without
// sockets, and a new endpoint is one line in Routes() plus its handler.
//
// Every JSON object is the one the CLI prints with --json (app/views.h). Errors are
// {"error": {"code", "message", "field"}} with 400 (bad input), 404 (unknown path or resource),
// 413 / 421 / 431 (from the HTTP layer) or 500. Bodies never name files: a workload's
// "model-config" must be an inline config.json object (ParseWorkloadJsonInline).
#ifndef GPUADVISOR_SERVER_API_H_
#define GPUADVISOR_SERVER_API_H_

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "app/views.h"
#include "gpuadvisor/account.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/i18n.h"
#include "util/url.h"

namespace gpuadvisor::server {

// The catalog every worker reads: an immutable snapshot, replaced whole by Reload(). Readers
// keep the snapshot they took for the whole request, so a swap never changes a request's data
// and never drops one. Thread-safe.
class CatalogHolder {
 public:
  // `loader` produces a fresh catalog (the --catalog file, or the embedded one) for Reload().
  using Loader = std::function<Result<std::shared_ptr<const Catalog>>()>;
  CatalogHolder(std::shared_ptr<const Catalog> catalog, Loader loader);

  // The catalog and its generation (1, then +1 per successful Reload), read together.
  struct Version {
    std::shared_ptr<const Catalog> catalog;
    uint64_t generation = 1;
  };
  std::shared_ptr<const Version> Current() const { return current_.load(); }
  std::shared_ptr<const Catalog> Snapshot() const { return Current()->catalog; }
  uint64_t generation() const { return Current()->generation; }
  // Loads a new catalog and swaps it in atomically; on error the current one stays.
  // Concurrent reloads are serialised.
  Status Reload();

 private:
  std::atomic<std::shared_ptr<const Version>> current_;
  std::mutex reload_mu_;  // serialises Reload(); readers never take it
  Loader loader_;
};

struct ApiResponse;

// Answers of the pure POST endpoints (estimate, recommend), keyed by the endpoint, the catalog
// generation, today's date and the body's bytes. Bounded LRU, by entries and by bytes (key +
// body + a fixed overhead per entry); an answer larger than max_bytes / kMaxEntryShare is not
// kept, so one huge answer never flushes the rest. Thread-safe (the mutex is held for lookups
// and inserts only, never while an answer is computed).
class ResponseCache {
 public:
  static constexpr size_t kMaxEntryShare = 8;
  static constexpr size_t kEntryOverhead = 160;  // list node, map slot, shared_ptr, strings
  ResponseCache(size_t max_entries, size_t max_bytes)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}
  // The kept answer, its bytes shared (ApiResponse::shared). With `gzip`, an answer of at least
  // kGzipMinBytes comes gzipped; its gzip form is made once and kept beside it.
  std::optional<ApiResponse> Find(const std::string& key, bool gzip = false);
  void Insert(const std::string& key, const ApiResponse& response);
  size_t size() const;
  size_t bytes() const;  // accounted bytes of the entries kept

 private:
  struct Entry {
    std::string key;
    int status = 200;
    std::string content_type;
    std::shared_ptr<const std::string> body;
    std::shared_ptr<const std::string> gzip;  // made on the first request that takes gzip
    size_t bytes = 0;
  };
  void EraseLocked(std::list<Entry>::iterator it);
  const size_t max_entries_, max_bytes_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // guarded by mu_; most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;  // guarded by mu_
  size_t bytes_ = 0;                                                   // guarded by mu_
};

struct ApiRequest {
  std::string method;  // "GET", "POST"
  std::string path;    // decoded, without the query: "/v1/instances/p5.48xlarge"
  std::vector<std::pair<std::string, std::string>> query;  // in order; repeated keys kept
  std::string_view body;
};

struct ApiResponse {
  int status = 200;
  std::string body;  // JSON text; empty when `shared` holds it
  // The answer's bytes shared with the ResponseCache (and with every connection writing them):
  // a cached answer is never copied per request. Null: `body` holds them.
  std::shared_ptr<const std::string> shared;
  std::string content_type = "application/json";
  bool from_cache = false;  // answered by the ResponseCache
  bool gzipped = false;     // the bytes are gzip (ApiContext::accept_gzip); else plain JSON
  const std::string& text() const { return shared ? *shared : body; }
};

// Answers at least this large are gzipped for clients that take it (ApiContext::accept_gzip).
inline constexpr size_t kGzipMinBytes = 1400;

// The server's own limits on what one /v1/idle request may make it do (doc/server.md, "Outbound
// requests"). Query options may lower them, never lift them: a larger max-hosts or
// prometheus-max-points is a 400 naming the option and its ceiling; since / step over
// prometheus_windows is a 400 naming since. The others have no query option.
struct IdleCeilings {
  size_t max_hosts = 10000;               // hosts per analysis (max-hosts)
  size_t max_series = 100000;             // GPU series per analysis and listed upstream
  size_t prometheus_max_points = 500000;  // values per upstream request
  uint64_t prometheus_windows = 200000;   // windows per GPU: since / step
  uint64_t prometheus_requests = 1000;    // upstream requests per /v1/idle request
  size_t prometheus_response_bytes = size_t{256} << 20;  // one upstream response
  uint64_t prometheus_total_bytes = uint64_t{2} << 30;   // all upstream responses of a request
  double prometheus_timeout_s = 60;                      // one upstream request, whole
  double prometheus_run_s = 300;                         // all upstream requests of a request
  size_t prometheus_in_flight = 2;  // push-down upstream requests at once, per request
  // A gzip upload (Content-Encoding: gzip, or gzip bytes as the body) is inflated up to this
  // many bytes; more is 413. --max-body bounds the compressed bytes, this the inflated ones (a
  // 1 MB gzip body can hold 1 GB); the server lifts it to --max-body where that is larger.
  size_t max_inflated_bytes = size_t{64} << 20;
};

// What a handler may use. `catalog` is the snapshot taken when the request arrived.
struct ApiContext {
  std::shared_ptr<const Catalog> catalog;
  Freshness fresh;
  uint64_t generation = 1;          // of `catalog`
  CatalogHolder* holder = nullptr;  // for reload and health; may be null in tests
  ResponseCache* cache = nullptr;   // null: no caching
  // True once the work is no longer wanted: the client has gone, the request's wall-time
  // ceiling has passed or the server is draining. Long work (upstream calls, recommend's search)
  // checks it between steps and stops with an error. Null: never cancelled. Called from the
  // handler's thread.
  std::function<bool()> cancelled;
  // The client takes gzip (Accept-Encoding): answers of at least kGzipMinBytes come gzipped
  // (ApiResponse::gzipped), a cached answer's gzip form kept with it.
  bool accept_gzip = false;
  IdleCeilings idle_ceilings;
  // The Prometheus servers a request may make this server query (the operator's
  // GPUADVISOR_PROMETHEUS_URLS, parsed once at start by the front end). Null or empty: none.
  const std::vector<HttpUrl>* prometheus_allowed = nullptr;
  // The language of the answer's human text (tables' words, why, warnings, advice, error
  // messages; never JSON keys or enum values): the request's Accept-Language (doc/i18n.md).
  Language language = Language::kEnglish;
  // The account scan the server was started with (ServeOptions::account). Null: none.
  const AccountScan* account = nullptr;
};

using ApiHandler = ApiResponse (*)(const ApiContext& ctx, const ApiRequest& req,
                                   std::string_view path_arg);

// One endpoint. `path` is exact, or ends in "/{name}" to take one path segment as path_arg.
struct Route {
  const char* method;
  const char* path;
  ApiHandler handler;
  const char* summary;
  bool cacheable = false;  // a pure function of (catalog, date, body): ResponseCache may answer
  // A POST route's options come in its JSON body, so any query parameter is a 400 naming it
  // (it would otherwise be ignored: ?region=eu-west-1 answering for us-east-1). true: the route
  // reads its options from the query (POST /v1/idle, whose body is telemetry) and refuses the
  // unknown ones as GET routes do.
  bool query_options = false;
};
const std::vector<Route>& Routes();

// Finds the route for method + path: 404 / 405 responses when there is none.
ApiResponse Dispatch(const ApiContext& ctx, const ApiRequest& req);

// {"error": {"code", "message", "field"}}; `field` "" is null. Input echoed in the message
// (every "quoted" stretch) is cut to kMaxEchoChars characters plus "…", the field name too,
// and the whole message to kMaxErrorMessageChars: an error never echoes a large body back.
ApiResponse ErrorResponse(int http_status, std::string_view code, std::string_view message,
                          std::string_view field);
// The one mapping from a library Status to an HTTP status: 400 bad input (InvalidArgument,
// ParseError, Unsupported), 404 NotFound / NoResult, 500 IOError; an IOError or ParseError whose
// field is "prometheus" (a server we queried) is 502.
int HttpStatusFor(const Status& status);
// A library Status as an error response: code name from StatusCodeName, field from
// Status::field(), HTTP status from HttpStatusFor.
ApiResponse ErrorResponse(const Status& status);

inline constexpr size_t kMaxEchoChars = 80;
inline constexpr size_t kMaxErrorMessageChars = 600;
// `text` cut to at most `max` bytes on a UTF-8 boundary, with "…" when it was cut.
std::string CapEcho(std::string_view text, size_t max = kMaxEchoChars);

// Bodies deeper than this (nested arrays/objects) are refused before parsing.
inline constexpr int kMaxJsonDepth = 32;

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_API_H_
