// Fleet simulation (doc/cost-control.md, `gpuadvisor simulate`): a request-rate trace replayed
// against an autoscaled fleet of one serving instance type, with optional spot instances that are
// interrupted at the rate of their spot-advisor band.
//
// Model (deterministic for a given seed). Time advances in the trace's steps; the load is
// constant within a step. At the start of each step the autoscaler compares the load with the
// capacity it wants, desired = ceil(load / (capacity per instance x target utilisation)),
// clamped to [min, max]: above the instances running and booting, it launches the difference
// (ready after the boot time) if the scale-out cooldown has passed since the last launch; below
// the ready instances, it stops the difference if the scale-in cooldown has passed since the
// last change. Requests over the ready capacity in a step miss the latency target (the SLO
// violations). Instances are paid from launch (booting included) to stop, per second.
// Spot: a share of launches are spot; each spot instance is interrupted with probability
// rate x dt per step (rate = the band's midpoint per month / 730 h) and replaced by the
// autoscaler like any lost capacity.
#ifndef GPUADVISOR_SIMULATE_H_
#define GPUADVISOR_SIMULATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/money.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor {

struct TracePoint {
  double t_s = 0;  // seconds from the trace start
  double requests_per_s = 0;
};

struct Trace {
  std::vector<TracePoint> points;  // increasing t_s; the last point lasts `step_s`
  double step_s = 0;               // the typical interval (the last point's duration)
  std::string origin;              // file name, or "diurnal"
  double Duration() const;         // seconds
  double Peak() const;
};

// Bounds of every trace and fleet (as the estimator bounds its workloads): request rates (trace,
// --diurnal, --capacity-rps) up to kMaxTraceRps, a trace spanning up to kMaxTraceDays, a static
// fleet of up to kMaxFleetInstances. They keep every cost and request count finite.
inline constexpr double kMaxTraceRps = 1e9;
inline constexpr double kMaxTraceDays = 366;
inline constexpr int kMaxFleetInstances = 100000;

// CSV with a header naming timestamp (ISO / nvidia-smi style time, or seconds) and
// requests_per_s columns. Errors: ParseError naming origin:line (also for a rate over
// kMaxTraceRps or a span over kMaxTraceDays); every error carries the field "trace".
Result<Trace> ParseTraceCsv(std::string_view text, const std::string& origin);
// A day-periodic load: trough at 04:00, peak at 16:00 (a cosine), for `days` days.
Result<Trace> DiurnalTrace(double peak_rps, double trough_rps, double days, double step_s);

struct ScalingPolicy {
  double target_utilization = 0.7;  // (0, 1]
  double scale_out_cooldown_s = 300;
  double scale_in_cooldown_s = 900;
  int min_instances = 1;
  int max_instances = 100;
  double boot_s = 600;    // launch to serving
  double spot_share = 0;  // share of launches on spot, [0, 1]
};

// The policy's options of `simulate` (fields.h).
template <typename V>
void DeclareOptions(V& v, ScalingPolicy& p) {
  constexpr double kWeek = 7 * 86400;
  v.Number("target-utilization", p.target_utilization,
           {.help = "Autoscaling target, a fraction", .lo = 0.01, .hi = 1});
  v.Duration("scale-out-cooldown", p.scale_out_cooldown_s,
             {.help = "Between launches", .lo = 0, .hi = kWeek});
  v.Duration("scale-in-cooldown", p.scale_in_cooldown_s,
             {.help = "After any change before stopping instances", .lo = 0, .hi = kWeek});
  v.Integer("min-instances", p.min_instances,
            {.help = "Fleet minimum", .lo = 0, .hi = kMaxFleetInstances});
  v.Integer("max-instances", p.max_instances,
            {.help = "Fleet maximum", .lo = 0, .hi = kMaxFleetInstances});
  v.Duration("boot-time", p.boot_s, {.help = "Launch to serving", .lo = 0, .hi = 86400});
  v.Number("spot-share", p.spot_share,
           {.help = "Share of launches on spot, a fraction", .lo = 0, .hi = 1});
}

struct FleetCosts {
  double capacity_rps = 0;  // per instance (serving SLO met)
  // In the region's currency (CNY in AWS China); spot, when known, in the same one.
  Money on_demand_per_hour;
  std::optional<Money> spot_per_hour;
  double spot_interruptions_per_hour = 0;  // per instance
  std::string instance_type;
  Provenance on_demand_from, spot_from;
};

struct SimStep {
  double t_s = 0;
  double load_rps = 0;
  int ready = 0, booting = 0, spot = 0;
  double capacity_rps = 0;
  double cost = 0;  // cumulative, in the fleet's currency (FleetCosts)
};

struct SimResult {
  ScalingPolicy policy;
  double instance_hours = 0, spot_instance_hours = 0;
  Money cost;  // in the fleet's currency (FleetCosts)
  double requests = 0, violated_requests = 0;
  double violation_fraction = 0;
  int peak_instances = 0;
  int interruptions = 0;
  std::vector<SimStep> steps;  // one per trace step (when kept)
};

// Errors: InvalidArgument naming the field of a bad policy (--target-utilization, ...).
Result<SimResult> SimulateFleet(const Trace& trace, const FleetCosts& costs,
                                const ScalingPolicy& policy, uint64_t seed = 1,
                                bool keep_steps = true);

struct PolicySearch {
  double max_violation_fraction = 0;  // the SLO: share of requests that may miss it
  bool allow_spot = false;
  ScalingPolicy base;  // boot time, min/max and fixed settings come from here
};

struct SimulationReport {
  FleetCosts costs;
  Trace trace;                    // without points when large? kept for the plot
  SimResult policy;               // the policy as given
  SimResult static_peak;          // ceil(peak / capacity) on-demand instances all the time
  std::optional<SimResult> best;  // cheapest searched policy meeting the SLO
  int policies_searched = 0;
  PolicySearch search;
  std::vector<std::string> notes;
};

// Simulates the given policy, static peak provisioning, and (when `search`) a grid of target
// utilisations, cooldowns, minimum sizes and spot shares, keeping the cheapest within the SLO.
// InvalidArgument when the trace's peak needs over kMaxFleetInstances instances.
Result<SimulationReport> SimulateAndSearch(const Trace& trace, const FleetCosts& costs,
                                           const ScalingPolicy& policy, const PolicySearch& search,
                                           bool do_search, uint64_t seed = 1);

// Requests per second one instance of `type` serves for the serve workload `w` within its
// latency targets (the largest arrival rate with demand met and the SLO held, by bisection over
// the estimator). Errors: InvalidArgument when w is not a serve workload; Unsupported / NoResult
// when the model does not fit or no rate meets the targets.
Result<double> ServingCapacityRps(const Catalog& catalog, const Workload& w,
                                  const InstanceType& type);

// Prices and spot interruption rate of `type` in `region` (on-demand price required).
Result<FleetCosts> FleetCostsFor(const InstanceType& type, const std::string& region,
                                 double capacity_rps);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_SIMULATE_H_
