#include "app/catalog_views.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "app/successors.h"
#include "catalog/catalog_schema.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// Rounds for output so JSON does not carry binary noise (0.80479999999).
ojson AmountJson(std::optional<double> v, int decimals = 6) {
  if (!v) return nullptr;
  double scale = std::pow(10.0, decimals);
  return std::round(*v * scale) / scale;
}

double Gib(double mib) { return std::round(mib / 1024 * 1000) / 1000; }

ojson AcceleratorJson(const Accelerator& a) {
  ojson out = {
      {"kind", AcceleratorKindName(a.kind)},
      {"vendor", a.vendor},
      {"model", a.model},
      {"aws_name", a.aws_name},
      {"count", a.fractional() ? ojson(a.device_equivalents()) : ojson(a.count)},
      {"logical_count", a.logical_count},
      {"partition_size", a.partition_size},
      {"fractional", a.fractional()},
      {"aws_count", a.count},
      {"memory_mib_each", Opt(a.memory_mib_each)},
      {"memory_gib_total",
       a.memory_mib_total ? ojson(Gib(static_cast<double>(*a.memory_mib_total))) : ojson()},
      {"neuron_cores_each", Opt(a.neuron_cores_each)}};
  // Only where the type has its own figure (trn1n): the model's is gpu_spec's.
  if (a.neuronlink_gbyte_s) out["neuronlink_gbyte_s"] = *a.neuronlink_gbyte_s;
  return out;
}

ojson BandJson(const std::optional<SpotBand>& b) {
  if (!b) return nullptr;
  return b->label;
}

// The region's published names (English, Chinese) and, in AWS China, its operator; null for a
// code this build does not name.
ojson RegionNameJson(const std::string& region) {
  const RegionInfo* info = FindRegionInfo(region);
  if (info == nullptr) return nullptr;
  ojson j = {{"en", info->name_en}, {"zh", info->name_zh}};
  if (*info->operator_en != '\0')
    j["operator"] = {{"en", info->operator_en}, {"zh", info->operator_zh}};
  return j;
}

std::optional<int64_t> LocalNvmeGb(const InstanceType& t) {
  if (!t.local_storage_gb) return 0;
  return t.local_nvme ? std::optional<int64_t>(*t.local_storage_gb) : 0;
}

}  // namespace

std::optional<int> Freshness::AgeDays(const std::string& date) const {
  return DaysBetween(date, today);
}

bool Freshness::Stale(const std::string& date) const {
  std::optional<int> age = AgeDays(date);
  return !age || *age > max_price_age_days;
}

ojson InstanceRowJson(const InstanceRow& r, const Freshness& fresh) {
  const InstanceType& t = *r.type;
  const RegionOffer* o = r.offer;
  const Price* od = o && o->on_demand ? &*o->on_demand : nullptr;
  const Price* spot = o && o->spot ? &*o->spot : nullptr;
  ojson j = {
      {"instance_type", t.name},
      {"family", t.family},
      {"retired", t.retired},
      {"region", r.region},
      {"partition", PartitionOf(r.region).id},
      {"currency", CurrencyCode(r.currency)},
      {"offered", o ? Opt(o->offered) : ojson()},
      {"accelerator", AcceleratorJson(t.accelerator)},
      // 0 = unknown (an UltraServer's hosts): null, never 0.
      {"vcpus", t.vcpus > 0 ? ojson(t.vcpus) : ojson()},
      {"memory_gib", t.memory_mib > 0 ? ojson(Gib(static_cast<double>(t.memory_mib))) : ojson()},
      {"unit_of_purchase", t.ultraserver() ? ojson(t.unit_of_purchase) : ojson("instance")},
      {"network_gbit_s", Opt(t.network_gbit_s)},
      {"network_gbps", Opt(t.network_gbit_s)},  // the same Gbit/s, the name the v1 JSON contract
                                                // uses (doc/formats.md)
      {"efa", t.efa},
      {"max_efa_interfaces", t.max_efa_interfaces},
      {"local_nvme_gb", Opt(LocalNvmeGb(t))},
      {MoneyKey("on_demand_usd_per_hour", r.currency), AmountJson(r.on_demand_usd_per_hour)},
      {MoneyKey("spot_usd_per_hour", r.currency), AmountJson(r.spot_usd_per_hour)},
      {"spot_estimated", spot ? ojson(spot->estimated) : ojson()},
      {"spot_interruption_band", o ? BandJson(o->spot_band) : ojson()},
      {MoneyKey("reserved_1y_no_upfront_usd_per_hour", r.currency),
       o && o->reserved_1y_no_upfront ? AmountJson(o->reserved_1y_no_upfront->usd_per_hour)
                                      : ojson()},
      {MoneyKey("usd_per_gpu_hour", r.currency), AmountJson(r.usd_per_gpu_hour)},
      {MoneyKey("usd_per_bf16_tflop_hour", r.currency), AmountJson(r.usd_per_bf16_tflop_hour, 8)},
      {MoneyKey("gpu_memory_gib_per_usd", r.currency), AmountJson(r.gpu_memory_gib_per_usd, 3)},
      {"price_source", od ? ojson(od->from.source) : ojson()},
      {"price_date", od ? ojson(od->from.date) : ojson()},
      // A confirmed figure is as old as its confirmation (Price::dated_by).
      {"price_age_days", od ? Opt(fresh.AgeDays(od->dated_by().date)) : ojson()},
      {"price_stale", od ? ojson(fresh.Stale(od->dated_by().date)) : ojson()},
      {"price_confirmed_date",
       od && !od->confirmed.date.empty() ? ojson(od->confirmed.date) : ojson()},
      {"spot_source", spot ? ojson(spot->from.source) : ojson()},
      {"spot_date", spot ? ojson(spot->from.date) : ojson()},
  };
  return j;
}

