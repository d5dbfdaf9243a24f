// Recommendation (doc/recommend.md): for one workload, search instance type x instance count x
// region x purchase option (x parallelism, chosen by the estimator) over the whole catalog, keep
// the plans that fit and meet the constraints, rank them by an objective, and say why — for the
// plans and for every family left out.
//
// Recommend() is a pure function of the catalog and its arguments; the catalog must outlive the
// result (plans point into it). Thread-safe for concurrent calls on a shared catalog.
#ifndef GPUADVISOR_RECOMMEND_H_
#define GPUADVISOR_RECOMMEND_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/account.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/purchase.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor {

enum class Objective { kCost, kTime, kBalanced };  // names "cost", "time", "balanced"
const char* ObjectiveName(Objective o);
// A name (any case) -> the objective; InvalidArgument naming the option "objective".
Result<Objective> ParseObjective(std::string_view text);

// How much doubt the top of the ranking may carry (doc/recommend.md, "Doubts"). kSound: a plan the
// engine itself doubts — capacity it calls rarely available, an AWS Neuron plan for a model the
// Neuron SDK's list does not support or whose Neuron estimate is of low confidence, a multi-day
// spot gang — ranks after every plan it does not doubt. kAny: every plan by its score alone.
// Names "sound", "any".
enum class Risk { kSound, kAny };
const char* RiskName(Risk r);
Result<Risk> ParseRisk(std::string_view text);

struct RecommendRequest {
  std::optional<double> deadline_hours;  // wall clock of the run
  std::optional<double> budget_usd;      // cost of the run
  std::vector<std::string> regions;      // empty = {"us-east-1"}; {"all"} = every region
  // Dated exchange rates ("CNY=7.1@2026-12-01"): regions priced in another currency than USD
  // (AWS China) are ranked with the USD ones only when a rate is given; else each currency is
  // ranked on its own (Recommendation::other_currencies). Parsed by Recommend().
  std::vector<std::string> fx;
  std::vector<PurchaseKind> purchase;  // empty = on-demand, plus spot for training runs
  int max_instances = 64;              // per plan
  int max_gpus = 0;                    // 0 = no limit
  bool allow_retired = false;
  // Allow and deny lists (empty = no limit), names as the catalog has them: instance families
  // ("p5"; exact, so p5 is not p5en), accelerator models (any case; "A100" = both memory
  // variants, "Trainium2" counts) and instance types. A type is searched when every allow list
  // given names it and no deny list does; a name the catalog lacks is an error.
  std::vector<std::string> only_families, exclude_families;
  std::vector<std::string> only_gpus, exclude_gpus;
  std::vector<std::string> only_instances, exclude_instances;
  Objective objective = Objective::kCost;
  Risk risk = Risk::kSound;
  // One row per size and count (each its own plan) instead of one row per option with the other
  // sizes and counts folded under it (Plan::sweep).
  bool all_sizes = false;
  int top = 5;
  bool explain = false;        // keep the assumption texts of the top plans
  bool savings_levers = true;  // evaluate the guide's savings levers for top plans
  // The buyer's account (`account scan`), when known: plans it cannot launch (over a vCPU quota,
  // or the type offered in no zone of the region) rank below those it can, and every plan says
  // what the account has of it (AccountFit). Not owned; outlives the call.
  const AccountScan* account = nullptr;
  // Asked between instance types and between the top plans: once it returns true the search
  // stops with an IOError saying so (a server's client has gone, its wall time is up). Null:
  // never stopped.
  std::function<bool()> cancelled;
};

// recommend's search limits, each declared once (fields.h): `launch` takes the same four, and
// the allow/deny lists (DeclareFilters), for a workload's search (LaunchSearch, app/requests.h).
template <typename V>
void DeclareDeadline(V& v, RecommendRequest& r) {
  v.Duration("deadline", r.deadline_hours,
             {.help = "Finish within this time",
              .lo = 60,
              .hi = 3650 * 86400.0,
              .seconds_per_unit = 3600});
}
template <typename V>
void DeclareBudget(V& v, RecommendRequest& r) {
  v.Number("budget", r.budget_usd,
           {.help = "Spend at most this on the run", .unit = "USD", .lo = 0.01, .hi = 1e12});
}
template <typename V>
void DeclareMaxInstances(V& v, RecommendRequest& r) {
  v.Integer("max-instances", r.max_instances, {.help = "Instances per plan", .lo = 1, .hi = 4096});
}
template <typename V>
void DeclareObjective(V& v, RecommendRequest& r) {
  v.Enum("objective", r.objective, ObjectiveName, ParseObjective,
         {.help = "What ranks plans",
          .choices = {ObjectiveName(Objective::kCost), ObjectiveName(Objective::kTime),
                      ObjectiveName(Objective::kBalanced)}});
}

