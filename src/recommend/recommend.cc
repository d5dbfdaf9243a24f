// Recommend: the search over instance type x count x region x purchase option.
//
// The estimator is called once per (type, count) in fast mode (it picks the parallelism);
// regions and purchase options only change the price, so they are priced from that one
// estimate. Counts are powers of two up to --max-instances; a type is dropped at its first
// hard refusal (precision, NVENC, Neuron), and counts that cannot fit are skipped cheaply.
#include "gpuadvisor/recommend.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <tuple>
#include <unordered_map>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/query.h"
#include "recommend/doubts.h"
#include "recommend/explain.h"
#include "recommend/filters.h"
#include "recommend/price_band.h"
#include "util/enum_names.h"
#include "util/text.h"
#include "workload/serve_model.h"

namespace gpuadvisor {
namespace {

using recommend_internal::Candidate;
using recommend_internal::TypeOutcome;

Status CheckRequest(const Catalog& c, const RecommendRequest& r) {
  // The options' bounds are their declaration's (DeclareOptions, recommend.h); this one also
  // keeps the search over counts finite for a request made in code.
  if (r.max_instances < 1) {
    return Status::InvalidArgument("max-instances: expected at least 1").WithField("max-instances");
  }
  for (const std::string& region : r.regions) {
    if (region == "all") continue;
    GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, region, "regions"));
  }
  return Status::OK();
}

std::vector<std::string> Regions(const Catalog& c, const RecommendRequest& r) {
  if (r.regions.empty()) return {"us-east-1"};
  if (std::find(r.regions.begin(), r.regions.end(), "all") != r.regions.end()) return c.regions();
  return r.regions;
}

constexpr double kReservedServiceHours = 30 * 24;
// The folded sizes and counts a row lists (Plan::sweep); the rest are counted (sweep_more).
constexpr size_t kSweepShown = 8;

std::vector<PurchaseKind> Purchases(const Workload& w, const RecommendRequest& r) {
  if (!r.purchase.empty()) return r.purchase;
  // Training runs also price Capacity Blocks; PriceCandidates keeps those to multi-node plans
  // of the families sold that way (the ones with a block price).
  if (IsTrainingTask(w.task)) {
    return {PurchaseKind::kOnDemand, PurchaseKind::kSpot, PurchaseKind::kCapacityBlock};
  }
  if (!IsService(w)) return {PurchaseKind::kOnDemand, PurchaseKind::kSpot};
  // A service that runs a month or more (--hours) also prices a 1-year reservation, billed for
  // its whole term (BilledHours): it wins only where the hours make up for the term.
  if (w.hours >= kReservedServiceHours) return {PurchaseKind::kOnDemand, PurchaseKind::kReserved1y};
  return {PurchaseKind::kOnDemand};
}

// What the run is billed for, in instance-hours per instance: a reservation its whole 1-year
// term, a Capacity Block whole days (nullopt: no block fits the run), else the run.
std::optional<double> BilledHours(PurchaseKind p, double hours) {
  if (p == PurchaseKind::kReserved1y) return std::max(hours, 12 * kHoursPerMonth);
  if (p == PurchaseKind::kCapacityBlock) {
    const int days = CapacityBlockDays(hours);
    if (days > kCapacityBlockMaxDays) return std::nullopt;
    return days * 24.0;
  }
  return hours;
}

// Prices one estimate in every region and purchase option; appends the candidates that pass
// the budget and notes the cheapest miss.
// The currencies a search ranks in: amounts convert to USD where a rate is given, else they stay
// in their own (CurrencyGroups).
struct Ranking {
  Currency currency = Currency::kUsd;
  const CurrencyConverter* fx = nullptr;
  // How far estimated spot prices lie from observed ones (price_band.h), for every spot plan
  // priced from the advisor's savings.
  const recommend_internal::PriceBand* spot_estimate = nullptr;
  // The factor from an amount in `local` to the ranking currency.
  double Factor(Currency local) const {
    return local == currency ? 1.0 : 1.0 / fx->RateFor(local)->per_usd;
  }
};

