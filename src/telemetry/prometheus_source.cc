// Window summaries of DCGM metrics from a Prometheus HTTP API (see prometheus_source.h).
#include "gpuadvisor/prometheus_source.h"

#include <httplib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "gpuadvisor/text.h"

namespace gpuadvisor {
namespace {

using json = nlohmann::json;

constexpr size_t kAggregates = 7;             // series per GPU in a window query
constexpr int64_t kMaxStepsPerQuery = 10000;  // Prometheus refuses over 11,000 per series
constexpr const char* kUtilMetric = "DCGM_FI_DEV_GPU_UTIL";

// The host of a series, by the text reader's conventions; `label` says which label named it.
struct HostLabel {
  std::string host, label, value;
};

std::string LabelOf(const json& labels, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = labels.find(k);
    if (it != labels.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) {
      return it->get<std::string>();
    }
  }
  return {};
}

HostLabel HostOf(const json& labels) {
  for (const char* k : {"Hostname", "hostname", "host"}) {
    const std::string v = LabelOf(labels, {k});
    if (!v.empty()) return {v, k, v};
  }
  const std::string inst = LabelOf(labels, {"instance"});
  if (inst.empty()) return {"unknown", "", ""};
  const size_t colon = inst.rfind(':');
  return {colon == std::string::npos ? inst : inst.substr(0, colon), "instance", inst};
}

// The GPU of a series within its host: UUID, else the index (as the text reader keys it).
std::string GpuKeyOf(const json& labels) {
  std::string uuid = LabelOf(labels, {"UUID", "uuid"});
  return uuid.empty() ? "#" + LabelOf(labels, {"gpu", "index", "minor_number"}) : uuid;
}

std::string FormEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

// A PromQL regex matching exactly `v` (RE2 syntax; the string is then a PromQL "..." literal).
std::string RegexQuote(std::string_view v) {
  std::string out;
  for (const char c : v) {
    if (std::string_view("\\.+*?()|[]{}^$").find(c) != std::string_view::npos) out += "\\\\";
    if (c == '"') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string Seconds(int64_t ms) {
  return std::to_string(ms / 1000) + "." + std::to_string(1000 + ms % 1000).substr(1);
}

// Splits http(s)://host[:port][/prefix] into the origin and the path prefix.
Status SplitUrl(const std::string& url, std::string* origin, std::string* prefix) {
  const size_t scheme = url.find("://");
  const std::string s = scheme == std::string::npos ? "" : url.substr(0, scheme);
  if ((s != "http" && s != "https") || url.size() <= scheme + 3) {
    return Status::InvalidArgument("--prometheus: expected http(s)://host[:port][/path], got \"" +
                                   url + "\"")
        .WithField("prometheus");
  }
  const size_t slash = url.find('/', scheme + 3);
  *origin = url.substr(0, slash);
  *prefix = slash == std::string::npos ? "" : url.substr(slash);
  while (!prefix->empty() && prefix->back() == '/') prefix->pop_back();
  return Status::OK();
}

// `{a="b", c=~"d"}` or `a="b"` -> `a="b", c=~"d"`; refuses anything with a metric name.
Result<std::string> MatchersOf(std::string_view selector) {
  std::string_view s = Trim(selector);
  if (!s.empty() && s.front() == '{') {
    if (s.back() != '}')
      return Status::InvalidArgument("--selector: expected {label=\"value\",...}")
          .WithField("selector");
    s = Trim(s.substr(1, s.size() - 2));
  }
  if (s.find_first_of("{}") != std::string_view::npos ||
      (!s.empty() && s.find_first_of("=~") == std::string_view::npos)) {
    return Status::InvalidArgument(
               R"(--selector: expected label matchers {label="value",...}, got ")" +
               std::string(selector) + "\"")
        .WithField("selector");
  }
  return std::string(s);
}

std::string Join(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + ", " + b;
}

struct Window {
  std::optional<double> util_avg, util_max, count, used_avg, used_max, free_avg, power_avg;
};

std::optional<double>* SlotOf(Window& w, const std::string& agg) {
  if (agg == "util_avg") return &w.util_avg;
  if (agg == "util_max") return &w.util_max;
  if (agg == "count") return &w.count;
  if (agg == "used_avg") return &w.used_avg;
  if (agg == "used_max") return &w.used_max;
  if (agg == "free_avg") return &w.free_avg;
  if (agg == "power_avg") return &w.power_avg;
  return nullptr;
}

struct GpuWindows {
  std::string host, uuid, name;
  int index = -1;
  std::map<int64_t, Window> windows;  // by window start, ms
};

class Client {
 public:
  Client(const PrometheusOptions& o, const std::string& origin, std::string prefix,
         PrometheusSourceInfo* info)
      : o_(o), http_(origin), prefix_(std::move(prefix)), info_(info) {
    const auto whole = static_cast<time_t>(o.timeout_s);
    const auto usec = static_cast<time_t>((o.timeout_s - static_cast<double>(whole)) * 1e6);
    http_.set_connection_timeout(whole, usec);
    http_.set_read_timeout(whole, usec);
    http_.set_write_timeout(whole, usec);
    http_.set_keep_alive(true);
    if (!o.bearer_token.empty()) http_.set_bearer_token_auth(o.bearer_token);
    if (!o.basic_user.empty()) http_.set_basic_auth(o.basic_user, o.basic_password);
  }

  // POSTs a form to prefix + api; returns the response's "data".
  Result<json> Call(const std::string& api,
                    const std::vector<std::pair<std::string, std::string>>& form) {
    httplib::Request req;
    req.method = "POST";
    req.path = prefix_ + api;
    for (const std::string& h : o_.headers) {
      const size_t colon = h.find(':');
      req.headers.emplace(std::string(Trim(h.substr(0, colon))),
                          std::string(Trim(h.substr(colon + 1))));
    }
    req.headers.emplace("Content-Type", "application/x-www-form-urlencoded");
    for (const auto& [k, v] : form) {
      req.body += (req.body.empty() ? "" : "&") + FormEncode(k) + "=" + FormEncode(v);
    }
    std::string body;
    bool over = false;
    req.content_receiver = [&](const char* d, size_t n, uint64_t, uint64_t) {
      if (body.size() + n > o_.max_response_bytes) {
        over = true;
        return false;
      }
      body.append(d, n);
      return true;
    };
    ++info_->requests;
    httplib::Result res = http_.send(req);
    info_->response_bytes += body.size();
    const std::string where = o_.url + api;
    if (over) {
      return Status::IOError(where + ": response over " + std::to_string(o_.max_response_bytes) +
                             " bytes; query fewer GPUs at once (--prometheus-max-points)")
          .WithField("prometheus");
    }
    if (!res) {
      return Status::IOError(where + ": " + httplib::to_string(res.error()))
          .WithField("prometheus");
    }
    return Parse(where, res->status, body);
  }

 private:
  static Result<json> Parse(const std::string& where, int status, const std::string& body) {
    json doc = json::parse(body, nullptr, false);
    const bool api = !doc.is_discarded() && doc.is_object() && doc.contains("status");
    if (api && doc["status"] == "success" && doc.contains("data")) return std::move(doc["data"]);
    std::string msg = api && doc.contains("error") && doc["error"].is_string()
                          ? doc["error"].get<std::string>()
                          : body.substr(0, 200);
    if (status == 400 || status == 422) {
      return Status::InvalidArgument(where + ": the server refused the query (" +
                                     std::to_string(status) + "): " + msg)
          .WithField("prometheus");
    }
    if (status != 200) {
      return Status::IOError(where + ": HTTP " + std::to_string(status) + ": " + msg)
          .WithField("prometheus");
    }
    return Status::ParseError(where + ": expected the Prometheus API's JSON, got \"" +
                              body.substr(0, 80) + "\"")
        .WithField("prometheus");
  }

  const PrometheusOptions& o_;
  httplib::Client http_;
  std::string prefix_;
  PrometheusSourceInfo* info_;
};

struct HostGroup {
  std::string label;             // the label the batch matcher uses ("" = no host label)
  std::set<std::string> values;  // its values for this host
  size_t series = 0;
};

// Reads one query_range matrix into per-GPU windows.
// `back_ms`: from an evaluation time back to its window's start.
Status ReadMatrix(const std::string& where, const json& data, int64_t back_ms,
                  std::map<std::string, GpuWindows>* gpus, uint64_t* points) {
  if (!data.is_object() || !data.contains("result") || !data["result"].is_array()) {
    return Status::ParseError(where + ": expected data.result to be a matrix")
        .WithField("prometheus");
  }
  for (const json& series : data["result"]) {
    if (!series.is_object() || !series.contains("metric") || !series.contains("values") ||
        !series["values"].is_array() || !series["metric"].is_object()) {
      return Status::ParseError(where + ": expected {metric, values} series")
          .WithField("prometheus");
    }
    const json& labels = series["metric"];
    const std::string host = HostOf(labels).host;
    const std::string key = host + "|" + GpuKeyOf(labels);
    GpuWindows& g = (*gpus)[key];
    if (g.host.empty()) {
      g.host = host;
      g.uuid = LabelOf(labels, {"UUID", "uuid"});
      g.name = LabelOf(labels, {"modelName", "name"});
      const std::string idx = LabelOf(labels, {"gpu", "index", "minor_number"});
      if (std::from_chars(idx.data(), idx.data() + idx.size(), g.index).ec != std::errc()) {
        g.index = -1;
      }
    }
    for (const json& p : series["values"]) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_string()) {
        return Status::ParseError(where + ": expected [time, \"value\"] points")
            .WithField("prometheus");
      }
      const int64_t t_ms = std::llround(p[0].get<double>() * 1000) - back_ms;
      const auto& text = p[1].get_ref<const std::string&>();
      double v = 0;
      if (std::from_chars(text.data(), text.data() + text.size(), v).ec != std::errc() ||
          !std::isfinite(v)) {
        continue;  // NaN / Inf: no reading
      }
      if (std::optional<double>* slot =
              SlotOf(g.windows[t_ms], LabelOf(labels, {"gpuadvisor_agg"}))) {
        *slot = v;
      }
      ++*points;
    }
  }
  return Status::OK();
}

