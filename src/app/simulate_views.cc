#include <algorithm>
#include <cmath>

#include "app/catalog_views.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

double Round(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}

ojson PolicyJson(const ScalingPolicy& p) {
  return {{"target_utilization", p.target_utilization},
          {"scale_out_cooldown_s", p.scale_out_cooldown_s},
          {"scale_in_cooldown_s", p.scale_in_cooldown_s},
          {"min_instances", p.min_instances},
          {"max_instances", p.max_instances},
          {"boot_s", p.boot_s},
          {"spot_share", p.spot_share}};
}

ojson ResultJson(const SimResult& r, double max_violation) {
  return {{"policy", PolicyJson(r.policy)},
          {"instance_hours", Round(r.instance_hours, 3)},
          {"spot_instance_hours", Round(r.spot_instance_hours, 3)},
          {MoneyKey("cost_usd", r.cost), RoundedAmount(r.cost, 2)},
          {"requests", Round(r.requests, 0)},
          {"violated_requests", Round(r.violated_requests, 0)},
          {"violation_fraction", r.violation_fraction},
          {"meets_slo", r.violation_fraction <= max_violation + 1e-12},
          {"peak_instances", r.peak_instances},
          {"spot_interruptions", r.interruptions}};
}

// What the best policy saves against the static peak fleet; both are the one fleet's currency.
// REQUIRES: r.best.
double SavingVsStatic(const SimulationReport& r) {
  if (!r.best) return 0;
  Result<Money> d = Minus(r.static_peak.cost, r.best->cost);
  return d.ok() ? RoundedAmount(*d, 2) : 0;
}

// The generated trace's origin and the engine's notes (English in JSON), marked for
// translation: the notes below show each as Tr(text).
[[maybe_unused]] constexpr const char* kSimulationTexts[] = {
    N_("diurnal"),
    N_("no searched policy meets the SLO; raise max-instances or shorten boot-time")};

std::string Policy(const ScalingPolicy& p) {
  // TRANSLATORS: a scaling policy: target utilisation, scale-out/scale-in cooldowns, and the
  // minimum-maximum instance count.
  std::string s =
      Trf("target {0}%, out/in cooldown {1}/{2} min, {3}-{4}",
          FormatFixed(p.target_utilization * 100, 0), FormatFixed(p.scale_out_cooldown_s / 60, 0),
          FormatFixed(p.scale_in_cooldown_s / 60, 0), p.min_instances, p.max_instances);
  if (p.spot_share > 0) s += Trf(", {0}% spot", FormatFixed(p.spot_share * 100, 0));
  return s;
}

}  // namespace

JsonDoc SimulationJson(const SimulationReport& r) {
  const double v = r.search.max_violation_fraction;
  const Currency c = r.costs.on_demand_per_hour.currency;
  ojson j = {
      {"instance_type", r.costs.instance_type},
      {"capacity_rps_per_instance", Round(r.costs.capacity_rps, 3)},
      {"currency", CurrencyCode(c)},
      {MoneyKey("on_demand_usd_per_hour", c), r.costs.on_demand_per_hour.amount},
      {MoneyKey("spot_usd_per_hour", c),
       r.costs.spot_per_hour ? ojson(r.costs.spot_per_hour->amount) : ojson(nullptr)},
      {"price_source", r.costs.on_demand_from.source},
      {"price_date", r.costs.on_demand_from.date},
      {"spot_interruptions_per_hour", r.costs.spot_interruptions_per_hour},
      {"trace",
       {{"origin", r.trace.origin},
        {"points", r.trace.points.size()},
        {"step_s", r.trace.step_s},
        {"hours", Round(r.trace.Duration() / 3600, 3)},
        {"peak_rps", r.trace.Peak()}}},
      {"slo_max_violation_fraction", v},
      {"policy", ResultJson(r.policy, v)},
      {"static_peak", ResultJson(r.static_peak, v)},
      {"best", r.best ? ResultJson(*r.best, v) : ojson(nullptr)},
      {"policies_searched", r.policies_searched},
      {MoneyKey("savings_vs_static_usd", c), r.best ? ojson(SavingVsStatic(r)) : ojson(nullptr)},
      {"notes", r.notes}};
  return MakeJsonDoc(std::move(j));
}

Table SimulationTable(const SimulationReport& r) {
  Table t;
  t.AddColumn(Tr("plan"));
  t.AddColumn(Tr("policy"));
  t.AddColumn(Tr("inst-h"), true);
  t.AddColumn(Tr("peak"), true);
  t.AddColumn(Tr("cost"), true);
  t.AddColumn(Tr("missed req"), true);
  t.AddColumn(Tr("missed %"), true);
  t.AddColumn(Tr("SLO"));
  auto row = [&](const std::string& name, const SimResult& s, const std::string& policy) {
    const bool ok = s.violation_fraction <= r.search.max_violation_fraction + 1e-12;
    t.AddRow({name, policy, FormatFixed(s.instance_hours, 1), std::to_string(s.peak_instances),
              FormatMoney(s.cost, 2), FormatFixed(s.violated_requests, 0),
              FormatFixed(s.violation_fraction * 100, 3), ok ? Tr("met") : Tr("missed")});
  };
  row(Tr("given policy"), r.policy, Policy(r.policy.policy));
  row(Tr("static peak"), r.static_peak,
      Trf("{0} on-demand, always on", r.static_peak.peak_instances));
  if (r.best) row(Tr("cheapest in SLO"), *r.best, Policy(r.best->policy));
  return t;
}