void PriceCandidates(const InstanceType& t, const GpuSpec* gpu, int instances, const Estimate& e,
                     const std::vector<std::string>& regions,
                     const std::vector<PurchaseKind>& purchases, const RecommendRequest& req,
                     const Ranking& ranking, TypeOutcome* out, std::vector<Candidate>* candidates,
                     int64_t* priced) {
  for (const std::string& region : regions) {
    const RegionOffer* o = t.FindRegion(region);
    if (o == nullptr || o->offered == false) continue;
    out->offered = true;
    const Currency local = o->currency();
    const double to_ranking = ranking.Factor(local);
    for (PurchaseKind p : purchases) {
      const Price* price = PurchasePrice(*o, p);
      if (price == nullptr) continue;
      // A block holds 1-64 instances; by default only clusters are offered one, and one
      // UltraServer (36 or 72 GPUs, sold only whole, only so) is a cluster.
      if (p == PurchaseKind::kCapacityBlock &&
          (instances > kCapacityBlockMaxInstances ||
           (req.purchase.empty() && instances < 2 && !t.ultraserver()))) {
        continue;
      }
      ++*priced;
      Candidate c;
      c.type = &t;
      c.gpu = gpu;
      c.instances = instances;
      c.region = &o->region;
      c.purchase = p;
      c.price = price;
      c.estimate = &e;
      c.currency = ranking.currency;
      c.local_currency = local;
      c.to_ranking = to_ranking;
      c.risk_factor = recommend_internal::RiskFactor(e);
      if (p == PurchaseKind::kSpot && price->estimated && ranking.spot_estimate != nullptr &&
          ranking.spot_estimate->figures > 0) {
        c.price_band = ranking.spot_estimate;
        c.price_risk = 1 + ranking.spot_estimate->high;
      }
      double hours = *e.hours;
      if (p == PurchaseKind::kSpot) {
        c.spot_overhead = recommend_internal::JobSpotOverhead(t, o, e, instances).overhead_fraction;
        hours *= 1 + c.spot_overhead;
      }
      if (!e.service) hours += recommend_internal::kLaunchHours;
      c.time_hours = hours;
      c.usd_per_hour = price->usd_per_hour * to_ranking * instances;
      const std::optional<double> billed = BilledHours(p, hours);
      if (!billed) continue;  // longer than the longest Capacity Block
      c.cost_usd = c.usd_per_hour * *billed;
      if (req.deadline_hours && c.time_hours > *req.deadline_hours) {
        out->NoteDeadline(c.time_hours);
        continue;
      }
      if (req.budget_usd && c.cost_usd > *req.budget_usd) {
        out->NoteBudget(c.cost_usd);
        continue;
      }
      candidates->push_back(c);
    }
  }
}

// Estimates every count of one type; returns the outcome used for rejections.
TypeOutcome SearchType(const Catalog& catalog, const InstanceType& t, const Workload& w,
                       const RecommendRequest& req, const std::vector<std::string>& regions,
                       const std::vector<PurchaseKind>& purchases, const Ranking& ranking,
                       std::vector<Candidate>* candidates, std::deque<Estimate>* estimates,
                       int64_t* evaluated, int64_t* layouts, int64_t* pruned, int64_t* priced) {
  TypeOutcome out;
  // Serving: the most instances a replica is split over here, as the estimator has it (the
  // rejection of a model too big says that limit).
  const GpuSpec* gpu = catalog.GpuOf(t);
  if (w.task == TaskKind::kServe && gpu != nullptr) {
    out.serving_instances =
        workload_internal::MaxServingInstances(*gpu, t.accelerator.devices(), t.efa);
  }
  const AcceleratorKind kind = t.accelerator.kind;
  if (gpu == nullptr || kind == AcceleratorKind::kFpga || kind == AcceleratorKind::kMedia) {
    out.hard_reason = "carries " + t.accelerator.vendor + " " + t.accelerator.model + " (" +
                      AcceleratorKindName(kind) + "), not modelled";
    return out;
  }
  const int per = t.accelerator.devices();
  // Skip the counts whose memory lower bound already exceeds the device (but estimate at least
  // one count, so that refusals such as "no BF16" are still reported).
  const double device_gib = t.accelerator.memory_mib_each
                                ? *t.accelerator.memory_mib_each / 1024.0
                                : gpu->aws_memory_mib.value_or(0) / 1024.0;
  int first = 1;
  while (first < req.max_instances && device_gib > 0 &&
         MemoryLowerBoundGib(w, first * per) > device_gib) {
    first *= 2;
    ++*pruned;
  }
  for (int n = std::min(first, req.max_instances); n <= req.max_instances; n *= 2) {
    if (req.max_gpus > 0 && n * per > req.max_gpus) {
      out.NoteGpuCap(req.max_gpus);
      break;
    }
    ++*evaluated;
    Result<Estimate> e = EstimateWorkload(w, recommend_internal::InstanceHardware(t, gpu, n), {},
                                          EstimateMode::kFast);
    if (e.ok()) *layouts += e->layouts_evaluated;
    if (!e.ok()) {
      if (e.status().code() == StatusCode::kUnsupported) {
        out.hard_reason = e.status().message();
        return out;
      }
      out.other_reason = e.status().message();
      continue;
    }
    out.device_gib = e->memory.device_gib;
    if (!e->memory.fits) {
      out.NoteMemory(e->memory.total_gib, n);
      continue;
    }
    if (!e->hours) {
      out.hard_reason = "no published compute peak for " + gpu->model + ": time unknown";
      return out;
    }
    if (!e->demand_met || !e->slo_met) {
      out.NoteTargets(n, !e->demand_met);
      continue;
    }
    out.feasible_estimate = true;
    estimates->push_back(std::move(e).value());
    PriceCandidates(t, gpu, n, estimates->back(), regions, purchases, req, ranking, &out,
                    candidates, priced);
  }
  return out;
}

// Ranks at the pessimistic end of the band, on what the plan would add to the bill: instances the
// account's Reserved Instances and Savings Plans already pay for (what running instances leave
// of them) cost nothing more.
double Score(const Candidate& c, Objective o) {
  const double cost = c.cost_usd * (1 - c.paid_fraction);
  switch (o) {
    case Objective::kCost:
      return c.doubt() * cost + c.risk_factor * 1e-9 * c.time_hours;
    case Objective::kTime:
      return c.risk_factor * (c.time_hours + c.wait_hours + 1e-9 * cost);
    case Objective::kBalanced:
      return c.doubt() * c.risk_factor * cost * c.time_hours;
  }
  return cost;
}

