// Allow and deny lists of recommend (issue 25, "Plans that can be bought"): which types a list
// names, how lists combine, errors that name the option and the value, and an answer that says
// which list left nothing to search.
#include "recommend/filters.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "app/requests.h"
#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor::recommend_internal {
namespace {

using testing::EmbeddedForTests;
using testing::MakeWorkload;

TypeFilter Make(const RecommendRequest& r) {
  Result<TypeFilter> f = TypeFilter::Make(EmbeddedForTests(), r);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  return f.ok() ? std::move(f).value() : TypeFilter{};
}

bool Allows(const TypeFilter& f, const char* type) {
  const InstanceType* t = EmbeddedForTests().FindInstanceType(type);
  EXPECT_NE(t, nullptr) << type;
  return t != nullptr && f.Allows(*t);
}

TEST(TypeFilterTest, NoListAllowsEveryType) {
  const TypeFilter f = Make({});
  EXPECT_TRUE(Allows(f, "p5.48xlarge"));
  EXPECT_TRUE(Allows(f, "g4dn.xlarge"));
  EXPECT_TRUE(f.applied().steps.empty());
  EXPECT_EQ(f.applied().types_left, f.applied().types_in_catalog);
  EXPECT_TRUE(f.applied().emptied_by.empty());
}

TEST(TypeFilterTest, FamiliesAreExactAndAnyCase) {
  RecommendRequest r;
  r.only_families = {"P5", "g6e"};
  const TypeFilter f = Make(r);
  EXPECT_TRUE(Allows(f, "p5.48xlarge"));
  EXPECT_TRUE(Allows(f, "p5.4xlarge"));
  EXPECT_TRUE(Allows(f, "g6e.xlarge"));
  EXPECT_FALSE(Allows(f, "p5en.48xlarge"));  // another family
  EXPECT_FALSE(Allows(f, "p5e.48xlarge"));
  EXPECT_FALSE(Allows(f, "g6.xlarge"));
  ASSERT_EQ(f.applied().steps.size(), 1u);
  EXPECT_EQ(f.applied().steps[0].option, "only-family");
  EXPECT_EQ(f.applied().steps[0].values, (std::vector<std::string>{"p5", "g6e"}));
  r = {};
  r.exclude_families = {"p5"};
  const TypeFilter x = Make(r);
  EXPECT_FALSE(Allows(x, "p5.48xlarge"));
  EXPECT_TRUE(Allows(x, "p5en.48xlarge"));
}

TEST(TypeFilterTest, GpusByModelAnyCaseAModelFamilyNamesEveryVariantAndNeuronCounts) {
  RecommendRequest r;
  r.only_gpus = {"a100", "h200", "Trainium2"};
  const TypeFilter f = Make(r);
  EXPECT_TRUE(Allows(f, "p4d.24xlarge"));    // A100-40GB
  EXPECT_TRUE(Allows(f, "p4de.24xlarge"));   // A100-80GB
  EXPECT_TRUE(Allows(f, "p5en.48xlarge"));   // H200
  EXPECT_TRUE(Allows(f, "trn2.48xlarge"));   // Trainium2
  EXPECT_FALSE(Allows(f, "trn1.32xlarge"));  // Trainium is another model
  EXPECT_FALSE(Allows(f, "p5.48xlarge"));    // H100
  EXPECT_EQ(f.applied().steps[0].values,
            (std::vector<std::string>{"A100-40GB", "A100-80GB", "H200", "Trainium2"}));
  r = {};
  r.exclude_gpus = {"T4", "inferentia2"};
  const TypeFilter x = Make(r);
  EXPECT_FALSE(Allows(x, "g4dn.xlarge"));
  EXPECT_FALSE(Allows(x, "inf2.xlarge"));
  EXPECT_TRUE(Allows(x, "g5g.xlarge"));  // T4G is not T4
  EXPECT_TRUE(Allows(x, "inf1.xlarge"));
}

TEST(TypeFilterTest, AllowListsIntersectAndDenyListsSubtract) {
  RecommendRequest r;
  r.only_families = {"p5", "p4d", "g6e"};
  r.only_gpus = {"H100", "A100"};
  r.exclude_instances = {"P5.4xlarge"};
  const TypeFilter f = Make(r);
  EXPECT_TRUE(Allows(f, "p5.48xlarge"));
  EXPECT_TRUE(Allows(f, "p4d.24xlarge"));
  EXPECT_FALSE(Allows(f, "p5.4xlarge"));     // excluded by name
  EXPECT_FALSE(Allows(f, "g6e.xlarge"));     // not an allowed GPU
  EXPECT_FALSE(Allows(f, "p4de.24xlarge"));  // not an allowed family
  const AppliedFilters& a = f.applied();
  ASSERT_EQ(a.steps.size(), 3u);
  EXPECT_EQ(a.steps[0].option, "only-family");
  EXPECT_EQ(a.steps[1].option, "only-gpu");
  EXPECT_EQ(a.steps[2].option, "exclude-instance");
  EXPECT_EQ(a.steps[0].before, a.types_in_catalog);
  EXPECT_EQ(a.steps[1].before, a.steps[0].after);
  EXPECT_EQ(a.steps[2].after, a.steps[2].before - 1);
  EXPECT_EQ(a.types_left, a.steps[2].after);
  EXPECT_EQ(a.steps[2].values, (std::vector<std::string>{"p5.4xlarge"}));
  EXPECT_TRUE(a.emptied_by.empty());
  // An allow list and a deny list on the same name: the deny list wins.
  r = {};
  r.only_instances = {"p5.48xlarge", "p4d.24xlarge"};
  r.exclude_gpus = {"H100"};
  const TypeFilter g = Make(r);
  EXPECT_FALSE(Allows(g, "p5.48xlarge"));
  EXPECT_TRUE(Allows(g, "p4d.24xlarge"));
  EXPECT_EQ(g.applied().types_left, 1);
}

TEST(TypeFilterTest, UnknownNamesNameTheOptionAndTheValueWithAHint) {
  struct Case {
    void (*set)(RecommendRequest&);
    const char* field;
    const char* message;
  };
  const Case cases[] = {
      {[](RecommendRequest& r) { r.only_families = {"p5", "p9"}; }, "only-family",
       "only-family: unknown instance family \"p9\"; did you mean"},
      {[](RecommendRequest& r) { r.exclude_families = {"g6x"}; }, "exclude-family",
       "exclude-family: unknown instance family \"g6x\"; did you mean"},
      {[](RecommendRequest& r) { r.only_gpus = {"H1000"}; }, "only-gpu",
       "only-gpu: unknown GPU \"H1000\"; did you mean H100?"},
      {[](RecommendRequest& r) { r.exclude_gpus = {"T5"}; }, "exclude-gpu",
       "exclude-gpu: unknown GPU \"T5\""},
      {[](RecommendRequest& r) { r.only_instances = {"p5.48xlarg"}; }, "only-instance",
       "only-instance: unknown instance type \"p5.48xlarg\"; did you mean p5.48xlarge"},
      {[](RecommendRequest& r) { r.exclude_instances = {"g4dn.xlarge", "zz"}; }, "exclude-instance",
       "exclude-instance: unknown instance type \"zz\""},
  };
  for (const Case& c : cases) {
    RecommendRequest r;
    c.set(r);
    const Status st = TypeFilter::Make(EmbeddedForTests(), r).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.field;
    EXPECT_EQ(st.field(), c.field);
    EXPECT_EQ(st.message().rfind(c.message, 0), 0u) << st.message();
    // Recommend refuses the request the same way, before any search.
    const Status rec = Recommend(EmbeddedForTests(),
                                 MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}}), r)
                           .status();
    EXPECT_EQ(rec.field(), c.field);
    EXPECT_EQ(rec.message(), st.message());
  }
}

