#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "catalog/build/sources.h"
#include "gpuadvisor/catalog_build.h"
#include "util/aws_names.h"
#include "util/files.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor {
namespace build {

// Accelerator families by name (p3, g6e, gr6, inf2, trn1, dl1, vt1, f2, u-p6e...).
bool LooksLikeAcceleratorType(std::string_view type) {
  for (const char* prefix : {"gr", "inf", "trn", "dl", "vt", "u-p"}) {
    if (StartsWith(type, prefix)) return true;
  }
  return type.size() > 1 && (type[0] == 'p' || type[0] == 'g' || type[0] == 'f') &&
         std::isdigit(static_cast<unsigned char>(type[1]));
}

const GpuSpec* MatchGpuSpec(const std::vector<GpuSpec>& gpus, const Accelerator& a) {
  const GpuSpec* best = nullptr;
  for (const GpuSpec& g : gpus) {
    if (std::find(g.aws_names.begin(), g.aws_names.end(), a.aws_name) == g.aws_names.end()) {
      continue;
    }
    if (!best) best = &g;
    if (a.memory_mib_each && g.aws_memory_mib && *g.aws_memory_mib == *a.memory_mib_each) {
      return &g;
    }
  }
  return best;
}

std::optional<Correction> CorrectAcceleratorMemory(InstanceType* t, const GpuSpec& g) {
  Accelerator& a = t->accelerator;
  if (!a.memory_mib_each || !g.memory_gib) return std::nullopt;
  const double datasheet_mib = *g.memory_gib * 1024;
  if (*a.memory_mib_each <= 1.5 * datasheet_mib) return std::nullopt;
  int fixed = static_cast<int>(std::lround(datasheet_mib));
  Correction c{t->name + " accelerator.memory_mib_each", std::to_string(*a.memory_mib_each),
               std::to_string(fixed),
               "DescribeInstanceTypes reports " + std::to_string(*a.memory_mib_each) + " MiB per " +
                   a.aws_name + " device, more than the vendor's documented " +
                   FormatFixed(*g.memory_gib, 0) + " GiB (" + g.source_note +
                   "); the API value is treated as an AWS data error"};
  a.memory_mib_each = fixed;
  a.memory_mib_total = static_cast<int64_t>(fixed) * std::max(a.count, a.logical_count);
  return c;
}

}  // namespace build

namespace {

using build::LooksLikeAcceleratorType;

using build::Offering;
using build::PriceRecord;
using build::SpotAdvice;

// "us-east-1" for the Local Zone "us-east-1-dfw-2a" (the longest leading region code); "" when
// none.
std::string ParentRegion(const std::string& zone) {
  for (size_t dash = zone.rfind('-'); dash != std::string::npos && dash > 0;
       dash = zone.rfind('-', dash - 1)) {
    if (IsRegionCode(zone.substr(0, dash))) return zone.substr(0, dash);
  }
  return "";
}

// Ordering of sources for "newest wins": by snapshot date, undated ("") oldest.
bool Newer(const CatalogSource& a, const CatalogSource& b) {
  return a.snapshot_date > b.snapshot_date;
}

struct Builder {
  Catalog catalog;
  // The records, handed to `catalog` once complete (Catalog sorts and indexes them then).
  std::vector<GpuSpec> gpus;
  std::vector<InstanceType> instance_types;
  std::map<std::string, InstanceType> types;  // by name
  std::map<std::string, const CatalogSource*> spec_source;
  int skipped_local_zone_rows = 0;
  std::set<std::string> unpriced_unknown_types;  // priced types with no specs