// Best candidate per (type, instances, purchase): regions only change the price. What the account
// cannot launch ranks below what it can (and loses its region to one where it can), and under
// Risk::kSound a plan the engine doubts ranks below one it does not (recommend_internal::Tier).
std::vector<Candidate> BestPerConfiguration(std::vector<Candidate> all, Objective o, Risk risk) {
  std::stable_sort(all.begin(), all.end(), [o, risk](const Candidate& a, const Candidate& b) {
    const int ta = recommend_internal::Tier(a, risk), tb = recommend_internal::Tier(b, risk);
    if (ta != tb) return ta < tb;
    return Score(a, o) < Score(b, o);
  });
  std::vector<Candidate> out;
  std::set<std::tuple<const InstanceType*, int, PurchaseKind>> seen;
  for (const Candidate& c : all) {
    if (seen.insert({c.type, c.instances, c.purchase}).second) out.push_back(c);
  }
  return out;
}

// A tie-break (doc/recommend.md, "Ordering"): among the plans whose score is within this
// fraction of the best remaining one, the one with fewer instances, then fewer GPUs, goes first.
// 5 % is well inside every estimate's uncertainty band (x1.25 at high confidence), so the bigger
// plan's edge is noise, while its capacity is harder to get (an 8-GPU flagship for a job one GPU
// runs in the same money).
constexpr double kSmallerPlanMargin = 0.05;

bool SmallerPlan(const Candidate& a, const Candidate& b) {
  const int ga = a.instances * a.type->accelerator.devices();
  const int gb = b.instances * b.type->accelerator.devices();
  return a.instances != b.instances ? a.instances < b.instances : ga < gb;
}

// `sorted` (by Score) with the tie-break applied: each place goes to the smallest plan within
// kSmallerPlanMargin of the best plan not yet placed that finishes within `horizon_hours` (a
// smaller plan is slower: past the horizon its time matters more than its size).
std::vector<Candidate> PreferSmallerPlans(const std::vector<Candidate>& sorted, Objective o,
                                          Risk risk, double horizon_hours) {
  const size_t n = sorted.size();
  std::vector<Candidate> out;
  out.reserve(n);
  std::vector<bool> placed(n, false);
  size_t head = 0;
  while (out.size() < n) {
    while (placed[head]) ++head;
    const double limit = Score(sorted[head], o) * (1 + kSmallerPlanMargin);
    size_t pick = head;
    for (size_t k = head + 1; k < n && Score(sorted[k], o) <= limit; ++k) {
      // Never past a plan of another tier (BestPerConfiguration's order).
      if (!placed[k] &&
          recommend_internal::Tier(sorted[k], risk) ==
              recommend_internal::Tier(sorted[head], risk) &&
          sorted[k].time_hours <= horizon_hours && SmallerPlan(sorted[k], sorted[pick])) {
        pick = k;
      }
    }
    placed[pick] = true;
    out.push_back(sorted[pick]);
  }
  return out;
}

// How the plans are ordered, for the table's footer and the JSON's "ordering".
std::string OrderingNote(Objective o, Risk risk) {
  const char* what = o == Objective::kCost   ? Tr("cost")
                     : o == Objective::kTime ? Tr("time")
                                             : Tr("cost x time");
  std::string note =
      Trf("ranked by {0} at the pessimistic end of each plan's uncertainty band (x risk factor: "
          "a less certain estimate must win by more), not by the listed figures; within {1}%, "
          "fewer instances, then fewer GPUs, go first (if they finish within the horizon); one row "
          "per option (family, purchase, accelerators per instance), its other sizes and counts "
          "folded under it",
          what, FormatFixed(100 * kSmallerPlanMargin, 0));
  note += risk == Risk::kSound
              ? Tr("; plans the engine doubts (rarely available capacity, a multi-day spot gang, a "
                   "wide training gang without EFA, "
                   "an unsupported port to Neuron or to an Arm host, a low-confidence Neuron "
                   "estimate, a served model split over instances, an LLM in fp16 on a GPU "
                   "without bf16) go after the others (risk "
                   "\"any\" ranks by score alone)")
              : Tr("; risk \"any\": doubted plans rank by score with the others");
  return note;
}

