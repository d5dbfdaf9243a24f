// Issue 17: ReadPrometheus's checks that need no server (the end-to-end run against a real
// prometheus is tests/cli/idle_prometheus_test.sh).
#include "gpuadvisor/prometheus_source.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <chrono>

#include "testutil/fake_http.h"

namespace gpuadvisor {
namespace {

using testing::FakeHttpServer;

Status Read(PrometheusOptions o) {
  return ReadPrometheus(o, [](const TelemetrySample&) { return Status::OK(); }).status();
}

TEST(Issue17PrometheusSource, RefusesBadOptionsNamingTheFlag) {
  PrometheusOptions o;
  o.url = "localhost:9090";
  Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("prometheus"), std::string::npos) << st.message();
  o.url = "http://127.0.0.1:1";
  for (const char* sel : {"up{job=\"a\"}", "{job=\"a\"", "job"}) {
    o.selector = sel;
    st = Read(o);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << sel;
    EXPECT_NE(st.message().find("selector"), std::string::npos) << st.message();
  }
  o.selector = "";
  o.step_s = 600;
  o.since_s = 60;
  EXPECT_NE(Read(o).message().find("since"), std::string::npos);
  o.since_s = 86400;
  o.headers = {"no colon"};
  EXPECT_NE(Read(o).message().find("prometheus-header"), std::string::npos);
}

TEST(Issue17PrometheusSource, UnreachableServerIsAnIOErrorNamingTheUrl) {
  PrometheusOptions o;
  o.url = "http://127.0.0.1:1/prefix";  // port 1: nothing listens
  o.timeout_s = 2;
  const Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("http://127.0.0.1:1/prefix/api/v1/series"), std::string::npos)
      << st.message();
}

TEST(Issue17PrometheusSource, WindowQueryJoinsSevenLabelledSummaries) {
  const std::string q = PrometheusWindowQuery("job=\"dcgm\"", 300);
  size_t n = 0;
  for (size_t at = q.find("gpuadvisor_agg"); at != std::string::npos;
       at = q.find("gpuadvisor_agg", at + 1)) {
    ++n;
  }
  EXPECT_EQ(n, 7u);
  // [t, t + 5m) evaluated at its last millisecond: a closed 299999 ms range.
  EXPECT_NE(q.find("max_over_time(DCGM_FI_DEV_GPU_UTIL{job=\"dcgm\"}[299999ms])"),
            std::string::npos)
      << q;
  EXPECT_NE(q.find("count_over_time(DCGM_FI_DEV_GPU_UTIL"), std::string::npos);
  EXPECT_NE(q.find("max_over_time(DCGM_FI_DEV_FB_USED"), std::string::npos);
}

// ---- outbound requests: only the read API, every request bounded (security report) ----

constexpr const char* kSeries =
    R"({"status":"success","data":[{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"h1","gpu":"0",)"
    R"("UUID":"GPU-1","modelName":"NVIDIA L4"}]})";
constexpr const char* kEmptyMatrix =
    R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

// A fake Prometheus answering the two read endpoints; `range` answers query_range.
FakeHttpServer::Handler Prometheus(FakeHttpServer::Reply range) {
  return [range](const FakeHttpServer::Request& r) {
    FakeHttpServer::Reply reply;
    if (r.target.ends_with("/api/v1/series")) {
      reply.body = kSeries;
    } else if (r.target.ends_with("/api/v1/query_range")) {
      return range;
    } else {
      reply.status = 404;
      reply.body = "not found";
    }
    return reply;
  };
}

FakeHttpServer::Reply Body(std::string body) {
  return FakeHttpServer::Reply::Body(std::move(body));
}