  // Best price per (type, region, kind) and the source that gave it.
  struct Candidate {
    double usd = 0;  // in the region's currency
    const CatalogSource* src = nullptr;
    int az_count = 0;
    std::string date;  // the figure's snapshot date: the row's, else the source's
  };
  std::map<std::tuple<std::string, std::string, int>, Candidate> prices;
  std::map<std::pair<std::string, std::string>, std::pair<SpotAdvice, const CatalogSource*>> bands;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> azs;
  // Capacity Block rates per (type, region): every dated observation, for the headline (newest
  // date) and the history.
  struct BlockRate {
    double usd = 0;
    std::string date;
    const CatalogSource* src = nullptr;
    std::string zone;  // the Local Zone the source names, when the region is its parent
  };
  // UltraServers a Capacity Block source names (u-p6e-gb200x72): no DescribeInstanceTypes record
  // exists; the source's accelerator and count (newest row) are all that is known of them.
  struct UltraServer {
    std::string accelerator;
    int count = 0;
    const CatalogSource* src = nullptr;
    std::string date;
  };
  std::map<std::string, UltraServer> ultraservers;
  int inconsistent_block_rows = 0;
  std::map<std::pair<std::string, std::string>, std::vector<BlockRate>> blocks;
  // Capacity Block rates per accelerator-hour rounded to the cent, from a newer reference than
  // the per-instance rates (capacity-block-per-accelerator-csv): they fill a (type, region) no
  // per-instance rate covers, as rate x accelerators, and confirm the rates they round to.
  std::map<std::pair<std::string, std::string>, BlockRate> rounded_blocks;
  // On-demand figures rounded to the cent (ondemand-confirmation-csv): never imported; they
  // confirm the catalog's figures they equal to the cent.
  std::vector<std::pair<PriceRecord, const CatalogSource*>> od_confirmations;
  // What the rounded figures did, for the notes: per source id, figures confirmed; figures
  // that disagree ("type region: ..."); rows with no catalog figure to confirm.
  std::map<std::string, int> confirmed;
  std::vector<std::string> disagreements;
  std::map<std::string, int> rounded_without_figure;
  int rounded_blocks_added = 0;
  std::set<std::pair<std::string, std::string>> offered;
  // Itemised reserved terms per (type, region) (vantage-terms-csv); the newest source per term.
  std::map<std::pair<std::string, std::string>, std::map<std::string, ReservedPrice>> terms;
  std::set<std::string> offering_regions;  // regions the offering sources cover
  std::string offerings_date;              // the newest offering snapshot's date
  // Per region, the types a "complete" price file prices there (see PriceFile).
  std::map<std::string, std::set<std::string>> priced_by_complete;
  // Project-owned figures, applied once every datasheet row is read (order-independent).
  std::vector<build::AcceleratorFigure> figures;

  Status AddSpecs(const BuildInput& in, const CatalogSource& src) {
    Result<std::vector<InstanceType>> recs = build::ReadDescribeInstanceTypes(in.text, in.origin);
    if (!recs.ok()) return recs.status();
    for (InstanceType& t : *recs) {
      auto it = types.find(t.name);
      if (it != types.end()) {
        // A current record beats a retired one; otherwise the newer snapshot wins.
        bool replace = (it->second.retired && !t.retired) ||
                       (it->second.retired == t.retired && Newer(src, *spec_source[t.name]));
        if (!replace) continue;
      }
      t.spec_from = {src.id, src.snapshot_date};
      spec_source[t.name] = &src;
      types[t.name] = std::move(t);
    }
    return Status::OK();
  }

  void Offer(const PriceRecord& p, const CatalogSource& src) {
    auto key = std::make_tuple(p.instance_type, p.region, static_cast<int>(p.kind));
    auto it = prices.find(key);
    const std::string& date = p.date.empty() ? src.snapshot_date : p.date;
    if (it == prices.end() || date > it->second.date) {
      prices[key] = {p.usd_per_hour, &src, p.az_id.empty() ? 0 : 1, date};
    } else if (it->second.src == &src && !p.az_id.empty()) {
      // Several AZ prices from one source: keep the lowest.
      it->second.usd = std::min(it->second.usd, p.usd_per_hour);
      it->second.az_count++;
    }
  }

  struct PriceFile : build::PriceCsvColumns {
    // The manifest's "complete": the file lists every accelerator type sold in the regions it
    // covers, so a type it does not price there is not offered (the AWS China price list: no
    // DescribeInstanceTypeOfferings snapshot covers aws-cn).
    bool complete = false;
  };

  Status AddPrices(const BuildInput& in, const CatalogSource& src, build::PriceCsvColumns base) {
    PriceFile cols;
    static_cast<build::PriceCsvColumns&>(cols) = build::InCurrency(std::move(base), in.currency);
    cols.currency_column = in.currency_column;
    cols.date = in.date_column;
    cols.complete = in.complete;
    Result<std::vector<PriceRecord>> recs = build::ReadPriceCsv(in.text, in.origin, cols);
    if (!recs.ok()) return recs.status();
    for (const PriceRecord& p : *recs) {
      if (!IsRegionCode(p.region)) {
        ++skipped_local_zone_rows;
        continue;
      }
      Offer(p, src);
      if (cols.complete) priced_by_complete[p.region].insert(p.instance_type);
    }
    return Status::OK();
  }

