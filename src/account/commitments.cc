#include "gpuadvisor/commitments.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gpuadvisor/account.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

std::string_view FamilyOf(std::string_view type) { return type.substr(0, type.find('.')); }

std::string_view SizeOf(std::string_view type) {
  const size_t dot = type.find('.');
  return dot == std::string_view::npos ? std::string_view() : type.substr(dot + 1);
}

// AWS's table for the sizes below xlarge; "Nxlarge" is 8 x N units ("24xlarge" -> 192).
std::optional<double> SizeUnits(std::string_view size) {
  static constexpr std::pair<std::string_view, double> kSmall[] = {
      {"nano", 0.25}, {"micro", 0.5}, {"small", 1}, {"medium", 2}, {"large", 4}, {"xlarge", 8}};
  for (const auto& [name, units] : kSmall) {
    if (size == name) return units;
  }
  constexpr std::string_view kX = "xlarge";
  if (size.size() <= kX.size() || size.substr(size.size() - kX.size()) != kX) return std::nullopt;
  const std::string digits(size.substr(0, size.size() - kX.size()));
  if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return 8.0 * std::atoi(digits.c_str());
}

// A metal size counts as the largest size of its family the catalog knows.
std::optional<double> LargestInFamily(std::string_view family, const Catalog* catalog) {
  if (catalog == nullptr) return std::nullopt;
  std::optional<double> largest;
  for (const InstanceType& t : catalog->instance_types()) {
    if (t.family != family) continue;
    if (const std::optional<double> u = SizeUnits(SizeOf(t.name))) {
      largest = std::max(largest.value_or(0), *u);
    }
  }
  return largest;
}

// The catalog's Savings Plans rate for `type` in `region` under a plan of `sp_type`: the 1-year
// no-upfront rate (the scan does not keep a plan's term), else any of that kind; 0 when none.
double SavingsPlanRateOf(const InstanceType& type, std::string_view region,
                         std::string_view sp_type) {
  const RegionOffer* offer = type.FindRegion(region);
  if (offer == nullptr) return 0;
  const std::string kind = sp_type == "Compute" ? "compute" : "ec2-instance";
  double any = 0;
  for (const SavingsPlanRate& r : offer->savings_plans) {
    if (r.plan != kind) continue;
    if (r.years == 1 && r.payment == "no-upfront") return r.usd_per_hour;
    if (any == 0) any = r.usd_per_hour;
  }
  return any;
}

double OnDemandRate(const InstanceType& type, std::string_view region) {
  const RegionOffer* offer = type.FindRegion(region);
  return offer != nullptr && offer->on_demand ? offer->on_demand->usd_per_hour : 0;
}

bool PlanCovers(const SavingsPlanLeft& sp, std::string_view family, std::string_view region) {
  return sp.type == "Compute" ||
         (sp.type == "EC2Instance" && sp.family == family && sp.region == region);
}

// "2", "0.5", "1.25".
std::string Num(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return FormatFixed(v, 0);
  return FormatFixed(v, 2);
}

std::string Usd(double v) { return "$" + FormatFixed(v, 2); }

// Running on-demand usage of one type (in one zone) still billed after each step.
struct Usage {
  const RunningInstances* running;
  const InstanceType* type;  // null: not in the catalog
  double units_each;         // 0: no normalization factor
  double left;               // instances not yet covered
};

void AddReserved(const ReservedInstances& ri, const Catalog& catalog, Commitments* c) {
  const std::optional<double> units = NormalizationUnits(ri.instance_type, &catalog);
  const bool flexible = ri.zone.empty() && units.has_value();
  const std::string family(FamilyOf(ri.instance_type));
  const std::string exact = flexible ? "" : ri.instance_type;
  auto pool = std::find_if(c->reserved.begin(), c->reserved.end(), [&](const ReservedPool& p) {
    return p.region == ri.region && p.zone == ri.zone && p.family == family &&
           p.instance_type == exact && p.size_flexible == flexible;
  });
  if (pool == c->reserved.end()) {
    c->reserved.push_back({.region = ri.region,
                           .family = family,
                           .zone = ri.zone,
                           .instance_type = exact,
                           .size_flexible = flexible});
    pool = c->reserved.end() - 1;
  }
  pool->count += ri.count;
  pool->units += flexible ? *units * ri.count : ri.count;
  pool->until = std::max(pool->until, ri.end);
}

