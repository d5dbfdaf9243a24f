// Levers promoted to plans (issue 38, item 5): a lever that changes the workload (FP8, LoRA,
// weight quantization) is shown as plans of its own when its best plan beats the top plan beyond
// both bands, and stays a saving line otherwise.
#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/recommend.h"
#include "recommend/explain.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

Recommendation Search(const Workload& w, RecommendRequest r = {}) {
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, r);
  EXPECT_TRUE(rec.ok()) << rec.status().ToString();
  return rec.ok() ? std::move(rec).value() : Recommendation{};
}

// A full fine-tune of an 8B model: LoRA and FP8 each save more than the bands; the lever's plans
// are shown, and the reason says by how much.
TEST(LeversTest, ALeverBeyondTheBandsIsPromotedToPlans) {
  const Workload w = MakeWorkload(
      {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}, {"epochs", "3"}});
  const Recommendation r = Search(w);
  ASSERT_FALSE(r.plans.empty());
  ASSERT_TRUE(r.promoted_lever.has_value());
  const Recommendation::PromotedLever& l = *r.promoted_lever;
  // Both FP8 and LoRA promise more than the training band (-8% / +17%); levers are tried by
  // the saving they promise and the first that holds is shown.
  EXPECT_TRUE(l.lever == "lora" || l.lever == "fp8") << l.lever;
  EXPECT_NE(l.reason.find("beyond both bands"), std::string::npos) << l.reason;
  ASSERT_FALSE(l.plans.empty());
  const Plan& top = r.plans.front();
  const Plan& best = l.plans.front();
  if (l.lever == "lora") {
    EXPECT_EQ(best.estimate.task, TaskKind::kLora);
  } else {
    EXPECT_EQ(best.estimate.task, TaskKind::kFinetune);  // the same task in FP8
  }
  EXPECT_LT(best.cost_usd * best.risk_factor * best.price_risk_factor,
            top.cost_usd * recommend_internal::OptimisticFactor(top.estimate));
}

// Vision training has no workload lever; without savings levers nothing is searched again.
TEST(LeversTest, NoLeverNoPromotion) {
  const Workload vision = MakeWorkload(
      {{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1.28M"}, {"epochs", "10"}});
  EXPECT_FALSE(Search(vision).promoted_lever.has_value());
  RecommendRequest off;
  off.savings_levers = false;
  const Workload w = MakeWorkload(
      {{"task", "finetune"}, {"model", "llama-3.1-8b"}, {"tokens", "200M"}, {"epochs", "3"}});
  EXPECT_FALSE(Search(w, off).promoted_lever.has_value());
}

}  // namespace
}  // namespace gpuadvisor
