// JSON to text for every output path (CLI --json, server bodies, files we write).
//
// nlohmann's dump() throws type_error 316 on a string that is not valid UTF-8; strings that came
// from outside (file names, telemetry hostnames, query strings, imported catalog text) can hold
// any bytes, and an uncaught throw aborts the CLI (exit 134) or becomes an HTTP 500. DumpJson
// never throws for that reason: each invalid byte becomes U+FFFD.
#ifndef GPUADVISOR_UTIL_JSON_TEXT_H_
#define GPUADVISOR_UTIL_JSON_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace gpuadvisor {

// `indent` < 0: one line; otherwise pretty-printed with that many spaces. Works for
// nlohmann::json and nlohmann::ordered_json alike.
template <typename Json>
std::string DumpJson(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_JSON_TEXT_H_
