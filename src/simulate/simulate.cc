#include "gpuadvisor/simulate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/telemetry.h"
#include "util/csv.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor {

double Trace::Duration() const {
  if (points.empty()) return 0;
  return points.back().t_s - points.front().t_s + step_s;
}

double Trace::Peak() const {
  double p = 0;
  for (const TracePoint& x : points) p = std::max(p, x.requests_per_s);
  return p;
}

namespace {

Result<Trace> ReadTraceCsv(std::string_view text, const std::string& origin) {
  CsvReader r(text, origin);
  std::vector<std::string> row;
  if (!r.Next(&row)) {
    if (!r.status().ok()) return r.status();
    return Status::ParseError(origin + ": empty (expected timestamp,requests_per_s)");
  }
  std::vector<std::string> names;
  names.reserve(row.size());
  for (const std::string& h : row) names.push_back(ToLower(Trim(h)));
  CsvHeader header(names);
  GPUADVISOR_RETURN_IF_ERROR(header.Require({"timestamp", "requests_per_s"}, r.Where()));
  const auto tc = static_cast<size_t>(header.Find("timestamp"));
  const auto rc = static_cast<size_t>(header.Find("requests_per_s"));
  Trace t;
  t.origin = origin;
  std::optional<double> first;
  while (r.Next(&row)) {
    if (row.size() == 1 && Trim(row[0]).empty()) continue;
    if (row.size() != names.size()) {
      return Status::ParseError(r.Where() + ": expected " + std::to_string(names.size()) +
                                " fields as in the header, got " + std::to_string(row.size()));
    }
    std::optional<double> ts = ParseTelemetryTime(row[tc]);
    if (!ts) {
      Result<double> secs = ParseDouble(row[tc], "timestamp");
      if (!secs.ok()) {
        return Status::ParseError(
            r.Where() + ": timestamp: expected an ISO time or seconds, got \"" + row[tc] + "\"");
      }
      ts.emplace(secs.value());
    }
    Result<double> rps = ParseDouble(row[rc], "requests_per_s");
    if (!rps.ok() || *rps < 0 || *rps > kMaxTraceRps) {
      return Status::ParseError(r.Where() + ": requests_per_s: expected a rate 0 to 1e9, got \"" +
                                row[rc] + "\"");
    }
    if (!first) first = ts;
    const double rel = *ts - *first;
    if (!t.points.empty() && rel <= t.points.back().t_s) {
      return Status::ParseError(r.Where() + ": timestamp: expected times in increasing order");
    }
    if (rel > kMaxTraceDays * 86400) {
      return Status::ParseError(r.Where() + ": timestamp: the trace spans over 366 days");
    }
    t.points.push_back({rel, *rps});
  }
  if (!r.status().ok()) return r.status();
  if (t.points.size() < 2) {
    return Status::ParseError(origin + ": expected at least two rows of timestamp,requests_per_s");
  }
  std::vector<double> gaps;
  gaps.reserve(t.points.size() - 1);
  for (size_t i = 1; i < t.points.size(); ++i)
    gaps.push_back(t.points[i].t_s - t.points[i - 1].t_s);
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<long>(gaps.size() / 2), gaps.end());
  t.step_s = gaps[gaps.size() / 2];
  return t;
}

}  // namespace

Result<Trace> ParseTraceCsv(std::string_view text, const std::string& origin) {
  Result<Trace> t = ReadTraceCsv(text, origin);
  if (!t.ok()) return t.status().WithField("trace");
  return t;
}

Result<Trace> DiurnalTrace(double peak, double trough, double days, double step_s) {
  if (!(peak > 0) || !(trough >= 0) || trough > peak || peak > kMaxTraceRps) {
    return Status::InvalidArgument(
               "diurnal: expected PEAK[,TROUGH] with 0 <= TROUGH <= PEAK <= 1e9 req/s")
        .WithField("diurnal");
  }
  if (!(days > 0) || days > kMaxTraceDays) {
    return Status::InvalidArgument("days: expected 0 to 366 days").WithField("days");
  }
  if (!(step_s >= 1) || step_s > 86400) {
    return Status::InvalidArgument("step: expected 1 s to 1 day").WithField("step");
  }
  Trace t;
  t.origin = "diurnal";
  t.step_s = step_s;
  const auto n = static_cast<size_t>(std::ceil(days * 86400 / step_s));
  t.points.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double s = static_cast<double>(i) * step_s;
    const double hour = std::fmod(s / 3600, 24);
    // Cosine with its minimum at 04:00 and maximum at 16:00.
    const double x = 0.5 - 0.5 * std::cos((hour - 4) / 24 * 2 * M_PI);
    t.points.push_back({s, trough + (peak - trough) * x});
  }
  return t;
}

