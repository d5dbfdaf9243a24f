// `commitments`: JSON, table, notes and chart of a CommitReport (commit_plan.h).
#include <algorithm>
#include <cmath>

#include "app/catalog_views.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

Currency CurrencyOf(const CommitReport& r) {
  return r.currency == "CNY" ? Currency::kCny : Currency::kUsd;
}

std::string HourText(int64_t hour) { return FormatIsoUtc(hour * 3600); }

ojson OutcomeJson(const CommitOutcome& c, Currency cur) {
  return {{"offer", c.offer.name()},
          {"kind", c.offer.kind},
          {"years", c.offer.years},
          {"payment", c.offer.payment},
          {"instances", c.instances},
          {MoneyKey("rate_usd_per_instance_hour", cur), c.offer.rate},
          {MoneyKey("committed_usd_per_hour", cur), c.committed_per_hour},
          {MoneyKey("upfront_usd", cur), c.upfront},
          {MoneyKey("cost_usd_per_hour", cur), c.cost_per_hour},
          {MoneyKey("on_demand_usd_per_hour", cur), c.baseline_per_hour},
          {"coverage", c.coverage},
          {"utilisation", c.utilisation},
          {"saving", c.saving},
          {"saving_if_usage_halves", c.saving_if_usage_halves},
          {MoneyKey("loss_if_usage_stops_usd", cur), c.loss_if_usage_stops},
          {"break_even_utilisation", c.break_even_utilisation},
          {"price_source", c.offer.from.source},
          {"price_date", c.offer.from.date}};
}

ojson ComputePlansJson(const std::vector<JointComputePlan>& plans, Currency cur) {
  ojson out = ojson::array();
  for (const JointComputePlan& p : plans) {
    out.push_back({{"years", p.years},
                   {"payment", p.payment},
                   {MoneyKey("committed_usd_per_hour", cur), p.committed_per_hour},
                   {MoneyKey("upfront_usd", cur), p.upfront},
                   {MoneyKey("cost_usd_per_hour", cur), p.cost_per_hour},
                   {MoneyKey("stay_usd_per_hour", cur), p.stay_per_hour},
                   {MoneyKey("on_demand_usd_per_hour", cur), p.baseline_per_hour},
                   {MoneyKey("per_type_usd_per_hour", cur), p.per_type_cost_per_hour},
                   {"coverage", p.coverage},
                   {"utilisation", p.utilisation},
                   {"saving", p.saving},
                   {MoneyKey("loss_if_usage_stops_usd", cur), p.loss_if_usage_stops},
                   {"groups", p.groups},
                   {"price_source", p.from.source},
                   {"price_date", p.from.date}});
  }
  return out;
}

ojson StatsJson(const UsageStats& s) {
  return {{"hours", s.hours},         {"instance_hours", s.instance_hours},
          {"mean_instances", s.mean}, {"p50_instances", s.p50},
          {"p90_instances", s.p90},   {"max_instances", s.max}};
}

std::string Pct(double v) { return FormatFixed(100 * v, 0) + "%"; }

std::string Amount(double v) { return FormatFixed(v, v >= 1000 ? 0 : 2); }