  Status AddCapacityBlocks(const BuildInput& in, const CatalogSource& src) {
    Result<std::vector<build::CapacityBlockRate>> recs =
        build::ReadCapacityBlockCsv(in.text, in.origin);
    if (!recs.ok()) return recs.status();
    for (build::CapacityBlockRate& r : *recs) {
      // A row whose per-instance and per-accelerator rates disagree is a feed error (the
      // 2026-01/03 versions give the UltraServers their per-GPU rate per instance and 0.0 per GPU).
      if (r.per_accelerator && r.accelerator_count > 0 &&
          std::fabs(r.usd_per_hour / r.accelerator_count - *r.per_accelerator) > 0.01) {
        ++inconsistent_block_rows;
        continue;
      }
      // An UltraServer is sold in a Local Zone only (u-p6e-gb200 in us-east-1-dfw-2a): its
      // rate is its parent region's, the zone kept with it.
      std::string zone;
      const bool ultraserver = IsUltraServerTypeName(r.instance_type);
      if (ultraserver && !IsRegionCode(r.region)) {
        if (std::string parent = ParentRegion(r.region); !parent.empty()) {
          zone = r.region;
          r.region = parent;
        }
      }
      if (!IsRegionCode(r.region)) {
        ++skipped_local_zone_rows;
        continue;
      }
      if (ultraserver && r.accelerator_count > 0 && !r.accelerator.empty()) {
        UltraServer& u = ultraservers[r.instance_type];
        if (r.date >= u.date) u = {r.accelerator, r.accelerator_count, &src, r.date};
      }
      blocks[{r.instance_type, r.region}].push_back(
          {r.usd_per_hour, std::move(r.date), &src, std::move(zone)});
    }
    return Status::OK();
  }

  Status AddRoundedCapacityBlocks(const BuildInput& in, const CatalogSource& src) {
    Result<std::vector<build::CapacityBlockRate>> recs =
        build::ReadCapacityBlockPerAcceleratorCsv(in.text, in.origin);
    if (!recs.ok()) return recs.status();
    for (build::CapacityBlockRate& r : *recs) {
      if (!IsRegionCode(r.region)) {
        ++skipped_local_zone_rows;
        continue;
      }
      rounded_blocks[{r.instance_type, r.region}] = {r.usd_per_hour, src.snapshot_date, &src};
    }
    return Status::OK();
  }

  Status AddConfirmations(const BuildInput& in, const CatalogSource& src) {
    build::PriceCsvColumns cols;
    cols.on_demand = "ondemand_usd_per_hour_linux_rounded";
    Result<std::vector<PriceRecord>> recs = build::ReadPriceCsv(in.text, in.origin, cols);
    if (!recs.ok()) return recs.status();
    for (PriceRecord& p : *recs) od_confirmations.emplace_back(std::move(p), &src);
    return Status::OK();
  }

  // Whether `figure` rounds to `rounded` (a figure given to the cent): within half a cent, so that
  // a half-cent figure (1.015) matches however its source rounded it (1.02; 1.015 x 100 is
  // 101.4999... in binary).
  static bool EqualToTheCent(double figure, double rounded) {
    return std::fabs(figure - rounded) <= 0.005 + 1e-9;
  }

  // A rounded figure `rounded` dated `by` confirms `*p` when the catalog's figure is older and
  // rounds to it; one that does not is listed in the notes, never taken silently.
  void Confirm(Price* p, double catalog_figure, double rounded, const Provenance& by,
               const std::string& what) {
    // A figure as new as the reference (its own new figures) is not confirmed by it.
    if (!OlderFigure(p->from, by) || p->from.date == by.date) return;
    if (EqualToTheCent(catalog_figure, rounded)) {
      p->confirmed = by;
      ++confirmed[by.source];
      return;
    }
    disagreements.push_back(what + ": " + by.source + " prints " + FormatFixed(rounded, 2) +
                            ", the catalog keeps " + FormatFixed(catalog_figure, 6) + " (" +
                            p->from.source + ", " + p->from.date + ")");
  }