std::string SimulationNotes(const SimulationReport& r) {
  std::string out =
      "\n" + Trf("{0}: {1} req/s per instance, {2}/h on-demand ({3}, {4})", r.costs.instance_type,
                 FormatFixed(r.costs.capacity_rps, 2), FormatMoney(r.costs.on_demand_per_hour, 2),
                 r.costs.on_demand_from.source, r.costs.on_demand_from.date);
  if (r.costs.spot_per_hour) {
    out +=
        Trf(", {0}/h spot ({1})", FormatMoney(*r.costs.spot_per_hour, 2), r.costs.spot_from.source);
  }
  out += "\n" +
         Trf("trace: {0}, {1} steps of {2} min, {3} h, peak {4} req/s", Tr(r.trace.origin.c_str()),
             r.trace.points.size(), FormatFixed(r.trace.step_s / 60, 1),
             FormatFixed(r.trace.Duration() / 3600, 1), FormatFixed(r.trace.Peak(), 1)) +
         "\n";
  if (r.best) {
    out +=
        Trf("cheapest policy meeting the SLO ({0} searched) costs {1} vs {2} static peak "
            "({3}% less)",
            r.policies_searched, FormatMoney(r.best->cost, 2), FormatMoney(r.static_peak.cost, 2),
            FormatFixed(100 * (1 - r.best->cost.amount / std::max(1e-9, r.static_peak.cost.amount)),
                        0)) +
        "\n";
  }
  for (const std::string& n : r.notes) out += Trf("note: {0}", Tr(n.c_str())) + "\n";
  out +=
      Tr("missed = requests over the ready capacity (they miss the latency target); "
         "instances are paid from launch, boot included");
  out += "\n";
  return out;
}

std::string SimulationSvg(const SimulationReport& r) {
  const std::vector<SimStep>& a = r.policy.steps;
  const std::vector<SimStep>* b = r.best ? &r.best->steps : nullptr;
  const double width = 900, height = 420, left = 70, right = 70, top = 40, bottom = 50;
  double ymax = 1, tmax = 1, cmax = 1;
  for (const SimStep& s : a) {
    ymax = std::max({ymax, s.load_rps, s.capacity_rps});
    tmax = std::max(tmax, s.t_s);
    cmax = std::max(cmax, s.cost);
  }
  if (b != nullptr) {
    for (const SimStep& s : *b) {
      ymax = std::max(ymax, s.capacity_rps);
      cmax = std::max(cmax, s.cost);
    }
  }
  ymax *= 1.1;
  cmax *= 1.1;
  auto x = [&](double t) { return FormatFixed(left + t / tmax * (width - left - right), 1); };
  auto y = [&](double v) {
    return FormatFixed(height - bottom - v / ymax * (height - top - bottom), 1);
  };
  auto yc = [&](double v) {
    return FormatFixed(height - bottom - v / cmax * (height - top - bottom), 1);
  };
  auto line = [&](const std::vector<SimStep>& steps, auto value, auto ymap, const char* color,
                  const char* dash) {
    std::string pts;
    for (const SimStep& s : steps) pts += x(s.t_s) + "," + ymap(value(s)) + " ";
    return R"(<polyline fill="none" stroke=")" + std::string(color) +
           R"(" stroke-width="1.5" stroke-dasharray=")" + dash + R"(" points=")" + pts + "\"/>\n";
  };
  std::string s = R"(<svg xmlns="http://www.w3.org/2000/svg" width="900" height="420" )"
                  "font-family=\"sans-serif\" font-size=\"12\">\n"
                  "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                  R"(<text x="450" y="18" text-anchor="middle" font-size="14">)" +
                  r.costs.instance_type +
                  ": load and capacity (req/s, left), cumulative cost (USD, right)" +
                  "</text>\n"
                  "<line x1=\"70\" y1=\"370\" x2=\"830\" y2=\"370\" stroke=\"black\"/>\n"
                  "<line x1=\"70\" y1=\"40\" x2=\"70\" y2=\"370\" stroke=\"black\"/>\n"
                  "<line x1=\"830\" y1=\"40\" x2=\"830\" y2=\"370\" stroke=\"black\"/>\n"
                  "<text x=\"450\" y=\"405\" text-anchor=\"middle\">hours</text>\n";
  for (int k = 0; k <= 4; ++k) {
    const double f = k / 4.0;
    s += R"(<text x=")" + x(f * tmax) + R"(" y="386" text-anchor="middle">)" +
         FormatFixed(f * tmax / 3600, 0) + "</text>\n";
    s += R"(<text x="64" y=")" + y(f * ymax) + R"(" text-anchor="end">)" +
         FormatFixed(f * ymax, ymax >= 100 ? 0 : 1) + "</text>\n";
    s += R"(<text x="836" y=")" + yc(f * cmax) + R"(">)" + FormatFixed(f * cmax, 0) + "</text>\n";
  }
  s += line(a, [](const SimStep& p) { return p.load_rps; }, y, "#333", "none");
  s += line(a, [](const SimStep& p) { return p.capacity_rps; }, y, "#c33", "none");
  s += line(a, [](const SimStep& p) { return p.cost; }, yc, "#c33", "4 3");
  if (b != nullptr) {
    s += line(*b, [](const SimStep& p) { return p.capacity_rps; }, y, "#36c", "none");
    s += line(*b, [](const SimStep& p) { return p.cost; }, yc, "#36c", "4 3");
  }
  s += line(r.static_peak.steps, [](const SimStep& p) { return p.cost; }, yc, "#999", "2 2");
  s += R"(<g font-size="11"><text x="80" y="54" fill="#333">load</text>)"
       R"(<text x="130" y="54" fill="#c33">given policy: capacity, cost (dashed)</text>)"
       R"(<text x="380" y="54" fill="#36c">cheapest in SLO</text>)"
       "<text x=\"500\" y=\"54\" fill=\"#999\">static peak cost</text></g>\n";
  return s + "</svg>\n";
}

}  // namespace gpuadvisor
