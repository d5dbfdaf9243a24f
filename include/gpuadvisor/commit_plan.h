// How much to commit, to what, for how long: Reserved Instances and Savings Plans sized from the
// hourly usage a bill shows (bill.h), with what the account already holds (doc/commitments.md).
//
// For each instance type and region, the usage that on-demand paid for (what the account's
// commitments did not cover; spot usage stays on spot) is an hourly series u_1..u_H. A commitment
// of L instances at an effective rate c per instance-hour (upfront amortised over the term), with
// what runs above it bought at the burst rate b (on-demand, or spot or Capacity Blocks where the
// user says the work allows), costs per hour of history
//     f(L) = L c + (b / H) sum_h max(0, u_h - L),
// convex and piecewise linear in L: its minimum is where raising L by one more instance stops
// paying, L* = the smallest L with #{h : u_h > L} <= H c / b (the newsvendor quantile), rounded
// to the commitment's step (whole instances for Reserved Instances; a Savings Plan's $0.001/h).
// The history is taken to repeat over the term; the report gives the downside when it does not
// (usage halves, usage stops).
//
// Runs a team is about to start (plans from `recommend`) come on top: each adds its instances
// from the bill's end for its hours. Over a term of T hours, with runs of D_1 <= ... <= D_k hours
// starting together, the term is k + 1 stretches: [0, D_1) where every run adds its instances,
// ..., [D_k, T) where none does. Each hour of history h then stands for T / H hours of the
// term, split between the stretches: the usage is the weighted set {u_h + extra_s : weight
// len_s / (T H)}, and the quantile rule reads L* = the smallest L whose weight of values above
// it is at most c / b (the same rule, weighted). A term of 1 year and one of 3 see the same run
// as different shares of their hours, so each offer is sized on its own term's set.
#ifndef GPUADVISOR_COMMIT_PLAN_H_
#define GPUADVISOR_COMMIT_PLAN_H_

#include <string>
#include <vector>

#include "gpuadvisor/bill.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// A run a team is about to start: `instances` of a type in a region for `hours` from the bill's
// end (a plan `recommend --json` wrote; doc/commitments.md, "Planned runs on top").
struct PlannedRun {
  std::string source;  // where it came from ("plan.json, rank 1"), for the report
  std::string instance_type, region;
  int instances = 1;
  double hours = 0;
  std::string purchase = "on-demand";  // the plan's; spot and Capacity Block runs are not sized
};

struct CommitOptions {
  std::string term = "1y";          // "1y", "3y" or "any"
  std::string payment = "any";      // "no-upfront", "partial-upfront", "all-upfront" or "any"
  std::string burst = "on-demand";  // usage above the commitment: "on-demand", "spot" or
                                    // "capacity-block"
  double discount_pct = 0;          // a negotiated discount off every rate (EDP, PPA)
  int64_t today_day = 0;            // days since 1970-01-01: what "expires soon" counts from
  double expiring_days = 90;        // a commitment ending within this many days is "expiring"
  std::vector<PlannedRun> planned;  // runs about to start, on top of the bill's usage
};

template <typename V>
void DeclareOptions(V& v, CommitOptions& o) {
  v.Choice("term", o.term,
           {.help = "Commitment term to size: 1y, 3y, or any (the cheaper per hour; GPU "
                    "generations turn over in about three years)",
            .choices = {"1y", "3y", "any"}});
  v.Choice("payment", o.payment,
           {.help = "Payment option: no-upfront, partial-upfront, all-upfront, or any (upfront "
                    "amortised over the term)",
            .choices = {"any", "no-upfront", "partial-upfront", "all-upfront"}});
  v.Choice("burst", o.burst,
           {.help = "What usage above the commitment runs on: on-demand, or spot / "
                    "capacity-block where the work allows it",
            .choices = {"on-demand", "spot", "capacity-block"}});
  v.Number("discount", o.discount_pct,
           {.help = "A negotiated discount off every rate (EDP, private pricing)",
            .unit = "%",
            .lo = 0,
            .hi = 90});
  v.NotAnOption(o.today_day);
  v.Number("expiring-days", o.expiring_days,
           {.help = "A commitment ending within this many days of the bill's last hour is "
                    "reported as expiring",
            .unit = "d",
            .lo = 0,
            .hi = 1100});
  v.NotAnOption(o.planned);  // the front ends' plan files (--plan)
}