// Takes up to `u->left` instances from `pool` (units when size-flexible).
void UseReserved(ReservedPool* pool, Usage* u) {
  if (pool->size_flexible) {
    if (u->units_each <= 0) return;
    const double take = std::min(u->left * u->units_each, pool->left());
    pool->used += take;
    u->left -= take / u->units_each;
  } else {
    const double take = std::min(u->left, pool->left());
    pool->used += take;
    u->left -= take;
  }
}

bool ReservedCovers(const ReservedPool& p, const RunningInstances& r, bool zonal) {
  if (p.region != r.region || p.zone.empty() == zonal) return false;
  if (zonal) return p.zone == r.zone && p.instance_type == r.instance_type;
  return p.size_flexible ? p.family == FamilyOf(r.instance_type)
                         : p.instance_type == r.instance_type;
}

// A Savings Plan's dollars go to the eligible usage with the highest discount first.
void UseSavingsPlan(SavingsPlanLeft* sp, std::vector<Usage>* usage) {
  struct Priced {
    Usage* u;
    double rate;
    double discount;
  };
  std::vector<Priced> eligible;
  for (Usage& u : *usage) {
    if (u.left <= 0 || !PlanCovers(*sp, FamilyOf(u.running->instance_type), u.running->region)) {
      continue;
    }
    const double rate = u.type ? SavingsPlanRateOf(*u.type, u.running->region, sp->type) : 0;
    const double od = u.type ? OnDemandRate(*u.type, u.running->region) : 0;
    if (rate <= 0 || od <= 0) {
      sp->unpriced_usage = true;
      continue;
    }
    eligible.push_back({&u, rate, 1 - rate / od});
  }
  std::stable_sort(eligible.begin(), eligible.end(),
                   [](const Priced& a, const Priced& b) { return a.discount > b.discount; });
  for (Priced& p : eligible) {
    const double take = std::min(p.u->left * p.rate, sp->left_usd_per_hour());
    sp->used_usd_per_hour += take;
    p.u->left -= take / p.rate;
  }
}

}  // namespace

std::optional<double> NormalizationUnits(std::string_view instance_type, const Catalog* catalog) {
  const std::string_view size = SizeOf(instance_type);
  if (size == "metal") return LargestInFamily(FamilyOf(instance_type), catalog);
  constexpr std::string_view kMetal = "metal-";  // "metal-24xl"
  if (size.substr(0, kMetal.size()) == kMetal) {
    return SizeUnits(std::string(size.substr(kMetal.size())) + "arge");
  }
  return SizeUnits(size);
}

Commitments ApplyCommitmentsToRunning(const AccountScan& scan, const Catalog& catalog) {
  Commitments c;
  for (const ReservedInstances& ri : scan.reserved) AddReserved(ri, catalog, &c);
  std::stable_partition(c.reserved.begin(), c.reserved.end(),
                        [](const ReservedPool& p) { return !p.zone.empty(); });
  std::vector<Usage> usage;
  for (const RunningInstances& r : scan.running) {
    if (r.spot || r.count <= 0) continue;  // spot instances use no RI or Savings Plan
    usage.push_back({&r, catalog.FindInstanceType(r.instance_type),
                     NormalizationUnits(r.instance_type, &catalog).value_or(0), double(r.count)});
  }
  // Regional size-flexible RIs go to the smallest instances of the family first.
  std::stable_sort(usage.begin(), usage.end(),
                   [](const Usage& a, const Usage& b) { return a.units_each < b.units_each; });
  for (const bool zonal : {true, false}) {  // zonal reservations first, then regional ones
    for (Usage& u : usage) {
      for (ReservedPool& p : c.reserved) {
        if (u.left > 0 && ReservedCovers(p, *u.running, zonal)) UseReserved(&p, &u);
      }
    }
  }
  for (const SavingsPlan& sp : scan.savings_plans) {
    if (sp.type != "EC2Instance" && sp.type != "Compute") continue;  // SageMaker: not EC2
    c.savings_plans.push_back({.id = sp.id,
                               .type = sp.type,
                               .family = sp.family,
                               .region = sp.region,
                               .commitment_usd_per_hour = sp.commitment_usd_per_hour});
  }
  std::stable_partition(c.savings_plans.begin(), c.savings_plans.end(),
                        [](const SavingsPlanLeft& sp) { return sp.type == "EC2Instance"; });
  for (SavingsPlanLeft& sp : c.savings_plans) UseSavingsPlan(&sp, &usage);
  return c;
}