  // The newest dated rate is the price; each date's rate (first source listing it) is history.
  // A rounded per-accelerator rate fills a region no per-instance rate covers, or confirms it.
  void SetCapacityBlock(const InstanceType& t, RegionOffer* o) {
    const std::string& type = t.name;
    SetBlockRates(type, o);
    if (t.ultraserver() && o->capacity_block) {
      o->capacity_block->note =
          "one whole UltraServer of " + std::to_string(t.accelerator.count) + " " +
          t.accelerator.aws_name + " GPUs per hour, sold only as an UltraServer Capacity Block" +
          (o->capacity_block->zone.empty() ? std::string()
                                           : " in the Local Zone " + o->capacity_block->zone);
    }
    auto r = rounded_blocks.find({type, o->region});
    if (r == rounded_blocks.end()) return;
    const BlockRate& per_device = r->second;
    const int devices = t.accelerator.count;
    const Provenance by{per_device.src->id, per_device.date};
    const std::string what = type + " " + o->region + " capacity-block per accelerator-hour";
    if (devices <= 0) {
      disagreements.push_back(what + ": " + by.source + " rate without a device count");
      return;
    }
    if (o->capacity_block) {
      Confirm(&*o->capacity_block, o->capacity_block->usd_per_hour / devices, per_device.usd, by,
              what);
      return;
    }
    Price p;
    p.usd_per_hour = per_device.usd * devices;
    p.from = by;
    p.note = "derived: " + FormatFixed(per_device.usd, 2) + " USD per accelerator-hour x " +
             std::to_string(devices) +
             ", a per-accelerator rate rounded to the cent (so +/- 0.005 x " +
             std::to_string(devices) + " = " + FormatFixed(0.005 * devices, 3) +
             " USD per instance-hour)";
    o->history.push_back({"capacity-block", p.usd_per_hour, p.from});
    o->capacity_block = p;
    ++rounded_blocks_added;
  }

  void SetBlockRates(const std::string& type, RegionOffer* o) const {
    auto it = blocks.find({type, o->region});
    if (it == blocks.end()) return;
    std::vector<BlockRate> rates = it->second;
    std::stable_sort(rates.begin(), rates.end(),
                     [](const BlockRate& a, const BlockRate& b) { return a.date < b.date; });
    std::string last_date;
    for (const BlockRate& r : rates) {
      if (r.date == last_date) continue;
      last_date = r.date;
      o->history.push_back({"capacity-block", r.usd, {r.src->id, r.date}});
    }
    const PricePoint& newest = o->history.back();
    Price p;
    p.usd_per_hour = newest.usd_per_hour;
    p.from = newest.from;
    p.zone = rates.back().zone;
    o->capacity_block = p;
  }

  Status AddReservedTerms(const BuildInput& in, const CatalogSource& src) {
    Result<std::vector<build::ReservedTermRecord>> recs =
        build::ReadVantageTermsCsv(in.text, in.origin, in.currency);
    if (!recs.ok()) return recs.status();
    for (build::ReservedTermRecord& r : *recs) {
      if (!IsRegionCode(r.region)) {
        ++skipped_local_zone_rows;
        continue;
      }
      r.term.from = {src.id, src.snapshot_date};
      auto& by_term = terms[{r.instance_type, r.region}];
      auto it = by_term.find(r.term.term());
      if (it == by_term.end() || r.term.from.date > it->second.from.date) {
        by_term[r.term.term()] = r.term;
      }
    }
    return Status::OK();
  }

  Status AddSpotAdvisor(const BuildInput& in, const CatalogSource& src) {
    Result<std::vector<SpotAdvice>> recs = build::ReadSpotAdvisorJson(in.text, in.origin);
    if (!recs.ok()) return recs.status();
    for (SpotAdvice& a : *recs) {
      auto key = std::make_pair(a.instance_type, a.region);
      auto it = bands.find(key);
      if (it == bands.end() || Newer(src, *it->second.second)) bands[key] = {a, &src};
    }
    return Status::OK();
  }

  Status AddOfferings(const BuildInput& in, const CatalogSource& src) {
    offerings_date = std::max(offerings_date, src.snapshot_date);
    Result<std::vector<Offering>> recs = build::ReadOfferingsCsv(in.text, in.origin);
    if (!recs.ok()) return recs.status();
    for (const Offering& o : *recs) {
      offering_regions.insert(o.region);
      offered.insert({o.instance_type, o.region});
      if (!o.az_id.empty()) azs[{o.instance_type, o.region}].insert(o.az_id);
    }
    return Status::OK();
  }

