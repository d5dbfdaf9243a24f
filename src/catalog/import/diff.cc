#include <cmath>
#include <map>
#include <set>

#include "gpuadvisor/catalog_import.h"

namespace gpuadvisor {
namespace {

struct Figure {
  double amount = 0;  // in the offer's currency
  std::string source;
};

// Every price of one region offer, by name.
std::map<std::string, Figure> Figures(const RegionOffer& o) {
  std::map<std::string, Figure> m;
  if (o.on_demand) m["on-demand"] = {o.on_demand->usd_per_hour, o.on_demand->from.source};
  if (o.spot) {
    m[o.spot->estimated ? "spot (estimated)" : "spot"] = {o.spot->usd_per_hour,
                                                          o.spot->from.source};
  }
  // The 1-year standard no-upfront RI is the price the commands use (RegionOffer::Reserved1y),
  // not an itemised term it superseded.
  if (o.reserved_1y_no_upfront) {
    m[std::string("reserved-") + kReserved1yTerm] = {o.reserved_1y_no_upfront->usd_per_hour,
                                                     o.reserved_1y_no_upfront->from.source};
  }
  for (const ReservedPrice& r : o.reserved) {
    if (r.term() != kReserved1yTerm) {
      m["reserved-" + r.term()] = {r.effective_usd_per_hour(), r.from.source};
    }
  }
  for (const SavingsPlanRate& s : o.savings_plans) {
    m["savings-plan-" + s.term()] = {s.usd_per_hour, s.from.source};
  }
  return m;
}

}  // namespace

CatalogDiff DiffCatalogs(const Catalog& a, const Catalog& b) {
  CatalogDiff d;
  for (const InstanceType& t : a.instance_types()) {
    if (!b.FindInstanceType(t.name)) d.removed_types.push_back(t.name);
  }
  for (const InstanceType& t : b.instance_types()) {
    const InstanceType* old = a.FindInstanceType(t.name);
    if (!old) {
      d.added_types.push_back(t.name);
      continue;
    }
    std::set<std::string> regions;
    for (const RegionOffer& o : old->regions) regions.insert(o.region);
    for (const RegionOffer& o : t.regions) regions.insert(o.region);
    for (const std::string& region : regions) {
      const RegionOffer* x = old->FindRegion(region);
      const RegionOffer* y = t.FindRegion(region);
      std::map<std::string, Figure> fx = x ? Figures(*x) : std::map<std::string, Figure>{};
      std::map<std::string, Figure> fy = y ? Figures(*y) : std::map<std::string, Figure>{};
      std::set<std::string> names;
      for (const auto& [k, v] : fx) names.insert(k);
      for (const auto& [k, v] : fy) names.insert(k);
      for (const std::string& n : names) {
        auto i = fx.find(n);
        auto j = fy.find(n);
        // A region's prices are in its partition's currency on both sides.
        const Currency cur = PartitionOf(region).currency;
        CatalogDiff::PriceChange c{t.name, region, n, std::nullopt, std::nullopt, "", ""};
        if (i != fx.end()) {
          c.old_per_hour = Money(i->second.amount, cur);
          c.old_source = i->second.source;
        }
        if (j != fy.end()) {
          c.new_per_hour = Money(j->second.amount, cur);
          c.new_source = j->second.source;
        }
        if (c.old_per_hour && c.new_per_hour &&
            std::fabs(c.old_per_hour->amount - c.new_per_hour->amount) <= 1e-9) {
          continue;
        }
        d.price_changes.push_back(std::move(c));
      }
    }
  }
  return d;
}

}  // namespace gpuadvisor