TEST(TypeFilterTest, TheListThatEmptiesTheFieldIsNamed) {
  RecommendRequest r;
  r.only_families = {"p5"};
  r.exclude_gpus = {"H100"};
  r.exclude_instances = {"g4dn.xlarge"};  // after the field is empty: changes nothing
  const AppliedFilters a = Make(r).applied();
  EXPECT_EQ(a.emptied_by, "exclude-gpu");
  EXPECT_EQ(a.types_left, 0);
  const int p5 = a.steps[0].after;
  EXPECT_GT(p5, 0);
  EXPECT_EQ(a.note, "no instance type is left to search: only-family p5 leaves " +
                        std::to_string(p5) + " of the " + std::to_string(a.types_in_catalog) +
                        " instance types, then exclude-gpu H100 leaves none of them");
  // A model no instance type carries empties the field at once (GB200 without its UltraServers,
  // the only records that carry it).
  Catalog without = EmbeddedForTests();
  ASSERT_TRUE(without.RemoveInstanceType("u-p6e-gb200x36"));
  ASSERT_TRUE(without.RemoveInstanceType("u-p6e-gb200x72"));
  r = {};
  r.only_gpus = {"GB200"};
  Result<TypeFilter> gb200 = TypeFilter::Make(without, r);
  ASSERT_TRUE(gb200.ok()) << gb200.status().ToString();
  const AppliedFilters b = gb200->applied();
  EXPECT_EQ(b.emptied_by, "only-gpu");
  EXPECT_EQ(b.note, "no instance type is left to search: only-gpu GB200 leaves none of the " +
                        std::to_string(b.types_in_catalog) + " instance types");
}

}  // namespace
}  // namespace gpuadvisor::recommend_internal

