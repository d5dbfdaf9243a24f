// Issue 41, item 2: the idle analysis pushed into PromQL. The push-down queries' text
// (PrometheusPushdownQueries) and the aggregate entry point (IdleAnalyzer::AddAggregate) that
// takes what the server computed; the end-to-end run against a real prometheus is
// tests/cli/idle_prometheus_test.sh.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "testutil/fake_http.h"
#include "testutil/pushed.h"

namespace gpuadvisor {
namespace {

constexpr double kStart = 1782864000;  // 2026-07-01T00:00:00Z
constexpr int64_t kStartMs = 1782864000000;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(Issue41Pushdown, QueriesComputeStretchesOnTheWindowGrid) {
  const PushdownQueries q =
      PrometheusPushdownQueries(R"(job="dcgm", Hostname=~"a|b")", "Hostname", 300000, kStartMs,
                                kStartMs + 7 * 86400000, 5, 1800);
  // Totals: 9 per GPU and 6 per host, each tagged, in two queries; hourly: one bit mask per host of
  // the hour's 12 windows in idle stretches (bit i: the window i x 5 min into the hour), hours with
  // some, and the batch's covered windows per hour (one series for all its hosts).
  EXPECT_EQ(Count(q.gpu_totals, R"("gpuadvisor_agg", ")"), 9u) << q.gpu_totals;
  EXPECT_EQ(Count(q.host_totals, R"("gpuadvisor_agg", ")"), 6u) << q.host_totals;
  const std::string totals = q.gpu_totals + q.host_totals;
  EXPECT_EQ(Count(q.hourly, R"("gpuadvisor_agg", ")"), 2u) << q.hourly;
  EXPECT_NE(q.hourly.find(R"("gpuadvisor_agg", "h_mask0")"), std::string::npos);
  EXPECT_NE(q.hourly.find(R"(label_replace(sum(count_over_time((max by (Hostname) ()"),
            std::string::npos)
      << q.hourly;
  EXPECT_NE(q.hourly.find(R"([3599999ms:300000ms])), "gpuadvisor_agg", "h_cov")"),
            std::string::npos)
      << q.hourly;
  EXPECT_NE(q.hourly.find("* 2 ^ (((time() % 3600) / 300) - 0))[3599999ms:300000ms]) > 0"),
            std::string::npos)
      << q.hourly;
  for (const char* agg :
       {"count", "util_avg", "util_p95", "used_avg", "used_max", "free_avg", "power_avg", "windows",
        "stretch", "h_windows", "h_first", "h_last", "h_avg", "h_p95", "h_busy"}) {
    EXPECT_NE(totals.find(std::string(R"("gpuadvisor_agg", ")") + agg + "\""), std::string::npos)
        << agg;
  }
  // A window [s, s + 5m) is its readings' max, looked up from s with a negative offset.
  EXPECT_NE(
      totals.find(
          R"(max_over_time(DCGM_FI_DEV_GPU_UTIL{job="dcgm", Hostname=~"a|b"}[299999ms] offset -299999ms) <= bool 5)"),
      std::string::npos);
  // A stretch: 6 covered idle windows (30 min / 5 min) ending within 5 windows after s.
  EXPECT_NE(totals.find(">= bool 6"), std::string::npos);
  EXPECT_NE(totals.find("[1799999ms:300000ms] offset -1500000ms"), std::string::npos);
  // The host's windows are its busiest GPU's; only runs inside the range count (their ends 25
  // minutes after its start at the earliest).
  EXPECT_NE(totals.find("max by (Hostname) (max_over_time("), std::string::npos);
  EXPECT_NE(totals.find("vector(time()) >= 1782865500.000"), std::string::npos);
  EXPECT_NE(totals.find("vector(time()) < 1783468800.000"), std::string::npos);
  // Totals span the range; hours are subqueries of an hour at the window.
  EXPECT_NE(totals.find("[604799999ms:300000ms]"), std::string::npos);
  EXPECT_NE(q.hourly.find("[3599999ms:300000ms]"), std::string::npos);
  // GPU series keep only the labels that name the host and the GPU.
  EXPECT_NE(totals.find("max by (Hostname, hostname, host, instance, UUID, uuid, gpu, index, "
                        "minor_number, modelName, name)"),
            std::string::npos);
}

TEST(Issue41Pushdown, WindowOfOneStepNeedsNoLookAhead) {
  const PushdownQueries q =
      PrometheusPushdownQueries("", "instance", 60000, kStartMs, kStartMs + 3600000, 2.5, 60);
  const std::string totals = q.gpu_totals + q.host_totals;
  EXPECT_NE(totals.find(">= bool 1)"), std::string::npos);
  EXPECT_EQ(totals.find("offset -0ms"), std::string::npos);
  EXPECT_NE(totals.find("<= bool 2.5"), std::string::npos);
  EXPECT_NE(q.hourly.find("max by (instance)"), std::string::npos);
  // 60 windows an hour: two masks of 30 bits (a double holds 53 exactly), and the coverage.
  EXPECT_EQ(Count(q.hourly, R"("gpuadvisor_agg", ")"), 3u) << q.hourly;
  EXPECT_NE(
      q.hourly.find("(((time() % 3600) / 60) >= bool 30) * (((time() % 3600) / 60) < bool 60)"),
      std::string::npos)
      << q.hourly;
}

TEST(Issue41Pushdown, RefusesAStepThatDoesNotDivideAnHourAndCallersWithoutAggregates) {
  PrometheusOptions o;
  o.url = "http://127.0.0.1:1";
  o.pushdown = true;
  const SampleSink none = [](const TelemetrySample&) { return Status::OK(); };
  Status st = ReadPrometheus(o, none).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "pushdown") << st.message();
  AggregateSink sink;
  sink.gpu = [](const GpuAggregate&) { return Status::OK(); };
  sink.host = [](const HostAggregate&) { return Status::OK(); };
  o.step_s = 420;  // 7 min
  st = ReadPrometheus(o, none, sink).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "step") << st.message();
}

// Two days of one L4 host at one reading a minute: idle 20:00-08:00 UTC (office hours), with
// a 45-minute idle dip at 12:00 on each day.
bool Idle(int m) {
  const int minute_of_day = m % 1440;
  return minute_of_day < 8 * 60 || minute_of_day >= 20 * 60 ||
         (minute_of_day >= 12 * 60 && minute_of_day < 12 * 60 + 45);
}

IdleReport FromSamples() {
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  for (int m = 0; m < 2 * 1440; ++m) {
    TelemetrySample s;
    s.host = "office";
    s.gpu_index = 0;
    s.gpu_name = "NVIDIA L4";
    s.time_s = kStart + m * 60;
    s.util_pct = Idle(m) ? 1 : 60;
    s.mem_used_mib = Idle(m) ? 500 : 12000;
    s.mem_total_mib = 23034;
    s.power_w = Idle(m) ? 30 : 60;
    EXPECT_TRUE(a.Add(s).ok());
  }
  Result<IdleReport> r = a.Finish({});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

// The same host as a server's push-down aggregates: the stretches cut at every hour, as the
// hourly series give them.
IdleReport FromAggregates(const IdleReport& samples) {
  const HostUsage& u = samples.hosts.at(0);
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  EXPECT_TRUE(a.AddAggregate(testing::PushedGpu(u)).ok());
  const HostAggregate h = testing::PushedHost(u);
  EXPECT_TRUE(a.AddAggregate(h).ok());
  Result<IdleReport> r = a.Finish({});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

TEST(Issue41Pushdown, AggregatesGiveTheReportOfTheSamples) {
  const IdleReport s = FromSamples();
  const IdleReport p = FromAggregates(s);
  ASSERT_EQ(s.hosts.size(), 1u);
  ASSERT_EQ(p.hosts.size(), 1u);
  const HostUsage &a = s.hosts[0], &b = p.hosts[0];
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_DOUBLE_EQ(a.hours_covered, b.hours_covered);
  EXPECT_DOUBLE_EQ(a.idle_hours, b.idle_hours);
  EXPECT_EQ(a.idle_period_count, b.idle_period_count);  // the hour cuts joined again
  EXPECT_DOUBLE_EQ(a.longest_idle_hours, b.longest_idle_hours);
  ASSERT_EQ(a.idle_periods.size(), b.idle_periods.size());
  for (size_t i = 0; i < a.idle_periods.size(); ++i) {
    EXPECT_DOUBLE_EQ(a.idle_periods[i].start_s, b.idle_periods[i].start_s);
    EXPECT_DOUBLE_EQ(a.idle_periods[i].end_s, b.idle_periods[i].end_s);
  }
  ASSERT_TRUE(a.wasted && b.wasted);
  EXPECT_NEAR(a.wasted->amount, b.wasted->amount, 1e-9);
  EXPECT_EQ(a.recommendation.action, b.recommendation.action);
  EXPECT_EQ(a.recommendation.summary, b.recommendation.summary);  // the daily window included
  EXPECT_EQ(a.gpus_busy, b.gpus_busy);
  EXPECT_EQ(a.gpu_usage[0].mem_used_max_mib, b.gpu_usage[0].mem_used_max_mib);
  EXPECT_NEAR(*a.gpu_usage[0].mem_used_avg_mib, *b.gpu_usage[0].mem_used_avg_mib, 1e-9);
  EXPECT_NE(a.recommendation.summary.find("idle 20:00-08:00 UTC"), std::string::npos)
      << a.recommendation.summary;
}

TEST(Issue41Pushdown, AggregatesAreCheckedAndNotMixedWithSamples) {
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  TelemetrySample s;
  s.host = "h";
  s.gpu_index = 0;
  s.time_s = kStart;
  s.util_pct = 1;
  ASSERT_TRUE(a.Add(s).ok());
  GpuAggregate g;
  g.host = "h";
  g.gpu_index = 1;
  g.readings = 10;
  Status st = a.AddAggregate(g);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "pushdown");
  g.host = "other";
  g.util_avg_pct = 1e308;
  st = a.AddAggregate(g);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("utilization.gpu"), std::string::npos) << st.message();
  g.util_avg_pct = 3;
  g.covered_s = 600;
  g.idle_s = 700;  // more idle than covered
  EXPECT_EQ(a.AddAggregate(g).code(), StatusCode::kParseError);
  HostAggregate h;
  h.host = "other";
  h.covered_s = 3600;
  h.first_s = kStart;
  h.last_s = kStart + 3540;
  h.idle_pieces = {{kStart + 1800, kStart + 3600}, {kStart, kStart + 600}};  // out of order
  EXPECT_EQ(a.AddAggregate(h).code(), StatusCode::kParseError);
  h.idle_pieces = {{kStart, kStart + 1800}};
  EXPECT_TRUE(a.AddAggregate(h).ok());
  EXPECT_EQ(a.AddAggregate(h).code(), StatusCode::kInvalidArgument);  // a second one
}

// Three hosts of one GPU each, one host per request: the batches go out in parallel. Every
// answer closes its connection (the fake serves one connection at a time).
testing::FakeHttpServer::Handler ThreeHosts(testing::FakeHttpServer::Reply range) {
  range.headers.push_back("Connection: close");
  return [range](const testing::FakeHttpServer::Request& r) {
    if (r.target.ends_with("/api/v1/query_range")) return range;
    testing::FakeHttpServer::Reply list = testing::FakeHttpServer::Reply::Body(
        R"({"status":"success","data":[)"
        R"({"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"h1","gpu":"0"},)"
        R"({"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"h2","gpu":"0"},)"
        R"({"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"h3","gpu":"0"}]})");
    list.headers.push_back("Connection: close");
    return list;
  };
}