// The allow and deny lists (RecommendRequest::only_families ...): recommend's, and launch's for
// a workload's search.
template <typename V>
void DeclareFilters(V& v, RecommendRequest& r) {
  v.List(
      "only-family", r.only_families,
      {.help = "Search only these instance families (exact: p5 is not p5en)", .metavar = "FAMILY"});
  v.List("exclude-family", r.exclude_families,
         {.help = "Never these instance families", .metavar = "FAMILY"});
  v.List("only-gpu", r.only_gpus,
         {.help = "Search only these accelerator models: H100, A100 (both sizes), Trainium2 ...",
          .metavar = "GPU"});
  v.List("exclude-gpu", r.exclude_gpus,
         {.help = "Never these accelerator models", .metavar = "GPU"});
  v.List("only-instance", r.only_instances,
         {.help = "Search only these instance types", .metavar = "TYPE"});
  v.List("exclude-instance", r.exclude_instances,
         {.help = "Never these instance types", .metavar = "TYPE"});
}

// The `recommend` command's search options (fields.h).
template <typename V>
void DeclareOptions(V& v, RecommendRequest& r) {
  DeclareDeadline(v, r);
  DeclareBudget(v, r);
  v.List("regions", r.regions,
         {.help = "Regions to search, or all (default us-east-1); AWS China regions "
                  "(cn-north-1, cn-northwest-1) are priced in CNY",
          .metavar = "REGION"});
  v.List("fx", r.fx,
         {.help = "A dated exchange rate, units per USD, that ranks CNY-priced regions with USD "
                  "ones (without it each currency is ranked on its own)",
          .label = "Exchange rate",
          .metavar = "CNY=RATE@YYYY-MM-DD"});
  v.EnumList(
      "purchase", r.purchase, PurchaseKindName, ParsePurchaseOption("purchase"),
      {.help = "Purchase options to search (default on-demand, plus spot for batch jobs)",
       .choices = {PurchaseKindName(PurchaseKind::kOnDemand), PurchaseKindName(PurchaseKind::kSpot),
                   PurchaseKindName(PurchaseKind::kReserved1y),
                   PurchaseKindName(PurchaseKind::kCapacityBlock)}});
  DeclareMaxInstances(v, r);
  v.Integer("max-gpus", r.max_gpus, {.help = "GPUs per plan", .lo = 1, .hi = 1000000});
  DeclareObjective(v, r);
  v.Enum("risk", r.risk, RiskName, ParseRisk,
         {.help = "sound: plans the engine doubts (rarely available capacity, an unsupported "
                  "Neuron port, a multi-day spot gang) rank after the others; any: by score alone",
          .choices = {RiskName(Risk::kSound), RiskName(Risk::kAny)}});
  v.Integer("top", r.top, {.help = "Plans to show", .lo = 1, .hi = 1000});
  v.Bool("all-sizes", r.all_sizes,
         {.help = "A row for every size and count (default: one row per option, the other sizes "
                  "and counts folded under it)"});
  v.Bool("allow-retired", r.allow_retired, {.help = "Consider retired instance types"});
  DeclareFilters(v, r);
  v.Bool("explain", r.explain, {.help = "Full reasoning: assumptions and every rejection"});
  v.NotAnOption(r.savings_levers);  // set by code (launch's search leaves the levers out)
  v.NotAnOption(r.account);         // set by the front end from its account scan
  v.NotAnOption(r.cancelled);       // set by the server from its request's cancellation
}

// What one of the guide's savings levers would change for a plan (doc/recommend.md): the same
// instance type re-estimated with the lever applied (possibly on fewer instances).
struct SavingsLever {
  std::string lever;     // "fp8", "quantization-int8", "lora", "spot", "reserved-1y", ...
  double cost_usd = 0;   // batch jobs: the run; services: per hour
  double saving = 0;     // fraction of the plan's cost saved (negative: costs more)
  std::string detail;    // "int8 weights fit 1 instance instead of 2"
  std::string tradeoff;  // the quality or risk it costs
};

