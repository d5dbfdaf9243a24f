// Issue 41, item 2 (CloudWatch): the CloudWatch agent's GPU metrics summarised per hour by
// CloudWatch. The ListMetrics, DescribeAutoScalingGroups and GetMetricData answers as the AWS CLI
// prints them, hostile ones included, the queries and their batching, and the hourly samples
// through the idle analysis. The end-to-end run through the real AWS CLI against moto is
// tests/cli/idle_cloudwatch_test.py.
#include "gpuadvisor/cloudwatch_source.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/idle.h"

namespace gpuadvisor {
namespace {

constexpr double kStart = 1782864000;  // 2026-07-01T00:00:00Z

// A ListMetrics metric of the agent: host, index, name and the appended dimensions.
std::string Metric(const std::string& host, int index, const std::string& extra = "",
                   const std::string& metric = "nvidia_smi_utilization_gpu") {
  return R"({"Namespace": "CWAgent", "MetricName": ")" + metric +
         R"(", "Dimensions": [{"Name": "host", "Value": ")" + host +
         R"("}, {"Name": "index", "Value": ")" + std::to_string(index) +
         R"("}, {"Name": "name", "Value": "NVIDIA A10G"})" + extra + "]}";
}

std::string Instance(const std::string& id, const std::string& asg = "") {
  std::string s = R"(, {"Name": "InstanceId", "Value": ")" + id + R"("})";
  if (!asg.empty()) s += R"(, {"Name": "AutoScalingGroupName", "Value": ")" + asg + R"("})";
  return s;
}

std::vector<CloudWatchGpu> Listed(const std::string& metrics) {
  std::vector<CloudWatchGpu> gpus;
  Result<std::string> next =
      ParseCloudWatchListMetrics(R"({"Metrics": [)" + metrics + "]}", "list", &gpus);
  EXPECT_TRUE(next.ok()) << next.status().message();
  return gpus;
}

TEST(CloudWatchListMetrics, ReadsGpuSeriesAndTheirDimensions) {
  std::vector<CloudWatchGpu> gpus;
  Result<std::string> next = ParseCloudWatchListMetrics(
      R"({"Metrics": [)" + Metric("ip-10-0-0-5", 1, Instance("i-0123456789abcdef0", "fleet")) +
          ", " + Metric("ip-10-0-0-5", 1, "", "nvidia_smi_memory_used") + ", " +
          Metric("ip-10-0-0-5", 0) + R"(], "NextToken": "tok-2"})",
      "list", &gpus);
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(*next, "tok-2");
  ASSERT_EQ(gpus.size(), 2u);  // the memory series is no GPU of its own
  EXPECT_EQ(gpus[0].host, "ip-10-0-0-5");
  EXPECT_EQ(gpus[0].index, 1);
  EXPECT_EQ(gpus[0].name, "NVIDIA A10G");
  EXPECT_EQ(gpus[0].instance_id, "i-0123456789abcdef0");
  EXPECT_EQ(gpus[0].auto_scaling_group, "fleet");
  EXPECT_EQ(gpus[0].dimensions.size(), 5u);
  // The next page adds only series not listed yet; the last page has no token.
  next = ParseCloudWatchListMetrics(
      R"({"Metrics": [)" + Metric("ip-10-0-0-5", 0) + ", " + Metric("ip-10-0-0-6", 0) + "]}",
      "list", &gpus);
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(*next, "");
  EXPECT_EQ(gpus.size(), 3u);
}

TEST(CloudWatchListMetrics, HostIsInstanceIdWithoutTheHostDimension) {
  std::vector<CloudWatchGpu> gpus = Listed(
      R"({"MetricName": "nvidia_smi_utilization_gpu", "Dimensions": [{"Name": "index", "Value": "0"},
          {"Name": "InstanceId", "Value": "i-0123456789abcdef0"}]})");
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].host, "i-0123456789abcdef0");
}

