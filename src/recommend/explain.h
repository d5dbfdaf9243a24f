// Internals of Recommend(): the candidate record, what the search learnt about each type (for
// one-line rejections), and the texts of a plan — why, warnings, advice from the guide.
#ifndef GPUADVISOR_RECOMMEND_EXPLAIN_H_
#define GPUADVISOR_RECOMMEND_EXPLAIN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/recommend.h"
#include "recommend/price_band.h"
#include "workload/neuron_support.h"

namespace gpuadvisor::recommend_internal {

// One priced configuration. Pointers into the catalog and into Recommend()'s estimate store.
struct Candidate {
  const InstanceType* type = nullptr;
  const GpuSpec* gpu = nullptr;
  int instances = 0;
  const std::string* region = nullptr;
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  const Price* price = nullptr;        // in the region's currency
  const Estimate* estimate = nullptr;  // fast mode: numbers only
  // cost_usd and usd_per_hour are in the ranking currency (Plan::currency): USD, or the
  // region's own where no exchange rate converts it; to_ranking turns an amount in the region's
  // currency into it (1 / the rate, or 1).
  double time_hours = 0, cost_usd = 0, usd_per_hour = 0, spot_overhead = 0;
  Currency currency = Currency::kUsd, local_currency = Currency::kUsd;
  double to_ranking = 1;
  double risk_factor = 1;  // see Plan::risk_factor
  // A spot price estimated from the advisor's savings: its measured band (price_band.h) and the
  // factor to its high end, by which the ranking scales the cost (1: a listed or observed price).
  const PriceBand* price_band = nullptr;
  double price_risk = 1;
  double doubt() const { return risk_factor * price_risk; }  // see Plan::doubt
  bool unobtainable = false;  // the account scan says it cannot be launched (ranks below)
  double paid_fraction = 0;   // of the instances, those RIs and Savings Plans already pay for
  uint16_t doubts = 0;        // DoubtBit (doubts.h): what the engine doubts about the plan
  double obtain = 1;          // chance of getting the capacity at the start (AssessDoubts)
  double wait_hours = 0;      // expected wait for it before the run (ExpectedWait)
  bool obtain_from_account = false;  // `obtain` is the account scan's spot placement score
  int account_spot_score = 0;
  // What the Neuron SDK's lists say of the model (set with `doubts`; owned by Recommend()).
  const workload_internal::NeuronSupport* neuron = nullptr;
};

// The currency the plan texts of this thread show ranking amounts in (Usd() in explain.cc): set by
// Recommend() for the currency group it ranks, USD otherwise.
class RankingCurrencyScope {
 public:
  explicit RankingCurrencyScope(Currency c);
  ~RankingCurrencyScope();
  RankingCurrencyScope(const RankingCurrencyScope&) = delete;
  RankingCurrencyScope& operator=(const RankingCurrencyScope&) = delete;
  static Currency Current();

 private:
  Currency saved_;
};

// The factor from an estimate to the pessimistic end of its uncertainty band: 1 + band on a time,
// 1 / (1 - band) on a rate (throughput short by the band needs that much more capacity).
double RiskFactor(const Estimate& e);
// The factor to the optimistic end: 1 - band on a time, 1 / (1 + band) on a rate.
double OptimisticFactor(const Estimate& e);

// What the search saw for one instance type, to explain a rejection in one line.
struct TypeOutcome {
  bool retired = false;
  bool filtered = false;  // left out by the request's allow/deny lists: no rejection line, but
                          // still a size of its family (so "g5g.*" means every size)
  bool offered = false;   // has an offer in at least one requested region
  bool feasible_estimate = false;  // some count fit and met the serving targets
  std::string hard_reason;         // Unsupported (precision, NVENC, Neuron, no peak)
  std::string other_reason;        // last estimator error at some count
  double min_needed_gib = 0;       // smallest per-device need seen when nothing fit
  int max_count_tried = 0;
  // Serving: the most instances one replica is split over (1: each holds the whole model);
  // 0 for other tasks.
  int serving_instances = 0;
  double device_gib = 0;
  int targets_missed_at = 0;  // largest count that missed the serving targets
  bool demand_missed = false;
  double fastest_hours = 0;  // best time that missed the deadline
  double cheapest_usd = 0;   // best cost that missed the budget
  int gpu_cap = 0;

