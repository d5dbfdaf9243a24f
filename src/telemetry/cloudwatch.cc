// CloudWatch GetMetricData responses carrying CloudWatch agent nvidia_gpu metrics.
// A response lists series by Id and Label only; the metric and its dimensions come from the
// request (MetricDataQueries, when saved in the same document, as `aws cloudwatch
// get-metric-data --cli-input-json` takes it) or else from the Label, read as the metric name
// followed by dimension=value words: "nvidia_smi_utilization_gpu host=ip-10-0-0-5 index=0".
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "telemetry/internal.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor::telemetry {
namespace {

using rapidjson::Value;

struct SeriesId {
  std::string metric;
  std::map<std::string, std::string> dims;
};

struct Point {
  std::string host, uuid, name;
  int index = -1;
  double time = 0;
  std::optional<double> util, used, total, power;
};

std::string Dim(const SeriesId& s, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = s.dims.find(k);
    if (it != s.dims.end()) return it->second;
  }
  return {};
}

SeriesId FromLabel(std::string_view label) {
  SeriesId s;
  for (std::string_view w : Split(label, ' ')) {
    w = Trim(w);
    if (w.empty()) continue;
    const size_t eq = w.find('=');
    if (eq == std::string_view::npos) {
      if (StartsWith(w, "nvidia_smi_")) s.metric = std::string(w);
    } else {
      s.dims[std::string(w.substr(0, eq))] = std::string(w.substr(eq + 1));
    }
  }
  return s;
}

void ReadQueries(const Value& doc, std::map<std::string, SeriesId>* out) {
  auto q = doc.FindMember("MetricDataQueries");
  if (q == doc.MemberEnd() || !q->value.IsArray()) return;
  for (const Value& e : q->value.GetArray()) {
    if (!e.IsObject() || !e.HasMember("Id") || !e["Id"].IsString()) continue;
    auto ms = e.FindMember("MetricStat");
    if (ms == e.MemberEnd() || !ms->value.IsObject()) continue;
    auto m = ms->value.FindMember("Metric");
    if (m == ms->value.MemberEnd() || !m->value.IsObject()) continue;
    SeriesId s;
    if (m->value.HasMember("MetricName") && m->value["MetricName"].IsString()) {
      s.metric = m->value["MetricName"].GetString();
    }
    auto d = m->value.FindMember("Dimensions");
    if (d != m->value.MemberEnd() && d->value.IsArray()) {
      for (const Value& dim : d->value.GetArray()) {
        if (dim.IsObject() && dim.HasMember("Name") && dim["Name"].IsString() &&
            dim.HasMember("Value") && dim["Value"].IsString()) {
          s.dims[dim["Name"].GetString()] = dim["Value"].GetString();
        }
      }
    }
    (*out)[e["Id"].GetString()] = std::move(s);
  }
}

// Points by (host, GPU, time): the metrics of one GPU at one time merge into one sample.
using PointMap = std::map<std::tuple<std::string, std::string, double>, Point>;
using QueryMap = std::map<std::string, SeriesId>;

// The field of Point a CloudWatch agent metric fills; null for other metrics.
std::optional<double> Point::* FieldOf(const std::string& metric) {
  if (metric == "nvidia_smi_utilization_gpu") return &Point::util;
  if (metric == "nvidia_smi_memory_used") return &Point::used;
  if (metric == "nvidia_smi_memory_total") return &Point::total;
  if (metric == "nvidia_smi_power_draw") return &Point::power;
  return nullptr;
}

// The query with the result's Id, else the Label; the Label completes a query without a metric.
SeriesId ResolveSeries(const QueryMap& queries, const std::string& id, const std::string& label) {
  auto q = queries.find(id);
  SeriesId s = q != queries.end() ? q->second : FromLabel(label);
  if (s.metric.empty()) {
    SeriesId from_label = FromLabel(label);
    s.metric = from_label.metric;
    if (s.dims.empty()) s.dims = from_label.dims;
  }
  return s;
}

// Where one result's values go, and how they are named in messages.
struct ResultContext {
  const std::string& origin;
  std::string_view host;  // for series without a host or InstanceId dimension
  PointMap* points;
};

