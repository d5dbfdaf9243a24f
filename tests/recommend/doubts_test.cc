// Doubts, obtainability, one row per option and the named picks (issue 38; doc/recommend.md,
// "Doubts, obtainability and picks"), on the embedded catalog and the embedded Neuron list.
#include "recommend/doubts.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"
#include "workload/neuron_support.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;
using workload_internal::NeuronSupport;

Recommendation RunSearch(const Workload& w, RecommendRequest r = {}) {
  r.top = std::max(r.top, 10);
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, r);
  EXPECT_TRUE(rec.ok()) << rec.status().ToString();
  return rec.ok() ? std::move(rec).value() : Recommendation{};
}

bool IsNeuronPlan(const Plan& p) {
  const std::string& m = p.type->accelerator.model;
  return m.rfind("Trainium", 0) == 0 || m.rfind("Inferentia", 0) == 0;
}

bool Demoted(const Plan& p) {
  for (const Plan::Doubt& d : p.doubts) {
    if (d.demotes) return true;
  }
  return false;
}

bool HasDoubt(const Plan& p, const std::string& kind) {
  for (const Plan::Doubt& d : p.doubts) {
    if (d.kind == kind) return true;
  }
  return false;
}

const Recommendation::Pick* FindPick(const Recommendation& r, const std::string& name) {
  for (const Recommendation::Pick& k : r.picks) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

TEST(NeuronSupportTest, TheEmbeddedListParsesAndCoversEveryPreset) {
  Result<const workload_internal::NeuronSupportList*> list =
      workload_internal::EmbeddedNeuronSupportList();
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_FALSE((*list)->lists.empty());
  for (const auto& l : (*list)->lists) {
    EXPECT_EQ(l.url.rfind("https://", 0), 0u) << l.id;
    EXPECT_GE(l.date.size(), 7u) << l.id << ": a dated list";
  }
  std::set<std::string> listed;
  for (const auto& e : (*list)->presets) listed.insert(e.preset);
  for (const ModelPreset& p : ModelPresets()) {
    EXPECT_TRUE(listed.count(p.name)) << p.name << " has no verdict in data/neuron-support.json";
  }
}

TEST(NeuronSupportTest, AVerdictNamesItsListOrSaysItIsAPort) {
  Result<workload_internal::NeuronSupportList> list = workload_internal::ParseNeuronSupportList(
      R"({"lists": [{"id": "x", "title": "X list", "url": "https://x", "date": "2026-01"}],
          "presets": [{"preset": "m-a", "architecture": "llama", "train": "x", "infer": "x",
                       "note": ""},
                      {"preset": "m-b", "architecture": "3D U-Net", "train": null,
                       "infer": null, "note": "a custom CNN"}]})",
      "t.json");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  NeuronSupport a = workload_internal::LookUpNeuronSupport(*list, "m-a", TaskKind::kFinetune);
  EXPECT_EQ(a.level, NeuronSupport::Level::kSupported);
  EXPECT_NE(a.detail.find("X list"), std::string::npos) << a.detail;
  EXPECT_EQ(a.source.date, "2026-01");
  NeuronSupport b = workload_internal::LookUpNeuronSupport(*list, "m-b", TaskKind::kTrainVision);
  EXPECT_EQ(b.level, NeuronSupport::Level::kUnsupported);
  EXPECT_NE(b.detail.find("a port"), std::string::npos) << b.detail;
  EXPECT_NE(b.detail.find("a custom CNN"), std::string::npos) << b.detail;
  NeuronSupport c = workload_internal::LookUpNeuronSupport(*list, "", TaskKind::kServe);
  EXPECT_EQ(c.level, NeuronSupport::Level::kUnknown);
}

TEST(NeuronSupportTest, ABadListNamesThePath) {
  Result<workload_internal::NeuronSupportList> bad = workload_internal::ParseNeuronSupportList(
      R"({"lists": [], "presets": [{"preset": "m", "architecture": "a", "train": "nope",
                                    "note": ""}]})",
      "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.json: $.presets[0]"), std::string::npos)
      << bad.status().message();
  Result<workload_internal::NeuronSupportList> twice = workload_internal::ParseNeuronSupportList(
      R"({"lists": [], "presets": [{"preset": "m", "architecture": "a", "note": ""},
                                   {"preset": "m", "architecture": "a", "note": ""}]})",
      "t.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("given twice"), std::string::npos);
}

