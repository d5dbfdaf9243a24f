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
#include "util/strings.h"

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
  std::map<std::tuple<std::string, std::string, double>, Point> points;
  size_t series = 0;
  for (size_t ri = 0; ri < responses.size(); ++ri) {
    const Value& resp = *responses[ri];
    const std::string path = doc.IsArray() ? "[" + std::to_string(ri) + "]" : std::string("$");
    if (!resp.IsObject() || !resp.HasMember("MetricDataResults")) {
      return Status::ParseError(
          origin + ": " += path + ": expected a GetMetricData response with MetricDataResults");
    }
    std::map<std::string, SeriesId> queries;
    ReadQueries(resp, &queries);
    const Value& results = r.Array(resp, "MetricDataResults", path);
    for (rapidjson::SizeType i = 0; i < results.Size(); ++i) {
      const Value& res = results[i];
      const std::string rp = path + ".MetricDataResults[" + std::to_string(i) + "]";
      const std::string id = r.Str(res, "Id", rp);
      const std::string label = r.OptStr(res, "Label", rp).value_or("");
      const Value& ts = r.Array(res, "Timestamps", rp);
      const Value& vs = r.Array(res, "Values", rp);
      GPUADVISOR_RETURN_IF_ERROR(r.status());
      if (ts.Size() != vs.Size()) {
        return Status::ParseError(origin + ": " += rp + ": expected as many Values as Timestamps");
      }
      auto q = queries.find(id);
      SeriesId s = q != queries.end() ? q->second : FromLabel(label);
      if (s.metric.empty()) {
        SeriesId from_label = FromLabel(label);
        s.metric = from_label.metric;
        if (s.dims.empty()) s.dims = from_label.dims;
      }
      enum { kUtil, kUsed, kTotal, kPower, kOther } kind = kOther;
      if (s.metric == "nvidia_smi_utilization_gpu") kind = kUtil;
      if (s.metric == "nvidia_smi_memory_used") kind = kUsed;
      if (s.metric == "nvidia_smi_memory_total") kind = kTotal;
      if (s.metric == "nvidia_smi_power_draw") kind = kPower;
      if (kind == kOther) continue;
      ++series;
      std::string h = Dim(s, {"host", "InstanceId"});
      if (h.empty()) h = std::string(host);
      const std::string index = Dim(s, {"index"});
      const std::string gpu_key = index.empty() ? Dim(s, {"pci_bus_id", "uuid"}) : index;
      for (rapidjson::SizeType k = 0; k < ts.Size(); ++k) {
        if (!ts[k].IsString() || !vs[k].IsNumber()) {
          return Status::ParseError(origin + ": " +=
                                    rp + ".Timestamps[" + std::to_string(k) +
                                    "]: expected an ISO time string and a numeric value");
        }
        const std::optional<double> t = ParseTelemetryTime(ts[k].GetString());
        if (!t) {
          return Status::ParseError(origin + ": " += rp + ".Timestamps[" + std::to_string(k) +
                                                     "]: expected an ISO 8601 time, got \"" +
                                                     ts[k].GetString() + "\"");
        }
        Point& p = points[{h, gpu_key, *t}];
        p.host = h;
        p.time = *t;
        p.name = Dim(s, {"name"});
        p.uuid = Dim(s, {"uuid", "pci_bus_id"});
        if (!index.empty()) p.index = std::atoi(index.c_str());
        const double v = vs[k].GetDouble();
        (kind == kUtil ? p.util : kind == kUsed ? p.used : kind == kTotal ? p.total : p.power) = v;
      }
    }
  }
  if (series == 0) {
    return Status::ParseError(origin +
                              ": no nvidia_smi_* series (expected CloudWatch agent nvidia_gpu "
                              "metrics such as nvidia_smi_utilization_gpu; name them in "
                              "MetricDataQueries or in each Label)");
  }
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

}  // namespace gpuadvisor::telemetry
