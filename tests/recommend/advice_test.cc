// Issue 29, items 3 and 4: every advice and warning line of a plan appears where its condition
// holds and never where it does not (independent replicas, short jobs, Neuron parts, zero-size
// checkpoints); the ordering, the tie-break towards smaller plans, and the default horizon.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::MakeWorkload;

using Fields = std::vector<std::pair<const char*, const char*>>;

Workload FromFields(const Fields& f) {
  Workload w;
  for (const auto& [k, v] : f) {
    Status s = GiveField(&w, k, v);
    EXPECT_TRUE(s.ok()) << k << ": " << s.ToString();
  }
  return w;
}

Recommendation Search(const Fields& fields, const std::vector<std::string>& only_instances,
                      const std::vector<PurchaseKind>& purchase = {},
                      std::optional<double> deadline_hours = std::nullopt) {
  RecommendRequest req;
  req.top = 20;
  req.only_instances = only_instances;
  req.purchase = purchase;
  req.deadline_hours = deadline_hours;
  req.savings_levers = false;
  req.all_sizes = true;  // each count a plan of its own: the situations pick by count
  Result<Recommendation> r = Recommend(testing::EmbeddedForTests(), FromFields(fields), req);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : Recommendation{};
}

bool Has(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

// One situation: a search pinned to some instance types, and the plan of it to look at.
struct Situation {
  const char* what;
  Fields workload;
  std::vector<std::string> only;
  std::vector<PurchaseKind> purchase;
  std::function<bool(const Plan&)> pick;  // the first plan it accepts is checked
};

// One line and where it must (applies) and must not (absent) appear.
struct LineCase {
  const char* line;  // the rule, as tests report it
  const char* text;  // a substring only that line has
  bool warning;      // in warnings, else advice
  std::vector<Situation> applies, absent;
};

const auto kAny = [](const Plan&) { return true; };
const auto kOne = [](const Plan& p) { return p.instances == 1; };
const auto kMany = [](const Plan& p) { return p.instances >= 2; };

const Fields kServe = {{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "20"}};
const Fields kPretrain = {{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "20B"}};
const Fields kVisionTrain = {
    {"task", "train-vision"}, {"model", "resnet50"}, {"images", "1281167"}, {"epochs", "90"}};
const Fields kUnet = {
    {"task", "train-vision"}, {"model", "unet3d"}, {"images", "168"}, {"epochs", "2000"}};
const Fields kShortVision = {
    {"task", "train-vision"}, {"model", "resnet50"}, {"images", "100000"}, {"epochs", "1"}};
const Fields kBatchInference = {
    {"task", "infer-vision"}, {"model", "resnet50"}, {"images", "100000000"}};

std::vector<LineCase> Cases() {
  const std::vector<PurchaseKind> spot = {PurchaseKind::kSpot};
  const std::vector<PurchaseKind> od = {PurchaseKind::kOnDemand};
  return {
      {"neuron-sdk",
       "runs models compiled with the AWS Neuron SDK",
       true,
       {{"Inferentia", kServe, {"inf2.xlarge", "inf2.8xlarge"}, od, kAny}},
       {{"GPU", kServe, {"g6e.xlarge"}, od, kAny}}},
      {"efa",
       "multi-node: enable EFA",
       false,
       {{"training over nodes", kPretrain, {"p4d.24xlarge"}, od, kMany}},
       {{"one instance", kPretrain, {"p4d.24xlarge"}, od, kOne},
        {"independent serving replicas",
         {{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "400"}},
         {"p4d.24xlarge"},
         od,
         kMany}}},
      {"no-efa",
       "has no EFA: inter-node traffic",
       true,
       {{"training over nodes", kVisionTrain, {"g5.xlarge"}, od, kMany}},
       {{"independent serving replicas", kServe, {"g5.xlarge"}, od, kMany},
        {"batch inference replicas", kBatchInference, {"g5.xlarge"}, od, kMany},
        {"one instance", kVisionTrain, {"g5.xlarge"}, od, kOne}}},
      {"storage (sized)",
       "storage: checkpoints of ~",
       false,
       {{"LLM training", kPretrain, {"p4d.24xlarge"}, od, kAny}},
       {{"zero-size checkpoint", kUnet, {"g6e.xlarge"}, od, kAny},
        {"serving", kServe, {"g6e.xlarge"}, od, kAny}}},
      {"storage",
       "storage: checkpoints",
       false,
       {{"vision training", kUnet, {"g6e.xlarge"}, od, kAny}},
       {{"serving", kServe, {"g6e.xlarge"}, od, kAny},
        {"batch inference", kBatchInference, {"g6e.xlarge"}, od, kAny}}},
      {"ami-neuron",
       "AWS Deep Learning AMI Neuron",
       false,
       {{"Inferentia", kServe, {"inf2.xlarge", "inf2.8xlarge"}, od, kAny}},
       {{"GPU", kServe, {"g6e.xlarge"}, od, kAny}}},
      {"ami-gpu",
       "AWS Deep Learning AMI (GPU",
       false,
       {{"GPU", kServe, {"g6e.xlarge"}, od, kAny}},
       {{"Inferentia", kServe, {"inf2.xlarge", "inf2.8xlarge"}, od, kAny},
        {"Trainium", kPretrain, {"trn1.32xlarge"}, od, kAny}}},
      {"monitoring-nvidia",
       "nvidia_gpu metrics",
       false,
       {{"GPU", kServe, {"g6e.xlarge"}, od, kAny}},
       {{"Inferentia", kServe, {"inf2.xlarge", "inf2.8xlarge"}, od, kAny},
        {"Trainium", kPretrain, {"trn1.32xlarge"}, od, kAny}}},
      {"monitoring-neuron",
       "neuron-monitor",
       false,
       {{"Trainium", kPretrain, {"trn1.32xlarge"}, od, kAny}},
       {{"GPU", kServe, {"g6e.xlarge"}, od, kAny}}},
      {"mixed-precision",
       "mixed precision (bf16/fp16)",
       false,
       {{"fp32 training",
         {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}, {"precision", "fp32"}},
         {"p4d.24xlarge"},
         od,
         kAny}},
       {{"bf16 training", kPretrain, {"p4d.24xlarge"}, od, kAny},
        {"fp32 on Trainium",
         {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}, {"precision", "fp32"}},
         {"trn1.32xlarge"},
         od,
         kAny}}},
      {"fp8",
       "FP8 training (TransformerEngine) is supported here",
       false,
       {{"bf16 on Hopper", kPretrain, {"p5.48xlarge"}, od, kAny}},
       {{"bf16 on Ampere", kPretrain, {"p4d.24xlarge"}, od, kAny},
        {"serving on Hopper", kServe, {"p5.4xlarge"}, od, kAny}}},
      {"large-cluster",
       "at once are rarely available",
       true,
       {{"8+ spot instances",
         kPretrain,
         {"p4d.24xlarge"},
         spot,
         [](const Plan& p) { return p.instances >= 8; }}},
       {{"under 8 instances",
         kPretrain,
         {"p4d.24xlarge"},
         spot,
         [](const Plan& p) { return p.instances < 8; }}}},
      {"spot-checkpoint",
       "spot: checkpoint about every",
       false,
       {{"long training on spot", kPretrain, {"p4d.24xlarge"}, spot, kAny}},
       {{"short training on spot", kShortVision, {"g6e.xlarge"}, spot, kAny},
        {"batch inference on spot", kBatchInference, {"g6e.xlarge"}, spot, kAny},
        {"on-demand", kPretrain, {"p4d.24xlarge"}, od, kAny}}},
      {"spot-short-run",
       "is shorter than a checkpoint interval",
       false,
       {{"short training on spot", kShortVision, {"g6e.xlarge"}, spot, kAny}},
       {{"long training on spot", kPretrain, {"p4d.24xlarge"}, spot, kAny},
        {"batch inference on spot", kBatchInference, {"g6e.xlarge"}, spot, kAny}}},
      {"spot-chunks",
       "restartable chunks",
       false,
       {{"batch inference on spot", kBatchInference, {"g6e.xlarge"}, spot, kAny}},
       {{"training on spot", kPretrain, {"p4d.24xlarge"}, spot, kAny},
        {"batch inference on demand", kBatchInference, {"g6e.xlarge"}, od, kAny}}},
      {"serving-autoscale",
       "serving: autoscale replicas",
       false,
       {{"serving", kServe, {"g6e.xlarge"}, od, kAny}},
       {{"training", kPretrain, {"p4d.24xlarge"}, od, kAny},
        {"batch inference", kBatchInference, {"g6e.xlarge"}, od, kAny}}},
  };
}

