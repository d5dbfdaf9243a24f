#include "gpuadvisor/commit_plan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "gpuadvisor/i18n.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {

std::string CommitOffer::name() const {
  return kind + "-" + std::to_string(years) + "y-" + payment;
}

WeightedUsage WeightedUsage::Uniform(const std::vector<double>& hourly) {
  WeightedUsage w;
  w.value = hourly;
  w.weight.assign(hourly.size(), hourly.empty() ? 0 : 1 / static_cast<double>(hourly.size()));
  return w;
}

WeightedUsage WeightedUsage::WithRuns(const std::vector<double>& hourly,
                                      const std::vector<std::pair<double, double>>& runs,
                                      double term_hours) {
  if (runs.empty() || hourly.empty() || term_hours <= 0) return Uniform(hourly);
  // The stretches of the term: ends at each run's end (within the term), extra instances in each.
  std::vector<double> ends = {term_hours};
  for (const auto& [extra, hours] : runs) {
    if (hours > 0 && hours < term_hours) ends.push_back(hours);
  }
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  WeightedUsage w;
  const auto h = static_cast<double>(hourly.size());
  double begin = 0;
  for (double end : ends) {
    double extra = 0;
    for (const auto& [n, hours] : runs) extra += hours > begin ? n : 0;
    const double share = (end - begin) / term_hours / h;
    for (double u : hourly) {
      w.value.push_back(u + extra);
      w.weight.push_back(share);
    }
    begin = end;
  }
  return w;
}

double WeightedUsage::Mean() const {
  double m = 0;
  for (size_t i = 0; i < value.size(); ++i) m += weight[i] * value[i];
  return m;
}

double CommitCostPerHour(const WeightedUsage& usage, double level, double rate, double burst) {
  double above = 0;
  for (size_t i = 0; i < usage.value.size(); ++i) {
    const double v = usage.value[i];
    above += v > level ? usage.weight[i] * (v - level) : 0;
  }
  return level * rate + burst * above;
}

double OptimalCommitLevel(WeightedUsage usage, double rate, double burst, double step) {
  if (usage.value.empty() || rate <= 0 || burst <= rate || step <= 0) return 0;
  // f'(L) = rate - burst x (weight of values above L): raise L while more than rate / burst of
  // the weight lies above it. Values from the largest down; the first that would carry the
  // weight above past rate / burst is L*.
  std::vector<size_t> order(usage.value.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return usage.value[a] > usage.value[b]; });
  const double allowed = rate / burst;
  double above = 0;
  std::optional<double> best;
  for (size_t i : order) {
    if (above + usage.weight[i] > allowed + 1e-12) {
      best = std::max(0.0, usage.value[i]);
      break;
    }
    above += usage.weight[i];
  }
  if (!best) return 0;
  const double lo = std::floor(*best / step + 1e-9) * step;
  const double hi = lo + step;
  if (*best - lo < 1e-9 * step) return lo;
  return CommitCostPerHour(usage, hi, rate, burst) < CommitCostPerHour(usage, lo, rate, burst) ? hi
                                                                                               : lo;
}