  Status Add(const BuildInput& in, const CatalogSource& src) {
    const std::string& f = in.format;
    if (f == "describe-instance-types-json") return AddSpecs(in, src);
    if (f == "gpu-specs-csv") {
      Result<std::vector<GpuSpec>> specs = build::ReadGpuSpecsCsv(in.text, in.origin);
      if (!specs.ok()) return specs.status();
      for (GpuSpec& g : *specs) {
        g.from = {src.id, src.snapshot_date};
        gpus.push_back(std::move(g));
      }
      return Status::OK();
    }
    if (f == "accelerator-figures-csv") {
      Result<std::vector<build::AcceleratorFigure>> rows =
          build::ReadAcceleratorFiguresCsv(in.text, in.origin);
      if (!rows.ok()) return rows.status();
      for (build::AcceleratorFigure& r : *rows) figures.push_back(std::move(r));
      return Status::OK();
    }
    if (f == "ondemand-csv") return AddPrices(in, src, {});
    if (f == "ondemand-reserved-csv") {
      build::PriceCsvColumns cols;
      cols.reserved_1y_no_upfront = "reserved_1yr_standard_no_upfront_usd_per_hour_linux";
      return AddPrices(in, src, cols);
    }
    if (f == "skypilot-vms-csv") {
      build::PriceCsvColumns cols;
      cols.instance_type = "InstanceType";
      cols.region = "Region";
      cols.az_id = "AvailabilityZone";
      cols.on_demand = "Price";
      cols.spot = "SpotPrice";
      return AddPrices(in, src, cols);
    }
    if (f == "spot-advisor-json") return AddSpotAdvisor(in, src);
    if (f == "capacity-block-csv") return AddCapacityBlocks(in, src);
    if (f == "capacity-block-per-accelerator-csv") return AddRoundedCapacityBlocks(in, src);
    if (f == "ondemand-confirmation-csv") return AddConfirmations(in, src);
    if (f == "vantage-terms-csv") return AddReservedTerms(in, src);
    if (f == "offerings-csv") return AddOfferings(in, src);
    return Status::InvalidArgument(in.origin + ": unknown source format \"" + f + "\"");
  }

  const GpuSpec* MatchGpu(const Accelerator& a) const { return build::MatchGpuSpec(gpus, a); }

  void CorrectMemory(InstanceType* t, const GpuSpec& g) {
    if (auto c = build::CorrectAcceleratorMemory(t, g)) catalog.corrections.push_back(*c);
  }

  Status FinishGpus() {
    GPUADVISOR_RETURN_IF_ERROR(
        build::ApplyAcceleratorFigures(figures, &gpus, &catalog.corrections));
    for (GpuSpec& g : gpus) {
      if (g.aws_memory_mib && g.memory_gib && *g.aws_memory_mib > 1.5 * *g.memory_gib * 1024) {
        int fixed = static_cast<int>(std::lround(*g.memory_gib * 1024));
        catalog.corrections.push_back({"gpu " + g.model + " aws_memory_mib",
                                       std::to_string(*g.aws_memory_mib), std::to_string(fixed),
                                       "the AWS-reported figure contradicts the vendor's " +
                                           FormatFixed(*g.memory_gib, 0) +
                                           " GiB; the datasheet value is used"});
        g.aws_memory_mib = fixed;
      }
    }
    std::sort(gpus.begin(), gpus.end(),
              [](const GpuSpec& a, const GpuSpec& b) { return a.model < b.model; });
    return Status::OK();
  }

  Price MakePrice(const Candidate& c) const {
    Price p;
    p.usd_per_hour = c.usd;
    p.from = {c.src->id, c.date.empty() ? "undated" : c.date};
    if (c.az_count > 1) p.note = "lowest of " + std::to_string(c.az_count) + " AZ prices";
    return p;
  }

  // Whether `t` is offered in o->region, and on whose word (RegionOffer::offered_from, set where
  // a source other than the offerings snapshot decides):
  // * listed by DescribeInstanceTypeOfferings: offered;
  // * not listed in a region the snapshot covers: not offered, unless the type is current and an
  //   on-demand price dated after the snapshot exists there (a newer price list selling it is
  //   newer evidence than the snapshot: g6 in ap-south-2, priced 2026-08-26, absent 2026-08-01);
  // * a region no snapshot covers (AWS China): a source marked complete decides, except that a
  //   retired type is never offered on a price row alone: price lists keep listing retired
  //   types (the us-east-1 list prices p2/p3/g3 that the 2026-08 API no longer returns), so
  //   the retirement record is the newer word.
  void SetOffered(const InstanceType& t, RegionOffer* o) const {
    const std::string& region = o->region;
    if (t.ultraserver()) {
      // No offerings snapshot lists UltraServers: sold where a Capacity Block is priced.
      o->offered = o->capacity_block.has_value();
      if (o->capacity_block) o->offered_from = o->capacity_block->from;
      return;
    }
    if (offered.count({t.name, region})) {
      o->offered = true;
    } else if (offering_regions.count(region)) {
      o->offered = false;
      if (!t.retired && o->on_demand && o->on_demand->from.date > offerings_date &&
          o->on_demand->from.date != "undated") {
        o->offered = true;
        o->offered_from = o->on_demand->from;
      }
    } else if (auto it = priced_by_complete.find(region); it != priced_by_complete.end()) {
      o->offered = it->second.count(t.name) > 0;
      if (*o->offered && t.retired) {
        o->offered = false;
        o->offered_from = t.spec_from;
      }
    }
  }