struct Plan {
  int rank = 0;
  const InstanceType* type = nullptr;
  int instances = 0, gpus = 0;
  std::string region;
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  ParallelismChoice parallelism;
  double memory_per_gpu_gib = 0, device_gib = 0;
  bool fits = true;
  double time_hours = 0;  // wall clock incl. goodput (and spot interruptions)
  // In `currency`, the ranking currency: USD, or the region's own (CNY in AWS China) when no
  // exchange rate converts it. JSON spells the keys by it ("cost_cny").
  double cost_usd = 0;
  double usd_per_hour = 0;  // all instances
  Currency currency = Currency::kUsd;
  // The same figures in the region's currency, as AWS bills them (equal to the above unless an
  // exchange rate converted them).
  Currency local_currency = Currency::kUsd;
  double local_cost = 0, local_per_hour = 0;
  double spot_overhead = 0;  // extra time on spot (interruptions, checkpoints)
  // Spot with a deadline (--deadline or the workload's runtime): the chance that interruptions
  // push the run past it (SpotDeadlineMissProbability); top plans only.
  std::optional<double> deadline_miss_probability;
  // Factor from the estimate's band to its pessimistic end (1 + band on time; 1 / (1 - band) on a
  // rate), by which the ranking scales cost and time.
  double risk_factor = 1;
  // A spot price estimated from the Spot Instance Advisor's savings is less known than a listed
  // or observed one: the factor to the high end of its measured band (doc/recommend.md, "Price
  // uncertainty"), by which the ranking scales the cost; 1 for every other price.
  double price_risk_factor = 1;
  // How far out the pessimistic end of the plan's estimate and price bands lies together: the
  // factor the ranking scales its cost by, and the Pareto front's certainty axis.
  double doubt() const { return risk_factor * price_risk_factor; }
  Estimate estimate;  // the estimator's figures for this configuration (kDetailed for the
                      // top plans only)
  std::vector<std::string> why, warnings, advice;
  std::vector<SavingsLever> savings;  // top plans only; levers that apply to the workload
  Provenance price_from;
  // Every dated figure the plan's cost rests on: its purchase price ("on-demand", "spot", ...)
  // and, on spot, the interruption band that sets its overhead ("spot-interruption-band").
  struct Figure {
    std::string kind;
    Provenance from;
  };
  std::vector<Figure> price_figures;
  // The oldest of price_figures (OlderFigure), the one a stale warning for the plan names.
  const Figure* OldestPriceFigure() const;
  std::optional<AccountFit> account;  // with an account scan: quota, zones, RIs, Savings Plans
  // What the engine doubts about the plan, each a kind and one line (doc/recommend.md, "Doubts"):
  // "capacity" (rarely available at this size and purchase option), "spot-gang" (a multi-day
  // multi-instance spot run), "portability" (an AWS Neuron port the SDK's list does not cover,
  // or a low-confidence Neuron estimate), "price" (estimated, undated or old). The first three
  // demote the plan under Risk::kSound; "price" only says what is missing.
  struct Doubt {
    std::string kind;
    std::string detail;
    bool demotes = false;
  };
  std::vector<Doubt> doubts;
  // The chance of getting `instances` of the type on this purchase option in the region when the
  // run starts, and what it rests on (a prior by purchase option, cluster size and spot band, or
  // the account scan's placement score and quota).
  double obtain_probability = 1;
  std::string obtain_basis;
  // The expected wait for that capacity before the run starts: the retries the probability asks
  // for, a Capacity Block's wait for its start date (doc/recommend.md, "Obtainability"). It
  // counts against a deadline; it is not billed. A service: the wait before it can go live.
  double wait_hours = 0;
  std::string wait_basis;
  // The same option (family, purchase, accelerators per instance) at the other sizes and counts
  // the search kept, folded under this plan (best-ranked first).
  struct SweepPoint {
    const InstanceType* type = nullptr;
    int instances = 0;
    std::string region;
    double time_hours = 0, cost_usd = 0, usd_per_hour = 0;
  };
  std::vector<SweepPoint> sweep;  // the best-ranked 8
  int sweep_more = 0;             // folded beyond those
  // Whether the instances exchange traffic while it runs (training, HPC, a model sharded across
  // instances), which decides EFA and the placement group; independent replicas do not.
  bool inter_node_traffic = false;
};

struct Rejection {
  std::string instance_type;  // or a family "g4dn.*" when all its sizes fail for one reason
  std::string reason;         // one line: "needs 142 GiB per GPU; L4 has 22.4"
};

// What the allow and deny lists did: each list given, in the order applied (the allow lists,
// then the deny lists, each as family, GPU, instance type).
struct FilterStep {
  std::string option;               // "only-family", "exclude-gpu", ...
  std::vector<std::string> values;  // as the catalog names them ("A100" -> A100-40GB, A100-80GB)
  int before = 0;                   // instance types left before this list
  int after = 0;                    // ... and after it
};
struct AppliedFilters {
  std::vector<FilterStep> steps;  // empty: no list given
  int types_in_catalog = 0;
  int types_left = 0;  // searched (retired ones still need allow_retired)
  // The list after which no instance type was left, "" when some are; then the answer has no
  // plan and `note` says in one line which list emptied the field.
  std::string emptied_by;
  std::string note;
};

