// `gpuadvisor serve`: the HTTP JSON API and the web page (server/). Binds 127.0.0.1 unless
// --host says otherwise; SIGHUP reloads the catalog, SIGINT/SIGTERM stop the server. This file
// declares the command (options, help); running it is RunServe's (common.h): the server in
// gpuadvisor-serve, or an exec of it from the gpuadvisor binary.
#include <memory>

#include "cli/common.h"

namespace gpuadvisor::cli {
namespace {

// The flags, their ranges and defaults are ServeArgs's declaration (serve.h).
struct ServeCliOptions {
  TableOptions table;
};

}  // namespace

void SetupServe(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<ServeCliOptions>();
  o->table.Add(app, "serve");
  app->footer(
      R"(Endpoints: GET /healthz, /v1/instances, /v1/instances/{type}, /v1/gpus, /v1/catalog,
/v1/regions, /v1/models, /v1/openapi.json; POST /v1/estimate, /v1/recommend, /v1/pricing,
/v1/catalog/reload. The web page is at /. See doc/server.md.

Examples:
  gpuadvisor serve
  gpuadvisor serve --port 9000 --threads 32 --catalog data/catalog.json
  curl 'http://127.0.0.1:8080/v1/instances?gpu=H100&region=all'
  curl -d '{"task":"serve","model":"llama-3.1-8b","rps":2}' http://127.0.0.1:8080/v1/recommend)");
  app->callback([o, exit_code] { *exit_code = RunServe(o->table); });
}

}  // namespace gpuadvisor::cli