namespace {

Status CheckPolicy(const ScalingPolicy& p) {
  if (!(p.target_utilization > 0 && p.target_utilization <= 1)) {
    return Status::InvalidArgument("target-utilization: expected a fraction in (0, 1]")
        .WithField("target-utilization");
  }
  constexpr double kWeek = 7 * 86400;
  if (!(p.scale_out_cooldown_s >= 0 && p.scale_out_cooldown_s <= kWeek) ||
      !(p.scale_in_cooldown_s >= 0 && p.scale_in_cooldown_s <= kWeek) ||
      !(p.boot_s >= 0 && p.boot_s <= 86400)) {
    const char* field =
        !(p.scale_out_cooldown_s >= 0 && p.scale_out_cooldown_s <= kWeek)
            ? "scale-out-cooldown"
            : (!(p.boot_s >= 0 && p.boot_s <= 86400) ? "boot-time" : "scale-in-cooldown");
    return Status::InvalidArgument(
               "scale-out-cooldown, scale-in-cooldown: expected 0 to 7d; boot-time: 0 to 1d")
        .WithField(field);
  }
  if (p.min_instances < 0 || p.max_instances < 1 || p.min_instances > p.max_instances ||
      p.max_instances > 100000) {
    const bool max_bad = p.max_instances < 1 || p.max_instances > 100000;
    return Status::InvalidArgument("min, max: expected 0 <= min <= max <= 100000, max >= 1")
        .WithField(max_bad ? "max-instances" : "min-instances");
  }
  if (!(p.spot_share >= 0 && p.spot_share <= 1)) {
    return Status::InvalidArgument("spot-share: expected a fraction in [0, 1]")
        .WithField("spot-share");
  }
  return Status::OK();
}

struct Instance {
  double ready_at;
  bool spot;
};

}  // namespace

