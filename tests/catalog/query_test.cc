// Queries over the embedded catalog: the figures a user would check against AWS.
#include "gpuadvisor/query.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpuadvisor {
namespace {

const Catalog& C() {
  static std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  return *c;
}

TEST(EmbeddedCatalogTest, CoversCurrentAndRetiredTypes) {
  int current = 0, retired = 0;
  for (const InstanceType& t : C().instance_types) (t.retired ? retired : current)++;
  EXPECT_EQ(current, 90);
  EXPECT_EQ(retired, 16);
  EXPECT_TRUE(C().FindInstanceType("p3.16xlarge")->retired);
}

TEST(EmbeddedCatalogTest, P5Facts) {
  const InstanceType* p5 = C().FindInstanceType("p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->accelerator.count, 8);
  EXPECT_EQ(*p5->accelerator.memory_mib_each, 81920);
  EXPECT_TRUE(p5->efa);
  EXPECT_EQ(p5->accelerator.model, "H100");
  EXPECT_DOUBLE_EQ(*C().GpuOf(*p5)->bf16_tflops, 989.5);
  EXPECT_DOUBLE_EQ(p5->FindRegion("us-east-1")->on_demand->usd_per_hour, 55.04);
  EXPECT_DOUBLE_EQ(
      C().FindInstanceType("g6.xlarge")->FindRegion("us-east-1")->on_demand->usd_per_hour, 0.8048);
}

TEST(QueryTest, DefaultListsCurrentTypesInUsEast1) {
  Result<std::vector<InstanceRow>> rows = QueryInstances(C(), InstanceQuery{});
  ASSERT_TRUE(rows.ok());
  EXPECT_GE(rows->size(), 80u);
  for (const InstanceRow& r : *rows) EXPECT_FALSE(r.type->retired) << r.type->name;
  InstanceQuery with_retired;
  with_retired.include_retired = true;
  auto all = QueryInstances(C(), with_retired);
  EXPECT_TRUE(std::any_of(all->begin(), all->end(),
                          [](const InstanceRow& r) { return r.type->name == "p3.2xlarge"; }));
}

TEST(QueryTest, GpuAndMinGpusCombine) {
  InstanceQuery q;
  q.gpus = {"L4"};
  q.min_gpus = 4;
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  ASSERT_FALSE(rows->empty());
  for (const InstanceRow& r : *rows) {
    EXPECT_EQ(r.type->accelerator.model, "L4");
    EXPECT_TRUE(r.type->accelerator.count == 4 || r.type->accelerator.count == 8) << r.type->name;
  }
}

TEST(QueryTest, SortDescendingPutsUnknownLast) {
  InstanceQuery q;
  q.sort = "usd_per_bf16_tflop_hour";
  q.sort_descending = true;
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  bool seen_null = false;
  double prev = 1e300;
  for (const InstanceRow& r : *rows) {
    if (!r.usd_per_bf16_tflop_hour) {
      seen_null = true;
      continue;
    }
    EXPECT_FALSE(seen_null) << "a known value after an unknown one";
    EXPECT_LE(*r.usd_per_bf16_tflop_hour, prev);
    prev = *r.usd_per_bf16_tflop_hour;
  }
}

TEST(QueryTest, AllRegionsCoversEveryPricedRegion) {
  InstanceQuery q;
  q.region = "all";
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  std::vector<std::string> regions;
  for (const InstanceRow& r : *rows) regions.push_back(r.region);
  std::sort(regions.begin(), regions.end());
  regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
  EXPECT_GE(regions.size(), 25u);
}

TEST(QueryTest, BadInputGetsSuggestions) {
  InstanceQuery q;
  q.region = "us-est-1";
  auto r = QueryInstances(C(), q);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did you mean us-east-1"), std::string::npos);
  InstanceQuery g;
  g.gpus = {"H10O"};
  EXPECT_FALSE(QueryInstances(C(), g).ok());
  auto t = ResolveInstanceType(C(), "p5.48xlarg");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("p5.48xlarge"), std::string::npos);
}

TEST(QueryTest, DaysBetween) {
  EXPECT_EQ(*DaysBetween("2026-07-20", "2026-12-02"), 135);
  EXPECT_FALSE(DaysBetween("", "2026-12-02").has_value());
}

}  // namespace
}  // namespace gpuadvisor
