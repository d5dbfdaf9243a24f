// Purchase options (doc/recommend.md): what an instance type costs in a region for a usage pattern
// under each way to pay — on-demand, spot with interruptions and checkpoints, reserved
// instances, savings plans, capacity blocks — with the break-even utilisation of each
// commitment against on-demand.
//
// PriceUsage() is a pure function of a catalog record and the pattern. Options the catalog has
// no price for are still listed (priced == false, figures null) so callers can say so.
#ifndef GPUADVISOR_COST_H_
#define GPUADVISOR_COST_H_

#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

inline constexpr double kHoursPerMonth = 730;  // AWS's billing month (8760 / 12)

// EC2 Capacity Blocks for ML, as AWS sells them (EC2 user guide, "Find and purchase Capacity
// Blocks", and DescribeCapacityBlockOfferings' CapacityDurationHours: "1-day increments up to 14
// days, and 7-day increments up to 182 days"; "Capacity Blocks for ML": a block starts at most 8
// weeks after it is bought): 1 to 64 instances, paid upfront when reserved. A second block back
// to back with a first would start after its end, beyond the 8 weeks, so the most that can be
// booked today for one job is one block: `pricing` and `recommend` never chain blocks.
inline constexpr int kCapacityBlockMaxDays = 182;
inline constexpr int kCapacityBlockDailyStepMaxDays = 14;  // 1-day steps up to here, then weeks
inline constexpr int kCapacityBlockMaxStartDays = 56;      // bookable to start within 8 weeks
inline constexpr int kCapacityBlockMaxInstances = 64;
// The shortest duration AWS sells (whole days up to 14, whole weeks above) that covers `hours`
// of running back to back; at least 1 day. Above kCapacityBlockMaxDays no block covers them.
int CapacityBlockDays(double hours);

struct UsagePattern {
  double hours_per_month = kHoursPerMonth;  // hours the instances run per month, (0, 730]
  double months = 1;                        // how long the usage lasts, > 0
  int instances = 1;                        // instances used together (one job)
  bool interruptible = false;               // may run on spot (checkpoints, restarts)
  double checkpoint_interval_s = 0;         // 0 = the Young/Daly optimum
  double checkpoint_gib = 0;                // one checkpoint, per instance
  double storage_gbyte_s = 0;  // checkpoint write/read GB/s per instance; 0 = min(EBS, 1 GB/s gp3)
  double restart_s = 600;      // relaunch, setup and warm-up after an interruption (s)
};

// The usage a user describes (fields.h); hours_per_month and months come from `pricing`'s
// hours-per-month, months or hours (PricingArgs), which decide between them.
template <typename V>
void DeclareOptions(V& v, UsagePattern& u) {
  v.NotAnOption(u.hours_per_month);
  v.NotAnOption(u.months);
  v.Integer("count", u.instances, {.help = "Instances used together", .lo = 1, .hi = 100000});
  v.Bool("interruptible", u.interruptible, {.help = "The job checkpoints and can run on spot"});
  v.Duration("checkpoint-interval", u.checkpoint_interval_s,
             {.help = "Checkpoint this often (0 or not given: the Young/Daly optimum)",
              .lo = 0,
              .hi = 30 * 86400,
              .no_default = true});
  v.Number("checkpoint-gib", u.checkpoint_gib,
           {.help = "Checkpoint size per instance",
            .unit = "GiB",
            .lo = 0,
            .hi = 1e6,
            .no_default = true});
  v.Number("storage-gbyte-s", u.storage_gbyte_s,
           {.help = "Checkpoint storage bandwidth per instance (default: EBS, at most 1 GB/s)",
            .label = "Storage bandwidth",
            .unit = "GB/s",
            .lo = 0,
            .hi = 1000,
            .aliases = {"storage-gbps"},
            .no_default = true});
  v.Duration("restart", u.restart_s,
             {.help = "Relaunch and warm-up after an interruption", .lo = 0, .hi = 7 * 86400});
}

// Expected cost of interruptions on spot [Young 1974; Daly 2006]: with interruptions at rate
// lambda per hour per instance (from the spot-advisor band), a job on n instances stops at
// n·lambda; every interval tau it writes a checkpoint (delta seconds); an interruption loses on
// average tau/2 of work plus the restart and the checkpoint read. Overhead on useful time:
// delta/tau + (tau/2 + restart + read) / MTBI, minimal at tau = sqrt(2·delta·MTBI).
struct SpotOverhead {
  double interruptions_per_month = 0;  // per instance, the band's midpoint (">20%": 25%)
  double mtbi_hours = 0;               // mean time between interruptions of the whole job
  double checkpoint_write_s = 0;
  double checkpoint_read_s = 0;
  double interval_s = 0;          // the interval used
  double optimal_interval_s = 0;  // Young/Daly
  double overhead_fraction = 0;   // extra wall time over useful time
  double restart_s = 0;           // per interruption, as UsagePattern::restart_s
};

// The chance that spot interruptions push a run of `useful_hours` past `deadline_hours`: the run
// writes a checkpoint every interval; interruptions arrive as a Poisson process (one per
// mtbi_hours of the whole job), each losing on average half an interval plus the restart and the
// checkpoint read. 1 when even an uninterrupted run misses; 0 without interruptions.
double SpotDeadlineMissProbability(const SpotOverhead& s, double useful_hours,
                                   double deadline_hours);

struct PurchaseOptionCost {
  std::string option;  // "on-demand", "spot", "reserved-1y-no-upfront", ...: do not rename
  bool priced = false;
  bool commitment = false;             // reserved instances and savings plans
  std::optional<double> usd_per_hour;  // per instance; reserved: effective incl. amortised upfront
  std::optional<double> upfront_usd;   // per instance per term
  std::optional<double> term_months;
  std::optional<double> total_usd;          // all instances, whole usage (commitments: whole terms)
  std::optional<double> usd_per_used_hour;  // total / (instance-hours used)
  std::optional<double> break_even_utilization;  // commitments: share of hours where = on-demand
  std::optional<SpotOverhead> spot;              // spot only
  Provenance from;
  bool estimated = false;  // e.g. spot derived from the spot-advisor savings
  bool suitable = true;    // false: spot for a job that cannot be interrupted
  std::string note;
};

struct PricingResult {
  std::string instance_type, region;
  UsagePattern usage;
  std::vector<PurchaseOptionCost> options;  // fixed order, priced or not
  int cheapest = -1;             // index of the cheapest suitable priced option (total), -1 if none
  bool capacity_blocks = false;  // the type is sold as EC2 Capacity Blocks for ML
  // Block length priced (a duration AWS sells, whole days); null when no block is priced, or
  // when the usage is longer than the longest block (then the capacity-block option is listed
  // as not suitable for the horizon, with no total: see CapacityBlock in pricing.cc).
  std::optional<int> capacity_block_days;
  std::vector<std::string> notes;
};

// Errors: InvalidArgument naming the field (hours-per-month outside (0, 730], months <= 0, ...);
// NotFound when the type has no catalog entry in `region`.
Result<PricingResult> PriceUsage(const InstanceType& type, const std::string& region,
                                 const UsagePattern& usage);

// The spot model alone (also used by the recommendation engine). `band` may be null (then the
// worst band is assumed). REQUIRES: usage validated by PriceUsage's rules.
SpotOverhead SpotInterruptionOverhead(const InstanceType& type, const SpotBand* band,
                                      const UsagePattern& usage);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_COST_H_