JsonDoc InstancesJson(const std::vector<InstanceRow>& rows, const Freshness& fresh) {
  ojson out = ojson::array();
  for (const InstanceRow& r : rows) out.push_back(InstanceRowJson(r, fresh));
  return MakeJsonDoc(std::move(out));
}

Table InstancesTable(const std::vector<InstanceRow>& rows) {
  Table t;
  bool all_regions = false, any_retired = false;
  PriceColumns money;
  for (const InstanceRow& r : rows) {
    all_regions |= r.region != rows.front().region;
    any_retired |= r.type->retired;
    money.Add(r.currency);
  }
  // The type's name alone: it is the key a script joins on (CSV), so "retired" has a column.
  t.AddColumn(Tr("instance type"));
  if (any_retired) t.AddColumn(Tr("status"));
  if (all_regions) t.AddColumn(Tr("region"));
  t.AddColumn(Tr("accelerator"));
  t.AddColumn(Tr("GPUs"), true);
  t.AddColumn(Tr("GiB/GPU"), true);
  t.AddColumn(Tr("vCPU"), true);
  t.AddColumn(Tr("RAM GiB"), true);
  t.AddColumn(Tr("net Gbps"), true);
  t.AddColumn(Tr("EFA"));
  t.AddColumn(money.Header(Tr("/h on-demand")), true);
  t.AddColumn(money.Header(Tr("/h spot")), true);
  t.AddColumn(money.Header(Tr("/GPU·h")), true);
  t.AddColumn(money.Header(Tr("/BF16 PFLOP·h")), true);
  t.AddColumn(Trf("GiB per {0}", money.Header(Tr("/h"))), true);
  for (const InstanceRow& r : rows) {
    const InstanceType& it = *r.type;
    const Accelerator& a = it.accelerator;
    std::vector<std::optional<std::string>> cells;
    cells.push_back(it.name);
    if (any_retired)
      cells.push_back(it.retired ? std::optional<std::string>("retired") : "current");
    if (all_regions) cells.push_back(r.region);
    cells.push_back(a.model);
    cells.push_back(a.fractional() ? FormatFixed(a.device_equivalents(), 3)
                                   : std::to_string(a.count));
    cells.push_back(a.memory_mib_each ? Cell(std::optional<double>(*a.memory_mib_each / 1024.0), 1)
                                      : std::nullopt);
    // 0 = unknown (an UltraServer's hosts): an empty cell.
    cells.push_back(it.vcpus > 0 ? std::optional<std::string>(std::to_string(it.vcpus))
                                 : std::nullopt);
    cells.push_back(it.memory_mib > 0 ? std::optional<std::string>(FormatFixed(
                                            static_cast<double>(it.memory_mib) / 1024, 0))
                                      : std::nullopt);
    cells.push_back(Cell(it.network_gbit_s, 0));
    cells.push_back(it.efa ? Tr("yes") : Tr("no"));
    cells.push_back(money.Cell(r.on_demand_usd_per_hour, 3, r.currency));
    std::optional<std::string> spot = money.Cell(r.spot_usd_per_hour, 3, r.currency);
    if (spot && r.offer && r.offer->spot && r.offer->spot->estimated) *spot = "~" + *spot;
    cells.push_back(spot);
    cells.push_back(money.Cell(r.usd_per_gpu_hour, 3, r.currency));
    cells.push_back(
        r.usd_per_bf16_tflop_hour
            ? money.Cell(std::optional<double>(*r.usd_per_bf16_tflop_hour * 1000), 2, r.currency)
            : std::nullopt);
    cells.push_back(Cell(r.gpu_memory_gib_per_usd, 1));
    t.AddRow(std::move(cells));
  }
  return t;
}

ojson GpuSpecJson(const GpuSpec& g) {
  // The catalog file's own record (catalog/catalog_schema.h), so the two cannot differ, plus
  // `memory_bw_gbps`: the name the v1 JSON contract requires (doc/formats.md), the same GB/s as
  // `memory_bw_gbyte_s`.
  const ojson spec = GpuSpecToJson(g);
  ojson out = ojson::object();
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    out[it.key()] = *it;
    if (it.key() == "memory_bw_gbyte_s") out["memory_bw_gbps"] = *it;
  }
  return out;
}

