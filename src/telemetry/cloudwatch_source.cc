// CloudWatch agent GPU metrics summarised per hour by CloudWatch (gpuadvisor/cloudwatch_source.h):
// the ListMetrics, DescribeAutoScalingGroups and GetMetricData answers read, the queries built.
#include "gpuadvisor/cloudwatch_source.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "telemetry/internal.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

using rapidjson::Value;

// CloudWatch's own limits on a metric's dimensions.
constexpr size_t kMaxDimensions = 30;
constexpr size_t kMaxDimensionName = 255;
constexpr size_t kMaxDimensionValue = 1024;
constexpr double kHourS = 3600;
constexpr size_t kMaxTokenBytes = 4096;  // a NextToken passed back as one AWS CLI argument

std::string DimensionOf(const CloudWatchGpu& g, std::string_view name) {
  for (const auto& [n, v] : g.dimensions) {
    if (n == name) return v;
  }
  return {};
}

// The GPU's identity from its dimensions (the file reader's rules, cloudwatch.cc).
void Describe(CloudWatchGpu* g) {
  g->instance_id = DimensionOf(*g, "InstanceId");
  g->instance_type = DimensionOf(*g, "InstanceType");
  g->auto_scaling_group = DimensionOf(*g, "AutoScalingGroupName");
  g->host = DimensionOf(*g, "host");
  if (g->host.empty()) g->host = g->instance_id;
  if (g->host.empty()) g->host = "unknown";
  g->name = DimensionOf(*g, "name");
  g->uuid = DimensionOf(*g, "uuid");
  if (g->uuid.empty()) g->uuid = DimensionOf(*g, "pci_bus_id");
  const std::string index = DimensionOf(*g, "index");
  g->index = index.empty() ? -1 : telemetry::IndexLabel(index);
}

// One entry of Metrics[] (JSON path `path`) into *g; false when it is not a GPU series.
bool ReadMetric(const Value& m, const JsonPath& path, RjReader& r, CloudWatchGpu* g) {
  if (!m.IsObject()) {
    r.Fail(path, "an object");
    return false;
  }
  const std::string metric = r.Str(m, "MetricName", path);
  const Value& dims = r.Array(m, "Dimensions", path, /*required=*/false);
  if (!r.status().ok()) return false;
  if (dims.Size() > kMaxDimensions) {
    r.Fail(JsonPath(path, "Dimensions"), "at most 30 dimensions");
    return false;
  }
  for (rapidjson::SizeType i = 0; i < dims.Size(); ++i) {
    const JsonPath dp(path, "Dimensions", i);
    if (!dims[i].IsObject()) {
      r.Fail(dp, "a {Name, Value} object");
      return false;
    }
    std::string name = r.Str(dims[i], "Name", dp);
    std::string value = r.Str(dims[i], "Value", dp);
    if (!r.status().ok()) return false;
    if (name.empty() || name.size() > kMaxDimensionName || value.size() > kMaxDimensionValue) {
      r.Fail(dp, "a Name of 1-255 bytes and a Value of at most 1024");
      return false;
    }
    g->dimensions.emplace_back(std::move(name), std::move(value));
  }
  if (metric != kCloudWatchUtilMetric) return false;
  Describe(g);
  return true;
}

// The NextToken of an answer ("" when absent or null).
std::string NextToken(const Value& doc, RjReader& r) {
  auto it = doc.FindMember("NextToken");
  if (it == doc.MemberEnd() || it->value.IsNull()) return {};
  std::string token = r.Str(doc, "NextToken", "$");
  if (token.size() > kMaxTokenBytes) r.Fail("$.NextToken", "a token of at most 4096 bytes");
  return token;
}

// Appends the queries of fleet GPU `g` (number k in its batch) to `w`.
void WriteQueries(rapidjson::Writer<rapidjson::StringBuffer>& w, const CloudWatchGpu& g, size_t k,
                  const std::string& metric_namespace) {
  for (size_t s = 0; s < kCloudWatchQueriesPerGpu; ++s) {
    const std::string id = "q" + std::to_string(k) + "_" + std::to_string(s);
    w.StartObject();
    w.Key("Id");
    w.String(id.c_str());
    w.Key("MetricStat");
    w.StartObject();
    w.Key("Metric");
    w.StartObject();
    w.Key("Namespace");
    w.String(metric_namespace.c_str(), static_cast<rapidjson::SizeType>(metric_namespace.size()));
    w.Key("MetricName");
    w.String(kCloudWatchStats[s].metric);
    w.Key("Dimensions");
    w.StartArray();
    for (const auto& [n, v] : g.dimensions) {
      w.StartObject();
      w.Key("Name");
      w.String(n.c_str(), static_cast<rapidjson::SizeType>(n.size()));
      w.Key("Value");
      w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    w.Key("Period");
    w.Int(3600);
    w.Key("Stat");
    w.String(kCloudWatchStats[s].stat);
    w.EndObject();
    w.Key("ReturnData");
    w.Bool(true);
    w.EndObject();
  }
}

// The bytes of one GPU's queries in the JSON array (its comma included).
size_t QueryBytes(const CloudWatchGpu& g, size_t k, const std::string& metric_namespace) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartArray();
  WriteQueries(w, g, k, metric_namespace);
  w.EndArray();
  return buf.GetSize();
}

