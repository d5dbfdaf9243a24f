// Every field of a struct that a front end fills is declared (fields.h): an option, a nested
// struct with its own declaration, or NotAnOption. A field added to one of these structs without
// a declaration fails here, so no front end can set a field that the others, --help and OpenAPI
// do not know.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "app/options.h"
#include "app/requests.h"

namespace gpuadvisor {
namespace {

// Converts to any field type, in unevaluated brace-initialization only: the most initializers an
// aggregate takes is its number of fields.
struct AnyField {
  template <typename T>
  operator T&() const&&;  // NOLINT(google-explicit-constructor): never defined
};
template <typename T, typename... A>
constexpr size_t FieldCount() {
  if constexpr (requires { T{A{}..., AnyField{}}; }) {
    return FieldCount<T, A..., AnyField>();
  } else {
    return sizeof...(A);
  }
}

template <typename R>
void ExpectEveryFieldDeclared(const char* name) {
  EXPECT_EQ(DeclaredFieldCount<R>(), FieldCount<R>())
      << name << ": a field without a declaration (DeclareOptions: an option, Nested or "
      << "NotAnOption)";
}

TEST(Declarations, EveryFieldOfEveryRequestStructIsDeclared) {
  ExpectEveryFieldDeclared<InstanceQuery>("InstanceQuery");
  ExpectEveryFieldDeclared<ShowArgs>("ShowArgs");
  ExpectEveryFieldDeclared<GpusArgs>("GpusArgs");
  ExpectEveryFieldDeclared<PricingArgs>("PricingArgs");
  ExpectEveryFieldDeclared<UsagePattern>("UsagePattern");
  ExpectEveryFieldDeclared<HardwareRequest>("HardwareRequest");
  ExpectEveryFieldDeclared<RecommendRequest>("RecommendRequest");
  ExpectEveryFieldDeclared<RecommendArgs>("RecommendArgs");
  ExpectEveryFieldDeclared<LaunchRequest>("LaunchRequest");
  ExpectEveryFieldDeclared<LaunchArgs>("LaunchArgs");
  // LaunchSearch declares four options of its RecommendRequest (launch's share of recommend's).
  ExpectEveryFieldDeclared<IdleOptions>("IdleOptions");
  ExpectEveryFieldDeclared<TelemetryOptions>("TelemetryOptions");
  ExpectEveryFieldDeclared<PrometheusOptions>("PrometheusOptions");
  ExpectEveryFieldDeclared<IdleArgs>("IdleArgs");
}

// The counter itself: a struct with an undeclared field is caught.
struct TwoFields {
  int a = 0;
  int b = 0;
};
template <typename V>
void DeclareOptions(V& v, TwoFields& t) {
  v.Integer("a", t.a, {.help = "A"});
}

TEST(Declarations, AnUndeclaredFieldIsCaught) {
  EXPECT_EQ(FieldCount<TwoFields>(), 2u);
  EXPECT_EQ(DeclaredFieldCount<TwoFields>(), 1u);
}

// Defaults come from the struct: what --help, OpenAPI and Python show is the struct's value.
TEST(Declarations, DefaultsAreTheStructsValues) {
  const CommandSpec pricing = CommandOf<PricingArgs>("pricing");
  const OptionSpec* restart = pricing.Find("restart");
  ASSERT_NE(restart, nullptr);
  EXPECT_EQ(restart->default_text, "10m");  // UsagePattern::restart_s = 600
  const OptionSpec* count = pricing.Find("count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->default_text, "1");
  // A value outside the bounds stands for "not given": no default is shown.
  const CommandSpec estimate = CommandOf<HardwareRequest>("estimate");
  ASSERT_NE(estimate.Find("gpus"), nullptr);
  EXPECT_EQ(estimate.Find("gpus")->default_text, "");
  EXPECT_EQ(estimate.Find("region")->default_text, "us-east-1");
}

// The setter fills the struct from typed values and from text alike, and leaves what was not
// given at the struct's defaults.
TEST(Declarations, SetterTakesTypedValuesAndKeepsDefaults) {
  const CommandSpec spec = CommandOf<InstanceQuery>("instances");
  OptionValues v(spec);
  ASSERT_TRUE(v.SetNumber("min-gpus", 8, kPython).ok());
  ASSERT_TRUE(v.Set("max_gpus", "16", kHttp).ok());
  ASSERT_TRUE(v.SetBool("efa", true, kPython).ok());
  ASSERT_TRUE(v.Set("purchase", "spot", kCli).ok());
  InstanceQuery q;
  ASSERT_TRUE(SetFromOptions(v, &q).ok());
  EXPECT_EQ(q.min_gpus, 8.0);
  EXPECT_EQ(q.max_gpus, 16.0);
  EXPECT_TRUE(q.efa_only);
  EXPECT_EQ(q.purchase, PurchaseKind::kSpot);
  EXPECT_EQ(q.region, "us-east-1");
  EXPECT_FALSE(q.limit.has_value());

  // A typed number is checked against the same bounds as text, with the same message.
  OptionValues bad(spec);
  ASSERT_TRUE(bad.SetNumber("min-gpus", 2048, kPython).ok());
  const Status st = SetFromOptions(bad, &q);
  EXPECT_EQ(st.field(), "min-gpus");
  EXPECT_EQ(st.message(), "min-gpus: expected a number from 0 to 1024, got \"2048\"");
}

// launch shares recommend's declarations of its search options (the same bounds and defaults,
// CLI only); a field counting hours gets the duration's seconds divided; a list of enum values
// keeps each value once (an alias and its canonical name are one).
TEST(Declarations, LaunchSharesRecommendsSearchOptions) {
  const CommandSpec recommend = CommandOf<RecommendArgs>("recommend");
  const CommandSpec launch = CommandOf<LaunchArgs>("launch");
  for (const char* name : {"deadline", "budget", "max-instances", "objective"}) {
    const OptionSpec* r = recommend.Find(name);
    const OptionSpec* l = launch.Find(name);
    ASSERT_NE(r, nullptr) << name;
    ASSERT_NE(l, nullptr) << name;
    EXPECT_EQ(l->lo, r->lo) << name;
    EXPECT_EQ(l->hi, r->hi) << name;
    EXPECT_EQ(l->default_text, r->default_text) << name;
    EXPECT_EQ(l->front_ends, unsigned{kCli}) << name;
  }
  EXPECT_EQ(recommend.Find("max-instances")->default_text, "64");
  EXPECT_EQ(recommend.Find("objective")->default_text, "cost");

  OptionValues v(recommend);
  ASSERT_TRUE(v.Set("deadline", "2d", kCli).ok());
  ASSERT_TRUE(v.Set("purchase", "spot,reserved,reserved-1y-no-upfront", kCli).ok());
  ASSERT_TRUE(v.Set("objective", "Time", kHttp).ok());
  RecommendArgs a;
  ASSERT_TRUE(SetFromOptions(v, &a).ok());
  EXPECT_EQ(a.request.deadline_hours, 48.0);
  EXPECT_EQ(a.request.purchase,
            (std::vector<PurchaseKind>{PurchaseKind::kSpot, PurchaseKind::kReserved1y}));
  EXPECT_EQ(a.request.objective, Objective::kTime);
}

// idle's defaults come from IdleOptions and PrometheusOptions.
TEST(Declarations, IdleDefaultsAreTheStructsValues) {
  const CommandSpec idle = CommandOf<IdleArgs>("idle");
  EXPECT_EQ(idle.Find("idle-window")->default_text, "30m");
  EXPECT_EQ(idle.Find("min-rightsizing-span")->default_text, "24h");
  EXPECT_EQ(idle.Find("since")->default_text, "7d");
  EXPECT_EQ(idle.Find("step")->default_text, "5m");
  EXPECT_EQ(idle.Find("prometheus-max-points")->default_text, "500000");
  EXPECT_EQ(idle.Find("telemetry-format")->default_text, "auto");
}

// A typed number for a duration counts hours, as a plain number typed as text does.
TEST(Declarations, TypedDurationIsHours) {
  const CommandSpec spec = CommandOf<PricingArgs>("pricing");
  OptionValues typed(spec), text(spec);
  ASSERT_TRUE(typed.SetNumber("restart", 0.5, kPython).ok());
  ASSERT_TRUE(text.Set("restart", "0.5", kCli).ok());
  PricingArgs a, b;
  ASSERT_TRUE(SetFromOptions(typed, &a).ok());
  ASSERT_TRUE(SetFromOptions(text, &b).ok());
  EXPECT_EQ(a.usage.restart_s, 1800);
  EXPECT_EQ(b.usage.restart_s, 1800);
}

}  // namespace
}  // namespace gpuadvisor