std::string XmlSafe(std::string_view s) {
  std::string out;
  for (char c : TerminalSafe(s)) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

JsonDoc CommitmentsJson(const CommitReport& r, const Freshness& fresh, std::string_view pushdown) {
  const Currency cur = CurrencyOf(r);
  ojson groups = ojson::array();
  for (const CommitGroup& g : r.groups) {
    ojson alternatives = ojson::array();
    for (const CommitOutcome& c : g.alternatives) alternatives.push_back(OutcomeJson(c, cur));
    groups.push_back({{"region", g.region},
                      {"instance_type", g.instance_type},
                      {"on_demand_usage", StatsJson(g.on_demand)},
                      {"reserved_instance_hours", g.reserved_hours},
                      {"savings_plan_instance_hours", g.savings_plan_hours},
                      {"spot_instance_hours", g.spot_hours},
                      {"renewal_instance_hours", g.renewal_hours},
                      {"planned_instance_hours", g.planned_instance_hours},
                      {"coverage_now", g.coverage_now},
                      {MoneyKey("on_demand_usd_per_instance_hour", cur), g.on_demand_rate},
                      {MoneyKey("on_demand_usd_per_hour", cur), g.baseline_per_hour},
                      {"on_demand_source", g.on_demand_from.source},
                      {"on_demand_date", g.on_demand_from.date},
                      {"on_demand_stale", fresh.Stale(g.on_demand_from.date)},
                      {"burst", g.burst},
                      {MoneyKey("burst_usd_per_instance_hour", cur), g.burst_rate},
                      {"burst_source", g.burst_from.source},
                      {"burst_date", g.burst_from.date},
                      {"recommendation", g.choice ? OutcomeJson(*g.choice, cur) : ojson(nullptr)},
                      {"alternatives", alternatives},
                      {"notes", g.notes}});
  }
  ojson reservations = ojson::array();
  for (const ReservationUse& u : r.reservations) {
    reservations.push_back({{"id", u.held.id},
                            {"region", u.held.region},
                            {"instance_type", u.held.instance_type},
                            {"end", u.held.end},
                            {"reserved_hours", u.held.reserved_hours},
                            {"used_hours", u.held.used_hours},
                            {"unused_hours", u.unused_hours},
                            {"utilisation", u.utilisation},
                            {MoneyKey("cost_usd", cur), u.held.cost},
                            {"expiring", u.expiring}});
  }
  ojson plans = ojson::array();
  for (const SavingsPlanUse& u : r.savings_plans) {
    plans.push_back({{"id", u.held.id},
                     {"offering", u.held.offering},
                     {"region", u.held.region},
                     {"family", u.held.family},
                     {"end", u.held.end},
                     {"hours", u.held.hours},
                     {MoneyKey("commitment_usd_per_hour", cur), u.commitment_per_hour},
                     {MoneyKey("committed_usd", cur), u.held.committed},
                     {MoneyKey("used_usd", cur), u.held.used},
                     {MoneyKey("unused_usd", cur), u.unused},
                     {"utilisation", u.utilisation},
                     {"expiring", u.expiring}});
  }
  ojson planned = ojson::array();
  for (const PlannedRunUse& u : r.planned) {
    planned.push_back({{"source", u.run.source},
                       {"instance_type", u.run.instance_type},
                       {"region", u.run.region},
                       {"instances", u.run.instances},
                       {"hours", u.run.hours},
                       {"purchase", u.run.purchase},
                       {"sized", u.sized},
                       {"why", u.sized ? ojson(nullptr) : ojson(u.why)}});
  }
  const BillUsage* b = r.bill;
  const double saving = r.baseline_per_hour > 0 ? 1 - r.cost_per_hour / r.baseline_per_hour : 0;
  return MakeJsonDoc(ojson{
      {"currency", CurrencyCode(cur)},
      {"period",
       {{"first_hour",
         r.last_hour >= r.first_hour ? ojson(HourText(r.first_hour)) : ojson(nullptr)},
        {"last_hour", r.last_hour >= r.first_hour ? ojson(HourText(r.last_hour)) : ojson(nullptr)},
        {"hours", r.last_hour >= r.first_hour ? r.last_hour - r.first_hour + 1 : 0}}},
      {"source",
       {{"pushdown", std::string(pushdown)},
        {"inputs", b ? ojson(b->sources) : ojson::array()},
        {"rows_read", b ? b->rows_read : 0},
        {"rows_used", b ? b->rows_used : 0},
        {"bytes_read", b ? b->bytes_read : 0}}},
      {"summary",
       {{MoneyKey("on_demand_usd_per_hour", cur), r.baseline_per_hour},
        {MoneyKey("with_commitments_usd_per_hour", cur), r.cost_per_hour},
        {MoneyKey("committed_usd_per_hour", cur), r.committed_per_hour},
        {MoneyKey("upfront_usd", cur), r.upfront},
        {"saving", saving},
        {MoneyKey("saving_usd_per_year", cur), (r.baseline_per_hour - r.cost_per_hour) * 8760}}},
      {"groups", groups},
      {"compute_savings_plans", ComputePlansJson(r.compute_plans, cur)},
      {"reservations", reservations},
      {"savings_plans", plans},
      {"planned", planned},
      {"notes", r.notes}});
}

Table CommitmentsTable(const CommitReport& r) {
  const std::string sym = CurrencySymbol(CurrencyOf(r));
  Table t;
  t.AddColumn(Tr("region"));
  t.AddColumn(Tr("type"));
  t.AddColumn(Tr("on-demand mean/p90/max"), true);
  t.AddColumn(Tr("covered now"), true);
  t.AddColumn(Tr("commit"));
  t.AddColumn(Tr("instances"), true);
  t.AddColumn(Trf("{0}/h now", sym), true);
  t.AddColumn(Trf("{0}/h after", sym), true);
  t.AddColumn(Tr("saving"), true);
  t.AddColumn(Tr("if usage halves"), true);
  t.AddColumn(Tr("used"), true);
  for (const CommitGroup& g : r.groups) {
    const UsageStats& s = g.on_demand;
    const std::string usage =
        FormatFixed(s.mean, 1) + "/" + FormatFixed(s.p90, 1) + "/" + FormatFixed(s.max, 1);
    // Now: on demand over the term sized (the history, with planned runs over a 1-year term).
    const double now = g.choice ? g.choice->baseline_per_hour : g.baseline_per_hour;
    if (g.choice) {
      const CommitOutcome& c = *g.choice;
      t.AddRow({g.region, g.instance_type, usage, Pct(g.coverage_now), c.offer.name(),
                FormatFixed(c.instances, c.instances == std::floor(c.instances) ? 0 : 2),
                Amount(now), Amount(c.cost_per_hour), Pct(c.saving), Pct(c.saving_if_usage_halves),
                Pct(c.utilisation)});
    } else {
      t.AddRow({g.region, g.instance_type, usage, Pct(g.coverage_now), Tr("none"), std::nullopt,
                Amount(now), Amount(g.stay_per_hour), std::nullopt, std::nullopt, std::nullopt});
    }
  }
  return t;
}

std::string CommitmentsNotes(const CommitReport& r) {
  const std::string sym = CurrencySymbol(CurrencyOf(r));
  std::string out;
  if (r.baseline_per_hour > 0) {
    out += "\n" +
           Trf("on-demand usage {0}{1}/h; as advised {0}{2}/h ({3} saved, "
               "{0}{4} a year); committed {0}{5}/h, {0}{6} upfront",
               sym, Amount(r.baseline_per_hour), Amount(r.cost_per_hour),
               Pct(1 - r.cost_per_hour / r.baseline_per_hour),
               Amount((r.baseline_per_hour - r.cost_per_hour) * 8760), Amount(r.committed_per_hour),
               Amount(r.upfront)) +
           "\n";
  }
  for (const CommitGroup& g : r.groups) {
    const std::string head = TerminalSafe(g.instance_type) + " " + TerminalSafe(g.region) + ": ";
    if (g.choice) {
      const CommitOutcome& c = *g.choice;
      out += head +
             Trf("{0} x {1}: break-even at {2} use, {3}{4} lost over the term if usage stops; "
                 "on-demand {3}{5}/h ({6}, {7}), bursts on {8}",
                 FormatFixed(c.instances, c.instances == std::floor(c.instances) ? 0 : 2),
                 c.offer.name(), Pct(c.break_even_utilisation), sym, Amount(c.loss_if_usage_stops),
                 FormatFixed(g.on_demand_rate, 3), TerminalSafe(g.on_demand_from.source),
                 g.on_demand_from.date, g.burst) +
             "\n";
    }
    for (const std::string& n : g.notes) out += head + TerminalSafe(n) + "\n";
  }
  if (!r.compute_plans.empty()) {
    const JointComputePlan& p = r.compute_plans.front();
    // TRANSLATORS: {0} a currency symbol; {1} $/h committed; {2} years; {3} a payment option;
    // {4} the number of instance types; {5}, {6} costs per hour; {7}, {8} percentages.
    out += Trf("one Compute Savings Plan for {4} types: {0}{1}/h, {2}y {3}: {0}{5}/h against "
               "{0}{6}/h sized type by type; covers {7} of the on-demand spend, {8} of it used",
               sym, FormatFixed(p.committed_per_hour, 3), p.years, p.payment, p.groups.size(),
               Amount(p.cost_per_hour), Amount(p.per_type_cost_per_hour), Pct(p.coverage),
               Pct(p.utilisation)) +
           "\n";
  }
  for (const ReservationUse& u : r.reservations) {
    out += Trf("reserved instance {0} ({1} {2}): {3} used, {4} hours unused, ends {5}{6}",
               TerminalSafe(u.held.id), TerminalSafe(u.held.instance_type),
               TerminalSafe(u.held.region), Pct(u.utilisation), FormatFixed(u.unused_hours, 0),
               TerminalSafe(u.held.end), u.expiring ? Tr(" (expiring)") : std::string()) +
           "\n";
  }
  for (const SavingsPlanUse& u : r.savings_plans) {
    out += Trf("savings plan {0} ({1}, {2}{3}/h): {4} used, {2}{5} unused, ends {6}{7}",
               TerminalSafe(u.held.id), TerminalSafe(u.held.offering), sym,
               FormatFixed(u.commitment_per_hour, 3), Pct(u.utilisation), Amount(u.unused),
               TerminalSafe(u.held.end), u.expiring ? Tr(" (expiring)") : std::string()) +
           "\n";
  }
  for (const PlannedRunUse& u : r.planned) {
    if (u.sized) continue;
    out += Trf("plan {0} ({1} x {2} in {3}): not sized: {4}", TerminalSafe(u.run.source),
               u.run.instances, TerminalSafe(u.run.instance_type), TerminalSafe(u.run.region),
               TerminalSafe(u.why)) +
           "\n";
  }
  for (const std::string& n : r.notes) out += Tr("note: ") + TerminalSafe(n) + "\n";
  return out;
}

std::string CommitmentsSvg(const CommitReport& r) {
  const CommitGroup* g = nullptr;
  for (const CommitGroup& c : r.groups) {
    if (c.on_demand.instance_hours > 0) {
      g = &c;
      break;
    }
  }
  constexpr const char* kHead =
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="900" height="420" font-family="sans-serif" font-size="12">)"
      "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (g == nullptr || g->hourly.empty()) {
    return std::string(kHead) + "<text x=\"20\" y=\"40\">no on-demand usage</text></svg>\n";
  }
  const std::vector<double>& u = g->hourly;  // what AdviseCommitments sized
  const double width = 900, height = 420, left = 60, right = 180, top = 40, bottom = 50;
  double ymax = std::max(1.0, g->on_demand.max * 1.1);
  const double xs = (width - left - right) / static_cast<double>(u.size());
  auto y = [&](double v) {
    return FormatFixed(height - bottom - v / ymax * (height - top - bottom), 1);
  };
  // At most 1,500 points: the maximum of each bucket of hours.
  const size_t bucket = std::max<size_t>(1, u.size() / 1500);
  std::string pts;
  for (size_t i = 0; i < u.size(); i += bucket) {
    double m = 0;
    for (size_t j = i; j < std::min(u.size(), i + bucket); ++j) m = std::max(m, u[j]);
    pts += FormatFixed(left + static_cast<double>(i) * xs, 1) + "," + y(m) + " ";
  }
  std::string s =
      std::string(kHead) + R"(<text x="360" y="18" text-anchor="middle" font-size="14">)" +
      XmlSafe(g->instance_type) + " " + XmlSafe(g->region) +
      ": on-demand instances per hour against commitment levels</text>\n" +
      R"(<polyline fill="none" stroke="#333" stroke-width="1" points=")" + pts + "\"/>\n";
  for (int k = 0; k <= 4; ++k) {
    const double v = ymax * k / 4;
    s += R"(<text x="54" y=")" + y(v) + R"(" text-anchor="end">)" +
         FormatFixed(v, ymax >= 10 ? 0 : 1) + "</text>\n";
  }
  s += R"(<text x="360" y="405" text-anchor="middle">)" + HourText(r.first_hour).substr(0, 10) +
       " .. " + HourText(r.last_hour).substr(0, 10) + "</text>\n";
  // The ladder: the chosen level and each alternative's.
  std::vector<const CommitOutcome*> ladder;
  if (g->choice) ladder.push_back(&*g->choice);
  for (const CommitOutcome& c : g->alternatives) ladder.push_back(&c);
  int row = 0;
  for (const CommitOutcome* c : ladder) {
    if (row >= 8) break;
    const char* color = row == 0 ? "#c33" : "#36c";
    s += R"(<line x1=")" + FormatFixed(left, 0) + R"(" x2=")" + FormatFixed(width - right, 0) +
         R"(" y1=")" + y(c->instances) + R"(" y2=")" + y(c->instances) + R"(" stroke=")" + color +
         R"(" stroke-dasharray=")" + (row == 0 ? "none" : "4 3") + "\"/>\n";
    s += R"(<text x=")" + FormatFixed(width - right + 6, 0) + R"(" y=")" + y(c->instances) +
         R"(" fill=")" + color + "\">" + XmlSafe(c->offer.name()) + " " +
         FormatFixed(c->instances, 1) + "</text>\n";
    ++row;
  }
  return s + "</svg>\n";
}

}  // namespace gpuadvisor