TEST(CloudWatchListMetrics, RefusesHostileAnswers) {
  const std::string long_value(1025, 'x');
  std::string many_dims;
  for (int i = 0; i < 31; ++i) {
    many_dims += R"(, {"Name": "d)" + std::to_string(i) + R"(", "Value": "v"})";
  }
  const struct {
    std::string json, expected;
  } cases[] = {
      {"not json", "list: byte"},
      {"[]", "expected a ListMetrics answer"},
      {R"({"Metrics": {}})", "$.Metrics: expected"},
      {R"({"Metrics": [1]})", "$.Metrics[0]: expected an object"},
      {R"({"Metrics": [{"MetricName": 7}]})", "$.Metrics[0].MetricName"},
      {R"({"Metrics": [{"MetricName": "nvidia_smi_utilization_gpu", "Dimensions": [{"Name": 1}]}]})",
       "$.Metrics[0].Dimensions[0].Name"},
      {"{\"Metrics\": [" + Metric("h", 0, R"(, {"Name": "x", "Value": ")" + long_value + "\"}") +
           "]}",
       "Dimensions[3]: expected a Name of 1-255 bytes"},
      {"{\"Metrics\": [" + Metric("h", 0, many_dims) + "]}", "at most 30 dimensions"},
      {R"({"Metrics": [], "NextToken": 5})", "$.NextToken"},
      {R"({"Metrics": [], "Metrics": []})", "duplicate key"},
      {std::string(100000, '['), "list: byte"},
  };
  for (const auto& c : cases) {
    std::vector<CloudWatchGpu> gpus;
    Result<std::string> r = ParseCloudWatchListMetrics(c.json, "list", &gpus);
    ASSERT_FALSE(r.ok()) << c.json.substr(0, 200);
    EXPECT_NE(r.status().message().find(c.expected), std::string::npos)
        << r.status().message() << " / " << c.expected;
  }
}

TEST(CloudWatchListMetrics, NoAnswerLiftsTheSeriesCap) {
  std::vector<CloudWatchGpu> gpus;
  std::string metrics;
  for (int i = 0; i < 5; ++i) metrics += (i ? ", " : "") + Metric("h" + std::to_string(i), 0);
  Result<std::string> r =
      ParseCloudWatchListMetrics(R"({"Metrics": [)" + metrics + "]}", "list", &gpus, 4);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("more than 4 GPU series"), std::string::npos);
  EXPECT_EQ(gpus.size(), 4u);
}

TEST(CloudWatchFleet, SelectsByInstanceIdOrGroupSortedByHost) {
  const std::vector<CloudWatchGpu> gpus =
      Listed(Metric("b", 1, Instance("i-0000000000000000b")) + ", " +
             Metric("a", 0, Instance("i-0000000000000000a", "fleet")) + ", " +
             Metric("b", 0, Instance("i-0000000000000000b")) + ", " + Metric("c", 0));
  std::vector<CloudWatchGpu> f = SelectCloudWatchFleet(gpus, {"i-0000000000000000b"}, "");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].index, 0);
  EXPECT_EQ(f[1].index, 1);
  f = SelectCloudWatchFleet(gpus, {}, "fleet");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].host, "a");
  f = SelectCloudWatchFleet(gpus, {}, "");
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].host, "a");
  EXPECT_EQ(f[3].host, "c");
}

TEST(CloudWatchAutoScaling, ReadsTheGroupsInstances) {
  const std::string json = R"({"AutoScalingGroups": [{"AutoScalingGroupName": "other",
      "Instances": [{"InstanceId": "i-1"}]}, {"AutoScalingGroupName": "fleet",
      "Instances": [{"InstanceId": "i-0123456789abcdef0"}, {"InstanceId": "i-0123456789abcdef1"}]}]})";
  Result<std::vector<std::string>> ids = ParseAutoScalingGroupInstances(json, "asg", "fleet");
  ASSERT_TRUE(ids.ok()) << ids.status().message();
  EXPECT_EQ(*ids, (std::vector<std::string>{"i-0123456789abcdef0", "i-0123456789abcdef1"}));
  ids = ParseAutoScalingGroupInstances(R"({"AutoScalingGroups": []})", "asg", "fle\x1b[31mt");
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), StatusCode::kNoResult);
  EXPECT_EQ(ids.status().message().find('\x1b'), std::string::npos) << ids.status().message();
  ids = ParseAutoScalingGroupInstances(
      R"({"AutoScalingGroups": [{"AutoScalingGroupName": "fleet", "Instances": [{"InstanceId": 3}]}]})",
      "asg", "fleet");
  ASSERT_FALSE(ids.ok());
  EXPECT_NE(ids.status().message().find("$.AutoScalingGroups[0].Instances[0].InstanceId"),
            std::string::npos)
      << ids.status().message();
}