PrometheusOptions ParallelOptions(const std::string& url) {
  PrometheusOptions o;
  o.url = url;
  o.pushdown = true;
  o.since_s = 3600;
  o.end_s = 1700000000;
  o.step_s = 60;
  o.timeout_s = 5;
  o.max_points_per_query = 120;  // 1 GPU x 120 windows (two whole hours): one host a batch
  return o;
}

AggregateSink Counting(size_t* n) {
  AggregateSink sink;
  sink.gpu = [n](const GpuAggregate&) { return ++*n, Status::OK(); };
  sink.host = [n](const HostAggregate&) { return ++*n, Status::OK(); };
  return sink;
}

TEST(Issue41Pushdown, BatchesInParallelEachAskTotalsAndHours) {
  testing::FakeHttpServer server(ThreeHosts(testing::FakeHttpServer::Reply::Body(
      R"({"status":"success","data":{"resultType":"matrix","result":[]}})")));
  size_t n = 0;
  Result<PrometheusSourceInfo> r = ReadPrometheus(
      ParallelOptions(server.url()), [](const TelemetrySample&) { return Status::OK(); },
      Counting(&n));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->pushdown);
  EXPECT_EQ(r->requests, 1u + 3 * 3);  // the list, then GPU totals, host totals, hours each
  EXPECT_EQ(server.request_count(), 1u + 3 * 3);
  EXPECT_EQ(n, 0u);  // nothing answered, nothing passed on
}

TEST(Issue41Pushdown, AFailingBatchStopsTheOthers) {
  testing::FakeHttpServer::Reply refused;
  refused.status = 500;
  refused.body = "overloaded";
  testing::FakeHttpServer server(ThreeHosts(refused));
  size_t n = 0;
  const auto start = std::chrono::steady_clock::now();
  Result<PrometheusSourceInfo> r = ReadPrometheus(
      ParallelOptions(server.url()), [](const TelemetrySample&) { return Status::OK(); },
      Counting(&n));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
  EXPECT_NE(r.status().message().find("HTTP 500: overloaded"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(r.status().field(), "prometheus");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 4);
  EXPECT_EQ(n, 0u);
}

}  // namespace
}  // namespace gpuadvisor