// Passes the windows in time order (then host, then GPU) and forgets them.
Status Emit(std::map<std::string, GpuWindows>* gpus, const SampleSink& sink, uint64_t* n) {
  std::vector<std::pair<int64_t, std::pair<GpuWindows*, const Window*>>> order;
  for (auto& [key, g] : *gpus) {
    for (const auto& [t, w] : g.windows) order.push_back({t, {&g, &w}});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second.first->host != b.second.first->host) {
      return a.second.first->host < b.second.first->host;
    }
    return a.second.first->index < b.second.first->index;
  });
  for (const auto& [t, gw] : order) {
    const GpuWindows& g = *gw.first;
    const Window& w = *gw.second;
    TelemetrySample s;
    s.host = g.host;
    s.uuid = g.uuid;
    s.gpu_name = g.name;
    s.gpu_index = g.index;
    s.time_s = static_cast<double>(t) / 1000.0;
    s.util_pct = w.util_avg;
    s.util_max_pct = w.util_max;
    s.readings = static_cast<uint32_t>(std::clamp(w.count.value_or(1), 1.0, 4e9));
    s.mem_used_mib = w.used_avg;
    s.mem_used_max_mib = w.used_max;
    if (w.used_avg && w.free_avg) s.mem_total_mib = *w.used_avg + *w.free_avg;
    s.power_w = w.power_avg;
    GPUADVISOR_RETURN_IF_ERROR(sink(s));
    ++*n;
  }
  gpus->clear();
  return Status::OK();
}

