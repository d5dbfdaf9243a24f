// The judgements an experienced buyer would make (issue 4), on the embedded catalog.
#include "gpuadvisor/recommend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "app/requests.h"
#include "gpuadvisor/cost.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

Recommendation RunSearch(const Workload& w, RecommendRequest r = {}) {
  r.top = std::max(r.top, 10);
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, r);
  EXPECT_TRUE(rec.ok()) << rec.status().ToString();
  return rec.ok() ? std::move(rec).value() : Recommendation{};
}

std::set<std::string> Models(const Recommendation& r) {
  std::set<std::string> m;
  for (const Plan& p : r.plans) m.insert(p.type->accelerator.model);
  for (const Plan& p : r.pareto) m.insert(p.type->accelerator.model);
  return m;
}

TEST(RecommendTest, SmallModelAtLowRateLandsOnOneCheapInferenceDevice) {
  const Recommendation r = RunSearch(MakeWorkload({{"task", "serve"},
                                                   {"model", "llama-3.1-8b"},
                                                   {"rps", "0.5"},
                                                   {"input-tokens", "500"},
                                                   {"output-tokens", "200"}}));
  ASSERT_FALSE(r.plans.empty());
  const Plan& best = r.plans[0];
  EXPECT_EQ(best.instances, 1);
  EXPECT_LE(best.gpus, 1);
  EXPECT_LT(best.usd_per_hour, 2.0);
  EXPECT_NE(best.type->family[0], 'p') << best.type->name;
  for (const Plan& p : r.plans) EXPECT_TRUE(p.fits);
}

TEST(RecommendTest, LargePretrainingWithADeadlineLandsOnManyHopperOrBlackwellNodesWithEfa) {
  RecommendRequest req;
  req.deadline_hours = 30 * 24;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), req);
  ASSERT_FALSE(r.plans.empty());
  const std::set<std::string> big = {"H100", "H200", "B200", "B300", "Trainium2"};
  const Plan& best = r.plans[0];
  EXPECT_TRUE(big.count(best.type->accelerator.model)) << best.type->name;
  EXPECT_GE(best.instances, 8);
  EXPECT_LE(best.time_hours, 30 * 24);
  bool efa = false;
  for (const std::string& a : best.advice) efa = efa || a.find("EFA") != std::string::npos;
  EXPECT_TRUE(efa);
  for (const Plan& p : r.plans) EXPECT_LE(p.time_hours, 30 * 24);
}

TEST(RecommendTest, Fp64NeverLandsOnWeakFp64Gpus) {
  const Recommendation r =
      RunSearch(MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e19"}, {"working-set-gib", "100"}}));
  ASSERT_FALSE(r.plans.empty());
  for (const std::string& m : Models(r)) {
    EXPECT_TRUE(m != "L4" && m != "A10G" && m != "L40S" && m != "T4") << m;
  }
}

TEST(RecommendTest, TranscodingNeverLandsOnComputeGpusWithoutNvenc) {
  const Recommendation r =
      RunSearch(MakeWorkload({{"task", "transcode"}, {"streams", "200"}, {"codec", "h264"}}));
  ASSERT_FALSE(r.plans.empty());
  for (const std::string& m : Models(r)) {
    EXPECT_TRUE(m.rfind("A100", 0) != 0 && m != "H100" && m != "H200") << m;
  }
  bool says_why = false;
  for (const Rejection& x : r.rejected) {
    says_why = says_why ||
               (x.instance_type.rfind("p5", 0) == 0 && x.reason.find("NVENC") != std::string::npos);
  }
  EXPECT_TRUE(says_why);
}

TEST(RecommendTest, Bf16TrainingNeverLandsOnT4OrV100) {
  RecommendRequest req;
  req.allow_retired = true;  // p3 (V100) too
  const Recommendation r = RunSearch(MakeWorkload({{"task", "finetune"},
                                                   {"model", "llama-3.2-1b"},
                                                   {"tokens", "100M"},
                                                   {"precision", "bf16"}}),
                                     req);
  ASSERT_FALSE(r.plans.empty());
  for (const std::string& m : Models(r)) {
    EXPECT_TRUE(m != "T4" && m.rfind("V100", 0) != 0 && m != "T4G") << m;
  }
}

TEST(RecommendTest, MaxInstancesAndMaxGpusHold) {
  RecommendRequest req;
  req.max_instances = 1;
  req.max_gpus = 4;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "lora"}, {"model", "llama-3.1-8b"}, {"tokens", "20M"}}), req);
  ASSERT_FALSE(r.plans.empty());
  for (const Plan& p : r.plans) {
    EXPECT_EQ(p.instances, 1);
    EXPECT_LE(p.gpus, 4);
  }
}

