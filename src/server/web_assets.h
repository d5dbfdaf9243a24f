// The web page's files and the OpenAPI document, linked into the binary (.incbin, like the
// catalog), so `serve` needs no files at run time and works offline.
#ifndef GPUADVISOR_SERVER_WEB_ASSETS_H_
#define GPUADVISOR_SERVER_WEB_ASSETS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::server {

struct WebAsset {
  std::string_view path;          // URL path: "/", "/app.js", "/vendor/uplot/uPlot.iife.min.js"
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view data;          // the file as built
  std::string gzip;               // the same, gzip-compressed once at start-up
  std::string etag;               // "\"<hash>\"" of data
  // The bytes as answers hand them out (data, gzip), made once: every request for the asset
  // shares them, as cached API answers are shared, never copied per request.
  std::shared_ptr<const std::string> shared_data, shared_gzip;
};

// Every asset (built on first use; thread-safe). Paths never contain "..".
const std::vector<WebAsset>& WebAssets();
// Null for an unknown path.
const WebAsset* FindWebAsset(std::string_view path);
// gzip (RFC 1952) of `data` at zlib `level` (1..9); "" if zlib fails.
std::string Gzip(std::string_view data, int level);

// The OpenAPI 3.0 document served at /v1/openapi.json (src/server/openapi.json).
std::string_view OpenApiDocument();

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_WEB_ASSETS_H_
