// Every field of a struct that a front end fills is declared (fields.h): an option, a nested
// struct with its own declaration, or NotAnOption. A field added to one of these structs without
// a declaration fails here, so no front end can set a field that the others, --help and OpenAPI
// do not know.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "app/command_args.h"
#include "app/options.h"
#include "app/requests.h"
#include "app/serve.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/simulate.h"
#include "gpuadvisor/watch.h"
#include "workload/workload_options.h"

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
  // LaunchSearch declares ten options of its RecommendRequest (launch's share of recommend's).
  ExpectEveryFieldDeclared<IdleOptions>("IdleOptions");
  ExpectEveryFieldDeclared<TelemetryOptions>("TelemetryOptions");
  ExpectEveryFieldDeclared<PrometheusOptions>("PrometheusOptions");
  ExpectEveryFieldDeclared<IdleArgs>("IdleArgs");
  ExpectEveryFieldDeclared<ScalingPolicy>("ScalingPolicy");
  ExpectEveryFieldDeclared<SimulateArgs>("SimulateArgs");
  ExpectEveryFieldDeclared<WatchOptions>("WatchOptions");
  ExpectEveryFieldDeclared<WatchArgs>("WatchArgs");
  ExpectEveryFieldDeclared<server::ServeOptions>("ServeOptions");
  ExpectEveryFieldDeclared<server::ServeArgs>("ServeArgs");
  ExpectEveryFieldDeclared<OutputArgs>("OutputArgs");
  ExpectEveryFieldDeclared<CatalogBuildArgs>("CatalogBuildArgs");
  ExpectEveryFieldDeclared<CatalogUpgradeArgs>("CatalogUpgradeArgs");
  ExpectEveryFieldDeclared<ImportInputs>("ImportInputs");
  ExpectEveryFieldDeclared<CatalogImportArgs>("CatalogImportArgs");
  ExpectEveryFieldDeclared<CatalogUpdateArgs>("CatalogUpdateArgs");
  ExpectEveryFieldDeclared<CatalogDiffArgs>("CatalogDiffArgs");
  // The workload (workload/workload_options.h), its model and its parallelism.
  ExpectEveryFieldDeclared<Workload>("Workload");
  ExpectEveryFieldDeclared<ModelArch>("ModelArch");
  ExpectEveryFieldDeclared<ParallelismRequest>("ParallelismRequest");
}

// One bound for max-price-age, wherever it is taken (issue 24: the output table, MakeFreshness
// and serve disagreed), with the declaration's message.
TEST(Declarations, MaxPriceAgeHasOneBound) {
  const CommandSpec output = CommandOf<OutputArgs>("output");
  const CommandSpec serve = CommandOf<server::ServeArgs>("serve");
  const OptionSpec* a = output.Find("max-price-age");
  const OptionSpec* b = serve.Find("max-price-age");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->lo, b->lo);
  EXPECT_EQ(a->hi, b->hi);
  EXPECT_EQ(a->default_text, "90");
  OptionValues v(output);
  ASSERT_TRUE(v.Set("max-price-age", "2000000", kCli).ok());
  OutputArgs args;
  const Status st = SetFromOptions(v, &args);
  EXPECT_EQ(st.field(), "max-price-age");
  EXPECT_EQ(st.message(),
            "max-price-age: expected a whole number from 0 to 100000, got \"2000000\"");
}

// The serve settings' bounds are the declaration's (CheckServeOptions keeps the cross-field and
// format checks); defaults are ServeOptions's, the timeouts the read timeout.
TEST(Declarations, ServeBoundsAndDefaultsAreTheDeclarations) {
  const CommandSpec serve = CommandOf<server::ServeArgs>("serve");
  for (const auto& [key, text] : {std::pair{"threads", "0"},
                                  {"port", "70000"},
                                  {"max-connections", "0"},
                                  {"max-connections-per-client", "0"},
                                  {"max-body", "10"},
                                  {"max-write-bytes", "1000"},
                                  {"timeout", "0s"},
                                  {"body-timeout", "0s"},
                                  {"request-timeout", "2h"},
                                  {"drain-timeout", "0s"}}) {
    OptionValues v(serve);
    ASSERT_TRUE(v.Set(key, text, kCli).ok()) << key;
    server::ServeArgs a;
    EXPECT_EQ(SetFromOptions(v, &a).field(), key) << key << " " << text;
  }
  OptionValues v(serve);
  ASSERT_TRUE(v.Set("timeout", "7s", kCli).ok());
  ASSERT_TRUE(v.Set("catalog", "c.json", kCli).ok());
  server::ServeArgs a;
  ASSERT_TRUE(SetFromOptions(v, &a).ok());
  server::TimeoutsFollowRead(&a.server);
  EXPECT_EQ(a.server.keep_alive_timeout_s, 7);
  EXPECT_EQ(a.server.write_timeout_s, 7);
  EXPECT_EQ(a.catalog, "c.json");
  EXPECT_EQ(a.server.port, 8080);
  EXPECT_EQ(serve.Find("max-body")->default_text, "1M");
  EXPECT_EQ(a.server.max_body_bytes, 1000000u);  // 1M as typed
  EXPECT_EQ(serve.Find("max-write-bytes")->default_text, "128M");
  EXPECT_EQ(a.server.max_write_bytes, 128000000u);
}

// Watch and simulate: defaults from the structs, enums parsed by their own parsers.
TEST(Declarations, WatchAndSimulateFillTheirStructs) {
  const CommandSpec watch = CommandOf<WatchArgs>("watch");
  EXPECT_EQ(watch.Find("idle-minutes")->default_text, "30");
  EXPECT_EQ(watch.Find("on-wedged")->default_text, "keep-alive");
  OptionValues w(watch);
  ASSERT_TRUE(w.Set("on-wedged", "STOP", kCli).ok());
  ASSERT_TRUE(w.Set("execute", "", kCli).ok());
  ASSERT_TRUE(w.Set("idle-minutes", "45", kCli).ok());
  WatchArgs wa;
  ASSERT_TRUE(SetFromOptions(w, &wa).ok());
  EXPECT_EQ(wa.options.on_wedged, WedgedPolicy::kStop);
  EXPECT_TRUE(wa.options.execute);
  EXPECT_EQ(wa.options.idle_minutes, 45);

  const CommandSpec simulate = CommandOf<SimulateArgs>("simulate");
  EXPECT_EQ(simulate.Find("step")->default_text, "5m");
  EXPECT_EQ(simulate.Find("capacity-rps")->default_text, "");
  OptionValues s(simulate);
  ASSERT_TRUE(s.Set("min-instances", "3", kCli).ok());
  ASSERT_TRUE(s.Set("seed", "42", kCli).ok());
  SimulateArgs sa;
  ASSERT_TRUE(SetFromOptions(s, &sa).ok());
  EXPECT_EQ(sa.policy.min_instances, 3);
  EXPECT_EQ(sa.seed, 42u);
  EXPECT_FALSE(sa.capacity_rps.has_value());
  EXPECT_EQ(sa.policy.target_utilization, 0.7);

  const CommandSpec output = CommandOf<OutputArgs>("output");
  OptionValues o(output);
  ASSERT_TRUE(o.Set("format", "Markdown", kCli).ok());
  OutputArgs oa;
  ASSERT_TRUE(SetFromOptions(o, &oa).ok());
  EXPECT_EQ(oa.format, OutputFormat::kMarkdown);
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
