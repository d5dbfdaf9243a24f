// POST /v1/idle?prometheus=URL against a fake Prometheus that records every request: the
// security report's attacks reach nothing but the read API, and the server's ceilings hold
// whatever the query says (IdleCeilings, doc/server.md "Outbound requests").
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gpuadvisor/catalog.h"
#include "server/api.h"
#include "testutil/fake_http.h"

namespace gpuadvisor::server {
namespace {

using json = nlohmann::json;
using testing::FakeHttpServer;
using Query = std::vector<std::pair<std::string, std::string>>;

constexpr const char* kSeries =
    R"({"status":"success","data":[{"Hostname":"h1","gpu":"0","UUID":"GPU-1"}]})";
constexpr const char* kEmptyMatrix =
    R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

// The two read endpoints answered; everything else (the admin API, /-/quit) 200 "done", as a
// Prometheus started with --web.enable-admin-api --web.enable-lifecycle would.
FakeHttpServer::Reply Answer(const FakeHttpServer::Request& r, double drip_s = 0) {
  FakeHttpServer::Reply reply;
  if (r.target.ends_with("/api/v1/series")) {
    reply.body = kSeries;
  } else if (r.target.ends_with("/api/v1/query_range")) {
    reply.body = kEmptyMatrix;
    reply.drip_s = drip_s;
  } else {
    reply.body = R"({"status":"success","data":"done"})";
  }
  return reply;
}

ApiContext Context() {
  ApiContext ctx;
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  EXPECT_TRUE(c.ok());
  ctx.catalog = *c;
  ctx.fresh.today = "2026-12-01";
  return ctx;
}

ApiResponse Idle(const ApiContext& ctx, Query q, std::string_view body = "") {
  return Dispatch(ctx, ApiRequest{"POST", "/v1/idle", std::move(q), body});
}

// An allow-list naming `allowed` (comma-separated URLs), as the front end parses it at start.
class AllowList {
 public:
  explicit AllowList(const std::string& allowed) {
    Result<std::vector<HttpUrl>> urls = ParseUrlList(allowed, "allow-list");
    EXPECT_TRUE(urls.ok()) << urls.status().ToString();
    if (urls.ok()) urls_ = *std::move(urls);
  }
  // `ctx` with this list; the list must outlive it.
  ApiContext In(ApiContext ctx) const {
    ctx.prometheus_allowed = &urls_;
    return ctx;
  }

