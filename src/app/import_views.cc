#include <cmath>

#include "app/catalog_views.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

ojson Usd(std::optional<double> v) {
  if (!v) return nullptr;
  return std::round(*v * 1e6) / 1e6;
}

std::optional<double> ChangePct(const CatalogDiff::PriceChange& c) {
  if (!c.old_per_hour || !c.new_per_hour || c.old_per_hour->amount == 0) return std::nullopt;
  Result<Money> d = Minus(*c.new_per_hour, *c.old_per_hour);
  if (!d.ok()) return std::nullopt;  // not reached: one region, one currency
  return d->amount / c.old_per_hour->amount * 100;
}

ojson Amount(const std::optional<Money>& m) { return m ? Usd(m->amount) : ojson(nullptr); }

// Distinct instance types with at least one price change.
size_t TypesWithChanges(const CatalogDiff& d) {
  size_t n = 0;
  for (size_t i = 0; i < d.price_changes.size(); ++i) {
    if (i == 0 || d.price_changes[i].instance_type != d.price_changes[i - 1].instance_type) ++n;
  }
  return n;
}

}  // namespace

ojson ReservedJson(const RegionOffer& o) {
  const Currency c = o.currency();
  ojson list = ojson::array();
  for (const ReservedPrice& r : o.reserved) {
    list.push_back({{"term", r.term()},
                    {"years", r.years},
                    {"offering_class", r.offering_class},
                    {"payment", r.payment},
                    {MoneyKey("upfront_usd", c), Usd(r.upfront_usd)},
                    {MoneyKey("usd_per_hour", c), Usd(r.usd_per_hour)},
                    {MoneyKey("effective_usd_per_hour", c), Usd(r.effective_usd_per_hour())},
                    {"source", r.from.source},
                    {"date", r.from.date}});
  }
  return list;
}

ojson SavingsPlansJson(const RegionOffer& o) {
  const Currency c = o.currency();
  ojson list = ojson::array();
  for (const SavingsPlanRate& s : o.savings_plans) {
    list.push_back({{"term", s.term()},
                    {"plan", s.plan},
                    {"years", s.years},
                    {"payment", s.payment},
                    {MoneyKey("usd_per_hour", c), Usd(s.usd_per_hour)},
                    {"source", s.from.source},
                    {"date", s.from.date}});
  }
  return list;
}

ojson HistoryJson(const RegionOffer& o) {
  const Currency c = o.currency();
  ojson list = ojson::array();
  for (const PricePoint& p : o.history) {
    list.push_back({{"kind", p.kind},
                    {MoneyKey("usd_per_hour", c), Usd(p.usd_per_hour)},
                    {"source", p.from.source},
                    {"date", p.from.date}});
  }
  return list;
}

Table ShowTermsTable(const RegionOffer& o) {
  Table t;
  t.AddColumn(Tr("term"));
  PriceColumns money;
  money.Add(o.currency());
  t.AddColumn(money.Named(Tr("upfront")), true);
  t.AddColumn(money.Header(Tr("/h")), true);
  t.AddColumn(Trf("effective {0}", money.Header(Tr("/h"))), true);
  t.AddColumn(Tr("vs on-demand"), true);
  t.AddColumn(Tr("source (date)"));
  auto saving = [&](double eff) -> std::optional<std::string> {
    if (!o.on_demand || o.on_demand->usd_per_hour <= 0) return std::nullopt;
    return "-" + FormatFixed((1 - eff / o.on_demand->usd_per_hour) * 100, 0) + "%";
  };
  const std::optional<Price>& used = o.reserved_1y_no_upfront;
  for (const ReservedPrice& r : o.reserved) {
    std::string source = r.from.source + " (" + r.from.date + ")";
    // The 1-year RI every command uses is RegionOffer::Reserved1y's choice; say so when it is
    // not this itemised term.
    if (r.term() == kReserved1yTerm && used &&
        (used->from.source != r.from.source || used->from.date != r.from.date)) {
      source += "; not used: " + used->from.source + " (" + used->from.date + ") is newer";
    }
    t.AddRow({"RI " + r.term(), FormatFixed(r.upfront_usd, 0), FormatFixed(r.usd_per_hour, 3),
              FormatFixed(r.effective_usd_per_hour(), 3), saving(r.effective_usd_per_hour()),
              source});
  }
  for (const SavingsPlanRate& s : o.savings_plans) {
    t.AddRow({"SP " + s.term(), std::nullopt, FormatFixed(s.usd_per_hour, 3),
              FormatFixed(s.usd_per_hour, 3), saving(s.usd_per_hour),
              s.from.source + " (" + s.from.date + ")"});
  }
  return t;
}

Table ShowHistoryTable(const RegionOffer& o) {
  Table t;
  t.AddColumn(Tr("price"));
  t.AddColumn(Tr("date"));
  PriceColumns money;
  money.Add(o.currency());
  t.AddColumn(money.Header(Tr("/h")), true);
  t.AddColumn(Tr("change"), true);
  t.AddColumn(Tr("source"));
  const PricePoint* prev = nullptr;
  for (const PricePoint& p : o.history) {
    if (prev && prev->kind != p.kind) prev = nullptr;
    std::optional<std::string> change;
    if (prev && prev->usd_per_hour > 0) {
      double pct = (p.usd_per_hour - prev->usd_per_hour) / prev->usd_per_hour * 100;
      change = (pct >= 0 ? "+" : "") + FormatFixed(pct, 1) + "%";
    }
    t.AddRow({p.kind, p.from.date, FormatFixed(p.usd_per_hour, 4), change, p.from.source});
    prev = &p;
  }
  return t;
}

