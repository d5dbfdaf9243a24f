// Window summaries of DCGM metrics from a Prometheus HTTP API (see prometheus_source.h).
#include "gpuadvisor/prometheus_source.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

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

  // What a second client of the same run starts from (push-down's parallel requests).
  const HttpUrl& base() const { return base_; }
  Clock::time_point run_deadline() const { return run_deadline_; }

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

// ---- Push-down (PrometheusOptions::pushdown) ----

namespace {

constexpr int64_t kHourMs = int64_t{3600} * 1000;
// The labels a GPU's push-down series keep (HostOf, GpuKeyOf and the model name read them);
// the others (pod, container, driver version, ...) would only repeat on every series.
constexpr const char* kGpuLabels =
    "Hostname, hostname, host, instance, UUID, uuid, gpu, index, minor_number, modelName, name";

// "5" or "2.5": a threshold as PromQL reads it.
std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string Ms(int64_t ms) { return std::to_string(ms) + "ms"; }

// Builds the push-down PromQL (PrometheusPushdownQueries); each method is one sub-expression.
class PushdownPromql {
 public:
  PushdownPromql(std::string matchers, const std::string& host_label, int64_t step_ms,
                 int64_t start_ms, int64_t end_ms, double threshold_pct, double window_s)
      : m_(std::move(matchers)),
        by_("by (" + host_label + ")"),
        r_(step_ms),
        k_(RunWindows(step_ms, window_s)),
        thr_(Num(threshold_pct)),
        start_ms_(start_ms),
        end_ms_(end_ms) {}

  // Windows in an idle stretch: ceil(window / step), at least 1.
  static int64_t RunWindows(int64_t step_ms, double window_s) {
    const double k = std::ceil(window_s * 1000 / static_cast<double>(step_ms) - 1e-9);
    return std::max<int64_t>(1, static_cast<int64_t>(k));
  }
  // The window [s, s + step) of `fn` over `metric`, evaluated at s (a negative offset: the
  // subquery steps are the windows' starts).
  std::string Window(const char* fn, const char* metric) const {
    return std::string(fn) + "(" + metric + "{" + m_ + "}[" + Ms(r_ - 1) + "] offset -" +
           Ms(r_ - 1) + ")";
  }
  // 1 when the window is idle (its busiest reading at or under the threshold), 0 when busy,
  // nothing when no reading: per GPU, or per host (every GPU idle).
  std::string GpuIdle() const {
    return "(" + Window("max_over_time", kUtilMetric) + " <= bool " + thr_ + ")";
  }
  std::string HostIdle() const {
    return "(max " + by_ + " (" + Window("max_over_time", kUtilMetric) + ") <= bool " + thr_ + ")";
  }
  // 1 at t when the k windows ending with t's are all covered and idle, only for runs inside
  // the range (the file analysis sees nothing outside it). Clipping the run ends rather than
  // the windows finds the same stretches with half the vector matching.
  std::string RunEnds(const std::string& idle) const {
    const std::string sub = "[" + Ms(k_ * r_ - 1) + ":" + Ms(r_) + "]";
    return "((min_over_time(" + idle + sub + ") * (count_over_time(" + idle + sub + ") >= bool " +
           std::to_string(k_) +
           ")) and on() (vector(time()) >= " + Seconds(start_ms_ + (k_ - 1) * r_) +
           ") and on() (vector(time()) < " + Seconds(end_ms_) + "))";
  }
  // 1 at s when window s lies in such a run: a run of k ends at s or within k - 1 windows after.
  std::string InStretch(const std::string& idle) const {
    std::string e = "max_over_time(" + RunEnds(idle) + "[" + Ms(k_ * r_ - 1) + ":" + Ms(r_) + "]";
    if (k_ > 1) e += " offset -" + Ms((k_ - 1) * r_);
    return e + ")";
  }
  // Over the whole range (evaluated at its last millisecond), `fn` of `e`'s windows; `arg`
  // comes first ("0.95, " for a quantile).
  std::string OverRange(const std::string& fn, const std::string& e,
                        const std::string& arg = "") const {
    return fn + "(" + arg + e + "[" + Ms(end_ms_ - start_ms_ - 1) + ":" + Ms(r_) + "])";
  }
  // `fn` of the readings of `metric` over the whole range.
  std::string Raw(const char* fn, const char* metric, const std::string& arg = "") const {
    return std::string(fn) + "(" + arg + metric + "{" + m_ + "}[" + Ms(end_ms_ - start_ms_ - 1) +
           "])";
  }
  // The start of each window where `e` is present.
  static std::string TimeOf(const std::string& e) { return "(" + e + " * 0 + time())"; }
  // Per hour, the windows `e` (1 or 0 per window) marks as a bit mask: bit i for the window
  // i steps into the hour, for windows [first, first + bits) of the hour; only hours with some.
  std::string HourMask(const std::string& e, int64_t first, int64_t bits) const {
    const std::string step_s = Num(static_cast<double>(r_) / 1000);
    const std::string idx = "((time() % 3600) / " + step_s + ")";
    std::string weight = "2 ^ (" + idx + " - " + std::to_string(first) + ")";
    if (bits < kHourMs / r_) {  // this mask's windows only
      weight = "(" + weight + ") * (" + idx + " >= bool " + std::to_string(first) + ") * (" + idx +
               " < bool " + std::to_string(first + bits) + ")";
    }
    return "sum_over_time((" + e + " * " + weight + ")[" + Ms(kHourMs - 1) + ":" + Ms(r_) +
           "]) > 0";
  }
  // Per hour, the windows where `e` is present, summed over every host asked: one series for
  // the whole batch (the hour-of-week profile's covered time).
  std::string HourCount(const std::string& e) const {
    return "sum(count_over_time(" + e + "[" + Ms(kHourMs - 1) + ":" + Ms(r_) + "]))";
  }
  const std::string& by() const { return by_; }

