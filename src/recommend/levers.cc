// Savings levers for a plan (doc/recommend.md): FP8 training, weight quantisation for serving,
// LoRA instead of full fine-tuning, spot with checkpoints, a 1-year reservation for services.
// Each lever re-estimates the same instance type with the lever applied, on the plan's instance
// count or fewer, so "int8 weights fit one instance instead of two" shows up as such.
#include <cmath>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/recommend.h"
#include "recommend/explain.h"
#include "util/text.h"

namespace gpuadvisor::recommend_internal {

std::span<const ServingQuantization> ServingQuantizations() {
  static constexpr ServingQuantization kQuantizations[] = {
      {"quantization-fp8", Precision::kFp8, N_("FP8 weights"),
       N_("negligible quality loss for most models")},
      {"quantization-int8", Precision::kInt8, N_("int8 weights"),
       N_("small quality loss (weight-only int8)")},
      {"quantization-int4", Precision::kInt4, N_("int4 weights (AWQ/GPTQ)"),
       N_("measurable quality loss on some tasks; evaluate first")}};
  return kQuantizations;
}

namespace {

struct Variant {
  int instances = 0;
  double cost = 0;  // batch: run; service: per hour
  double hours = 0;
};

// The cheapest feasible configuration of `w` on the plan's type, region and purchase option
// with at most the plan's instances; instances == 0 when none is feasible.
Variant Cheapest(const Workload& w, const Candidate& c, const RecommendRequest& req) {
  Variant best;
  const bool batch = !IsService(w);
  const double spot_factor = c.time_hours / *c.estimate->hours;  // interruptions, as the plan
  for (int n = 1; n <= c.instances; n *= 2) {
    Result<Estimate> e =
        EstimateWorkload(w, InstanceHardware(*c.type, c.gpu, n), {}, EstimateMode::kFast);
    if (!e.ok() || !e->memory.fits || !e->demand_met || !e->slo_met || !e->hours) continue;
    const double hours = *e->hours * spot_factor;
    if (batch && req.deadline_hours && hours > *req.deadline_hours) continue;
    const double rate = c.price->usd_per_hour * c.to_ranking * n;
    const double cost = batch ? rate * hours : rate;
    if (best.instances == 0 || cost < best.cost) best = {n, cost, hours};
  }
  return best;
}

std::string Pct(double f) { return FormatFixed(100 * f, 0) + "%"; }

void Add(const Candidate& c, const char* lever, const Variant& v, const std::string& what,
         const std::string& tradeoff, std::vector<SavingsLever>* out) {
  if (v.instances == 0) return;
  const double base = !c.estimate->service ? c.cost_usd : c.usd_per_hour;
  if (std::abs(1 - v.cost / base) < 0.005) return;  // no change worth a line
  SavingsLever l;
  l.lever = lever;
  l.cost_usd = v.cost;
  l.saving = 1 - v.cost / base;
  // TRANSLATORS: {0} the lever ("int8 weights on g6e.xlarge x 2"), {1} "-20%" or "+5%".
  l.detail = Trf("{0}: {1}",
                 what + (v.instances < c.instances
                             ? Trf(", on {0} instance(s) instead of {1}", v.instances, c.instances)
                             : std::string()),
                 (l.saving >= 0 ? "-" : "+") + Pct(std::abs(l.saving)));
  l.tradeoff = tradeoff;
  out->push_back(l);
}

// `w` with one field changed, typed (no text to parse).
template <typename Change>
Workload With(const Workload& w, Change change) {
  Workload v = w;
  change(v);
  return v;
}

constexpr const char* kFp8Lever = N_("FP8 matmuls (TransformerEngine)");
constexpr const char* kLoraLever = N_("LoRA (rank 16) instead of full fine-tuning");

}  // namespace

Workload WithFp8Matmuls(const Workload& w) {
  return With(w, [](Workload& v) { v.precision = Precision::kFp8; });
}

Workload WithLora(const Workload& w) {
  return With(w, [](Workload& v) { v.task = TaskKind::kLora; });
}

Workload WithWeights(const Workload& w, Precision weights) {
  return With(w, [weights](Workload& v) { v.quantization = weights; });
}

std::optional<WorkloadLever> ApplyWorkloadLever(const Workload& w, std::string_view lever) {
  if (lever == "fp8") return WorkloadLever{WithFp8Matmuls(w), Tr(kFp8Lever)};
  if (lever == "lora") return WorkloadLever{WithLora(w), Tr(kLoraLever)};
  for (const ServingQuantization& q : ServingQuantizations()) {
    if (lever == q.lever) return WorkloadLever{WithWeights(w, q.weights), Tr(q.what)};
  }
  return std::nullopt;
}

std::vector<SavingsLever> SavingsLevers(const Catalog& catalog, const Workload& w,
                                        const Candidate& c, const RecommendRequest& req,
                                        LeverCache* cache) {
  std::vector<SavingsLever> out;
  const GpuSpec& g = *c.gpu;
  const bool fp8 = g.supports_fp8 || g.fp8_tflops;
  const bool full_training = w.task == TaskKind::kPretrain || w.task == TaskKind::kFinetune;
  if (full_training && fp8 && c.estimate->precision != Precision::kFp8 &&
      !(w.precision && *w.precision == Precision::kFp8)) {
    Add(c, "fp8", Cheapest(WithFp8Matmuls(w), c, req), Tr(kFp8Lever),
        Tr("small accuracy risk; needs FP8 recipes (delayed scaling) and a loss-curve check"),
        &out);
  }
  if (w.task == TaskKind::kFinetune) {
    Add(c, "lora", Cheapest(WithLora(w), c, req), Tr(kLoraLever),
        Tr("usually close to full fine-tuning on instruction tasks; learns less new "
           "knowledge"),
        &out);
  }
  if (w.task == TaskKind::kServe && !w.quantization) {
    for (const ServingQuantization& q : ServingQuantizations()) {
      const std::string key =
          *c.region + "|" + PurchaseKindName(c.purchase) + "|" + PrecisionName(q.weights);
      auto it = cache->searches.find(key);
      if (it == cache->searches.end()) {
        RecommendRequest sub = req;
        sub.regions = {*c.region};
        sub.purchase = {c.purchase};
        sub.top = 1;
        sub.explain = false;
        sub.savings_levers = false;
        Result<Recommendation> r = Recommend(catalog, WithWeights(w, q.weights), sub);
        LeverCache::Best found;
        if (r.ok() && !r->plans.empty()) {
          found = {r->plans[0].type, r->plans[0].instances, r->plans[0].usd_per_hour};
        }
        it = cache->searches.emplace(key, found).first;
      }
      const LeverCache::Best& best = it->second;
      if (best.type == nullptr) continue;
      const std::string where =
          best.type == c.type ? "" : Trf(" on {0} x {1}", best.type->name, best.instances);
      Add(c, q.lever, {best.type == c.type ? best.instances : c.instances, best.usd_per_hour, 0},
          Tr(q.what) + where, Tr(q.tradeoff), &out);
    }
  }
  const RegionOffer* o = c.type->FindRegion(*c.region);
  if (o == nullptr) return out;
  if (!IsService(w) && c.purchase == PurchaseKind::kOnDemand && o->spot) {
    const double overhead = JobSpotOverhead(*c.type, o, *c.estimate, c.instances).overhead_fraction;
    const double hours = *c.estimate->hours * (1 + overhead) + kLaunchHours;  // as the plan
    const Variant v{c.instances, o->spot->usd_per_hour * c.to_ranking * c.instances * hours, hours};
    // An estimated spot price (on-demand x the advisor's average savings) is said to be one: the
    // ranking places it at the high end of its measured band (price_band.h).
    Add(c, "spot", v,
        Trf("spot with checkpoints (+{0} time)", Pct(overhead)) +
            (o->spot->estimated ? std::string(Tr(", at a spot price estimated from the Spot "
                                                 "Instance Advisor's average savings"))
                                : std::string()),
        Tr("interruptions: needs checkpoint/restart; large spot clusters may be unavailable"),
        &out);
  }
  if (!!IsService(w) && c.purchase == PurchaseKind::kOnDemand && o->reserved_1y_no_upfront) {
    const double rate = o->reserved_1y_no_upfront->usd_per_hour;
    const Variant v{c.instances, rate * c.to_ranking * c.instances, 0};
    Add(c, "reserved-1y", v, Tr("1-year reserved instance, no upfront"),
        Trf("a 12-month commitment billed whether used or not: pays off above {0}% utilisation",
            FormatFixed(100 * rate / c.price->usd_per_hour, 0)),
        &out);
  }
  return out;
}

}  // namespace gpuadvisor::recommend_internal
