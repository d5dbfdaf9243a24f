#include <algorithm>
#include <cmath>

#include "app/catalog_views.h"
#include "util/dates.h"
#include "util/text.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {
namespace {

ojson Levers(const std::vector<SavingsLever>& levers, Currency currency) {
  ojson a = ojson::array();
  for (const SavingsLever& l : levers) {
    a.push_back({{"lever", l.lever},
                 {"currency", CurrencyCode(currency)},
                 {MoneyKey("cost_usd", currency), l.cost_usd},
                 {"saving", l.saving},
                 {"detail", l.detail},
                 {"tradeoff", l.tradeoff}});
  }
  return a;
}

// What the account scan says of a plan (null fields where the scan has nothing to say).
ojson AccountFitJson(const AccountFit& f, int instances, double cost_usd) {
  ojson quota = nullptr;
  if (f.quota) {
    quota = {{"code", f.quota->code},
             {"name", f.quota->name},
             {"vcpus", f.quota->vcpus},
             {"needed_vcpus", f.needed_vcpus},
             {"used_vcpus", f.usage_known ? ojson(f.used_vcpus) : ojson(nullptr)},
             {"running_instances", f.usage_known ? ojson(f.running_instances) : ojson(nullptr)},
             {"free_vcpus", f.usage_known ? ojson(f.free_vcpus()) : ojson(nullptr)},
             {"fits", f.fits_quota}};
  }
  ojson score = nullptr;
  if (f.spot_score) {
    const SpotScore& s = *f.spot_score;
    score = {{"score", s.score},
             {"instances", s.count},
             {"region", s.region},
             {"zone_id", s.zone_id.empty() ? ojson(nullptr) : ojson(s.zone_id)},
             {"scored_at", s.scored_at},
             {"unlikely", f.spot_unlikely()}};
  }
  return {{"obtainable", f.obtainable()},
          {"quota", quota},
          {"zones", f.zones ? ojson(*f.zones) : ojson(nullptr)},
          {"reserved_instances", f.reserved_instances},
          {"reserved_until", f.reserved_until.empty() ? ojson(nullptr) : ojson(f.reserved_until)},
          {"cost_usd_after_reserved", cost_usd * (1 - f.paid_fraction(instances))},
          {"covered_by_reserved", f.coverage.reserved_instances},
          {"covered_by_savings_plans", f.coverage.savings_plan_instances},
          {"billed_instances", f.on_demand ? ojson(f.coverage.billed_instances) : ojson(nullptr)},
          {"commitments", ojson(f.coverage.lines)},
          {"savings_plans", ojson(f.savings_plans)},
          {"spot_placement_score", score}};
}

// The figure kinds a plan names that are not purchase options (PurchaseKindName's are marked in
// pricing_views.cc), marked for translation.
[[maybe_unused]] constexpr const char* kFigureKinds[] = {N_("spot-interruption-band")};

ojson FigureJson(const Plan::Figure& f) {
  return {{"kind", f.kind}, {"source", f.from.source}, {"date", f.from.date}};
}

ojson FiguresJson(const std::vector<Plan::Figure>& figures) {
  ojson out = ojson::array();
  for (const Plan::Figure& f : figures) out.push_back(FigureJson(f));
  return out;
}

// "spot-advisor-2025-06 (2025-06-28)", or "skypilot-v9 (undated)".
std::string FigureSource(const Plan::Figure& f) {
  return f.from.source + " (" +
         (ParseIsoDate(f.from.date) ? f.from.date : std::string(Tr("undated"))) + ")";
}

// "spot-interruption-band spot-advisor-2025-06 (2025-06-28)": the oldest figure a plan rests on.
std::string OldestFigureText(const Plan& p) {
  const Plan::Figure* f = p.OldestPriceFigure();
  if (f == nullptr) return "";
  return Tr(f->kind.c_str()) + std::string(" ") + FigureSource(*f);
}

ojson DoubtsJson(const std::vector<Plan::Doubt>& doubts) {
  ojson out = ojson::array();
  for (const Plan::Doubt& d : doubts) {
    out.push_back({{"kind", d.kind}, {"detail", d.detail}, {"demotes", d.demotes}});
  }
  return out;
}

ojson SweepJson(const Plan& p) {
  ojson out = ojson::array();
  for (const Plan::SweepPoint& x : p.sweep) {
    out.push_back({{"instance_type", x.type->name},
                   {"instances", x.instances},
                   {"region", x.region},
                   {"time_hours", x.time_hours},
                   {MoneyKey("cost_usd", p.currency), x.cost_usd},
                   {MoneyKey("usd_per_hour", p.currency), x.usd_per_hour}});
  }
  return out;
}

ojson PlanJson(const Plan& p) {
  const ParallelismChoice& par = p.parallelism;
  const bool llm = p.estimate.parallelism_applies;
  const Plan::Figure* oldest = p.OldestPriceFigure();
  ojson j = {{"rank", p.rank},
             {"instance_type", p.type->name},
             {"instances", p.instances},
             {"gpus", p.gpus},
             {"gpu_model", p.type->accelerator.model},
             {"region", p.region},
             {"purchase", PurchaseKindName(p.purchase)},
             {"parallelism",
              llm ? ojson{{"tp", par.tp},
                          {"pp", par.pp},
                          {"dp", par.dp},
                          {"zero", par.zero},
                          {"micro_batch", par.micro_batch}}
                  : ojson{{"tp", nullptr}, {"pp", nullptr}, {"dp", nullptr}, {"zero", nullptr}}},
             {"memory_per_gpu_gib", p.memory_per_gpu_gib},
             {"device_gib", p.device_gib},
             {"fits", p.fits},
             {"time_hours", p.time_hours},
             {"currency", CurrencyCode(p.currency)},
             {MoneyKey("cost_usd", p.currency), p.cost_usd},
             {MoneyKey("usd_per_hour", p.currency), p.usd_per_hour},
             {"spot_overhead",
              p.purchase == PurchaseKind::kSpot ? ojson(p.spot_overhead) : ojson(nullptr)},
             {"deadline_miss_probability",
              p.deadline_miss_probability ? ojson(*p.deadline_miss_probability) : ojson(nullptr)},
             {"confidence", ConfidenceName(p.estimate.confidence)},
             {"risk_factor", p.risk_factor},
             {"price_risk_factor", p.price_risk_factor},
             {"obtainability",
              {{"probability", p.obtain_probability},
               {"basis", p.obtain_basis},
               {"expected_wait_hours", p.wait_hours},
               {"wait_basis", p.wait_basis}}},
             {"doubts", DoubtsJson(p.doubts)},
             {"sweep", SweepJson(p)},
             {"sweep_more", p.sweep_more},
             {"price_source", p.price_from.source},
             {"price_date", p.price_from.date},
             {"price_figures", FiguresJson(p.price_figures)},
             {"oldest_price", oldest ? FigureJson(*oldest) : ojson(nullptr)},
             {"why", ojson(p.why)},
             {"warnings", ojson(p.warnings)},
             {"advice", ojson(p.advice)},
             {"savings", Levers(p.savings, p.currency)},
             {"inter_node_traffic", p.inter_node_traffic}};
  if (p.local_currency != p.currency) {  // converted by an exchange rate: what AWS bills
    j["local_price"] = {{"currency", CurrencyCode(p.local_currency)},
                        {"cost", p.local_cost},
                        {"per_hour", p.local_per_hour}};
  }
  if (p.rank > 0) j["estimate"] = EstimateToJson(p.estimate);
  if (p.account) j["account"] = AccountFitJson(*p.account, p.instances, p.cost_usd);
  return j;
}

ojson FiltersJson(const AppliedFilters& f) {
  ojson lists = ojson::array();
  for (const FilterStep& s : f.steps) {
    lists.push_back({{"option", s.option},
                     {"values", ojson(s.values)},
                     {"types_before", s.before},
                     {"types_after", s.after}});
  }
  return {{"lists", lists},
          {"types_in_catalog", f.types_in_catalog},
          {"types_left", f.types_left},
          {"emptied_by", f.emptied_by.empty() ? ojson(nullptr) : ojson(f.emptied_by)},
          {"note", f.note.empty() ? ojson(nullptr) : ojson(f.note)}};
}

// "only-family p5,g6e; exclude-instance p5.4xlarge (8 of 106 instance types left)", or "".
std::string FiltersLine(const AppliedFilters& f) {
  if (f.steps.empty()) return "";
  std::string out;
  for (const FilterStep& s : f.steps) {
    out += (out.empty() ? "" : "; ") + s.option + " ";
    for (size_t i = 0; i < s.values.size(); ++i) out += (i ? "," : "") + s.values[i];
  }
  return out + " (" + std::to_string(f.types_left) + " of " + std::to_string(f.types_in_catalog) +
         " instance types left)";
}

// "high", "medium", "low" in the current language (JSON keeps ConfidenceName).
const char* ConfidenceLabel(Confidence c) {
  switch (c) {
    case Confidence::kHigh:
      return Tr("high");
    case Confidence::kMedium:
      return Tr("medium");
    case Confidence::kLow:
      return Tr("low");
  }
  return ConfidenceName(c);
}

std::string AmountText(double v) { return FormatFixed(v, v >= 100 ? 0 : 2); }

std::string SignedPct(double f) { return (f >= 0 ? "+" : "") + FormatFixed(100 * f, 0) + "%"; }

}  // namespace