  RegionOffer MakeOffer(const InstanceType& t, const std::string& region) {
    const std::string& type = t.name;
    RegionOffer o;
    o.region = region;
    if (auto it = azs.find({type, region}); it != azs.end()) {
      o.az_ids.assign(it->second.begin(), it->second.end());
    }
    auto get = [&](PriceRecord::Kind k) -> std::optional<Price> {
      auto it = prices.find(std::make_tuple(type, region, static_cast<int>(k)));
      if (it == prices.end()) return std::nullopt;
      return MakePrice(it->second);
    };
    o.on_demand = get(PriceRecord::kOnDemand);
    SetCapacityBlock(t, &o);
    SetOffered(t, &o);
    o.spot = get(PriceRecord::kSpot);
    o.reserved_1y_no_upfront = get(PriceRecord::kReserved1yNoUpfront);
    if (auto it = terms.find({type, region}); it != terms.end()) {
      for (const auto& [name, term] : it->second) o.reserved.push_back(term);  // by term()
      // The one 1-year RI figure every command reads, chosen as the catalog reader chooses it.
      o.reserved_1y_no_upfront = o.Reserved1y();
    }
    if (auto it = bands.find({type, region}); it != bands.end()) {
      const SpotAdvice& a = it->second.first;
      const CatalogSource& s = *it->second.second;
      o.spot_band =
          SpotBand{a.range_index, a.label, a.max_pct, a.savings_pct, {s.id, s.snapshot_date}};
      if (!o.spot && o.on_demand) o.spot = build::EstimatedSpot(*o.on_demand, *o.spot_band);
    }
    return o;
  }

  // The UltraServers the Capacity Block sources name, as records of their own: whole units of
  // `count` GPUs, Capacity Block only; host figures unknown (0, written null).
  void AddUltraServers() {
    for (const auto& [name, u] : ultraservers) {
      if (types.count(name)) continue;
      InstanceType t;
      t.name = name;
      t.family = name.substr(0, name.rfind('x'));
      t.unit_of_purchase = "ultraserver";
      t.accelerator.kind = AcceleratorKind::kGpu;
      t.accelerator.aws_name = u.accelerator;
      t.accelerator.count = u.count;
      t.accelerator.logical_count = u.count;
      for (const GpuSpec& g : gpus) {
        if (g.model == u.accelerator ||
            std::find(g.aliases.begin(), g.aliases.end(), u.accelerator) != g.aliases.end()) {
          t.accelerator.model = g.model;
          t.accelerator.vendor = g.vendor;
        }
      }
      if (t.accelerator.model.empty()) t.accelerator.model = u.accelerator;
      t.usage_classes = {"capacity-block"};
      t.spec_from = {u.src->id, u.date};
      types[name] = std::move(t);
    }
  }

  void FinishTypes() {
    AddUltraServers();
    std::set<std::pair<std::string, std::string>> keys;  // (type, region)
    for (const auto& [k, c] : prices) keys.insert({std::get<0>(k), std::get<1>(k)});
    for (const auto& tr : offered) keys.insert(tr);
    for (const auto& [tr, rates] : blocks) keys.insert(tr);
    for (const auto& [tr, rate] : rounded_blocks) keys.insert(tr);
    for (const auto& [tr, b] : bands) {
      if (types.count(tr.first)) keys.insert(tr);
    }
    for (const auto& [type, region] : keys) {
      auto it = types.find(type);
      if (it == types.end()) {
        if (LooksLikeAcceleratorType(type)) unpriced_unknown_types.insert(type);
        continue;
      }
      if (!IsRegionCode(region)) continue;
      it->second.regions.push_back(MakeOffer(it->second, region));
    }
    for (auto& [name, t] : types) {
      if (const GpuSpec* g = MatchGpu(t.accelerator)) {
        t.accelerator.model = g->model;
        CorrectMemory(&t, *g);
      }
      std::sort(t.regions.begin(), t.regions.end(),
                [](const RegionOffer& a, const RegionOffer& b) { return a.region < b.region; });
      instance_types.push_back(std::move(t));
    }
    build::ApplyFamilyFigures(figures, &instance_types, &catalog.corrections);
    ConfirmOnDemand();
  }

