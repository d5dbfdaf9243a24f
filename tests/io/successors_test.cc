// RetiredSuccessors (app/successors.h): the rules, checked against every candidate of the
// embedded catalog rather than against names a catalog refresh may change.
#include "app/successors.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuadvisor {
namespace {

const Catalog& C() {
  static std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  return *c;
}

double Usd(const InstanceType& t, const std::string& region) {
  const RegionOffer* o = t.FindRegion(region);
  return o && o->on_demand && o->offered.value_or(true) ? o->on_demand->usd_per_hour : 1e18;
}

double Mem(const InstanceType& t) {
  return static_cast<double>(t.accelerator.memory_mib_each.value_or(0));
}

double Tensor16(const InstanceType& t) {
  const GpuSpec* g = C().GpuOf(t);
  return g ? g->fp16_tflops.value_or(g->bf16_tflops.value_or(0)) : 0;
}

TEST(Successors, EveryRetiredTypeFollowsTheRules) {
  const std::string region = "us-east-1";
  int named = 0;
  for (const InstanceType& t : C().instance_types()) {
    const std::vector<Successor> next = RetiredSuccessors(C(), t, region);
    if (!t.retired) {
      EXPECT_TRUE(next.empty()) << t.name;
      continue;
    }
    for (const Successor& s : next) {
      const InstanceType& u = *s.type;
      ++named;
      EXPECT_FALSE(u.retired) << t.name << " -> " << u.name;
      EXPECT_EQ(u.accelerator.kind, t.accelerator.kind) << t.name << " -> " << u.name;
      EXPECT_LT(Usd(u, region), 1e18) << u.name << " is not priced in " << region;
      const std::string use = s.use;
      if (use == "same GPU") continue;
      const bool multi = use == "multi-node";
      // A fit for the use, and no fitting type is cheaper.
      auto fits = [&](const InstanceType& v) {
        return !v.retired && v.accelerator.kind == t.accelerator.kind &&
               v.accelerator.device_equivalents() >= t.accelerator.device_equivalents() &&
               Mem(v) >= Mem(t) && Tensor16(v) >= Tensor16(t) &&
               (!multi || (v.efa && v.accelerator.device_equivalents() >= 8));
      };
      EXPECT_TRUE(fits(u)) << t.name << " -> " << u.name << " (" << use << ")";
      for (const InstanceType& v : C().instance_types()) {
        if (fits(v)) {
          EXPECT_GE(Usd(v, region), Usd(u, region)) << t.name << ": " << v.name;
        }
      }
    }
  }
  EXPECT_GT(named, 0);
}

TEST(Successors, P3NamesTheV100LineFirst) {
  const InstanceType* p3 = C().FindInstanceType("p3.2xlarge");
  ASSERT_NE(p3, nullptr);
  const std::vector<Successor> next = RetiredSuccessors(C(), *p3, "us-east-1");
  ASSERT_GE(next.size(), 2u);
  EXPECT_STREQ(next[0].use, "same GPU");
  EXPECT_EQ(next[0].type->family, "p3dn");
  EXPECT_EQ(SuccessorsText(next).rfind("p3dn.24xlarge (same GPU), ", 0), 0u);
  // Not priced anywhere in a region the catalog does not hold: nothing to name.
  EXPECT_TRUE(RetiredSuccessors(C(), *p3, "xx-nowhere-1").empty());
}

}  // namespace
}  // namespace gpuadvisor