TEST(CloudWatchBatches, RespectTheCallLimits) {
  // 200 hosts x 4 GPUs; 7 days = 168 h: min(500, 100800 / 168 = 600) = 500 queries = 71 GPUs,
  // whole hosts: at most 17 hosts = 68 GPUs per call, fewer when the queries' bytes say so.
  std::string metrics;
  for (int h = 0; h < 200; ++h) {
    for (int i = 0; i < 4; ++i) {
      metrics += (metrics.empty() ? "" : ", ") + Metric("host-" + std::to_string(1000 + h), i);
    }
  }
  const std::vector<CloudWatchGpu> fleet = SelectCloudWatchFleet(Listed(metrics), {}, "");
  Result<std::vector<CloudWatchBatch>> b =
      CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 7 * 86400);
  ASSERT_TRUE(b.ok()) << b.status().message();
  size_t gpus = 0;
  for (const CloudWatchBatch& x : *b) {
    EXPECT_EQ(x.first, gpus);
    EXPECT_LE(x.count * kCloudWatchQueriesPerGpu, kCloudWatchMaxQueriesPerCall);
    EXPECT_LE(x.count * kCloudWatchQueriesPerGpu * 168, kCloudWatchMaxValuesPerCall);
    EXPECT_LE(x.queries_json.size(), kCloudWatchMaxQueryBytes);
    EXPECT_EQ(x.count % 4, 0u);  // whole hosts
    EXPECT_EQ(fleet[x.first].index, 0);
    gpus += x.count;
  }
  EXPECT_EQ(gpus, 800u);
  // ~2 KiB of queries per GPU with these dimensions: the 120 KiB argument, not the 500 queries
  // (71 GPUs), sizes the call here.
  EXPECT_LT((*b)[0].count, 68u);
  EXPECT_GT((*b)[0].queries_json.size() + 4 * 2200, kCloudWatchMaxQueryBytes);
  // 30 days = 720 h: 100800 / 720 = 140 queries = 20 GPUs = 5 hosts per call.
  b = CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 30 * 86400);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)[0].count, 20u);
  EXPECT_EQ(b->size(), 40u);
  // The queries: 7 per GPU, Period 3600, the listed dimensions, escaped.
  EXPECT_NE((*b)[0].queries_json.find(R"("Id":"q0_0")"), std::string::npos);
  EXPECT_NE((*b)[0].queries_json.find(R"("Period":3600,"Stat":"Maximum")"), std::string::npos);
  EXPECT_NE((*b)[0].queries_json.find(R"("Id":"q19_6")"), std::string::npos);
  // Over what one call can return for one GPU: refused.
  b = CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 700 * 86400.0);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().field(), "since");
}

TEST(CloudWatchBatches, LongDimensionsShrinkABatchAndQuotesAreEscaped) {
  const std::string big(1000, 'v');
  std::string metrics;
  for (int h = 0; h < 40; ++h) {
    metrics += (h ? ", " : "") + Metric("h\\\"" + std::to_string(h), 0,
                                        R"(, {"Name": "x", "Value": ")" + big + "\"}");
  }
  const std::vector<CloudWatchGpu> fleet = SelectCloudWatchFleet(Listed(metrics), {}, "");
  Result<std::vector<CloudWatchBatch>> b =
      CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 86400);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_GT(b->size(), 1u);
  for (const CloudWatchBatch& x : *b) EXPECT_LE(x.queries_json.size(), kCloudWatchMaxQueryBytes);
  EXPECT_NE((*b)[0].queries_json.find(R"("Value":"h\"0")"), std::string::npos);
}

// A GetMetricData answer for a batch of `gpus` GPUs: `results` joined.
std::string Answer(const std::string& results, const std::string& next = "") {
  return R"({"MetricDataResults": [)" + results + "]" +
         (next.empty() ? "" : R"(, "NextToken": ")" + next + "\"") + R"(, "Messages": []})";
}
std::string Result1(const std::string& id, const std::vector<std::pair<int, double>>& points,
                    const std::string& code = "Complete") {
  std::string ts, vs;
  for (const auto& [h, v] : points) {
    ts += (ts.empty() ? "\"" : ", \"") + FormatUtc(kStart + h * 3600.0) + "\"";
    vs += (vs.empty() ? "" : ", ") + std::to_string(v);
  }
  return R"({"Id": ")" + id + R"(", "Label": "x", "Timestamps": [)" + ts + R"(], "Values": [)" +
         vs + R"(], "StatusCode": ")" + code + "\"}";
}