 private:
  std::vector<HttpUrl> urls_;
};

Query Range(const std::string& url) {
  return {{"prometheus", url}, {"since", "1h"}, {"until", "1700000000"}, {"step", "1m"}};
}

TEST(OutboundTest, AttacksOnTheAllowListReachOnlyTheReadApi) {
  FakeHttpServer fake([](const FakeHttpServer::Request& r) { return Answer(r); });
  const std::string base = fake.url();
  AllowList allow(base + "/tenant-a");
  const ApiContext ctx = allow.In(Context());
  for (const std::string& attack :
       {base + "/tenant-a/api/v1/admin/tsdb/delete_series?x=", base + "/tenant-a/-/quit?x=",
        base + "/tenant-a/../-/quit", base + "/tenant-a/%2e%2e/tenant-b",
        base + "/tenant-a/..%2ftenant-b", base + "/tenant-a#/-/quit", base + "/tenant-a\\..\\-",
        base + "/tenant-b", base + "/tenant-ab", base, base + "/tenant-a@127.0.0.1:1/",
        "http://localhost:" + std::to_string(fake.port()) + "/tenant-a"}) {
    const ApiResponse r = Idle(ctx, Range(attack));
    EXPECT_TRUE(r.status == 400 || r.status == 403) << attack << ": " << r.status << " " << r.body;
    EXPECT_EQ(json::parse(r.body)["error"]["field"], "prometheus") << r.body;
  }
  EXPECT_EQ(fake.request_count(), 0u);
  // Allowed: a path under the entry, normalised; only the two read endpoints are requested.
  const ApiResponse ok = Idle(ctx, Range(base + "//tenant-a/x/"));
  EXPECT_NE(ok.status, 400) << ok.body;  // the fake lists a GPU but has no readings for it
  EXPECT_NE(ok.status, 403) << ok.body;
  ASSERT_EQ(fake.request_count(), 2u);
  for (const FakeHttpServer::Request& r : fake.requests()) {
    EXPECT_EQ(r.method, "POST");
    EXPECT_TRUE(r.target == "/tenant-a/x/api/v1/series" ||
                r.target == "/tenant-a/x/api/v1/query_range")
        << r.target;
  }
}

TEST(OutboundTest, QueryOptionsCannotLiftTheServersCeilings) {
  const ApiContext ctx = Context();
  const ApiResponse hosts = Idle(ctx, {{"max-hosts", "1000000"}}, "x");
  EXPECT_EQ(hosts.status, 400) << hosts.body;
  json e = json::parse(hosts.body)["error"];
  EXPECT_EQ(e["field"], "max-hosts");
  EXPECT_NE(e["message"].get<std::string>().find("at most 10000"), std::string::npos) << e;
  // An operator's lower ceiling is also a default: a query that does not name it gets it.
  ApiContext low = Context();
  low.idle_ceilings.max_hosts = 1;
  const std::string two_hosts =
      "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"a\",Hostname=\"h1\"} 1 1700000000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"b\",Hostname=\"h2\"} 1 1700000000000\n";
  const ApiResponse capped = Idle(low, {}, two_hosts);
  EXPECT_EQ(capped.status, 400) << capped.body;
  EXPECT_NE(capped.body.find("more than 1 hosts"), std::string::npos) << capped.body;
  EXPECT_EQ(Idle(low, {{"max-hosts", "2"}}, two_hosts).status, 400);
  // Upstream: values per request, and since / step refused before any request.
  FakeHttpServer fake([](const FakeHttpServer::Request& r) { return Answer(r); });
  AllowList allow(fake.url());
  const ApiContext allowed = allow.In(ctx);
  Query q = Range(fake.url());
  q.emplace_back("prometheus-max-points", "600000");
  const ApiResponse points = Idle(allowed, q);
  EXPECT_EQ(points.status, 400) << points.body;
  EXPECT_EQ(json::parse(points.body)["error"]["field"], "prometheus-max-points");
  const ApiResponse decade = Idle(allowed, {{"prometheus", fake.url()},
                                            {"since", "3650d"},
                                            {"step", "1s"},
                                            {"prometheus-max-points", "7"}});
  EXPECT_EQ(decade.status, 400) << decade.body;
  EXPECT_EQ(json::parse(decade.body)["error"]["field"], "since") << decade.body;
  EXPECT_NE(decade.body.find("over the limit of 200000"), std::string::npos) << decade.body;
  EXPECT_EQ(fake.request_count(), 0u);
}

TEST(OutboundTest, UpstreamRequestsPerRequestAreCapped) {
  FakeHttpServer fake([](const FakeHttpServer::Request& r) { return Answer(r); });
  AllowList allow(fake.url());
  // 30 days of 1-minute windows, one window per request: 43,200 requests wanted.
  const ApiResponse r = Idle(allow.In(Context()), {{"prometheus", fake.url()},
                                                   {"since", "30d"},
                                                   {"until", "1700000000"},
                                                   {"step", "1m"},
                                                   {"prometheus-max-points", "7"}});
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("over the limit of 1000"), std::string::npos) << r.body;
  EXPECT_EQ(fake.request_count(), 1u);  // the series list only
}

TEST(OutboundTest, CancelledRequestStopsAfterAtMostOneMoreUpstreamRequest) {
  std::atomic<bool> gone{false};
  FakeHttpServer fake([](const FakeHttpServer::Request& r) { return Answer(r); });
  AllowList allow(fake.url());
  ApiContext ctx = allow.In(Context());
  ctx.cancelled = [&] {
    if (fake.request_count() >= 5) gone = true;
    return gone.load();
  };
  Query q = Range(fake.url());
  q.emplace_back("prometheus-max-points", "7");
  const ApiResponse r = Idle(ctx, q);
  EXPECT_EQ(r.status, 502) << r.body;
  EXPECT_NE(r.body.find("cancelled"), std::string::npos) << r.body;
  EXPECT_LE(fake.request_count(), 6u);
}

TEST(OutboundTest, WallTimeCeilingEndsASlowUpstream) {
  FakeHttpServer fake([](const FakeHttpServer::Request& r) { return Answer(r, 0.05); });
  AllowList allow(fake.url());
  ApiContext ctx = allow.In(Context());
  ctx.idle_ceilings.prometheus_run_s = 1;
  const auto t0 = std::chrono::steady_clock::now();
  const ApiResponse r = Idle(ctx, Range(fake.url()));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  EXPECT_EQ(r.status, 502) << r.body;
  EXPECT_NE(r.body.find("the run took over 1 s"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace gpuadvisor::server