PlanCoverage CoverPlan(const Commitments& left, const InstanceType& type, int instances,
                       std::string_view region) {
  PlanCoverage out;
  out.on_demand_usd_per_hour = OnDemandRate(type, region);
  const std::string n = std::to_string(instances);
  double rest = instances;
  // A zonal reservation covers the plan only in its zone: the zone with the most left.
  const ReservedPool* zonal = nullptr;
  for (const ReservedPool& p : left.reserved) {
    if (!p.zone.empty() && p.region == region && p.instance_type == type.name &&
        (zonal == nullptr || p.left() > zonal->left())) {
      zonal = &p;
    }
  }
  if (zonal != nullptr && zonal->left() > 0) {
    const double take = std::min(rest, zonal->left());
    rest -= take;
    out.reserved_instances += take;
    out.lines.push_back(std::to_string(zonal->count) + " zonal RIs of " + type.name + " in " +
                        zonal->zone + ", " + Num(zonal->used) + " used by running instances, " +
                        Num(zonal->left()) + " left: cover " + Num(take) + " of the plan's " + n +
                        " if it runs in " + zonal->zone);
  }
  for (const ReservedPool& p : left.reserved) {
    if (!p.zone.empty() || p.region != region || rest <= 0) continue;
    if (p.size_flexible && p.family == type.family) {
      const std::optional<double> each = NormalizationUnits(type.name, nullptr);
      if (!each || p.left() <= 0) continue;
      const double take = std::min(rest, p.left() / *each);
      rest -= take;
      out.reserved_instances += take;
      out.lines.push_back(std::to_string(p.count) + " RIs of " + p.family + " in " + p.region +
                          " (" + Num(p.units) + " units), running instances use " + Num(p.used) +
                          ", " + Num(p.left()) + " left: cover " + Num(take) + " of the plan's " +
                          n + " " + type.name + " (" + Num(*each) + " units each)");
    } else if (!p.size_flexible && p.instance_type == type.name && p.left() > 0) {
      const double take = std::min(rest, p.left());
      rest -= take;
      out.reserved_instances += take;
      out.lines.push_back(std::to_string(p.count) + " RIs of " + type.name + " in " + p.region +
                          ", " + Num(p.used) + " used by running instances, " + Num(p.left()) +
                          " left: cover " + Num(take) + " of the plan's " + n);
    }
  }
  for (const SavingsPlanLeft& sp : left.savings_plans) {
    if (rest <= 0 || !PlanCovers(sp, type.family, region)) continue;
    const double rate = SavingsPlanRateOf(type, region, sp.type);
    if (rate <= 0 || sp.left_usd_per_hour() <= 0) continue;
    const double take = std::min(rest, sp.left_usd_per_hour() / rate);
    rest -= take;
    out.savings_plan_instances += take;
    out.lines.push_back(
        "Savings Plan " + sp.id + " (" + sp.type + ") " + Usd(sp.commitment_usd_per_hour) +
        "/h, running instances use " + Usd(sp.used_usd_per_hour) + "/h" +
        (sp.unpriced_usage ? " and some not priced" : "") + ", " + Usd(sp.left_usd_per_hour()) +
        "/h left: covers " + Num(take) + " of the plan's " + n + " at " + Usd(rate) + "/h");
  }
  out.billed_instances = rest;
  if (!out.lines.empty()) {
    out.lines.push_back(Num(rest) + " billed on-demand at " + Usd(out.on_demand_usd_per_hour) +
                        "/h");
  }
  return out;
}

}  // namespace gpuadvisor