// One way to commit for one type in one region, with its rate per instance-hour.
struct CommitOffer {
  std::string kind;  // "standard-ri", "convertible-ri", "ec2-instance-sp", "compute-sp"
  int years = 1;
  std::string payment;  // "no-upfront", ...
  double rate = 0;      // effective per instance-hour, upfront amortised, after the discount
  double upfront = 0;   // per instance (Reserved Instances) or per $1/h of commitment (plans)
  double step = 1;      // the commitment's granularity in instances
  Provenance from;
  std::string name() const;  // "standard-ri-1y-no-upfront"
};

// A commitment level for one offer, and what it does over the usage of the history.
struct CommitOutcome {
  CommitOffer offer;
  double instances = 0;               // L
  double committed_per_hour = 0;      // L x rate: what the commitment costs each hour of the term
  double upfront = 0;                 // paid at purchase
  double cost_per_hour = 0;           // commitment plus bursts, averaged over the history
  double baseline_per_hour = 0;       // all of it on demand
  double coverage = 0;                // share of instance-hours the commitment covers
  double utilisation = 0;             // share of committed instance-hours used
  double saving = 0;                  // 1 - cost / baseline
  double saving_if_usage_halves = 0;  // the same with every hour's usage halved
  double loss_if_usage_stops = 0;     // committed cost over the whole term
  double break_even_utilisation = 0;  // rate / on-demand rate
};

// Usage statistics of one series, per hour of history.
struct UsageStats {
  double hours = 0;  // hours of history
  double mean = 0, p50 = 0, p90 = 0, max = 0;
  double instance_hours = 0;
};

// One instance type in one region.
struct CommitGroup {
  std::string region, instance_type;
  // What a new commitment may take over: the usage on demand, plus what expiring commitments
  // cover (every RI of the type expiring; every Savings Plan expiring).
  UsageStats on_demand;
  double renewal_hours = 0;       // of it, covered now by commitments that expire
  std::vector<double> hourly;     // that usage per hour of the bill (what was sized; the chart)
  double reserved_hours = 0;      // covered by the account's Reserved Instances
  double savings_plan_hours = 0;  // covered by its Savings Plans
  double spot_hours = 0;          // left on spot (not sized)
  double coverage_now = 0;        // (reserved + savings plan) / (those + on-demand) instance-hours
  double on_demand_rate = 0;      // per instance-hour, after the discount
  Provenance on_demand_from;      // the bill's public rate, else the catalog's
  double burst_rate = 0;
  Provenance burst_from;
  std::string burst;         // what bursts run on ("on-demand" when the asked one has no price)
  double stay_per_hour = 0;  // without a new commitment: all of it at the burst rate (over a
                             // 1-year term where runs are planned)
  double planned_instance_hours = 0;  // the planned runs' instance-hours in this group
  double baseline_per_hour = 0;  // all of it on demand, per hour of a 1-year term (runs included)
  std::optional<CommitOutcome> choice;      // the cheapest offer at its best level; none: stay
  std::vector<CommitOutcome> alternatives;  // the best level of every other offer, cheapest first
  std::vector<std::string> notes;
};

struct ReservationUse {
  HeldReservation held;
  double utilisation = 0;
  double unused_hours = 0;
  bool expiring = false;  // ends within expiring_days of the bill's end (or has ended)
};
struct SavingsPlanUse {
  HeldSavingsPlan held;
  double commitment_per_hour = 0;
  double utilisation = 0;
  double unused = 0;  // dollars committed and not used
  bool expiring = false;
};

// What became of a planned run.
struct PlannedRunUse {
  PlannedRun run;
  bool sized = false;  // added to its group's usage
  std::string why;     // when not: its purchase option, or no price
};