ojson ShowJson(const Catalog& c, const InstanceType& t, const std::string& region,
               const Freshness& fresh) {
  ojson j = InstanceRowJson(MakeInstanceRow(c, t, region), fresh);
  j["cpu"] = {{"vendor", t.cpu_vendor}, {"architectures", t.cpu_architectures}};
  j["network"] = {{"performance", t.network_performance},
                  {"baseline_gbit_s", Opt(t.network_baseline_gbit_s)},
                  {"peak_gbit_s", Opt(t.network_peak_gbit_s)},
                  {"cards", t.network_cards},
                  {"max_interfaces", t.max_network_interfaces},
                  {"efa", t.efa},
                  {"max_efa_interfaces", t.max_efa_interfaces},
                  {"ena_srd", t.ena_srd}};
  j["local_storage"] = {{"total_gb", Opt(t.local_storage_gb)},
                        {"disk_count", t.local_disk_count},
                        {"disk_gb", Opt(t.local_disk_gb)},
                        {"type", t.local_disk_type},
                        {"nvme", t.local_nvme}};
  j["ebs"] = {{"baseline_mbps", Opt(t.ebs_baseline_mbps)}, {"max_mbps", Opt(t.ebs_max_mbps)}};
  j["usage_classes"] = t.usage_classes;
  j["capacity_block"] = t.HasUsageClass("capacity-block");
  j["placement_strategies"] = t.placement_strategies;
  j["retired_note"] = t.retired_note.empty() ? ojson() : ojson(t.retired_note);
  ojson successors = ojson::array();
  for (const Successor& s : RetiredSuccessors(c, t, region)) {
    successors.push_back({{"use", s.use}, {"instance_type", s.type->name}});
  }
  j["successors"] = std::move(successors);
  j["spec_source"] = t.spec_from.source;
  j["spec_date"] = t.spec_from.date;
  ojson regions = ojson::array();
  for (const RegionOffer& o : t.regions) {
    auto price = [&](const std::optional<Price>& p) {
      return p ? AmountJson(p->usd_per_hour) : ojson();
    };
    regions.push_back({
        {"region", o.region},
        {"region_name", RegionNameJson(o.region)},
        {"partition", PartitionOf(o.region).id},
        {"currency", CurrencyCode(o.currency())},
        {"offered", Opt(o.offered)},
        {"az_ids", o.az_ids},
        {MoneyKey("on_demand_usd_per_hour", o.currency()), price(o.on_demand)},
        {MoneyKey("spot_usd_per_hour", o.currency()), price(o.spot)},
        {"spot_estimated", o.spot ? ojson(o.spot->estimated) : ojson()},
        {"spot_note", o.spot && !o.spot->note.empty() ? ojson(o.spot->note) : ojson()},
        {"spot_interruption_band", BandJson(o.spot_band)},
        {"spot_savings_pct", o.spot_band ? ojson(o.spot_band->savings_pct) : ojson()},
        {MoneyKey("reserved_1y_no_upfront_usd_per_hour", o.currency()),
         price(o.reserved_1y_no_upfront)},
        {"price_source", o.on_demand ? ojson(o.on_demand->from.source) : ojson()},
        {"price_date", o.on_demand ? ojson(o.on_demand->from.date) : ojson()},
        {"price_stale", o.on_demand ? ojson(fresh.Stale(o.on_demand->dated_by().date)) : ojson()},
        {"price_confirmed_source", o.on_demand && !o.on_demand->confirmed.source.empty()
                                       ? ojson(o.on_demand->confirmed.source)
                                       : ojson()},
        {"price_confirmed_date", o.on_demand && !o.on_demand->confirmed.date.empty()
                                     ? ojson(o.on_demand->confirmed.date)
                                     : ojson()},
        {"spot_source", o.spot ? ojson(o.spot->from.source) : ojson()},
        {"reserved_source",
         o.reserved_1y_no_upfront ? ojson(o.reserved_1y_no_upfront->from.source) : ojson()},
        {MoneyKey("capacity_block_usd_per_hour", o.currency()), price(o.capacity_block)},
        {"capacity_block_date", o.capacity_block ? ojson(o.capacity_block->from.date) : ojson()},
        // The offer it was read from (`catalog update --aws`): its start, zone and fee.
        {"capacity_block_note", o.capacity_block && !o.capacity_block->note.empty()
                                    ? ojson(o.capacity_block->note)
                                    : ojson()},
        {"reserved_1y_offer", o.reserved_1y_no_upfront ? ojson(kReserved1yTerm) : ojson()},
        {"reserved_1y_date",
         o.reserved_1y_no_upfront ? ojson(o.reserved_1y_no_upfront->from.date) : ojson()},
        {"reserved", ReservedJson(o)},
        {"savings_plans", SavingsPlansJson(o)},
        {"history", HistoryJson(o)},
    });
  }
  j["regions"] = regions;
  const GpuSpec* g = c.GpuOf(t);
  j["gpu_spec"] = g ? GpuSpecJson(*g) : ojson();
  return j;
}

