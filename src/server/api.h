// The HTTP API as plain functions: a request (method, path, query, body) in, a response
// (status, JSON text) out. Independent of the HTTP library, so every endpoint is tested without
// sockets, and a new endpoint is one line in Routes() plus its handler.
//
// Every JSON object is the one the CLI prints with --json (the views in src/io). Errors are
// {"error": {"code", "message", "field"}} with 400 (bad input), 404 (unknown path or resource),
// 413 (body too large, from the HTTP layer) or 500. Bodies never name files: a workload's
// "model-config" must be an inline config.json object (ParseWorkloadJsonInline).
#ifndef GPUADVISOR_SERVER_API_H_
#define GPUADVISOR_SERVER_API_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "io/catalog_views.h"

namespace gpuadvisor::server {

// The catalog every worker reads: an immutable snapshot, replaced whole by Reload(). Readers
// keep the snapshot they took for the whole request, so a swap never changes a request's data
// and never drops one. Thread-safe.
class CatalogHolder {
 public:
  // `loader` produces a fresh catalog (the --catalog file, or the embedded one) for Reload().
  using Loader = std::function<Result<std::shared_ptr<const Catalog>>()>;
  CatalogHolder(std::shared_ptr<const Catalog> catalog, Loader loader);

  std::shared_ptr<const Catalog> Snapshot() const { return catalog_.load(); }
  // Loads a new catalog and swaps it in atomically; on error the current one stays.
  Status Reload();
  // Incremented by every successful Reload() (starts at 1).
  uint64_t generation() const { return generation_.load(); }

 private:
  std::atomic<std::shared_ptr<const Catalog>> catalog_;
  std::atomic<uint64_t> generation_{1};
  Loader loader_;
};

struct ApiRequest {
  std::string method;  // "GET", "POST"
  std::string path;    // decoded, without the query: "/v1/instances/p5.48xlarge"
  std::vector<std::pair<std::string, std::string>> query;  // in order; repeated keys kept
  std::string_view body;
};

struct ApiResponse {
  int status = 200;
  std::string body;  // JSON text
  std::string content_type = "application/json";
};

// What a handler may use. `catalog` is the snapshot taken when the request arrived.
struct ApiContext {
  std::shared_ptr<const Catalog> catalog;
  Freshness fresh;
  CatalogHolder* holder = nullptr;  // for reload and health; may be null in tests
};

using ApiHandler = ApiResponse (*)(const ApiContext& ctx, const ApiRequest& req,
                                   std::string_view path_arg);

// One endpoint. `path` is exact, or ends in "/{name}" to take one path segment as path_arg.
struct Route {
  const char* method;
  const char* path;
  ApiHandler handler;
  const char* summary;
};
const std::vector<Route>& Routes();

// Finds the route for method + path: 404 / 405 responses when there is none.
ApiResponse Dispatch(const ApiContext& ctx, const ApiRequest& req);

// {"error": {"code", "message", "field"}}; `field` "" is null.
ApiResponse ErrorResponse(int http_status, std::string_view code, std::string_view message,
                          std::string_view field);
// A library Status: code name from StatusCodeName, the field from the message's "<key>: "
// prefix, HTTP 400 for bad input, 404 for NoResult, 500 for I/O.
ApiResponse ErrorResponse(const Status& status);

// Bodies deeper than this (nested arrays/objects) are refused before parsing.
inline constexpr int kMaxJsonDepth = 32;

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_API_H_