Result<SimResult> SimulateFleet(const Trace& trace, const FleetCosts& c, const ScalingPolicy& p,
                                uint64_t seed, bool keep_steps) {
  GPUADVISOR_RETURN_IF_ERROR(CheckPolicy(p));
  if (trace.points.empty()) {
    return Status::InvalidArgument("the trace has no points").WithField("trace");
  }
  if (!(c.capacity_rps > 0)) {
    return Status::InvalidArgument("capacity per instance must be > 0").WithField("capacity-rps");
  }
  if (c.spot_per_hour && c.spot_per_hour->currency != c.on_demand_per_hour.currency) {
    return Status::InvalidArgument(std::string("spot price in ") +
                                   CurrencyCode(c.spot_per_hour->currency) + ", on-demand in " +
                                   CurrencyCode(c.on_demand_per_hour.currency) +
                                   ": one fleet is priced in one currency");
  }
  if (p.spot_share > 0 && !c.spot_per_hour) {
    return Status::InvalidArgument("spot-share: " + c.instance_type + " has no spot price here")
        .WithField("spot-share");
  }
  SimResult r;
  r.policy = p;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(0, 1);
  std::vector<Instance> fleet;
  const double per = c.capacity_rps * p.target_utilization;
  auto desired_for = [&](double load) {
    const double d = std::ceil(load / per - 1e-9);
    return std::clamp(static_cast<int>(std::min(d, 1e6)), p.min_instances, p.max_instances);
  };
  auto spot_count = [&fleet] {
    return static_cast<int>(
        std::count_if(fleet.begin(), fleet.end(), [](const Instance& i) { return i.spot; }));
  };
  auto launch = [&](int n, int desired, double ready_at) {
    const int want_spot = static_cast<int>(std::lround(p.spot_share * desired));
    for (int k = 0; k < n; ++k) fleet.push_back({ready_at, spot_count() < want_spot});
  };
  // Warm start: the fleet the first load asks for, ready.
  launch(desired_for(trace.points[0].requests_per_s), desired_for(trace.points[0].requests_per_s),
         trace.points[0].t_s);
  double last_out = -INFINITY, last_change = -INFINITY;
  const double on_demand_price = c.on_demand_per_hour.amount;
  const double spot_price = c.spot_per_hour ? c.spot_per_hour->amount : 0;
  r.cost = Money(0, c.on_demand_per_hour.currency);
  if (keep_steps) r.steps.reserve(trace.points.size());
  for (size_t i = 0; i < trace.points.size(); ++i) {
    const double t = trace.points[i].t_s;
    const double dt = i + 1 < trace.points.size() ? trace.points[i + 1].t_s - t : trace.step_s;
    const double load = trace.points[i].requests_per_s;
    const int desired = desired_for(load);
    const int total = static_cast<int>(fleet.size());
    if (desired > total && t - last_out >= p.scale_out_cooldown_s) {
      launch(desired - total, desired, t + p.boot_s);
      last_out = last_change = t;
    } else if (desired < total && t - last_change >= p.scale_in_cooldown_s) {
      // Stop booting instances first, then the newest.
      std::stable_sort(fleet.begin(), fleet.end(), [t](const Instance& a, const Instance& b) {
        return (a.ready_at > t) < (b.ready_at > t);
      });
      fleet.resize(static_cast<size_t>(desired));
      last_change = t;
    }
    int ready = 0, spot = 0;
    for (const Instance& in : fleet) {
      ready += in.ready_at <= t ? 1 : 0;
      spot += in.spot ? 1 : 0;
    }
    const double capacity = ready * c.capacity_rps;
    r.requests += load * dt;
    r.violated_requests += std::max(0.0, load - capacity) * dt;
    const int n = static_cast<int>(fleet.size());
    r.instance_hours += n * dt / 3600;
    r.spot_instance_hours += spot * dt / 3600;
    r.cost.amount += ((n - spot) * on_demand_price + spot * spot_price) * dt / 3600;
    r.peak_instances = std::max(r.peak_instances, n);
    if (keep_steps) {
      r.steps.push_back({t, load, ready, n - ready, spot, capacity, r.cost.amount});
    }
    // Spot interruptions during the step.
    if (spot > 0 && c.spot_interruptions_per_hour > 0) {
      const double prob = 1 - std::exp(-c.spot_interruptions_per_hour * dt / 3600);
      const size_t before = fleet.size();
      fleet.erase(std::remove_if(fleet.begin(), fleet.end(),
                                 [&](const Instance& in) { return in.spot && uni(rng) < prob; }),
                  fleet.end());
      r.interruptions += static_cast<int>(before - fleet.size());
    }
  }
  r.violation_fraction = r.requests > 0 ? r.violated_requests / r.requests : 0;
  return r;
}

Result<SimulationReport> SimulateAndSearch(const Trace& trace, const FleetCosts& costs,
                                           const ScalingPolicy& policy, const PolicySearch& search,
                                           bool do_search, uint64_t seed) {
  SimulationReport rep;
  rep.costs = costs;
  rep.trace = trace;
  rep.search = search;
  Result<SimResult> given = SimulateFleet(trace, costs, policy, seed, true);
  if (!given.ok()) return given.status();
  rep.policy = std::move(*given);
  // Checked before the cast: a peak of 1e9 req/s on 1e-3 req/s instances overflows an int.
  const double peak_fleet = std::ceil(trace.Peak() / costs.capacity_rps - 1e-9);
  if (!(peak_fleet <= kMaxFleetInstances)) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "capacity-rps: the trace's peak of %g req/s needs over %d instances of %g "
                  "req/s each",
                  trace.Peak(), kMaxFleetInstances, costs.capacity_rps);
    return Status::InvalidArgument(msg).WithField("capacity-rps");
  }
  ScalingPolicy fixed;
  const int peak_n = std::max(1, static_cast<int>(peak_fleet));
  fixed.target_utilization = 1;
  fixed.min_instances = fixed.max_instances = std::max(peak_n, policy.min_instances);
  fixed.boot_s = 0;
  fixed.spot_share = 0;
  Result<SimResult> st = SimulateFleet(trace, costs, fixed, seed, true);
  if (!st.ok()) return st.status();
  rep.static_peak = std::move(*st);
  if (!do_search) return rep;
  std::vector<double> spot_shares = {0};
  if (search.allow_spot && costs.spot_per_hour) spot_shares = {0, 0.25, 0.5, 0.75, 1};
  for (double target : {0.5, 0.6, 0.7, 0.8, 0.9, 1.0}) {
    for (double in_cd : {0.0, 300.0, 900.0, 1800.0, 3600.0}) {
      for (double out_cd : {0.0, 300.0}) {
        for (int min_n : {policy.min_instances, std::max(policy.min_instances, 1),
                          std::max(policy.min_instances, 2)}) {
          for (double share : spot_shares) {
            ScalingPolicy p = policy;
            p.target_utilization = target;
            p.scale_in_cooldown_s = in_cd;
            p.scale_out_cooldown_s = out_cd;
            p.min_instances = std::min(min_n, p.max_instances);
            p.spot_share = share;
            ++rep.policies_searched;
            Result<SimResult> s = SimulateFleet(trace, costs, p, seed, false);
            if (!s.ok()) continue;
            if (s->violation_fraction > search.max_violation_fraction + 1e-12) continue;
            if (!rep.best || s->cost.amount < rep.best->cost.amount - 1e-9) {
              rep.best = std::move(*s);  // one fleet, one currency
            }
          }
        }
      }
    }
  }
  if (rep.best) {
    Result<SimResult> again = SimulateFleet(trace, costs, rep.best->policy, seed, true);
    if (again.ok()) rep.best = std::move(*again);
  } else {
    rep.notes.emplace_back(
        "no searched policy meets the SLO; raise max-instances or shorten "
        "boot-time");
  }
  return rep;
}