const Plan* Pick(const Recommendation& r, const Situation& s) {
  for (const Plan& p : r.plans) {
    if (s.pick(p)) return &p;
  }
  return nullptr;
}

TEST(AdviceRulesTest, EachLineAppearsWhereItAppliesAndNowhereElse) {
  for (const LineCase& c : Cases()) {
    for (bool expected : {true, false}) {
      for (const Situation& s : expected ? c.applies : c.absent) {
        SCOPED_TRACE(std::string(c.line) + (expected ? " applies: " : " absent: ") + s.what);
        const Recommendation r = Search(s.workload, s.only, s.purchase);
        const Plan* p = Pick(r, s);
        ASSERT_NE(p, nullptr) << "no plan for the situation";
        const std::vector<std::string>& lines = c.warning ? p->warnings : p->advice;
        EXPECT_EQ(Has(lines, c.text), expected)
            << p->type->name << " x " << p->instances << " " << PurchaseKindName(p->purchase);
      }
    }
  }
}

TEST(AdviceRulesTest, NoLineStatesAZeroSizedCheckpoint) {
  const Recommendation r = Search(kUnet, {});
  ASSERT_FALSE(r.plans.empty());
  for (const Plan& p : r.plans) EXPECT_FALSE(Has(p.advice, "~0.0 GiB")) << p.type->name;
}

