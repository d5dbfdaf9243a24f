#include <algorithm>
#include <cmath>
#include <map>

#include "app/catalog_views.h"
#include "util/json_text.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// An amount, rounded, or null.
ojson MoneyJson(const std::optional<Money>& m, int decimals) {
  return m ? ojson(RoundedAmount(*m, decimals)) : ojson(nullptr);
}

// `c`: the host's currency, which spells the keys ("savings_cny_per_month").
ojson RecJson(const IdleRecommendation& r, Currency c) {
  return {{"action", r.action},
          {"summary", r.summary},
          {"target_instance_type",
           r.target_instance_type.empty() ? ojson(nullptr) : ojson(r.target_instance_type)},
          {MoneyKey("target_usd_per_hour", c), MoneyJson(r.target_per_hour, 6)},
          {MoneyKey("savings_usd_per_month", c), MoneyJson(r.savings_per_month, 2)}};
}

ojson TimeOrNull(const std::optional<double>& t) {
  return t ? ojson(FormatUtc(*t)) : ojson(nullptr);
}

std::optional<double> Gib(const std::optional<double>& mib) {
  if (!mib) return std::nullopt;
  return *mib / 1024;
}

double Round(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}

std::optional<double> Round(const std::optional<double>& v, int decimals) {
  if (!v) return std::nullopt;
  return Round(*v, decimals);
}

ojson HostJson(const HostUsage& h, const Freshness& fresh) {
  ojson periods = ojson::array();
  for (const IdlePeriod& p : h.idle_periods) {
    periods.push_back({{"start", FormatUtc(p.start_s)},
                       {"end", FormatUtc(p.end_s)},
                       {"hours", Round((p.end_s - p.start_s) / 3600, 3)}});
  }
  ojson gpus = ojson::array();
  for (const GpuUsage& g : h.gpu_usage) {
    gpus.push_back({{"index", g.index},
                    {"uuid", g.uuid.empty() ? ojson(nullptr) : ojson(g.uuid)},
                    {"name", g.name.empty() ? ojson(nullptr) : ojson(g.name)},
                    {"samples", g.samples},
                    {"hours_covered", Round(g.hours_covered, 3)},
                    {"avg_util_pct", Opt(Round(g.avg_util_pct, 2))},
                    {"p95_util_pct", Opt(g.p95_util_pct)},
                    {"mem_used_avg_mib", Opt(Round(g.mem_used_avg_mib, 0))},
                    {"mem_used_max_mib", Opt(g.mem_used_max_mib)},
                    {"mem_total_mib", Opt(g.mem_total_mib)},
                    {"avg_power_w", Opt(Round(g.avg_power_w, 1))},
                    {"idle_hours", Round(g.idle_hours, 3)},
                    {"idle_fraction", Opt(Round(g.idle_fraction, 4))}});
  }
  ojson alts = ojson::array();
  const Currency c = h.currency();
  for (const IdleRecommendation& a : h.alternatives) alts.push_back(RecJson(a, c));
  return {{"host", h.host},
          {"status", DataStatusName(h.status)},
          {"status_reason", h.status_reason.empty() ? ojson(nullptr) : ojson(h.status_reason)},
          {"instance_type", h.instance_type.empty() ? ojson(nullptr) : ojson(h.instance_type)},
          {"type_guessed", h.type_guessed},
          {"type_note", h.type_note.empty() ? ojson(nullptr) : ojson(h.type_note)},
          {"region", h.region},
          {"purchase", PurchaseKindName(h.purchase)},
          {"currency", CurrencyCode(c)},
          {MoneyKey("usd_per_hour", c), MoneyJson(h.price_per_hour(), 6)},
          {"price_source", h.price ? ojson(h.price->from.source) : ojson(nullptr)},
          {"price_date", h.price ? ojson(h.price->from.date) : ojson(nullptr)},
          {"price_stale", h.price && fresh.Stale(h.price->from.date)},
          {"gpu_name", h.gpu_name.empty() ? ojson(nullptr) : ojson(h.gpu_name)},
          {"gpus", h.gpus},
          {"gpus_busy", h.gpus_busy},
          {"samples", h.samples},
          {"first_sample", TimeOrNull(h.first_s)},
          {"last_sample", TimeOrNull(h.last_s)},
          {"hours_covered", Round(h.hours_covered, 3)},
          {"avg_util_pct", Opt(Round(h.avg_util_pct, 2))},
          {"p95_util_pct", Opt(h.p95_util_pct)},
          {"mem_used_max_gib", Opt(Round(Gib(h.mem_used_max_mib), 2))},
          {"mem_total_gib", Opt(Round(Gib(h.mem_total_mib), 2))},
          {"idle_hours", Round(h.idle_hours, 3)},
          {"idle_fraction", Opt(Round(h.idle_fraction, 4))},
          {"idle_period_count", h.idle_period_count},
          {"longest_idle_hours", Round(h.longest_idle_hours, 3)},
          {"idle_periods", periods},
          {"gpu_idle_hours", Round(h.gpu_idle_hours, 3)},
          {MoneyKey("wasted_usd", c), MoneyJson(h.wasted, 2)},
          {"recommendation", RecJson(h.recommendation, c)},
          {"alternatives", alts},
          {"gpu_details", gpus}};
}