TEST(CloudWatchBatchReader, MergesPagesIntoHourlySamplesInTimeOrder) {
  const std::vector<CloudWatchGpu> fleet =
      SelectCloudWatchFleet(Listed(Metric("a", 0) + ", " + Metric("a", 1)), {}, "");
  Result<std::vector<CloudWatchBatch>> b =
      CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 3 * 3600);
  ASSERT_TRUE(b.ok() && b->size() == 1u);
  CloudWatchBatchReader reader(fleet, (*b)[0], kStart, kStart + 3 * 3600);
  // Page 1: GPU 1's utilisation (descending, as CloudWatch's default order), GPU 0's first hour.
  Result<std::string> next =
      reader.AddPage(Answer(Result1("q1_0", {{2, 90}, {1, 50}, {0, 3}}) + ", " +
                                Result1("q0_0", {{0, 1}}, "PartialData"),
                            "page-2"),
                     "gmd");
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(*next, "page-2");
  // Unix seconds, as the AWS CLI v1 prints CloudWatch's timestamps.
  next = reader.AddPage(
      Answer(R"({"Id": "q0_0", "Timestamps": [1782867600, 1782871200],
                                   "Values": [2, 4]})"
             ", " +
             Result1("q0_1", {{0, 4}, {1, 4}, {2, 9}}) + ", " +
             Result1("q0_2", {{0, 60}, {1, 60}, {2, 60}}) + ", " + Result1("q0_3", {{0, 1000}}) +
             ", " + Result1("q0_4", {{0, 1500}}) + ", " + Result1("q0_5", {{0, 23028}}) + ", " +
             Result1("q0_6", {{0, 60.5}})),
      "gmd");
  ASSERT_TRUE(next.ok()) << next.status().message();
  EXPECT_EQ(*next, "");
  EXPECT_EQ(reader.values(), 16u);
  std::vector<std::tuple<double, int, double, std::optional<double>, uint32_t>> seen;
  Result<uint64_t> n = reader.Emit([&](const TelemetrySample& s) {
    seen.emplace_back(*s.time_s, s.gpu_index, *s.util_pct, s.util_max_pct, s.readings);
    if (s.gpu_index == 0 && *s.time_s == kStart) {
      EXPECT_EQ(s.mem_used_mib, 1000);
      EXPECT_EQ(s.mem_used_max_mib, 1500);
      EXPECT_EQ(s.mem_total_mib, 23028);
      EXPECT_EQ(s.power_w, 60.5);
      EXPECT_EQ(s.host, "a");
      EXPECT_EQ(s.gpu_name, "NVIDIA A10G");
    }
    return Status::OK();
  });
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 6u);
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[0], std::make_tuple(kStart, 0, 1.0, std::optional<double>(4), 60u));
  EXPECT_EQ(seen[1], std::make_tuple(kStart, 1, 3.0, std::optional<double>(), 1u));
  EXPECT_EQ(std::get<0>(seen[5]), kStart + 7200);
  EXPECT_EQ(std::get<1>(seen[5]), 1);
}

