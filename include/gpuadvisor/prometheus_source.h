// GPU telemetry from a Prometheus-compatible server (Prometheus, Thanos, Mimir, Amazon Managed
// Prometheus) over its HTTP API, aggregated on the server (`gpuadvisor idle --prometheus URL`).
//
// A fleet's month of per-minute DCGM samples is too large to download, so the server summarises
// each GPU per window of `step_s` seconds and only the summaries travel:
//   avg_over_time / max_over_time / count_over_time (DCGM_FI_DEV_GPU_UTIL[w])
//   avg_over_time / max_over_time (DCGM_FI_DEV_FB_USED[w]), avg_over_time (DCGM_FI_DEV_FB_FREE[w]),
//   avg_over_time (DCGM_FI_DEV_POWER_USAGE[w])
// in one query_range per host batch and time chunk (the seven joined with `or`, told apart by a
// `gpuadvisor_agg` label). Each window of each GPU becomes one TelemetrySample (`readings` =
// the count, the value fields the means, util_max_pct / mem_used_max_mib the maxima), timed at the
// window's start (a sample stands for the time until the next), and goes to the same analysis as
// file samples. With `step_s` equal to the scrape interval every window holds one reading and the
// result equals `idle` on the raw samples.
//
// Window [t, t + step) is the range `[step - 1ms]` evaluated at t + step - 1ms: Prometheus 2.x
// ranges are closed at both ends, so a reading exactly on a window boundary is counted once
// (Prometheus 3's left-open ranges would drop a reading that falls exactly on t, to the ms).
//
// Pagination: the GPUs are listed first (/api/v1/series), grouped into hosts (labels Hostname,
// hostname, host, else instance without its port: the conventions of the text reader), and hosts
// are queried in batches of at most `max_points_per_query` returned points per request (series x
// steps x 7), in time chunks of at most 10,000 steps (Prometheus refuses over 11,000 per series).
//
// Requests: only POST <base path>/api/v1/series and POST <base path>/api/v1/query_range, where the
// base is `url` parsed by ParseHttpUrl (util/url.h: no query, no "..", no user info);
// redirects are not followed (a 3xx is an IOError naming the URL).
//
// Bounds (PrometheusOptions; the HTTP API may only lower them, server/api.h IdleCeilings):
// memory is one response's text plus one batch-chunk of summaries: a body over
// `max_response_bytes` is refused while it arrives (or from its Content-Length), and it is read
// with a SAX parser that refuses nesting deeper than 16 and more than twice the values asked for
// (values at times not asked for are dropped). Every request ends within `timeout_s` whatever
// the server does (a whole-operation deadline, not per-read timeouts), the whole run within
// `run_timeout_s`; windows per GPU (since / step) and requests per run are checked before the
// first query_range, response bytes per run while receiving; `cancelled` is asked before every
// request and while receiving.
// Errors: InvalidArgument for bad options or a query the server rejects (HTTP 400/422, with its
// message), IOError when the server cannot be reached or answers otherwise, ParseError for a
// response that is not the Prometheus API's JSON, NoResult when no GPU series match.
#ifndef GPUADVISOR_PROMETHEUS_SOURCE_H_
#define GPUADVISOR_PROMETHEUS_SOURCE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/telemetry.h"