// A 3D U-Net is on no Neuron list: the Trainium plans are ports, doubted and ranked after every
// GPU plan; with --risk any the cheapest at any risk comes first again, its doubt still said.
TEST(DoubtsTest, AnUnsupportedNeuronPortRanksAfterEveryGpuPlan) {
  const Workload w = MakeWorkload(
      {{"task", "train-vision"}, {"model", "unet3d"}, {"images", "168"}, {"epochs", "2000"}});
  const Recommendation sound = RunSearch(w);
  ASSERT_FALSE(sound.plans.empty());
  EXPECT_FALSE(IsNeuronPlan(sound.plans[0])) << sound.plans[0].type->name;
  // A cheaper doubted plan exists: #1 does not claim to be the cheapest of all.
  ASSERT_FALSE(sound.plans[0].why.empty());
  EXPECT_EQ(sound.plans[0].why[0].rfind("cheapest plan without a doubt that fits", 0), 0u)
      << sound.plans[0].why[0];
  bool seen_doubted = false;
  for (const Plan& p : sound.plans) {
    if (IsNeuronPlan(p)) {
      EXPECT_TRUE(HasDoubt(p, "portability")) << p.type->name;
    }
    if (Demoted(p)) seen_doubted = true;
    if (seen_doubted) {
      EXPECT_TRUE(Demoted(p)) << "a sound plan after a doubted one: " << p.rank;
    }
  }
  RecommendRequest any;
  any.risk = Risk::kAny;
  const Recommendation risky = RunSearch(w, any);
  ASSERT_FALSE(risky.plans.empty());
  EXPECT_TRUE(IsNeuronPlan(risky.plans[0])) << risky.plans[0].type->name;
  EXPECT_TRUE(HasDoubt(risky.plans[0], "portability"));
  const Recommendation::Pick* cheapest = FindPick(sound, "cheapest-any-risk");
  ASSERT_NE(cheapest, nullptr);
  EXPECT_EQ(cheapest->plan.type, risky.plans[0].type);
  const Recommendation::Pick* first = FindPick(sound, "cheapest-sound");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->rank, 1);
  EXPECT_EQ(first->plan.type, sound.plans[0].type);
}

// Gemma-2 is on no Neuron inference list, though serving on Inferentia2 is measured (a high- or
// medium-confidence estimate): the port alone demotes the Neuron plans.
TEST(DoubtsTest, AnUnlistedModelIsAPortEvenWhereTheEstimateIsConfident) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "gemma-2-9b"}, {"rps", "1"}});
  RecommendRequest any;
  any.risk = Risk::kAny;
  const Recommendation risky = RunSearch(w, any);
  const auto neuron = std::find_if(risky.plans.begin(), risky.plans.end(),
                                   [](const Plan& p) { return IsNeuronPlan(p); });
  ASSERT_NE(neuron, risky.plans.end()) << "no Inferentia2 plan at any risk";
  EXPECT_NE(neuron->estimate.confidence, Confidence::kLow);
  EXPECT_TRUE(HasDoubt(*neuron, "portability"));
  const Recommendation sound = RunSearch(w);
  ASSERT_FALSE(sound.plans.empty());
  EXPECT_FALSE(IsNeuronPlan(sound.plans[0])) << sound.plans[0].type->name;
}

// Llama is on the Neuron training list: a Trainium fine-tune is not doubted for portability.
TEST(DoubtsTest, ASupportedArchitectureIsNoPortabilityDoubt) {
  const Recommendation r = RunSearch(MakeWorkload(
      {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}, {"epochs", "3"}}));
  bool trainium = false;
  for (const Plan& p : r.plans) {
    if (p.type->accelerator.model != "Trainium") continue;
    trainium = true;
    EXPECT_FALSE(HasDoubt(p, "portability")) << p.type->name;
  }
  EXPECT_TRUE(trainium) << "no Trainium plan in the top 10";
}

// 32 spot p6-b200 for three weeks: rarely granted and a multi-day spot gang; #1 is a plan the
// engine does not doubt (a Capacity Block or a smaller cluster), and it says the odds.
TEST(DoubtsTest, ALargeSpotClusterIsNotNumberOne) {
  RecommendRequest req;
  req.deadline_hours = 30 * 24;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), req);
  ASSERT_FALSE(r.plans.empty());
  const Plan& top = r.plans[0];
  EXPECT_FALSE(Demoted(top)) << top.type->name << " x " << top.instances << " "
                             << PurchaseKindName(top.purchase);
  EXPECT_GE(top.obtain_probability, recommend_internal::kLikelyObtainable);
  EXPECT_FALSE(top.obtain_basis.empty());
  for (const Plan& p : r.plans) {
    if (p.purchase == PurchaseKind::kSpot && p.instances >= recommend_internal::kLargeCluster) {
      EXPECT_TRUE(HasDoubt(p, "capacity") || HasDoubt(p, "spot-gang")) << p.type->name;
    }
  }
}