PrometheusOptions Options(const std::string& url) {
  PrometheusOptions o;
  o.url = url;
  o.since_s = 3600;
  o.end_s = 1700000000;
  o.step_s = 60;
  o.timeout_s = 5;
  return o;
}

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(PrometheusOutbound, RequestsOnlyTheReadApiUnderTheBasePath) {
  FakeHttpServer fake(Prometheus(Body(
      R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"Hostname":"h1",)"
      R"("gpu":"0","UUID":"GPU-1","gpuadvisor_agg":"util_avg"},"values":[[1699996859.999,"42.5"],)"
      R"([1699996919.999,"NaN"]]}]}})")));
  // A sample's text fields are views valid during the callback only: keep copies.
  std::vector<TelemetrySample> got;
  std::vector<std::string> hosts, uuids;
  Result<PrometheusSourceInfo> info =
      ReadPrometheus(Options(fake.url() + "//tenant-a/"), [&](const TelemetrySample& s) {
        got.push_back(s);
        hosts.emplace_back(s.host);
        uuids.emplace_back(s.uuid);
        return Status::OK();
      });
  ASSERT_TRUE(info.ok()) << info.status().message();
  ASSERT_EQ(fake.request_count(), 2u);
  for (const FakeHttpServer::Request& r : fake.requests()) {
    EXPECT_EQ(r.method, "POST");
    EXPECT_TRUE(r.target == "/tenant-a/api/v1/series" || r.target == "/tenant-a/api/v1/query_range")
        << r.target;
  }
  EXPECT_EQ(info->url, fake.url() + "/tenant-a");
  // The SAX reader's output: one window with a reading, the NaN one without.
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(hosts[0], "h1");
  EXPECT_EQ(uuids[0], "GPU-1");
  EXPECT_DOUBLE_EQ(got[0].util_pct.value_or(-1), 42.5);
  EXPECT_DOUBLE_EQ(got[0].time_s.value_or(0), 1699996800);
  EXPECT_EQ(info->points, 1u);
}

TEST(PrometheusOutbound, AttackUrlsAreRefusedBeforeAnyRequest) {
  FakeHttpServer fake(Prometheus(Body(kEmptyMatrix)));
  for (const std::string tail :
       {"/api/v1/admin/tsdb/delete_series?x=", "/-/quit?x=", "/-/quit#", "/tenant-a/../-/quit",
        "/tenant-a/%2e%2e/tenant-b", "/tenant-a/..%2ftenant-b", "\\..\\-\\quit", "/a\\b",
        "/api/v1/admin/tsdb/snapshot?", "/%2e%2e/-/quit"}) {
    const Status st = Read(Options(fake.url() + tail));
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << tail;
    EXPECT_NE(st.message().find("prometheus: expected"), std::string::npos) << st.message();
  }
  EXPECT_EQ(Read(Options("http://user:pw@127.0.0.1:" + std::to_string(fake.port()))).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(fake.request_count(), 0u);
  // A base path that names an admin endpoint is only ever a prefix of the read API's paths.
  (void)Read(Options(fake.url() + "/api/v1/admin/tsdb/delete_series"));
  ASSERT_EQ(fake.request_count(), 2u);
  EXPECT_EQ(fake.requests()[0].target, "/api/v1/admin/tsdb/delete_series/api/v1/series");
  EXPECT_EQ(fake.requests()[1].target, "/api/v1/admin/tsdb/delete_series/api/v1/query_range");
}

TEST(PrometheusOutbound, RedirectsAreNotFollowed) {
  FakeHttpServer fake([](const FakeHttpServer::Request&) {
    FakeHttpServer::Reply r;
    r.status = 302;
    r.headers = {"Location: /-/quit"};
    return r;
  });
  const Status st = Read(Options(fake.url()));
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("redirect (HTTP 302) refused"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find(fake.url() + "/api/v1/series"), std::string::npos);
  ASSERT_EQ(fake.request_count(), 1u);
  EXPECT_EQ(fake.requests()[0].target, "/api/v1/series");
}

TEST(PrometheusOutbound, SlowDripEndsAtTheRequestDeadline) {
  FakeHttpServer::Reply drip = Body(kEmptyMatrix);
  drip.drip_s = 0.2;  // ~12 s for the whole answer
  FakeHttpServer fake(Prometheus(drip));
  PrometheusOptions o = Options(fake.url());
  o.timeout_s = 0.8;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = Read(o);
  // Bounds with room for a loaded machine and the sanitizers, far below the unbounded case.
  EXPECT_LT(SecondsSince(t0), 6.0);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("no complete answer within 0.8 s"), std::string::npos)
      << st.message();
}

// Headers dripped: every read succeeds and no body arrives, so only the watchdog ends it.
TEST(PrometheusOutbound, DrippedHeadersEndAtTheRequestDeadline) {
  FakeHttpServer::Reply drip = Body(kEmptyMatrix);
  drip.drip_s = 0.05;
  drip.drip_head = true;
  for (int i = 0; i < 100; ++i) drip.headers.push_back("X-Pad-" + std::to_string(i) + ": x");
  FakeHttpServer fake(Prometheus(drip));
  PrometheusOptions o = Options(fake.url());
  o.timeout_s = 0.8;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = Read(o);
  EXPECT_LT(SecondsSince(t0), 6.0);  // 68 s without the watchdog
  EXPECT_NE(st.message().find("no complete answer within 0.8 s"), std::string::npos)
      << st.message();
}

