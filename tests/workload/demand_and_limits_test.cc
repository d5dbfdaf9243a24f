// Real-time vision inference (--rps with a p95 target), the fields each task takes, the workload's
// runtime as a limit (and spot's risk of missing it), and the node a bare GPU count assumes
// (issue 23, items 6 and 7).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"
#include "workload/estimate_internal.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::MakeWorkload;
using workload_internal::RealTimeLoad;
using workload_internal::RealTimeServing;
using workload_internal::ServeRealTime;

// A device whose batch of n takes 2 ms + 1 ms per image (at most 1000 images/s).
double Affine(double n) { return 0.002 + 0.001 * n; }

TEST(RealTimeTest, LightLoadRunsImagesAlone) {
  const RealTimeServing r = ServeRealTime({100, 1, 64, 0.050}, Affine);
  EXPECT_DOUBLE_EQ(r.batch, 1);
  EXPECT_NEAR(r.utilisation, 0.3, 1e-9);  // 100/s x 3 ms
  EXPECT_FALSE(r.saturated);
  EXPECT_TRUE(r.meets_target);
  EXPECT_NEAR(r.p95_s, 0.003 * (1 + 0.95 * 0.3), 1e-12);
  EXPECT_EQ(r.devices_needed, 1);
}

TEST(RealTimeTest, HeavyLoadGrowsTheBatchUntilItSaturates) {
  // 800/s: n = 800 x (2 ms + 1 ms n) gives n = 8; the device is always busy.
  const RealTimeServing busy = ServeRealTime({800, 1, 64, 0}, Affine);
  EXPECT_NEAR(busy.batch, 8, 1e-3);
  EXPECT_NEAR(busy.utilisation, 1, 1e-6);
  EXPECT_FALSE(busy.saturated);
  EXPECT_NEAR(busy.p95_s, 1.95 * 0.010, 1e-6);
  // Past 64 / 66 ms = 970/s no batch keeps up.
  const RealTimeServing over = ServeRealTime({2000, 1, 64, 0}, Affine);
  EXPECT_TRUE(over.saturated);
  EXPECT_FALSE(over.meets_target);
  EXPECT_DOUBLE_EQ(over.batch, 64);
  EXPECT_EQ(over.devices_needed, 3);  // 2000 / (64 / 66 ms)
  // Two devices share it.
  EXPECT_FALSE(ServeRealTime({2000, 3, 64, 0}, Affine).saturated);
}

TEST(RealTimeTest, TheTargetCapsTheBatchAndSetsTheDevicesNeeded) {
  // p95 within 39 ms: 1.95 x (2 + n) ms <= 39 -> n <= 18, 18 / 20 ms = 900/s per device.
  const RealTimeServing r = ServeRealTime({2000, 1, 64, 0.039}, Affine);
  EXPECT_NEAR(r.capacity_per_device, 900, 0.01);
  EXPECT_EQ(r.devices_needed, 3);
  // Within 5 ms only a lightly loaded device: 3 ms x (1 + 0.95 rho) <= 5 ms -> rho <= 0.70.
  const RealTimeServing light = ServeRealTime({1000, 1, 64, 0.005}, Affine);
  EXPECT_NEAR(light.capacity_per_device, 2.0 / 3 / 0.95 / 0.003, 0.01);
  EXPECT_EQ(light.devices_needed, 5);
  // No rate meets 2.5 ms: one image alone takes 3 ms.
  const RealTimeServing none = ServeRealTime({10, 1, 64, 0.0025}, Affine);
  EXPECT_EQ(none.devices_needed, 0);
  EXPECT_FALSE(none.meets_target);
}

Workload VitRealTime(const char* rps) {
  return MakeWorkload(
      {{"task", "infer-vision"}, {"model", "vit-b16"}, {"rps", rps}, {"e2e-p95", "100ms"}});
}

Hardware G4dn(int count) {
  HardwareRequest r;
  r.instance_type = "g4dn.xlarge";
  r.instances = count;
  Result<Hardware> hw = ResolveHardware(testing::EmbeddedForTests(), r);
  EXPECT_TRUE(hw.ok()) << hw.status().ToString();
  return *hw;
}