TEST(RecommendTest, ImpossibleBudgetGivesNoPlanAndReasons) {
  RecommendRequest req;
  req.budget_usd = 100;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), req);
  EXPECT_TRUE(r.plans.empty());
  ASSERT_FALSE(r.rejected.empty());
  EXPECT_NE(r.rejected[0].reason.find("over budget"), std::string::npos);
}

TEST(RecommendTest, RegionsAndPurchaseOptionsAreRespected) {
  RecommendRequest req;
  req.regions = {"eu-west-1"};
  req.purchase = {PurchaseKind::kOnDemand};
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"concurrency", "4"}}), req);
  ASSERT_FALSE(r.plans.empty());
  for (const Plan& p : r.plans) {
    EXPECT_EQ(p.region, "eu-west-1");
    EXPECT_EQ(p.purchase, PurchaseKind::kOnDemand);
    ASSERT_NE(p.type->FindRegion("eu-west-1"), nullptr);
  }
}

// Issue 37, item 5: a GB200 UltraServer is one unit of 72 GPUs sold only as a Capacity Block:
// `pricing` prices that and nothing else, and `recommend` plans whole UltraServers on it.
TEST(RecommendTest, Gb200UltraServerIsOneUnitBoughtAsACapacityBlock) {
  const Catalog& c = testing::EmbeddedForTests();
  const InstanceType* u = c.FindInstanceType("u-p6e-gb200x72");
  ASSERT_NE(u, nullptr);
  UsagePattern usage;
  usage.hours_per_month = 24 * 7;
  usage.months = 0.25;
  Result<PricingResult> priced = PriceUsage(*u, "us-east-1", usage);
  ASSERT_TRUE(priced.ok()) << priced.status().ToString();
  for (const PurchaseOptionCost& o : priced->options) {
    EXPECT_EQ(o.priced, o.option == "capacity-block") << o.option;
  }
  RecommendRequest req;
  req.only_instances = {"u-p6e-gb200x72"};
  req.top = 3;
  Result<Recommendation> got = Recommend(
      c, MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "20B"}}), req);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_FALSE(got->plans.empty());
  for (const Plan& p : got->plans) {
    EXPECT_EQ(p.type->name, "u-p6e-gb200x72");
    EXPECT_EQ(p.purchase, PurchaseKind::kCapacityBlock);
    EXPECT_EQ(p.region, "us-east-1");
    EXPECT_EQ(p.gpus, p.instances * 72);  // whole UltraServers, never a part of one
  }
}

// Capacity Blocks (issue 17): asked for, the best block plan is ranked (in the top plans or as
// the purchase alternative), billed for whole days at the catalog's block rate; a large spot
// cluster of a family sold as blocks says it realistically needs one, and at what cost.
TEST(RecommendTest, CapacityBlocksAreRankedAndLargeSpotClustersPointToThem) {
  RecommendRequest req;
  req.deadline_hours = 30 * 24;
  req.purchase = {PurchaseKind::kOnDemand, PurchaseKind::kSpot, PurchaseKind::kCapacityBlock};
  req.top = 3;
  Result<Recommendation> got = Recommend(
      testing::EmbeddedForTests(),
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), req);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const Recommendation& r = *got;
  ASSERT_FALSE(r.plans.empty());
  std::vector<Plan> all = r.plans;
  all.insert(all.end(), r.purchase_alternatives.begin(), r.purchase_alternatives.end());
  const Plan* block = nullptr;
  for (const Plan& p : all) {
    if (p.purchase == PurchaseKind::kCapacityBlock && block == nullptr) block = &p;
  }
  ASSERT_NE(block, nullptr) << "no capacity-block plan ranked";
  EXPECT_GT(block->rank, 0);
  EXPECT_TRUE(block->type->HasUsageClass("capacity-block")) << block->type->name;
  const Price* rate =
      PurchasePrice(*block->type->FindRegion(block->region), PurchaseKind::kCapacityBlock);
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(block->price_from.source, rate->from.source);
  const int days = CapacityBlockDays(block->time_hours);
  EXPECT_GE(days * 24.0, block->time_hours);
  EXPECT_TRUE(days <= kCapacityBlockDailyStepMaxDays || days % 7 == 0) << days;  // sold durations
  EXPECT_NEAR(block->cost_usd, rate->usd_per_hour * block->instances * days * 24, 1e-6);
  EXPECT_LE(block->instances, kCapacityBlockMaxInstances);
  bool why = false;
  for (const std::string& s : block->why) why = why || s.rfind("Capacity Block of ", 0) == 0;
  EXPECT_TRUE(why);
  // AWS places a block's instances together (an EC2 UltraCluster): no placement group to make,
  // unlike a multi-node plan bought any other way.
  for (const Plan& p : all) {
    if (p.instances < 2 || !p.type->efa) continue;
    std::string advice;
    for (const std::string& a : p.advice) advice += a + "\n";
    const bool block_plan = p.purchase == PurchaseKind::kCapacityBlock;
    EXPECT_EQ(advice.find("cluster placement group") != std::string::npos, !block_plan) << advice;
    EXPECT_EQ(advice.find("UltraCluster") != std::string::npos, block_plan) << advice;
  }
  for (const Plan& p : r.plans) {
    if (p.purchase != PurchaseKind::kSpot || p.instances < 8 ||
        !p.type->HasUsageClass("capacity-block") ||
        !PurchasePrice(*p.type->FindRegion(p.region), PurchaseKind::kCapacityBlock)) {
      continue;
    }
    bool points = false;
    for (const std::string& w : p.warnings) {
      points = points || w.find("realistically needs a Capacity Block: ") != std::string::npos;
    }
    EXPECT_TRUE(points) << p.type->name << " x " << p.instances;
  }
}

