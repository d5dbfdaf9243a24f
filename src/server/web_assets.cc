// The web/ files and openapi.json linked in with the GNU assembler's .incbin. CMake passes the
// source directory and rebuilds this object when any of the files changes.
#include "server/web_assets.h"

#include <zlib.h>

#include <mutex>

#include "util/embed.h"

#ifndef GPUADVISOR_SOURCE_DIR
#error "GPUADVISOR_SOURCE_DIR must name the source tree"
#endif

GPUADVISOR_EMBED(index_html, GPUADVISOR_SOURCE_DIR "/web/index.html");
GPUADVISOR_EMBED(app_js, GPUADVISOR_SOURCE_DIR "/web/app.js");
GPUADVISOR_EMBED(i18n_js, GPUADVISOR_SOURCE_DIR "/web/i18n.js");
GPUADVISOR_EMBED(i18n_zh_cn_js, GPUADVISOR_SOURCE_DIR "/web/i18n-zh-CN.js");
GPUADVISOR_EMBED(app_css, GPUADVISOR_SOURCE_DIR "/web/app.css");
GPUADVISOR_EMBED(uplot_js, GPUADVISOR_SOURCE_DIR "/web/vendor/uplot/uPlot.iife.min.js");
GPUADVISOR_EMBED(uplot_css, GPUADVISOR_SOURCE_DIR "/web/vendor/uplot/uPlot.min.css");
GPUADVISOR_EMBED(uplot_license, GPUADVISOR_SOURCE_DIR "/web/vendor/uplot/LICENSE");
GPUADVISOR_EMBED(openapi_json, GPUADVISOR_SOURCE_DIR "/src/server/openapi.json");

#define GPUADVISOR_ASSET_DATA(name) GPUADVISOR_EMBEDDED(name)

namespace gpuadvisor::server {

std::string Gzip(std::string_view data, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    return "";
  }
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

namespace {

// FNV-1a, enough to tell builds apart for If-None-Match.
std::string Etag(std::string_view data) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : data) h = (h ^ c) * 1099511628211ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
  return buf;
}

WebAsset Make(std::string_view path, std::string_view type, std::string_view data) {
  WebAsset a{path, type, data, Gzip(data, Z_BEST_COMPRESSION), Etag(data), nullptr, nullptr};
  a.shared_data = std::make_shared<const std::string>(data);
  a.shared_gzip = std::make_shared<const std::string>(a.gzip);
  return a;
}

}  // namespace

const std::vector<WebAsset>& WebAssets() {
  static const std::vector<WebAsset> kAssets = {
      Make("/", "text/html; charset=utf-8", GPUADVISOR_ASSET_DATA(index_html)),
      Make("/app.js", "text/javascript; charset=utf-8", GPUADVISOR_ASSET_DATA(app_js)),
      Make("/i18n.js", "text/javascript; charset=utf-8", GPUADVISOR_ASSET_DATA(i18n_js)),
      Make("/i18n-zh-CN.js", "text/javascript; charset=utf-8",
           GPUADVISOR_ASSET_DATA(i18n_zh_cn_js)),
      Make("/app.css", "text/css; charset=utf-8", GPUADVISOR_ASSET_DATA(app_css)),
      Make("/vendor/uplot/uPlot.iife.min.js", "text/javascript; charset=utf-8",
           GPUADVISOR_ASSET_DATA(uplot_js)),
      Make("/vendor/uplot/uPlot.min.css", "text/css; charset=utf-8",
           GPUADVISOR_ASSET_DATA(uplot_css)),
      Make("/vendor/uplot/LICENSE", "text/plain; charset=utf-8",
           GPUADVISOR_ASSET_DATA(uplot_license)),
  };
  return kAssets;
}

const WebAsset* FindWebAsset(std::string_view path) {
  if (path == "/index.html") path = "/";
  for (const WebAsset& a : WebAssets()) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

std::string_view OpenApiDocument() { return GPUADVISOR_ASSET_DATA(openapi_json); }

}  // namespace gpuadvisor::server