std::string BatchJson(const std::vector<CloudWatchGpu>& fleet, size_t first, size_t count,
                      const std::string& metric_namespace) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartArray();
  for (size_t k = 0; k < count; ++k) WriteQueries(w, fleet[first + k], k, metric_namespace);
  w.EndArray();
  return {buf.GetString(), buf.GetSize()};
}

// "q<k>_<s>" of a batch of `count` GPUs; false when it is no Id of the batch.
bool ParseId(std::string_view id, size_t count, size_t* k, size_t* s) {
  if (id.size() < 4 || id[0] != 'q') return false;
  const size_t us = id.find('_');
  if (us == std::string_view::npos) return false;
  const char* b = id.data();
  auto [p1, e1] = std::from_chars(b + 1, b + us, *k);
  auto [p2, e2] = std::from_chars(b + us + 1, b + id.size(), *s);
  return e1 == std::errc() && p1 == b + us && e2 == std::errc() && p2 == b + id.size() &&
         *k < count && *s < kCloudWatchQueriesPerGpu && us > 1;
}

}  // namespace

Result<std::string> ParseCloudWatchListMetrics(std::string_view json, const std::string& origin,
                                               std::vector<CloudWatchGpu>* gpus, size_t max_gpus) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r(origin);
  if (!doc.IsObject()) return Status::ParseError(origin + ": $: expected a ListMetrics answer");
  const Value& metrics = r.Array(doc, "Metrics", "$");
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  // A series is its set of dimensions, in any order; the queries send them back in the order
  // listed (moto, the tests' CloudWatch, matches them in order).
  using Key = std::vector<std::pair<std::string, std::string>>;
  const auto key = [](Key dims) {
    std::sort(dims.begin(), dims.end());
    return dims;
  };
  std::set<Key> seen;
  for (const CloudWatchGpu& g : *gpus) seen.insert(key(g.dimensions));
  const JsonPath root("$");
  for (rapidjson::SizeType i = 0; i < metrics.Size(); ++i) {
    CloudWatchGpu g;
    const bool gpu = ReadMetric(metrics[i], JsonPath(root, "Metrics", i), r, &g);
    GPUADVISOR_RETURN_IF_ERROR(r.status());
    if (!gpu || !seen.insert(key(g.dimensions)).second) continue;
    if (gpus->size() >= max_gpus) {
      return Status::InvalidArgument(origin + ": more than " + std::to_string(max_gpus) +
                                     " GPU series (" + kCloudWatchUtilMetric +
                                     "); name the fleet with instance ids or a group");
    }
    gpus->push_back(std::move(g));
  }
  std::string next = NextToken(doc, r);
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  return next;
}

Result<std::vector<std::string>> ParseAutoScalingGroupInstances(std::string_view json,
                                                                const std::string& origin,
                                                                const std::string& group) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r(origin);
  if (!doc.IsObject()) {
    return Status::ParseError(origin + ": $: expected a DescribeAutoScalingGroups answer");
  }
  const JsonPath root("$");
  const Value& groups = r.Array(doc, "AutoScalingGroups", root);
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  for (rapidjson::SizeType i = 0; i < groups.Size(); ++i) {
    const JsonPath gp(root, "AutoScalingGroups", i);
    if (!groups[i].IsObject()) {
      r.Fail(gp, "an object");
      return r.status();
    }
    const std::string name = r.Str(groups[i], "AutoScalingGroupName", gp);
    const Value& instances = r.Array(groups[i], "Instances", gp, /*required=*/false);
    GPUADVISOR_RETURN_IF_ERROR(r.status());
    if (name != group) continue;
    std::vector<std::string> ids;
    for (rapidjson::SizeType k = 0; k < instances.Size() && k < kCloudWatchMaxGpus; ++k) {
      const JsonPath ip(gp, "Instances", k);
      if (!instances[k].IsObject()) {
        r.Fail(ip, "an object");
        return r.status();
      }
      ids.push_back(r.Str(instances[k], "InstanceId", ip));
      GPUADVISOR_RETURN_IF_ERROR(r.status());
    }
    return ids;
  }
  return Status::NoResult(origin + ": no Auto Scaling group named \"" + TerminalSafe(group) +
                          "\" in this region")
      .WithField("asg");
}

