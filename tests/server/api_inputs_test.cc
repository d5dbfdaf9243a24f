// Security issue, input validation, HTTP side: finding 5 (a key given twice in a JSON body is a
// 400 naming it, never the last one silently winning), finding 6 (a query parameter on a POST
// whose options are in its body is a 400 naming it, never ignored) and finding 2 through the
// upload path (telemetry values out of range are a 400 naming the line and the field).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "server/api.h"

namespace gpuadvisor::server {
namespace {

using json = nlohmann::json;

ApiResponse Call(const std::string& method, const std::string& path, std::string_view body = "",
                 std::vector<std::pair<std::string, std::string>> query = {}) {
  ApiContext ctx;
  ctx.catalog = *EmbeddedCatalog();
  ctx.fresh.today = "2026-12-01";
  ApiRequest req{method, path, std::move(query), body};
  return Dispatch(ctx, req);
}

// The error object of a 400 response, its field checked.
json Error400(const ApiResponse& r, const std::string& field) {
  EXPECT_EQ(r.status, 400) << r.body;
  json j = json::parse(r.body);
  EXPECT_EQ(j["error"]["field"], field) << r.body;
  return j["error"];
}

constexpr const char* kServe = R"({"task":"serve","model":"llama-3.1-8b","rps":0.5,"top":1})";

TEST(ApiDuplicateKeys, ATopLevelKeyGivenTwiceIsA400NamingIt) {
  ASSERT_EQ(Call("POST", "/v1/recommend", kServe).status, 200);
  const json e =
      Error400(Call("POST", "/v1/recommend",
                    R"({"task":"serve","model":"llama-3.1-8b","rps":0.5,"model":"llama-3.1-70b"})"),
               "body");
  EXPECT_EQ(e["message"], "body:1:57: duplicate key \"model\" (an object names each key once)");
  EXPECT_EQ(e["code"], "parse_error");
}

TEST(ApiDuplicateKeys, EveryPostBodyAndNestedObjectsAndEscapes) {
  // An option (not a workload field) twice, on each endpoint that takes a JSON body.
  for (const char* path : {"/v1/estimate", "/v1/recommend", "/v1/pricing", "/v1/launch"}) {
    const json e =
        Error400(Call("POST", path, R"({"region":"us-east-1","region":"eu-west-1"})"), "body");
    EXPECT_NE(e["message"].get<std::string>().find("duplicate key \"region\""), std::string::npos)
        << path << ": " << e;
  }
  // On line 3 of a pretty body, spelled once with an escape: still the same key.
  const json e = Error400(
      Call("POST", "/v1/estimate", "{\n  \"task\": \"serve\",\n  \"t\\u0061sk\": \"train\"\n}"),
      "body");
  EXPECT_EQ(e["message"], "body:3:14: duplicate key \"task\" (an object names each key once)");
  // The same key in two different objects is fine (x and y are unknown fields: a 400 about
  // them, not about "a").
  const json unknown = json::parse(
      Call("POST", "/v1/recommend",
           R"({"task":"serve","model":"llama-3.1-8b","rps":0.5,"x":{"a":1},"y":{"a":1}})")
          .body);
  EXPECT_EQ(unknown["error"]["message"].get<std::string>().find("duplicate"), std::string::npos)
      << unknown;
}

TEST(ApiPostQuery, PostEndpointsRefuseQueryParametersNamingThem) {
  // Issue: POST /v1/recommend?region=eu-west-1 answered for us-east-1.
  const json e =
      Error400(Call("POST", "/v1/recommend", kServe, {{"region", "eu-west-1"}}), "region");
  EXPECT_EQ(e["message"],
            "query parameter \"region\": POST /v1/recommend takes no query parameters (a POST's "
            "options go in its JSON body)");
  EXPECT_EQ(e["code"], "invalid_argument");
  for (const char* path :
       {"/v1/estimate", "/v1/recommend", "/v1/pricing", "/v1/launch", "/v1/catalog/reload"}) {
    Error400(Call("POST", path, kServe, {{"top", "3"}}), "top");
  }
  // GET routes keep their query options; /v1/idle takes its options in the query.
  EXPECT_EQ(Call("GET", "/v1/instances", "", {{"gpu", "H100"}}).status, 200);
  Error400(Call("GET", "/v1/instances", "", {{"bogus", "1"}}), "bogus");
}

TEST(ApiPostQuery, IdleTakesItsOptionsInTheQueryAndRefusesUnknownOnes) {
  std::string csv = "timestamp, index, name, utilization.gpu\n";
  for (int m = 0; m < 90; ++m) {
    char line[80];
    std::snprintf(line, sizeof line, "2026/07/01 %02d:%02d:00, 0, NVIDIA L4, 0\n", m / 60, m % 60);
    csv += line;
  }
  EXPECT_EQ(Call("POST", "/v1/idle", csv, {{"idle-window", "10m"}}).status, 200);
  Error400(Call("POST", "/v1/idle", csv, {{"bogus", "1"}}), "bogus");
  // A value no GPU reports is refused naming the line and the field.
  csv += "2026/07/01 01:30:00, 0, NVIDIA L4, 1e308\n";
  const json e = Error400(Call("POST", "/v1/idle", csv), "body");
  EXPECT_NE(e["message"].get<std::string>().find(":92: utilization.gpu"), std::string::npos) << e;
}

}  // namespace
}  // namespace gpuadvisor::server
