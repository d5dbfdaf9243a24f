// Issue 17: ReadPrometheus's checks that need no server (the end-to-end run against a real
// prometheus is tests/cli/idle_prometheus_test.sh).
#include "gpuadvisor/prometheus_source.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

Status Read(PrometheusOptions o) {
  return ReadPrometheus(o, [](const TelemetrySample&) { return Status::OK(); }).status();
}

TEST(Issue17PrometheusSource, RefusesBadOptionsNamingTheFlag) {
  PrometheusOptions o;
  o.url = "localhost:9090";
  Status st = Read(o);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("--prometheus"), std::string::npos) << st.message();
  o.url = "http://127.0.0.1:1";
  for (const char* sel : {"up{job=\"a\"}", "{job=\"a\"", "job"}) {
    o.selector = sel;
    st = Read(o);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << sel;
    EXPECT_NE(st.message().find("--selector"), std::string::npos) << st.message();
  }
  o.selector = "";
  o.step_s = 600;
  o.since_s = 60;
  EXPECT_NE(Read(o).message().find("--since"), std::string::npos);
  o.since_s = 86400;
  o.headers = {"no colon"};
  EXPECT_NE(Read(o).message().find("--prometheus-header"), std::string::npos);
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

}  // namespace
}  // namespace gpuadvisor