std::vector<CloudWatchGpu> SelectCloudWatchFleet(std::vector<CloudWatchGpu> gpus,
                                                 const std::vector<std::string>& instance_ids,
                                                 const std::string& group) {
  if (!instance_ids.empty() || !group.empty()) {
    const std::set<std::string> ids(instance_ids.begin(), instance_ids.end());
    std::erase_if(gpus, [&](const CloudWatchGpu& g) {
      const bool by_id = !g.instance_id.empty() && ids.count(g.instance_id) > 0;
      const bool by_group = !group.empty() && g.auto_scaling_group == group;
      return !by_id && !by_group;
    });
  }
  std::stable_sort(gpus.begin(), gpus.end(), [](const CloudWatchGpu& a, const CloudWatchGpu& b) {
    return std::tie(a.host, a.index, a.uuid) < std::tie(b.host, b.index, b.uuid);
  });
  return gpus;
}

size_t CloudWatchHours(double start_s, double end_s) {
  if (!(end_s > start_s)) return 0;
  return static_cast<size_t>(std::ceil((end_s - start_s) / kHourS));
}

Result<std::vector<CloudWatchBatch>> CloudWatchBatches(const std::vector<CloudWatchGpu>& fleet,
                                                       const std::string& metric_namespace,
                                                       double start_s, double end_s) {
  const size_t hours = CloudWatchHours(start_s, end_s);
  if (hours == 0 || hours * kCloudWatchQueriesPerGpu > kCloudWatchMaxValuesPerCall) {
    return Status::InvalidArgument(
               "since: expected a range of 1 hour to " +
               std::to_string(kCloudWatchMaxValuesPerCall / kCloudWatchQueriesPerGpu / 24) +
               " days for CloudWatch")
        .WithField("since");
  }
  const size_t max_gpus =
      std::min(kCloudWatchMaxQueriesPerCall, kCloudWatchMaxValuesPerCall / hours) /
      kCloudWatchQueriesPerGpu;
  std::vector<CloudWatchBatch> out;
  size_t i = 0;
  while (i < fleet.size()) {
    // Whole hosts while they fit; a host too large for one call alone is split.
    size_t count = 0, bytes = 2;
    while (i + count < fleet.size()) {
      size_t end = i + count;
      while (end < fleet.size() && fleet[end].host == fleet[i + count].host) ++end;
      size_t host_bytes = 0;
      for (size_t j = i + count; j < end; ++j) {
        host_bytes += QueryBytes(fleet[j], j - i, metric_namespace);
      }
      const size_t host_gpus = end - (i + count);
      if (count + host_gpus <= max_gpus && bytes + host_bytes <= kCloudWatchMaxQueryBytes) {
        count += host_gpus;
        bytes += host_bytes;
        continue;
      }
      if (count > 0) break;
      // A host alone over the call's limits: as many of its GPUs as fit.
      while (i + count < end && count < max_gpus) {
        const size_t b = QueryBytes(fleet[i + count], count, metric_namespace);
        if (bytes + b > kCloudWatchMaxQueryBytes) break;
        bytes += b;
        ++count;
      }
      if (count == 0) {
        return Status::InvalidArgument(
                   "cloudwatch: the series of host \"" + TerminalSafe(fleet[i].host.substr(0, 80)) +
                   "\" has dimensions too long for one request (" +
                   std::to_string(QueryBytes(fleet[i], 0, metric_namespace)) + " bytes of queries)")
            .WithField("cloudwatch");
      }
      break;
    }
    out.push_back({i, count, BatchJson(fleet, i, count, metric_namespace)});
    i += count;
  }
  return out;
}

CloudWatchBatchReader::CloudWatchBatchReader(const std::vector<CloudWatchGpu>& fleet,
                                             const CloudWatchBatch& batch, double start_s,
                                             double end_s)
    : fleet_(fleet),
      batch_{batch.first, batch.count, {}},
      start_s_(start_s),
      hours_(CloudWatchHours(start_s, end_s)),
      grid_(batch.count * hours_ * kCloudWatchQueriesPerGpu,
            std::numeric_limits<double>::quiet_NaN()) {}

