// Window summaries of DCGM metrics from a Prometheus HTTP API (see prometheus_source.h).
#include "gpuadvisor/prometheus_source.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "telemetry/internal.h"
#include "telemetry/prometheus_json.h"
#include "util/http_client.h"
#include "util/text.h"
#include "util/url.h"

namespace gpuadvisor {
namespace {

constexpr size_t kAggregates = 7;             // series per GPU in a window query
constexpr int64_t kMaxStepsPerQuery = 10000;  // Prometheus refuses over 11,000 per series
constexpr const char* kUtilMetric = "DCGM_FI_DEV_GPU_UTIL";

// The host of a series, by the text reader's conventions; `label` says which label named it.
struct HostLabel {
  std::string host, label, value;
};

std::string LabelOf(const PromLabels& labels, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    for (const auto& [name, value] : labels) {
      if (name == k && !value.empty()) return value;
    }
  }
  return {};
}

HostLabel HostOf(const PromLabels& labels) {
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
std::string GpuKeyOf(const PromLabels& labels) {
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

// `{a="b", c=~"d"}` or `a="b"` -> `a="b", c=~"d"`; refuses anything with a metric name.
Result<std::string> MatchersOf(std::string_view selector) {
  std::string_view s = Trim(selector);
  if (!s.empty() && s.front() == '{') {
    if (s.back() != '}')
      return Status::InvalidArgument("selector: expected {label=\"value\",...}")
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

using Clock = std::chrono::steady_clock;
using Form = std::vector<std::pair<std::string, std::string>>;

// `s` seconds (at most ~30 years, so that a deadline never overflows).
Clock::duration DurationOf(double s) {
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::clamp(s, 0.0, 1e9)));
}

// "120" or "0.5": a limit in seconds as given.
std::string SecondsText(double s) { return FormatFixed(s, std::floor(s) == s ? 0 : 1); }

// One run's HTTP client: every request goes to the base URL's path + a fixed API path, within
// the run's limits (PrometheusOptions: bytes, requests, deadlines, cancellation). One libcurl
// handle for the run, so the requests share a kept-alive connection.
class Client {
 public:
  Client(const PrometheusOptions& o, const HttpUrl& base, PrometheusSourceInfo* info)
      : o_(o),
        base_(base),
        info_(info),
        run_deadline_(Clock::now() + DurationOf(o.run_timeout_s)) {}

  // POSTs `form` to base path + `api` (a fixed read-API path) and reads the answer's data of
  // shape `expected` into `sink`.
  Status Call(const std::string& api, const Form& form, PromData expected,
              const PromDataSink& sink) {
    const std::string where = base_.ToString() + api;
    GPUADVISOR_RETURN_IF_ERROR(CheckRun(where));
    Result<HttpResponse> res = Fetch(where, form);
    if (!res.ok()) return res.status();
    const int status = res->status;
    const std::string& body = res->body;
    const bool ok = status == 200;
    PromAnswer answer;
    Status parsed = ParsePrometheusJson(body, expected, ok ? sink : PromDataSink{}, where, &answer);
    if (!parsed.ok() && parsed.code() != StatusCode::kParseError) return parsed;  // the sink's
    if (!parsed.ok() && ok) return parsed.WithField("prometheus");
    if (ok && parsed.ok() && answer.status == "success" && answer.has_data) return Status::OK();
    const std::string msg = parsed.ok() && answer.status == "error" && !answer.error.empty()
                                ? answer.error
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

 private:
  // The run's limits before a request: cancellation, the request count, the run's deadline.
  Status CheckRun(const std::string& where) const {
    if (o_.cancelled && o_.cancelled()) {
      return Status::IOError(where + ": stopped: the run was cancelled").WithField("prometheus");
    }
    if (info_->requests >= o_.max_requests) {
      return Status::InvalidArgument(where + ": stopped after " + std::to_string(o_.max_requests) +
                                     " requests (the limit per run)")
          .WithField("prometheus");
    }
    if (Clock::now() >= run_deadline_) return RunTimeout(where);
    return Status::OK();
  }

  Status RunTimeout(const std::string& where) const {
    return Status::IOError(where + ": stopped: the run took over " + SecondsText(o_.run_timeout_s) +
                           " s (the limit per run)")
        .WithField("prometheus");
  }

  // The request to `where`: the options' headers and credentials, `form` as its body.
  HttpRequest RequestTo(const std::string& where, const Form& form) const {
    HttpRequest req;
    req.method = "POST";
    req.url = where;  // a normalised base (url.h) + a fixed read-API path: nothing else
    req.what = where;
    req.headers = o_.headers;
    req.headers.emplace_back("Content-Type: application/x-www-form-urlencoded");
    req.bearer_token = o_.bearer_token;
    req.basic_user = o_.basic_user;
    req.basic_password = o_.basic_password;
    for (const auto& [k, v] : form) {
      req.body += (req.body.empty() ? "" : "&") + FormEncode(k) + "=" + FormEncode(v);
    }
    req.decompress = true;  // gzip / deflate, counted against the ceilings once decoded
    req.cancelled = o_.cancelled;
    return req;
  }

  // Sends one request within what is left of the run (time and bytes); the answer as received.
  Result<HttpResponse> Fetch(const std::string& where, const Form& form) {
    HttpRequest req = RequestTo(where, form);
    const Clock::time_point start = Clock::now();
    const bool run_bound = start + DurationOf(o_.timeout_s) >= run_deadline_;
    req.timeout_s =
        run_bound ? std::chrono::duration<double>(run_deadline_ - start).count() : o_.timeout_s;
    const uint64_t run_left =
        o_.max_total_bytes - std::min(o_.max_total_bytes, info_->response_bytes);
    const bool bytes_run_bound = run_left < o_.max_response_bytes;
    req.max_response_bytes =
        bytes_run_bound ? static_cast<size_t>(run_left) : o_.max_response_bytes;
    ++info_->requests;
    HttpFailure failure = HttpFailure::kNone;
    Result<HttpResponse> res = http_.Send(req, &failure);
    if (res.ok()) {
      info_->response_bytes += res->body.size();
      return res;
    }
    switch (failure) {
      case HttpFailure::kTooLarge:
        if (bytes_run_bound) {
          return Status::IOError(where + ": stopped: responses over " +
                                 std::to_string(o_.max_total_bytes) + " bytes (the limit per run)")
              .WithField("prometheus");
        }
        return Status::IOError(where + ": response over " + std::to_string(o_.max_response_bytes) +
                               " bytes; query fewer GPUs at once (--prometheus-max-points)")
            .WithField("prometheus");
      case HttpFailure::kTimeout:
        if (run_bound) return RunTimeout(where);
        return Status::IOError(res.status().message() + " (the limit per request)")
            .WithField("prometheus");
      case HttpFailure::kCancelled:
        return Status::IOError(where + ": stopped: the run was cancelled").WithField("prometheus");
      case HttpFailure::kRedirect:
        return Status::IOError(res.status().message() + "; give the URL it leads to")
            .WithField("prometheus");
      default:
        return res.status().WithField("prometheus");
    }
  }

  const PrometheusOptions& o_;
  const HttpUrl& base_;
  PrometheusSourceInfo* info_;
  const Clock::time_point run_deadline_;
  HttpClient http_;
};

struct HostGroup {
  std::string label;             // the label the batch matcher uses ("" = no host label)
  std::set<std::string> values;  // its values for this host
  size_t series = 0;
};

// The windows one query_range asked for: starts first..last every step_ms, evaluated back_ms
// later; at most max_values values (series without values count one).
struct ChunkAsked {
  int64_t first = 0, last = 0, step_ms = 1, back_ms = 0;
  uint64_t max_values = 0;
  std::string where;  // the URL, for errors
};

// Adds one query_range series to per-GPU windows. Values at times not asked for are dropped and
// an answer with more values than asked for (twice, for series that appeared since the listing)
// is refused, so that a server cannot make the windows outgrow the request.
Status AddSeries(const PromLabels& labels, const PromPoints& points, const ChunkAsked& asked,
                 uint64_t* values, std::map<std::string, GpuWindows>* gpus, uint64_t* n_points) {
  *values += std::max<uint64_t>(1, points.size());
  if (*values > asked.max_values) {
    return Status::ParseError(asked.where + ": more than " + std::to_string(asked.max_values) +
                              " values in one answer, over twice what was asked for")
        .WithField("prometheus");
  }
  const std::string host = HostOf(labels).host;
  const std::string key = host + "|" + GpuKeyOf(labels);
  GpuWindows& g = (*gpus)[key];
  if (g.host.empty()) {
    g.host = host;
    g.uuid = LabelOf(labels, {"UUID", "uuid"});
    g.name = LabelOf(labels, {"modelName", "name"});
    const std::string idx = LabelOf(labels, {"gpu", "index", "minor_number"});
    g.index = telemetry::IndexLabel(idx);
  }
  const std::string agg = LabelOf(labels, {"gpuadvisor_agg"});
  for (const auto& [t, v] : points) {
    if (!std::isfinite(v) || !(std::fabs(t) < 1e15)) continue;  // NaN / Inf: no reading
    const int64_t t_ms = std::llround(t * 1000) - asked.back_ms;
    if (t_ms < asked.first || t_ms > asked.last || (t_ms - asked.first) % asked.step_ms != 0) {
      continue;  // not a window this request asked for
    }
    if (std::optional<double>* slot = SlotOf(g.windows[t_ms], agg)) *slot = v;
    ++*n_points;
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
    return Status::InvalidArgument("step: expected at least 1s").WithField("step");
  if (!(o.since_s >= o.step_s))
    return Status::InvalidArgument("since: expected at least --step").WithField("since");
  if (o.max_points_per_query < kAggregates) {
    return Status::InvalidArgument("prometheus-max-points: expected at least 7")
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
// none match; InvalidArgument past max_series (read no further).
Result<std::map<std::string, HostGroup>> ListHosts(Client& client, const PrometheusOptions& o,
                                                   const std::string& matchers,
                                                   const WindowGrid& grid,
                                                   PrometheusSourceInfo* info) {
  std::map<std::string, HostGroup> hosts;
  std::set<std::string> gpu_keys;
  size_t n_series = 0;
  PromDataSink sink;
  sink.labels = [&](const PromLabels& labels) {
    if (++n_series > o.max_series) {
      return Status::InvalidArgument(info->url + ": more than " + std::to_string(o.max_series) +
                                     " GPU series match; narrow --selector")
          .WithField("selector");
    }
    const HostLabel h = HostOf(labels);
    HostGroup& g = hosts[h.host];
    g.label = h.label;
    if (!h.value.empty()) g.values.insert(h.value);
    ++g.series;
    gpu_keys.insert(h.host + "|" + GpuKeyOf(labels));
    return Status::OK();
  };
  GPUADVISOR_RETURN_IF_ERROR(
      client.Call("/api/v1/series",
                  {{"match[]", std::string(kUtilMetric) + "{" + matchers + "}"},
                   {"start", Seconds(grid.first)},
                   {"end", Seconds(grid.last + grid.step_ms)}},
                  PromData::kSeriesList, sink));
  if (hosts.empty()) {
    return Status::NoResult(info->url + ": no " + kUtilMetric + " series match {" + matchers +
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
  uint64_t batch_series = 0;
  for (const HostGroup* h : batch) batch_series += h->series;
  std::map<std::string, GpuWindows> windows;
  for (int64_t c = b.grid.first; c <= b.grid.last; c += b.chunk_steps * step_ms) {
    const int64_t c_end = std::min(b.grid.last, c + (b.chunk_steps - 1) * step_ms);
    const auto steps = static_cast<uint64_t>((c_end - c) / step_ms + 1);
    const ChunkAsked asked{c,
                           c_end,
                           step_ms,
                           step_ms - 1,
                           2 * kAggregates * batch_series * steps,
                           info->url + "/api/v1/query_range"};
    uint64_t values = 0;
    PromDataSink series;
    series.max_points = asked.max_values;
    series.series = [&](const PromLabels& labels, const PromPoints& points) {
      return AddSeries(labels, points, asked, &values, &windows, &info->points);
    };
    GPUADVISOR_RETURN_IF_ERROR(client.Call("/api/v1/query_range",
                                           {{"query", q},
                                            {"start", Seconds(c + step_ms - 1)},
                                            {"end", Seconds(c_end + step_ms - 1)},
                                            {"step", Seconds(step_ms)}},
                                           PromData::kMatrix, series));
    GPUADVISOR_RETURN_IF_ERROR(Emit(&windows, sink, &info->samples));
  }
  return Status::OK();
}

// Host batches (one host label each, at most budget_series series each), in host order.
std::vector<std::vector<const HostGroup*>> BatchesOf(const std::map<std::string, HostGroup>& hosts,
                                                     size_t budget_series) {
  std::vector<std::vector<const HostGroup*>> batches;
  size_t batch_series = 0;
  for (const auto& [name, h] : hosts) {
    const bool fits = !batches.empty() && batch_series + h.series <= budget_series &&
                      batches.back().front()->label == h.label;
    if (!fits) {
      batches.emplace_back();
      batch_series = 0;
    }
    batches.back().push_back(&h);
    batch_series += h.series;
  }
  return batches;
}

// The run's size before its first request: windows per GPU, then (once the series are listed)
// requests, each against its limit.
Status CheckWindows(const PrometheusOptions& o, const WindowGrid& grid) {
  const int64_t steps = (grid.last - grid.first) / grid.step_ms + 1;
  if (static_cast<uint64_t>(steps) > o.max_windows) {
    return Status::InvalidArgument("since: " + std::to_string(steps) +
                                   " windows of --step per GPU, over the limit of " +
                                   std::to_string(o.max_windows) +
                                   "; shorten --since or widen --step")
        .WithField("since");
  }
  return Status::OK();
}

Status CheckRequests(const PrometheusOptions& o, uint64_t planned) {
  if (planned > o.max_requests) {
    return Status::InvalidArgument("prometheus-max-points: the range needs " +
                                   std::to_string(planned) + " requests, over the limit of " +
                                   std::to_string(o.max_requests) +
                                   " per run; narrow selector, shorten since, widen step or raise "
                                   "prometheus-max-points")
        .WithField("prometheus-max-points");
  }
  return Status::OK();
}

}  // namespace

Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& o, const SampleSink& sink) {
  Result<HttpUrl> base = ParseHttpUrl(o.url, "prometheus");
  if (!base.ok()) return base.status();
  Result<std::string> matchers = MatchersOf(o.selector);
  if (!matchers.ok()) return matchers.status();
  GPUADVISOR_RETURN_IF_ERROR(ValidatePrometheusOptions(o));
  PrometheusSourceInfo info;
  info.url = base->ToString();
  info.selector = *matchers;
  info.step_s = o.step_s;
  const WindowGrid grid = GridOf(o);
  info.start_s = static_cast<double>(grid.first) / 1000;
  info.end_s = static_cast<double>(grid.last) / 1000;
  GPUADVISOR_RETURN_IF_ERROR(CheckWindows(o, grid));
  Client client(o, *base, &info);

  // 1. The GPU series, grouped by host. 2. Chunk length: the largest host fits one request.
  Result<std::map<std::string, HostGroup>> hosts = ListHosts(client, o, *matchers, grid, &info);
  if (!hosts.ok()) return hosts.status();
  const Chunking chunking = ChunkingOf(*hosts, grid, o.max_points_per_query);

  // 3. Host batches (one host label each), each queried chunk by chunk.
  const std::vector<std::vector<const HostGroup*>> batches =
      BatchesOf(*hosts, chunking.budget_series);
  const int64_t steps = (grid.last - grid.first) / grid.step_ms + 1;
  const auto chunks =
      static_cast<uint64_t>((steps + chunking.chunk_steps - 1) / chunking.chunk_steps);
  GPUADVISOR_RETURN_IF_ERROR(CheckRequests(o, info.requests + batches.size() * chunks));
  const BatchQuery query{o, *matchers, grid, chunking.chunk_steps};
  for (const std::vector<const HostGroup*>& batch : batches) {
    GPUADVISOR_RETURN_IF_ERROR(QueryBatch(client, query, batch, sink, &info));
  }
  return info;
}

}  // namespace gpuadvisor