// The named picks over every plan kept (Recommendation::picks), each with its place in the
// shortlist (0 when folded under another row).
void AddPicks(const std::vector<Candidate>& ranked, const recommend_internal::Shortlist& list,
              Objective o, Recommendation* rec) {
  auto rank_of = [&](const Candidate& c) {
    for (size_t i = 0; i < list.rows.size(); ++i) {
      const Candidate& r = list.rows[i];
      if (r.type == c.type && r.instances == c.instances && r.purchase == c.purchase &&
          r.region == c.region) {
        return static_cast<int>(i) + 1;
      }
    }
    return 0;
  };
  const Candidate* sound = nullptr;
  const Candidate* fastest = nullptr;
  const Candidate* any = nullptr;
  for (const Candidate& c : ranked) {
    const bool ok = recommend_internal::Tier(c, Risk::kSound) == 0;
    if (ok && sound == nullptr) sound = &c;
    if (!c.unobtainable && (any == nullptr || Score(c, o) < Score(*any, o))) any = &c;
  }
  for (const Candidate& c : ranked) {
    if (sound != nullptr && recommend_internal::Tier(c, Risk::kSound) != 0) continue;
    if (fastest == nullptr || c.time_hours < fastest->time_hours) fastest = &c;
  }
  for (auto [name, c] : {std::pair<const char*, const Candidate*>{"cheapest-sound", sound},
                         {"fastest", fastest},
                         {"cheapest-any-risk", any}}) {
    if (c == nullptr) continue;
    rec->picks.push_back({name, rank_of(*c), recommend_internal::MakeBarePlan(*c)});
  }
}

std::string Days(double hours) {
  return Trf("{0} days", FormatFixed(hours / 24, hours < 240 ? 1 : 0));
}

// What the account scan says of a plan: its AccountFit, and a warning when it cannot be launched.
// The commitments arithmetic (what running instances left of RIs and Savings Plans) is a why.
void AddAccountFit(const Catalog& catalog, const RecommendRequest& req, Plan* plan) {
  if (req.account == nullptr) return;
  const Commitments left = ApplyCommitmentsToRunning(*req.account, catalog);
  plan->account = CheckPlanAgainstAccount(*req.account, left, *plan->type, plan->instances,
                                          plan->region, plan->purchase);
  for (std::string& line : AccountFitWhy(*plan->account, plan->instances, plan->cost_usd)) {
    plan->why.push_back(std::move(line));
  }
  if (std::string line = AccountFitWarning(*plan->account, *plan->type, plan->region);
      !line.empty()) {
    plan->warnings.push_back(std::move(line));
  }
  for (std::string& line :
       AccountFitAdvice(*plan->account, *plan->type, plan->instances, plan->region)) {
    plan->advice.push_back(std::move(line));
  }
}

// A batch run without a deadline: the horizon a buyer expects it to finish in (doc/recommend.md,
// "Default horizon"). When the top plan runs past it, the best-ranked plan that finishes within
// it joins the list (with its rank), and a note says so; a given --deadline is a hard
// constraint instead and leaves this alone.
void ApplyDefaultHorizon(const Catalog& catalog, const Workload& w,
                         const std::vector<Candidate>& ranked, const RecommendRequest& req,
                         const std::vector<std::string>& regions,
                         recommend_internal::LeverCache* levers, Recommendation* rec) {
  if (req.deadline_hours || IsService(w) || rec->plans.empty()) return;
  const double horizon = kDefaultHorizonHours;
  rec->horizon_hours = horizon;
  const std::string name = Trf("{0}-day default horizon", FormatFixed(horizon / 24, 0));
  for (Plan& p : rec->plans) {
    if (p.time_hours > horizon) {
      p.warnings.push_back(
          Trf("takes {0}, past the {1} (no --deadline given; --deadline sets your own)",
              Days(p.time_hours), name));
    }
  }
  const Plan& top = rec->plans.front();
  if (top.time_hours <= horizon) return;
  for (size_t k = 0; k < ranked.size(); ++k) {
    if (ranked[k].time_hours > horizon) continue;
    if (k >= rec->plans.size()) {
      rec->plans.push_back(
          recommend_internal::MakePlan(catalog, w, ranked, k, levers, req, regions));
      AddAccountFit(catalog, req, &rec->plans.back());
    }
    const Plan& p = rec->plans[std::min(k, rec->plans.size() - 1)];
    rec->horizon_note = Trf(
        "#1 takes {0}, past the {1} (no --deadline given); the best-ranked plan within it is "
        "#{2} {3} x {4} {5}: {6}, ${7} ({8}{9}% vs #1); --deadline {10}d keeps only such plans",
        Days(top.time_hours), name, k + 1, p.type->name, p.instances, PurchaseKindLabel(p.purchase),
        Days(p.time_hours), FormatFixed(p.cost_usd, 0), p.cost_usd >= top.cost_usd ? "+" : "",
        FormatFixed(100 * (p.cost_usd / top.cost_usd - 1), 0), FormatFixed(horizon / 24, 0));
    return;
  }
  double fastest = INFINITY;
  for (const Candidate& c : ranked) fastest = std::min(fastest, c.time_hours);
  rec->horizon_note =
      Trf("#1 takes {0}, past the {1} (no --deadline given), and no plan finishes within it: the "
          "fastest takes {2} (--max-instances allows larger clusters)",
          Days(top.time_hours), name, Days(fastest));
}