 private:
  std::string m_, by_;
  int64_t r_, k_;
  std::string thr_;
  int64_t start_ms_, end_ms_;
};

std::string Tagged(const std::string& e, const std::string& agg) {
  return "label_replace(" + e + R"(, "gpuadvisor_agg", ")" + agg + R"(", "", ""))";
}

std::string OrJoin(const std::vector<std::string>& parts) {
  std::string q;
  for (const std::string& p : parts) q += (q.empty() ? "" : " or ") + p;
  return q;
}

// An hour's windows split into masks of at most 48 bits (exact in a double), as evenly as
// possible: 12 windows of 5 min in one, 60 of 1 min in two of 30.
int64_t MaskBits(int64_t step_ms) {
  const int64_t windows = kHourMs / step_ms;
  const int64_t masks = (windows + 47) / 48;
  return (windows + masks - 1) / masks;
}

}  // namespace

PushdownQueries PrometheusPushdownQueries(const std::string& matchers,
                                          const std::string& host_label, int64_t step_ms,
                                          int64_t start_ms, int64_t end_ms,
                                          double idle_threshold_pct, double idle_window_s) {
  const PushdownPromql p(matchers, host_label, step_ms, start_ms, end_ms, idle_threshold_pct,
                         idle_window_s);
  const std::string gpu_by = std::string("max by (") + kGpuLabels + ") ";
  auto gpu = [&](const std::string& e, const char* agg) {
    return Tagged(gpu_by + "(" + e + ")", agg);
  };
  const std::string gi = p.GpuIdle(), hi = p.HostIdle();
  const std::string host_mean =
      "avg " + p.by() + " (" + p.Window("avg_over_time", kUtilMetric) + ")";
  const std::string host_busy = "sum " + p.by() + " (" + p.Window("max_over_time", kUtilMetric) +
                                " > bool " + Num(idle_threshold_pct) + ")";
  PushdownQueries q;
  q.gpu_totals = OrJoin({
      gpu(p.Raw("count_over_time", kUtilMetric), "count"),
      gpu(p.Raw("avg_over_time", kUtilMetric), "util_avg"),
      gpu(p.Raw("quantile_over_time", kUtilMetric, "0.95, "), "util_p95"),
      gpu(p.Raw("avg_over_time", "DCGM_FI_DEV_FB_USED"), "used_avg"),
      gpu(p.Raw("max_over_time", "DCGM_FI_DEV_FB_USED"), "used_max"),
      gpu(p.Raw("avg_over_time", "DCGM_FI_DEV_FB_FREE"), "free_avg"),
      gpu(p.Raw("avg_over_time", "DCGM_FI_DEV_POWER_USAGE"), "power_avg"),
      gpu(p.OverRange("count_over_time", gi), "windows"),
      gpu(p.OverRange("sum_over_time", p.InStretch(gi)), "stretch"),
  });
  // Apart from the GPUs': one `or` over series of both shapes took Prometheus 2.42 half as long
  // again as the two apart (1,000 GPUs x 7 days).
  q.host_totals = OrJoin({
      Tagged(p.OverRange("count_over_time", hi), "h_windows"),
      Tagged(p.OverRange("min_over_time", PushdownPromql::TimeOf(hi)), "h_first"),
      Tagged(p.OverRange("max_over_time", PushdownPromql::TimeOf(hi)), "h_last"),
      Tagged(p.OverRange("avg_over_time", host_mean), "h_avg"),
      Tagged(p.OverRange("quantile_over_time", host_mean, "0.95, "), "h_p95"),
      Tagged(p.OverRange("quantile_over_time", host_busy, "0.99, "), "h_busy"),
  });
  const int64_t windows = kHourMs / step_ms, bits = MaskBits(step_ms);
  std::vector<std::string> masks;
  for (int64_t first = 0; first < windows; first += bits) {
    masks.push_back(Tagged(p.HourMask(p.InStretch(hi), first, std::min(bits, windows - first)),
                           "h_mask" + std::to_string(first / bits)));
  }
  masks.push_back(Tagged(p.HourCount(hi), "h_cov"));
  q.hourly = OrJoin(masks);
  return q;
}