// "the objective prefers this size" only on a plan ranked above its half-size version.
TEST(AdviceRulesTest, BindingLineNeverClaimsAPreferenceTheRankingContradicts) {
  int higher = 0;
  for (const Fields& f : {kUnet, kPretrain}) {
    const Recommendation r = Search(f, {});
    for (const Plan& p : r.plans) {
      for (const Plan& q : r.plans) {
        if (q.type != p.type || q.purchase != p.purchase || 2 * q.instances != p.instances) {
          continue;
        }
        if (q.rank < p.rank) {
          ++higher;
          EXPECT_FALSE(Has(p.why, "the objective prefers this size")) << p.type->name;
          EXPECT_TRUE(Has(p.why, "instance(s) rank higher")) << p.type->name;
        }
      }
    }
  }
  EXPECT_GE(higher, 1);  // the situation arises in these searches
}

TEST(AdviceRulesTest, SpotWithADeadlineStatesTheRiskOfMissingIt) {
  const Recommendation with = Search(kVisionTrain, {"g6e.xlarge"}, {PurchaseKind::kSpot}, 200);
  ASSERT_FALSE(with.plans.empty());
  for (const Plan& p : with.plans) {
    ASSERT_TRUE(p.deadline_miss_probability.has_value()) << p.type->name;
    EXPECT_TRUE(Has(p.why, "chance that interruptions") || Has(p.warnings, "chance that"));
  }
  const Recommendation without = Search(kVisionTrain, {"g6e.xlarge"}, {PurchaseKind::kSpot});
  ASSERT_FALSE(without.plans.empty());
  for (const Plan& p : without.plans) EXPECT_FALSE(p.deadline_miss_probability.has_value());
}

TEST(OrderingTest, TheAnswerSaysHowPlansAreOrdered) {
  const Recommendation r = Search(kUnet, {});
  EXPECT_NE(r.ordering.find("pessimistic end"), std::string::npos) << r.ordering;
  EXPECT_NE(r.ordering.find("within 5%"), std::string::npos) << r.ordering;
}