// The candidates no other beats on cost, time and certainty together (issue 38, item 4): one is
// left out when another costs no more, takes no longer and is no less certain. By time.
std::vector<Candidate> ParetoFront(const std::vector<Candidate>& ranked) {
  std::vector<const Candidate*> order;
  order.reserve(ranked.size());
  for (const Candidate& c : ranked) order.push_back(&c);
  // A candidate's dominators come before it (lexicographic order), so comparing it with the
  // front found so far is enough (dominance is transitive); an exact repeat is dominated.
  std::sort(order.begin(), order.end(), [&](const Candidate* a, const Candidate* b) {
    return std::tuple(a->time_hours, a->cost_usd, a->doubt()) <
           std::tuple(b->time_hours, b->cost_usd, b->doubt());
  });
  std::vector<Candidate> front;
  for (const Candidate* c : order) {
    const bool dominated = std::any_of(front.begin(), front.end(), [&](const Candidate& f) {
      return f.time_hours <= c->time_hours && f.cost_usd <= c->cost_usd && f.doubt() <= c->doubt();
    });
    if (!dominated) front.push_back(*c);
  }
  return front;
}

// When the top plan rests on an estimate below high confidence, the best-ranked plan whose
// estimate is of high confidence goes beside it (doc/recommend.md: an answer says how sure it is).
void AddHighConfidenceAlternative(const Catalog& catalog, const Workload& w,
                                  const std::vector<Candidate>& ranked, const RecommendRequest& req,
                                  const std::vector<std::string>& regions,
                                  recommend_internal::LeverCache* levers, Recommendation* rec) {
  if (rec->plans.empty() || rec->plans[0].estimate.confidence == Confidence::kHigh) return;
  const Plan& top = rec->plans[0];
  rec->confidence_note = top.estimate.confidence == Confidence::kMedium
                             ? Trf("the top plan rests on a medium-confidence estimate ({0})",
                                   top.estimate.confidence_basis)
                             : Trf("the top plan rests on a low-confidence estimate ({0})",
                                   top.estimate.confidence_basis);
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (ranked[i].estimate->confidence != Confidence::kHigh) continue;
    RecommendRequest quiet = req;
    quiet.savings_levers = false;
    rec->high_confidence_alternative =
        recommend_internal::MakePlan(catalog, w, ranked, i, levers, quiet, regions);
    AddAccountFit(catalog, req, &*rec->high_confidence_alternative);
    return;
  }
  rec->confidence_note += Tr("; no plan rests on a high-confidence estimate");
}

// The best-ranked plan of each searched purchase option missing from the top plans.
void AddPurchaseAlternatives(const Catalog& catalog, const Workload& w,
                             const std::vector<Candidate>& ranked, const RecommendRequest& req,
                             const std::vector<std::string>& regions,
                             const std::vector<PurchaseKind>& purchases,
                             recommend_internal::LeverCache* levers, Recommendation* rec) {
  if (rec->plans.empty()) return;
  for (PurchaseKind p : purchases) {
    const bool shown = std::any_of(rec->plans.begin(), rec->plans.end(),
                                   [p](const Plan& plan) { return plan.purchase == p; });
    if (shown) continue;
    for (size_t i = rec->plans.size(); i < ranked.size(); ++i) {
      if (ranked[i].purchase != p) continue;
      RecommendRequest quiet = req;
      quiet.savings_levers = false;
      rec->purchase_alternatives.push_back(
          recommend_internal::MakePlan(catalog, w, ranked, i, levers, quiet, regions));
      AddAccountFit(catalog, req, &rec->purchase_alternatives.back());
      break;
    }
  }
}

}  // namespace

template <>
struct EnumNames<Objective> {
  static constexpr EnumName<Objective> kTable[] = {
      {Objective::kCost, "cost"}, {Objective::kTime, "time"}, {Objective::kBalanced, "balanced"}};
};

const char* ObjectiveName(Objective o) { return NameOf(o); }

template <>
struct EnumNames<Risk> {
  static constexpr EnumName<Risk> kTable[] = {{Risk::kSound, "sound"}, {Risk::kAny, "any"}};
};

const char* RiskName(Risk r) { return NameOf(r); }

Result<Risk> ParseRisk(std::string_view text) {
  if (const std::optional<Risk> r = ParseName<Risk>(ToLower(Trim(text)))) return *r;
  return Status::InvalidArgument("risk: expected one of " + JoinNames<Risk>(", ") + ", got \"" +
                                 std::string(text) + "\"")
      .WithField("risk");
}

const Plan::Figure* Plan::OldestPriceFigure() const {
  const Figure* oldest = nullptr;
  for (const Figure& f : price_figures) {
    if (oldest == nullptr || OlderFigure(f.from, oldest->from)) oldest = &f;
  }
  return oldest;
}

Result<Objective> ParseObjective(std::string_view text) {
  if (const std::optional<Objective> o = ParseName<Objective>(ToLower(Trim(text)))) return *o;
  return Status::InvalidArgument("objective: expected one of " + JoinNames<Objective>(", ") +
                                 ", got \"" + std::string(text) + "\"")
      .WithField("objective");
}

