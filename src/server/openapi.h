// The OpenAPI document of the HTTP API. openapi.json (embedded) holds what no table knows:
// paths, summaries, responses, request body media types. The query parameters and JSON body
// properties of the endpoints backed by an option table (options.h) are made from the table when
// the document is first served, so they cannot drift from what the handlers accept.
#ifndef GPUADVISOR_SERVER_OPENAPI_H_
#define GPUADVISOR_SERVER_OPENAPI_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::server {

// Which command's table backs an endpoint, and where its options go.
struct OpenApiBinding {
  std::string_view path;     // "/v1/instances/{type}"
  std::string_view method;   // "get", "post" (OpenAPI spells them in lower case)
  std::string_view command;  // "show"
  bool in_body = false;      // options are JSON body properties (else query; positional: path)
  bool workload = false;     // the body also takes the workload fields (WorkloadFields)
};
const std::vector<OpenApiBinding>& OpenApiBindings();

// The whole document as served at GET /v1/openapi.json; built once, then cached.
const std::string& OpenApiJson();

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_OPENAPI_H_