Table ShowRegionsTable(const InstanceType& t, const Freshness& fresh) {
  Table tab;
  PriceColumns money;
  for (const RegionOffer& o : t.regions) money.Add(o.currency());
  tab.AddColumn(Tr("region"));
  tab.AddColumn(Tr("offered"));
  tab.AddColumn(Tr("AZs"), true);
  tab.AddColumn(money.Header(Tr("/h on-demand")), true);
  tab.AddColumn(money.Header(Tr("/h spot")), true);
  tab.AddColumn(Tr("spot interruptions"));
  tab.AddColumn(money.Header(Tr("/h 1y RI no-upfront")), true);
  tab.AddColumn(Tr("price source (date)"));
  for (const RegionOffer& o : t.regions) {
    auto price = [&](const std::optional<Price>& p) {
      return p ? money.Cell(p->usd_per_hour, 3, o.currency()) : std::nullopt;
    };
    std::optional<std::string> spot = price(o.spot);
    if (spot && o.spot->estimated) *spot = "~" + *spot;
    std::optional<std::string> src;
    if (o.on_demand) {
      src = o.on_demand->from.source + " (" + o.on_demand->from.date + ")" +
            (o.on_demand->confirmed.date.empty()
                 ? std::string()
                 : Trf(", confirmed {0}", o.on_demand->confirmed.date)) +
            (fresh.Stale(o.on_demand->dated_by().date) ? " stale" : "");
    }
    tab.AddRow(
        {o.region,
         o.offered ? std::optional<std::string>(*o.offered ? Tr("yes") : Tr("no")) : std::nullopt,
         std::to_string(o.az_ids.size()), price(o.on_demand), spot,
         o.spot_band ? std::optional<std::string>(o.spot_band->label) : std::nullopt,
         price(o.reserved_1y_no_upfront), src});
  }
  return tab;
}