namespace {

// The request with the workload's own wall-clock limit (`runtime: 6h`) as its deadline where that
// is tighter than --deadline: a stated limit is a constraint, never a hint.
RecommendRequest WithWorkloadDeadline(const Workload& w, RecommendRequest req) {
  const std::optional<double> limit = WorkloadDeadlineHours(w);
  if (limit && (!req.deadline_hours || *limit < *req.deadline_hours)) req.deadline_hours = limit;
  return req;
}

// The regions searched, grouped by the currency they are ranked in: USD, with every region whose
// currency a given rate converts, and one group per currency no rate converts, in the order the
// regions were given.
struct CurrencyGroup {
  Currency currency;
  std::vector<std::string> regions;
};
std::vector<CurrencyGroup> CurrencyGroups(const std::vector<std::string>& regions,
                                          const CurrencyConverter& fx) {
  std::vector<CurrencyGroup> groups;
  for (const std::string& r : regions) {
    Currency c = PartitionOf(r).currency;
    if (fx.RateFor(c) != nullptr) c = Currency::kUsd;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [c](const CurrencyGroup& g) { return g.currency == c; });
    if (it == groups.end()) it = groups.insert(groups.end(), CurrencyGroup{c, {}});
    it->regions.push_back(r);
  }
  return groups;
}

bool Stopped(const RecommendRequest& r) { return r.cancelled && r.cancelled(); }
Status StoppedStatus() { return Status::IOError("recommend: stopped: the request was cancelled"); }

// One currency group's answer (Recommend() splits the request by currency).
Result<Recommendation> RecommendIn(const Catalog& catalog, const Workload& w,
                                   const RecommendRequest& request,
                                   const std::vector<std::string>& regions,
                                   const Ranking& ranking) {
  const recommend_internal::RankingCurrencyScope money(ranking.currency);
  Result<recommend_internal::TypeFilter> filter =
      recommend_internal::TypeFilter::Make(catalog, request);
  if (!filter.ok()) return filter.status();
  const RecommendRequest req = WithWorkloadDeadline(w, request);
  const std::vector<PurchaseKind> purchases = Purchases(w, req);
  Recommendation rec;
  rec.currency = ranking.currency;
  if (ranking.currency == Currency::kUsd) {
    for (const std::string& r : regions) {
      const ExchangeRate* rate = ranking.fx->RateFor(PartitionOf(r).currency);
      if (rate != nullptr &&
          std::none_of(rec.exchange_rates.begin(), rec.exchange_rates.end(),
                       [&](const ExchangeRate& x) { return x.currency == rate->currency; })) {
        rec.exchange_rates.push_back(*rate);
      }
    }
  }
  rec.catalog_date = catalog.NewestPriceDate();
  rec.catalog_source = catalog.generator.empty() ? "embedded" : catalog.generator;
  rec.filters = filter->applied();
  std::vector<Candidate> candidates;
  std::deque<Estimate> estimates;  // owned here; candidates point into it (stable addresses)
  std::vector<std::pair<const InstanceType*, TypeOutcome>> outcomes;
  for (const InstanceType& t : catalog.instance_types()) {
    if (Stopped(req)) return StoppedStatus();
    if (!filter->Allows(t)) {  // left out by the user's lists: not a rejection
      outcomes.emplace_back(&t, TypeOutcome::Filtered());
      continue;
    }
    if (t.retired && !req.allow_retired) {
      outcomes.push_back({&t, TypeOutcome::Retired()});
      continue;
    }
    outcomes.push_back(
        {&t, SearchType(catalog, t, w, req, regions, purchases, ranking, &candidates, &estimates,
                        &rec.candidates, &rec.layouts, &rec.pruned, &rec.priced)});
  }
  const workload_internal::NeuronSupport neuron = workload_internal::NeuronSupportFor(w);
  const bool spot_searched =
      std::find(purchases.begin(), purchases.end(), PurchaseKind::kSpot) != purchases.end();
  for (Candidate& c : candidates) recommend_internal::AssessDoubts(w, neuron, spot_searched, &c);
  if (req.account != nullptr) {
    const Commitments left = ApplyCommitmentsToRunning(*req.account, catalog);
    for (Candidate& c : candidates) {
      const AccountFit fit =
          CheckPlanAgainstAccount(*req.account, left, *c.type, c.instances, *c.region, c.purchase);
      c.unobtainable = !fit.obtainable();
      c.paid_fraction = fit.paid_fraction(c.instances);
      if (c.purchase == PurchaseKind::kSpot && fit.spot_score) {
        recommend_internal::UseSpotScore(fit.spot_score->score, &c);
      }
    }
  }
  // The expected wait for the capacity (from the chance of getting it, the account's score
  // included) counts against a deadline: a run that must first wait for a Capacity Block's
  // start date or retry a refused launch finishes that much later.
  for (Candidate& c : candidates) c.wait_hours = recommend_internal::ExpectedWait(c).hours;
  if (req.deadline_hours && !IsService(w)) {
    std::unordered_map<const InstanceType*, TypeOutcome*> outcome_of;
    for (auto& [type, outcome] : outcomes) outcome_of[type] = &outcome;
    std::erase_if(candidates, [&](const Candidate& c) {
      if (c.time_hours + c.wait_hours <= *req.deadline_hours) return false;
      outcome_of.at(c.type)->NoteDeadline(c.time_hours + c.wait_hours);
      return true;
    });
  }
  // A deadline is already met by every candidate; a service has no run to finish.
  const double horizon = req.deadline_hours || IsService(w) ? INFINITY : kDefaultHorizonHours;
  const std::vector<Candidate> ranked = PreferSmallerPlans(
      BestPerConfiguration(candidates, req.objective, req.risk), req.objective, req.risk, horizon);
  const recommend_internal::Shortlist shortlist =
      recommend_internal::FoldOptions(ranked, req.all_sizes);
  const std::vector<Candidate>& rows = shortlist.rows;
  rec.ordering = OrderingNote(req.objective, req.risk);
  if (req.account != nullptr) {
    rec.ordering += Tr(
        "; plans the account cannot launch (account scan: quota, zones, a spot placement score of "
        "3 or less) go last");
  }
  const size_t top = std::min<size_t>(ranked.size(), static_cast<size_t>(req.top));
  recommend_internal::LeverCache levers;
  for (size_t i = 0; i < std::min(top, rows.size()); ++i) {
    if (Stopped(req)) return StoppedStatus();
    rec.plans.push_back(recommend_internal::MakePlan(catalog, w, rows, i, &levers, req, regions));
    for (const Candidate& f : shortlist.folded[i]) {
      Plan& p = rec.plans.back();
      if (p.sweep.size() == kSweepShown) {
        ++p.sweep_more;
        continue;
      }
      p.sweep.push_back({f.type, f.instances, *f.region, f.time_hours, f.cost_usd, f.usd_per_hour});
    }
    AddAccountFit(catalog, req, &rec.plans.back());
  }
  for (const Candidate& c : ParetoFront(ranked)) {
    rec.pareto.push_back(recommend_internal::MakeBarePlan(c));
  }
  AddPicks(ranked, shortlist, req.objective, &rec);
  rec.rejected = recommend_internal::Rejections(outcomes, regions, req, ranked);
  ApplyDefaultHorizon(catalog, w, rows, req, regions, &levers, &rec);
  AddHighConfidenceAlternative(catalog, w, rows, req, regions, &levers, &rec);
  AddPurchaseAlternatives(catalog, w, rows, req, regions, purchases, &levers, &rec);
  return rec;
}