namespace {

constexpr double kHoursPerYear = 8760;

UsageStats StatsOf(std::vector<double> u) {
  UsageStats s;
  s.hours = static_cast<double>(u.size());
  if (u.empty()) return s;
  for (double v : u) s.instance_hours += v;
  s.mean = s.instance_hours / s.hours;
  std::sort(u.begin(), u.end());
  auto at = [&](double q) {
    return u[std::min(u.size() - 1,
                      static_cast<size_t>(std::lround(q * static_cast<double>(u.size() - 1))))];
  };
  s.p50 = at(0.5);
  s.p90 = at(0.9);
  s.max = u.back();
  return s;
}

bool TermWanted(const CommitOptions& o, int years) {
  return o.term == "any" || o.term == std::to_string(years) + "y";
}
bool PaymentWanted(const CommitOptions& o, std::string_view payment) {
  return o.payment == "any" || o.payment == payment;
}

// Every commitment the catalog prices for `offer`'s type and region, as asked.
std::vector<CommitOffer> OffersOf(const RegionOffer& offer, const CommitOptions& o, double keep) {
  std::vector<CommitOffer> out;
  bool headline_listed = false;
  for (const ReservedPrice& r : offer.reserved) {
    if (r.term() == kReserved1yTerm) headline_listed = true;
    if (!TermWanted(o, r.years) || !PaymentWanted(o, r.payment)) continue;
    CommitOffer c;
    c.kind = r.offering_class == "convertible" ? "convertible-ri" : "standard-ri";
    c.years = r.years;
    c.payment = r.payment;
    c.rate = r.effective_usd_per_hour() * keep;
    c.upfront = r.upfront_usd * keep;
    c.step = 1;
    c.from = r.from;
    out.push_back(std::move(c));
  }
  if (!headline_listed && offer.reserved_1y_no_upfront && TermWanted(o, 1) &&
      PaymentWanted(o, "no-upfront")) {
    CommitOffer c;
    c.kind = "standard-ri";
    c.years = 1;
    c.payment = "no-upfront";
    c.rate = offer.reserved_1y_no_upfront->usd_per_hour * keep;
    c.step = 1;
    c.from = offer.reserved_1y_no_upfront->from;
    out.push_back(std::move(c));
  }
  for (const SavingsPlanRate& s : offer.savings_plans) {
    if (!TermWanted(o, s.years) || !PaymentWanted(o, s.payment) || s.usd_per_hour <= 0) continue;
    CommitOffer c;
    c.kind = s.plan == "compute" ? "compute-sp" : "ec2-instance-sp";
    c.years = s.years;
    c.payment = s.payment;
    c.rate = s.usd_per_hour * keep;
    // Per $1/h committed: all of the term upfront, half of it, or none.
    const double term_hours = kHoursPerYear * s.years;
    c.upfront = s.payment == "all-upfront"       ? term_hours
                : s.payment == "partial-upfront" ? term_hours / 2
                                                 : 0;
    c.step = 0.001 / c.rate;  // plans commit in steps of $0.001/h
    c.from = s.from;
    out.push_back(std::move(c));
  }
  return out;
}

CommitOutcome Outcome(const WeightedUsage& u, const CommitOffer& offer, double level,
                      double on_demand, double burst) {
  CommitOutcome c;
  c.offer = offer;
  c.instances = level;
  c.committed_per_hour = level * offer.rate;
  const bool plan = offer.kind == "compute-sp" || offer.kind == "ec2-instance-sp";
  c.upfront = plan ? c.committed_per_hour * offer.upfront : level * offer.upfront;
  c.cost_per_hour = CommitCostPerHour(u, level, offer.rate, burst);
  // Per hour of the term: mean usage, what the commitment covers of it, and above it when
  // every hour's usage halves.
  double mean = 0, covered = 0, half_above = 0;
  for (size_t i = 0; i < u.value.size(); ++i) {
    const double v = u.value[i], w = u.weight[i];
    mean += w * v;
    covered += w * std::min(v, level);
    half_above += v / 2 > level ? w * (v / 2 - level) : 0;
  }
  c.baseline_per_hour = on_demand * mean;
  c.coverage = mean > 0 ? covered / mean : 0;
  c.utilisation = level > 0 ? covered / level : 0;
  c.saving = c.baseline_per_hour > 0 ? 1 - c.cost_per_hour / c.baseline_per_hour : 0;
  const double half_base = c.baseline_per_hour / 2;
  const double half_cost = c.committed_per_hour + burst * half_above;
  c.saving_if_usage_halves = half_base > 0 ? 1 - half_cost / half_base : 0;
  c.loss_if_usage_stops = c.committed_per_hour * kHoursPerYear * offer.years;
  c.break_even_utilisation = on_demand > 0 ? offer.rate / on_demand : 0;
  return c;
}

std::optional<int64_t> EndDay(std::string_view end) { return ParseIsoDatePrefix(Trim(end)); }

// What the joint plan needs of one group: its usage and runs, rates, and per-type cost.
struct JointGroup {
  const CommitGroup* group = nullptr;
  std::vector<std::pair<double, double>> runs;  // (instances, hours)
};

// The Compute Savings Plans across groups (JointComputePlan): one per term and payment that
// prices a plan for two groups or more, cheapest first.
std::vector<JointComputePlan> JointComputePlans(const std::vector<JointGroup>& groups) {
  // (years, payment) -> (group, its compute-sp offer)
  std::map<std::pair<int, std::string>,
           std::vector<std::pair<const JointGroup*, const CommitOffer*>>>
      by_term;
  for (const JointGroup& jg : groups) {
    const CommitGroup& g = *jg.group;
    if (g.on_demand_rate <= 0 || g.burst_rate <= 0) continue;
    auto add = [&](const CommitOutcome& c) {
      if (c.offer.kind == "compute-sp")
        by_term[{c.offer.years, c.offer.payment}].emplace_back(&jg, &c.offer);
    };
    if (g.choice) add(*g.choice);
    for (const CommitOutcome& c : g.alternatives) add(c);
  }
  std::vector<JointComputePlan> out;
  for (const auto& [term, members] : by_term) {
    if (members.size() < 2) continue;
    const double term_hours = kHoursPerYear * term.first;
    // Every group over the same stretches of the term: each one's runs, and the others' ends.
    std::vector<std::pair<double, double>> ends;
    for (const auto& [jg, offer] : members) {
      for (const auto& [n, hours] : jg->runs) ends.emplace_back(0.0, hours);
    }
    JointUsage u;
    JointComputePlan p;
    p.years = term.first;
    p.payment = term.second;
    for (const auto& [jg, offer] : members) {
      const CommitGroup& g = *jg->group;
      std::vector<std::pair<double, double>> runs = jg->runs;
      runs.insert(runs.end(), ends.begin(), ends.end());
      WeightedUsage w = WeightedUsage::WithRuns(g.hourly, runs, term_hours);
      if (u.weight.empty()) u.weight = w.weight;
      p.baseline_per_hour += w.Mean() * g.on_demand_rate;
      p.per_type_cost_per_hour += g.choice ? g.choice->cost_per_hour : g.stay_per_hour;
      u.value.push_back(std::move(w.value));
      u.rate.push_back(offer->rate);
      u.burst.push_back(g.burst_rate);
      u.on_demand.push_back(g.on_demand_rate);
      p.groups.push_back(g.instance_type + " in " + g.region);
      if (p.from.date.empty() || offer->from.date < p.from.date) p.from = offer->from;
    }
    p.committed_per_hour = OptimalJointCommitment(u, 0.001);
    const JointUse use = JointUseOf(u, p.committed_per_hour);
    p.cost_per_hour = use.cost_per_hour;
    p.stay_per_hour = JointCostPerHour(u, 0);
    p.coverage = p.baseline_per_hour > 0 ? use.covered_on_demand / p.baseline_per_hour : 0;
    p.utilisation = p.committed_per_hour > 0 ? use.used / p.committed_per_hour : 0;
    p.saving = p.baseline_per_hour > 0 ? 1 - p.cost_per_hour / p.baseline_per_hour : 0;
    p.upfront = p.payment == "all-upfront"       ? p.committed_per_hour * term_hours
                : p.payment == "partial-upfront" ? p.committed_per_hour * term_hours / 2
                                                 : 0;
    p.loss_if_usage_stops = p.committed_per_hour * term_hours;
    out.push_back(std::move(p));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const JointComputePlan& a, const JointComputePlan& b) {
                     return a.cost_per_hour < b.cost_per_hour;
                   });
  return out;
}

}  // namespace

