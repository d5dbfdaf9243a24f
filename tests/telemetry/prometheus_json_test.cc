// The SAX reader of the Prometheus API's answers (telemetry/prometheus_json.h): what it delivers,
// what it skips, and the error each malformed shape gets.
#include "telemetry/prometheus_json.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpuadvisor {
namespace {

struct Read {
  Status status;
  PromAnswer answer;
  std::vector<PromLabels> labels;
  std::vector<std::pair<PromLabels, PromPoints>> series;
};

Read Parse(std::string_view body, PromData kind, uint64_t max_points = 0) {
  Read r;
  PromDataSink sink;
  sink.max_points = max_points;
  sink.labels = [&r](const PromLabels& l) {
    r.labels.push_back(l);
    return Status::OK();
  };
  sink.series = [&r](const PromLabels& l, const PromPoints& p) {
    r.series.emplace_back(l, p);
    return Status::OK();
  };
  r.status = ParsePrometheusJson(body, kind, sink, "http://p/api", &r.answer);
  return r;
}

TEST(PrometheusJsonTest, DeliversSeriesAndSkipsOtherMembers) {
  const Read r =
      Parse(R"({"warnings":[{"a":[1,2,{"b":null}]}],"data":{"stats":{"x":[true]},"result":[)"
            R"({"values":[[1.5,"2"],[3,"NaN"],[4,"+Inf"]],"metric":{"gpu":"0","Hostname":"h"}}],)"
            R"("resultType":"matrix"},"status":"success"})",
            PromData::kMatrix);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.answer.status, "success");
  EXPECT_TRUE(r.answer.has_data);
  ASSERT_EQ(r.series.size(), 1u);
  // "values" before "metric": the labels still arrive with their points.
  EXPECT_EQ(r.series[0].first, (PromLabels{{"gpu", "0"}, {"Hostname", "h"}}));
  ASSERT_EQ(r.series[0].second.size(), 3u);
  EXPECT_DOUBLE_EQ(r.series[0].second[0].first, 1.5);
  EXPECT_DOUBLE_EQ(r.series[0].second[0].second, 2);
  EXPECT_TRUE(std::isnan(r.series[0].second[1].second));
  EXPECT_TRUE(std::isnan(r.series[0].second[2].second));

  const Read list = Parse(R"({"status":"success","data":[{"a":"1"},{},{"b":"2","c":"3"}]})",
                          PromData::kSeriesList);
  ASSERT_TRUE(list.status.ok()) << list.status.message();
  ASSERT_EQ(list.labels.size(), 3u);
  EXPECT_EQ(list.labels[2], (PromLabels{{"b", "2"}, {"c", "3"}}));

  const Read error =
      Parse(R"({"status":"error","errorType":"bad_data","error":"parse error at char 3"})",
            PromData::kMatrix);
  ASSERT_TRUE(error.status.ok());
  EXPECT_EQ(error.answer.status, "error");
  EXPECT_EQ(error.answer.error, "parse error at char 3");
  EXPECT_FALSE(error.answer.has_data);
}

TEST(PrometheusJsonTest, MalformedShapesAreParseErrorsNamingWhatWasExpected) {
  const struct {
    const char* body;
    PromData kind;
    const char* expected;
  } kCases[] = {
      {"[]", PromData::kSeriesList, "expected an object"},
      {R"({"data":{}})", PromData::kSeriesList, "expected data to be a list"},
      {R"({"data":[1]})", PromData::kSeriesList, "expected labels"},
      {R"({"data":[{"a":1}]})", PromData::kSeriesList, "expected label values to be strings"},
      {R"({"data":[{"a":{}}]})", PromData::kSeriesList, "expected label values to be strings"},
      {R"({"data":[]})", PromData::kMatrix, "expected data.result to be a matrix"},
      {R"({"data":{"resultType":"vector","result":[]}})", PromData::kMatrix,
       "got resultType \"vector\""},
      {R"({"data":{"result":{}}})", PromData::kMatrix, "expected data.result to be a matrix"},
      {R"({"data":{"result":[[]]}})", PromData::kMatrix, "expected {metric, values} series"},
      {R"({"data":{"result":[{"metric":[]}]}})", PromData::kMatrix,
       "expected {metric, values} series"},
      {R"({"data":{"result":[{"values":[{}]}]}})", PromData::kMatrix,
       "expected [time, \"value\"] points"},
      {R"({"data":{"result":[{"values":[[1]]}]}})", PromData::kMatrix,
       "expected [time, \"value\"] points"},
      {R"({"data":{"result":[{"values":[[1,"2",3]]}]}})", PromData::kMatrix,
       "expected [time, \"value\"] points"},
      {R"({"data":{"result":[{"values":[["1","2"]]}]}})", PromData::kMatrix,
       "expected [time, \"value\"] points"},
      {R"({"data":{"result":[{"values":[[1,2]]}]}})", PromData::kMatrix,
       "expected [time, \"value\"] points"},
      {R"({"status":"success"} x)", PromData::kMatrix, "byte"},
      {R"({"status":)", PromData::kMatrix, "byte"},
  };
  for (const auto& c : kCases) {
    const Read r = Parse(c.body, c.kind);
    EXPECT_EQ(r.status.code(), StatusCode::kParseError) << c.body;
    EXPECT_NE(r.status.message().find(c.expected), std::string::npos)
        << c.body << ": " << r.status.message();
    EXPECT_EQ(r.status.message().rfind("http://p/api: byte ", 0), 0u) << r.status.message();
  }
}

TEST(PrometheusJsonTest, LimitsHoldWhileReading) {
  std::string deep = R"({"x":)";
  for (size_t i = 0; i < kMaxPrometheusJsonDepth; ++i) deep += "[";
  EXPECT_NE(Parse(deep, PromData::kMatrix).status.message().find("nested deeper than 16"),
            std::string::npos);
  const char* kThree = R"({"data":{"result":[{"values":[[1,"1"],[2,"2"],[3,"3"]]}]}})";
  EXPECT_TRUE(Parse(kThree, PromData::kMatrix, 3).status.ok());
  const Read over = Parse(kThree, PromData::kMatrix, 2);
  EXPECT_NE(over.status.message().find("more than 2 values in one answer"), std::string::npos)
      << over.status.message();
  EXPECT_TRUE(over.series.empty());  // refused before the series was delivered
  // A sink's error stops the reading and is returned as it is.
  PromDataSink stop;
  stop.labels = [](const PromLabels&) { return Status::InvalidArgument("enough").WithField("x"); };
  PromAnswer answer;
  const Status st =
      ParsePrometheusJson(R"({"data":[{},{}]})", PromData::kSeriesList, stop, "u", &answer);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "x");
}

}  // namespace
}  // namespace gpuadvisor