Result<CurrencyConverter> ParseRates(const RecommendRequest& r) {
  std::vector<ExchangeRate> rates;
  for (const std::string& text : r.fx) {
    Result<ExchangeRate> rate = ParseExchangeRate(text, "fx");
    if (!rate.ok()) return rate.status();
    for (const ExchangeRate& x : rates) {
      if (x.currency == rate->currency) {
        return Status::InvalidArgument(std::string("fx: two rates for ") +
                                       CurrencyCode(x.currency) + " (" + x.Text() + ", " +
                                       rate->Text() + "); give one")
            .WithField("fx");
      }
    }
    rates.push_back(*rate);
  }
  return CurrencyConverter(std::move(rates));
}

// Says which of `regions` have no spot price for any type the catalog holds, when spot was one
// of the purchase options searched: an answer with no spot plan there must say why (AWS China
// gives none in its public price lists; elsewhere the catalog lacks them).
std::string SpotNote(const Catalog& catalog, const Workload& w, const RecommendRequest& request,
                     const std::vector<std::string>& regions) {
  const std::vector<PurchaseKind> kinds = Purchases(w, request);
  if (std::find(kinds.begin(), kinds.end(), PurchaseKind::kSpot) == kinds.end()) return "";
  std::string none;
  bool china = false;
  for (const std::string& region : regions) {
    const bool priced = std::any_of(catalog.instance_types().begin(),
                                    catalog.instance_types().end(), [&](const InstanceType& t) {
                                      const RegionOffer* o = t.FindRegion(region);
                                      return o != nullptr && o->spot.has_value();
                                    });
    if (priced) continue;
    none += (none.empty() ? "" : ", ") + region;
    china = china || PartitionOf(region).currency == Currency::kCny;
  }
  if (none.empty()) return "";
  // TRANSLATORS: {0} region codes ("cn-north-1, cn-northwest-1").
  return china ? Trf("no spot price is known in {0}: AWS China's public price lists give none, so "
                     "no spot plan was made there (on-demand and reserved only)",
                     none)
               : Trf("no spot price is known in {0}: the catalog holds none (`gpuadvisor catalog "
                     "update` reads them), so no spot plan was made there",
                     none);
}

// The workload lever (FP8, LoRA, weight quantization) that the top plan's savings name, whose own
// search's best plan costs less at its pessimistic end than the top plan at its optimistic end:
// the answer changes by more than the bands, so it is shown as plans, not as a saving line
// (issue 38, item 5). Levers are tried by the saving they promise; the first that holds wins.
void PromoteLeverBeyondTheBand(const Catalog& catalog, const Workload& w,
                               const RecommendRequest& request, Recommendation* rec) {
  const Plan& top = rec->plans.front();
  const double top_best = top.cost_usd * recommend_internal::OptimisticFactor(top.estimate);
  std::vector<const SavingsLever*> levers;
  levers.reserve(top.savings.size());
  for (const SavingsLever& l : top.savings) levers.push_back(&l);
  std::sort(levers.begin(), levers.end(),
            [](const SavingsLever* a, const SavingsLever* b) { return a->saving > b->saving; });
  for (const SavingsLever* l : levers) {
    if (l->cost_usd * top.risk_factor >= top_best) break;  // not even the saving it promises
    std::optional<recommend_internal::WorkloadLever> lw =
        recommend_internal::ApplyWorkloadLever(w, l->lever);
    if (!lw || !Validate(lw->workload).ok()) continue;
    RecommendRequest sub = request;
    sub.savings_levers = false;  // no recursion, no lever texts on the promoted plans
    sub.top = std::min(request.top, 3);
    Result<Recommendation> r = Recommend(catalog, lw->workload, sub);
    if (!r.ok() || r->plans.empty() || r->currency != rec->currency) continue;
    const Plan& best = r->plans.front();
    const double best_worst = best.cost_usd * best.doubt();
    if (best_worst >= top_best) continue;
    // TRANSLATORS: {0} a percentage; {1} "$1234" (the top plan at the optimistic end of its band).
    std::string reason =
        Trf("{0} cheaper than the top plan, beyond both bands (at its pessimistic end it still "
            "costs less than the top plan at its optimistic end, {1})",
            FormatFixed(100 * (1 - best.cost_usd / top.cost_usd), 0) + "%",
            FormatMoney(rec->currency, top_best, top_best >= 100 ? 0 : 2));
    rec->promoted_lever = Recommendation::PromotedLever{l->lever, lw->what, l->tradeoff,
                                                        std::move(reason), std::move(r->plans)};
    return;
  }
}

}  // namespace

