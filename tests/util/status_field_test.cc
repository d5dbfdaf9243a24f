// Status::field(): the offending input as data (issue 18). The front ends (HTTP "field", Python
// `field`) read it instead of parsing messages, so every library site that reports a bad input
// must set it; the table below goes through the public API and fails when one loses it.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/launch.h"
#include "gpuadvisor/purchase.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/simulate.h"
#include "gpuadvisor/status.h"
#include "gpuadvisor/telemetry.h"
#include "gpuadvisor/workload.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

const Catalog& C() { return **EmbeddedCatalog(); }

TEST(StatusFieldTest, WithFieldKeepsCodeAndMessage) {
  const Status s = Status::InvalidArgument("min-gpus: expected an integer").WithField("min-gpus");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "min-gpus: expected an integer");
  EXPECT_EQ(s.field(), "min-gpus");
  EXPECT_EQ(Status::NotFound("x").field(), "");
  EXPECT_EQ(s.WithField("count").field(), "count");  // the last one wins
}

TEST(StatusFieldTest, WithPrefixKeepsTheField) {
  const Status s = Status::ParseError("tokens: bad").WithField("tokens").WithPrefix("job.yaml:3");
  EXPECT_EQ(s.message(), "job.yaml:3: tokens: bad");
  EXPECT_EQ(s.field(), "tokens");
  EXPECT_EQ(s.code(), StatusCode::kParseError);
  EXPECT_EQ(Status::IOError("x").WithPrefix("p").field(), "");
}

TEST(StatusFieldTest, OkStaysOk) {
  EXPECT_TRUE(Status::OK().WithField("gpu").ok());
  EXPECT_EQ(Status::OK().WithField("gpu").field(), "");
  EXPECT_EQ(Status::OK().WithField("gpu").message(), "");
  EXPECT_TRUE(Status::OK().WithPrefix("x").ok());
}

Status WorkloadError(std::initializer_list<std::pair<const char*, const char*>> fields) {
  Workload w;
  for (const auto& [k, v] : fields) GPUADVISOR_RETURN_IF_ERROR(GiveField(&w, k, v));
  return Validate(w);
}

template <typename T>
Status StatusOf(const Result<T>& r) {
  return r.status();
}

template <typename T>
T Make(const std::function<void(T&)>& set) {
  T t;
  set(t);
  return t;
}

Status HardwareError(const std::function<void(HardwareRequest&)>& set) {
  return StatusOf(ResolveHardware(C(), Make(set)));
}

Status PricingError(const std::function<void(UsagePattern&)>& set,
                    const std::string& region = "us-east-1") {
  return StatusOf(PriceUsage(*C().FindInstanceType("p4d.24xlarge"), region, Make(set)));
}

Status LaunchError(const std::function<void(LaunchRequest&)>& set) {
  LaunchRequest r;
  r.instance_type = "g6e.xlarge";
  set(r);
  return StatusOf(PlanLaunch(C(), r));
}

Status PlanError(std::string_view json, int rank = 1) {
  LaunchRequest r;
  return ReadPlanJson(json, "plan.json", rank, &r);
}

Status InventoryError(std::string_view csv) {
  return StatusOf(ParseInventoryCsv(C(), csv, "hosts.csv"));
}

Status QueryError(const std::function<void(InstanceQuery&)>& set) {
  return StatusOf(QueryInstances(C(), Make(set)));
}

Status RecommendError(const std::function<void(RecommendRequest&)>& set) {
  Workload w;
  EXPECT_TRUE(GiveField(&w, "task", "serve").ok());
  EXPECT_TRUE(GiveField(&w, "model", "llama-3.1-8b").ok());
  return StatusOf(Recommend(C(), w, Make(set)));
}

Status SimulateError(const std::function<void(ScalingPolicy&)>& set) {
  Result<Trace> t = DiurnalTrace(10, 1, 1, 300);
  EXPECT_TRUE(t.ok());
  FleetCosts c;
  c.capacity_rps = 5;
  c.on_demand_per_hour = Money(1, Currency::kUsd);
  return StatusOf(SimulateFleet(*t, c, Make(set), 1, false));
}