namespace gpuadvisor {

struct PrometheusOptions {
  // http(s)://host[:port][/path-prefix], e.g. http://prometheus:9090,
  // http://mimir:8080/prometheus, https://aps-workspaces.REGION.amazonaws.com/workspaces/ws-ID
  std::string url;
  // Extra label matchers, with or without braces: `{job="dcgm",cluster="a"}`.
  std::string selector;
  double since_s = 7 * 86400;                     // length of the analysed range, ending at end_s
  std::optional<double> end_s;                    // Unix seconds; null = now
  double step_s = 300;                            // window summarised per sample
  size_t max_points_per_query = 500000;           // returned points per request (pagination)
  size_t max_response_bytes = size_t{256} << 20;  // per response body (after decompression)
  double timeout_s = 120;         // whole request: connect, send, headers and body (not per read)
  double run_timeout_s = 3600;    // whole run, every request together
  uint64_t max_requests = 10000;  // HTTP requests per run (checked before the first query_range)
  uint64_t max_total_bytes = uint64_t{16} << 30;  // response bytes per run
  uint64_t max_series = 100000;                   // GPU series listed (IdleOptions::max_series)
  uint64_t max_windows = 1000000;                 // windows per GPU over the range: since / step
  // Push-down: the server computes the idle analysis itself (PrometheusPushdownQueries) and
  // only per-GPU totals and per-host hourly idle-stretch figures travel; `step_s` is then the
  // resolution of its subqueries (the scrape interval reproduces the file analysis), it must
  // divide an hour, and the range is widened to whole UTC hours. max_points_per_query bounds
  // GPU series x windows per request (what the server evaluates), not values returned.
  bool pushdown = false;
  // Push-down requests in flight at once (host batches on their own connections): each keeps
  // one server core busy (Prometheus's --query.max-concurrency is 20).
  size_t pushdown_in_flight = 4;
  // Push-down only: the idle definition (IdleOptions' idle_threshold_pct and idle_window_s),
  // set by the front end from the idle options.
  double idle_threshold_pct = 5;
  double idle_window_s = 30 * 60;
  // Asked before every request and while one is received (on the caller's thread); true stops
  // the run with an IOError. Null: never cancelled. The HTTP API sets it from
  // ApiContext::cancelled (client gone, request deadline, server draining).
  std::function<bool()> cancelled;
  std::string bearer_token;                // Authorization: Bearer ...
  std::string basic_user, basic_password;  // Authorization: Basic ... when user is set
  std::vector<std::string> headers;        // "Name: value", e.g. "X-Scope-OrgID: team-a"
};

// The `idle` options that fill these (fields.h); the end of the range and the credentials come
// from idle's until and secret-file options (IdleArgs, requests.h), the run's caps from code.
template <typename V>
void DeclareOptions(V& v, PrometheusOptions& p) {
  v.Text("prometheus", p.url,
         {.help = "Read DCGM metrics from a Prometheus-compatible server instead of files, "
                  "summarised on the server (http(s)://host:port[/prefix])",
          .metavar = "URL"});
  v.Duration(
      "since", p.since_s,
      {.help = "With --prometheus or --cloudwatch: how far back", .lo = 60, .hi = 3650 * 86400.0});
  v.NotAnOption(p.end_s);
  v.Text("selector", p.selector,
         {.help = R"(With --prometheus: label matchers, e.g. {cluster="a",job="dcgm"})",
          .metavar = "MATCHERS"});
  v.Duration("step", p.step_s,
             {.help = "With --prometheus: window each sample summarises (the scrape interval "
                      "reproduces the file analysis exactly)",
              .lo = 1,
              .hi = 86400});
  v.Integer("prometheus-max-points", p.max_points_per_query,
            {.help = "With --prometheus: values per request, the host batch size",
             .lo = 7,
             .hi = 1e9,
             .aliases = {"max-points"}});
  v.NotAnOption(p.max_response_bytes);
  v.NotAnOption(p.timeout_s);
  v.NotAnOption(p.run_timeout_s);
  v.NotAnOption(p.max_requests);
  v.NotAnOption(p.max_total_bytes);
  v.NotAnOption(p.max_series);
  v.NotAnOption(p.max_windows);
  v.Bool("pushdown", p.pushdown,
         {.help = "With --prometheus: compute idle stretches and hourly idle time on the server "
                  "(PromQL subqueries at --step, the scrape interval) so that only per-GPU totals "
                  "and per-host hourly figures travel"});
  v.NotAnOption(p.pushdown_in_flight);
  v.NotAnOption(p.idle_threshold_pct);
  v.NotAnOption(p.idle_window_s);
  v.NotAnOption(p.cancelled);
  v.NotAnOption(p.bearer_token);
  v.NotAnOption(p.basic_user);
  v.NotAnOption(p.basic_password);
  v.List("prometheus-header", p.headers,
         {.help = "With --prometheus: extra header 'Name: value' (e.g. X-Scope-OrgID)",
          .local = true,
          .aliases = {"headers"},
          .metavar = "HEADER"});
}

// What the source did; reported next to the analysis.
struct PrometheusSourceInfo {
  std::string url, selector;
  double start_s = 0, end_s = 0, step_s = 0;
  uint64_t hosts = 0, gpus = 0;
  uint64_t requests = 0;        // HTTP requests made
  uint64_t response_bytes = 0;  // response bodies received (after decompression)
  uint64_t points = 0;          // values received
  uint64_t samples = 0;         // window samples passed to the sink (push-down: aggregates)
  bool pushdown = false;        // PrometheusOptions::pushdown
};

// Lists the matching GPUs, queries their window summaries host batch by host batch and passes
// every (GPU, window) to `sink` in time order per host. A non-OK Status from the sink stops it.
Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& options,
                                            const SampleSink& sink);
// The same, and in push-down mode (options.pushdown) the GPUs' and hosts' aggregates go to
// `aggregates` instead of samples to `sink` (each GPU, then each host of a batch).
// InvalidArgument naming "pushdown" when push-down is asked and `aggregates` has no sinks,
// naming "step" when the step does not divide an hour.
Result<PrometheusSourceInfo> ReadPrometheus(const PrometheusOptions& options,
                                            const SampleSink& sink,
                                            const AggregateSink& aggregates);

// The PromQL of one batch: the seven summaries over `selector` (matchers without braces) with
// windows of `step_s`. Exposed for tests and docs.
std::string PrometheusWindowQuery(const std::string& matchers, double step_s);

// Push-down PromQL over `matchers` (without braces, the host matcher included), for a range
// [start_ms, end_ms) of whole hours, windows of step_ms (dividing an hour), the idle threshold
// and window (PrometheusOptions), hosts grouped by `host_label` ("" = one host for all):
//  - gpu_totals, host_totals: one query_range point at end - 1 ms each, with series per GPU
//    (gpuadvisor_agg count, util_avg, util_p95, used_avg, used_max, free_avg, power_avg,
//    windows, stretch) and per host (h_windows, h_first, h_last, h_avg, h_p95, h_busy);
//  - hourly: query_range with step 1h evaluated at each hour's last millisecond, per host the
//    hour's windows in idle stretches as bit masks h_mask0, h_mask1, ... of at most 48 windows
//    each (bit i of mask j: the window j x bits + i steps into the hour), only hours with some.
// A window is idle when its busiest reading is at or under the threshold (a host's: every
// GPU's); a window is in an idle stretch when it lies in a run of at least
// ceil(idle_window / step) covered idle windows. Exposed for tests and docs.
struct PushdownQueries {
  std::string gpu_totals, host_totals, hourly;
};
PushdownQueries PrometheusPushdownQueries(const std::string& matchers,
                                          const std::string& host_label, int64_t step_ms,
                                          int64_t start_ms, int64_t end_ms,
                                          double idle_threshold_pct, double idle_window_s);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_PROMETHEUS_SOURCE_H_
