// The API handlers without sockets (server/api.h): every endpoint, the same JSON as the CLI's
// views, and the errors bad bodies get.
#include "server/api.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "app/requests.h"
#include "app/views.h"
#include "gpuadvisor/query.h"
#include "server/openapi.h"
#include "server/web_assets.h"
#include "util/files.h"

namespace gpuadvisor::server {
namespace {

constexpr FileKind kFixture{64 * kMiB, "a test fixture"};

using json = nlohmann::json;

std::shared_ptr<const Catalog> Embedded() {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  EXPECT_TRUE(c.ok());
  return *c;
}

ApiContext Context(CatalogHolder* holder = nullptr) {
  ApiContext ctx;
  ctx.catalog = holder ? holder->Snapshot() : Embedded();
  ctx.holder = holder;
  ctx.fresh.today = "2026-12-01";
  return ctx;
}

ApiResponse Call(const std::string& method, const std::string& path, std::string_view body = "",
                 std::vector<std::pair<std::string, std::string>> query = {}) {
  ApiRequest req{method, path, std::move(query), body};
  return Dispatch(Context(), req);
}

json Parse(const ApiResponse& r) { return json::parse(r.text()); }

// Checks the error object's shape and returns it.
json ExpectError(const ApiResponse& r, int status, const std::string& field) {
  EXPECT_EQ(r.status, status) << r.body;
  json j = Parse(r);
  EXPECT_TRUE(j.contains("error")) << r.body;
  EXPECT_TRUE(j["error"]["code"].is_string());
  EXPECT_TRUE(j["error"]["message"].is_string());
  if (field.empty()) {
    EXPECT_TRUE(j["error"]["field"].is_null()) << r.body;
  } else {
    EXPECT_EQ(j["error"]["field"], field) << r.body;
  }
  return j["error"];
}

TEST(ApiTest, HealthReportsTheCatalog) {
  ApiResponse r = Call("GET", "/healthz");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(Parse(r)["status"], "ok");
  EXPECT_GT(Parse(r)["instance_types"].get<int>(), 50);
}

TEST(ApiTest, InstancesAreTheCliJson) {
  ApiResponse r = Call("GET", "/v1/instances", "", {{"gpu", "H100"}});
  ASSERT_EQ(r.status, 200) << r.body;
  InstanceQuery q;
  q.gpus = {"H100"};
  Result<std::vector<InstanceRow>> rows = QueryInstances(*Embedded(), q);
  ASSERT_TRUE(rows.ok());
  Freshness fresh;
  fresh.today = "2026-12-01";
  EXPECT_EQ(r.body, InstancesJson(*rows, fresh).Text());
  EXPECT_FALSE(Parse(r).empty());
}

TEST(ApiTest, InstanceFiltersAsQueryParameters) {
  ApiResponse r = Call("GET", "/v1/instances", "",
                       {{"gpu", "L4,L40S"},
                        {"min_gpus", "4"},
                        {"sort", "usd_per_gpu_hour:desc"},
                        {"limit", "3"},
                        {"efa", ""},
                        {"region", "us-east-1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  json rows = Parse(r);
  ASSERT_LE(rows.size(), 3u);
  for (const json& row : rows) {
    EXPECT_GE(row["accelerator"]["count"].get<double>(), 4);
    EXPECT_TRUE(row["efa"].get<bool>());
  }
  EXPECT_EQ(Parse(Call("GET", "/v1/instances", "", {{"max-price", "0.0001"}})).size(), 0u);
}

TEST(ApiTest, InstanceFilterErrorsNameTheParameter) {
  EXPECT_NE(ExpectError(Call("GET", "/v1/instances", "", {{"min-gpus", "abc"}}), 400,
                        "min-gpus")["message"]
                .get<std::string>()
                .find("abc"),
            std::string::npos);
  json e = ExpectError(Call("GET", "/v1/instances", "", {{"gpuu", "H100"}}), 400, "gpuu");
  EXPECT_NE(e["message"].get<std::string>().find("did you mean"), std::string::npos);
  ExpectError(Call("GET", "/v1/instances", "", {{"region", "us-est-1"}}), 400, "region");
  ExpectError(Call("GET", "/v1/instances", "", {{"sort", "price:up"}}), 400, "sort");
  ExpectError(Call("GET", "/v1/instances", "", {{"efa", "maybe"}}), 400, "efa");
  ExpectError(Call("GET", "/v1/instances", "", {{"limit", "-1"}}), 400, "limit");
  ExpectError(Call("GET", "/v1/instances", "", {{"purchase", "free"}}), 400, "purchase");
}

TEST(ApiTest, ShowAndUnknownType) {
  ApiResponse r = Call("GET", "/v1/instances/p5.48xlarge", "", {{"region", "us-west-2"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Parse(r)["instance_type"], "p5.48xlarge");
  EXPECT_TRUE(Parse(r)["regions"].is_array());
  json e = ExpectError(Call("GET", "/v1/instances/p5.48xlarg"), 404, "type");
  EXPECT_NE(e["message"].get<std::string>().find("did you mean"), std::string::npos);
  ExpectError(Call("GET", "/v1/instances/p5.48xlarge", "", {{"color", "red"}}), 400, "color");
  ExpectError(Call("GET", "/v1/instances/p5.48xlarge/x"), 404, "path");
}

TEST(ApiTest, CatalogViews) {
  EXPECT_EQ(Call("GET", "/v1/gpus").body, GpusJson(ListGpus(*Embedded(), false)).Text());
  EXPECT_GT(Parse(Call("GET", "/v1/gpus", "", {{"include-retired", "true"}})).size(),
            Parse(Call("GET", "/v1/gpus")).size() - 1);
  ExpectError(Call("GET", "/v1/gpus", "", {{"x", "1"}}), 400, "x");
  json info = Parse(Call("GET", "/v1/catalog"));
  EXPECT_EQ(info["schema"], "gpuadvisor-catalog/2");
  // Issue 37: staleness per figure, the same view as `catalog info --json`.
  ASSERT_EQ(info["price_figures"]["by_kind"].size(), 5u);
  EXPECT_EQ(info["oldest_price_date"], info["price_figures"]["oldest"]["date"]);
  EXPECT_GT(info["price_figures"]["figures"].get<int>(), 0);
  json regions = Parse(Call("GET", "/v1/regions"));
  EXPECT_NE(std::find(regions.begin(), regions.end(), "us-east-1"), regions.end());
  // Issue 42: the web page's region list named no region (北京/宁夏): with detail=true each
  // code comes with the CLI's names (FindRegionInfo), its partition and currency.
  json detail = Parse(Call("GET", "/v1/regions", "", {{"detail", "true"}}));
  ASSERT_EQ(detail.size(), regions.size());
  bool beijing = false;
  for (const json& r : detail) {
    if (r["code"] != "cn-north-1") continue;
    beijing = true;
    EXPECT_EQ(r["name_zh"], "中国（北京）");
    EXPECT_EQ(r["name"], "China (Beijing)");
    EXPECT_EQ(r["currency"], "CNY");
    EXPECT_EQ(r["partition"], "aws-cn");
  }
  EXPECT_TRUE(beijing);
  EXPECT_EQ(Parse(Call("GET", "/v1/regions", "", {{"detail", "false"}})), regions);
  ExpectError(Call("GET", "/v1/regions", "", {{"detail", "yes"}}), 400, "detail");
  ExpectError(Call("GET", "/v1/regions", "", {{"x", "1"}}), 400, "x");
  // The CLI's `models --json`, byte for byte (one view), and every preset in it.
  EXPECT_EQ(Call("GET", "/v1/models").body, ModelsJson().Text());
  json models = Parse(Call("GET", "/v1/models"));
  ASSERT_EQ(models.size(), ModelPresetNames().size());
  EXPECT_EQ(models[0]["name"], ModelPresetNames()[0]);
  EXPECT_GT(models[0]["params"].get<double>(), 0);
  EXPECT_FALSE(models[0]["tasks"].empty());
}

TEST(ApiTest, EstimateFlatBody) {
  ApiResponse r = Call("POST", "/v1/estimate",
                       R"({"task":"serve","model":"llama-3.1-8b","instance":"g6e.xlarge",
                           "rps":1,"input-tokens":1000,"output_tokens":200})");
  ASSERT_EQ(r.status, 200) << r.body;
  json j = Parse(r);
  EXPECT_EQ(j["hardware"]["instance_type"], "g6e.xlarge");
  EXPECT_TRUE(j["memory"]["fits"].get<bool>());
  EXPECT_TRUE(j["provenance"]["price_date"].is_string());
  EXPECT_TRUE(j["uncertainty"].is_object());
}

// A retired type, not offered in the region, says so in the answer's warnings (issue 29), as the
// CLI does on stderr: where it is offered and what takes its place. A current type says neither.
TEST(ApiTest, EstimateWarnsOfARetiredType) {
  json j = Parse(Call("POST", "/v1/estimate",
                      R"({"task":"serve","model":"llama-3.2-1b","instance":"p3.2xlarge"})"));
  ASSERT_TRUE(j["warnings"].is_array()) << j.dump();
  std::string all;
  for (const json& w : j["warnings"]) all += w.get<std::string>() + "\n";
  EXPECT_NE(all.find("p3.2xlarge is not offered in us-east-1; it is offered in "),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("p3.2xlarge is retired ("), std::string::npos) << all;
  EXPECT_NE(all.find("in its place (us-east-1): p3dn.24xlarge (same GPU)"), std::string::npos)
      << all;
  json current = Parse(Call("POST", "/v1/estimate",
                            R"({"task":"serve","model":"llama-3.2-1b","instance":"g6e.xlarge"})"));
  ASSERT_TRUE(current["warnings"].is_array());
  for (const json& w : current["warnings"]) {
    EXPECT_EQ(w.get<std::string>().find("retired"), std::string::npos) << w;
    EXPECT_EQ(w.get<std::string>().find("not offered"), std::string::npos) << w;
  }
}

TEST(ApiTest, EstimateBadInput) {
  ExpectError(Call("POST", "/v1/estimate", "{bad"), 400, "body");
  ExpectError(Call("POST", "/v1/estimate", ""), 400, "body");
  ExpectError(Call("POST", "/v1/estimate", "[1,2]"), 400, "body");
  ExpectError(Call("POST", "/v1/estimate", std::string(100, '[') + std::string(100, ']')), 400,
              "body");
  ExpectError(Call("POST", "/v1/estimate",
                   R"({"task":"pretrain","model":"llama-3.1-8b","tokens":[1,[2]],"gpu":"H100"})"),
              400, "tokens");
  ExpectError(Call("POST", "/v1/estimate",
                   R"({"task":"pretrain","model":"llama-3.1-8b","tokens":-5,"gpu":"H100"})"),
              400, "tokens");
  ExpectError(Call("POST", "/v1/estimate",
                   R"({"task":"pretrain","model":"llama-3.1-8b","tokens":"1B","gpus":"many"})"),
              400, "gpus");
  // A number beyond a double is the field's error, not the parser's exception text (issue 29).
  for (const char* path : {"/v1/estimate", "/v1/recommend"}) {
    json e = ExpectError(
        Call("POST", path, R"({"task":"serve","model":"llama-3.1-8b","rps":1e999,"gpu":"H100"})"),
        400, "rps");
    const std::string message = e["message"].get<std::string>();
    EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
    EXPECT_NE(message.find("rps: 1e999 is out of range"), std::string::npos) << message;
  }
  ExpectError(Call("POST", "/v1/estimate",
                   R"({"task":"pretrain","model":"llama-3.1-8b","tokens":"1B","gpu":{"a":1}})"),
              400, "gpu");
  ExpectError(Call("POST", "/v1/estimate", R"({"task":"serve","modle":"llama-3.1-8b"})"), 400,
              "modle");
  json e = ExpectError(Call("POST", "/v1/estimate",
                            R"({"task":"serve","model":"llama-3.1-8b","instance":"p5.48xlarg"})"),
                       404, "instance");
  EXPECT_EQ(e["code"], "not_found");
}

TEST(ApiTest, ModelConfigMustBeInline) {
  for (const char* body :
       {R"({"task":"serve","model-config":"/etc/passwd","gpu":"H100"})",
        R"({"task":"serve","model_config":"-","gpu":"H100"})",
        R"({"task":"serve","hf-config":"config.json","gpu":"H100"})",
        R"({"task":"serve","model":{"config":"/etc/hostname"},"gpu":"H100"})",
        R"({"task":"serve","workload":{"model-config":"/etc/hostname"},"gpu":"H100"})"}) {
    ApiResponse r = Call("POST", "/v1/estimate", body);
    EXPECT_EQ(r.status, 400) << body;
    EXPECT_NE(r.body.find("not accepted"), std::string::npos) << r.body;
  }
  const char* inline_config = R"({"task":"serve","gpu":"H100","model-config":{
      "model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,
      "num_key_value_heads":8,"num_hidden_layers":32,"vocab_size":128256}})";
  ApiResponse r = Call("POST", "/v1/estimate", inline_config);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_GT(Parse(r)["memory"]["weights_gib"].get<double>(), 10);
}

TEST(ApiTest, RecommendServing) {
  ApiResponse r =
      Call("POST", "/v1/recommend",
           R"({"task":"serve","model":"llama-3.1-8b","rps":0.5,"top":2,"regions":["us-east-1"],
               "purchase":["on-demand","spot"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  json j = Parse(r);
  ASSERT_EQ(j["plans"].size(), 2u);
  EXPECT_EQ(j["plans"][0]["rank"], 1);
  EXPECT_FALSE(j["plans"][0]["why"].empty());
  EXPECT_FALSE(j["pareto"].empty());
}

// Accept-Language (ApiContext::language) picks the human text; the keys and enum values are the
// same in both languages, and the response cache keeps one answer per language.
TEST(ApiTest, RecommendInChineseHasTheSameKeys) {
  ResponseCache cache(16, 1 << 22);
  ApiContext ctx = Context();
  ctx.cache = &cache;
  const std::string body = R"({"task":"train-vision","model":"unet3d","images":168,"epochs":20,
                               "top":2})";
  ApiRequest req{"POST", "/v1/recommend", {}, body};
  const ApiResponse en = Dispatch(ctx, req);
  ctx.language = Language::kChinese;
  const ApiResponse zh = Dispatch(ctx, req);
  ASSERT_EQ(en.status, 200) << en.body;
  ASSERT_EQ(zh.status, 200) << zh.body;
  EXPECT_FALSE(zh.from_cache);
  const json e = Parse(en), z = Parse(zh);
  std::function<void(const json&, const json&, const std::string&)> same_keys =
      [&](const json& a, const json& b, const std::string& at) {
        ASSERT_EQ(a.type(), b.type()) << at;
        if (a.is_object()) {
          ASSERT_EQ(a.size(), b.size()) << at;
          for (const auto& [k, v] : a.items()) {
            ASSERT_TRUE(b.contains(k)) << at << "/" << k;
            same_keys(v, b[k], at + "/" + k);
          }
        } else if (a.is_array()) {
          ASSERT_EQ(a.size(), b.size()) << at;
          for (size_t i = 0; i < a.size(); ++i) same_keys(a[i], b[i], at + "[]");
        }
      };
  same_keys(e, z, "");
  ASSERT_FALSE(z["plans"].empty());
  EXPECT_EQ(e["plans"][0]["purchase"], z["plans"][0]["purchase"]);
  EXPECT_EQ(e["plans"][0]["confidence"], z["plans"][0]["confidence"]);
  const std::string why_en = e["plans"][0]["why"][0], why_zh = z["plans"][0]["why"][0];
  EXPECT_EQ(why_en.find("\xe6\x96\xb9\xe6\xa1\x88"), std::string::npos);  // "方案"
  EXPECT_NE(why_zh.find("\xe6\x96\xb9\xe6\xa1\x88"), std::string::npos) << why_zh;
  // The same request again in each language: each from the cache, still in its language.
  const ApiResponse zh_again = Dispatch(ctx, req);
  EXPECT_TRUE(zh_again.from_cache);
  EXPECT_EQ(zh_again.text(), zh.text());
  ctx.language = Language::kEnglish;
  EXPECT_EQ(Dispatch(ctx, req).text(), en.text());
  EXPECT_EQ(CurrentLanguage(), Language::kEnglish);  // the scope ended with the request
}

TEST(ApiTest, RecommendNothingFeasibleIsStillAnAnswer) {
  ApiResponse r = Call("POST", "/v1/recommend",
                       R"({"task":"pretrain","model":"llama-3.1-405b","tokens":"15T",
                           "deadline":"1h","max-instances":1})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(Parse(r)["plans"].empty());
  EXPECT_FALSE(Parse(r)["rejected"].empty());
}

// `serve --account FILE`: GET /v1/account answers the scan, /v1/recommend checks plans against
// it unless the request says account=none, and no request can make the server read a file.
TEST(ApiTest, TheServersAccountScan) {
  ExpectError(Call("GET", "/v1/account"), 404, "account");
  AccountScan scan;
  scan.account_id = "123456789012";
  scan.scanned_at = "2026-12-01T00:00:00Z";
  scan.regions = {"us-east-1"};
  scan.quotas.push_back(
      {"us-east-1", "L-417A185B", "Running On-Demand P instances", false, {"P"}, 96});
  ApiContext ctx = Context();
  ctx.account = &scan;
  ApiResponse shown = Dispatch(ctx, ApiRequest{"GET", "/v1/account", {}, ""});
  ASSERT_EQ(shown.status, 200) << shown.body;
  EXPECT_EQ(shown.body, AccountScanToJson(scan));
  const std::string job =
      R"({"task":"pretrain","model":"llama-3.1-8b","tokens":"20B","only-instance":"p5.48xlarge",)"
      R"("purchase":"on-demand","top":1)";
  ApiResponse r = Dispatch(ctx, ApiRequest{"POST", "/v1/recommend", {}, job + "}"});
  ASSERT_EQ(r.status, 200) << r.body;
  const json plan = Parse(r)["plans"][0];
  ASSERT_TRUE(plan.contains("account")) << r.body;
  EXPECT_FALSE(plan["account"]["obtainable"]);
  EXPECT_EQ(plan["account"]["quota"]["code"], "L-417A185B");
  ApiResponse none =
      Dispatch(ctx, ApiRequest{"POST", "/v1/recommend", {}, job + R"(,"account":"none"})"});
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_FALSE(Parse(none)["plans"][0].contains("account"));
  ExpectError(
      Dispatch(ctx, ApiRequest{"POST", "/v1/recommend", {}, job + R"(,"account":"/etc/passwd"})"}),
      400, "account");
  // /v1/launch warns, as the CLI's launch does, where the spec exceeds the quota: two p5 need
  // 384 P vCPUs on demand, the account has 96.
  ApiResponse launch =
      Dispatch(ctx, ApiRequest{"POST", "/v1/launch", {}, R"({"type":"p5.48xlarge","count":2})"});
  ASSERT_EQ(launch.status, 200) << launch.body;
  bool warned = false;
  const json answer = Parse(launch);
  for (const json& w : answer["warnings"]) {
    warned = warned || w.get<std::string>().find(
                           "needs 384 vCPUs of the Running On-Demand P "
                           "instances quota in us-east-1") != std::string::npos;
  }
  EXPECT_TRUE(warned) << answer["warnings"].dump();
  ApiResponse small =
      Dispatch(ctx, ApiRequest{"POST", "/v1/launch", {}, R"({"type":"g6e.xlarge","count":1})"});
  ASSERT_EQ(small.status, 200) << small.body;
  EXPECT_EQ(Parse(small)["warnings"].dump().find("quota"), std::string::npos);
}

TEST(ApiTest, RecommendBadOptions) {
  ExpectError(Call("POST", "/v1/recommend", R"({"task":"serve","model":"llama-3.1-8b","top":0})"),
              400, "top");
  ExpectError(
      Call("POST", "/v1/recommend", R"({"task":"serve","model":"llama-3.1-8b","deadline":"soon"})"),
      400, "deadline");
  ExpectError(Call("POST", "/v1/recommend",
                   R"({"task":"serve","model":"llama-3.1-8b","purchase":["lease"]})"),
              400, "purchase");
  ExpectError(Call("POST", "/v1/recommend",
                   R"({"task":"serve","model":"llama-3.1-8b","objective":"speed"})"),
              400, "objective");
  ExpectError(Call("POST", "/v1/recommend",
                   R"({"task":"serve","model":"llama-3.1-8b","regions":"mars-1"})"),
              400, "regions");
  ExpectError(Call("POST", "/v1/recommend", R"({"task":"serve"})"), 400, "model");
}

// Issue 25: allow/deny lists as body keys (arrays or comma-separated text), recorded in the
// answer; an unknown name is 400 naming the key and the value; lists that leave no instance type
// are an answer (200, no plan) whose filters say which list emptied the field.
TEST(ApiTest, RecommendAllowAndDenyLists) {
  ApiResponse r = Call("POST", "/v1/recommend",
                       R"({"task":"serve","model":"llama-3.1-70b","rps":1,"top":5,
                           "only-gpu":["H100","a100"],"exclude-family":"p4de",
                           "exclude-instance":["p5.4xlarge"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  json j = Parse(r);
  ASSERT_FALSE(j["plans"].empty());
  for (const json& p : j["plans"]) {
    const std::string type = p["instance_type"];
    EXPECT_TRUE(type.rfind("p5.", 0) == 0 || type.rfind("p4d.", 0) == 0) << type;
    EXPECT_NE(type, "p5.4xlarge");
  }
  const json& lists = j["filters"]["lists"];
  ASSERT_EQ(lists.size(), 3u) << j["filters"];
  EXPECT_EQ(lists[0]["option"], "only-gpu");
  EXPECT_EQ(lists[0]["values"], json({"H100", "A100-40GB", "A100-80GB"}));
  EXPECT_EQ(lists[1]["option"], "exclude-family");
  EXPECT_EQ(lists[2]["values"], json({"p5.4xlarge"}));
  EXPECT_TRUE(j["filters"]["emptied_by"].is_null());

  json e = ExpectError(Call("POST", "/v1/recommend",
                            R"({"task":"serve","model":"llama-3.1-8b","only-family":["p5","p9"]})"),
                       400, "only-family");
  EXPECT_NE(e["message"].get<std::string>().find("only-family: unknown instance family \"p9\""),
            std::string::npos)
      << e;
  ExpectError(Call("POST", "/v1/recommend",
                   R"({"task":"serve","model":"llama-3.1-8b","exclude-gpu":"H1000"})"),
              400, "exclude-gpu");
  ExpectError(Call("POST", "/v1/recommend",
                   R"({"task":"serve","model":"llama-3.1-8b","only-instance":["g6.xlarg"]})"),
              400, "only-instance");

  ApiResponse none = Call("POST", "/v1/recommend",
                          R"({"task":"serve","model":"llama-3.1-8b","only-family":"p5",
                              "exclude-gpu":"H100"})");
  ASSERT_EQ(none.status, 200) << none.body;
  json n = Parse(none);
  EXPECT_TRUE(n["plans"].empty());
  EXPECT_EQ(n["filters"]["emptied_by"], "exclude-gpu");
  EXPECT_NE(n["filters"]["note"].get<std::string>().find("exclude-gpu H100 leaves none"),
            std::string::npos);
}

TEST(ApiTest, Pricing) {
  ApiResponse r = Call("POST", "/v1/pricing",
                       R"({"type":"p4d.24xlarge","hours-per-month":300,"months":12,
                           "interruptible":true,"checkpoint-gib":100})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(Parse(r)["options"].is_array());
  ExpectError(Call("POST", "/v1/pricing", R"({"months":12})"), 400, "type");
  ExpectError(Call("POST", "/v1/pricing", R"({"type":"p4d.24xlarg"})"), 404, "type");
  ExpectError(Call("POST", "/v1/pricing", R"({"type":"p4d.24xlarge","months":"x"})"), 400,
              "months");
  ExpectError(Call("POST", "/v1/pricing", R"({"type":"p4d.24xlarge","colour":1})"), 400, "colour");
  ExpectError(Call("POST", "/v1/pricing", R"({"type":"p4d.24xlarge","count":1.5})"), 400, "count");
  ExpectError(Call("POST", "/v1/pricing", R"({"type":"p4d.24xlarge","region":"xx-1"})"), 400,
              "region");
}

TEST(ApiTest, LaunchSpecForAPlanOrAType) {
  ApiResponse rec = Call("POST", "/v1/recommend",
                         R"({"task":"finetune","model":"llama-3.1-8b","tokens":"200M","top":2})");
  ASSERT_EQ(rec.status, 200) << rec.body;
  json plan = Parse(rec)["plans"][1];
  json body = {{"plan", plan}, {"format", "cloudformation"}, {"name", "job1"}};
  ApiResponse r = Call("POST", "/v1/launch", body.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json j = Parse(r);
  EXPECT_EQ(j["instance_type"], plan["instance_type"]);
  EXPECT_EQ(j["count"], plan["instances"]);
  EXPECT_EQ(j["format"], "cloudformation");
  EXPECT_NE(j["document"].get<std::string>().find("AWSTemplateFormatVersion"), std::string::npos);
  json whole = {{"plan", Parse(rec)}, {"rank", 2}};
  EXPECT_EQ(Parse(Call("POST", "/v1/launch", whole.dump()))["instance_type"],
            plan["instance_type"]);
  ApiResponse typed = Call("POST", "/v1/launch", R"({"type":"g6e.xlarge","count":2})");
  ASSERT_EQ(typed.status, 200) << typed.body;
  EXPECT_FALSE(Parse(typed)["cli_input_json"].is_null());
  ExpectError(Call("POST", "/v1/launch", R"({"count":2})"), 400, "type");
  ExpectError(Call("POST", "/v1/launch", R"({"type":"g6e.xlarge","format":"ansible"})"), 400,
              "format");
  ExpectError(Call("POST", "/v1/launch", R"({"type":"g6e.xlarge","count":0})"), 400, "count");
  ExpectError(Call("POST", "/v1/launch", R"({"type":"g6e.xlarge","colour":1})"), 400, "colour");
  ExpectError(Call("POST", "/v1/launch", R"({"plan":5})"), 400, "plan");
  ExpectError(Call("POST", "/v1/launch", R"({"plan":{"x":1}})"), 400, "plan");
  json conflict = {{"plan", plan}, {"region", "eu-west-1"}};
  ExpectError(Call("POST", "/v1/launch", conflict.dump()), 400, "region");
}

TEST(ApiTest, IdleFromUploadedTelemetry) {
  Result<std::string> csv = ReadFile(
      std::string(GPUADVISOR_TESTS_DIR) + "/fixtures/telemetry/smi-nvidia-l40s-idle.csv", kFixture);
  ASSERT_TRUE(csv.ok());
  ApiResponse r = Call("POST", "/v1/idle", *csv,
                       {{"instance-type", "g6e.xlarge"}, {"host", "box1"}, {"idle-window", "1m"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("box1"), std::string::npos);
  EXPECT_NE(r.body.find("g6e.xlarge"), std::string::npos);
  ExpectError(Call("POST", "/v1/idle", ""), 400, "body");
  ExpectError(Call("POST", "/v1/idle", *csv, {{"idle-threshold", "150"}}), 400, "idle-threshold");
  // `format` is the older HTTP spelling of telemetry-format; the field is the canonical name.
  ExpectError(Call("POST", "/v1/idle", *csv, {{"format", "excel"}}), 400, "telemetry-format");
  // Issue 18: an unknown purchase option was priced as on-demand (200); now the CLI's error.
  json bad = ExpectError(Call("POST", "/v1/idle", *csv, {{"purchase", "bogus"}}), 400, "purchase");
  EXPECT_EQ(bad["message"],
            "purchase: expected one of on-demand, spot, reserved-1y-no-upfront, capacity-block, "
            "got \"bogus\"");
  EXPECT_EQ(Call("POST", "/v1/idle", *csv, {{"purchase", "spot"}, {"instance-type", "g6e.xlarge"}})
                .status,
            200);
  ExpectError(Call("POST", "/v1/idle", *csv, {{"instance-type", "g6e.xlarg"}}), 404,
              "instance-type");
  ExpectError(Call("POST", "/v1/idle", *csv, {{"colour", "red"}}), 400, "colour");
  ExpectError(Call("POST", "/v1/idle", "not,telemetry\n1,2\n", {{"format", "nvidia-smi-csv"}}), 400,
              "body");
}

// Issue 16: bytes that are not UTF-8 (query keys and values, hostnames in a body) gave HTTP 500
// (nlohmann type_error 316 while serialising the answer). Now: 400 or 200, always valid JSON.
TEST(ApiTest, NonUtf8InputNeverBreaksTheJson) {
  auto valid = [](const ApiResponse& r) {
    return json::accept(r.body) && r.body.find('\xff') == std::string::npos;
  };
  ApiResponse r = Call("GET", "/v1/instances", "", {{"gpu\xff", "H100"}});
  EXPECT_TRUE(valid(r)) << r.body;
  ExpectError(r, 400, "gpu\uFFFD");
  r = Call("GET", "/v1/instances", "", {{"region", "us-east-1\xfe\xff"}});
  EXPECT_TRUE(valid(r)) << r.body;
  ExpectError(r, 400, "region");
  r = Call("GET", "/v1/gpus", "", {{"\xc3\x28", "1"}});
  EXPECT_TRUE(valid(r)) << r.body;
  EXPECT_EQ(r.status, 400);
  std::string csv =
      "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total "
      "[MiB]\n";
  for (int m = 0; m < 60; ++m) {
    csv += "2026/07/01 00:" + std::string(m < 10 ? "0" : "") + std::to_string(m) +
           ":00.000, host\xff\x80, 0, NVIDIA L4, 0 %, 0 MiB, 20000 MiB\n";
  }
  r = Call("POST", "/v1/idle", csv, {{"idle-window", "1m"}});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(valid(r)) << r.body;
  EXPECT_NE(r.body.find("host\uFFFD\uFFFD"), std::string::npos) << r.body;
}

// Issue 42: a gzip upload (the web page compresses with CompressionStream) reads as the plain
// one; its inflated size has a ceiling of its own (413, field body); bytes that only start like
// gzip are a 400.
TEST(ApiTest, IdleTakesGzipUploadsWithinTheInflatedCeiling) {
  Result<std::string> csv = ReadFile(
      std::string(GPUADVISOR_TESTS_DIR) + "/fixtures/telemetry/smi-nvidia-l40s-idle.csv", kFixture);
  ASSERT_TRUE(csv.ok());
  const std::vector<std::pair<std::string, std::string>> q = {
      {"instance-type", "g6e.xlarge"}, {"host", "box1"}, {"idle-window", "1m"}};
  const std::string gz = Gzip(*csv, 6);
  ASSERT_LT(gz.size(), csv->size());
  ApiResponse plain = Call("POST", "/v1/idle", *csv, q);
  ApiResponse zipped = Call("POST", "/v1/idle", gz, q);
  ASSERT_EQ(zipped.status, 200) << zipped.body;
  EXPECT_EQ(zipped.text(), plain.text());
  ApiContext ctx = Context();
  ctx.idle_ceilings.max_inflated_bytes = csv->size() - 1;
  const json e = ExpectError(Dispatch(ctx, ApiRequest{"POST", "/v1/idle", q, gz}), 413, "body");
  EXPECT_NE(e["message"].get<std::string>().find(std::to_string(csv->size() - 1)),
            std::string::npos)
      << e;
  ctx.idle_ceilings.max_inflated_bytes = csv->size();
  EXPECT_EQ(Dispatch(ctx, ApiRequest{"POST", "/v1/idle", q, gz}).status, 200);
  ExpectError(Call("POST", "/v1/idle", gz.substr(0, gz.size() / 2) + "garbage", q), 400, "body");
}

// Issue 17: a Prometheus source only for the URLs the operator allows (the end-to-end run with
// a real prometheus is tests/cli/idle_prometheus_test.sh).
TEST(ApiTest, IdleFromPrometheusOnlyWhereAllowed) {
  const std::vector<std::pair<std::string, std::string>> q = {{"prometheus", "http://127.0.0.1:1"},
                                                              {"since", "1d"}};
  ExpectError(Call("POST", "/v1/idle", "", q), 403, "prometheus");  // no allow-list: none
  Result<std::vector<HttpUrl>> list = ParseUrlList("http://127.0.0.1:1/, http://other", "list");
  ASSERT_TRUE(list.ok());
  ApiContext ctx = Context();
  ctx.prometheus_allowed = &*list;
  const auto idle = [&](std::string_view body, std::vector<std::pair<std::string, std::string>> v) {
    return Dispatch(ctx, ApiRequest{"POST", "/v1/idle", std::move(v), body});
  };
  ExpectError(idle("", {{"prometheus", "http://127.0.0.1:10"}}), 403, "prometheus");
  ExpectError(idle("GPU,0\n", q), 400, "body");
  ExpectError(idle("", {{"prometheus", "http://127.0.0.1:1"}, {"step", "x"}}), 400, "step");
  // Allowed, but nothing listens on port 1: the upstream failed.
  ExpectError(idle("", q), 502, "prometheus");
}

// Issue 16: a 13-minute upload gets no verdict; the span threshold is a query parameter; a body
// with more hosts than the cap is refused with the limit named.
TEST(ApiTest, IdleNeedsEnoughDataAndCapsHosts) {
  Result<std::string> csv =
      ReadFile(std::string(GPUADVISOR_TESTS_DIR) + "/idle/fixtures/h100x8-13min.csv", kFixture);
  ASSERT_TRUE(csv.ok());
  ApiResponse r = Call("POST", "/v1/idle", *csv);
  ASSERT_EQ(r.status, 200) << r.body;
  json j = json::parse(r.body);
  EXPECT_EQ(j["instances"][0]["status"], "insufficient-data");
  EXPECT_EQ(j["instances"][0]["recommendation"]["action"], "collect-more");
  EXPECT_TRUE(j["instances"][0]["recommendation"]["target_instance_type"].is_null());
  r = Call("POST", "/v1/idle", *csv, {{"idle-window", "5m"}, {"min-rightsizing-span", "10m"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["instances"][0]["status"], "ok");
  ExpectError(Call("POST", "/v1/idle", *csv, {{"min-rightsizing-span", "soon"}}), 400,
              "min-rightsizing-span");
  std::string many = "timestamp, hostname, index, utilization.gpu\n";
  for (int h = 0; h <= 10000; ++h)
    many += "2026/11/20 00:00:00, h" + std::to_string(h) + ", 0, 1\n";
  const json e = ExpectError(Call("POST", "/v1/idle", many), 400, "body");
  EXPECT_NE(e["message"].get<std::string>().find("max_hosts"), std::string::npos) << e.dump();
}

TEST(ApiTest, UnknownPathsAndMethods) {
  ExpectError(Call("GET", "/v2/instances"), 404, "path");
  ExpectError(Call("POST", "/v1/instances"), 405, "method");
  ExpectError(Call("GET", "/v1/recommend"), 405, "method");
}

TEST(ApiTest, ReloadSwapsTheSnapshot) {
  int loads = 0;
  CatalogHolder holder(Embedded(), [&]() -> Result<std::shared_ptr<const Catalog>> {
    ++loads;
    return Embedded();
  });
  std::shared_ptr<const Catalog> before = holder.Snapshot();
  ApiRequest req{"POST", "/v1/catalog/reload", {}, ""};
  ApiResponse r = Dispatch(Context(&holder), req);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Parse(r)["catalog_generation"], 2);
  EXPECT_EQ(loads, 1);
  EXPECT_NE(before, nullptr);  // the old snapshot stays valid for whoever holds it

  CatalogHolder failing(Embedded(), []() -> Result<std::shared_ptr<const Catalog>> {
    return Status::ParseError("catalog.json:1: broken");
  });
  ApiResponse bad = Dispatch(Context(&failing), req);
  ExpectError(bad, 500, "catalog");
  EXPECT_EQ(failing.generation(), 1u);
  ExpectError(Dispatch(Context(), req), 400, "catalog");
}

TEST(ApiTest, CacheAnswersIdenticalRequestsOnly) {
  ResponseCache cache(2, 64 << 20);
  ApiContext ctx = Context();
  ctx.cache = &cache;
  const std::string body = R"({"task":"serve","model":"llama-3.1-8b","rps":1,"top":1})";
  ApiRequest req{"POST", "/v1/recommend", {}, body};
  ApiResponse first = Dispatch(ctx, req);
  ASSERT_EQ(first.status, 200);
  EXPECT_FALSE(first.from_cache);
  ApiResponse second = Dispatch(ctx, req);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.text(), first.text());
  ctx.generation = 2;  // a reloaded catalog: computed again
  EXPECT_FALSE(Dispatch(ctx, req).from_cache);
  ApiRequest bad{"POST", "/v1/recommend", {}, "{"};
  EXPECT_EQ(Dispatch(ctx, bad).status, 400);
  EXPECT_FALSE(Dispatch(ctx, bad).from_cache);  // errors are not kept
  ApiRequest other{
      "POST", "/v1/estimate", {}, R"({"task":"serve","model":"llama-3.1-8b","gpu":"L4"})"};
  EXPECT_EQ(Dispatch(ctx, other).status, 200);
  EXPECT_EQ(cache.size(), 2u);  // bounded: the oldest went
  ctx.generation = 1;
  EXPECT_FALSE(Dispatch(ctx, req).from_cache);
  ApiRequest get{"GET", "/v1/gpus", {}, ""};
  EXPECT_FALSE(Dispatch(ctx, get).from_cache);
}

// Issue 16: the cache is bounded in bytes (LRU), and one answer larger than an eighth of the
// budget is not kept at all.
TEST(ApiTest, CacheIsBoundedInBytes) {
  ResponseCache cache(1000, 10000);
  ApiResponse small;
  small.body = std::string(500, 'a');
  for (int i = 0; i < 100; ++i) cache.Insert("k" + std::to_string(i), small);
  EXPECT_LE(cache.bytes(), 10000u);
  EXPECT_LT(cache.size(), 100u);
  EXPECT_GT(cache.size(), 5u);
  EXPECT_TRUE(cache.Find("k99").has_value());  // the newest stay
  EXPECT_FALSE(cache.Find("k0").has_value());  // the oldest went
  ApiResponse big;
  big.body = std::string(2000, 'b');  // over 10000 / 8
  cache.Insert("big", big);
  EXPECT_FALSE(cache.Find("big").has_value());
  EXPECT_TRUE(cache.Find("k99").has_value());  // and it flushed nothing
}

// Issue 16: error bodies do not echo large input; quoted input is cut at 80 characters + "…".
TEST(ApiTest, ErrorsDoNotEchoLargeInput) {
  const std::string huge(900 * 1024, 'x');
  ApiResponse r = Call("GET", "/v1/instances", "", {{"min-gpus", huge}});
  json e = ExpectError(r, 400, "min-gpus");
  EXPECT_LT(r.body.size(), 1000u);
  EXPECT_NE(e["message"].get<std::string>().find(std::string(80, 'x') + "\u2026"),
            std::string::npos)
      << r.body;
  ApiResponse unknown = Call("GET", "/v1/instances", "", {{huge, "1"}});
  EXPECT_EQ(unknown.status, 400);
  EXPECT_LT(unknown.body.size(), 1000u);
  ApiResponse path = Call("GET", "/v1/" + huge);
  EXPECT_EQ(path.status, 404);
  EXPECT_LT(path.body.size(), 1000u);
  // Cutting never splits a UTF-8 sequence.
  EXPECT_EQ(CapEcho(std::string(79, 'a') + "\u00e9\u00e9"), std::string(79, 'a') + "\u2026");
  // Bytes that are not UTF-8 are replaced, not thrown on.
  ApiResponse bad = ErrorResponse(400, "invalid_argument", "x: got \"\xff\xfe\"", "x");
  EXPECT_EQ(bad.status, 400);
  EXPECT_TRUE(json::accept(bad.body)) << bad.body;
}

// Issue 16: repeated list items count once (the answer equals the one-item answer); more than
// kMaxListItems different items is 400 naming the field (issue 43: repeats are dropped before
// the count, so any number of copies of one item is that item).
TEST(ApiTest, ListInputsAreDeduplicatedAndCapped) {
  std::string regions = "us-east-1";
  for (int i = 0; i < 500; ++i) regions += ",us-east-1";
  const json one = {{"task", "serve"},
                    {"model", "llama-3.1-8b"},
                    {"rps", 1},
                    {"top", 2},
                    {"regions", "us-east-1"}};
  json many = one;
  many["regions"] = regions;
  ApiResponse a = Call("POST", "/v1/recommend", one.dump());
  ApiResponse b = Call("POST", "/v1/recommend", many.dump());
  ASSERT_EQ(a.status, 200) << a.body;
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(Parse(a)["plans"], Parse(b)["plans"]);
  for (int i = 0; i < 1000; ++i) regions += ",r" + std::to_string(i);
  many["regions"] = regions;
  ExpectError(Call("POST", "/v1/recommend", many.dump()), 400, "regions");
  std::vector<std::pair<std::string, std::string>> query;
  for (int i = 0; i <= 1000; ++i) query.emplace_back("gpu", "g" + std::to_string(i));
  ExpectError(Call("GET", "/v1/instances", "", query), 400, "gpu");
  query.assign(1300, {"gpu", "H100"});
  ApiResponse rows = Call("GET", "/v1/instances", "", query);
  ApiResponse single = Call("GET", "/v1/instances", "", {{"gpu", "H100"}});
  ASSERT_EQ(rows.status, 200);
  EXPECT_EQ(rows.body, single.body);
  OptionValues v(**FindCommandSpec("instances"));
  for (const char* gpu : {"a", "b", "A", "a"}) ASSERT_TRUE(v.Set("gpu", gpu, kHttp).ok());
  Result<std::vector<std::string>> d = v.List("gpu");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, (std::vector<std::string>{"a", "b"}));
}

// Issue 16: instance-type with an upload that names its hosts was silently ignored; it is now
// 400 naming instance-type, unless `host` names the upload's one host.
TEST(ApiTest, IdleInstanceTypeWithNamedHosts) {
  std::string csv =
      "timestamp, hostname, index, name, utilization.gpu [%], memory.used [MiB], memory.total "
      "[MiB]\n";
  for (int m = 0; m < 50; ++m) {
    const std::string t = "2026/07/03 08:" + std::string(m < 10 ? "0" : "") + std::to_string(m);
    csv += t + ":00.000, gpu-a, 0, NVIDIA L40S, 0 %, 0 MiB, 46068 MiB\n";
  }
  ExpectError(Call("POST", "/v1/idle", csv, {{"instance-type", "g6e.xlarge"}}), 400,
              "instance-type");
  ApiResponse ok =
      Call("POST", "/v1/idle", csv,
           {{"instance-type", "g6e.xlarge"}, {"host", "gpu-a"}, {"idle-window", "1m"}});
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_NE(ok.body.find("g6e.xlarge"), std::string::npos);
  ApiResponse guessed = Call("POST", "/v1/idle", csv, {{"idle-window", "1m"}});
  EXPECT_EQ(guessed.status, 200) << guessed.body;
}

TEST(ApiTest, OpenApiListsEveryRoute) {
  ApiResponse r = Call("GET", "/v1/openapi.json");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body, OpenApiJson());  // the generated document, not the embedded base
  json doc = Parse(r);
  EXPECT_EQ(doc["openapi"], "3.0.3");
  std::set<std::string> documented;
  for (const Route& route : Routes()) {
    std::string method = route.method;
    std::transform(method.begin(), method.end(), method.begin(), ::tolower);
    EXPECT_TRUE(doc["paths"].contains(route.path)) << route.path;
    if (doc["paths"].contains(route.path)) {
      EXPECT_TRUE(doc["paths"][route.path].contains(method)) << route.method << " " << route.path;
    }
  }
}

TEST(ApiTest, WebAssetsAreEmbeddedAndCompressed) {
  const WebAsset* index = FindWebAsset("/");
  ASSERT_NE(index, nullptr);
  EXPECT_NE(index->data.find("<html"), std::string::npos);
  EXPECT_EQ(FindWebAsset("/index.html"), index);
  EXPECT_EQ(FindWebAsset("/../etc/passwd"), nullptr);
  size_t first_paint = 0;
  for (const char* path : {"/", "/app.js", "/i18n.js", "/app.css"}) {
    const WebAsset* a = FindWebAsset(path);
    ASSERT_NE(a, nullptr) << path;
    EXPECT_FALSE(a->gzip.empty());
    EXPECT_LT(a->gzip.size(), a->data.size());
    first_paint += a->gzip.size();
  }
  EXPECT_LT(first_paint, 100u * 1024);
  EXPECT_NE(FindWebAsset("/vendor/uplot/uPlot.iife.min.js"), nullptr);
  EXPECT_NE(FindWebAsset("/i18n-zh-CN.js"), nullptr);  // fetched when the page is in Chinese
}

}  // namespace
}  // namespace gpuadvisor::server