// The "prometheus" member of a report whose samples came from a Prometheus server.
ojson PrometheusSourceJson(const PrometheusSourceInfo& info) {
  return {{"url", info.url},
          {"selector", info.selector},
          {"start", FormatUtc(info.start_s)},
          {"end", FormatUtc(info.end_s)},
          {"step_s", info.step_s},
          {"hosts", info.hosts},
          {"gpus", info.gpus},
          {"requests", info.requests},
          {"response_bytes", info.response_bytes},
          {"points", info.points},
          {"window_samples", info.samples},
          {"pushdown", info.pushdown}};
}

// The currencies the report has totals in: those of its priced hosts, USD when there are none.
std::vector<Currency> TotalCurrencies(const IdleReport& r) {
  std::vector<Currency> out;
  for (const std::vector<Money>& ts :
       {r.total_wasted.totals(), r.total_savings_per_month.totals()}) {
    for (const Money& m : ts) {
      if (std::find(out.begin(), out.end(), m.currency) == out.end()) out.push_back(m.currency);
    }
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back(Currency::kUsd);
  return out;
}

Money Total(const MoneyTotals& t, Currency c) { return t.Of(c).value_or(Money(0, c)); }

// The hour-of-week profile: 168 figures per array, Monday 00:00 first.
ojson WeekProfileJson(const WeekProfile& w) {
  ojson covered = ojson::array(), idle = ojson::array(), share = ojson::array();
  for (size_t i = 0; i < w.covered_hours.size(); ++i) {
    covered.push_back(Round(w.covered_hours[i], 3));
    idle.push_back(Round(w.idle_hours[i], 3));
    share.push_back(w.covered_hours[i] > 0 ? ojson(Round(w.idle_hours[i] / w.covered_hours[i], 4))
                                           : ojson(nullptr));
  }
  return {{"timezone", w.timezone},       {"basis", w.basis},
          {"first_hour", "Monday 00:00"}, {"covered_host_hours", covered},
          {"idle_host_hours", idle},      {"idle_share", share}};
}

// The report with an empty "instances" array (its hosts are added by the callers), and the
// Prometheus source last when there is one.
ojson ReportJsonWithoutHosts(const IdleReport& r, const PrometheusSourceInfo* prometheus) {
  ojson files = ojson::array();
  for (const TelemetryFileInfo& f : r.files) {
    files.push_back({{"path", f.path},
                     {"format", TelemetryFormatName(f.format)},
                     {"gzip", f.gzip},
                     {"bytes", f.bytes},
                     {"samples", f.samples}});
  }
  ojson j = {{"settings",
              {{"idle_threshold_pct", r.options.idle_threshold_pct},
               {"idle_window_s", r.options.idle_window_s},
               {"min_rightsizing_span_s", r.options.min_rightsizing_span_s},
               {"region", r.options.region},
               {"purchase", PurchaseKindName(r.options.purchase)}}},
             {"files", files},
             {"hours_covered", Round(r.hours_covered, 3)},
             {"week_profile", r.week_profile ? WeekProfileJson(*r.week_profile) : ojson(nullptr)},
             {"instances", ojson::array()}};
  // One total per currency of the hosts ("total_wasted_usd", "total_wasted_cny"); a fleet with
  // no priced host keeps the USD keys at 0.
  for (Currency c : TotalCurrencies(r)) {
    j[MoneyKey("total_wasted_usd", c)] = RoundedAmount(Total(r.total_wasted, c), 2);
    j[MoneyKey("total_savings_usd_per_month", c)] =
        RoundedAmount(Total(r.total_savings_per_month, c), 2);
  }
  j["assumptions"] = {
      "idle: every GPU at or under the threshold for at least the window",
      "utilisation is nvidia-smi utilization.gpu / DCGM GPU_UTIL: the share of time a kernel "
      "ran, not the share of the GPU it used",
      "savings per month assume the observed pattern continues for 730 h"};
  j["warnings"] = r.warnings;
  if (prometheus) j["prometheus"] = PrometheusSourceJson(*prometheus);
  return j;
}

}  // namespace