namespace {

ojson PromotedJson(const Recommendation& r) {
  if (!r.promoted_lever) return nullptr;
  const Recommendation::PromotedLever& l = *r.promoted_lever;
  ojson plans = ojson::array();
  for (const Plan& p : l.plans) plans.push_back(PlanJson(p));
  return {{"lever", l.lever},
          {"what", l.what},
          {"tradeoff", l.tradeoff},
          {"reason", l.reason},
          {"plans", plans}};
}

ojson RecommendationJson(const Recommendation& r, const RecommendRequest& req) {
  ojson plans = ojson::array(), pareto = ojson::array(), rejected = ojson::array();
  for (const Plan& p : r.plans) plans.push_back(PlanJson(p));
  ojson alternatives = ojson::array();
  for (const Plan& p : r.purchase_alternatives) alternatives.push_back(PlanJson(p));
  for (const Plan& p : r.pareto) {
    pareto.push_back({{"instance_type", p.type->name},
                      {"instances", p.instances},
                      {"region", p.region},
                      {"purchase", PurchaseKindName(p.purchase)},
                      {"time_hours", p.time_hours},
                      {"currency", CurrencyCode(p.currency)},
                      {MoneyKey("cost_usd", p.currency), p.cost_usd},
                      {"risk_factor", p.risk_factor},
                      {"price_risk_factor", p.price_risk_factor}});
  }
  for (const Rejection& x : r.rejected) {
    rejected.push_back({{"instance_type", x.instance_type}, {"reason", x.reason}});
  }
  ojson picks = ojson::array();
  for (const Recommendation::Pick& k : r.picks) {
    const Plan& p = k.plan;
    picks.push_back({{"pick", k.name},
                     {"rank", k.rank > 0 ? ojson(k.rank) : ojson(nullptr)},
                     {"instance_type", p.type->name},
                     {"instances", p.instances},
                     {"gpu_model", p.type->accelerator.model},
                     {"region", p.region},
                     {"purchase", PurchaseKindName(p.purchase)},
                     {"time_hours", p.time_hours},
                     {"currency", CurrencyCode(p.currency)},
                     {MoneyKey("cost_usd", p.currency), p.cost_usd},
                     {MoneyKey("usd_per_hour", p.currency), p.usd_per_hour},
                     {"obtainability", p.obtain_probability},
                     {"doubts", DoubtsJson(p.doubts)}});
  }
  ojson rates = ojson::array();
  for (const ExchangeRate& x : r.exchange_rates) rates.push_back(x.Text());
  ojson others = ojson::array();
  for (const Recommendation& o : r.other_currencies) others.push_back(RecommendationJson(o, req));
  return ojson{
      {"catalog", {{"source", r.catalog_source}, {"date", r.catalog_date}}},
      {"currency", CurrencyCode(r.currency)},
      {"exchange_rates", rates},
      {"objective", ObjectiveName(req.objective)},
      {"risk", RiskName(req.risk)},
      {"candidates_evaluated", r.candidates},
      {"layouts_evaluated", r.layouts},
      {"configurations_pruned", r.pruned},
      {"options_priced", r.priced},
      {"plans", plans},
      {"confidence_note", r.confidence_note.empty() ? ojson(nullptr) : ojson(r.confidence_note)},
      {"high_confidence_alternative",
       r.high_confidence_alternative ? PlanJson(*r.high_confidence_alternative) : ojson(nullptr)},
      {"purchase_alternatives", alternatives},
      {"pareto", pareto},
      {"picks", picks},
      {"promoted_lever", PromotedJson(r)},
      {"rejected", rejected},
      {"filters", FiltersJson(r.filters)},
      {"ordering", r.ordering},
      {"horizon", r.horizon_hours ? ojson{{"hours", *r.horizon_hours},
                                          {"default", true},
                                          {"note", r.horizon_note.empty() ? ojson(nullptr)
                                                                          : ojson(r.horizon_note)}}
                                  : ojson(nullptr)},
      {"currency_note", r.currency_note.empty() ? ojson(nullptr) : ojson(r.currency_note)},
      {"spot_note", r.spot_note.empty() ? ojson(nullptr) : ojson(r.spot_note)},
      {"other_currencies", others}};
}

std::string Details(const Recommendation& r, bool all_rejections);

}  // namespace