// Matches the batch's hosts and nothing named by a label HostOf() prefers to theirs, so that
// no series is read twice.
std::string HostMatcher(const HostGroup& first, const std::vector<const HostGroup*>& batch) {
  std::string m;
  for (const char* k : {"Hostname", "hostname", "host", "instance"}) {
    if (first.label == k) break;
    m += std::string(m.empty() ? "" : ", ") + k + "=\"\"";
  }
  if (first.label.empty()) return m;
  std::string alt;
  for (const HostGroup* h : batch) {
    for (const std::string& v : h->values) alt += (alt.empty() ? "" : "|") + RegexQuote(v);
  }
  return Join(m, first.label + "=~\"" + alt + "\"");
}

// The checks ReadPrometheus makes before any request (the URL and selector are checked apart).
Status ValidatePrometheusOptions(const PrometheusOptions& o) {
  if (!(o.step_s >= 1))
    return Status::InvalidArgument("--step: expected at least 1s").WithField("step");
  if (!(o.since_s >= o.step_s))
    return Status::InvalidArgument("--since: expected at least --step").WithField("since");
  if (o.max_points_per_query < kAggregates) {
    return Status::InvalidArgument("--prometheus-max-points: expected at least 7")
        .WithField("prometheus-max-points");
  }
  for (const std::string& h : o.headers) {
    if (h.find(':') == std::string::npos || h.find_first_of("\r\n") != std::string::npos) {
      return Status::InvalidArgument(R"(--prometheus-header: expected "Name: value", got ")" + h +
                                     "\"")
          .WithField("prometheus-header");
    }
  }
  return Status::OK();
}

