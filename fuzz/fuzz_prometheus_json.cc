// libFuzzer target: the Prometheus API's JSON answers read by SAX (telemetry/prometheus_json.h),
// as a series list and as a matrix. Every input is read or refused with a ParseError; nothing
// recurses per nesting level and no label set or series is delivered from an answer refused
// before it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "telemetry/prometheus_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpuadvisor;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  PromDataSink sink;
  size_t points = 0;
  sink.labels = [](const PromLabels&) { return Status::OK(); };
  sink.series = [&points](const PromLabels&, const PromPoints& p) {
    points += p.size();
    return Status::OK();
  };
  for (const PromData kind : {PromData::kSeriesList, PromData::kMatrix}) {
    PromAnswer answer;
    const Status st = ParsePrometheusJson(text, kind, sink, "fuzz", &answer);
    if (!st.ok() && st.code() != StatusCode::kParseError) std::abort();
  }
  if (points > size) std::abort();  // a point takes at least "[0,\"\"]"
  return 0;
}