JsonDoc RecommendJson(const Recommendation& r, const RecommendRequest& req) {
  return MakeJsonDoc(RecommendationJson(r, req));
}

Table RecommendTable(const Recommendation& r) {
  // Each currency ranked on its own (no exchange rate given) is a block of rows with its own
  // ranks and a currency column; amounts then carry their symbol.
  std::vector<const Recommendation*> groups = {&r};
  for (const Recommendation& o : r.other_currencies) groups.push_back(&o);
  const bool mixed = groups.size() > 1;
  bool converted = false;
  for (const Plan& p : r.plans) converted |= p.local_currency != p.currency;
  const std::string symbol = mixed ? "" : CurrencySymbol(r.currency);
  Table t;
  t.AddColumn(Tr("#"), true);
  if (mixed) t.AddColumn(Tr("currency"));
  t.AddColumn(Tr("instance type"));
  t.AddColumn(Tr("n"), true);
  t.AddColumn(Tr("GPUs"), true);
  t.AddColumn(Tr("region"));
  t.AddColumn(Tr("purchase"));
  t.AddColumn(Tr("hours"), true);
  t.AddColumn(mixed ? std::string(Tr("cost")) : Trf("cost {0}", symbol), true);
  t.AddColumn(mixed ? std::string(Tr("per hour")) : Trf("{0}/h", symbol), true);
  if (converted) t.AddColumn(Tr("billed per hour"), true);
  t.AddColumn(Tr("GiB/GPU used"), true);
  t.AddColumn(Tr("confidence"));
  t.AddColumn(Tr("obtain"), true);
  t.AddColumn(Tr("why"));
  for (const Recommendation* g : groups) {
    for (const Plan& p : g->plans) {
      std::vector<std::optional<std::string>> row = {std::to_string(p.rank)};
      if (mixed) row.emplace_back(CurrencyCode(p.currency));
      const std::string sign = mixed ? CurrencySymbol(p.currency) : "";
      for (std::string cell :
           {p.type->name, std::to_string(p.instances), std::to_string(p.gpus), p.region,
            std::string(PurchaseKindLabel(p.purchase)),
            FormatFixed(p.time_hours, p.time_hours >= 100 ? 0 : 2) +
                (p.time_hours >= 48 ? " (" + FormatFixed(p.time_hours / 24, 0) + " d)"
                                    : std::string()),
            sign + AmountText(p.cost_usd), sign + AmountText(p.usd_per_hour)}) {
        row.emplace_back(std::move(cell));
      }
      if (converted) {
        row.emplace_back(
            p.local_currency == p.currency
                ? std::optional<std::string>()
                : FormatMoney(p.local_currency, p.local_per_hour, p.local_per_hour >= 100 ? 0 : 2));
      }
      row.emplace_back(FormatFixed(p.memory_per_gpu_gib, 1) + "/" + FormatFixed(p.device_gib, 1));
      row.emplace_back(ConfidenceLabel(p.estimate.confidence));
      // A demoting doubt marks the figure: "10%*" (the details say why).
      const bool doubted = std::any_of(p.doubts.begin(), p.doubts.end(),
                                       [](const Plan::Doubt& d) { return d.demotes; });
      row.emplace_back(FormatFixed(100 * p.obtain_probability, 0) + "%" + (doubted ? "*" : ""));
      row.emplace_back(p.why.size() > 1 ? p.why[1] : p.why.empty() ? "" : p.why[0]);
      t.AddRow(std::move(row));
    }
  }
  return t;
}

