// Serving a model no single node holds (issue 38 item 5; doc/estimation.md, "Serving across
// instances"): pipeline stages over EFA, one per node, at most four; a token waits for every
// stage in turn, so pipeline parallelism never lowers the time between a request's tokens.
#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::Gpus;
using testing::MakeWorkload;
using testing::Mentions;
using testing::OnInstance;

// Two pipeline stages on one node: each token passes both, so the time between tokens is not
// halved (as it would be if a stage's step were the whole step) but about the same as one stage
// holding every layer, plus the hop.
TEST(ServeMultiNodeTest, PipelineStagesDoNotShortenTheTimeBetweenTokens) {
  const Workload one = MakeWorkload(
      {{"task", "serve"}, {"model", "llama-3.1-8b"}, {"concurrency", "8"}, {"tp", "4"}});
  const Workload two = MakeWorkload({{"task", "serve"},
                                     {"model", "llama-3.1-8b"},
                                     {"concurrency", "8"},
                                     {"tp", "4"},
                                     {"pp", "2"}});
  Result<Estimate> a = EstimateWorkload(one, Gpus("H100", 4));
  Result<Estimate> b = EstimateWorkload(two, Gpus("H100", 8));
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE(a->performance.itl_ms && b->performance.itl_ms);
  EXPECT_GT(*b->performance.itl_ms, 0.9 * *a->performance.itl_ms);
}

// Llama 3.1 405B in 16-bit (~810 GB) on p5.48xlarge (8 x 80 GB): one node cannot hold it, two can,
// as two pipeline stages of TP 8 over EFA; the estimate says so.
TEST(ServeMultiNodeTest, AModelNoNodeHoldsSpansTwoInstancesOverEfa) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-405b"}, {"rps", "1"}});
  Result<Estimate> one = EstimateWorkload(w, OnInstance("p5.48xlarge", 1));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_FALSE(one->memory.fits);
  Result<Estimate> two = EstimateWorkload(w, OnInstance("p5.48xlarge", 2));
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_TRUE(two->memory.fits);
  EXPECT_EQ(two->parallelism.tp, 8);
  EXPECT_EQ(two->parallelism.pp, 2);
  EXPECT_TRUE(Mentions(*two, "each replica spans 2 instances")) << two->assumptions.size();
}

// Without EFA (g5.12xlarge, 4 x A10G over ENA) a served model is never split over instances.
TEST(ServeMultiNodeTest, NoEfaNoSplit) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-70b"}, {"rps", "1"}});
  Result<Estimate> e = EstimateWorkload(w, OnInstance("g5.12xlarge", 4));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_FALSE(e->memory.fits);
  EXPECT_EQ(e->parallelism.pp, 1);
}

// DeepSeek-R1 in us-east-1: one node holds it, so #1 is a single node; plans that split a replica
// over instances are doubted. In cn-north-1 nothing holds it even over four instances, and the
// reasons say that limit, not a false "even on 64 instances".
TEST(ServeMultiNodeTest, SplittingIsForWhatNoNodeHolds) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "deepseek-r1"}, {"rps", "1"}});
  RecommendRequest req;
  req.top = 10;
  Result<Recommendation> us = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(us.ok()) << us.status().ToString();
  ASSERT_FALSE(us->plans.empty());
  EXPECT_LE(us->plans[0].estimate.parallelism.pp, 1);
  bool split = false;
  for (const Plan& p : us->plans) {
    if (p.estimate.parallelism.pp <= 1) continue;
    split = true;
    bool doubted = false;
    for (const Plan::Doubt& d : p.doubts) doubted |= d.kind == "multi-node-serving" && d.demotes;
    EXPECT_TRUE(doubted) << p.type->name << " x " << p.instances;
    EXPECT_TRUE(p.inter_node_traffic);
  }
  EXPECT_TRUE(split) << "no plan splits a replica over instances";
  req.regions = {"cn-north-1"};
  Result<Recommendation> cn = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(cn.ok()) << cn.status().ToString();
  EXPECT_TRUE(cn->plans.empty());
  bool said = false;
  for (const Rejection& r : cn->rejected) {
    EXPECT_EQ(r.reason.find("even on 64"), std::string::npos)
        << r.instance_type << ": " << r.reason;
    said |= r.reason.find("split over 4 instances") != std::string::npos;
  }
  EXPECT_TRUE(said);
  // The lever that changes "nothing fits": the mildest weight quantization that gives plans.
  ASSERT_TRUE(cn->promoted_lever.has_value());
  EXPECT_EQ(cn->promoted_lever->lever.rfind("quantization-", 0), 0u);
  ASSERT_FALSE(cn->promoted_lever->plans.empty());
  EXPECT_EQ(cn->promoted_lever->plans[0].region, "cn-north-1");
  EXPECT_TRUE(cn->promoted_lever->plans[0].fits);
  EXPECT_EQ(cn->promoted_lever->reason, "no plan with 16-bit weights");
  // Plans exist in 16-bit: a lever is promoted there only for beating them beyond the bands.
  if (us->promoted_lever) {
    EXPECT_NE(us->promoted_lever->reason, "no plan with 16-bit weights");
  }
}

}  // namespace
}  // namespace gpuadvisor