struct Recommendation {
  std::string catalog_source, catalog_date;  // newest price snapshot
  std::vector<Plan> plans;                   // ranked, at most `top` (+1: horizon_hours)
  std::vector<Plan> pareto;                  // cost vs time front (ascending time)
  std::vector<Rejection> rejected;
  int64_t candidates = 0;  // (type, count) configurations estimated
  int64_t layouts = 0;     // parallelism layouts evaluated within them
  int64_t pruned = 0;      // (type, count) skipped by the memory lower bound
  int64_t priced = 0;      // x regions x purchase options considered
  // Plans are ranked at the pessimistic end of their uncertainty band (a low-confidence estimate
  // has a wider band, so it must win by more). When the top plan's estimate is not of high
  // confidence, the best-ranked plan that is (if any) is given here, with the reason.
  std::optional<Plan> high_confidence_alternative;
  std::string confidence_note;  // "" when the top plan is of high confidence
  // The best-ranked plan of each purchase option searched that has none among `plans` (e.g. the
  // best capacity-block plan behind cheaper spot ones), with its rank, so every way to pay that
  // was asked for is answered.
  std::vector<Plan> purchase_alternatives;
  // Named picks over every plan the search kept (doc/recommend.md, "Picks"): "cheapest-sound"
  // (the cheapest plan with no demoting doubt), "fastest" (the quickest sound one; any when none
  // is sound), "cheapest-any-risk" (by score alone). `rank` is the plan's place in the shortlist
  // (0 when it is folded under another row); a pick that is the same plan as another is kept.
  struct Pick {
    std::string name;
    int rank = 0;
    Plan plan;  // figures only (no estimate, why or advice)
  };
  std::vector<Pick> picks;
  // Serving with no plan in 16-bit weights: the mildest weight quantization (FP8, int8, int4) that
  // gives plans, and its best plans, so "nothing fits" comes with the lever that changes it.
  // A lever that changes the workload (FP8, LoRA, weight quantization), promoted to plans of its
  // own: when nothing fits without it (serving in 16-bit weights), or when its best plan beats the
  // top plan beyond both plans' bands (its pessimistic end below the top plan's optimistic end).
  struct PromotedLever {
    std::string lever;     // "quantization-int8"
    std::string what;      // "int8 weights"
    std::string tradeoff;  // "small quality loss (weight-only int8)"
    std::string reason;    // why it is promoted, one line
    std::vector<Plan> plans;
  };
  std::optional<PromotedLever> promoted_lever;
  AppliedFilters filters;
  // How `plans` are ordered, in one line (the table's footer).
  std::string ordering;
  // A batch run with no deadline (--deadline or the workload's runtime): kDefaultHorizonHours,
  // else null. When the top plan runs past it, the best-ranked plan that finishes within it is
  // appended to `plans` (so `plans` may hold top + 1), and `horizon_note` says so.
  std::optional<double> horizon_hours;
  std::string horizon_note;  // "" when the top plan finishes within the horizon
  // The currency `plans` are ranked and costed in, and the rates that converted other currencies
  // into it. When the regions searched price in currencies no rate converts (USD and CNY without
  // --fx), this answer ranks the first region's currency and `other_currencies` holds one
  // answer per other currency, each ranked on its own; `currency_note` says so.
  Currency currency = Currency::kUsd;
  std::vector<ExchangeRate> exchange_rates;
  std::vector<Recommendation> other_currencies;
  std::string currency_note;
  // Where spot was searched but the catalog prices no accelerated type on spot in a region (AWS
  // China's public price lists give none): which regions, and that no spot plan could be made
  // there.
  // "" when every region searched has spot prices, or spot was not searched.
  std::string spot_note;
};

// The horizon a batch run without a deadline is expected to finish in: 30 days, the month that
// cloud budgets and reviews are set in; a run longer than that is a project milestone that
// comes with its own deadline (doc/recommend.md, "Default horizon").
inline constexpr double kDefaultHorizonHours = 30 * 24;

// Errors: InvalidArgument naming the flag (unknown region, non-positive deadline/budget, a family,
// GPU or instance type of a filter list that the catalog lacks, with "did you mean"),
// the workload's own errors (Validate). No feasible plan is not an error: plans is empty and
// rejected says why (the CLI exits 1).
Result<Recommendation> Recommend(const Catalog& catalog, const Workload& workload,
                                 const RecommendRequest& request);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_RECOMMEND_H_