JsonDoc IdleReportJson(const IdleReport& r, const Freshness& fresh,
                       const PrometheusSourceInfo* prometheus) {
  ojson j = ReportJsonWithoutHosts(r, prometheus);
  ojson& hosts = j["instances"];
  for (const HostUsage& h : r.hosts) hosts.push_back(HostJson(h, fresh));
  return MakeJsonDoc(std::move(j));
}

std::string IdleReportJsonText(const IdleReport& r, const Freshness& fresh,
                               const PrometheusSourceInfo* prometheus) {
  const std::string outer = DumpJson(ReportJsonWithoutHosts(r, prometheus));
  // Inside JSON strings every quote is escaped, so this text is the key itself.
  const std::string key = ",\"instances\":[";
  const size_t pos = outer.find(key);
  if (pos == std::string::npos) return IdleReportJson(r, fresh, prometheus).Text();  // not reached
  const size_t at = pos + key.size();
  std::string out = outer.substr(0, at);
  for (size_t i = 0; i < r.hosts.size(); ++i) {
    const std::string host = DumpJson(HostJson(r.hosts[i], fresh));
    if (i == 0) out.reserve(outer.size() + (host.size() + 64) * r.hosts.size());
    if (i > 0) out += ',';
    out += host;
  }
  out.append(outer, at, std::string::npos);
  return out;
}

// The recommendation actions and data states (IdleRecommendation::action, DataStatusName:
// English in JSON), marked for translation: the table shows each as Tr(name).
[[maybe_unused]] constexpr const char* kIdleNames[] = {
    N_("stop"), N_("schedule"),     N_("fewer-gpus"), N_("smaller-gpu"),
    N_("keep"), N_("collect-more"), N_("ok"),         N_("insufficient-data")};

Table IdleTable(const IdleReport& r) {
  Table t;
  t.AddColumn(Tr("host"));
  t.AddColumn(Tr("type"));
  t.AddColumn(Tr("GPUs"), true);
  t.AddColumn(Tr("busy"), true);
  t.AddColumn(Tr("hours"), true);
  t.AddColumn(Tr("data"));
  t.AddColumn(Tr("avg %"), true);
  t.AddColumn(Tr("p95 %"), true);
  t.AddColumn(Tr("mem GiB"), true);
  t.AddColumn(Tr("idle h"), true);
  t.AddColumn(Tr("idle %"), true);
  PriceColumns money;
  for (const HostUsage& h : r.hosts) {
    if (h.price) money.Add(h.currency());
  }
  t.AddColumn(money.Named(Tr("wasted")), true);
  t.AddColumn(money.Named(Tr("save"), Tr("/mo")), true);
  t.AddColumn(Tr("recommendation"));
  for (const HostUsage& h : r.hosts) {
    std::string type =
        h.instance_type.empty() ? "?" : h.instance_type + (h.type_guessed ? "*" : "");
    std::string rec = Tr(h.recommendation.action.c_str());
    if (!h.recommendation.target_instance_type.empty() && h.recommendation.action != "spot") {
      rec += " -> " + h.recommendation.target_instance_type;
    }
    t.AddRow(
        {h.host, type, std::to_string(h.gpus), std::to_string(h.gpus_busy),
         FormatFixed(h.hours_covered, 1), Tr(DataStatusName(h.status)), Cell(h.avg_util_pct, 1),
         Cell(h.p95_util_pct, 1), Cell(Gib(h.mem_used_max_mib), 1), FormatFixed(h.idle_hours, 1),
         Cell(h.idle_fraction ? std::optional<double>(*h.idle_fraction * 100) : std::nullopt, 0),
         money.Cell(h.wasted, 2), money.Cell(h.recommendation.savings_per_month, 0), rec});
  }
  // One TOTAL row per currency: yuan are never added to dollars.
  const std::vector<Currency> currencies = TotalCurrencies(r);
  for (Currency c : currencies) {
    const bool named = currencies.size() > 1;
    int gpus = 0;
    double idle = 0;
    size_t hosts = 0;
    for (const HostUsage& h : r.hosts) {
      if (named && h.currency() != c) continue;
      gpus += h.gpus;
      idle += h.idle_hours;
      ++hosts;
    }
    // TRANSLATORS: the total row of the idle table: the number of hosts, after the currency
    // code when the fleet pays in more than one.
    const std::string total =
        named ? (hosts == 1 ? Trf("TOTAL {0} ({1} host)", CurrencyCode(c), hosts)
                            : Trf("TOTAL {0} ({1} hosts)", CurrencyCode(c), hosts))
              : (hosts == 1 ? Trf("TOTAL ({0} host)", hosts) : Trf("TOTAL ({0} hosts)", hosts));
    t.AddRow({total, "", std::to_string(gpus), "", "", "", "", "", "", FormatFixed(idle, 1), "",
              money.Cell(Total(r.total_wasted, c), 2),
              money.Cell(Total(r.total_savings_per_month, c), 0), ""});
  }
  return t;
}