TEST(RealTimeTest, EstimateSaysHowManyInstancesHoldTheRate) {
  Result<Estimate> one = EstimateWorkload(VitRealTime("200"), G4dn(1));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_TRUE(one->service);
  EXPECT_TRUE(one->demand_met);
  EXPECT_TRUE(one->slo_met);
  ASSERT_TRUE(one->instances_needed);
  EXPECT_EQ(*one->instances_needed, 1);
  EXPECT_DOUBLE_EQ(*one->performance.images_per_s, 200);
  ASSERT_TRUE(one->performance.e2e_p95_ms);
  EXPECT_LE(*one->performance.e2e_p95_ms, 100);
  EXPECT_DOUBLE_EQ(*one->hours, 1);  // a service: costed per hour (--hours)

  Result<Estimate> heavy = EstimateWorkload(VitRealTime("5000"), G4dn(1));
  ASSERT_TRUE(heavy.ok());
  EXPECT_FALSE(heavy->demand_met);
  ASSERT_TRUE(heavy->instances_needed);
  EXPECT_GT(*heavy->instances_needed, 2);
  // As many instances as it says hold the rate within the target.
  Result<Estimate> enough = EstimateWorkload(VitRealTime("5000"), G4dn(*heavy->instances_needed));
  ASSERT_TRUE(enough.ok());
  EXPECT_TRUE(enough->demand_met);
  EXPECT_TRUE(enough->slo_met);
  Result<Estimate> fewer =
      EstimateWorkload(VitRealTime("5000"), G4dn(*heavy->instances_needed - 1));
  ASSERT_TRUE(fewer.ok());
  EXPECT_FALSE(fewer->demand_met && fewer->slo_met);
}