namespace gpuadvisor {
namespace {

using testing::EmbeddedForTests;
using testing::MakeWorkload;

TEST(RecommendFiltersTest, EveryPlanAlternativeAndLeverKeepsToTheLists) {
  RecommendRequest r;
  r.top = 10;
  r.only_gpus = {"H100", "H200", "A100"};
  r.exclude_families = {"p5en"};
  const Result<Recommendation> rec =
      Recommend(EmbeddedForTests(),
                MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-70b"}, {"rps", "1"}}), r);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  ASSERT_FALSE(rec->plans.empty());
  const std::set<std::string> models = {"H100", "H200", "A100-40GB", "A100-80GB"};
  auto check = [&](const Plan& p) {
    EXPECT_TRUE(models.count(p.type->accelerator.model)) << p.type->name;
    EXPECT_NE(p.type->family, "p5en");
    for (const SavingsLever& l : p.savings) {
      // A quantisation lever may move to another type: only to one the lists allow.
      for (const char* other : {" on g", " on inf", " on trn", " on p5en", " on p6"}) {
        EXPECT_EQ(l.detail.find(other), std::string::npos) << l.detail;
      }
    }
  };
  for (const Plan& p : rec->plans) check(p);
  for (const Plan& p : rec->pareto) check(p);
  for (const Plan& p : rec->purchase_alternatives) check(p);
  if (rec->high_confidence_alternative) check(*rec->high_confidence_alternative);
  // Types left out by a list are no rejections: rejected explains only the searched types.
  for (const Rejection& x : rec->rejected) {
    EXPECT_EQ(x.instance_type.find("g4dn"), std::string::npos) << x.instance_type;
  }
  EXPECT_EQ(rec->filters.steps.size(), 2u);
  EXPECT_TRUE(rec->filters.emptied_by.empty());
}

TEST(RecommendFiltersTest, AnEmptiedFieldIsAnAnswerWithNoPlanAndItsNote) {
  RecommendRequest r;
  r.only_instances = {"g4dn.xlarge"};
  r.exclude_gpus = {"T4"};
  const Result<Recommendation> rec = Recommend(
      EmbeddedForTests(), MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}}), r);
  ASSERT_TRUE(rec.ok()) << rec.status().ToString();
  EXPECT_TRUE(rec->plans.empty());
  EXPECT_TRUE(rec->rejected.empty());
  EXPECT_EQ(rec->candidates, 0);
  EXPECT_EQ(rec->filters.emptied_by, "exclude-gpu");
  EXPECT_EQ(rec->filters.note,
            "no instance type is left to search: only-instance g4dn.xlarge leaves 1 of the " +
                std::to_string(rec->filters.types_in_catalog) +
                " instance types, then exclude-gpu T4 leaves none of them");
}

// A family merged into one rejection line ("inf1.* (4 sizes)") means every size: with one size
// left out by a list, the others are named.
TEST(RecommendFiltersTest, AFamilyWithASizeLeftOutIsNotMerged) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-70b"}, {"rps", "1"}});
  auto line = [&](const RecommendRequest& r) {
    const Result<Recommendation> rec = Recommend(EmbeddedForTests(), w, r);
    EXPECT_TRUE(rec.ok()) << rec.status().ToString();
    for (const Rejection& x : rec->rejected) {
      if (x.instance_type.rfind("inf1.", 0) == 0) return x.instance_type;
    }
    return std::string();
  };
  EXPECT_EQ(line({}), "inf1.* (4 sizes)");
  RecommendRequest r;
  r.exclude_instances = {"inf1.xlarge"};
  const std::string named = line(r);
  EXPECT_EQ(named.find("inf1.*"), std::string::npos) << named;
  EXPECT_EQ(named.find("inf1.xlarge"), std::string::npos) << named;
  EXPECT_NE(named.find("inf1.2xlarge"), std::string::npos) << named;
}

// The lists are options of recommend's table (one declaration), with launch's share at the CLI.
TEST(RecommendFiltersTest, ListsAreRecommendOptionsAndLaunchSearchOptions) {
  const CommandSpec spec = CommandOf<RecommendArgs>("recommend");
  OptionValues v(spec);
  ASSERT_TRUE(v.Set("only-family", "p5,g6e", kCli).ok());
  ASSERT_TRUE(v.Set("exclude-instance", "p5.4xlarge", kCli).ok());
  const Result<RecommendRequest> r = MakeRecommendRequest(v);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->only_families, (std::vector<std::string>{"p5", "g6e"}));
  EXPECT_EQ(r->exclude_instances, (std::vector<std::string>{"p5.4xlarge"}));
  const CommandSpec launch = CommandOf<LaunchArgs>("launch");
  for (const char* name : {"only-family", "exclude-family", "only-gpu", "exclude-gpu",
                           "only-instance", "exclude-instance"}) {
    ASSERT_NE(spec.Find(name), nullptr) << name;
    EXPECT_EQ(spec.Find(name)->front_ends, static_cast<unsigned>(kEveryFrontEnd)) << name;
    ASSERT_NE(launch.Find(name), nullptr) << name;
    EXPECT_EQ(launch.Find(name)->front_ends, static_cast<unsigned>(kCli)) << name;
  }
  OptionValues lv(launch);
  ASSERT_TRUE(lv.Set("only-gpu", "L4", kCli).ok());
  const Result<RecommendRequest> search = MakeLaunchSearch(lv);
  ASSERT_TRUE(search.ok()) << search.status().ToString();
  EXPECT_EQ(search->only_gpus, (std::vector<std::string>{"L4"}));
}

}  // namespace
}  // namespace gpuadvisor