TEST(PrometheusOutbound, StalledServerEndsAtTheRequestDeadline) {
  FakeHttpServer::Reply stall;
  stall.stall = true;
  FakeHttpServer fake(Prometheus(stall));
  PrometheusOptions o = Options(fake.url());
  o.timeout_s = 0.5;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = Read(o);
  EXPECT_LT(SecondsSince(t0), 6.0);
  EXPECT_NE(st.message().find("/api/v1/query_range: no complete answer within"), std::string::npos)
      << st.message();
}

TEST(PrometheusOutbound, WholeRunEndsAtItsDeadline) {
  FakeHttpServer::Reply slow = Body(kEmptyMatrix);
  slow.drip_s = 0.004;  // ~0.25 s per answer, well within the per-request limit
  FakeHttpServer fake(Prometheus(slow));
  PrometheusOptions o = Options(fake.url());
  o.max_points_per_query = 7;  // one window per request: 61 requests
  o.run_timeout_s = 1;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = Read(o);
  EXPECT_LT(SecondsSince(t0), 6.0);  // ~15 s for all 61 answers without the run deadline
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("the run took over 1 s"), std::string::npos) << st.message();
  EXPECT_LT(fake.request_count(), 10u);
}

TEST(PrometheusOutbound, OversizedAnswersAreRefusedWhileReceived) {
  // Announced: refused from its Content-Length, before its body is read.
  FakeHttpServer::Reply claimed = Body(kEmptyMatrix);
  claimed.content_length = uint64_t{10} << 30;
  FakeHttpServer fake(Prometheus(claimed));
  PrometheusOptions o = Options(fake.url());
  o.max_response_bytes = 1 << 20;
  Status st = Read(o);
  EXPECT_NE(st.message().find("response over 1048576 bytes"), std::string::npos) << st.message();
  // Sent: 64 MiB in 64 KiB pieces, cut off after the first MiB.
  FakeHttpServer::Reply big = Body(std::string(65536, ' '));
  big.repeat = 1024;
  FakeHttpServer fake2(Prometheus(big));
  o.url = fake2.url();
  st = Read(o);
  EXPECT_NE(st.message().find("response over 1048576 bytes"), std::string::npos) << st.message();
  EXPECT_LT(fake2.body_bytes_sent(), uint64_t{32} << 20);
}

// `n` spaces, gzip-compressed (~1000:1).
std::string GzipSpaces(size_t n) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY), Z_OK);
  const std::string chunk(1 << 16, ' ');
  std::string out(n / 500 + 4096, '\0');
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  for (size_t sent = 0; sent < n; sent += chunk.size()) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
    z.avail_in = static_cast<uInt>(chunk.size());
    EXPECT_EQ(deflate(&z, Z_NO_FLUSH), Z_OK);
  }
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(PrometheusOutbound, CompressedAnswersAreCappedAfterDecompression) {
  FakeHttpServer::Reply bomb = Body(GzipSpaces(size_t{64} << 20));  // 64 MiB in ~64 KB
  bomb.headers = {"Content-Encoding: gzip"};
  FakeHttpServer fake(Prometheus(bomb));
  PrometheusOptions o = Options(fake.url());
  o.max_response_bytes = 1 << 20;
  const Status st = Read(o);
  EXPECT_NE(st.message().find("response over 1048576 bytes"), std::string::npos) << st.message();
}

TEST(PrometheusOutbound, ResponseBytesPerRunAreCapped) {
  FakeHttpServer fake(Prometheus(Body(kEmptyMatrix)));
  PrometheusOptions o = Options(fake.url());
  o.max_points_per_query = 7;  // 61 small answers
  o.max_total_bytes = 1000;
  const Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("stopped: responses over 1000 bytes (the limit per run)"),
            std::string::npos)
      << st.message();
  EXPECT_LT(fake.request_count(), 20u);
}