namespace {

// One push-down batch's answers, by GPU key and host: aggregate name -> value.
struct PushdownValues {
  struct Gpu {
    std::string host, uuid, name;
    int index = -1;
    std::map<std::string, double> v;
  };
  std::map<std::string, Gpu> gpus;
  std::map<std::string, std::map<std::string, double>> hosts;
  // Per host and hour start (ms): the hour's masks of windows in idle stretches, by number.
  using Hour = std::map<int, double>;
  std::map<std::string, std::map<int64_t, Hour>> hours;
  std::map<int64_t, double> coverage;  // hour start (ms) -> covered windows of the batch's hosts
};

// The range of a push-down run: whole UTC hours from the one holding the range's beginning to
// the one holding its end (as the window grid holds the window starting at the end).
struct HourGrid {
  int64_t step_ms = 0, start = 0, end = 0;  // [start, end), ms
  int64_t Windows() const { return (end - start) / step_ms; }
  int64_t Hours() const { return (end - start) / kHourMs; }
};

HourGrid HourGridOf(const PrometheusOptions& o) {
  HourGrid g;
  g.step_ms = static_cast<int64_t>(std::llround(o.step_s * 1000));
  const double end = o.end_s.value_or(static_cast<double>(std::time(nullptr)));
  const auto end_ms = static_cast<int64_t>(std::llround(end * 1000));
  const auto begin_ms = end_ms - static_cast<int64_t>(std::llround(o.since_s * 1000));
  g.start = begin_ms / kHourMs * kHourMs;
  g.end = (end_ms / kHourMs + 1) * kHourMs;  // the hour holding the end too
  return g;
}

// Adds one answer's series to `out`: `hourly` says which query it answered.
Status AddPushdownSeries(const PromLabels& labels, const PromPoints& points, bool hourly,
                         const HourGrid& g, uint64_t* values, uint64_t max_values,
                         const std::string& where, PushdownValues* out, uint64_t* n_points) {
  *values += std::max<uint64_t>(1, points.size());
  if (*values > max_values) {
    return Status::ParseError(where + ": more than " + std::to_string(max_values) +
                              " values in one answer, over twice what was asked for")
        .WithField("prometheus");
  }
  const std::string agg = LabelOf(labels, {"gpuadvisor_agg"});
  const std::string host = HostOf(labels).host;
  for (const auto& [t, v] : points) {
    if (!std::isfinite(v) || !(std::fabs(t) < 1e15)) continue;
    const int64_t at = std::llround(t * 1000) + 1;  // evaluated at a window's last ms
    if (hourly) {
      if (at <= g.start || at > g.end || (at - g.start) % kHourMs != 0) continue;
      if (agg == "h_cov") {
        if (v >= 0) out->coverage[at - kHourMs] += v;
        ++*n_points;
        continue;
      }
      if (!agg.starts_with("h_mask")) continue;
      int mask = -1;
      std::from_chars(agg.data() + 6, agg.data() + agg.size(), mask);
      if (mask < 0 || mask >= 3600) continue;
      out->hours[host][at - kHourMs][mask] = v;
    } else if (at != g.end) {
      continue;  // not the point asked for
    } else if (agg.starts_with("h_")) {
      out->hosts[host][agg] = v;
    } else {
      PushdownValues::Gpu& gpu = out->gpus[host + "|" + GpuKeyOf(labels)];
      if (gpu.host.empty()) {
        gpu.host = host;
        gpu.uuid = LabelOf(labels, {"UUID", "uuid"});
        gpu.name = LabelOf(labels, {"modelName", "name"});
        gpu.index = telemetry::IndexLabel(LabelOf(labels, {"gpu", "index", "minor_number"}));
      }
      gpu.v[agg] = v;
    }
    ++*n_points;
  }
  return Status::OK();
}

std::optional<double> Get(const std::map<std::string, double>& v, const char* k) {
  auto it = v.find(k);
  return it == v.end() ? std::nullopt : std::optional<double>(it->second);
}

GpuAggregate GpuAggregateOf(const PushdownValues::Gpu& g, double step_s) {
  GpuAggregate a;
  a.host = g.host;
  a.uuid = g.uuid;
  a.gpu_name = g.name;
  a.gpu_index = g.index;
  a.readings = static_cast<uint64_t>(std::clamp(Get(g.v, "count").value_or(0), 0.0, 1e15));
  a.covered_s = Get(g.v, "windows").value_or(0) * step_s;
  a.idle_s = Get(g.v, "stretch").value_or(0) * step_s;
  a.util_avg_pct = Get(g.v, "util_avg");
  a.util_p95_pct = Get(g.v, "util_p95");
  a.mem_used_avg_mib = Get(g.v, "used_avg");
  a.mem_used_max_mib = Get(g.v, "used_max");
  const std::optional<double> free = Get(g.v, "free_avg");
  // used + free is the total at every reading; the two means' sum only to float precision.
  if (a.mem_used_avg_mib && free)
    a.mem_total_mib = std::round((*a.mem_used_avg_mib + *free) * 1e3) / 1e3;
  a.power_avg_w = Get(g.v, "power_avg");
  return a;
}

// The idle-stretch pieces of a host's hours: runs of set bits of each hour's masks (bit i of
// mask j: the window (j x bits + i) steps into the hour), in time order.
std::vector<std::pair<double, double>> PiecesOf(
    const std::map<int64_t, PushdownValues::Hour>& hours, int64_t step_ms) {
  std::vector<std::pair<double, double>> out;
  const int64_t bits = MaskBits(step_ms);
  const double step_s = static_cast<double>(step_ms) / 1000;
  for (const auto& [hour_ms, masks] : hours) {
    for (const auto& [j, value] : masks) {
      if (!(value >= 1 && value < 0x1p53)) continue;
      const auto m = static_cast<uint64_t>(value);
      for (int64_t i = 0; i < bits; ++i) {
        if (((m >> i) & 1) == 0) continue;
        const double t = static_cast<double>(hour_ms + (j * bits + i) * step_ms) / 1000;
        if (!out.empty() && std::fabs(out.back().second - t) < 1e-3) {
          out.back().second = t + step_s;
        } else {
          out.emplace_back(t, t + step_s);
        }
      }
    }
  }
  return out;
}

HostAggregate HostAggregateOf(const std::string& host, const std::map<std::string, double>& v,
                              const std::map<int64_t, PushdownValues::Hour>* hours,
                              const PrometheusOptions& o) {
  HostAggregate h;
  h.host = host;
  h.covered_s = Get(v, "h_windows").value_or(0) * o.step_s;
  h.first_s = Get(v, "h_first").value_or(0);
  h.last_s = Get(v, "h_last").value_or(h.first_s);
  h.util_avg_pct = Get(v, "h_avg");
  h.util_p95_pct = Get(v, "h_p95");
  // The 99th percentile of whole GPUs: quantile_over_time interpolates between two counts.
  h.gpus_busy =
      static_cast<int>(std::clamp(std::ceil(Get(v, "h_busy").value_or(0) - 1e-6), 0.0, 1e6));
  if (hours != nullptr) {
    h.idle_pieces = PiecesOf(*hours, static_cast<int64_t>(std::llround(o.step_s * 1000)));
  }
  return h;
}

struct PushdownBatch {
  const PrometheusOptions& o;
  const std::string& matchers;
  HourGrid grid;
};

// One batch's aggregates, kept until they are passed on in batch order.
struct BatchAggregates {
  std::vector<GpuAggregate> gpus;
  std::vector<HostAggregate> hosts;
  std::vector<std::pair<double, double>> coverage;  // (hour start, covered s), Unix s
};

// Queries one host batch (GPU and host totals, then the hours in chunks) into `out`.
Status QueryPushdownBatch(Client& client, const PushdownBatch& b,
                          const std::vector<const HostGroup*>& batch, BatchAggregates* out,
                          PrometheusSourceInfo* info) {
  const HostGroup& first = *batch.front();
  const PushdownQueries q = PrometheusPushdownQueries(
      Join(b.matchers, HostMatcher(first, batch)), first.label, b.grid.step_ms, b.grid.start,
      b.grid.end, b.o.idle_threshold_pct, b.o.idle_window_s);
  uint64_t series = 0;
  for (const HostGroup* h : batch) series += h->series;
  const std::string where = info->url + "/api/v1/query_range";
  PushdownValues vals;
  uint64_t values = 0;
  PromDataSink s;
  s.max_points = 2 * (9 * series + 6 * batch.size());
  s.series = [&](const PromLabels& labels, const PromPoints& points) {
    return AddPushdownSeries(labels, points, false, b.grid, &values, s.max_points, where, &vals,
                             &info->points);
  };
  const std::string at = Seconds(b.grid.end - 1);
  for (const std::string* totals : {&q.gpu_totals, &q.host_totals}) {
    values = 0;
    GPUADVISOR_RETURN_IF_ERROR(client.Call(
        "/api/v1/query_range", {{"query", *totals}, {"start", at}, {"end", at}, {"step", "3600"}},
        PromData::kMatrix, s));
  }
  for (int64_t c = b.grid.start; c < b.grid.end; c += kMaxStepsPerQuery * kHourMs) {
    const int64_t c_end = std::min(b.grid.end, c + kMaxStepsPerQuery * kHourMs);
    values = 0;
    PromDataSink h;
    const auto masks = static_cast<uint64_t>(
        (kHourMs / b.grid.step_ms + MaskBits(b.grid.step_ms) - 1) / MaskBits(b.grid.step_ms));
    h.max_points = 2 * (masks * batch.size() + 1) * static_cast<uint64_t>((c_end - c) / kHourMs);
    h.series = [&](const PromLabels& labels, const PromPoints& points) {
      return AddPushdownSeries(labels, points, true, b.grid, &values, h.max_points, where, &vals,
                               &info->points);
    };
    GPUADVISOR_RETURN_IF_ERROR(client.Call("/api/v1/query_range",
                                           {{"query", q.hourly},
                                            {"start", Seconds(c + kHourMs - 1)},
                                            {"end", Seconds(c_end - 1)},
                                            {"step", "3600"}},
                                           PromData::kMatrix, h));
  }
  const double step_s = static_cast<double>(b.grid.step_ms) / 1000;
  for (const auto& [key, g] : vals.gpus) out->gpus.push_back(GpuAggregateOf(g, step_s));
  for (const auto& [host, v] : vals.hosts) {
    auto it = vals.hours.find(host);
    out->hosts.push_back(
        HostAggregateOf(host, v, it == vals.hours.end() ? nullptr : &it->second, b.o));
  }
  for (const auto& [hour_ms, windows] : vals.coverage) {
    out->coverage.emplace_back(static_cast<double>(hour_ms) / 1000, windows * step_s);
  }
  return Status::OK();
}

// Passes a batch's aggregates on: its GPUs, then its hosts.
Status Emit(const BatchAggregates& a, const AggregateSink& sink, PrometheusSourceInfo* info) {
  for (const GpuAggregate& g : a.gpus) {
    GPUADVISOR_RETURN_IF_ERROR(sink.gpu(g));
    ++info->samples;
  }
  for (const HostAggregate& h : a.hosts) {
    GPUADVISOR_RETURN_IF_ERROR(sink.host(h));
    ++info->samples;
  }
  if (sink.coverage) {
    for (const auto& [hour_s, covered_s] : a.coverage) {
      GPUADVISOR_RETURN_IF_ERROR(sink.coverage(hour_s, covered_s));
    }
  }
  return Status::OK();
}

// Queries the batches `in_flight` at a time, each worker with its own connection, within what
// is left of the run (its deadline, bytes shared out); the caller's `cancelled` is asked on this
// thread, as the options promise. The first error stops the others.
Status QueryBatchesInParallel(Client& client, const PushdownBatch& b,
                              const std::vector<std::vector<const HostGroup*>>& batches,
                              std::vector<BatchAggregates>* outs, PrometheusSourceInfo* info) {
  const size_t workers = std::min(b.o.pushdown_in_flight, batches.size());
  std::atomic<bool> stop{false}, caller_cancelled{false};
  std::atomic<size_t> next{0}, done{0};
  std::mutex mu;
  Status first_error;  // guarded by mu
  PrometheusOptions wo = b.o;
  wo.cancelled = [&stop] { return stop.load(); };
  wo.run_timeout_s = std::chrono::duration<double>(client.run_deadline() - Clock::now()).count();
  const uint64_t left = b.o.max_total_bytes - std::min(b.o.max_total_bytes, info->response_bytes);
  wo.max_total_bytes = left / workers;
  const PushdownBatch wb{wo, b.matchers, b.grid};
  std::vector<PrometheusSourceInfo> infos(workers, PrometheusSourceInfo{});
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w) {
    infos[w].url = info->url;
    threads.emplace_back([&, w] {
      Client c(wo, client.base(), &infos[w]);
      for (size_t i = next++; i < batches.size() && !stop; i = next++) {
        Status st = QueryPushdownBatch(c, wb, batches[i], &(*outs)[i], &infos[w]);
        if (!st.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          if (first_error.ok() && !stop) first_error = std::move(st);
          stop = true;
        }
      }
      ++done;
    });
  }
  while (done < workers) {
    if (b.o.cancelled && !stop && b.o.cancelled()) {
      caller_cancelled = true;
      stop = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (std::thread& t : threads) t.join();
  for (const PrometheusSourceInfo& i : infos) {
    info->requests += i.requests;
    info->response_bytes += i.response_bytes;
    info->points += i.points;
  }
  if (caller_cancelled) {
    return Status::IOError(info->url + ": stopped: the run was cancelled").WithField("prometheus");
  }
  return first_error;
}

// Push-down checks before any request.
Status ValidatePushdown(const PrometheusOptions& o, const AggregateSink& sink) {
  if (!sink.gpu || !sink.host) {
    return Status::InvalidArgument("pushdown: this caller takes samples, not aggregates")
        .WithField("pushdown");
  }
  const auto step_ms = static_cast<int64_t>(std::llround(o.step_s * 1000));
  if (step_ms <= 0 || kHourMs % step_ms != 0) {
    return Status::InvalidArgument(
               "step: with pushdown, expected a step that divides an hour (15s, 1m, 5m, ...), "
               "got " +
               SecondsText(o.step_s) + "s")
        .WithField("step");
  }
  if (!(o.idle_threshold_pct >= 0 && o.idle_threshold_pct <= 100) || !(o.idle_window_s >= 0)) {
    return Status::InvalidArgument("pushdown: expected an idle threshold 0-100 % and a window")
        .WithField("pushdown");
  }
  return Status::OK();
}

// The push-down run after the listing: host batches of at most max_points GPU series x windows.
Status ReadPushdown(Client& client, const PrometheusOptions& o, const std::string& matchers,
                    const std::map<std::string, HostGroup>& hosts, const HourGrid& grid,
                    const AggregateSink& sink, PrometheusSourceInfo* info) {
  size_t widest = 0;
  for (const auto& [name, h] : hosts) widest = std::max(widest, h.series);
  const auto windows = static_cast<size_t>(grid.Windows());
  const size_t budget =
      std::max<size_t>(widest, o.max_points_per_query / std::max<size_t>(1, windows));
  const std::vector<std::vector<const HostGroup*>> batches = BatchesOf(hosts, budget);
  const auto chunks =
      static_cast<uint64_t>((grid.Hours() + kMaxStepsPerQuery - 1) / kMaxStepsPerQuery);
  GPUADVISOR_RETURN_IF_ERROR(CheckRequests(o, info->requests + batches.size() * (2 + chunks)));
  const PushdownBatch b{o, matchers, grid};
  if (o.pushdown_in_flight <= 1 || batches.size() <= 1) {
    for (const std::vector<const HostGroup*>& batch : batches) {
      BatchAggregates out;
      GPUADVISOR_RETURN_IF_ERROR(QueryPushdownBatch(client, b, batch, &out, info));
      GPUADVISOR_RETURN_IF_ERROR(Emit(out, sink, info));
    }
    return Status::OK();
  }
  // Each query keeps one of the server's cores busy; a few at once use several.
  std::vector<BatchAggregates> outs(batches.size());
  GPUADVISOR_RETURN_IF_ERROR(QueryBatchesInParallel(client, b, batches, &outs, info));
  for (const BatchAggregates& out : outs) GPUADVISOR_RETURN_IF_ERROR(Emit(out, sink, info));
  return Status::OK();
}

}  // namespace

Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& o, const SampleSink& sink) {
  return ReadPrometheus(o, sink, AggregateSink{});
}

Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& o, const SampleSink& sink,
                                            const AggregateSink& aggregates) {
  Result<HttpUrl> base = ParseHttpUrl(o.url, "prometheus");
  if (!base.ok()) return base.status();
  Result<std::string> matchers = MatchersOf(o.selector);
  if (!matchers.ok()) return matchers.status();
  GPUADVISOR_RETURN_IF_ERROR(ValidatePrometheusOptions(o));
  if (o.pushdown) GPUADVISOR_RETURN_IF_ERROR(ValidatePushdown(o, aggregates));
  PrometheusSourceInfo info;
  info.url = base->ToString();
  info.selector = *matchers;
  info.step_s = o.step_s;
  info.pushdown = o.pushdown;
  WindowGrid grid = GridOf(o);
  const HourGrid hour_grid = HourGridOf(o);
  if (o.pushdown) {  // whole hours; the listing covers them
    grid.first = hour_grid.start;
    grid.last = hour_grid.end - grid.step_ms;
  }
  info.start_s = static_cast<double>(grid.first) / 1000;
  info.end_s = static_cast<double>(grid.last) / 1000;
  GPUADVISOR_RETURN_IF_ERROR(CheckWindows(o, grid));
  Client client(o, *base, &info);

  // 1. The GPU series, grouped by host. 2. Chunk length: the largest host fits one request.
  Result<std::map<std::string, HostGroup>> hosts = ListHosts(client, o, *matchers, grid, &info);
  if (!hosts.ok()) return hosts.status();
  if (o.pushdown) {
    GPUADVISOR_RETURN_IF_ERROR(
        ReadPushdown(client, o, *matchers, *hosts, hour_grid, aggregates, &info));
    return info;
  }
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