// Issue 37: a run longer than the longest block (182 days) is never offered Capacity Blocks,
// chained or not; only one block can be booked today. Every block plan is one block of a
// duration AWS sells.
TEST(RecommendTest, RunsLongerThanOneBlockAreNeverOfferedChainedBlocks) {
  RecommendRequest req;
  req.purchase = {PurchaseKind::kCapacityBlock, PurchaseKind::kOnDemand};
  req.max_instances = 4;
  req.top = 40;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "2T"}}), req);
  ASSERT_FALSE(r.plans.empty());
  bool long_run = false;
  std::vector<Plan> all = r.plans;
  all.insert(all.end(), r.purchase_alternatives.begin(), r.purchase_alternatives.end());
  all.insert(all.end(), r.pareto.begin(), r.pareto.end());
  for (const Plan& p : all) {
    long_run = long_run || p.time_hours > 24.0 * kCapacityBlockMaxDays;
    if (p.purchase != PurchaseKind::kCapacityBlock) continue;
    EXPECT_LE(p.time_hours, 24.0 * kCapacityBlockMaxDays) << p.type->name << " x " << p.instances;
    EXPECT_LE(CapacityBlockDays(p.time_hours), kCapacityBlockMaxDays);
  }
  EXPECT_TRUE(long_run) << "the workload should run past 182 days on some plan";
}

// Issue 37: each plan names the dated figures its cost rests on, and the oldest of them; a spot
// plan rests on its interruption band too.
TEST(RecommendTest, PlansNameTheFiguresTheyRestOn) {
  RecommendRequest req;
  req.purchase = {PurchaseKind::kSpot, PurchaseKind::kOnDemand};
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}}), req);
  ASSERT_FALSE(r.plans.empty());
  bool spot = false;
  for (const Plan& p : r.plans) {
    ASSERT_FALSE(p.price_figures.empty());
    EXPECT_EQ(p.price_figures[0].kind, PurchaseKindName(p.purchase));
    const RegionOffer* o = p.type->FindRegion(p.region);
    ASSERT_NE(o, nullptr);
    // The purchase price, dated by its confirmation where a newer source reprints it.
    const Price& price = p.purchase == PurchaseKind::kSpot ? *o->spot : *o->on_demand;
    EXPECT_EQ(p.price_from.source, price.from.source);
    EXPECT_EQ(p.price_figures[0].from.source, price.dated_by().source);
    const Plan::Figure* oldest = p.OldestPriceFigure();
    ASSERT_NE(oldest, nullptr);
    for (const Plan::Figure& f : p.price_figures) EXPECT_FALSE(OlderFigure(f.from, oldest->from));
    if (p.purchase == PurchaseKind::kSpot && o->spot_band) {
      spot = true;
      ASSERT_EQ(p.price_figures.size(), 2u);
      EXPECT_EQ(p.price_figures[1].kind, "spot-interruption-band");
      EXPECT_EQ(p.price_figures[1].from.date, o->spot_band->from.date);
    }
  }
  EXPECT_TRUE(spot) << "no spot plan ranked";
}