std::vector<GpuSummary> SummarizeGpus(const Catalog& c, bool include_retired) {
  std::vector<GpuSummary> out;
  for (const GpuSpec& g : c.gpus()) {
    GpuSummary s{&g, {}, std::nullopt, std::nullopt};
    for (const InstanceType& t : c.instance_types()) {
      if (c.GpuOf(t) != &g || (t.retired && !include_retired)) continue;
      s.types.push_back(&t);
      for (const RegionOffer& o : t.regions) {
        // Cheapest in USD: a CNY price is not comparable without a rate.
        if (o.currency() != Currency::kUsd) continue;
        InstanceRow r = MakeInstanceRow(c, t, o.region);
        if (r.usd_per_gpu_hour && (!s.cheapest_on_demand ||
                                   *r.usd_per_gpu_hour < *s.cheapest_on_demand->usd_per_gpu_hour)) {
          s.cheapest_on_demand = r;
        }
        double devices = t.accelerator.device_equivalents();
        if (r.spot_usd_per_hour && devices > 0 &&
            (!s.cheapest_spot || *r.spot_usd_per_hour / devices <
                                     *s.cheapest_spot->spot_usd_per_hour /
                                         s.cheapest_spot->type->accelerator.device_equivalents())) {
          s.cheapest_spot = r;
        }
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

ojson CheapestJson(const std::optional<InstanceRow>& r, bool spot) {
  if (!r) return nullptr;
  double devices = r->type->accelerator.device_equivalents();
  double usd = spot ? *r->spot_usd_per_hour / devices : *r->usd_per_gpu_hour;
  const RegionOffer* o = r->offer;
  ojson j = {{"instance_type", r->type->name},
             {"region", r->region},
             {"usd_per_gpu_hour", AmountJson(usd)},
             {"usd_per_hour", AmountJson(spot ? r->spot_usd_per_hour : r->on_demand_usd_per_hour)}};
  if (spot) j["estimated"] = o && o->spot && o->spot->estimated;
  const Price* p =
      o ? (spot ? (o->spot ? &*o->spot : nullptr) : (o->on_demand ? &*o->on_demand : nullptr))
        : nullptr;
  j["source"] = p ? ojson(p->from.source) : ojson();
  j["date"] = p ? ojson(p->from.date) : ojson();
  return j;
}

}  // namespace

JsonDoc GpusJson(const std::vector<GpuSummary>& gpus) {
  ojson out = ojson::array();
  for (const GpuSummary& s : gpus) {
    ojson j = GpuSpecJson(*s.gpu);
    ojson types = ojson::array();
    for (const InstanceType* t : s.types) types.push_back(t->name);
    j["instance_types"] = types;
    j["cheapest_on_demand"] = CheapestJson(s.cheapest_on_demand, false);
    j["cheapest_spot"] = CheapestJson(s.cheapest_spot, true);
    out.push_back(std::move(j));
  }
  return MakeJsonDoc(std::move(out));
}

Table GpusTable(const std::vector<GpuSummary>& gpus) {
  Table t;
  t.AddColumn(Tr("model"));
  t.AddColumn(Tr("vendor"));
  t.AddColumn(Tr("architecture"));
  t.AddColumn(Tr("GiB"), true);
  t.AddColumn(Tr("GB/s"), true);
  t.AddColumn(Tr("BF16 TFLOP/s"), true);
  t.AddColumn(Tr("FP16 TFLOP/s"), true);
  t.AddColumn(Tr("FP8 TFLOP/s"), true);
  t.AddColumn(Tr("INT8 TOPS"), true);
  t.AddColumn(Tr("FP64 TFLOP/s"), true);
  t.AddColumn(Tr("NVENC"), true);
  t.AddColumn(Tr("types"), true);
  t.AddColumn(Tr("cheapest $/GPU·h (type, region)"));
  for (const GpuSummary& s : gpus) {
    const GpuSpec& g = *s.gpu;
    std::optional<std::string> cheapest;
    if (s.cheapest_on_demand) {
      cheapest = FormatFixed(*s.cheapest_on_demand->usd_per_gpu_hour, 3) + " (" +
                 s.cheapest_on_demand->type->name + ", " + s.cheapest_on_demand->region + ")";
    }
    // "*": some figure was derived (clocks x units, a sibling part); see the footnote.
    std::string model = g.confidence == "derived" ? g.model + "*" : g.model;
    t.AddRow({model, g.vendor, g.architecture, Cell(g.memory_gib, 0), Cell(g.memory_bw_gbyte_s, 0),
              Cell(g.bf16_tflops, 1), Cell(g.fp16_tflops, 1), Cell(g.fp8_tflops, 1),
              Cell(g.int8_tops, 1), Cell(g.fp64_tflops, 2),
              g.nvenc ? std::optional<std::string>(std::to_string(*g.nvenc)) : std::nullopt,
              std::to_string(s.types.size()), cheapest});
  }
  return t;
}

std::string GpusTableFootnote(const std::vector<GpuSummary>& gpus) {
  std::string out;
  for (const GpuSummary& s : gpus) {
    if (s.gpu->confidence != "derived") continue;
    if (out.empty()) out = "* figures derived, not published (show them with --json):\n";
    out += "  " + s.gpu->model + ": " + s.gpu->derivation + "\n";
  }
  return out;
}

namespace {

// What `catalog info` counts: type-regions with each kind of price, and figures per source.
struct CatalogCounts {
  int current = 0, retired = 0, priced_rows = 0, spot_rows = 0, spot_estimated = 0, block_rows = 0;
  std::set<std::string> families;
  std::map<std::string, int> prices_by_source;
};

CatalogCounts CountCatalog(const Catalog& c) {
  CatalogCounts n;
  for (const InstanceType& t : c.instance_types()) {
    (t.retired ? n.retired : n.current)++;
    n.families.insert(t.family);
    for (const RegionOffer& o : t.regions) {
      if (o.on_demand) {
        ++n.priced_rows;
        n.prices_by_source[o.on_demand->from.source]++;
      }
      if (o.reserved_1y_no_upfront) n.prices_by_source[o.reserved_1y_no_upfront->from.source]++;
      if (o.capacity_block) {
        ++n.block_rows;
        n.prices_by_source[o.capacity_block->from.source]++;
      }
      if (o.spot) {
        ++n.spot_rows;
        n.spot_estimated += o.spot->estimated;
        n.prices_by_source[o.spot->from.source]++;
      }
    }
  }
  return n;
}

// A price source is stale when undated or older than the limit; specs are never stale.
bool PriceKind(const CatalogSource& s) { return s.kind != "specs" && s.kind != "availability"; }

// The age of the catalog's price figures of one kind: each figure keeps its own date, so a
// catalog updated for a few regions still holds the old figures of the others.
struct FigureAges {
  const char* kind = "";
  int figures = 0;
  int older = 0;      // dated, older than --max-price-age
  int undated = 0;    // no full date: its age is unknown
  int confirmed = 0;  // dated by a newer source's confirmation
  // Per confirmation (source, date): how many figures it confirmed.
  std::map<std::pair<std::string, std::string>, int> confirmations;
  std::optional<Provenance> oldest, newest;  // dated figures only
  std::string oldest_type, oldest_region;    // where the oldest one is
  std::set<std::string> undated_sources;
  void Add(const Provenance& from, const InstanceType& t, const RegionOffer& o,
           const Freshness& fresh) {
    ++figures;
    const std::optional<int> age = fresh.AgeDays(from.date);
    if (!ParseIsoDate(from.date)) {
      ++undated;
      undated_sources.insert(from.source);
      return;
    }
    if (!age || *age > fresh.max_price_age_days) ++older;
    if (!oldest || OlderFigure(from, *oldest)) {
      oldest = from;
      oldest_type = t.name;
      oldest_region = o.region;
    }
    if (!newest || OlderFigure(*newest, from)) newest = from;
  }
  // A price is as old as its confirmation when a newer source confirmed it (Price::dated_by).
  void Add(const Price& p, const InstanceType& t, const RegionOffer& o, const Freshness& fresh) {
    if (!p.confirmed.date.empty()) {
      ++confirmed;
      ++confirmations[{p.confirmed.source, p.confirmed.date}];
    }
    Add(p.dated_by(), t, o, fresh);
  }
};

// Every price figure of the catalog, by kind: on-demand, spot (observed or estimated), reserved
// (each RI term once: the 1-year standard no-upfront one as every command reads it), savings
// plans and Capacity Blocks.
std::vector<FigureAges> AgeFigures(const Catalog& c, const Freshness& fresh) {
  std::vector<FigureAges> kinds(5);
  static const char* const kNames[] = {N_("on-demand"), N_("spot"), N_("reserved"),
                                       N_("savings-plan"), N_("capacity-block")};
  for (size_t i = 0; i < kinds.size(); ++i) kinds[i].kind = kNames[i];
  for (const InstanceType& t : c.instance_types()) {
    for (const RegionOffer& o : t.regions) {
      if (o.on_demand) kinds[0].Add(*o.on_demand, t, o, fresh);
      if (o.spot) kinds[1].Add(*o.spot, t, o, fresh);
      if (o.reserved_1y_no_upfront) kinds[2].Add(*o.reserved_1y_no_upfront, t, o, fresh);
      for (const ReservedPrice& r : o.reserved) {
        const bool headline =
            r.years == 1 && r.offering_class == "standard" && r.payment == "no-upfront";
        if (!headline || !o.reserved_1y_no_upfront) kinds[2].Add(r.from, t, o, fresh);
      }
      for (const SavingsPlanRate& p : o.savings_plans) kinds[3].Add(p.from, t, o, fresh);
      if (o.capacity_block) kinds[4].Add(*o.capacity_block, t, o, fresh);
    }
  }
  return kinds;
}

// All kinds together; `oldest_kind` the kind of the oldest dated figure.
FigureAges AllFigures(const std::vector<FigureAges>& kinds, const char** oldest_kind) {
  FigureAges all;
  *oldest_kind = nullptr;
  for (const FigureAges& k : kinds) {
    all.figures += k.figures;
    all.older += k.older;
    all.undated += k.undated;
    all.confirmed += k.confirmed;
    for (const auto& [by, n] : k.confirmations) all.confirmations[by] += n;
    all.undated_sources.insert(k.undated_sources.begin(), k.undated_sources.end());
    if (k.oldest && (!all.oldest || OlderFigure(*k.oldest, *all.oldest))) {
      all.oldest = k.oldest;
      all.oldest_type = k.oldest_type;
      all.oldest_region = k.oldest_region;
      *oldest_kind = k.kind;
    }
    if (k.newest && (!all.newest || OlderFigure(*all.newest, *k.newest))) all.newest = k.newest;
  }
  return all;
}

ojson OldestJson(const FigureAges& k, const Freshness& fresh, const char* kind) {
  if (!k.oldest) return nullptr;
  ojson j = {{"date", k.oldest->date},
             {"age_days", Opt(fresh.AgeDays(k.oldest->date))},
             {"source", k.oldest->source},
             {"instance_type", k.oldest_type},
             {"region", k.oldest_region}};
  if (kind != nullptr) j["kind"] = kind;
  return j;
}

ojson FigureAgesJson(const FigureAges& k, const Freshness& fresh, const char* oldest_kind) {
  return {{"figures", k.figures},
          {"stale", k.older + k.undated},
          {"older_than_max_age", k.older},
          {"undated", k.undated},
          {"confirmed", k.confirmed},
          {"undated_sources",
           ojson(std::vector<std::string>(k.undated_sources.begin(), k.undated_sources.end()))},
          {"oldest", OldestJson(k, fresh, oldest_kind)},
          {"newest_date", k.newest ? ojson(k.newest->date) : ojson()}};
}

// "2026-01-21 (319 days, vantage-cn-2026-08)"
std::string OldestText(const FigureAges& k, const Freshness& fresh) {
  const std::optional<int> age = fresh.AgeDays(k.oldest->date);
  return age ? Trf("{0} ({1} days, {2})", k.oldest->date, *age, k.oldest->source)
             : Trf("{0} ({1})", k.oldest->date, k.oldest->source);
}

}  // namespace

JsonDoc CatalogInfoJson(const Catalog& c, const Freshness& fresh, const CatalogInUse& in_use) {
  CatalogCounts n = CountCatalog(c);
  ojson sources = ojson::array();
  for (const CatalogSource& s : c.sources) {
    std::optional<int> age = fresh.AgeDays(s.snapshot_date);
    const bool price_kind = PriceKind(s);
    sources.push_back(
        {{"id", s.id},
         {"name", s.name},
         {"kind", s.kind},
         {"snapshot_date", s.snapshot_date.empty() ? ojson() : ojson(s.snapshot_date)},
         {"age_days", Opt(age)},
         {"stale", price_kind ? ojson(fresh.Stale(s.snapshot_date)) : ojson()},
         {"figures_used", n.prices_by_source.count(s.id) ? n.prices_by_source[s.id] : 0},
         {"origin", s.origin},
         {"description", s.description}});
  }
  ojson corrections = ojson::array();
  for (const Correction& k : c.corrections) {
    corrections.push_back(
        {{"subject", k.subject}, {"from", k.from}, {"to", k.to}, {"reason", k.reason}});
  }
  std::string newest = c.NewestPriceDate();
  const std::vector<FigureAges> kinds = AgeFigures(c, fresh);
  const char* oldest_kind = nullptr;
  const FigureAges all = AllFigures(kinds, &oldest_kind);
  ojson by_kind = ojson::array();
  for (const FigureAges& k : kinds) {
    ojson j = {{"kind", k.kind}};
    j.update(FigureAgesJson(k, fresh, nullptr));
    by_kind.push_back(std::move(j));
  }
  ojson figures = FigureAgesJson(all, fresh, oldest_kind);
  figures["by_kind"] = std::move(by_kind);
  ojson confirmations = ojson::array();
  for (const auto& [by, count] : all.confirmations) {
    confirmations.push_back({{"source", by.first}, {"date", by.second}, {"figures", count}});
  }
  figures["confirmations"] = std::move(confirmations);
  const std::string oldest = all.oldest ? all.oldest->date : "";
  ojson doc = ojson{{"schema", c.schema},
                    {"generated_at", c.generated_at},
                    {"generator", c.generator},
                    {"counts",
                     {{"instance_types", c.instance_types().size()},
                      {"current", n.current},
                      {"retired", n.retired},
                      {"families", n.families.size()},
                      {"accelerator_models", c.gpus().size()},
                      {"regions", c.regions().size()},
                      {"priced_type_regions", n.priced_rows},
                      {"spot_type_regions", n.spot_rows},
                      {"spot_estimated", n.spot_estimated},
                      {"capacity_block_type_regions", n.block_rows}}},
                    {"newest_price_date", newest},
                    {"oldest_price_date", oldest.empty() ? ojson() : ojson(oldest)},
                    {"max_price_age_days", fresh.max_price_age_days},
                    {"prices_stale", all.older > 0},
                    {"price_figures", figures},
                    {"sources", sources},
                    {"corrections", corrections},
                    {"notes", c.notes},
                    {"regions", c.regions()}};
  if (!in_use.kind.empty()) {
    doc["catalog_in_use"] = {{"kind", in_use.kind},
                             {"path", in_use.path.empty() ? ojson() : ojson(in_use.path)},
                             {"newest_price_date", newest.empty() ? ojson() : ojson(newest)},
                             {"price_age_days", Opt(fresh.AgeDays(newest))},
                             {"oldest_price_date", oldest.empty() ? ojson() : ojson(oldest)},
                             {"oldest_price_age_days", Opt(fresh.AgeDays(oldest))},
                             {"stale_price_figures", all.older + all.undated}};
  }
  return MakeJsonDoc(doc);
}

std::string CatalogInUseLine(const Catalog& c, const Freshness& fresh, const CatalogInUse& in_use) {
  std::string line = "in use: ";
  if (in_use.kind == "user") {
    line += "the user catalog " + in_use.path + " (from `gpuadvisor catalog update`)";
  } else if (in_use.kind == "file") {
    line += "the catalog file " + in_use.path;
  } else {
    line += "the embedded catalog";
  }
  // The oldest figure first: a catalog updated today for a few regions is no fresher than the
  // figures it kept.
  const char* kind = nullptr;
  const FigureAges all = AllFigures(AgeFigures(c, fresh), &kind);
  if (all.oldest && fresh.AgeDays(all.oldest->date)) {
    line += "; " + Trf("oldest price {0}, {1} days old", all.oldest->date,
                       *fresh.AgeDays(all.oldest->date));
  }
  const std::string newest = c.NewestPriceDate();
  if (const std::optional<int> age = fresh.AgeDays(newest)) {
    line += "; newest prices " + newest + ", " + std::to_string(*age) + " days old";
  }
  return line + "\n";
}

std::string CatalogFigureAgesText(const Catalog& c, const Freshness& fresh) {
  const std::vector<FigureAges> kinds = AgeFigures(c, fresh);
  const char* oldest_kind = nullptr;
  const FigureAges all = AllFigures(kinds, &oldest_kind);
  std::string out = Trf("price figures: {0}, {1} older than {2} days, {3} undated", all.figures,
                        all.older, fresh.max_price_age_days, all.undated) +
                    "\n";
  Table t;
  t.AddColumn(Tr("kind"));
  t.AddColumn(Tr("figures"), true);
  t.AddColumn(Trf("older than {0} d", fresh.max_price_age_days), true);
  t.AddColumn(Tr("undated"), true);
  t.AddColumn(Tr("oldest dated figure (age, source, where)"));
  for (const FigureAges& k : kinds) {
    std::optional<std::string> where;
    if (k.oldest) where = OldestText(k, fresh) + ", " + k.oldest_type + " " + k.oldest_region;
    t.AddRow({Tr(k.kind), std::to_string(k.figures), std::to_string(k.older),
              std::to_string(k.undated), where});
  }
  out += t.Render(OutputFormat::kTable, false) + "\n";
  for (const auto& [by, count] : all.confirmations) {
    out += Trf("{0} figures confirmed on {1} by {2}, each dated by its confirmation", count,
               by.second, by.first) +
           "\n";
  }
  return out;
}

std::string CatalogInfoHead(const Catalog& c) {
  const CatalogCounts n = CountCatalog(c);
  return "catalog " + c.schema + ", built " + c.generated_at + "\n" +
         std::to_string(c.instance_types().size()) + " instance types (" +
         std::to_string(n.current) + " current, " + std::to_string(n.retired) + " retired) in " +
         std::to_string(n.families.size()) + " families; " + std::to_string(c.gpus().size()) +
         " accelerator models; " + std::to_string(c.regions().size()) + " regions; " +
         std::to_string(n.priced_rows) + " priced type-regions, " + std::to_string(n.spot_rows) +
         " with spot (" + std::to_string(n.spot_estimated) +
         " estimated from spot-advisor savings)\n\n";
}

Table CatalogInfoTable(const Catalog& c, const Freshness& fresh) {
  const CatalogCounts n = CountCatalog(c);
  Table t;
  t.AddColumn(Tr("source"));
  t.AddColumn(Tr("kind"));
  t.AddColumn(Tr("snapshot"));
  t.AddColumn(Tr("age days"), true);
  t.AddColumn(Tr("figures used"), true);
  t.AddColumn(Tr("stale"));
  for (const CatalogSource& s : c.sources) {
    const std::optional<int> age = fresh.AgeDays(s.snapshot_date);
    const auto used = n.prices_by_source.find(s.id);
    t.AddRow({s.id, s.kind, s.snapshot_date.empty() ? "undated" : s.snapshot_date,
              age ? std::optional<std::string>(std::to_string(*age)) : std::nullopt,
              std::to_string(used == n.prices_by_source.end() ? 0 : used->second),
              PriceKind(s)
                  ? std::optional<std::string>(fresh.Stale(s.snapshot_date) ? "STALE" : "ok")
                  : std::nullopt});
  }
  return t;
}

std::string CatalogInfoNotes(const Catalog& c) {
  std::string out = "\ncorrections:\n";
  for (const Correction& k : c.corrections) {
    out += "  " + k.subject + ": " + k.from + " -> " + k.to + " (" + k.reason + ")\n";
  }
  out += "\nbuild rules:\n";
  for (const std::string& note : c.notes) out += "  - " + note + "\n";
  return out;
}

std::optional<std::string> CatalogStaleWarning(const Catalog& c, const Freshness& fresh) {
  // Counted per figure, not from the newest source's date: an update of some regions leaves the
  // others' figures as old as they were.
  const char* kind = nullptr;
  const FigureAges all = AllFigures(AgeFigures(c, fresh), &kind);
  if (all.older == 0) return std::nullopt;
  std::string line =
      Trf("{0} of {1} price figures are older than {2} days, the oldest: {3} {4}", all.older,
          all.figures, fresh.max_price_age_days, Tr(kind), OldestText(all, fresh));
  if (all.undated > 0) line += Trf("; {0} more are undated", all.undated);
  return line + Tr("; refresh with `gpuadvisor catalog update`");
}

std::optional<std::string> StalePricesWarning(const std::vector<Provenance>& used,
                                              const Freshness& fresh) {
  std::map<std::pair<std::string, std::string>, int> stale;  // (source, date) -> prices
  int count = 0;
  for (const Provenance& p : used) {
    if (!fresh.Stale(p.date)) continue;
    ++stale[{p.source, p.date}];
    ++count;
  }
  if (stale.empty()) return std::nullopt;
  std::string list;
  for (const auto& [key, n] : stale) {
    const std::optional<int> age = fresh.AgeDays(key.second);
    list += (list.empty() ? "" : ", ") + key.first + " (" +
            (age ? Trf("{0}, {1} days", key.second, *age) : std::string(Tr("undated"))) + ")";
  }
  return count == 1 ? Trf("{0} price is undated or older than {1} days: {2}; refresh with "
                          "`gpuadvisor catalog update`",
                          count, fresh.max_price_age_days, list)
                    : Trf("{0} prices are undated or older than {1} days: {2}; refresh with "
                          "`gpuadvisor catalog update`",
                          count, fresh.max_price_age_days, list);
}

std::vector<std::string> StaleWarnings(const std::vector<InstanceRow>& rows,
                                       const Freshness& fresh) {
  std::vector<Provenance> used;
  for (const InstanceRow& r : rows) {
    if (r.offer && r.offer->on_demand) used.push_back(r.offer->on_demand->from);
  }
  std::optional<std::string> line = StalePricesWarning(used, fresh);
  return line ? std::vector<std::string>{*line} : std::vector<std::string>{};
}

}  // namespace gpuadvisor