// Window starts on the step grid, in ms: the first window holds the range's beginning, the
// last its end. Window [t, t + step) is evaluated at its last millisecond
// (PrometheusWindowQuery's range).
struct WindowGrid {
  int64_t step_ms = 0, first = 0, last = 0;
};

WindowGrid GridOf(const PrometheusOptions& o) {
  WindowGrid g;
  g.step_ms = static_cast<int64_t>(std::llround(o.step_s * 1000));
  const double end = o.end_s.value_or(static_cast<double>(std::time(nullptr)));
  const auto end_ms = static_cast<int64_t>(std::llround(end * 1000));
  const auto begin_ms = end_ms - static_cast<int64_t>(std::llround(o.since_s * 1000));
  g.first = begin_ms / g.step_ms * g.step_ms;
  g.last = end_ms / g.step_ms * g.step_ms;
  return g;
}

// The GPU series in the range, grouped by host; sets info->hosts and info->gpus. NoResult when
// none match.
Result<std::map<std::string, HostGroup>> ListHosts(Client& client, const std::string& url,
                                                   const std::string& matchers,
                                                   const WindowGrid& grid,
                                                   PrometheusSourceInfo* info) {
  Result<json> listed =
      client.Call("/api/v1/series", {{"match[]", std::string(kUtilMetric) + "{" + matchers + "}"},
                                     {"start", Seconds(grid.first)},
                                     {"end", Seconds(grid.last + grid.step_ms)}});
  if (!listed.ok()) return listed.status();
  if (!listed->is_array()) {
    return Status::ParseError(url + "/api/v1/series: expected a list").WithField("prometheus");
  }
  std::map<std::string, HostGroup> hosts;
  std::set<std::string> gpu_keys;
  for (const json& labels : *listed) {
    if (!labels.is_object()) {
      return Status::ParseError(url + "/api/v1/series: expected labels").WithField("prometheus");
    }
    const HostLabel h = HostOf(labels);
    HostGroup& g = hosts[h.host];
    g.label = h.label;
    if (!h.value.empty()) g.values.insert(h.value);
    ++g.series;
    gpu_keys.insert(h.host + "|" + GpuKeyOf(labels));
  }
  if (hosts.empty()) {
    return Status::NoResult(url + ": no " + kUtilMetric + " series match {" + matchers +
                            "} between " + FormatUtc(info->start_s) + " and " +
                            FormatUtc(info->end_s));
  }
  info->hosts = hosts.size();
  info->gpus = gpu_keys.size();
  return hosts;
}

// How the range is cut: windows per request, and series per host batch.
struct Chunking {
  int64_t chunk_steps = 1;
  size_t budget_series = 0;
};

// The chunk length lets the largest host fit one request of at most `max_points` values.
Chunking ChunkingOf(const std::map<std::string, HostGroup>& hosts, const WindowGrid& grid,
                    size_t max_points) {
  size_t widest = 0;
  for (const auto& [name, h] : hosts) widest = std::max(widest, h.series);
  const int64_t steps = (grid.last - grid.first) / grid.step_ms + 1;
  const auto fit = static_cast<int64_t>(max_points / (kAggregates * widest));
  Chunking c;
  c.chunk_steps = std::clamp<int64_t>(fit, 1, std::min(steps, kMaxStepsPerQuery));
  c.budget_series =
      std::max<size_t>(widest, max_points / (kAggregates * static_cast<size_t>(c.chunk_steps)));
  return c;
}

}  // namespace