// Adds values `vs` at times `ts` of series `s` (result at JSON path `rp`) to the points.
Status AddValues(const SeriesId& s, const Value& ts, const Value& vs, const std::string& rp,
                 const ResultContext& c) {
  std::optional<double> Point::* field = FieldOf(s.metric);
  std::string h = Dim(s, {"host", "InstanceId"});
  if (h.empty()) h = std::string(c.host);
  const std::string index = Dim(s, {"index"});
  const std::string gpu_key = index.empty() ? Dim(s, {"pci_bus_id", "uuid"}) : index;
  for (rapidjson::SizeType k = 0; k < ts.Size(); ++k) {
    if (!ts[k].IsString() || !vs[k].IsNumber()) {
      return Status::ParseError(c.origin + ": " +=
                                rp + ".Timestamps[" + std::to_string(k) +
                                "]: expected an ISO time string and a numeric value");
    }
    const std::optional<double> t = ParseTelemetryTime(ts[k].GetString());
    if (!t) {
      return Status::ParseError(c.origin + ": " += rp + ".Timestamps[" + std::to_string(k) +
                                                   "]: expected an ISO 8601 time, got \"" +
                                                   ts[k].GetString() + "\"");
    }
    Point& p = (*c.points)[{h, gpu_key, *t}];
    p.host = h;
    p.time = *t;
    p.name = Dim(s, {"name"});
    p.uuid = Dim(s, {"uuid", "pci_bus_id"});
    if (!index.empty()) p.index = IndexLabel(index);
    p.*field = vs[k].GetDouble();
  }
  return Status::OK();
}

// Adds the points of MetricDataResults entry `res` (JSON path `rp`); *read is false for a
// series of another metric.
Status AddResult(const Value& res, const std::string& rp, const QueryMap& queries, RjReader& r,
                 const ResultContext& c, bool* read) {
  *read = false;
  const std::string id = r.Str(res, "Id", rp);
  const std::string label = r.OptStr(res, "Label", rp).value_or("");
  const Value& ts = r.Array(res, "Timestamps", rp);
  const Value& vs = r.Array(res, "Values", rp);
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  if (ts.Size() != vs.Size()) {
    return Status::ParseError(c.origin + ": " += rp + ": expected as many Values as Timestamps");
  }
  const SeriesId s = ResolveSeries(queries, id, label);
  if (FieldOf(s.metric) == nullptr) return Status::OK();
  *read = true;
  return AddValues(s, ts, vs, rp, c);
}

// Adds the points of one GetMetricData response (JSON path `path`); counts the series read.
Status AddResponse(const Value& resp, const std::string& path, RjReader& r, const ResultContext& c,
                   size_t* series) {
  if (!resp.IsObject() || !resp.HasMember("MetricDataResults")) {
    return Status::ParseError(c.origin + ": " +=
                              path + ": expected a GetMetricData response with MetricDataResults");
  }
  QueryMap queries;
  ReadQueries(resp, &queries);
  const Value& results = r.Array(resp, "MetricDataResults", path);
  for (rapidjson::SizeType i = 0; i < results.Size(); ++i) {
    const std::string rp = path + ".MetricDataResults[" + std::to_string(i) + "]";
    bool read = false;
    GPUADVISOR_RETURN_IF_ERROR(AddResult(results[i], rp, queries, r, c, &read));
    if (read) ++*series;
  }
  return Status::OK();
}

// Passes the points to `sink` in time order (stable: by host and GPU within one time).
Result<uint64_t> EmitInTimeOrder(const PointMap& points, const SampleSink& sink) {
  std::vector<const Point*> order;
  order.reserve(points.size());
  for (const auto& [k, p] : points) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const Point* a, const Point* b) { return a->time < b->time; });
  uint64_t n = 0;
  for (const Point* p : order) {
    TelemetrySample s;
    s.host = p->host;
    s.uuid = p->uuid;
    s.gpu_name = p->name;
    s.gpu_index = p->index;
    s.time_s = p->time;
    s.util_pct = p->util;
    s.mem_used_mib = p->used;
    s.mem_total_mib = p->total;
    s.power_w = p->power;
    GPUADVISOR_RETURN_IF_ERROR(sink(s));
    ++n;
  }
  return n;
}

}  // namespace

Result<uint64_t> ParseCloudWatch(std::string_view json, const std::string& origin,
                                 std::string_view host, const SampleSink& sink) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  std::vector<const Value*> responses;
  if (doc.IsArray()) {
    for (const Value& v : doc.GetArray()) responses.push_back(&v);
  } else {
    responses.push_back(&doc);
  }
  RjReader r(origin);
  PointMap points;
  const ResultContext c{origin, host, &points};
  size_t series = 0;
  for (size_t ri = 0; ri < responses.size(); ++ri) {
    const std::string path = doc.IsArray() ? "[" + std::to_string(ri) + "]" : std::string("$");
    GPUADVISOR_RETURN_IF_ERROR(AddResponse(*responses[ri], path, r, c, &series));
  }
  if (series == 0) {
    return Status::ParseError(origin +
                              ": no nvidia_smi_* series (expected CloudWatch agent nvidia_gpu "
                              "metrics such as nvidia_smi_utilization_gpu; name them in "
                              "MetricDataQueries or in each Label)");
  }
  return EmitInTimeOrder(points, sink);
}

}  // namespace gpuadvisor::telemetry