// By default a training run also prices blocks, for multi-node plans only; serving never does.
TEST(RecommendTest, DefaultPurchaseSetOffersBlocksToMultiNodeTraining) {
  RecommendRequest req;
  req.deadline_hours = 30 * 24;
  req.top = 40;
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}), req);
  bool block = false;
  for (const Plan& p : r.plans) {
    if (p.purchase != PurchaseKind::kCapacityBlock) continue;
    block = true;
    EXPECT_GE(p.instances, 2);
  }
  for (const Plan& p : r.purchase_alternatives)
    block = block || p.purchase == PurchaseKind::kCapacityBlock;
  EXPECT_TRUE(block);
  const Recommendation serve =
      RunSearch(MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"concurrency", "4"}}));
  for (const Plan& p : serve.plans) EXPECT_NE(p.purchase, PurchaseKind::kCapacityBlock);
}

TEST(RecommendTest, ParetoFrontIsNonDominatedAndObjectivesOrder) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "100B"}});
  // By score alone (--risk any): the doubted plans are on the front too.
  RecommendRequest any;
  any.risk = Risk::kAny;
  const Recommendation r = RunSearch(w, any);
  ASSERT_GE(r.pareto.size(), 2u);
  // No point of the front is at least as good as another on cost, time and certainty.
  const auto doubt = [](const Plan& p) { return p.risk_factor * p.price_risk_factor; };
  for (size_t i = 1; i < r.pareto.size(); ++i) {
    EXPECT_GE(r.pareto[i].time_hours, r.pareto[i - 1].time_hours);
    for (size_t j = 0; j < r.pareto.size(); ++j) {
      const Plan &a = r.pareto[i], &b = r.pareto[j];
      if (i == j) continue;
      EXPECT_FALSE(b.time_hours <= a.time_hours && b.cost_usd <= a.cost_usd && doubt(b) <= doubt(a))
          << b.type->name << " x" << b.instances << " dominates " << a.type->name << " x"
          << a.instances;
    }
  }
  RecommendRequest fast = any;
  fast.objective = Objective::kTime;
  const Recommendation t = RunSearch(w, fast);
  ASSERT_FALSE(t.plans.empty());
  EXPECT_LE(t.plans[0].time_hours, r.plans[0].time_hours);
  EXPECT_GE(t.plans[0].cost_usd, r.plans[0].cost_usd);
  EXPECT_DOUBLE_EQ(t.plans[0].time_hours, r.pareto.front().time_hours);
  // The cheapest at its pessimistic end is on the front; a cheaper and faster point there is
  // less certain.
  const Plan& top = r.plans[0];
  const auto on_front = std::find_if(r.pareto.begin(), r.pareto.end(), [&](const Plan& p) {
    return p.type == top.type && p.instances == top.instances && p.purchase == top.purchase;
  });
  EXPECT_NE(on_front, r.pareto.end()) << top.type->name << " x" << top.instances;
  for (const Plan& p : r.pareto) {
    if (p.cost_usd < top.cost_usd && p.time_hours < top.time_hours) {
      EXPECT_GT(doubt(p), doubt(top)) << p.type->name;
    }
  }
}

// Plans are ranked at the pessimistic end of their band, and a top plan below high confidence
// gets the best high-confidence plan beside it.
TEST(RecommendTest, ConfidenceDrivesTheRankingAndTheAlternative) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "100B"}});
  const Recommendation r = RunSearch(w);
  ASSERT_GE(r.plans.size(), 2u);
  // In score order, up to the 5 % tie-break that puts a smaller plan first (doc/recommend.md).
  for (size_t i = 1; i < r.plans.size(); ++i) {
    const Plan &a = r.plans[i - 1], &b = r.plans[i];
    EXPECT_LE(a.cost_usd * a.risk_factor * a.price_risk_factor,
              b.cost_usd * b.risk_factor * b.price_risk_factor * 1.05 * (1 + 1e-9));
  }
  for (const Plan& p : r.plans) {
    EXPECT_NEAR(p.risk_factor, 1 + p.estimate.band_high, 1e-9) << p.type->name;
  }
  // Whenever the top plan is below high confidence, the note says so and the best-ranked
  // high-confidence plan (if any) is beside it; the workloads below exercise that at least once.
  int alternatives = 0;
  for (const Workload& x :
       {w, MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e18"}}),
        MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "20"}}),
        MakeWorkload({{"task", "transcode"}, {"streams", "40"}})}) {
    RecommendRequest req;
    req.top = 3;
    Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), x, req);
    ASSERT_TRUE(rec.ok());
    ASSERT_FALSE(rec->plans.empty());
    if (rec->plans[0].estimate.confidence == Confidence::kHigh) {
      EXPECT_TRUE(rec->confidence_note.empty());
      EXPECT_FALSE(rec->high_confidence_alternative.has_value());
      continue;
    }
    EXPECT_NE(rec->confidence_note.find("-confidence estimate"), std::string::npos);
    if (const std::optional<Plan>& alt = rec->high_confidence_alternative) {
      ++alternatives;
      EXPECT_EQ(alt->estimate.confidence, Confidence::kHigh);
      EXPECT_GT(alt->rank, 1);
    } else {
      EXPECT_NE(rec->confidence_note.find("no plan rests on a high-confidence"), std::string::npos);
    }
  }
  EXPECT_GE(alternatives, 1);
}

