// Plan texts: why a plan, what binds, what the runner-up costs, warnings and the guide's advice;
// and one-line rejections.
#include "recommend/explain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/i18n.h"
#include "recommend/doubts.h"
#include "util/text.h"

namespace gpuadvisor::recommend_internal {
namespace {

thread_local Currency g_ranking_currency = Currency::kUsd;

std::string MoneyText(Currency c, double v) { return FormatMoney(c, v, v >= 100 ? 0 : 2); }
// An amount in the ranking currency (a plan's cost, a budget).
std::string Usd(double v) { return MoneyText(RankingCurrencyScope::Current(), v); }
std::string PlainHours(double h) { return FormatFixed(h, h >= 100 ? 0 : h >= 10 ? 1 : 2) + " h"; }
// Past two days a run also says its days: "5759 h (240 days)".
std::string Hours(double h) {
  return PlainHours(h) + (h >= 48 ? Trf(" ({0} days)", FormatFixed(h / 24, 0)) : std::string());
}
std::string Pct(double f) { return FormatFixed(100 * f, 0) + "%"; }

std::string Config(const Candidate& c) {
  return Trf("{0} x {1} {2} in {3}", c.type->name, c.instances, PurchaseKindLabel(c.purchase),
             *c.region);
}

}  // namespace

RankingCurrencyScope::RankingCurrencyScope(Currency c) : saved_(g_ranking_currency) {
  g_ranking_currency = c;
}
RankingCurrencyScope::~RankingCurrencyScope() { g_ranking_currency = saved_; }
Currency RankingCurrencyScope::Current() { return g_ranking_currency; }

namespace {

Result<Estimate> Reestimate(const Workload& w, const Candidate& c, int instances,
                            EstimateMode mode) {
  return EstimateWorkload(
      w, InstanceHardware(*c.type, c.gpu, instances, c.type->FindRegion(*c.region)), {}, mode);
}

std::string Objective(const std::vector<Candidate>& ranked, size_t i, const RecommendRequest& r) {
  const Candidate& c = ranked[i];
  std::string constraints;
  if (r.deadline_hours) constraints += Trf(" within the {0} deadline", Hours(*r.deadline_hours));
  if (r.budget_usd) constraints += Trf(" within the {0} budget", Usd(*r.budget_usd));
  if (i == 0) {
    // A doubted plan ranked below (Tier) that beats #1 on the objective's own figure: #1 is the
    // best of the plans the engine does not doubt, and says so.
    const bool beaten = std::any_of(ranked.begin() + 1, ranked.end(), [&](const Candidate& o) {
      if (Tier(o, r.risk) != 1) return false;
      const double mine = c.estimate->service ? c.usd_per_hour : c.cost_usd;
      const double theirs = o.estimate->service ? o.usd_per_hour : o.cost_usd;
      return r.objective == Objective::kTime ? o.time_hours < c.time_hours : theirs < mine;
    });
    const char* what = r.objective == Objective::kCost
                           ? (beaten ? Tr("cheapest plan without a doubt") : Tr("cheapest plan"))
                       : r.objective == Objective::kTime
                           ? (beaten ? Tr("fastest plan without a doubt") : Tr("fastest plan"))
                           : Tr("best cost x time");
    if (c.estimate->service) {  // a service: the rate matters, not one run
      // TRANSLATORS: {0} cheapest plan / fastest plan / best cost x time; {1} " within the ...
      // deadline" or ""; {2} and {3} dollars.
      return Trf("{0} that fits and keeps up with the load{1}: {2}/h ({3}/month)", what,
                 constraints, Usd(c.usd_per_hour), Usd(c.usd_per_hour * kHoursPerMonth));
    }
    return Trf("{0} that fits{1}: {2}, {3}", what, constraints, Usd(c.cost_usd),
               Hours(c.time_hours));
  }
  const Candidate& best = ranked[0];
  if (c.estimate->service) {
    return Trf("vs #1: {0}{1} per hour", c.usd_per_hour >= best.usd_per_hour ? "+" : "",
               Pct(c.usd_per_hour / best.usd_per_hour - 1));
  }
  return Trf("vs #1: {0}{1} cost, {2}{3} time", c.cost_usd >= best.cost_usd ? "+" : "",
             Pct(c.cost_usd / best.cost_usd - 1), c.time_hours >= best.time_hours ? "+" : "",
             Pct(c.time_hours / best.time_hours - 1));
}

// What stops a smaller version of the same plan (half the instances).
std::string Binding(const Workload& w, const std::vector<Candidate>& ranked, size_t i,
                    const RecommendRequest& r) {
  const Candidate& c = ranked[i];
  if (c.instances == 1) {
    return Tr("one instance is enough");
  }
  const int half = c.instances / 2;
  Result<Estimate> e = Reestimate(w, c, half, EstimateMode::kFast);
  if (!e.ok()) return "";
  if (!e->memory.fits) {
    return Trf("memory binds: {0} instance(s) would need {1} GiB per device ({2} usable)", half,
               FormatFixed(e->memory.total_gib, 1), FormatFixed(e->memory.device_gib, 1));
  }
  if (!e->demand_met || !e->slo_met) {
    return Trf("the request rate / latency targets bind: {0} instance(s) would not keep up", half);
  }
  if (r.deadline_hours && e->hours &&
      *e->hours * (c.time_hours / *c.estimate->hours) > *r.deadline_hours) {
    return Trf("the deadline binds: {0} instance(s) would take {1}", half, Hours(*e->hours));
  }
  if (e->service) {
    return Trf("{0} instance(s) would also keep up; this size adds headroom", half);
  }
  // The half-size plan, when it was priced: "the objective prefers this size" is only true when
  // it ranks below this one.
  for (size_t k = 0; k < ranked.size(); ++k) {
    const Candidate& o = ranked[k];
    if (o.type != c.type || o.instances != half || o.purchase != c.purchase) continue;
    if (k > i) {
      return Trf("{0} instance(s) would take {1} for {2}; the objective prefers this size", half,
                 Hours(o.time_hours), Usd(o.cost_usd));
    }
    return Trf("{0} instance(s) rank higher ({1}, {2}); this size is {3} faster for {4}{5} cost",
               half, Usd(o.cost_usd), Hours(o.time_hours), Pct(1 - c.time_hours / o.time_hours),
               c.cost_usd >= o.cost_usd ? "+" : "", Pct(c.cost_usd / o.cost_usd - 1));
  }
  return e->hours ? Trf("{0} instance(s) would take {1}", half, Hours(*e->hours))
                  : Trf("{0} instance(s) would take longer", half);
}

std::string Drivers(const Estimate& e) {
  const PerformanceEstimate& p = e.performance;
  const ParallelismChoice& par = e.parallelism;
  std::string s;
  if (IsTrainingTask(e.task) && p.tokens_per_s) {
    s = Trf("{0} tokens/s", FormatFixed(*p.tokens_per_s, 0));
    if (p.mfu) s += Trf(" at {0} MFU", Pct(*p.mfu));
    s += "; TP " + std::to_string(par.tp) + ", PP " + std::to_string(par.pp) + ", DP " +
         std::to_string(par.dp) + ", ZeRO " + std::to_string(par.zero);
  } else if (e.task == TaskKind::kServe && p.itl_ms) {
    s = "ITL " + FormatFixed(*p.itl_ms, 1) + " ms" +
        (p.ttft_ms ? ", TTFT " + FormatFixed(*p.ttft_ms, 0) + " ms" : std::string()) + ", " +
        (par.pp > 1 ? Trf("{0} req/s capacity; TP {1} x PP {2} x {3} replica(s)",
                          FormatFixed(p.requests_per_s.value_or(0), 1), par.tp, par.pp, par.dp)
                    : Trf("{0} req/s capacity; TP {1} x {2} replica(s)",
                          FormatFixed(p.requests_per_s.value_or(0), 1), par.tp, par.dp));
  } else if (p.images_per_s) {
    s = Trf("{0} images/s", FormatFixed(*p.images_per_s, 0));
  } else if (p.sustained_tflops) {
    s = Trf("{0} TFLOP/s sustained", FormatFixed(*p.sustained_tflops, 1));
  } else if (p.streams_per_gpu) {
    s = Trf("{0} streams per GPU", FormatFixed(*p.streams_per_gpu, 0));
  } else if (p.sessions_per_gpu) {
    s = Trf("{0} sessions per GPU", FormatFixed(*p.sessions_per_gpu, 0));
  } else if (p.scan_time_s) {
    s = Trf("one scan in {0} s", FormatFixed(*p.scan_time_s, 2));
  }
  if (!s.empty()) {
    s += Tr("; ") + Trf("{0} of {1} GiB per device", FormatFixed(e.memory.total_gib, 1),
                        FormatFixed(e.memory.device_gib, 1));
  }
  return s;
}

std::string RunnerUp(const std::vector<Candidate>& ranked, size_t i) {
  const Candidate& c = ranked[i];
  for (size_t k = 0; k < ranked.size(); ++k) {
    const Candidate& o = ranked[k];
    if (k == i || o.type == c.type) continue;
    if (c.estimate->service) {
      return Trf("runner-up: {0} at {1}/h ({2}{3})", Config(o), Usd(o.usd_per_hour),
                 o.usd_per_hour >= c.usd_per_hour ? "+" : "",
                 Pct(o.usd_per_hour / c.usd_per_hour - 1));
    }
    return Trf("runner-up: {0} at {1} ({2}{3}), {4}", Config(o), Usd(o.cost_usd),
               o.cost_usd >= c.cost_usd ? "+" : "", Pct(o.cost_usd / c.cost_usd - 1),
               Hours(o.time_hours));
  }
  return "";
}

// For a large spot or on-demand cluster: says it would realistically need a Capacity Block and,
// where the catalog prices one in the plan's region, what the same run costs on one.
std::string LargeClusterNote(const Candidate& c) {
  const InstanceType& t = *c.type;
  if (c.instances < kLargeCluster ||
      (c.purchase != PurchaseKind::kSpot && c.purchase != PurchaseKind::kOnDemand)) {
    return "";
  }
  std::string line = Trf("{0} {1} instances of {2} at once are rarely available", c.instances,
                         PurchaseKindLabel(c.purchase), t.name);
  if (!t.HasUsageClass("capacity-block")) {
    if (c.purchase == PurchaseKind::kOnDemand) return "";  // nothing better to point to
    return line + Tr("; for a cluster this size consider an on-demand capacity reservation");
  }
  const RegionOffer* o = t.FindRegion(*c.region);
  const Price* block = o != nullptr ? PurchasePrice(*o, PurchaseKind::kCapacityBlock) : nullptr;
  // The run without spot's interruption overhead, in whole days of block.
  const double hours = c.time_hours / (1 + c.spot_overhead);
  const int days = CapacityBlockDays(hours);
  if (block == nullptr || days > kCapacityBlockMaxDays ||
      c.instances > kCapacityBlockMaxInstances) {
    return line + Tr("; a cluster this size realistically needs a Capacity Block or an on-demand "
                     "capacity reservation");
  }
  const double cost = block->usd_per_hour * c.to_ranking * c.instances * days * 24;
  return line + Trf("; a cluster this size realistically needs a Capacity Block: {0} days x {1} "
                    "at {2}/h = {3} in {4} ({5}{6} vs this plan; --purchase capacity-block)",
                    days, c.instances, MoneyText(c.local_currency, block->usd_per_hour), Usd(cost),
                    *c.region, cost >= c.cost_usd ? "+" : "", Pct(cost / c.cost_usd - 1));
}

// The facts an advice or warning line's condition reads (doc/recommend.md, "Advice").
struct AdviceFacts {
  const Workload& w;
  const Candidate& c;
  const Estimate& e;
  bool neuron;       // AWS Neuron device: Neuron SDK, Neuron DLAMI, neuron-monitor
  bool inter_node;   // the instances exchange traffic during the run (collectives, MPI)
  bool stateful;     // a run that builds state worth checkpointing (training, HPC)
  double run_hours;  // useful hours of the run, before interruptions
};

bool Training(const Workload& w) {
  return IsTrainingTask(w.task) || w.task == TaskKind::kTrainVision;
}

// Whether `c`'s instances talk to each other while it runs: a training or HPC job over several
// instances does (gradients, halos); serving and batch inference replicas do not unless one copy
// of the model (TP x PP) spans more devices than an instance has.
bool InterNodeTraffic(const Workload& w, const Candidate& c, const Estimate& e) {
  if (c.instances < 2) return false;
  if (Training(w) || w.task == TaskKind::kHpc) return true;
  if (w.task == TaskKind::kServe && e.parallelism_applies) {
    return e.parallelism.tp * e.parallelism.pp > c.type->accelerator.devices();
  }
  return false;
}

// Spot's Young/Daly checkpoint interval for the plan, in hours.
double CheckpointIntervalHours(const AdviceFacts& f) {
  return JobSpotOverhead(*f.c.type, f.c.type->FindRegion(*f.c.region), f.e, f.c.instances)
             .optimal_interval_s /
         3600;
}

void EfaAdvice(const AdviceFacts& f, Plan* p) {
  // A Capacity Block's instances are placed together in an EC2 UltraCluster, in the block's
  // AZ, by AWS: no placement group to make (the launch spec makes none either).
  p->advice.push_back(
      f.c.purchase == PurchaseKind::kCapacityBlock
          ? Trf("multi-node: enable EFA (up to {0} interfaces); the block's instances are already "
                "co-located in an EC2 UltraCluster in its AZ (no placement group)",
                f.c.type->max_efa_interfaces)
          : Trf("multi-node: enable EFA (up to {0} interfaces) and launch into a cluster placement "
                "group in one AZ",
                f.c.type->max_efa_interfaces));
}

void NoEfaWarning(const AdviceFacts& f, Plan* p) {
  p->warnings.push_back(Trf("{0} has no EFA: inter-node traffic goes over ENA at {1} Gbps",
                            f.c.type->name, FormatFixed(f.c.type->network_gbit_s.value_or(0), 0)));
}

void StorageAdvice(const AdviceFacts& f, Plan* p) {
  const InstanceType& t = *f.c.type;
  const double ckpt = f.e.checkpoint_gib.value_or(0);
  // A size only where the estimate has one worth stating: "~0.0 GiB" says nothing.
  const std::string size =
      ckpt >= 0.1 ? Trf(" of ~{0} GiB", FormatFixed(ckpt, ckpt >= 10 ? 0 : 1)) : std::string();
  // TRANSLATORS: {0} is " of ~N GiB" or "".
  std::string s =
      t.local_nvme ? Trf("storage: checkpoints{0} to instance NVMe ({1} GB) then S3", size,
                         t.local_storage_gb.value_or(0))
                   : Trf("storage: checkpoints{0} to EBS gp3 (size it for 2 checkpoints plus the "
                         "dataset) then S3",
                         size);
  if (f.c.instances > 1) s += Tr("; FSx for Lustre linked to S3 for the training data");
  p->advice.push_back(s);
}

void MonitoringAdvice(const AdviceFacts& f, Plan* p) {
  p->advice.emplace_back(f.neuron ? Tr("monitoring: neuron-monitor to CloudWatch (NeuronCore "
                                       "utilisation, device memory); stop idle instances "
                                       "(gpuadvisor idle / watch)")
                                  : Tr("monitoring: CloudWatch agent with nvidia_gpu metrics "
                                       "(utilisation, memory); stop idle instances (gpuadvisor "
                                       "idle / watch)"));
}

bool Fp8Capable(const Estimate& e) {
  const std::string& arch = e.gpu_model;
  return arch == "H100" || arch == "H200" || arch == "B200" || arch == "B300" || arch == "L40S" ||
         arch == "L4";
}

// "spread across AZs (capacity-optimized allocation); +12% expected time is included".
std::string SpotSpread(const AdviceFacts& f) {
  return Trf("spread across AZs (capacity-optimized allocation); +{0} expected time is included",
             Pct(f.c.spot_overhead));
}

void SpotCheckpointAdvice(const AdviceFacts& f, Plan* p) {
  p->advice.push_back(
      Trf("spot: checkpoint about every {0} min (Young/Daly for the interruption band); {1}",
          FormatFixed(CheckpointIntervalHours(f) * 60, 0), SpotSpread(f)));
}

void SpotShortRunAdvice(const AdviceFacts& f, Plan* p) {
  p->advice.push_back(
      Trf("spot: the run ({0} min) is shorter than a checkpoint interval ({1} min): rerun it if "
          "interrupted; {2}",
          FormatFixed(f.run_hours * 60, 0), FormatFixed(CheckpointIntervalHours(f) * 60, 0),
          SpotSpread(f)));
}

void SpotChunksAdvice(const AdviceFacts& f, Plan* p) {
  p->advice.push_back(
      Trf("spot: split the input into restartable chunks (an interruption repeats only its "
          "chunk); {0}",
          SpotSpread(f)));
}

// One advice or warning line: the condition it was written for, next to the line. Every rule
// whose condition holds adds its line, in this order (tests/recommend/advice_test.cc pairs each
// with a plan where it applies and one where it must not appear).
struct AdviceRule {
  const char* id;
  bool (*applies)(const AdviceFacts&);
  void (*add)(const AdviceFacts&, Plan*);
};

const AdviceRule kAdviceRules[] = {
    {"neuron-sdk", [](const AdviceFacts& f) { return f.neuron; },
     [](const AdviceFacts& f, Plan* p) {
       // What the SDK's dated lists say of the model (doubts.h), else the caution alone.
       const workload_internal::NeuronSupport* n = f.c.neuron;
       p->warnings.push_back(
           n != nullptr && n->SupportedOn(f.c.type->accelerator.model)
               ? Trf("{0} runs models compiled with the AWS Neuron SDK: {1}",
                     f.c.type->accelerator.model, n->detail)
               : Trf("{0} runs models compiled with the AWS Neuron SDK "
                     "(NxD / transformers-neuronx): check that the architecture is "
                     "supported",
                     f.c.type->accelerator.model));
     }},
    {"efa", [](const AdviceFacts& f) { return f.inter_node && f.c.type->efa; }, EfaAdvice},
    {"no-efa", [](const AdviceFacts& f) { return f.inter_node && !f.c.type->efa; }, NoEfaWarning},
    {"storage", [](const AdviceFacts& f) { return Training(f.w); }, StorageAdvice},
    {"ami-neuron", [](const AdviceFacts& f) { return f.neuron; },
     [](const AdviceFacts&, Plan* p) {
       p->advice.emplace_back(
           Tr("AMI: AWS Deep Learning AMI Neuron (resolve its public SSM parameter at launch)"));
     }},
    {"ami-gpu", [](const AdviceFacts& f) { return !f.neuron; },
     [](const AdviceFacts&, Plan* p) {
       p->advice.emplace_back(
           Tr("AMI: AWS Deep Learning AMI (GPU, PyTorch; resolve its public SSM parameter at "
              "launch)"));
     }},
    {"monitoring", [](const AdviceFacts&) { return true; }, MonitoringAdvice},
    {"mixed-precision",
     [](const AdviceFacts& f) {
       return IsTrainingTask(f.w.task) && !f.neuron &&
              (f.e.precision == Precision::kFp32 || f.e.precision == Precision::kTf32);
     },
     [](const AdviceFacts&, Plan* p) {
       p->advice.emplace_back(
           Tr("mixed precision (bf16/fp16) would run the matmuls on tensor cores, several times "
              "faster"));
     }},
    {"fp8",
     [](const AdviceFacts& f) {
       return (f.w.task == TaskKind::kPretrain || f.w.task == TaskKind::kFinetune) && !f.neuron &&
              f.e.precision == Precision::kBf16 && Fp8Capable(f.e);
     },
     [](const AdviceFacts&, Plan* p) {
       p->advice.emplace_back(
           Tr("FP8 training (TransformerEngine) is supported here: ~1.3-1.5x the BF16 throughput "
              "for large models"));
     }},
    {"large-cluster", [](const AdviceFacts& f) { return !LargeClusterNote(f.c).empty(); },
     [](const AdviceFacts& f, Plan* p) { p->warnings.push_back(LargeClusterNote(f.c)); }},
    {"spot-checkpoint",
     [](const AdviceFacts& f) {
       return f.c.purchase == PurchaseKind::kSpot && f.stateful &&
              f.run_hours > CheckpointIntervalHours(f);
     },
     SpotCheckpointAdvice},
    {"spot-short-run",
     [](const AdviceFacts& f) {
       return f.c.purchase == PurchaseKind::kSpot && f.stateful &&
              f.run_hours <= CheckpointIntervalHours(f);
     },
     SpotShortRunAdvice},
    {"spot-chunks",
     [](const AdviceFacts& f) {
       return f.c.purchase == PurchaseKind::kSpot && !f.stateful && !f.e.service;
     },
     SpotChunksAdvice},
    {"serving-autoscale", [](const AdviceFacts& f) { return f.w.task == TaskKind::kServe; },
     [](const AdviceFacts&, Plan* p) {
       p->advice.emplace_back(
           Tr("serving: autoscale replicas on queue depth / KV-cache use; keep an on-demand base "
              "and add spot replicas for bursts"));
     }},
};

void Advice(const Workload& w, const Candidate& c, const Estimate& e, Plan* p) {
  const AdviceFacts f{w,
                      c,
                      e,
                      c.type->accelerator.kind == AcceleratorKind::kNeuron,
                      InterNodeTraffic(w, c, e),
                      Training(w) || w.task == TaskKind::kHpc,
                      c.estimate->hours.value_or(0)};
  p->inter_node_traffic = f.inter_node;
  for (const AdviceRule& r : kAdviceRules) {
    if (r.applies(f)) r.add(f, p);
  }
}

// Spot with a deadline: the chance that interruptions make the run miss it, a warning past 10%.
void DeadlineRisk(const Candidate& c, double useful_hours, double deadline_hours, Plan* p) {
  const SpotOverhead s =
      JobSpotOverhead(*c.type, c.type->FindRegion(*c.region), *c.estimate, c.instances);
  const double risk = SpotDeadlineMissProbability(s, useful_hours, deadline_hours - kLaunchHours);
  p->deadline_miss_probability = risk;
  const std::string line =
      Trf("spot: {0} chance that interruptions (one per {1} h across the job) push it past the "
          "{2} deadline",
          Pct(risk), FormatFixed(s.mtbi_hours, s.mtbi_hours >= 100 ? 0 : 1), Hours(deadline_hours));
  if (risk > 0.10) {
    p->warnings.push_back(line + Tr("; on-demand or a Capacity Block cannot be interrupted"));
  } else {
    p->why.push_back(line);
  }
}

}  // namespace

Hardware InstanceHardware(const InstanceType& type, const GpuSpec* gpu, int instances,
                          const RegionOffer* offer) {
  Hardware hw;
  hw.gpu = gpu;
  hw.instance = &type;
  hw.instances = instances;
  hw.gpus = instances * type.accelerator.devices();
  hw.offer = offer;
  return hw;
}

SpotOverhead JobSpotOverhead(const InstanceType& type, const RegionOffer* offer, const Estimate& e,
                             int instances) {
  UsagePattern u;
  u.instances = instances;
  u.interruptible = true;
  u.checkpoint_gib = e.checkpoint_gib.value_or(0) / std::max(1, instances);
  return SpotInterruptionOverhead(type, offer && offer->spot_band ? &*offer->spot_band : nullptr,
                                  u);
}

namespace {

// Whether the estimate's band is on a time (else on a rate, whose band a time takes inversely).
bool BandOnTime(const Estimate& e) {
  const std::string_view metric = e.uncertainty_metric;
  return metric == "time.hours" || metric == "performance.scan_time_s";
}

}  // namespace

double RiskFactor(const Estimate& e) {
  if (!e.uncertainty_metric) return 1;
  if (BandOnTime(e)) return 1 + e.band_high;
  return e.band_low < 0.95 ? 1 / (1 - e.band_low) : 20;
}

double OptimisticFactor(const Estimate& e) {
  if (!e.uncertainty_metric) return 1;
  return BandOnTime(e) ? 1 - e.band_low : 1 / (1 + e.band_high);
}

Plan MakeBarePlan(const Candidate& c) {
  Plan p;
  p.type = c.type;
  p.instances = c.instances;
  p.gpus = c.instances * c.type->accelerator.devices();
  p.region = *c.region;
  p.purchase = c.purchase;
  p.parallelism = c.estimate->parallelism;
  p.memory_per_gpu_gib = c.estimate->memory.total_gib;
  p.device_gib = c.estimate->memory.device_gib;
  p.fits = c.estimate->memory.fits;
  p.time_hours = c.time_hours;
  p.cost_usd = c.cost_usd;
  p.usd_per_hour = c.usd_per_hour;
  p.currency = c.currency;
  p.local_currency = c.local_currency;
  p.doubts = DoubtTexts(c);
  p.obtain_probability = c.obtain;
  p.obtain_basis = ObtainBasis(c);
  p.wait_hours = c.wait_hours;
  p.wait_basis = WaitBasis(c);
  p.local_per_hour = c.usd_per_hour / c.to_ranking;
  p.local_cost = c.cost_usd / c.to_ranking;
  p.spot_overhead = c.spot_overhead;
  p.risk_factor = c.risk_factor;
  p.price_risk_factor = c.price_risk;
  p.price_from = c.price->from;
  // A figure a newer source confirmed is as old as its confirmation (Price::dated_by).
  p.price_figures.push_back({PurchaseKindName(c.purchase), c.price->dated_by()});
  if (c.purchase == PurchaseKind::kSpot) {
    const RegionOffer* o = c.type->FindRegion(*c.region);
    if (o != nullptr && o->spot_band) {
      p.price_figures.push_back({"spot-interruption-band", o->spot_band->from});
    }
  }
  return p;
}

Plan MakePlan(const Catalog& catalog, const Workload& w, const std::vector<Candidate>& ranked,
              size_t i, LeverCache* cache, const RecommendRequest& req,
              const std::vector<std::string>&) {
  const Candidate& c = ranked[i];
  Plan p = MakeBarePlan(c);
  p.rank = static_cast<int>(i) + 1;
  Result<Estimate> e = Reestimate(w, c, c.instances, EstimateMode::kDetailed);
  p.estimate = e.ok() ? std::move(e).value() : *c.estimate;
  p.why.push_back(Objective(ranked, i, req));
  const std::string drivers = Drivers(p.estimate);
  if (!drivers.empty()) p.why.push_back(drivers);
  const std::string binding = Binding(w, ranked, i, req);
  if (!binding.empty()) p.why.push_back(binding);
  if (c.purchase == PurchaseKind::kCapacityBlock) {
    const int days = CapacityBlockDays(c.time_hours);
    // TRANSLATORS: the views find this line by its first words, this message
    // (recommend_views.cc, RecommendDetails): translate it as a prefix of the line.
    p.why.push_back(std::string(Tr("Capacity Block of ")) +
                    Trf("{0} days x {1} at {2}/h per instance ({3}, {4}), paid upfront when "
                        "reserved (up to 8 weeks ahead); no interruptions",
                        days, c.instances, MoneyText(c.local_currency, c.price->usd_per_hour),
                        c.price->from.source, c.price->from.date));
  }
  if (c.purchase == PurchaseKind::kSpot) {
    p.why.push_back(
        c.price->estimated
            ? Trf("spot at {0}/h per instance (estimated from spot-advisor savings) "
                  "includes +{1} time for interruptions",
                  MoneyText(c.local_currency, c.price->usd_per_hour), Pct(c.spot_overhead))
            : Trf("spot at {0}/h per instance includes +{1} time for interruptions",
                  MoneyText(c.local_currency, c.price->usd_per_hour), Pct(c.spot_overhead)));
    if (req.deadline_hours && c.estimate->hours) {
      DeadlineRisk(c, *c.estimate->hours, *req.deadline_hours, &p);
    }
  }
  const std::string runner = RunnerUp(ranked, i);
  if (!runner.empty()) p.why.push_back(runner);
  const char* grade = p.estimate.confidence == Confidence::kHigh     ? Tr("high-confidence")
                      : p.estimate.confidence == Confidence::kMedium ? Tr("medium-confidence")
                                                                     : Tr("low-confidence");
  // TRANSLATORS: {0} high-confidence / medium-confidence / low-confidence; {1} the basis of the
  // grade (English, from the estimator).
  p.why.push_back(Trf("{0} estimate ({1}); ranked at the pessimistic end of its band (x{2})", grade,
                      p.estimate.confidence_basis, FormatFixed(c.risk_factor, 2)));
  if (c.price_band != nullptr) {
    // TRANSLATORS: {0} the advisor feed's source and date; {1}/{2} percentages; {3} a count;
    // {4} a factor such as 1.25.
    p.why.push_back(
        Trf("spot price estimated from the Spot Instance Advisor's savings ({0}): "
            "observed spot prices lay within -{1}% / +{2}% of such estimates in 80% "
            "of the {3} type-regions the catalog has both for; ranked at the high "
            "end (x{4})",
            c.price->from.source + ", " + c.price->from.date,
            FormatFixed(100 * c.price_band->low, 0), FormatFixed(100 * c.price_band->high, 0),
            c.price_band->figures, FormatFixed(c.price_risk, 2)));
  }
  for (const std::string& a : p.estimate.assumptions) {
    if (StartsWith(a, "warning: ")) p.warnings.push_back(a.substr(9));
  }
  if (!req.explain) p.estimate.assumptions.clear();
  Advice(w, c, p.estimate, &p);
  if (req.savings_levers) p.savings = SavingsLevers(catalog, w, c, req, cache);
  return p;
}

namespace {

// "us-east-1, us-west-2", or "any of the N requested regions" past three.
std::string RegionsPhrase(const std::vector<std::string>& regions) {
  if (regions.size() > 3) {
    return Trf("any of the {0} requested regions", regions.size());
  }
  std::string where;
  for (const std::string& r : regions) where += (where.empty() ? "" : ", ") + r;
  return where;
}

// Most informative first: constraints the user set, then memory and serving capacity, then
// what the hardware cannot do, then availability. Within a category, catalog order.
struct RejectionLine {
  int category;
  const InstanceType* type;
  std::string reason;
  double value = 0;  // deadline/budget misses: the best time or cost, merged by family
};

// Why type `t` (not retired, not feasible) was rejected; `where`: the regions phrase.
RejectionLine ClassifyRejection(const InstanceType* t, const TypeOutcome& o,
                                const std::string& where) {
  int category = 0;
  double value = 0;
  std::string reason;
  if (!o.hard_reason.empty()) {
    category = 3;
    reason = o.hard_reason;
    for (const char* prefix : {"task: ", "precision: ", "instance: "}) {
      if (StartsWith(reason, prefix)) reason = reason.substr(std::string(prefix).size());
    }
  } else if (o.min_needed_gib > 0 && !o.feasible_estimate) {
    category = 1;
    // A served model is held whole by each instance (replicas; no pipeline across instances),
    // so more instances never lower the need: saying "even on 64 instances" would be false.
    const std::string has =
        Tr("; ") + Trf("{0} has {1}", t->accelerator.model, FormatFixed(o.device_gib, 1));
    const std::string needs = Trf("needs {0} GiB per device", FormatFixed(o.min_needed_gib, 1));
    const std::string why_one =
        t->accelerator.kind == AcceleratorKind::kNeuron
            ? Tr(" (NxD Inference compiles a model for one instance's devices: it does not split a "
                 "served model over Neuron instances)")
            : Tr(" (served replicas are split over instances only with EFA and 4 or more GPUs "
                 "each)");
    reason = o.serving_instances == 1
                 ? needs + Tr(" with the model held whole by one instance") + why_one + has
             : o.serving_instances > 1
                 ? needs +
                       Trf(" with a replica split over {0} instances, the most a served model is "
                           "split over (pipeline stages over EFA)",
                           o.serving_instances) +
                       has
                 : needs + Trf(" even on {0} instance(s)", o.max_count_tried) + has;
  } else if (o.targets_missed_at > 0 && !o.feasible_estimate) {
    category = 2;
    reason = o.demand_missed ? Trf("cannot keep up with the request rate on up to {0} instance(s)",
                                   o.targets_missed_at)
                             : std::string(Tr("misses the latency targets"));
  } else if (!o.offered) {
    category = 4;
    reason = Trf("not offered in {0}", where);
  } else if (o.fastest_hours > 0) {
    reason = "misses the deadline";
    value = o.fastest_hours;
  } else if (o.cheapest_usd > 0) {
    reason = "over budget";
    value = o.cheapest_usd;
  } else if (o.gpu_cap > 0) {
    category = 1;
    reason = Trf("more GPUs per instance than --max-gpus {0}", o.gpu_cap);
  } else if (!o.other_reason.empty()) {
    category = 3;
    reason = o.other_reason;
  } else {
    category = 4;
    reason = Trf("no price for the requested purchase options in {0}", where);
  }
  return {category, t, reason, value};
}

// One rejection for lines [i, j) of one family and reason: "g4dn.* (6 sizes)" when they are
// all of the family's `family_size` sizes, else the names; a deadline or budget miss states
// the family's best figure.
Rejection MergeRejections(const std::vector<RejectionLine>& lines, size_t i, size_t j,
                          int family_size, const RecommendRequest& req) {
  const int n = static_cast<int>(j - i);
  double best = lines[i].value;
  for (size_t k = i; k < j; ++k) best = std::min(best, lines[k].value);
  std::string reason = lines[i].reason;
  if (reason == "misses the deadline") {
    reason = Trf("misses the deadline: fastest {0}{1} (deadline {2})", PlainHours(best),
                 best >= 48 ? Trf(", {0} days", FormatFixed(best / 24, 0)) : std::string(),
                 PlainHours(*req.deadline_hours));
  } else if (reason == "over budget") {
    reason = Trf("over budget: cheapest {0} (budget {1})", Usd(best), Usd(*req.budget_usd));
  }
  std::string who = lines[i].type->name;
  if (n > 1 && n == family_size) {
    who = lines[i].type->family + ".* (" + std::to_string(n) + " sizes)";
  } else {
    for (size_t k = i + 1; k < j; ++k) who += ", " + lines[k].type->name;
  }
  return {who, reason};
}

}  // namespace

std::vector<Rejection> Rejections(
    const std::vector<std::pair<const InstanceType*, TypeOutcome>>& outcomes,
    const std::vector<std::string>& regions, const RecommendRequest& req,
    const std::vector<Candidate>& feasible) {
  std::set<const InstanceType*> ok;
  for (const Candidate& c : feasible) ok.insert(c.type);
  const std::string where = RegionsPhrase(regions);
  std::vector<RejectionLine> lines;
  std::vector<std::string> retired;
  for (const auto& [t, o] : outcomes) {
    if (ok.count(t) || o.filtered) continue;
    if (o.retired) {
      retired.push_back(t->name);
      continue;
    }
    lines.push_back(ClassifyRejection(t, o, where));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const RejectionLine& a, const RejectionLine& b) {
    return a.category < b.category;
  });
  // Merge the sizes of one family that share a reason: "g4dn.* (6 sizes): ...".
  std::map<std::string, int> family_sizes;
  for (const auto& [t, o] : outcomes) family_sizes[t->family] += o.retired ? 0 : 1;
  std::vector<Rejection> out;
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    while (j < lines.size() && lines[j].type->family == lines[i].type->family &&
           lines[j].reason == lines[i].reason) {
      ++j;
    }
    out.push_back(MergeRejections(lines, i, j, family_sizes[lines[i].type->family], req));
    i = j;
  }
  if (!retired.empty()) {
    out.push_back({std::to_string(retired.size()) + " retired types",
                   Trf("retired ({0}, ...); --allow-retired to consider them", retired.front())});
  }
  return out;
}

}  // namespace gpuadvisor::recommend_internal