TEST(CloudWatchBatchReader, RefusesHostileAnswers) {
  const std::vector<CloudWatchGpu> fleet = SelectCloudWatchFleet(Listed(Metric("a", 0)), {}, "");
  Result<std::vector<CloudWatchBatch>> b =
      CloudWatchBatches(fleet, "CWAgent", kStart, kStart + 2 * 3600);
  ASSERT_TRUE(b.ok());
  const std::string off_grid = R"({"Id": "q0_0", "Timestamps": ["2026-07-01T00:30:00Z"],
      "Values": [1]})";
  const std::string outside = R"({"Id": "q0_0", "Timestamps": ["2026-07-01T02:00:00Z"],
      "Values": [1]})";
  const struct {
    std::string json, expected;
    StatusCode code = StatusCode::kParseError;
  } cases[] = {
      {"{", "gmd: byte"},
      {"[]", "expected a GetMetricData answer"},
      {R"({"MetricDataResults": [{"Id": "q1_0"}]})", "$.MetricDataResults[0].Id: expected the Id"},
      {R"({"MetricDataResults": [{"Id": "q0_7"}]})", "$.MetricDataResults[0].Id"},
      {R"({"MetricDataResults": [{"Id": "x0_0"}]})", "$.MetricDataResults[0].Id"},
      {R"({"MetricDataResults": [{"Id": "q_0"}]})", "$.MetricDataResults[0].Id"},
      {Answer(off_grid), "$.MetricDataResults[0].Timestamps[0]: expected an ISO 8601 time"},
      {Answer(R"({"Id": "q0_0", "Timestamps": [1782864001], "Values": [1]})"),
       "$.MetricDataResults[0].Timestamps[0]: expected an ISO 8601 time"},
      {Answer(R"({"Id": "q0_0", "Timestamps": [true], "Values": [1]})"),
       "$.MetricDataResults[0].Timestamps[0]: expected an ISO 8601 time"},
      {Answer(outside),
       "Timestamps[0]: expected an ISO 8601 time (or Unix seconds) on the hour inside"},
      {Answer(R"({"Id": "q0_0", "Timestamps": ["2026-07-01T00:00:00Z"], "Values": ["1"]})"),
       "$.MetricDataResults[0].Values[0]: expected a number"},
      {Answer(R"({"Id": "q0_0", "Timestamps": ["2026-07-01T00:00:00Z"], "Values": []})"),
       "expected as many Values as Timestamps"},
      {Answer(R"({"Id": "q0_0", "Timestamps": ["2026-07-01T00:00:00Z", "2026-07-01T01:00:00Z",
          "2026-07-01T00:00:00Z"], "Values": [1, 2, 3]})"),
       "at most one per hour"},
      {Answer(Result1("q0_0", {{0, 1}}, "Forbidden\\u001b[2J")), "StatusCode: Forbidden",
       StatusCode::kIOError},
      {R"({"MetricDataResults": [], "NextToken": ["x"]})", "$.NextToken"},
      {R"({"MetricDataResults": [], "NextToken": ")" + std::string(5000, 'x') + "\"}",
       "$.NextToken: expected a token of at most 4096 bytes"},
  };
  for (const auto& c : cases) {
    CloudWatchBatchReader reader(fleet, (*b)[0], kStart, kStart + 2 * 3600);
    Result<std::string> r = reader.AddPage(c.json, "gmd");
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_EQ(r.status().code(), c.code) << r.status().message();
    EXPECT_NE(r.status().message().find(c.expected), std::string::npos)
        << r.status().message() << " / " << c.expected;
    EXPECT_EQ(r.status().message().find('\x1b'), std::string::npos) << r.status().message();
  }
}

// The hourly samples through the idle analysis: a GPU idle (Maximum 2 %) for 10 h then busy for
// 14 h a day, over 3 days; an hour whose mean is low but whose Maximum is high is not idle.
TEST(CloudWatchBatchReader, HourlyStatisticsGiveIdleHours) {
  const std::vector<CloudWatchGpu> fleet = SelectCloudWatchFleet(Listed(Metric("a", 0)), {}, "");
  const double end = kStart + 72 * 3600;
  Result<std::vector<CloudWatchBatch>> b = CloudWatchBatches(fleet, "CWAgent", kStart, end);
  ASSERT_TRUE(b.ok());
  CloudWatchBatchReader reader(fleet, (*b)[0], kStart, end);
  std::vector<std::pair<int, double>> avg, max, count;
  for (int h = 0; h < 72; ++h) {
    const bool idle = h % 24 < 10;
    const bool spike = h % 24 == 10;  // mean 3 %, one reading at 90 %
    avg.emplace_back(h, idle ? 1 : spike ? 3 : 80);
    max.emplace_back(h, idle ? 2 : 90);
    count.emplace_back(h, 60);
  }
  ASSERT_TRUE(reader
                  .AddPage(Answer(Result1("q0_0", avg) + ", " + Result1("q0_1", max) + ", " +
                                  Result1("q0_2", count)),
                           "gmd")
                  .ok());
  IdleAnalyzer a(*EmbeddedCatalog(), IdleOptions{});
  a.set_origin("cloudwatch");
  Result<uint64_t> n = reader.Emit([&](const TelemetrySample& s) { return a.Add(s); });
  ASSERT_TRUE(n.ok()) << n.status().message();
  Result<IdleReport> r = a.Finish({});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->hosts.size(), 1u);
  const HostUsage& h = r->hosts[0];
  EXPECT_DOUBLE_EQ(h.hours_covered, 72);
  EXPECT_DOUBLE_EQ(h.idle_hours, 30);
  EXPECT_EQ(h.idle_period_count, 3u);
  EXPECT_DOUBLE_EQ(h.longest_idle_hours, 10);
  EXPECT_EQ(h.samples, 72u * 60);
}

}  // namespace
}  // namespace gpuadvisor