// An answer may not make the windows outgrow the request: values at times not asked for are
// dropped, and more values than twice those asked for are refused.
TEST(PrometheusOutbound, AnswersHoldOnlyTheWindowsAskedFor) {
  auto matrix = [](int n, double t0, double dt) {
    std::string values;
    for (int i = 0; i < n; ++i) {
      values += std::string(i ? "," : "") + "[" + std::to_string(t0 + i * dt) + ",\"1\"]";
    }
    return R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":)"
           R"({"Hostname":"h1","gpu":"0","gpuadvisor_agg":"util_avg"},"values":[)" +
           values + "]}]}}";
  };
  size_t samples = 0;
  const SampleSink count = [&samples](const TelemetrySample&) {
    ++samples;
    return Status::OK();
  };
  // 61 windows asked (1 h of 1 min), 1 GPU: 854 values at most.
  FakeHttpServer many(Prometheus(Body(matrix(855, 1699996859.999, 60))));
  Result<PrometheusSourceInfo> r = ReadPrometheus(Options(many.url()), count);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
  EXPECT_NE(r.status().message().find("more than 854 values in one answer"), std::string::npos)
      << r.status().message();
  // Off the grid (every 7 s) or outside the range: no window.
  FakeHttpServer odd(Prometheus(Body(matrix(100, 1699996380.001, 7) + "")));
  r = ReadPrometheus(Options(odd.url()), count);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(samples, 0u);
  FakeHttpServer outside(Prometheus(Body(matrix(50, 1600000000.0 - 0.001, 60))));
  r = ReadPrometheus(Options(outside.url()), count);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(samples, 0u);
}

TEST(PrometheusOutbound, DeepNestingIsRefused) {
  std::string deep = R"({"status":"success","warnings":)";
  for (int i = 0; i < 100000; ++i) deep += '[';
  FakeHttpServer fake(Prometheus(Body(deep)));
  const Status st = Read(Options(fake.url()));
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("nested deeper than 16 levels"), std::string::npos) << st.message();
}

TEST(PrometheusOutbound, RunSizeIsCheckedBeforeTheQueries) {
  FakeHttpServer fake(Prometheus(Body(kEmptyMatrix)));
  // 3650 days of 1 s windows: refused before any request.
  PrometheusOptions o = Options(fake.url());
  o.since_s = 3650.0 * 86400;
  o.step_s = 1;
  o.max_points_per_query = 7;
  Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "since");
  EXPECT_EQ(fake.request_count(), 0u);
  // Within the windows limit but over the requests limit: only the series list is asked.
  o.since_s = 2 * 86400;
  o.step_s = 60;
  o.max_requests = 100;
  st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("needs 2882 requests, over the limit of 100"), std::string::npos)
      << st.message();
  EXPECT_EQ(fake.request_count(), 1u);
}

TEST(PrometheusOutbound, CancelledStopsAfterAtMostOneMoreRequest) {
  std::atomic<bool> gone{false};
  FakeHttpServer fake([&gone](const FakeHttpServer::Request& r) {
    static std::atomic<int> n{0};
    if (++n == 3) gone = true;  // the client leaves while the third request is answered
    return Prometheus(Body(kEmptyMatrix))(r);
  });
  PrometheusOptions o = Options(fake.url());
  o.max_points_per_query = 7;
  o.cancelled = [&gone] { return gone.load(); };
  const Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("stopped: the run was cancelled"), std::string::npos) << st.message();
  EXPECT_LE(fake.request_count(), 4u);
  EXPECT_GE(fake.request_count(), 3u);
}

TEST(PrometheusOutbound, CancelledStopsAnAnswerBeingReceived) {
  FakeHttpServer::Reply drip = Body(kEmptyMatrix);
  drip.drip_s = 0.2;  // ~12 s
  FakeHttpServer fake(Prometheus(drip));
  PrometheusOptions o = Options(fake.url());
  const auto t0 = std::chrono::steady_clock::now();
  o.cancelled = [t0] { return SecondsSince(t0) > 0.3; };
  const Status st = Read(o);
  EXPECT_LT(SecondsSince(t0), 5.0);
  EXPECT_NE(st.message().find("/api/v1/query_range: stopped: the run was cancelled"),
            std::string::npos)
      << st.message();
}

TEST(PrometheusOutbound, TooManySeriesStopTheListing) {
  std::string list = R"({"status":"success","data":[)";
  for (int i = 0; i < 50; ++i) {
    list += std::string(i ? "," : "") + R"({"Hostname":"h)" + std::to_string(i) + R"(","gpu":"0"})";
  }
  list += "]}";
  FakeHttpServer fake([&list](const FakeHttpServer::Request&) { return Body(list); });
  PrometheusOptions o = Options(fake.url());
  o.max_series = 10;
  const Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "selector");
  EXPECT_NE(st.message().find("more than 10 GPU series match"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace gpuadvisor
