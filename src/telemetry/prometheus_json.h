// The Prometheus HTTP API's JSON answers, read with RapidJSON's SAX reader straight into the
// values the source needs: no document is built, so the memory a response costs is its text
// plus one series (labels and points) at a time, not ~10x the text as a DOM did.
//   {"status": "success", "data": [{label: value, ...}, ...]}                  /api/v1/series
//   {"status": "success", "data": {"resultType": "matrix", "result": [
//       {"metric": {label: value, ...}, "values": [[1700000000.5, "42"], ...]}, ...]}}
//                                                                           /api/v1/query_range
//   {"status": "error", "errorType": "bad_data", "error": "..."}            any failure
// Other members ("warnings", "infos", "stats") are skipped. Nesting deeper than
// kMaxPrometheusJsonDepth is refused as it is read (the API's answers nest at most 6 deep).
#ifndef GPUADVISOR_TELEMETRY_PROMETHEUS_JSON_H_
#define GPUADVISOR_TELEMETRY_PROMETHEUS_JSON_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

inline constexpr size_t kMaxPrometheusJsonDepth = 16;

using PromLabels = std::vector<std::pair<std::string, std::string>>;
// (evaluation time in Unix seconds, value); a value Prometheus spells NaN, +Inf or otherwise
// not as a finite number is NaN.
using PromPoints = std::vector<std::pair<double, double>>;

enum class PromData { kSeriesList, kMatrix };

// What the answer said besides its data.
struct PromAnswer {
  std::string status;     // "success", "error" or "" when absent
  std::string error;      // the "error" member, when given
  bool has_data = false;  // a "data" member of the expected shape was read
};

// Called per label set (kSeriesList) or per series (kMatrix), in the answer's order; a non-OK
// Status stops the parse and is returned. A null callback skips the data (still checked).
struct PromDataSink {
  std::function<Status(const PromLabels&)> labels;
  std::function<Status(const PromLabels&, const PromPoints&)> series;
  // Points in the whole answer; more is a ParseError as soon as the next one is read (so a
  // series never holds more). 0: no limit.
  uint64_t max_points = 0;
};

// Reads `body`. ParseError "<where>: ..." when it is not JSON, nests too deep, or its data is not
// of the `expected` shape; a sink's error as it returned it.
Status ParsePrometheusJson(std::string_view body, PromData expected, const PromDataSink& sink,
                           const std::string& where, PromAnswer* answer);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_TELEMETRY_PROMETHEUS_JSON_H_