struct Case {
  const char* what;
  std::function<Status()> run;
  const char* field;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      // Workload fields: the key as WorkloadFields names it.
      {"unknown workload field", [] { return WorkloadError({{"tokenz", "1B"}}); }, "tokenz"},
      {"unknown field, underscores", [] { return WorkloadError({{"input_tokenz", "1"}}); },
       "input-tokenz"},
      {"bad number", [] { return WorkloadError({{"tokens", "-5"}}); }, "tokens"},
      {"bad integer, underscore key", [] { return WorkloadError({{"input_tokens", "abc"}}); },
       "input-tokens"},
      {"bad duration", [] { return WorkloadError({{"hours", "soon"}}); }, "hours"},
      {"bad choice", [] { return WorkloadError({{"precision", "fp7"}}); }, "precision"},
      {"bad family", [] { return WorkloadError({{"family", "rnn"}}); }, "family"},
      {"bad zero stage", [] { return WorkloadError({{"zero", "4"}}); }, "zero"},
      {"unknown preset", [] { return WorkloadError({{"model", "llama-3.1-8"}}); }, "model"},
      {"missing config file",
       [] { return WorkloadError({{"model-config", "/nonexistent/config.json"}}); },
       "model-config"},
      // Workload files: "job.yaml:3: key: ..." names the key; the document as a whole
      // "workload".
      {"yaml bad value",
       [] {
         return StatusOf(
             ParseWorkloadText("task: serve\nmodel: llama-3.1-8b\ninput-tokens: abc\n", "j.yaml"));
       },
       "input-tokens"},
      {"yaml model subkey",
       [] { return StatusOf(ParseWorkloadText("model:\n  name: nope-7b\n", "j.yaml")); }, "model"},
      {"yaml list value", [] { return StatusOf(ParseWorkloadText("tp: [1, 2]\n", "j.yaml")); },
       "tp"},
      {"yaml syntax", [] { return StatusOf(ParseWorkloadText("a: [1\n", "j.yaml")); }, "workload"},
      {"json object value",
       [] { return StatusOf(ParseWorkloadText(R"({"tokens": {"a": 1}})", "j.json")); }, "tokens"},
      {"json array value",
       [] { return StatusOf(ParseWorkloadJsonInline(R"({"seq_len": [1]})", "body")); }, "seq-len"},
      {"json not an object", [] { return StatusOf(ParseWorkloadJson("[1]", "j.json")); },
       "workload"},
      {"json number beyond a double",
       [] { return StatusOf(ParseWorkloadJsonInline(R"({"rps": 1e999})", "body")); }, "rps"},
      {"json syntax", [] { return StatusOf(ParseWorkloadJson(R"({"rps": })", "j.json")); },
       "workload"},
      {"inline config path",
       [] { return StatusOf(ParseWorkloadJsonInline(R"({"hf_config": "/etc/x"})", "body")); },
       "hf-config"},
      // Validate(): the contradicting field.
      {"heads do not divide hidden",
       [] {
         return WorkloadError({{"task", "pretrain"},
                               {"layers", "32"},
                               {"hidden", "4096"},
                               {"heads", "30"},
                               {"vocab", "32000"},
                               {"tokens", "1B"}});
       },
       "heads"},
      {"training without tokens",
       [] { return WorkloadError({{"task", "pretrain"}, {"model", "llama-3.1-8b"}}); }, "tokens"},
      {"beyond any real workload",
       [] {
         return WorkloadError(
             {{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "2e18"}});
       },
       "tokens"},
      {"prompt over the context window",
       [] {
         return WorkloadError(
             {{"task", "serve"}, {"model", "llama-3.1-8b"}, {"input-tokens", "200000"}});
       },
       "input-tokens"},
      {"transcode without streams", [] { return WorkloadError({{"task", "transcode"}}); },
       "streams"},
      // Hardware.
      {"unknown gpu", [] { return HardwareError([](auto& r) { r.gpu = "H1000"; }); }, "gpu"},
      {"unknown instance",
       [] { return HardwareError([](auto& r) { r.instance_type = "p5.48xlarg"; }); }, "instance"},
      {"count out of range",
       [] {
         return HardwareError([](auto& r) {
           r.gpu = "H100";
           r.gpus = -1;
         });
       },
       "gpus"},
      {"count without instance",
       [] {
         return HardwareError([](auto& r) {
           r.instances = 2;
           r.gpu = "H100";
         });
       },
       "count"},
      {"gpus not a multiple",
       [] {
         return HardwareError([](auto& r) {
           r.instance_type = "p5.48xlarge";
           r.gpus = 3;
         });
       },
       "gpus"},
      {"bad region",
       [] {
         return HardwareError([](auto& r) {
           r.gpu = "H100";
           r.region = "us-est-1";
         });
       },
       "region"},
      {"no hardware", [] { return HardwareError([](auto&) {}); }, "hardware"},
      // Catalog queries.
      {"CheckRegion names its what", [] { return CheckRegion(C(), "mars-1", "regions"); },
       "regions"},
      {"ResolveInstanceType", [] { return StatusOf(ResolveInstanceType(C(), "p5.48xlarg")); },
       "type"},
      {"ResolveGpu", [] { return StatusOf(ResolveGpu(C(), "H1000")); }, "gpu"},
      {"query: unknown sort", [] { return QueryError([](auto& r) { r.sort = "price:up"; }); },
       "sort"},
      {"query: unknown family", [] { return QueryError([](auto& r) { r.families = {"zz9"}; }); },
       "family"},
      {"query: unknown gpu", [] { return QueryError([](auto& r) { r.gpus = {"H1000"}; }); }, "gpu"},
      {"query: min over max",
       [] {
         return QueryError([](auto& r) {
           r.min_gpus = 8;
           r.max_gpus = 1;
         });
       },
       "min-gpus"},
      {"ParsePurchaseKind drops dashes",
       [] { return StatusOf(ParsePurchaseKind("lease", "purchase", AllPurchaseKinds())); },
       "purchase"},
      {"ParsePurchaseKinds",
       [] { return StatusOf(ParsePurchaseKinds("spot,lease", "purchase", AllPurchaseKinds())); },
       "purchase"},
      // Pricing.
      {"pricing: months", [] { return PricingError([](auto& r) { r.months = 0; }); }, "months"},
      {"pricing: hours", [] { return PricingError([](auto& r) { r.hours_per_month = 800; }); },
       "hours-per-month"},
      {"pricing: count", [] { return PricingError([](auto& r) { r.instances = 0; }); }, "count"},
      {"pricing: storage", [] { return PricingError([](auto& r) { r.storage_gbyte_s = 5000; }); },
       "storage-gbyte-s"},
      {"pricing: region", [] { return PricingError([](auto&) {}, "mars-1"); }, "region"},
      // Launch and plan files.
      {"launch: unknown type",
       [] { return LaunchError([](auto& r) { r.instance_type = "g6e.xlarg"; }); }, "type"},
      {"launch: count", [] { return LaunchError([](auto& r) { r.count = 0; }); }, "count"},
      {"launch: region", [] { return LaunchError([](auto& r) { r.region = "mars-1"; }); },
       "region"},
      {"launch: name", [] { return LaunchError([](auto& r) { r.name = "a b"; }); }, "name"},
      {"plan: not JSON", [] { return PlanError("{bad"); }, "plan"},
      {"plan: not a plan", [] { return PlanError(R"({"x":1})"); }, "plan"},
      {"plan: bad purchase",
       [] { return PlanError(R"({"instance_type":"g6e.xlarge","purchase":"lease"})"); }, "plan"},
      {"plan: rank", [] { return PlanError(R"({"plans":[{"instance_type":"g6e.xlarge"}]})", 3); },
       "rank"},
      // Recommend.
      {"recommend: max-instances",
       [] { return RecommendError([](auto& r) { r.max_instances = 0; }); }, "max-instances"},
      {"recommend: regions", [] { return RecommendError([](auto& r) { r.regions = {"mars-1"}; }); },
       "regions"},
      {"recommend: only-family",
       [] { return RecommendError([](auto& r) { r.only_families = {"p9"}; }); }, "only-family"},
      {"recommend: exclude-family",
       [] { return RecommendError([](auto& r) { r.exclude_families = {"p9"}; }); },
       "exclude-family"},
      {"recommend: only-gpu",
       [] { return RecommendError([](auto& r) { r.only_gpus = {"H1000"}; }); }, "only-gpu"},
      {"recommend: exclude-gpu",
       [] { return RecommendError([](auto& r) { r.exclude_gpus = {"H1000"}; }); }, "exclude-gpu"},
      {"recommend: only-instance",
       [] { return RecommendError([](auto& r) { r.only_instances = {"p5.48xlarg"}; }); },
       "only-instance"},
      {"recommend: exclude-instance",
       [] { return RecommendError([](auto& r) { r.exclude_instances = {"p5.48xlarg"}; }); },
       "exclude-instance"},
      // Inventories, traces, telemetry options, the catalog.
      {"inventory: unknown type",
       [] { return InventoryError("hostname,instance_type\na,p5.48xlarg\n"); }, "inventory"},
      {"inventory: missing column", [] { return InventoryError("host,type\n"); }, "inventory"},
      {"inventory: bad purchase",
       [] { return InventoryError("hostname,instance_type,purchase\na,p5.48xlarge,lease\n"); },
       "inventory"},
      {"inventory: empty", [] { return InventoryError(""); }, "inventory"},
      {"trace: bad rate",
       [] { return StatusOf(ParseTraceCsv("timestamp,requests_per_s\n0,x\n", "t.csv")); }, "trace"},
      {"simulate: target", [] { return SimulateError([](auto& r) { r.target_utilization = 2; }); },
       "target-utilization"},
      {"simulate: max instances",
       [] { return SimulateError([](auto& r) { r.max_instances = 0; }); }, "max-instances"},
      {"simulate: boot time", [] { return SimulateError([](auto& r) { r.boot_s = -1; }); },
       "boot-time"},
      {"telemetry: columns without utilisation",
       [] {
         TelemetryOptions o;
         o.format = TelemetryFormat::kNvidiaSmiCsv;
         o.columns = {"timestamp", "index"};
         return StatusOf(ReadTelemetryText("2026/07/03 08:00:00.000, 0\n", "smi.csv", o,
                                           [](const TelemetrySample&) { return Status::OK(); }));
       },
       "columns"},
      {"catalog: malformed", [] { return StatusOf(ParseCatalogJson("{", "c.json")); }, "catalog"},
      {"catalog: missing file",
       [] { return StatusOf(LoadCatalogFile("/nonexistent/catalog.json")); }, "catalog"},
  };
  return cases;
}

