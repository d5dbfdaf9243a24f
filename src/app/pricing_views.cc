#include "app/catalog_views.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

ojson SpotJson(const SpotOverhead& s) {
  return {{"interruptions_per_month", s.interruptions_per_month},
          {"mtbi_hours", s.mtbi_hours},
          {"checkpoint_write_s", s.checkpoint_write_s},
          {"checkpoint_read_s", s.checkpoint_read_s},
          {"checkpoint_interval_s", s.interval_s},
          {"optimal_checkpoint_interval_s", s.optimal_interval_s},
          {"overhead_fraction", s.overhead_fraction}};
}

ojson OptionJson(const PurchaseOptionCost& c, const Freshness& fresh, Currency cur) {
  ojson j = {{"option", c.option},
             {"priced", c.priced},
             {"commitment", c.commitment},
             {MoneyKey("usd_per_hour", cur), Opt(c.usd_per_hour)},
             {MoneyKey("upfront_usd", cur), Opt(c.upfront_usd)},
             {"term_months", Opt(c.term_months)},
             {MoneyKey("total_usd", cur), Opt(c.total_usd)},
             {MoneyKey("usd_per_used_hour", cur), Opt(c.usd_per_used_hour)},
             {"break_even_utilization", Opt(c.break_even_utilization)},
             {"spot", c.spot ? SpotJson(*c.spot) : ojson(nullptr)},
             {"suitable", c.suitable},
             {"estimated", c.estimated},
             {"price_source", c.priced ? ojson(c.from.source) : ojson(nullptr)},
             {"price_date", c.priced ? ojson(c.from.date) : ojson(nullptr)},
             {"price_stale", c.priced && fresh.Stale(c.from.date)},
             {"note", c.note.empty() ? ojson(nullptr) : ojson(c.note)}};
  return j;
}

std::optional<std::string> AmountCell(const std::optional<double>& v) {
  if (!v) return std::nullopt;
  return FormatFixed(*v, *v >= 1000 ? 0 : 2);
}

}  // namespace

JsonDoc PricingJson(const PricingResult& r, const Freshness& fresh) {
  const UsagePattern& u = r.usage;
  ojson options = ojson::array();
  const Currency cur = PartitionOf(r.region).currency;
  for (const PurchaseOptionCost& c : r.options) options.push_back(OptionJson(c, fresh, cur));
  return MakeJsonDoc(
      ojson{{"instance_type", r.instance_type},
            {"region", r.region},
            {"currency", CurrencyCode(cur)},
            {"usage",
             {{"hours_per_month", u.hours_per_month},
              {"months", u.months},
              {"instances", u.instances},
              {"utilization", u.hours_per_month / kHoursPerMonth},
              {"interruptible", u.interruptible},
              {"checkpoint_gib", u.checkpoint_gib},
              {"checkpoint_interval_s",
               u.checkpoint_interval_s > 0 ? ojson(u.checkpoint_interval_s) : ojson(nullptr)},
              {"restart_s", u.restart_s}}},
            {"options", options},
            {"cheapest", r.cheapest >= 0 ? ojson(r.options[r.cheapest].option) : ojson(nullptr)},
            {"capacity_blocks", r.capacity_blocks},
            {"capacity_block_days", Opt(r.capacity_block_days)},
            {"notes", r.notes}});
}

// The purchase options' names (PricingResult ids, English in JSON), marked for translation: the
// table shows each as Tr(name).
[[maybe_unused]] constexpr const char* kOptionNames[] = {N_("on-demand"),
                                                         N_("spot"),
                                                         N_("reserved-1y-no-upfront"),
                                                         N_("capacity-block"),
                                                         N_("reserved-1y-partial-upfront"),
                                                         N_("reserved-1y-all-upfront"),
                                                         N_("reserved-3y-no-upfront"),
                                                         N_("reserved-3y-partial-upfront"),
                                                         N_("reserved-3y-all-upfront"),
                                                         N_("savings-plan-compute-1y"),
                                                         N_("savings-plan-ec2-instance-1y"),
                                                         N_("savings-plan-compute-3y"),
                                                         N_("savings-plan-ec2-instance-3y")};

Table PricingTable(const PricingResult& r) {
  const std::string sym = CurrencySymbol(PartitionOf(r.region).currency);
  Table t;
  t.AddColumn(Tr("option"));
  t.AddColumn(Trf("{0}/h per instance", sym), true);
  t.AddColumn(Trf("total {0}", sym), true);
  t.AddColumn(Trf("{0} per used h", sym), true);
  t.AddColumn(Tr("break-even use"), true);
  t.AddColumn(Tr("source (date) / note"));
  for (size_t i = 0; i < r.options.size(); ++i) {
    const PurchaseOptionCost& c = r.options[i];
    if (!c.priced) continue;  // listed once below the table (PricingUnpricedLine)
    std::string name =
        Tr(c.option.c_str()) + std::string(static_cast<int>(i) == r.cheapest ? " *" : "");
    std::optional<std::string> be;
    if (c.break_even_utilization) be = FormatFixed(100 * *c.break_even_utilization, 0) + "%";
    const std::string date = c.from.date == "undated" ? std::string(Tr("undated")) : c.from.date;
    std::string note = c.priced ? c.from.source + " (" + date + ")" : "";
    if (c.estimated) note += Tr(" estimated");
    if (c.spot) {
      note += Tr("; ") + Trf("+{0}% time, checkpoint every {1} min",
                             FormatFixed(100 * c.spot->overhead_fraction, 1),
                             FormatFixed(c.spot->interval_s / 60, 0));
    }
    if (!c.note.empty()) note += (note.empty() ? "" : Tr("; ")) + c.note;
    t.AddRow({name, AmountCell(c.usd_per_hour), AmountCell(c.total_usd),
              AmountCell(c.usd_per_used_hour), be, note});
  }
  return t;
}

std::string PricingUnpricedLine(const PricingResult& r) {
  std::string names;
  for (const PurchaseOptionCost& c : r.options) {
    // Capacity Blocks are not in price lists; PricingResult::notes says why one is missing.
    if (!c.priced && c.option != "capacity-block") {
      names += (names.empty() ? "" : ", ") + std::string(Tr(c.option.c_str()));
    }
  }
  return names.empty() ? "" : Trf("not priced in the catalog: {0}", names);
}

}  // namespace gpuadvisor