Result<double> ServingCapacityRps(const Catalog& catalog, const Workload& w,
                                  const InstanceType& type) {
  if (w.task != TaskKind::kServe) {
    return Status::InvalidArgument("task: simulate sizes serving fleets; expected --task serve")
        .WithField("task");
  }
  HardwareRequest hr;
  hr.instance_type = type.name;
  hr.instances = 1;
  Result<Hardware> hw = ResolveHardware(catalog, hr);
  if (!hw.ok()) return hw.status();
  Workload offline = w;
  offline.rps = 0;
  offline.concurrency = 0;
  Result<Estimate> e = EstimateWorkload(offline, *hw, {}, EstimateMode::kFast);
  if (!e.ok()) return e.status();
  if (!e->memory.fits) {
    return Status::NoResult("the model does not fit on one " + type.name);
  }
  const double hi = e->performance.requests_per_s.value_or(0);
  if (!(hi > 0)) return Status::NoResult("no serving throughput estimate for " + type.name);
  auto ok_at = [&](double rps) {
    Workload x = w;
    x.rps = rps;
    x.concurrency = 0;
    Result<Estimate> r = EstimateWorkload(x, *hw, {}, EstimateMode::kFast);
    return r.ok() && r->memory.fits && r->demand_met && r->slo_met;
  };
  double lo = 0, up = hi * 1.05;
  if (!ok_at(hi * 1e-3)) {
    return Status::NoResult("no arrival rate meets the latency targets on one " + type.name);
  }
  lo = hi * 1e-3;
  for (int i = 0; i < 40 && up - lo > 1e-4 * up; ++i) {
    const double mid = 0.5 * (lo + up);
    (ok_at(mid) ? lo : up) = mid;
  }
  return lo;
}

Result<FleetCosts> FleetCostsFor(const InstanceType& type, const std::string& region,
                                 double capacity_rps) {
  const RegionOffer* r = type.FindRegion(region);
  if (r == nullptr || !r->on_demand) {
    return Status::NotFound("no on-demand price for " + type.name + " in " + region)
        .WithField("region");
  }
  FleetCosts c;
  c.instance_type = type.name;
  c.capacity_rps = capacity_rps;
  c.on_demand_per_hour = Money(r->on_demand->usd_per_hour, r->currency());
  c.on_demand_from = r->on_demand->from;
  if (r->spot) {
    c.spot_per_hour = Money(r->spot->usd_per_hour, r->currency());
    c.spot_from = r->spot->from;
  }
  const SpotOverhead o =
      SpotInterruptionOverhead(type, r->spot_band ? &*r->spot_band : nullptr, UsagePattern());
  c.spot_interruptions_per_hour = o.interruptions_per_month / kHoursPerMonth;
  return c;
}

}  // namespace gpuadvisor