std::string PrometheusWindowQuery(const std::string& matchers, double step_s) {
  const auto window_ms = static_cast<int64_t>(std::llround(step_s * 1000)) - 1;
  const std::string range = "[" + std::to_string(window_ms) + "ms]";
  const struct {
    const char* agg;
    const char* fn;
    const char* metric;
  } kParts[kAggregates] = {
      {"util_avg", "avg_over_time", kUtilMetric},
      {"util_max", "max_over_time", kUtilMetric},
      {"count", "count_over_time", kUtilMetric},
      {"used_avg", "avg_over_time", "DCGM_FI_DEV_FB_USED"},
      {"used_max", "max_over_time", "DCGM_FI_DEV_FB_USED"},
      {"free_avg", "avg_over_time", "DCGM_FI_DEV_FB_FREE"},
      {"power_avg", "avg_over_time", "DCGM_FI_DEV_POWER_USAGE"},
  };
  std::string q;
  for (const auto& p : kParts) {
    if (!q.empty()) q += " or ";
    q.append("label_replace(").append(p.fn).append("(").append(p.metric).append("{");
    q.append(matchers).append("}").append(range).append(R"(), "gpuadvisor_agg", ")");
    q.append(p.agg).append(R"(", "", ""))");
  }
  return q;
}

namespace {

// What a batch query needs besides the batch.
struct BatchQuery {
  const PrometheusOptions& o;
  const std::string& matchers;
  WindowGrid grid;
  int64_t chunk_steps;
};

// Queries one host batch chunk by chunk, passing its windows to `sink`.
Status QueryBatch(Client& client, const BatchQuery& b, const std::vector<const HostGroup*>& batch,
                  const SampleSink& sink, PrometheusSourceInfo* info) {
  const std::string q =
      PrometheusWindowQuery(Join(b.matchers, HostMatcher(*batch.front(), batch)), b.o.step_s);
  const int64_t step_ms = b.grid.step_ms;
  std::map<std::string, GpuWindows> windows;
  for (int64_t c = b.grid.first; c <= b.grid.last; c += b.chunk_steps * step_ms) {
    const int64_t c_end = std::min(b.grid.last, c + (b.chunk_steps - 1) * step_ms);
    Result<json> data = client.Call("/api/v1/query_range", {{"query", q},
                                                            {"start", Seconds(c + step_ms - 1)},
                                                            {"end", Seconds(c_end + step_ms - 1)},
                                                            {"step", Seconds(step_ms)}});
    if (!data.ok()) return data.status();
    GPUADVISOR_RETURN_IF_ERROR(
        ReadMatrix(b.o.url + "/api/v1/query_range", *data, step_ms - 1, &windows, &info->points));
    GPUADVISOR_RETURN_IF_ERROR(Emit(&windows, sink, &info->samples));
  }
  return Status::OK();
}

}  // namespace

Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& o, const SampleSink& sink) {
  std::string origin, prefix;
  GPUADVISOR_RETURN_IF_ERROR(SplitUrl(o.url, &origin, &prefix));
  Result<std::string> matchers = MatchersOf(o.selector);
  if (!matchers.ok()) return matchers.status();
  GPUADVISOR_RETURN_IF_ERROR(ValidatePrometheusOptions(o));
  PrometheusSourceInfo info;
  info.url = o.url;
  info.selector = *matchers;
  info.step_s = o.step_s;
  const WindowGrid grid = GridOf(o);
  info.start_s = static_cast<double>(grid.first) / 1000;
  info.end_s = static_cast<double>(grid.last) / 1000;
  Client client(o, origin, prefix, &info);

  // 1. The GPU series, grouped by host. 2. Chunk length: the largest host fits one request.
  Result<std::map<std::string, HostGroup>> hosts = ListHosts(client, o.url, *matchers, grid, &info);
  if (!hosts.ok()) return hosts.status();
  const Chunking chunking = ChunkingOf(*hosts, grid, o.max_points_per_query);

  // 3. Host batches (one host label each), each queried chunk by chunk.
  const BatchQuery query{o, *matchers, grid, chunking.chunk_steps};
  std::vector<const HostGroup*> batch;
  size_t batch_series = 0;
  for (const auto& [name, h] : *hosts) {
    const bool fits = batch_series + h.series <= chunking.budget_series &&
                      (batch.empty() || batch.front()->label == h.label);
    if (!fits && !batch.empty()) {
      GPUADVISOR_RETURN_IF_ERROR(QueryBatch(client, query, batch, sink, &info));
      batch.clear();
      batch_series = 0;
    }
    batch.push_back(&h);
    batch_series += h.series;
  }
  if (!batch.empty()) GPUADVISOR_RETURN_IF_ERROR(QueryBatch(client, query, batch, sink, &info));
  return info;
}

}  // namespace gpuadvisor