JsonDoc ImportReportJson(const ImportReport& r, const CatalogDiff& diff, const std::string& out) {
  ojson inputs = ojson::array();
  for (const ImportReport::Input& in : r.inputs) {
    inputs.push_back({{"format", in.format},
                      {"path", in.path},
                      {"source", in.source_id},
                      {"bytes", in.bytes},
                      {"rows_read", in.rows},
                      {"rows_taken", in.taken}});
  }
  ojson skipped = ojson::array();
  int64_t skipped_rows = 0;
  for (const ImportReport::Skipped& k : r.skipped) {
    skipped.push_back({{"path", k.path}, {"reason", k.reason}, {"rows", k.rows}});
    skipped_rows += k.rows;
  }
  return MakeJsonDoc(ojson{{"out", out},
                           {"inputs", inputs},
                           {"types_added", diff.added_types.size()},
                           {"types_removed", diff.removed_types.size()},
                           {"types_updated", r.types_updated},
                           {"prices_set", r.prices_set},
                           {"prices_changed", diff.price_changes.size()},
                           {"types_with_price_changes", TypesWithChanges(diff)},
                           {"prices_kept_newer", r.prices_kept_newer},
                           {"rows_skipped", skipped_rows},
                           {"skipped", skipped},
                           {"unknown_types", r.unknown_types},
                           {"notes", r.notes},
                           {"diff", CatalogDiffJson(diff).rep().value}});
}

std::string ImportSummaryText(const ImportReport& r, const CatalogDiff& diff,
                              const std::string& out) {
  const size_t changes = diff.price_changes.size();
  std::string s = "wrote " + TerminalSafe(out) + ": " + std::to_string(r.types_updated) +
                  " types updated; " + std::to_string(r.prices_set) + " prices set, " +
                  std::to_string(r.prices_kept_newer) + " kept (the catalog's were newer)\n";
  s += "vs the previous catalog: " + std::to_string(changes) + " price changes in " +
       std::to_string(TypesWithChanges(diff)) + " types, " +
       std::to_string(diff.added_types.size()) + " types added, " +
       std::to_string(diff.removed_types.size()) + " removed";
  s += changes > 10 ? " (first 10; all: gpuadvisor catalog diff)\n" : "\n";
  for (const ImportReport::Skipped& k : r.skipped) {
    s += "skipped " + std::to_string(k.rows) + " rows of " + TerminalSafe(k.path) + ": " +
         TerminalSafe(k.reason) + "\n";
  }
  return s;
}

Table ImportInputsTable(const ImportReport& r) {
  Table t;
  t.AddColumn(Tr("input"));
  t.AddColumn(Tr("format"));
  t.AddColumn(Tr("MB read"), true);
  t.AddColumn(Tr("rows read"), true);
  t.AddColumn(Tr("rows taken"), true);
  t.AddColumn(Tr("source id"));
  for (const ImportReport::Input& in : r.inputs) {
    t.AddRow({in.path, in.format, FormatFixed(static_cast<double>(in.bytes) / 1e6, 1),
              std::to_string(in.rows), std::to_string(in.taken), in.source_id});
  }
  return t;
}

JsonDoc CatalogDiffJson(const CatalogDiff& d) {
  ojson changes = ojson::array();
  for (const CatalogDiff::PriceChange& c : d.price_changes) {
    std::optional<double> pct = ChangePct(c);
    changes.push_back(
        {{"instance_type", c.instance_type},
         {"region", c.region},
         {"price", c.price},
         {"currency", CurrencyCode(PartitionOf(c.region).currency)},
         {MoneyKey("old_usd_per_hour", PartitionOf(c.region).currency), Amount(c.old_per_hour)},
         {MoneyKey("new_usd_per_hour", PartitionOf(c.region).currency), Amount(c.new_per_hour)},
         {"change_pct", pct ? ojson(std::round(*pct * 100) / 100) : ojson()},
         {"old_source", c.old_source.empty() ? ojson() : ojson(c.old_source)},
         {"new_source", c.new_source.empty() ? ojson() : ojson(c.new_source)}});
  }
  return MakeJsonDoc(ojson{{"added_types", d.added_types},
                           {"removed_types", d.removed_types},
                           {"price_changes", changes}});
}

Table CatalogDiffTable(const CatalogDiff& d, size_t limit) {
  Table t;
  t.AddColumn(Tr("instance type"));
  t.AddColumn(Tr("region"));
  t.AddColumn(Tr("price"));
  PriceColumns money;
  for (const CatalogDiff::PriceChange& c : d.price_changes)
    money.Add(PartitionOf(c.region).currency);
  t.AddColumn(Trf("old {0}", money.Header(Tr("/h"))), true);
  t.AddColumn(Trf("new {0}", money.Header(Tr("/h"))), true);
  t.AddColumn(Tr("change"), true);
  t.AddColumn(Tr("source (old -> new)"));
  for (const std::string& n : d.added_types) {
    t.AddRow(
        {n, std::nullopt, "type added", std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  }
  for (const std::string& n : d.removed_types) {
    t.AddRow(
        {n, std::nullopt, "type removed", std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  }
  size_t n = 0;
  for (const CatalogDiff::PriceChange& c : d.price_changes) {
    if (limit && ++n > limit) break;
    std::optional<double> pct = ChangePct(c);
    std::optional<std::string> change;
    if (pct) change = (*pct >= 0 ? "+" : "") + FormatFixed(*pct, 1) + "%";
    t.AddRow({c.instance_type, c.region, c.price, money.Cell(c.old_per_hour, 4),
              money.Cell(c.new_per_hour, 4), change,
              (c.old_source.empty() ? "-" : c.old_source) + " -> " +
                  (c.new_source.empty() ? "-" : c.new_source)});
  }
  return t;
}

}  // namespace gpuadvisor