TEST(WorkloadFieldsTest, AFieldForAnotherTaskIsAnErrorNamingIt) {
  struct Case {
    std::vector<std::pair<std::string, std::string>> fields;
    std::string field;
  };
  const Case cases[] = {
      {{{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1M"}, {"rps", "10"}}, "rps"},
      {{{"task", "infer-vision"}, {"model", "resnet50"}, {"rps", "10"}, {"images", "1M"}},
       "images"},
      {{{"task", "infer-vision"}, {"model", "resnet50"}, {"images", "1M"}, {"hours", "2"}},
       "hours"},
      {{{"task", "infer-vision"}, {"model", "resnet50"}, {"rps", "10"}, {"runtime", "2h"}},
       "runtime"},
      {{{"task", "serve"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}}, "tokens"},
      {{{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}, {"itl-p95", "50ms"}},
       "itl-p95"},
      {{{"task", "hpc"}, {"fp64-flop", "1e18"}, {"streams", "4"}}, "streams"},
      {{{"task", "transcode"}, {"streams", "4"}, {"runtime", "3h"}}, "runtime"},
  };
  for (const Case& c : cases) {
    // In any order: the binder knows the task before it binds the other fields.
    for (bool reversed : {false, true}) {
      WorkloadFields given;
      auto fields = c.fields;
      if (reversed) std::reverse(fields.begin(), fields.end());
      for (const auto& [k, v] : fields) ASSERT_TRUE(given.Give(k, {.text = v}).ok()) << k;
      Result<Workload> w = given.Bind();
      const Status st = w.ok() ? Validate(*w) : w.status();
      EXPECT_FALSE(st.ok()) << c.field;
      EXPECT_EQ(st.field(), c.field) << st.ToString();
    }
  }
  Workload w = MakeWorkload({{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1M"}});
  const Status st = GiveField(&w, "rps", "10");
  EXPECT_NE(st.ToString().find("does not apply to task train-vision (it applies to serve, "
                               "infer-vision)"),
            std::string::npos)
      << st.ToString();
}

TEST(WorkloadFieldsTest, EveryFieldAppliesToSomeTask) {
  for (const std::string& name : WorkloadFieldNames()) {
    EXPECT_FALSE(WorkloadFieldTasks(name).empty()) << name;
  }
  EXPECT_TRUE(WorkloadFieldApplies("task", TaskKind::kAnalytics));
  EXPECT_FALSE(WorkloadFieldApplies("no-such-field", TaskKind::kServe));
}

// The help's groups (issue 29, "help that guides") come from the table Validate reads: each
// field once, under the tasks it applies to, and a narrowed help lists exactly those of a task.
TEST(WorkloadFieldsTest, HelpGroupsFollowWhereFieldsApply) {
  auto title_of = [](const std::vector<WorkloadFieldGroup>& groups, std::string_view name) {
    std::string title;
    for (const WorkloadFieldGroup& g : groups) {
      for (const WorkloadFieldInfo* f : g.fields) {
        if (f->name == name) title = g.title;
      }
    }
    return title;
  };
  const std::vector<WorkloadFieldGroup> all = GroupWorkloadFields();
  size_t listed = 0;
  for (const WorkloadFieldGroup& g : all) listed += g.fields.size();
  EXPECT_EQ(listed, WorkloadFieldNames().size());
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all[0].title, "all tasks");
  EXPECT_EQ(all[1].title, "several kinds of task");
  EXPECT_TRUE(all[1].several_kinds);
  EXPECT_FALSE(all[0].several_kinds);
  EXPECT_EQ(title_of(all, "task"), "all tasks");
  EXPECT_EQ(title_of(all, "model"), "several kinds of task");
  EXPECT_EQ(title_of(all, "layers"), "LLM (pretrain, finetune, lora, qlora, serve)");
  EXPECT_EQ(title_of(all, "tp"), "LLM (pretrain, finetune, lora, qlora, serve)");
  EXPECT_EQ(title_of(all, "zero"), "LLM: pretrain, finetune, lora, qlora");
  EXPECT_EQ(title_of(all, "kv-precision"), "LLM: serve");
  EXPECT_EQ(title_of(all, "resolution"), "vision (train-vision, infer-vision)");
  EXPECT_EQ(title_of(all, "guidance"), "vision: infer-vision");
  EXPECT_EQ(title_of(all, "codec"), "transcode");
  // A kind's whole set before its parts: LLM, LLM: training..., then vision.
  auto at = [&](std::string_view title) {
    for (size_t i = 0; i < all.size(); ++i) {
      if (all[i].title == title) return i;
    }
    return all.size();
  };
  EXPECT_LT(at("LLM (pretrain, finetune, lora, qlora, serve)"), at("LLM: serve"));
  EXPECT_LT(at("LLM: serve"), at("vision (train-vision, infer-vision)"));
  EXPECT_LT(at("vision (train-vision, infer-vision)"), at("hpc"));

  for (const char* topic : {"vision", "serve", "hpc", "LLM", "transcode"}) {
    Result<std::vector<TaskKind>> tasks = TasksOfHelpTopic(topic);
    ASSERT_TRUE(tasks.ok()) << topic;
    std::set<std::string> shown, want;
    for (const WorkloadFieldGroup& g : GroupWorkloadFields(*tasks)) {
      for (const WorkloadFieldInfo* f : g.fields) shown.insert(f->name);
    }
    for (const std::string& name : WorkloadFieldNames()) {
      for (TaskKind t : *tasks) {
        if (WorkloadFieldApplies(name, t)) want.insert(name);
      }
    }
    EXPECT_EQ(shown, want) << topic;
  }
  const std::vector<TaskKind> vision = *TasksOfHelpTopic("Vision");
  EXPECT_EQ(vision, (std::vector<TaskKind>{TaskKind::kTrainVision, TaskKind::kInferVision}));
  const std::vector<WorkloadFieldGroup> v = GroupWorkloadFields(vision);
  EXPECT_FALSE(title_of(v, "resolution").empty());
  EXPECT_TRUE(title_of(v, "kv-precision").empty());
  EXPECT_TRUE(title_of(v, "tp").empty());
  const std::vector<TaskKind> serve = {TaskKind::kServe};
  EXPECT_FALSE(title_of(GroupWorkloadFields(serve), "kv-precision").empty());
  EXPECT_TRUE(title_of(GroupWorkloadFields(serve), "resolution").empty());

  Result<std::vector<TaskKind>> bad = TasksOfHelpTopic("visoin");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().field(), "task");
  EXPECT_NE(bad.status().message().find("train-vision|infer-vision|hpc"), std::string::npos);
  EXPECT_NE(bad.status().message().find("(llm|vision)"), std::string::npos);

  EXPECT_EQ(WorkloadFieldScope(*FindWorkloadFieldInfo("model")), "LLM, vision");
  EXPECT_EQ(WorkloadFieldScope(*FindWorkloadFieldInfo("e2e-p95")), "serve, infer-vision");
  EXPECT_EQ(WorkloadFieldScope(*FindWorkloadFieldInfo("dropout")),
            "pretrain, finetune, lora, qlora, train-vision");
  EXPECT_EQ(TaskKindFamily(TaskKind::kQlora), std::string("LLM"));
  EXPECT_EQ(TaskKindFamily(TaskKind::kRender), std::string("render"));
}

TEST(DeadlineTest, RuntimeIsALimitForBatchJobsOnly) {
  Workload hpc = MakeWorkload({{"task", "hpc"}, {"fp64-flop", "2e18"}, {"runtime", "6h"}});
  ASSERT_TRUE(WorkloadDeadlineHours(hpc));
  EXPECT_DOUBLE_EQ(*WorkloadDeadlineHours(hpc), 6);
  // A rate target: runtime is how long it runs, not a limit.
  Workload rate = MakeWorkload({{"task", "hpc"}, {"fp64-flops", "1e15"}, {"runtime", "6h"}});
  EXPECT_FALSE(WorkloadDeadlineHours(rate));
  EXPECT_FALSE(WorkloadDeadlineHours(MakeWorkload({{"task", "hpc"}, {"fp64-flop", "2e18"}})));
}

TEST(DeadlineTest, RecommendRanksOnlyPlansWithinTheRuntimeAndEstimateWarnsPastIt) {
  // The finance example: 2e18 FP64 in 6 h. One H100 takes over a day.
  const Workload w = MakeWorkload(
      {{"task", "hpc"}, {"fp64-flop", "2e18"}, {"working-set-gib", "60"}, {"runtime", "6h"}});
  RecommendRequest req;
  req.purchase = {PurchaseKind::kOnDemand};
  req.top = 10;
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  ASSERT_FALSE(rec->plans.empty());
  for (const Plan& p : rec->plans) EXPECT_LE(p.time_hours, 6) << p.type->name;
  // A looser --deadline does not lift it; a tighter one binds.
  req.deadline_hours = 100;
  Result<Recommendation> loose = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(loose.ok());
  for (const Plan& p : loose->plans) EXPECT_LE(p.time_hours, 6);
  req.deadline_hours = 3;
  Result<Recommendation> tight = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(tight.ok());
  for (const Plan& p : tight->plans) EXPECT_LE(p.time_hours, 3);

  Result<Estimate> e = EstimateWorkload(w, testing::Gpus("H100", 1));
  ASSERT_TRUE(e.ok());
  bool warned = false;
  for (const std::string& a : e->assumptions) {
    warned |=
        a.find("warning: takes") == 0 && a.find("runtime limit of 6.0 h") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

TEST(DeadlineTest, SpotMissProbabilityCountsTheInterruptionsTheDeadlineAbsorbs) {
  SpotOverhead s;
  s.mtbi_hours = 10;
  s.interval_s = 1800;
  s.checkpoint_write_s = s.checkpoint_read_s = 60;
  s.restart_s = 600;
  // 5 h of work + 1/30 for checkpoints = 5.17 h; each interruption costs 1560 s, so a 6 h
  // deadline absorbs one; P(N >= 2) for N ~ Poisson(0.517).
  const double m = 5 * (1 + 60.0 / 1800) / 10;
  EXPECT_NEAR(SpotDeadlineMissProbability(s, 5, 6), 1 - std::exp(-m) * (1 + m), 1e-9);
  EXPECT_DOUBLE_EQ(SpotDeadlineMissProbability(s, 5, 5.1), 1);  // even uninterrupted it misses
  EXPECT_LT(SpotDeadlineMissProbability(s, 5, 8), SpotDeadlineMissProbability(s, 5, 6));
  EXPECT_DOUBLE_EQ(SpotDeadlineMissProbability(s, 5, 500), 0);
  s.mtbi_hours = 0.01;  // a thousand interruptions expected: the normal tail
  EXPECT_GT(SpotDeadlineMissProbability(s, 10, 12), 0.99);
}

TEST(DeadlineTest, SpotPlansUnderADeadlineShowTheirRiskOfMissingIt) {
  const Workload w = MakeWorkload(
      {{"task", "hpc"}, {"fp64-flop", "2e18"}, {"working-set-gib", "60"}, {"runtime", "6h"}});
  RecommendRequest req;
  req.purchase = {PurchaseKind::kSpot};
  req.top = 3;
  Result<Recommendation> rec = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  ASSERT_FALSE(rec->plans.empty());
  for (const Plan& p : rec->plans) {
    ASSERT_TRUE(p.deadline_miss_probability) << p.type->name;
    EXPECT_GE(*p.deadline_miss_probability, 0);
    EXPECT_LT(*p.deadline_miss_probability, 1);
  }
  req.purchase = {PurchaseKind::kOnDemand};
  Result<Recommendation> od = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(od.ok());
  for (const Plan& p : od->plans) EXPECT_FALSE(p.deadline_miss_probability);
}

TEST(HardwareNodeTest, ABareGpuCountAssumesTheNodeOfItsLargestInstance) {
  HardwareRequest r;
  r.gpu = "H100";
  r.gpus = 768;
  Result<Hardware> hw = ResolveHardware(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(hw.ok()) << hw.status().ToString();
  ASSERT_NE(hw->assumed_node, nullptr);
  EXPECT_EQ(hw->assumed_node->name, "p5.48xlarge");
  const workload_internal::Topology t = workload_internal::MakeTopology(*hw);
  EXPECT_EQ(t.gpus_per_node, 8);
  EXPECT_DOUBLE_EQ(t.node_network_gbit_s, 3200);
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}});
  Result<Estimate> e = EstimateWorkload(w, *hw);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  bool named = false;
  for (const std::string& a : e->assumptions) named |= a.find("node of p5.48xlarge") == 0;
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace gpuadvisor