  static TypeOutcome Retired() {
    TypeOutcome o;
    o.retired = true;
    return o;
  }
  static TypeOutcome Filtered() {
    TypeOutcome o;
    o.filtered = true;
    return o;
  }
  void NoteMemory(double gib, int count) {
    if (min_needed_gib == 0 || gib < min_needed_gib) min_needed_gib = gib;
    max_count_tried = count;
  }
  void NoteTargets(int count, bool demand) {
    targets_missed_at = count;
    demand_missed = demand_missed || demand;
  }
  void NoteDeadline(double hours) {
    if (fastest_hours == 0 || hours < fastest_hours) fastest_hours = hours;
  }
  void NoteBudget(double usd) {
    if (cheapest_usd == 0 || usd < cheapest_usd) cheapest_usd = usd;
  }
  void NoteGpuCap(int cap) { gpu_cap = cap; }
};

// Searches already run for a lever, shared by the top plans: key "region|purchase|value",
// value the best (type, instances, $/h) or an empty type when nothing was feasible.
struct LeverCache {
  struct Best {
    const InstanceType* type = nullptr;
    int instances = 0;
    double usd_per_hour = 0;
  };
  std::map<std::string, Best> searches;
};
// A batch job pays for its instances from launch: boot, AMI, container, model and data staging
// before the first step (billed per second on Linux, but not free).
inline constexpr double kLaunchHours = 0.15;

// `instances` of `type` (whose accelerator is `gpu`); `offer` may be null (then no cost).
Hardware InstanceHardware(const InstanceType& type, const GpuSpec* gpu, int instances,
                          const RegionOffer* offer = nullptr);

// Spot overhead of a job on `instances` of `type`, interrupted at the band of `offer` (null: the
// worst band); each instance writes its share of the job's checkpoint (Estimate::checkpoint_gib).
SpotOverhead JobSpotOverhead(const InstanceType& type, const RegionOffer* offer, const Estimate& e,
                             int instances);

// The i-th ranked candidate as a full plan: re-estimated in detailed mode, with why
// (objective, binding constraint, drivers, runner-up), warnings and advice.
Plan MakePlan(const Catalog& catalog, const Workload& w, const std::vector<Candidate>& ranked,
              size_t i, LeverCache* cache, const RecommendRequest& req,
              const std::vector<std::string>& regions);
// What each applicable savings lever would cost on the plan's instance type (fewer instances
// allowed), relative to the plan.
// Serving levers (quantisation) search every type in the plan's region and purchase option, as
// "int8 weights fit one L4 instead of two" may change the type.
std::vector<SavingsLever> SavingsLevers(const Catalog& catalog, const Workload& w,
                                        const Candidate& c, const RecommendRequest& req,
                                        LeverCache* cache);
// The serving weight formats the levers try, mildest first: lever id, format, what, trade-off.
struct ServingQuantization {
  const char* lever;
  Precision weights;
  const char* what;
  const char* tradeoff;
};
std::span<const ServingQuantization> ServingQuantizations();
// The workload a savings lever changes (SavingsLever::lever: "fp8", "lora", "quantization-int8",
// ...) and what the change is called; nullopt for a lever of the purchase alone (spot, reserved).
struct WorkloadLever {
  Workload workload;
  std::string what;
};
std::optional<WorkloadLever> ApplyWorkloadLever(const Workload& w, std::string_view lever);
// The three changes ApplyWorkloadLever makes, for callers that know which they want.
Workload WithFp8Matmuls(const Workload& w);
Workload WithLora(const Workload& w);
Workload WithWeights(const Workload& w, Precision weights);
// Figures only (for the Pareto front).
Plan MakeBarePlan(const Candidate& c);
// One line per rejected type; sizes of a family refused for the same reason are merged.
std::vector<Rejection> Rejections(
    const std::vector<std::pair<const InstanceType*, TypeOutcome>>& outcomes,
    const std::vector<std::string>& regions, const RecommendRequest& req,
    const std::vector<Candidate>& feasible);

}  // namespace gpuadvisor::recommend_internal

#endif  // GPUADVISOR_RECOMMEND_EXPLAIN_H_