TEST(StatusFieldTest, EveryBadInputNamesItsField) {
  for (const Case& c : Cases()) {
    const Status s = c.run();
    EXPECT_FALSE(s.ok()) << c.what;
    EXPECT_EQ(s.field(), c.field) << c.what << ": " << s.ToString();
  }
}

// Setting the field changed no message: the front ends and the CLI tests compare them.
TEST(StatusFieldTest, MessagesAreUnchanged) {
  EXPECT_EQ(WorkloadError({{"tokens", "-5"}}).message(),
            "tokens: expected a positive number, got \"-5\"");
  EXPECT_EQ(HardwareError([](auto& r) {
              r.instances = 2;
              r.gpu = "H100";
            }).message(),
            "count: needs --instance TYPE");
  EXPECT_EQ(CheckRegion(C(), "mars-1", "regions").message().rfind("regions: unknown region", 0),
            0u);
  EXPECT_EQ(WorkloadError({{"task", "pretrain"}, {"model", "llama-3.1-8b"}}).message(),
            "tokens: required for training (e.g. --tokens 2T)");
  EXPECT_EQ(QueryError([](auto& r) {
              r.min_gpus = 8;
              r.max_gpus = 1;
            }).message(),
            "min-gpus: greater than max-gpus");
  const Status yaml = StatusOf(
      ParseWorkloadText("task: serve\nmodel: llama-3.1-8b\ninput-tokens: abc\n", "j.yaml"));
  EXPECT_EQ(yaml.message().rfind("j.yaml:3: input-tokens: ", 0), 0u) << yaml.message();
}

}  // namespace
}  // namespace gpuadvisor