Result<CommitReport> AdviseCommitments(const BillUsage& bill, const Catalog& catalog,
                                       const CommitOptions& options) {
  if (options.discount_pct < 0 || options.discount_pct >= 100) {
    return Status::InvalidArgument("discount: expected 0 to 90 %");
  }
  const double keep = 1 - options.discount_pct / 100;
  CommitReport report;
  report.bill = &bill;
  report.currency = bill.currency.empty() ? "USD" : bill.currency;
  report.first_hour = bill.first_hour;
  report.last_hour = bill.last_hour;
  const auto hours = static_cast<size_t>(bill.hours());
  const std::string bill_date =
      bill.hours() > 0 ? FormatIsoDate(bill.last_hour / 24) : std::string("undated");
  const int64_t end_day = bill.hours() > 0 ? bill.last_hour / 24 : options.today_day;

  for (const HeldReservation& r : bill.reservations) {
    ReservationUse use;
    use.held = r;
    use.utilisation = r.reserved_hours > 0 ? r.used_hours / r.reserved_hours : 0;
    use.unused_hours = std::max(0.0, r.reserved_hours - r.used_hours);
    const std::optional<int64_t> end = EndDay(r.end);
    use.expiring = end && *end <= end_day + static_cast<int64_t>(options.expiring_days);
    report.reservations.push_back(std::move(use));
  }
  for (const HeldSavingsPlan& p : bill.savings_plans) {
    SavingsPlanUse use;
    use.held = p;
    use.commitment_per_hour = p.hours > 0 ? p.committed / p.hours : 0;
    use.utilisation = p.committed > 0 ? p.used / p.committed : 0;
    use.unused = std::max(0.0, p.committed - p.used);
    const std::optional<int64_t> end = EndDay(p.end);
    use.expiring = end && *end <= end_day + static_cast<int64_t>(options.expiring_days);
    report.savings_plans.push_back(std::move(use));
  }
  // A commitment that ends within expiring_days stops covering: the usage it covers comes back to
  // be sized (a renewal), for the types whose every RI is expiring, and for every type when every
  // Savings Plan is.
  std::map<std::pair<std::string, std::string>, bool> ri_all_expiring;
  for (const ReservationUse& r : report.reservations) {
    auto [it, added] =
        ri_all_expiring.emplace(std::pair(r.held.region, r.held.instance_type), r.expiring);
    if (!added) it->second = it->second && r.expiring;
  }
  const bool plans_all_expiring =
      !report.savings_plans.empty() &&
      std::all_of(report.savings_plans.begin(), report.savings_plans.end(),
                  [](const SavingsPlanUse& p) { return p.expiring; });

  // Group the series by region and type; planned runs open their group when the bill has none.
  std::map<std::pair<std::string, std::string>, std::vector<const UsageSeries*>> by_type;
  for (const UsageSeries& s : bill.series) by_type[{s.region, s.instance_type}].push_back(&s);
  std::map<std::pair<std::string, std::string>, std::vector<const PlannedRun*>> runs_of;
  for (const PlannedRun& run : options.planned) {
    PlannedRunUse use;
    use.run = run;
    if (run.purchase == "spot" || run.purchase == "capacity-block") {
      use.why = Trf("runs on {0}: no commitment covers it", run.purchase);
    } else if (catalog.FindInstanceType(run.instance_type) == nullptr) {
      use.why = Trf("the catalog does not know {0}", TerminalSafe(run.instance_type));
    } else if (run.instances < 1 || !(run.hours > 0)) {
      use.why = Tr("no instance-hours");
    } else if (hours == 0) {
      use.why = Tr("the bill has no hours to put it on top of");
    } else {
      use.sized = true;
      runs_of[{run.region, run.instance_type}].push_back(&run);
      by_type[{run.region, run.instance_type}];
    }
    report.planned.push_back(std::move(use));
  }

  for (const auto& [key, series] : by_type) {
    CommitGroup g;
    g.region = key.first;
    g.instance_type = key.second;
    std::vector<double> u(hours, 0.0);
    double public_cost = 0, od_hours = 0;
    for (const UsageSeries* s : series) {
      const double total = s->total_hours();
      auto add_to_u = [&] {
        for (size_t i = 0; i < s->hours.size(); ++i) {
          const int64_t at = s->first_hour + static_cast<int64_t>(i) - bill.first_hour;
          if (at >= 0 && static_cast<size_t>(at) < hours) u[static_cast<size_t>(at)] += s->hours[i];
        }
      };
      switch (s->purchase) {
        case BillPurchase::kOnDemand:
          add_to_u();
          od_hours += total;
          break;
        case BillPurchase::kReserved:
          g.reserved_hours += total;
          if (auto it = ri_all_expiring.find(key); it != ri_all_expiring.end() && it->second) {
            add_to_u();
            g.renewal_hours += total;
          }
          break;
        case BillPurchase::kSavingsPlan:
          g.savings_plan_hours += total;
          if (plans_all_expiring) {
            add_to_u();
            g.renewal_hours += total;
          }
          break;
        case BillPurchase::kSpot:
          g.spot_hours += total;
          break;
      }
      if (s->purchase != BillPurchase::kSpot) public_cost += s->public_on_demand_cost;
    }
    g.on_demand = StatsOf(u);
    std::vector<std::pair<double, double>> runs;  // (instances, hours)
    for (const PlannedRun* run : runs_of[key]) {
      runs.emplace_back(run->instances, run->hours);
      g.planned_instance_hours += run->instances * run->hours;
      // TRANSLATORS: {0} a plan file, {1} instances, {2} hours, {3} a percentage.
      g.notes.push_back(
          Trf("with {0}: {1} instance(s) for {2} h from the bill's end ({3}% of a "
              "1-year term)",
              TerminalSafe(run->source), run->instances, FormatFixed(run->hours, 0),
              FormatFixed(100 * std::min(1.0, run->hours / kHoursPerYear), 1)));
    }
    // The usage over a term of `years` (the history alone without runs).
    auto term_usage = [&](int years) {
      return WeightedUsage::WithRuns(u, runs, kHoursPerYear * years);
    };
    const WeightedUsage year = term_usage(1);
    if (g.renewal_hours > 0) {
      g.notes.push_back("sized with the " + FormatFixed(g.renewal_hours, 0) +
                        " instance-hours that expiring commitments cover (their renewal)");
    }
    const double committed_hours = g.reserved_hours + g.savings_plan_hours;
    g.coverage_now =
        committed_hours + od_hours > 0 ? committed_hours / (committed_hours + od_hours) : 0;
    const InstanceType* type = catalog.FindInstanceType(g.instance_type);
    const RegionOffer* offer = type ? type->FindRegion(g.region) : nullptr;
    if (od_hours + committed_hours > 0 && public_cost > 0) {
      g.on_demand_rate = public_cost / (od_hours + committed_hours) * keep;
      g.on_demand_from = {"the bill's public on-demand cost", bill_date};
    } else if (offer && offer->on_demand) {
      g.on_demand_rate = offer->on_demand->usd_per_hour * keep;
      g.on_demand_from = offer->on_demand->from;
    }
    g.burst = "on-demand";
    g.burst_rate = g.on_demand_rate;
    g.burst_from = g.on_demand_from;
    if (options.burst != "on-demand") {
      const std::optional<Price> p = options.burst == "spot"
                                         ? (offer ? offer->spot : std::nullopt)
                                         : (offer ? offer->capacity_block : std::nullopt);
      if (p) {
        g.burst = options.burst;
        g.burst_rate = p->usd_per_hour * keep;
        g.burst_from = p->from;
      } else {
        g.notes.push_back("no " + options.burst + " price for " + g.instance_type + " in " +
                          g.region + ": bursts priced on demand");
      }
    }
    g.stay_per_hour = CommitCostPerHour(year, 0, 0, g.burst_rate);
    if (g.on_demand_rate <= 0) {
      g.notes.push_back("no on-demand price for " + TerminalSafe(g.instance_type) + " in " +
                        TerminalSafe(g.region) + ": not sized");
    } else if (g.on_demand.instance_hours <= 0 && runs.empty()) {
      g.notes.emplace_back("no on-demand usage left to commit: covered or on spot");
    } else {
      const std::vector<CommitOffer> offers =
          offer ? OffersOf(*offer, options, keep) : std::vector<CommitOffer>();
      if (offers.empty()) {
        g.notes.push_back("the catalog prices no " +
                          (options.term == "any" ? std::string() : options.term + " ") +
                          "commitment for " + TerminalSafe(g.instance_type) + " in " +
                          TerminalSafe(g.region) +
                          (options.payment == "any" ? "" : " (" + options.payment + ")") +
                          ": import the AWS Price List (`catalog import`) for every term");
      }
      std::vector<CommitOutcome> outcomes;
      for (const CommitOffer& o : offers) {
        const WeightedUsage over_term = term_usage(o.years);
        const double level = OptimalCommitLevel(over_term, o.rate, g.burst_rate, o.step);
        outcomes.push_back(Outcome(over_term, o, level, g.on_demand_rate, g.burst_rate));
      }
      std::stable_sort(outcomes.begin(), outcomes.end(),
                       [](const CommitOutcome& a, const CommitOutcome& b) {
                         return a.cost_per_hour < b.cost_per_hour;
                       });
      for (CommitOutcome& c : outcomes) {
        if (!g.choice && c.instances > 0 && c.cost_per_hour < g.stay_per_hour - 1e-12) {
          g.choice = std::move(c);
        } else {
          g.alternatives.push_back(std::move(c));
        }
      }
      if (!g.choice && !outcomes.empty()) {
        double busy = 0;
        for (double v : u) busy += v > 0 ? 1 : 0;
        double best_break_even = std::numeric_limits<double>::infinity();
        for (const CommitOutcome& c : g.alternatives) {
          best_break_even = std::min(best_break_even, c.offer.rate / g.burst_rate);
        }
        g.notes.push_back(best_break_even >= 1
                              ? "no commitment pays: every offer's rate is above " + g.burst + "'s"
                              : "no commitment pays: on-demand instances ran in " +
                                    FormatFixed(100 * busy / static_cast<double>(u.size()), 0) +
                                    "% of hours; the cheapest offer needs " +
                                    FormatFixed(100 * best_break_even, 0) + "% against " + g.burst);
      }
    }
    g.baseline_per_hour = year.Mean() * g.on_demand_rate;
    report.baseline_per_hour += g.baseline_per_hour;
    if (g.choice) {
      report.cost_per_hour += g.choice->cost_per_hour;
      report.committed_per_hour += g.choice->committed_per_hour;
      report.upfront += g.choice->upfront;
    } else {
      report.cost_per_hour += g.stay_per_hour;
    }
    g.hourly = std::move(u);
    report.groups.push_back(std::move(g));
  }
  std::stable_sort(
      report.groups.begin(), report.groups.end(), [](const CommitGroup& a, const CommitGroup& b) {
        return a.on_demand.mean * a.on_demand_rate > b.on_demand.mean * b.on_demand_rate;
      });
  std::vector<JointGroup> joint;
  for (const CommitGroup& g : report.groups) {
    JointGroup jg;
    jg.group = &g;
    for (const PlannedRun* run : runs_of[{g.region, g.instance_type}]) {
      jg.runs.emplace_back(run->instances, run->hours);
    }
    joint.push_back(std::move(jg));
  }
  report.compute_plans = JointComputePlans(joint);
  if (!report.compute_plans.empty() &&
      report.compute_plans.front().cost_per_hour <
          report.compute_plans.front().per_type_cost_per_hour - 1e-9) {
    const JointComputePlan& p = report.compute_plans.front();
    // TRANSLATORS: {0} $/h committed, {1} a term ("1y"), {2} a payment option, {3} the number of
    // instance types, {4} and {5} costs per hour.
    report.notes.push_back(Trf(
        "one Compute Savings Plan of {0}/h ({1}, {2}) across {3} instance types costs {4}/h, "
        "less than their commitments sized one type at a time ({5}/h)",
        FormatFixed(p.committed_per_hour, 3) + " " + report.currency, std::to_string(p.years) + "y",
        p.payment, p.groups.size(), FormatFixed(p.cost_per_hour, 2) + " " + report.currency,
        FormatFixed(p.per_type_cost_per_hour, 2) + " " + report.currency));
  }

  if (!bill.unknown_types.empty()) {
    std::string list;
    for (const std::string& t : bill.unknown_types)
      list += (list.empty() ? "" : ", ") + TerminalSafe(t);
    report.notes.push_back("usage of types the catalog does not know, not sized (" +
                           FormatFixed(bill.unknown_type_hours, 0) + " instance-hours): " + list);
  }
  return report;
}

}  // namespace gpuadvisor
