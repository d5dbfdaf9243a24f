// The task kind registry (workload/task_kinds.h, issue 40 item 2): one entry per TaskKind, and
// what reads it (names, kinds, validation) agrees with it. That a registry one kind short does
// not build is task_kinds_build_test.cc's (two ctest entries that run the compiler).
#include "workload/task_kinds.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "gpuadvisor/workload.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using workload_internal::kTaskKinds;
using workload_internal::TaskFamily;
using workload_internal::TaskKindDefOf;

static_assert(kTaskKinds.size() == kAllTaskKinds.size());
static_assert(kAllTaskKinds.back() == TaskKind::kAnalytics,
              "a kind added after analytics: update this test's expectations");

TEST(TaskKindsTest, EveryEntryNamesItsRulesValidatorAndEstimator) {
  for (const workload_internal::TaskKindDef& d : workload_internal::kTaskKinds) {
    ASSERT_NE(d.name, nullptr);
    EXPECT_NE(d.is_service, nullptr) << d.name;
    EXPECT_NE(d.validate, nullptr) << d.name;
    EXPECT_NE(d.estimate, nullptr) << d.name;
  }
}

TEST(TaskKindsTest, OneEntryPerKindInEnumOrder) {
  for (TaskKind t : kAllTaskKinds) {
    const workload_internal::TaskKindDef& d = TaskKindDefOf(t);
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.kind, t);
    EXPECT_STREQ(TaskKindName(t), d.name);
    Workload w;
    w.task = TaskKind::kServe;
    ASSERT_TRUE(GiveField(&w, "task", d.name).ok());
    EXPECT_EQ(w.task, t);
    EXPECT_TRUE(WorkloadFieldApplies("task", t));
    EXPECT_EQ(IsLlmTask(t), d.family == TaskFamily::kLlm);
    EXPECT_EQ(IsVisionTask(t), d.family == TaskFamily::kVision);
    EXPECT_EQ(std::string(TaskKindFamily(t)) == d.name, d.family == TaskFamily::kOwn);
  }
}

TEST(TaskKindsTest, EveryKindIsAHelpTopicAndAnUnknownTaskIsRefused) {
  for (TaskKind t : kAllTaskKinds) {
    Result<std::vector<TaskKind>> topic = TasksOfHelpTopic(TaskKindName(t));
    ASSERT_TRUE(topic.ok()) << TaskKindName(t);
    EXPECT_EQ(*topic, std::vector<TaskKind>{t});
  }
  Workload w;
  w.task = TaskKind::kCount;
  Status st = Validate(w);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.field(), "task");
}

TEST(TaskKindsTest, TaskHelpListsEveryKind) {
  std::string names;
  for (TaskKind t : kAllTaskKinds)
    names += (names.empty() ? "" : "|") + std::string(TaskKindName(t));
  const WorkloadFieldInfo* task = FindWorkloadFieldInfo("task");
  ASSERT_NE(task, nullptr);
  EXPECT_EQ(std::string(task->help), names);
}

TEST(TaskKindsTest, ServicesAndPrecisionFollowTheRegistry) {
  Workload w;
  w.task = TaskKind::kServe;
  EXPECT_TRUE(IsService(w));
  w.task = TaskKind::kPretrain;
  EXPECT_FALSE(IsService(w));
  w.task = TaskKind::kInferVision;
  EXPECT_FALSE(IsService(w));
  w.rps = 10;
  EXPECT_TRUE(IsService(w));
  EXPECT_FALSE(PrecisionApplies(TaskKind::kTranscode));
  EXPECT_TRUE(PrecisionApplies(TaskKind::kHpc));
}

}  // namespace
}  // namespace gpuadvisor