// Day names of the hour-of-week grid, Monday first.
constexpr const char* kWeekDays[] = {N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"),
                                     N_("Fri"), N_("Sat"), N_("Sun")};

std::string WeekProfileText(const WeekProfile& w) {
  // TRANSLATORS: {0} is a time zone ("UTC", "Asia/Shanghai").
  std::string out = Trf("Idle by hour of the week ({0}): tenths of the observed host time in "
                        "idle stretches, 0-9; # all of it; . not observed",
                        w.timezone) +
                    "\n";
  if (w.basis == "mixed-regions") {
    out += Tr("(the hosts' regions keep different time zones: UTC here; --timezone sets another)");
    out += "\n";
  }
  size_t label = 0;
  for (const char* d : kWeekDays) label = std::max(label, DisplayWidth(Tr(d)));
  std::string head(label + 2, ' ');
  for (int h = 0; h < 24; h += 6) {
    std::string n = std::to_string(h);
    head += n + std::string(7 - n.size(), ' ');
  }
  out += head + "\n";
  double covered = 0, idle = 0;
  for (int d = 0; d < 7; ++d) {
    std::string line(Tr(kWeekDays[d]));
    line += std::string(label + 2 - DisplayWidth(line), ' ');
    for (int h = 0; h < 24; ++h) {
      const double c = w.covered_hours[d * 24 + h], i = w.idle_hours[d * 24 + h];
      covered += c;
      idle += i;
      if (h > 0 && h % 6 == 0) line += ' ';
      if (!(c > 0)) {
        line += '.';
      } else if (i >= c * 0.995) {
        line += '#';
      } else {
        line += static_cast<char>('0' + std::clamp(static_cast<int>(i / c * 10), 0, 9));
      }
    }
    out += line + "\n";
  }
  if (covered > 0) {
    out += Trf("{0}% of {1} observed host-hours idle", FormatFixed(idle / covered * 100, 0),
               FormatFixed(covered, 1)) +
           "\n";
  }
  return out;
}

std::string IdleNotes(const IdleReport& r) {
  std::string out = "\n";
  if (r.week_profile) out += WeekProfileText(*r.week_profile) + "\n";
  for (const HostUsage& h : r.hosts) {
    out += h.host + ": " + h.recommendation.summary;
    if (h.recommendation.savings_per_month) {
      out += Trf(" (saves ~{0}/month)", FormatMoney(*h.recommendation.savings_per_month, 0));
    }
    out += "\n";
    if (!h.status_reason.empty() && h.status_reason != h.recommendation.summary) {
      out += "  " + h.status_reason + "\n";
    }
    for (const IdleRecommendation& a : h.alternatives) {
      out += "  " + Trf("also: {0}", a.summary);
      if (a.savings_per_month) {
        out += Trf(" (~{0}/month)", FormatMoney(*a.savings_per_month, 0));
      }
      out += "\n";
    }
  }
  bool guessed = false;
  std::map<std::string, std::string> sources;
  for (const HostUsage& h : r.hosts) {
    guessed |= h.type_guessed;
    if (h.price) sources[h.price->from.source] = h.price->from.date;
  }
  if (guessed) {
    out +=
        Tr("* type guessed from the GPU name and count (cheapest such type); name it in an "
           "inventory file (hosts.csv: hostname,instance_type,region,purchase)");
    out += "\n";
  }
  for (const auto& [src, date] : sources) {
    out += Trf("prices: {0} ({1})", src, date) + "\n";
  }
  out += Trf("idle = every GPU at or under {0}% for at least {1} min; savings assume the "
             "observed pattern continues",
             FormatFixed(r.options.idle_threshold_pct, 0),
             FormatFixed(r.options.idle_window_s / 60, 0)) +
         "\n";
  return out;
}

}  // namespace gpuadvisor