// A smaller plan (fewer instances, then fewer GPUs) never ranks below a bigger one that scores
// within 5 % of it: each place goes to the smallest plan within 5 % of the best remaining.
TEST(OrderingTest, SmallerPlansWinNearTies) {
  for (const Fields& f : {kUnet, kServe, kVisionTrain}) {
    RecommendRequest req;
    req.top = 30;
    req.savings_levers = false;
    Result<Recommendation> r = Recommend(testing::EmbeddedForTests(), FromFields(f), req);
    ASSERT_TRUE(r.ok());
    auto score = [](const Plan& p) { return p.cost_usd * p.risk_factor * p.price_risk_factor; };
    auto smaller = [](const Plan& a, const Plan& b) {
      return a.instances != b.instances ? a.instances < b.instances : a.gpus < b.gpus;
    };
    for (size_t i = 0; i < r->plans.size(); ++i) {
      for (size_t j = i + 1; j < r->plans.size(); ++j) {
        const Plan &a = r->plans[i], &b = r->plans[j];
        if (smaller(b, a)) {
          EXPECT_GT(score(b), score(a)) << a.type->name << " before " << b.type->name;
        }
        // Never ahead by more than the margin of a plan placed after it.
        EXPECT_LE(score(a), score(b) * 1.05 + 1e-9) << a.type->name << " before " << b.type->name;
      }
    }
  }
}

// A tiny job goes to an 8-GPU flagship over a single GPU only when the flagship wins by more than
// the tie margin at the pessimistic ends of their bands (a near-equal single GPU goes first).
TEST(OrderingTest, TinyJobIsNotSentToAnEightGpuFlagshipOverANearEqualSingleGpu) {
  const Recommendation r = Search(kUnet, {"p5en.48xlarge", "p5.48xlarge", "g6e.xlarge"});
  ASSERT_FALSE(r.plans.empty());
  auto score = [](const Plan& p) { return p.cost_usd * p.risk_factor * p.price_risk_factor; };
  const auto single =
      std::find_if(r.plans.begin(), r.plans.end(), [](const Plan& p) { return p.gpus == 1; });
  ASSERT_NE(single, r.plans.end());
  if (r.plans[0].gpus > 1) {
    EXPECT_GT(score(*single), score(r.plans[0]) * 1.05) << r.plans[0].type->name;
  }
}

TEST(HorizonTest, LongRunSaysItsDaysAndOffersAPlanWithinTheDefaultHorizon) {
  RecommendRequest req;
  Result<Recommendation> r = Recommend(
      testing::EmbeddedForTests(),
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1T"}}), req);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->horizon_hours.has_value());
  EXPECT_EQ(*r->horizon_hours, kDefaultHorizonHours);
  ASSERT_FALSE(r->plans.empty());
  ASSERT_GT(r->plans[0].time_hours, kDefaultHorizonHours);  // the situation of the issue
  EXPECT_TRUE(Has(r->plans[0].warnings, "past the 30-day default horizon"));
  EXPECT_TRUE(Has(r->plans[0].why, "days)"));  // "5759 h (240 days)"
  EXPECT_NE(r->horizon_note.find("best-ranked plan within it"), std::string::npos)
      << r->horizon_note;
  const Plan& within = r->plans.back();
  EXPECT_LE(within.time_hours, kDefaultHorizonHours);
  EXPECT_GT(within.rank, req.top);  // beyond the top five, with its own rank
  EXPECT_EQ(r->plans.size(), static_cast<size_t>(req.top) + 1);
}

TEST(HorizonTest, AGivenDeadlineIsTheHorizonAndStaysHard) {
  RecommendRequest req;
  req.deadline_hours = 60 * 24;
  Result<Recommendation> r = Recommend(
      testing::EmbeddedForTests(),
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1T"}}), req);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->horizon_hours.has_value());
  EXPECT_TRUE(r->horizon_note.empty());
  ASSERT_FALSE(r->plans.empty());
  EXPECT_LE(r->plans.size(), static_cast<size_t>(req.top));
  for (const Plan& p : r->plans) {
    EXPECT_LE(p.time_hours, *req.deadline_hours);
    EXPECT_FALSE(Has(p.warnings, "default horizon"));
  }
}

TEST(HorizonTest, ShortRunsAndServicesCarryNoHorizonNote) {
  const Recommendation shortrun = Search(kUnet, {});
  EXPECT_TRUE(shortrun.horizon_note.empty());
  for (const Plan& p : shortrun.plans) EXPECT_FALSE(Has(p.warnings, "default horizon"));
  const Recommendation service = Search(kServe, {});
  EXPECT_FALSE(service.horizon_hours.has_value());
}

}  // namespace
}  // namespace gpuadvisor