std::string RecommendDetails(const Recommendation& r, bool all_rejections) {
  std::string out = Details(r, all_rejections);
  if (!r.currency_note.empty()) out += Trf("currencies: {0}", r.currency_note) + "\n";
  if (!r.spot_note.empty()) out += Trf("spot: {0}", r.spot_note) + "\n";
  if (!r.exchange_rates.empty()) {
    std::string rates;
    for (size_t i = 0; i < r.exchange_rates.size(); ++i) {
      rates += (i ? ", " : "") + r.exchange_rates[i].Text();
    }
    out += Trf("exchange rates (yours, as given): {0} (units per USD)", rates);
    out += "\n";
  }
  for (const Recommendation& o : r.other_currencies) {
    out += "\n" + Trf("== ranked on its own, in {0} ==", CurrencyCode(o.currency)) + "\n" +
           Details(o, all_rejections);
  }
  return out;
}

namespace {

// The plan's folded sizes and counts: "x2 59.6 h $18.50; x4 29.9 h $18.55" (a size of its own
// says its type), at most four.
std::string SweepText(const Plan& p) {
  std::string out;
  const size_t n = std::min<size_t>(p.sweep.size(), 4);
  for (size_t i = 0; i < n; ++i) {
    const Plan::SweepPoint& x = p.sweep[i];
    out += (i ? Tr("; ") : "") + (x.type != p.type ? x.type->name + " " : std::string()) + "x" +
           std::to_string(x.instances) + " " +
           FormatFixed(x.time_hours, x.time_hours >= 100 ? 0 : 1) + " h " +
           FormatMoney(p.currency, x.cost_usd, x.cost_usd >= 100 ? 0 : 2);
  }
  const size_t more = p.sweep.size() - n + static_cast<size_t>(p.sweep_more);
  if (more > 0) out += Trf("; {0} more", more);
  return out;
}

const char* PickLabel(const std::string& name) {
  if (name == "cheapest-sound") return Tr("cheapest without a doubt");
  if (name == "fastest") return Tr("fastest");
  return Tr("cheapest at any risk");
}

std::string PicksText(const Recommendation& r) {
  std::string out = std::string(Tr("picks:")) + "\n";
  for (const Recommendation::Pick& k : r.picks) {
    const Plan& p = k.plan;
    std::string doubts;
    for (const Plan::Doubt& d : p.doubts) {
      if (d.demotes) doubts += (doubts.empty() ? "" : ", ") + d.kind;
    }
    out += "  " +
           Trf("{0}: {1}{2} x {3} ({4}, {5}): {6}, {7} h, {8}% obtainable{9}", PickLabel(k.name),
               k.rank > 0 ? "#" + std::to_string(k.rank) + " " : std::string(), p.type->name,
               p.instances, PurchaseKindLabel(p.purchase), p.region,
               FormatMoney(p.currency, p.cost_usd, p.cost_usd >= 100 ? 0 : 2),
               FormatFixed(p.time_hours, p.time_hours >= 100 ? 0 : 2),
               FormatFixed(100 * p.obtain_probability, 0),
               doubts.empty() ? std::string() : Trf("; doubts: {0}", doubts)) +
           "\n";
  }
  return out;
}

std::string Details(const Recommendation& r, bool all_rejections) {
  if (!r.filters.emptied_by.empty()) return Trf("no plan: {0}", r.filters.note) + "\n";
  std::string out;
  if (!r.ordering.empty()) out += Trf("order: {0}", r.ordering) + "\n";
  if (!r.horizon_note.empty()) out += Trf("horizon: {0}", r.horizon_note) + "\n";
  for (const Plan& p : r.plans) {
    out += "\n#" + std::to_string(p.rank) + " " + p.type->name + " x " +
           std::to_string(p.instances) + " (" + PurchaseKindLabel(p.purchase) + ", " + p.region +
           ")\n";
    for (const std::string& s : p.why) out += Trf("  why: {0}", s) + "\n";
    if (const std::string oldest = OldestFigureText(p); !oldest.empty()) {
      out += Trf("  prices: the oldest figure this plan rests on is {0}", oldest) + "\n";
    }
    for (const Plan::Doubt& d : p.doubts) {
      out += Trf("  doubt ({0}): {1}", d.kind, d.detail) + "\n";
    }
    out += Trf("  obtainability: {0}% ({1})", FormatFixed(100 * p.obtain_probability, 0),
               p.obtain_basis) +
           "\n";
    // TRANSLATORS: {0} hours, {1} how they were reckoned.
    out += Trf("  expected wait for the capacity: {0} h ({1}; not billed)",
               FormatFixed(p.wait_hours, p.wait_hours < 10 ? 1 : 0), p.wait_basis) +
           "\n";
    if (!p.sweep.empty()) out += Trf("  also: {0}", SweepText(p)) + "\n";
    for (const std::string& s : p.warnings) out += Trf("  warning: {0}", s) + "\n";
    for (const std::string& s : p.advice) out += Trf("  advice: {0}", s) + "\n";
    for (const SavingsLever& l : p.savings) {
      out += Trf("  saving: {0} ({1})", l.detail, l.tradeoff) + "\n";
    }
    for (const std::string& s : p.estimate.assumptions) {
      if (!StartsWith(s, "warning: ")) out += Trf("  assumption: {0}", s) + "\n";
    }
  }
  if (!r.picks.empty()) out += "\n" + PicksText(r);
  if (!r.confidence_note.empty()) out += "\n" + Trf("note: {0}", r.confidence_note) + "\n";
  if (const std::optional<Plan>& a = r.high_confidence_alternative) {
    out += Trf("best high-confidence plan: #{0} {1} x {2} ({3}, {4}): {5}", a->rank, a->type->name,
               a->instances, PurchaseKindLabel(a->purchase), a->region, a->why.front()) +
           "\n";
  }
  for (const Plan& a : r.purchase_alternatives) {
    const Plan& top = r.plans.front();
    out += Trf("best {0} plan: #{1} {2} x {3} ({4}): {5}, {6} h; vs #1: {7} cost, {8} time",
               PurchaseKindLabel(a.purchase), a.rank, a.type->name, a.instances, a.region,
               FormatMoney(a.currency, a.cost_usd, a.cost_usd >= 100 ? 0 : 2),
               FormatFixed(a.time_hours, a.time_hours >= 100 ? 0 : 2),
               SignedPct(a.cost_usd / top.cost_usd - 1),
               SignedPct(a.time_hours / top.time_hours - 1)) +
           "\n";
    for (const std::string& s : a.why) {
      if (StartsWith(s, Tr("Capacity Block of "))) out += Trf("  why: {0}", s) + "\n";
    }
  }
  if (const auto& l = r.promoted_lever) {
    // TRANSLATORS: {0} "int8 weights", {1} its trade-off, {2} why it is shown ("no plan with
    // 16-bit weights", or that it beats the top plan beyond the bands).
    out += "\n" + Trf("with {0} ({1}): {2}", l->what, l->tradeoff, l->reason) + "\n";
    for (const Plan& p : l->plans) {
      // A service by the hour, a job by its run.
      const double amount = p.estimate.service ? p.usd_per_hour : p.cost_usd;
      const std::string money =
          FormatMoney(p.currency, amount, amount >= 100 ? 0 : 2) + (p.estimate.service ? "/h" : "");
      out += "  " +
             Trf("#{0} {1} x {2} ({3}, {4}): {5}; {6}", p.rank, p.type->name, p.instances,
                 PurchaseKindLabel(p.purchase), p.region, money,
                 p.why.size() > 1 ? p.why[1] : std::string()) +
             "\n";
    }
  }
  if (!r.rejected.empty()) {
    out += "\n" + std::string(Tr("left out:")) + "\n";
    const size_t n = all_rejections ? r.rejected.size() : std::min<size_t>(r.rejected.size(), 12);
    for (size_t i = 0; i < n; ++i) {
      out += "  " + r.rejected[i].instance_type + ": " + r.rejected[i].reason + "\n";
    }
    if (n < r.rejected.size()) {
      out += Trf("  ... {0} more (--explain lists all)", r.rejected.size() - n) + "\n";
    }
  }
  // The prices' age is that of the oldest figure the plans rest on, not the catalog's newest.
  const Plan::Figure* oldest = nullptr;
  for (const Plan& p : r.plans) {
    const Plan::Figure* f = p.OldestPriceFigure();
    if (f != nullptr && (oldest == nullptr || OlderFigure(f->from, oldest->from))) oldest = f;
  }
  out +=
      "\n" +
      (oldest != nullptr
           ? Trf("{0} configurations ({1} parallelism layouts) estimated, {2} skipped by the "
                 "memory lower bound, {3} priced; the oldest price these plans rest on: {4}; "
                 "the catalog's newest: {5}",
                 r.candidates, r.layouts, r.pruned, r.priced, FigureSource(*oldest), r.catalog_date)
           : Trf("{0} configurations ({1} parallelism layouts) estimated, {2} skipped by the "
                 "memory lower bound, {3} priced; the catalog's newest prices {4}",
                 r.candidates, r.layouts, r.pruned, r.priced, r.catalog_date)) +
      "\n";
  if (const std::string line = FiltersLine(r.filters); !line.empty()) {
    out += Trf("filters: {0}", line) + "\n";
  }
  return out;
}

}  // namespace

