// Doubts and obtainability of a candidate plan (doubts.h; doc/recommend.md, "Doubts").
#include "recommend/doubts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "catalog/family_facts.h"
#include "gpuadvisor/i18n.h"
#include "util/text.h"
#include "workload/neuron.h"

namespace gpuadvisor::recommend_internal {
namespace {

using workload_internal::NeuronSupport;

// Priors for getting the capacity when the run starts (doc/recommend.md, "Obtainability"): no
// public figure gives these odds, so they are stated as priors, in the plan, and an account
// scan's spot placement score replaces the spot one. On demand and reserved: AWS's on-demand
// pools rarely refuse one or a few instances. A Capacity Block is bought from the offerings
// `describe-capacity-block-offerings` lists, for a start date it offers, but not always the
// first date wanted. Spot, per instance, by the Spot Instance Advisor's interruption band
// (a pool that reclaims often is also one that is often short); several instances must all be
// granted. A large cluster of the big training families on spot or on demand: AWS itself
// points such clusters to Capacity Blocks and reservations.
constexpr double kOnDemandPrior = 0.95;
constexpr double kCapacityBlockPrior = 0.9;
constexpr double kSpotBandPrior[] = {0.95, 0.9, 0.85, 0.8, 0.7};  // by SpotBand::index
constexpr double kSpotUnknownBandPrior = 0.8;
constexpr double kLargeClusterSpotPrior = 0.1;
constexpr double kLargeClusterOnDemandPrior = 0.3;
// Expected waits (ExpectedWait): a launch retried hourly; a Capacity Block's first start half a
// day away on average, a refused offering date a day lost.
constexpr double kLaunchRetryHours = 1;
constexpr double kCapacityBlockRetryHours = 24;
constexpr double kCapacityBlockLeadHours = 12;

bool IsNeuron(const Candidate& c) {
  return c.gpu != nullptr && workload_internal::IsNeuronDevice(*c.gpu);
}

// A host of the big training families: sold as Capacity Blocks, or 8 or more accelerators.
bool FlagshipHost(const InstanceType& t) {
  return t.HasUsageClass("capacity-block") || t.accelerator.devices() >= 8;
}

bool LargeCluster(const Candidate& c) {
  return c.instances >= kLargeCluster && FlagshipHost(*c.type) &&
         (c.purchase == PurchaseKind::kSpot || c.purchase == PurchaseKind::kOnDemand);
}

const SpotBand* BandOf(const Candidate& c) {
  const RegionOffer* o = c.type->FindRegion(*c.region);
  return o != nullptr && o->spot_band ? &*o->spot_band : nullptr;
}

double SpotPerInstance(const Candidate& c) {
  const SpotBand* band = BandOf(c);
  if (band == nullptr) return kSpotUnknownBandPrior;
  const int i = std::clamp(band->index, 0, 4);
  return kSpotBandPrior[i];
}

// A host with no x86_64 processor (g5g: Graviton2 with T4G).
bool ArmOnly(const InstanceType& t) {
  const std::vector<std::string>& a = t.cpu_architectures;
  return !a.empty() && std::find(a.begin(), a.end(), "x86_64") == a.end();
}

bool UndatedPrice(const Price& p) {
  const std::string& d = p.dated_by().date;
  return d.size() != 10;  // "2026-08-26"; a year alone or "" is undated
}

}  // namespace

void AssessDoubts(const Workload& w, const NeuronSupport& neuron, bool spot_searched,
                  Candidate* c) {
  uint16_t d = 0;
  double p = kOnDemandPrior;
  switch (c->purchase) {
    case PurchaseKind::kSpot:
      p = std::pow(SpotPerInstance(*c), c->instances);
      break;
    case PurchaseKind::kCapacityBlock:
      p = kCapacityBlockPrior;
      break;
    default:
      break;
  }
  if (LargeCluster(*c)) {
    p = std::min(p, c->purchase == PurchaseKind::kSpot ? kLargeClusterSpotPrior
                                                       : kLargeClusterOnDemandPrior);
  }
  if (p < kLikelyObtainable) d |= kDoubtCapacity;
  const bool gang = c->instances >= 2 && (IsTrainingTask(w.task) || w.task == TaskKind::kHpc);
  if (gang && c->instances >= kWideGang && !c->type->efa) d |= kDoubtWideGangNoEfa;
  if (c->purchase == PurchaseKind::kSpot && gang && c->time_hours > kSpotGangHours) {
    d |= kDoubtSpotGang;
  }
  if (IsNeuron(*c)) {
    if (!neuron.SupportedOn(c->gpu->model)) d |= kDoubtNeuronPort;
    if (c->estimate->confidence == Confidence::kLow) d |= kDoubtNeuronLowConf;
  }
  if (!IsNeuron(*c) && ArmOnly(*c->type) &&
      (IsTrainingTask(w.task) || w.task == TaskKind::kTrainVision)) {
    d |= kDoubtArmTraining;
  }
  // Today's LLM checkpoints are bf16; a GPU without it (Volta, Turing) runs them in fp16, a
  // conversion the user makes (vLLM: --dtype half) at a range some models overflow. A precision
  // the user gave is their choice, not a doubt.
  if (IsLlmTask(w.task) && !IsNeuron(*c) && !c->gpu->bf16_tflops && !w.precision) {
    d |= kDoubtNoBf16;
  }
  if (w.task == TaskKind::kServe && c->estimate->parallelism_applies &&
      c->estimate->parallelism.tp * c->estimate->parallelism.pp > c->type->accelerator.devices()) {
    d |= kDoubtSpanningReplica;
  }
  if (c->price->estimated) d |= kDoubtPriceEstimated;
  if (UndatedPrice(*c->price)) d |= kDoubtPriceUndated;
  if (spot_searched && c->purchase != PurchaseKind::kSpot) {
    const RegionOffer* o = c->type->FindRegion(*c->region);
    if (o != nullptr && !o->spot) d |= kDoubtNoSpotPrice;
  }
  c->doubts = d;
  c->obtain = p;
  c->neuron = &neuron;
}

void UseSpotScore(int score, Candidate* c) {
  c->obtain = std::clamp(score, 0, 10) / 10.0;
  c->obtain_from_account = true;
  c->account_spot_score = score;
  c->doubts = static_cast<uint16_t>(c->obtain < kLikelyObtainable ? c->doubts | kDoubtCapacity
                                                                  : c->doubts & ~kDoubtCapacity);
}

CapacityWait ExpectedWait(const Candidate& c) {
  CapacityWait w;
  const bool block = c.purchase == PurchaseKind::kCapacityBlock;
  w.retry_hours = block ? kCapacityBlockRetryHours : kLaunchRetryHours;
  w.lead_hours = block ? kCapacityBlockLeadHours : 0;
  const double p = std::max(c.obtain, 0.01);  // a zero score still leaves a retry each hour
  w.hours = w.lead_hours + (1 - p) / p * w.retry_hours;
  return w;
}

std::string WaitBasis(const Candidate& c) {
  const CapacityWait w = ExpectedWait(c);
  const std::string pct = FormatFixed(100 * c.obtain, 0) + "%";
  if (w.lead_hours > 0) {
    // TRANSLATORS: {0} hours, {1} hours, {2} a percentage.
    return Trf(
        "a Capacity Block starts on a date AWS offers, {0} h away on average, then {1} h "
        "per date refused at {2} per date",
        FormatFixed(w.lead_hours, 0), FormatFixed(w.retry_hours, 0), pct);
  }
  // TRANSLATORS: {0} hours, {1} a percentage.
  return Trf("a refused launch retried every {0} h at {1} per attempt",
             FormatFixed(w.retry_hours, 0), pct);
}

int Tier(const Candidate& c, Risk risk) {
  if (c.unobtainable) return 2;
  return risk == Risk::kSound && (c.doubts & kDemotingDoubts) != 0 ? 1 : 0;
}

// The vCPU quota a plan draws on, where it is an accelerated group's (0 on a new account).
std::string QuotaNote(const Candidate& c) {
  const VcpuQuota* found = VcpuQuotaOf(*c.type);
  if (found == nullptr || !found->accelerated || c.purchase == PurchaseKind::kCapacityBlock) {
    return "";
  }
  const VcpuQuota& q = *found;
  const bool spot = c.purchase == PurchaseKind::kSpot;
  // TRANSLATORS: {0} a vCPU count, {1} a Service Quotas quota name, {2} its code (L-417A185B).
  return Trf(
      "; it needs {0} vCPUs of the account's \"{1}\" quota ({2}), which AWS sets to 0 on "
      "a new account",
      static_cast<long>(c.instances) * c.type->vcpus, spot ? q.spot : q.on_demand,
      spot ? q.spot_code : q.on_demand_code);
}

std::string ObtainBasis(const Candidate& c) {
  if (c.obtain_from_account) {
    return Trf("the account scan's spot placement score {0} of 10 for {1} x {2} in {3}",
               c.account_spot_score, c.instances, c.type->name, *c.region);
  }
  if (LargeCluster(c)) {
    // TRANSLATORS: {0} a count, {1} "spot" or "on-demand", {2} an instance type.
    return Trf(
        "a prior: {0} {1} instances of {2} at once are rarely granted (AWS sells such "
        "clusters as Capacity Blocks and capacity reservations)",
        c.instances, PurchaseKindLabel(c.purchase), c.type->name);
  }
  switch (c.purchase) {
    case PurchaseKind::kSpot: {
      const SpotBand* band = BandOf(c);
      const std::string per = FormatFixed(SpotPerInstance(c), 2);
      return (band != nullptr
                  ? Trf("a prior: {0} per instance for the spot interruption band {1} ({2}, {3}), "
                        "for each of {4} instance(s)",
                        per, band->label, band->from.source, band->from.date, c.instances)
                  : Trf("a prior: {0} per instance (no spot interruption band known), for each "
                        "of {1} instance(s)",
                        per, c.instances)) +
             QuotaNote(c);
    }
    case PurchaseKind::kCapacityBlock:
      return Tr(
          "a prior: a Capacity Block is bought from the offerings AWS lists, for a start "
          "date it offers (not always the first one wanted)");
    default:
      return Tr("a prior: on-demand pools rarely refuse a few instances; an account's quota "
                "is not known without `gpuadvisor account scan`") +
             QuotaNote(c);
  }
}

std::vector<Plan::Doubt> DoubtTexts(const Candidate& c) {
  std::vector<Plan::Doubt> out;
  if (c.doubts & kDoubtCapacity) {
    out.push_back(
        {"capacity",
         Trf("{0}% chance of getting it ({1})", FormatFixed(100 * c.obtain, 0), ObtainBasis(c)),
         true});
  }
  if (c.doubts & kDoubtSpotGang) {
    out.push_back(
        {"spot-gang",
         Trf("{0} spot instances exchanging traffic for {1} h: each interruption stops all of "
             "them until a replacement is granted",
             c.instances, FormatFixed(c.time_hours, 0)),
         true});
  }
  if (c.doubts & kDoubtWideGangNoEfa) {
    out.push_back(
        {"network",
         Trf("{0} instances exchange gradients over ENA at {1} Gbit/s ({2} has no EFA): "
             "collectives this wide are bound by the network, which no published measurement "
             "here covers",
             c.instances, FormatFixed(c.type->network_gbit_s.value_or(0), 0), c.type->name),
         true});
  }
  if (c.doubts & kDoubtNeuronPort) {
    out.push_back({"portability", c.neuron != nullptr ? c.neuron->detail : std::string(), true});
  }
  if (c.doubts & kDoubtNeuronLowConf) {
    out.push_back({"portability",
                   Trf("a low-confidence estimate on {0} ({1}): nothing measured is close to this "
                       "model on AWS Neuron",
                       c.gpu->model, c.estimate->confidence_basis),
                   true});
  }
  if (c.doubts & kDoubtArmTraining) {
    out.push_back({"portability",
                   Trf("{0} is an Arm64 (Graviton) host: a training stack needs its aarch64 CUDA "
                       "build, and AWS positions these hosts for graphics streaming and inference",
                       c.type->name),
                   true});
  }
  if (c.doubts & kDoubtNoBf16) {
    out.push_back({"precision",
                   Trf("{0} has no bf16: a bf16 checkpoint runs converted to fp16 (vLLM: --dtype "
                       "half), whose narrower range some models overflow, on a GPU generation no "
                       "published LLM figure here measures",
                       c.gpu->model),
                   true});
  }
  if (c.doubts & kDoubtSpanningReplica) {
    const ParallelismChoice& par = c.estimate->parallelism;
    out.push_back({"multi-node-serving",
                   Trf("each replica spans {0} instances ({1} pipeline stages over EFA): every "
                       "token crosses the network between stages, and one node that holds the "
                       "model serves it simpler and faster",
                       par.tp * par.pp / std::max(1, c.type->accelerator.devices()), par.pp),
                   true});
  }
  if (c.doubts & kDoubtPriceEstimated) {
    out.push_back(
        {"price",
         Trf("{0} price estimated: {1} ({2}, {3})", PurchaseKindLabel(c.purchase),
             c.price->note.empty() ? Tr("derived from a feed's savings figure") : c.price->note,
             c.price->from.source, c.price->from.date),
         false});
  }
  if (c.doubts & kDoubtNoSpotPrice) {
    out.push_back({"price",
                   Trf("no spot price is known for {0} in {1}: spot was not compared for this plan",
                       c.type->name, *c.region),
                   false});
  }
  if (c.doubts & kDoubtPriceUndated) {
    out.push_back({"price",
                   Trf("{0} price undated ({1}): it may be far from today's",
                       PurchaseKindLabel(c.purchase), c.price->from.source),
                   false});
  }
  return out;
}

Shortlist FoldOptions(const std::vector<Candidate>& ranked, bool unfold) {
  Shortlist s;
  if (unfold) {
    s.rows = ranked;
    s.folded.resize(ranked.size());
    return s;
  }
  std::map<std::tuple<std::string, PurchaseKind, int, std::string>, size_t> row_of;
  for (const Candidate& c : ranked) {
    auto key = std::make_tuple(c.type->family, c.purchase, c.type->accelerator.devices(),
                               c.type->accelerator.model);
    auto [it, inserted] = row_of.emplace(key, s.rows.size());
    if (inserted) {
      s.rows.push_back(c);
      s.folded.emplace_back();
    } else {
      s.folded[it->second].push_back(c);
    }
  }
  return s;
}

}  // namespace gpuadvisor::recommend_internal