// One Compute Savings Plan across every type and region of the bill (issue 41): it applies to
// any of them, each hour to the usage with the largest discount first, so one commitment in $/h
// pools what per-type commitments size apart. Sized like them (the $/h, in steps of $0.001, that
// minimises the cost over the term), for one term and payment option.
struct JointComputePlan {
  int years = 1;
  std::string payment;
  double committed_per_hour = 0;  // C, $/h of commitment
  double upfront = 0;
  double cost_per_hour = 0;           // C plus what it leaves, at each group's burst rate
  double stay_per_hour = 0;           // without it: everything at the burst rates
  double baseline_per_hour = 0;       // everything on demand
  double per_type_cost_per_hour = 0;  // the same groups with their own choices (or staying)
  double coverage = 0;                // share of the on-demand spend it covers
  double utilisation = 0;             // share of the commitment used
  double saving = 0;                  // 1 - cost / baseline
  double loss_if_usage_stops = 0;     // the commitment over the whole term
  std::vector<std::string> groups;    // "g5.xlarge in us-east-1", largest spend first
  Provenance from;                    // the oldest of the groups' rates
};

struct CommitReport {
  std::string currency;
  std::vector<PlannedRunUse> planned;
  int64_t first_hour = 0, last_hour = -1;
  std::vector<CommitGroup> groups;  // largest on-demand spend first
  std::vector<ReservationUse> reservations;
  std::vector<SavingsPlanUse> savings_plans;
  double baseline_per_hour = 0;   // the on-demand usage, on demand
  double cost_per_hour = 0;       // with the recommended commitments
  double committed_per_hour = 0;  // what they commit to
  double upfront = 0;
  // One per term and payment option the catalog prices a Compute Savings Plan in for at least
  // two of the groups, cheapest first. An alternative to the per-type choices above, which the
  // totals count; a note says when one is cheaper than them.
  std::vector<JointComputePlan> compute_plans;
  std::vector<std::string> notes;
  const BillUsage* bill = nullptr;  // the input (sources, rows)
};

// Sizes commitments. InvalidArgument for a bad option (a term or payment no offer can have).
Result<CommitReport> AdviseCommitments(const BillUsage& bill, const Catalog& catalog,
                                       const CommitOptions& options);

// The pieces, for tests and benchmarks. A usage distribution is a set of hourly values with
// weights summing to 1 (each hour of history 1 / H without planned runs).
struct WeightedUsage {
  std::vector<double> value, weight;
  static WeightedUsage Uniform(const std::vector<double>& hourly);
  // The history `hourly` over a term of `term_hours`, with runs of (extra instances, hours)
  // starting at its beginning (the stretches above).
  static WeightedUsage WithRuns(const std::vector<double>& hourly,
                                const std::vector<std::pair<double, double>>& runs,
                                double term_hours);
  double Mean() const;
};
// f(L) above: the average cost per hour of `usage` with L instances committed at `rate` and the
// rest bought at `burst`.
double CommitCostPerHour(const WeightedUsage& usage, double level, double rate, double burst);
// The L minimising it, a multiple of `step` (> 0): the quantile rule (one sort), then the two
// steps around it compared.
double OptimalCommitLevel(WeightedUsage usage, double rate, double burst, double step);
// One commitment in $/h over several series of one term (JointComputePlan). value[g][j] is group
// g's instance-hours at point j (every group over the same points), weight[j] the points'
// weights (summing to 1); rate[g] the plan's rate per instance-hour of g, burst[g] what an
// uncovered instance-hour costs, on_demand[g] its on-demand rate (the discount order).
struct JointUsage {
  std::vector<std::vector<double>> value;
  std::vector<double> weight, rate, burst, on_demand;
};
// The cost per hour of a commitment of `committed` $/h: each point's usage covered greedily,
// the largest discount (1 - rate / on_demand) first, the rest at burst.
double JointCostPerHour(const JointUsage& u, double committed);
// What a commitment of `committed` $/h does, per hour of the term: its cost as above, the
// on-demand value of the usage it covers, and the part of it used.
struct JointUse {
  double cost_per_hour = 0, covered_on_demand = 0, used = 0;
};
JointUse JointUseOf(const JointUsage& u, double committed);
// The commitment minimising it, a multiple of `step` $/h: a scan of 256 levels up to the largest
// hour's whole usage at plan rates, refined by golden section around the best (the cost is
// convex when bursts are on demand), then the two steps around it compared.
double OptimalJointCommitment(const JointUsage& u, double step);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_COMMIT_PLAN_H_