std::string RecommendSvg(const Recommendation& r) {
  std::vector<const Plan*> points;
  for (const Plan& p : r.pareto) points.push_back(&p);
  for (const Plan& p : r.plans) points.push_back(&p);
  if (points.empty()) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"80\"><text x=\"20\" "
           "y=\"40\" font-family=\"sans-serif\">no feasible plan</text></svg>\n";
  }
  double t0 = INFINITY, t1 = 0, c0 = INFINITY, c1 = 0;
  for (const Plan* p : points) {
    t0 = std::min(t0, p->time_hours), t1 = std::max(t1, p->time_hours);
    c0 = std::min(c0, p->cost_usd), c1 = std::max(c1, p->cost_usd);
  }
  const double W = 720, H = 480, L = 80, R = 20, T = 30, B = 60;
  auto lx = [&](double v) {
    const double a = std::log10(t0 / 1.2), b = std::log10(t1 * 1.2);
    return L + (std::log10(v) - a) / (b - a) * (W - L - R);
  };
  auto ly = [&](double v) {
    const double a = std::log10(c0 / 1.2), b = std::log10(c1 * 1.2);
    return H - B - (std::log10(v) - a) / (b - a) * (H - T - B);
  };
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"480\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"360\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">cost vs time "
      "(log-log); grey: the Pareto front over cost, time and certainty, red: ranked "
      "plans</text>\n";
  s += "<line x1=\"80\" y1=\"420\" x2=\"700\" y2=\"420\" stroke=\"black\"/>\n"
       "<line x1=\"80\" y1=\"30\" x2=\"80\" y2=\"420\" stroke=\"black\"/>\n"
       "<text x=\"390\" y=\"455\" text-anchor=\"middle\">time (hours)</text>\n"
       "<text x=\"20\" y=\"225\" transform=\"rotate(-90 20 225)\" text-anchor=\"middle\">cost "
       "(USD)</text>\n";
  for (double v : {t0, std::sqrt(t0 * t1), t1}) {
    s += "<text x=\"" + FormatFixed(lx(v), 1) + "\" y=\"436\" text-anchor=\"middle\">" +
         FormatFixed(v, v >= 100 ? 0 : 1) + "</text>\n";
  }
  for (double v : {c0, std::sqrt(c0 * c1), c1}) {
    s += "<text x=\"76\" y=\"" + FormatFixed(ly(v), 1) + "\" text-anchor=\"end\">" + AmountText(v) +
         "</text>\n";
  }
  for (const Plan& p : r.pareto) {
    s += "<circle cx=\"" + FormatFixed(lx(p.time_hours), 1) + "\" cy=\"" +
         FormatFixed(ly(p.cost_usd), 1) + "\" r=\"3\" fill=\"#888\"><title>" + p.type->name +
         " x " + std::to_string(p.instances) + " " + PurchaseKindName(p.purchase) +
         ", ranked at x" + FormatFixed(p.doubt(), 2) + "</title></circle>\n";
  }
  for (const Plan& p : r.plans) {
    const std::string x = FormatFixed(lx(p.time_hours), 1), y = FormatFixed(ly(p.cost_usd), 1);
    s += "<circle cx=\"" + x + "\" cy=\"" + y + "\" r=\"5\" fill=\"#c33\"/>\n<text x=\"" + x +
         "\" dx=\"7\" y=\"" + y + "\" dy=\"4\">#" + std::to_string(p.rank) + " " + p.type->name +
         " x" + std::to_string(p.instances) + "</text>\n";
  }
  return s + "</svg>\n";
}

}  // namespace gpuadvisor