// Two spot instances training together for weeks: each interruption stops both. Doubted (and
// only that: two instances are no large cluster), and so never #1 under risk "sound".
TEST(DoubtsTest, AMultiDaySpotGangIsDoubted) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "100B"}});
  RecommendRequest any;
  any.risk = Risk::kAny;
  any.all_sizes = true;
  any.purchase = {PurchaseKind::kSpot, PurchaseKind::kOnDemand};
  const Recommendation r = RunSearch(w, any);
  int gangs = 0;
  for (const Plan& p : r.plans) {
    const bool gang = p.purchase == PurchaseKind::kSpot && p.instances >= 2 &&
                      p.time_hours > recommend_internal::kSpotGangHours;
    EXPECT_EQ(HasDoubt(p, "spot-gang"), gang) << p.type->name << " x " << p.instances;
    gangs += gang;
  }
  EXPECT_GE(gangs, 1) << "no multi-day spot gang among the plans";
  RecommendRequest sound = any;
  sound.risk = Risk::kSound;
  const Recommendation s = RunSearch(w, sound);
  ASSERT_FALSE(s.plans.empty());
  EXPECT_FALSE(HasDoubt(s.plans[0], "spot-gang"));
}

// One row per option: no two rows share family, purchase and accelerators per instance, and the
// folded counts are listed under their row.
TEST(DoubtsTest, OneRowPerOptionWithItsSweepFolded) {
  const Recommendation r = RunSearch(MakeWorkload(
      {{"task", "train-vision"}, {"model", "retinanet"}, {"images", "1.7M"}, {"epochs", "10"}}));
  std::set<std::tuple<std::string, PurchaseKind, int>> seen;
  bool folded = false;
  for (const Plan& p : r.plans) {
    EXPECT_TRUE(seen.insert({p.type->family, p.purchase, p.type->accelerator.devices()}).second)
        << p.type->name << " x " << p.instances << " repeats an option";
    for (const Plan::SweepPoint& s : p.sweep) {
      folded = true;
      EXPECT_EQ(s.type->family, p.type->family);
      EXPECT_FALSE(s.type == p.type && s.instances == p.instances);
    }
  }
  EXPECT_TRUE(folded);
}

// AWS China publishes no spot prices: a batch plan there says, in its row, that spot was not
// compared; in us-east-1 (spot priced) it does not.
TEST(DoubtsTest, ARegionWithoutSpotPricesSaysSoInThePlan) {
  const Workload w = MakeWorkload(
      {{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1.28M"}, {"epochs", "1"}});
  RecommendRequest cn;
  cn.regions = {"cn-north-1"};
  const Recommendation r = RunSearch(w, cn);
  ASSERT_FALSE(r.plans.empty());
  bool said = false;
  for (const Plan::Doubt& d : r.plans[0].doubts) {
    said |= d.kind == "price" && !d.demotes && d.detail.find("no spot price") != std::string::npos;
  }
  EXPECT_TRUE(said);
  const Recommendation us = RunSearch(w);
  ASSERT_FALSE(us.plans.empty());
  for (const Plan::Doubt& d : us.plans[0].doubts) {
    EXPECT_EQ(d.detail.find("no spot price"), std::string::npos) << d.detail;
  }
}

// A bf16 checkpoint on a GPU without bf16 (T4) is doubted and demoted; a precision the user
// chose is theirs, and a GPU with bf16 carries no such doubt.
TEST(DoubtsTest, AnLlmOnAGpuWithoutBf16IsDoubted) {
  const Workload w = MakeWorkload(
      {{"task", "serve"}, {"model", "mixtral-8x7b"}, {"rps", "4"}, {"ttft-p95", "500ms"}});
  const Recommendation r = RunSearch(w);
  ASSERT_FALSE(r.plans.empty());
  EXPECT_NE(r.plans[0].type->accelerator.model, "T4");
  for (const Plan& p : r.plans) {
    const bool t4 = p.type->accelerator.model == "T4";
    EXPECT_EQ(HasDoubt(p, "precision"), t4) << p.type->name;
    if (t4) {
      EXPECT_TRUE(Demoted(p));
    }
  }
  RecommendRequest only_t4;
  only_t4.only_gpus = {"T4"};
  const Recommendation t4 = RunSearch(w, only_t4);
  ASSERT_FALSE(t4.plans.empty());
  EXPECT_TRUE(HasDoubt(t4.plans[0], "precision"));
  Workload fp16 = w;
  fp16.precision = Precision::kFp16;
  const Recommendation chosen = RunSearch(fp16, only_t4);
  ASSERT_FALSE(chosen.plans.empty());
  EXPECT_FALSE(HasDoubt(chosen.plans[0], "precision"));
}

// The expected wait for capacity (issue 38, item 2): a geometric count of refused attempts at
// the plan's probability, plus a Capacity Block's wait for its start date; it counts against a
// deadline.
TEST(DoubtsTest, TheExpectedWaitForCapacityCountsAgainstTheDeadline) {
  recommend_internal::Candidate c;
  c.purchase = PurchaseKind::kOnDemand;
  c.obtain = 0.95;
  EXPECT_NEAR(recommend_internal::ExpectedWait(c).hours, 0.05 / 0.95, 1e-12);
  c.purchase = PurchaseKind::kSpot;
  c.obtain = 0.1;  // a large spot cluster: nine refusals expected, an hour apart
  EXPECT_NEAR(recommend_internal::ExpectedWait(c).hours, 9, 1e-12);
  c.purchase = PurchaseKind::kCapacityBlock;
  c.obtain = 0.9;
  EXPECT_NEAR(recommend_internal::ExpectedWait(c).hours, 12 + 0.1 / 0.9 * 24, 1e-12);

  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}});
  RecommendRequest r;
  r.deadline_hours = 720;
  const Recommendation wide = RunSearch(w, r);
  ASSERT_FALSE(wide.plans.empty());
  const Plan& first = wide.plans[0];
  ASSERT_EQ(first.purchase, PurchaseKind::kCapacityBlock);
  EXPECT_GT(first.wait_hours, 12);
  EXPECT_NE(first.wait_basis.find("Capacity Block"), std::string::npos);
  // A deadline between the run alone and the run with its wait leaves that plan out.
  r.deadline_hours = first.time_hours + first.wait_hours / 2;
  const Recommendation tight = RunSearch(w, r);
  for (const Plan& p : tight.plans) {
    EXPECT_LE(p.time_hours + p.wait_hours, *r.deadline_hours) << p.type->name;
    EXPECT_FALSE(p.type == first.type && p.instances == first.instances &&
                 p.purchase == first.purchase && p.region == first.region);
  }
}