Result<std::string> CloudWatchBatchReader::AddPage(std::string_view json,
                                                   const std::string& origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r(origin);
  if (!doc.IsObject()) return Status::ParseError(origin + ": $: expected a GetMetricData answer");
  const JsonPath root("$");
  const Value& results = r.Array(doc, "MetricDataResults", root);
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  for (rapidjson::SizeType i = 0; i < results.Size(); ++i) {
    const JsonPath rp(root, "MetricDataResults", i);
    const Value& res = results[i];
    if (!res.IsObject()) {
      r.Fail(rp, "an object");
      return r.status();
    }
    const std::string id = r.Str(res, "Id", rp);
    const std::string code = r.OptStr(res, "StatusCode", rp).value_or("Complete");
    const Value& ts = r.Array(res, "Timestamps", rp, /*required=*/false);
    const Value& vs = r.Array(res, "Values", rp, /*required=*/false);
    GPUADVISOR_RETURN_IF_ERROR(r.status());
    size_t k = 0, s = 0;
    if (!ParseId(id, batch_.count, &k, &s)) {
      r.Fail(JsonPath(rp, "Id"), "the Id of a query asked for (q<gpu>_<statistic>)");
      return r.status();
    }
    if (code != "Complete" && code != "PartialData") {
      return Status::IOError(origin + ": " + rp.str() +
                             ".StatusCode: " + TerminalSafe(code.substr(0, 40)) + " for " +
                             kCloudWatchStats[s].metric + " of host \"" +
                             TerminalSafe(fleet_[batch_.first + k].host.substr(0, 80)) + "\"");
    }
    if (ts.Size() != vs.Size() || ts.Size() > hours_) {
      r.Fail(rp, "as many Values as Timestamps, at most one per hour asked for");
      return r.status();
    }
    for (rapidjson::SizeType j = 0; j < ts.Size(); ++j) {
      const JsonPath tp(rp, "Timestamps", j);
      // ISO 8601 (AWS CLI v2, the API's JSON) or Unix seconds (AWS CLI v1 over CloudWatch's
      // newer protocols prints its timestamps as numbers).
      std::optional<double> t;
      if (ts[j].IsString()) t = ParseTelemetryTime(ts[j].GetString());
      if (ts[j].IsNumber()) t = ts[j].GetDouble();
      const double h = t ? (*t - start_s_) / kHourS : -1;
      if (!t || h < 0 || h >= static_cast<double>(hours_) || h != std::floor(h)) {
        r.Fail(tp, "an ISO 8601 time (or Unix seconds) on the hour inside the range asked for");
        return r.status();
      }
      if (!vs[j].IsNumber()) {
        r.Fail(JsonPath(rp, "Values", j), "a number");
        return r.status();
      }
      const size_t cell = (k * hours_ + static_cast<size_t>(h)) * kCloudWatchQueriesPerGpu + s;
      grid_[cell] = vs[j].GetDouble();
      ++values_;
    }
  }
  std::string next = NextToken(doc, r);
  GPUADVISOR_RETURN_IF_ERROR(r.status());
  return next;
}

Result<uint64_t> CloudWatchBatchReader::Emit(const SampleSink& sink) const {
  uint64_t n = 0;
  const auto value = [](double v) { return std::isnan(v) ? std::nullopt : std::optional(v); };
  for (size_t h = 0; h < hours_; ++h) {
    for (size_t k = 0; k < batch_.count; ++k) {
      const double* c = &grid_[(k * hours_ + h) * kCloudWatchQueriesPerGpu];
      if (std::isnan(c[0])) continue;
      const CloudWatchGpu& g = fleet_[batch_.first + k];
      TelemetrySample s;
      s.host = g.host;
      s.gpu_index = g.index;
      s.uuid = g.uuid;
      s.gpu_name = g.name;
      s.time_s = start_s_ + static_cast<double>(h) * kHourS;
      s.util_pct = c[0];
      s.util_max_pct = value(c[1]);
      // SampleCount: the readings the hour summarises (at least 1, and a uint32).
      if (!std::isnan(c[2]) && c[2] >= 1) {
        s.readings = static_cast<uint32_t>(std::min(c[2], 4294967295.0));
      }
      s.mem_used_mib = value(c[3]);
      s.mem_used_max_mib = value(c[4]);
      s.mem_total_mib = value(c[5]);
      s.power_w = value(c[6]);
      GPUADVISOR_RETURN_IF_ERROR(sink(s));
      ++n;
    }
  }
  return n;
}

}  // namespace gpuadvisor