TEST(RecommendTest, BadRequestsNameTheFlag) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}});
  RecommendRequest bad_region;
  bad_region.regions = {"us-est-1"};
  EXPECT_NE(
      Recommend(testing::EmbeddedForTests(), w, bad_region).status().message().find("regions"),
      std::string::npos);
  // Bounds are the options' (DeclareOptions): a budget or deadline out of them is refused
  // before any search, with the option's message (issue 16: 1e300 is no constraint).
  const CommandSpec spec = CommandOf<RecommendArgs>("recommend");
  for (const auto& [key, text, message] :
       {std::tuple{"budget", "-5", "budget: expected a number from 0.01 to 1e+12"},
        {"budget", "1e300", "budget: expected a number from 0.01 to 1e+12"},
        {"deadline", "0", "deadline: expected a duration from 1m to 3650d"},
        {"deadline", "1e300", "deadline: expected"}}) {
    OptionValues v(spec);
    ASSERT_TRUE(v.Set(key, text, kCli).ok());
    const Status st = MakeRecommendRequest(v).status();
    EXPECT_EQ(st.field(), key);
    EXPECT_NE(st.message().find(message), std::string::npos) << st.message();
  }
}

}  // namespace
}  // namespace gpuadvisor

namespace gpuadvisor {
namespace {

const SavingsLever* FindLever(const Plan& p, const std::string& name) {
  for (const SavingsLever& l : p.savings) {
    if (l.lever == name) return &l;
  }
  return nullptr;
}

TEST(SavingsLeverTest, QuantisedWeightsFitCheaperHardwareForServing) {
  const Recommendation r =
      RunSearch(MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-70b"}, {"rps", "1"}}));
  ASSERT_FALSE(r.plans.empty());
  const SavingsLever* int4 = FindLever(r.plans[0], "quantization-int4");
  ASSERT_NE(int4, nullptr);
  EXPECT_GT(int4->saving, 0.2);
  EXPECT_LT(int4->cost_usd, r.plans[0].usd_per_hour);
  EXPECT_FALSE(int4->tradeoff.empty());
}

TEST(SavingsLeverTest, Fp8AndLoraForFineTuningOnHopper) {
  RecommendRequest req;
  req.purchase = {PurchaseKind::kOnDemand};
  const Recommendation r = RunSearch(
      MakeWorkload({{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}}), req);
  ASSERT_FALSE(r.plans.empty());
  const Plan& p = r.plans[0];
  if (p.type->accelerator.model == "H100" || p.type->accelerator.model == "H200" ||
      p.type->accelerator.model == "B200") {
    const SavingsLever* fp8 = FindLever(p, "fp8");
    ASSERT_NE(fp8, nullptr);
    EXPECT_GT(fp8->saving, 0.1);
    EXPECT_LT(fp8->saving, 0.5);
  }
  const SavingsLever* lora = FindLever(p, "lora");
  ASSERT_NE(lora, nullptr);
  EXPECT_GT(lora->saving, 0);
  // Spot is a lever only where the region has a spot price (the g7e RTX PRO 6000 types, which
  // now have compute figures and can rank first, have none in the catalog).
  const RegionOffer* offer = p.type->FindRegion(p.region);
  ASSERT_NE(offer, nullptr);
  const SavingsLever* spot = FindLever(p, "spot");
  if (offer->spot) {
    // The lever is the type's spot discount, less the checkpoint/restart time it adds (which
    // type ranks first, and so its discount, follows the estimator and the catalog).
    ASSERT_NE(spot, nullptr);
    ASSERT_TRUE(offer->on_demand.has_value());
    const double discount = 1 - offer->spot->usd_per_hour / offer->on_demand->usd_per_hour;
    EXPECT_GT(spot->saving, 0.5 * discount);
    EXPECT_LE(spot->saving, discount + 1e-9);
  } else {
    EXPECT_EQ(spot, nullptr);
  }
}

}  // namespace
}  // namespace gpuadvisor