  void ConfirmOnDemand() {
    std::map<std::string, InstanceType*> by_name;
    for (InstanceType& t : instance_types) by_name[t.name] = &t;
    for (const auto& [rec, src] : od_confirmations) {
      const Provenance by{src->id, rec.date.empty() ? src->snapshot_date : rec.date};
      auto it = by_name.find(rec.instance_type);
      RegionOffer* o = nullptr;
      if (it != by_name.end()) {
        for (RegionOffer& r : it->second->regions) {
          if (r.region == rec.region) o = &r;
        }
      }
      if (o == nullptr || !o->on_demand) {
        ++rounded_without_figure[src->id];
        continue;
      }
      Confirm(&*o->on_demand, o->on_demand->usd_per_hour, rec.usd_per_hour, by,
              rec.instance_type + " " + rec.region + " on-demand");
    }
  }
};

// The folder of the manifest file ("data" for "data/sources.json"; "" for "sources.json").
std::string ManifestDir(const std::string& manifest_path) {
  size_t slash = manifest_path.rfind('/');
  return slash == std::string::npos ? "" : manifest_path.substr(0, slash);
}

}  // namespace

Result<std::vector<BuildInput>> LoadBuildManifest(const std::string& manifest_path,
                                                  const std::string& root) {
  Result<std::string> text = ReadFile(manifest_path, kManifestFile);
  if (!text.ok()) return text.status();
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(*text, manifest_path, &doc));
  RjReader r(manifest_path);
  const rapidjson::Value& list = r.Array(doc, "sources", "$");
  std::vector<BuildInput> out;
  for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
    std::string p = "$.sources[" + std::to_string(i) + "]";
    BuildInput in;
    in.meta.id = r.Str(list[i], "id", p);
    in.meta.name = r.Str(list[i], "name", p);
    in.meta.kind = r.Str(list[i], "kind", p);
    in.meta.snapshot_date = r.Str(list[i], "snapshot_date", p, false);
    in.meta.origin = r.Str(list[i], "origin", p);
    in.meta.description = r.Str(list[i], "description", p, false);
    in.format = r.Str(list[i], "format", p);
    std::string file = r.Str(list[i], "file", p);
    std::string base = r.OptStr(list[i], "relative_to", p).value_or("root");
    const std::string currency = r.OptStr(list[i], "currency", p).value_or("USD");
    in.currency_column = r.OptStr(list[i], "currency_column", p).value_or("");
    in.date_column = r.OptStr(list[i], "date_column", p).value_or("");
    in.complete = r.OptBool(list[i], "complete", p).value_or(false);
    if (!r.status().ok()) break;
    if (const std::optional<Currency> c = ParseCurrency(currency)) {
      in.currency = *c;
    } else {
      std::string msg = manifest_path;
      msg += ": " + p;
      msg += R"(.currency: expected "USD" or "CNY", got ")" + currency + "\"";
      return Status::ParseError(msg);
    }
    if (base != "root" && base != "manifest") {
      std::string msg = manifest_path;
      msg += ": " + p;
      msg += R"(.relative_to: ")" + base;
      msg += R"(" is not "root" or "manifest")";
      return Status::ParseError(msg);
    }
    // Project-owned sources (data/accelerator-figures.csv) sit next to the manifest; public
    // snapshots live under --root.
    const std::string dir = base == "manifest" ? ManifestDir(manifest_path) : root;
    in.origin = dir.empty() ? file : dir;
    if (!dir.empty()) in.origin += "/" + file;
    Result<std::string> data = ReadFile(in.origin, kBuildSourceFile);
    if (!data.ok()) return data.status();
    in.text = std::move(data).value();
    out.push_back(std::move(in));
  }
  if (!r.status().ok()) return r.status();
  return out;
}