// Each doubt is named where it applies even when another one would demote the plan too (fp16
// given, so that a T4's missing bf16 is no doubt here): an Arm64 host for training, and a wide
// gang over ENA.
TEST(DoubtsTest, AnArmTrainingHostAndAWideGangWithoutEfaAreEachDoubted) {
  Workload arm = MakeWorkload({{"task", "lora"}, {"model", "llama-3.2-1b"}, {"tokens", "10M"}});
  arm.precision = Precision::kFp16;
  RecommendRequest g5g;
  g5g.only_families = {"g5g"};
  const Recommendation a = RunSearch(arm, g5g);
  ASSERT_FALSE(a.plans.empty());
  for (const Plan& p : a.plans) {
    EXPECT_TRUE(HasDoubt(p, "portability")) << p.type->name;
    EXPECT_TRUE(Demoted(p)) << p.type->name;
  }
  Workload wide = MakeWorkload(
      {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}, {"epochs", "3"}});
  wide.precision = Precision::kFp16;
  RecommendRequest t4;
  t4.only_instances = {"g4dn.xlarge"};
  const Recommendation w = RunSearch(wide, t4);
  ASSERT_FALSE(w.plans.empty());
  for (const Plan& p : w.plans) {
    EXPECT_EQ(HasDoubt(p, "network"), p.instances >= recommend_internal::kWideGang) << p.instances;
  }
  EXPECT_TRUE(HasDoubt(w.plans[0], "network"));
}

TEST(DoubtsTest, TheRiskOptionParsesItsTwoNames) {
  EXPECT_EQ(*ParseRisk("Sound"), Risk::kSound);
  EXPECT_EQ(*ParseRisk("any"), Risk::kAny);
  Result<Risk> bad = ParseRisk("yolo");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("sound, any"), std::string::npos);
}

// A plan on an accelerated family names the vCPU quota it draws on, which AWS sets to 0 on a new
// account: the first P-instance launch waits for a quota increase.
TEST(DoubtsTest, AnAcceleratedPlanNamesTheQuotaANewAccountLacks) {
  const Workload w =
      MakeWorkload({{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}});
  RecommendRequest r;
  r.only_instances = {"p5.48xlarge"};
  r.purchase = {PurchaseKind::kOnDemand};
  const Recommendation rec = RunSearch(w, r);
  ASSERT_FALSE(rec.plans.empty());
  const Plan& p = rec.plans[0];
  EXPECT_NE(p.obtain_basis.find("\"Running On-Demand P instances\" quota (L-417A185B)"),
            std::string::npos)
      << p.obtain_basis;
  EXPECT_NE(p.obtain_basis.find(std::to_string(p.instances * p.type->vcpus) + " vCPUs"),
            std::string::npos)
      << p.obtain_basis;
}

}  // namespace
}  // namespace gpuadvisor