Result<Recommendation> Recommend(const Catalog& catalog, const Workload& w,
                                 const RecommendRequest& request) {
  GPUADVISOR_RETURN_IF_ERROR(CheckRequest(catalog, request));
  Result<CurrencyConverter> fx = ParseRates(request);
  if (!fx.ok()) return fx.status();
  GPUADVISOR_RETURN_IF_ERROR(Validate(w));
  const std::vector<std::string> regions = Regions(catalog, request);
  const std::vector<CurrencyGroup> groups = CurrencyGroups(regions, *fx);
  std::string names;  // "USD (us-east-1) and CNY (cn-north-1, cn-northwest-1)"
  for (const CurrencyGroup& g : groups) {
    std::string list;
    for (size_t i = 0; i < g.regions.size() && i < 3; ++i) {
      list += (i ? ", " : "") + g.regions[i];
    }
    if (g.regions.size() > 3) list += " and " + std::to_string(g.regions.size() - 3) + " more";
    names +=
        (names.empty() ? "" : " and ") + std::string(CurrencyCode(g.currency)) + " (" + list + ")";
  }
  // A budget is in USD: it binds a plan priced in another currency only through a rate.
  for (const CurrencyGroup& g : groups) {
    if (request.budget_usd && g.currency != Currency::kUsd) {
      // TRANSLATORS: {0} a region code, {1} its partition ("AWS China"), {2} "CNY".
      return Status::InvalidArgument(
                 Trf("budget: is in USD, and {0} ({1}) prices in {2}; give a dated rate, e.g. --fx "
                     "{2}=7.1@2026-12-01, to apply it",
                     g.regions.front(), Tr(PartitionOf(g.regions.front()).name),
                     CurrencyCode(g.currency)))
          .WithField("budget");
    }
  }
  const recommend_internal::PriceBand spot_estimate = recommend_internal::SpotEstimateBand(catalog);
  Result<Recommendation> rec = RecommendIn(catalog, w, request, groups.front().regions,
                                           {groups.front().currency, &*fx, &spot_estimate});
  if (!rec.ok()) return rec;
  for (size_t k = 1; k < groups.size(); ++k) {
    Result<Recommendation> other = RecommendIn(catalog, w, request, groups[k].regions,
                                               {groups[k].currency, &*fx, &spot_estimate});
    if (!other.ok()) return other.status();
    rec->other_currencies.push_back(std::move(other).value());
  }
  rec->spot_note = SpotNote(catalog, w, request, regions);
  if (rec->plans.empty() && w.task == TaskKind::kServe && !w.quantization &&
      request.savings_levers && rec->filters.emptied_by.empty()) {
    for (const recommend_internal::ServingQuantization& q :
         recommend_internal::ServingQuantizations()) {
      const Workload lighter = recommend_internal::WithWeights(w, q.weights);
      if (!Validate(lighter).ok()) continue;
      RecommendRequest sub = request;
      sub.savings_levers = false;  // no recursion, no lever texts on the promoted plans
      Result<Recommendation> r = Recommend(catalog, lighter, sub);
      if (!r.ok() || r->plans.empty()) continue;
      rec->promoted_lever =
          Recommendation::PromotedLever{q.lever, Tr(q.what), Tr(q.tradeoff),
                                        Tr("no plan with 16-bit weights"), std::move(r->plans)};
      break;
    }
  } else if (!rec->plans.empty() && request.savings_levers && rec->filters.emptied_by.empty()) {
    PromoteLeverBeyondTheBand(catalog, w, request, &*rec);
  }
  if (groups.size() > 1) {
    // TRANSLATORS: {0} "USD (us-east-1) and CNY (cn-north-1)", {1} "CNY".
    rec->currency_note = Trf(
        "the regions price in {0}: amounts in different currencies are never ranked against each "
        "other, so each currency is ranked on its own; a dated rate (--fx {1}=RATE@YYYY-MM-DD, "
        "units per USD) ranks them together",
        names, CurrencyCode(groups[1].currency));
  }
  return rec;
}

}  // namespace gpuadvisor