Result<Catalog> BuildCatalog(const std::vector<BuildInput>& inputs,
                             const std::string& generated_at) {
  Builder b;
  b.catalog.schema = kCatalogSchema;
  b.catalog.generated_at = generated_at;
  b.catalog.generator = "gpuadvisor catalog build";
  // Sources are stored first so Candidate pointers below stay valid (no reallocation later).
  b.catalog.sources.reserve(inputs.size());
  for (const BuildInput& in : inputs) b.catalog.sources.push_back(in.meta);
  for (size_t i = 0; i < inputs.size(); ++i) {
    GPUADVISOR_RETURN_IF_ERROR(b.Add(inputs[i], b.catalog.sources[i]));
  }
  if (b.types.empty()) {
    return Status::InvalidArgument(
        "no instance types: the manifest needs a "
        "describe-instance-types-json source");
  }
  GPUADVISOR_RETURN_IF_ERROR(b.FinishGpus());
  b.FinishTypes();
  Catalog& c = b.catalog;
  c.notes.emplace_back(
      "Per figure (type x region x price kind) the source with the newest snapshot date wins; "
      "undated sources only fill gaps.");
  c.notes.emplace_back(
      "Spot: the lowest AZ price of the winning source; where no source has one, on-demand x "
      "(1 - spot-advisor savings), marked estimated.");
  c.notes.emplace_back(
      "Capacity Blocks: the rate with the newest date per type and region; every dated rate is "
      "kept in history[].");
  c.notes.push_back(
      "Regions are those of the aws, aws-us-gov and aws-cn partitions; each region's prices are "
      "in its partition's currency (CNY in AWS China, USD elsewhere); " +
      std::to_string(b.skipped_local_zone_rows) +
      " price rows for Local/Wavelength Zones were left out.");
  if (!b.priced_by_complete.empty()) {
    c.notes.emplace_back(
        "Where no DescribeInstanceTypeOfferings snapshot covers a region (AWS China), a source "
        "marked complete decides what is offered: a type it does not price there is not.");
  }
  if (!b.rounded_blocks.empty()) {
    c.notes.push_back(
        "Capacity Blocks: a rate per accelerator-hour rounded to the cent from a newer source "
        "fills a type and region no per-instance rate covers, as rate x accelerators (" +
        std::to_string(b.rounded_blocks_added) +
        " figures, each noting it), and confirms the per-instance rates it rounds to; it never "
        "replaces one.");
  }
  for (const auto& [source, n] : b.confirmed) {
    const CatalogSource* s = c.FindSource(source);
    c.notes.push_back("Confirmed, not replaced: " + std::to_string(n) + " price figures that " +
                      source + " (" + (s != nullptr ? s->snapshot_date : std::string()) +
                      ") prints equal to the cent keep their own source and date and record "
                      "the confirmation (confirmed_source, confirmed_date).");
  }
  for (const auto& [source, n] : b.rounded_without_figure) {
    c.notes.push_back(std::to_string(n) + " rounded figures of " + source +
                      " have no catalog figure to confirm (a newer figure of their own is "
                      "imported from another file of the same source, or none).");
  }
  for (const std::string& d : b.disagreements) {
    c.notes.push_back("Not confirmed, kept: " + d + ".");
  }
  if (!b.ultraservers.empty()) {
    std::string names;
    for (const auto& [n, u] : b.ultraservers) names += (names.empty() ? "" : ", ") + n;
    c.notes.push_back(
        "UltraServers (" + names +
        ") are records of their own, named by the Capacity Block source: one unit is the whole "
        "UltraServer (its GPU count as the source gives it), sold only through a Capacity Block, "
        "priced per UltraServer-hour in the region of the Local Zone it is delivered in (the "
        "zone kept with the price); no source gives their hosts' vCPUs, memory or network, so "
        "those are null.");
  }
  if (b.inconsistent_block_rows > 0) {
    c.notes.push_back(std::to_string(b.inconsistent_block_rows) +
                      " Capacity Block rows whose per-instance and per-accelerator rates disagree "
                      "(the feed's 2026-01/03 UltraServer rows: the per-GPU rate as the instance "
                      "rate, 0.0 per GPU) were left out.");
  }
  if (!b.unpriced_unknown_types.empty()) {
    std::string names;
    for (const std::string& n : b.unpriced_unknown_types) names += (names.empty() ? "" : ", ") + n;
    c.notes.push_back(
        "Priced but without DescribeInstanceTypes specs, so not in the catalog: " + names + ".");
  }
  c.SetGpus(std::move(b.gpus));
  c.SetInstanceTypes(std::move(b.instance_types));
  return std::move(b.catalog);
}

}  // namespace gpuadvisor
