// The option tables (one per command) and OptionValues, the one checker behind every front end.
#include "app/options.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "util/numbers.h"
#include "gpuadvisor/purchase.h"
#include "app/requests.h"
#include "gpuadvisor/simulate.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

constexpr double kHour = 3600;
constexpr double kDay = 24 * kHour;

std::string Quoted(std::string_view v) { return "\"" + std::string(v) + "\""; }

// The option as the library names it; each front end spells it its own way (CliMessage).
std::string NameOf(const OptionSpec& o) { return std::string(o.name); }

using options_internal::DurationText;
std::string FormatNumber(double v) { return options_internal::NumberText(v); }

std::string BoundText(const OptionSpec& o, double v) {
  return o.type == OptionType::kDuration ? DurationText(v) : FormatNumber(v);
}

// "one of a, b, c" (the form ParsePurchaseKind's errors use too).
std::string ChoicesText(const std::vector<std::string_view>& choices) {
  std::string out = "one of ";
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += ", ";
    out += choices[i];
  }
  return out;
}

// "a, b,,c" -> {"a", "b", "c"}.
std::vector<std::string> ListItems(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view item : Split(text, ',')) {
    if (!Trim(item).empty()) out.emplace_back(Trim(item));
  }
  return out;
}

// "true", "1", "yes", "on" or "" (a bare flag or query key) -> true.
std::optional<bool> BoolOf(std::string_view text) {
  const std::string v = ToLower(Trim(text));
  if (v.empty() || v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  return std::nullopt;
}

bool InChoices(const OptionSpec& o, std::string_view text) {
  const std::string v = ToLower(Trim(text));
  if (std::any_of(o.choices.begin(), o.choices.end(),
                  [&](std::string_view c) { return ToLower(c) == v; })) {
    return true;
  }
  // Purchase options also go by their short names ("reserved", "cb"): the one parser decides.
  Result<PurchaseKind> p = ParsePurchaseKind(v, "", AllPurchaseKinds());
  return p.ok() && std::find(o.choices.begin(), o.choices.end(),
                             std::string_view(PurchaseKindName(*p))) != o.choices.end();
}

// `v` (given as `text`) within `o`'s bounds, whole for integers.
Result<double> InRange(const OptionSpec& o, double v, std::string_view text) {
  const bool whole = o.type != OptionType::kInteger || v == std::floor(v);
  if (!std::isfinite(v) || !whole || v < o.lo || v > o.hi) {
    std::string what = o.type == OptionType::kInteger    ? "a whole number"
                       : o.type == OptionType::kDuration ? "a duration"
                                                         : "a number";
    const std::string range = OptionRangeText(o);
    if (!range.empty()) what += (StartsWith(range, "at ") ? ", " : " from ") + range;
    return Status::InvalidArgument(NameOf(o) + ": expected " + what + ", got " + Quoted(Trim(text)))
        .WithField(o.name);
  }
  return v;
}

// A number parsed for `o`; SI suffixes for numbers, units for durations.
Result<double> ParseFor(const OptionSpec& o, std::string_view text) {
  const std::string flag = NameOf(o);
  Result<double> v = o.type == OptionType::kDuration ? ParseDurationSeconds(Trim(text), flag)
                                                     : ParseSiNumber(Trim(text), flag);
  if (!v.ok()) return v.status().WithField(o.name);
  return InRange(o, *v, text);
}

bool IsNumberType(OptionType t) {
  return t == OptionType::kNumber || t == OptionType::kInteger || t == OptionType::kDuration;
}

// A typed number as text: the shortest form that reads back to the same double.
std::string ExactText(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  char buf[40];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// ---- the tables ----
// Each entry names only what differs from OptionSpec's defaults.

CommandSpec SimulateSpec() {
  return {"simulate",
          {
              {.name = "trace",
               .help = "Request-rate trace CSV: timestamp,requests_per_s",
               .front_ends = kCli,
               .metavar = "FILE"},
              {.name = "diurnal",
               .help = "Generate a daily pattern instead: PEAK[,TROUGH] req/s, each 0 to 1e9 "
                       "(trough default peak/5)",
               .front_ends = kCli,
               .metavar = "PEAK[,TROUGH]"},
              {.name = "days",
               .type = OptionType::kNumber,
               .help = "Days of the generated pattern",
               .default_text = "7",
               .lo = 0,
               .hi = 366,
               .front_ends = kCli},
              {.name = "step",
               .type = OptionType::kDuration,
               .help = "Step of the generated pattern",
               .default_text = "5m",
               .lo = 1,
               .hi = kDay,
               .front_ends = kCli},
              {.name = "instance",
               .help = "Serving instance type, e.g. g6e.xlarge",
               .front_ends = kCli,
               .required = true,
               .metavar = "TYPE"},
              {.name = "region",
               .help = "Region for prices",
               .default_text = "us-east-1",
               .front_ends = kCli,
               .metavar = "REGION"},
              {.name = "capacity-rps",
               .type = OptionType::kNumber,
               .help = "Requests/s one instance serves, over 0 (default: estimated from the "
                       "workload flags)",
               .unit = "req/s",
               .lo = 0,
               .hi = kMaxTraceRps,
               .front_ends = kCli},
              {.name = "target-utilization",
               .type = OptionType::kNumber,
               .help = "Autoscaling target, a fraction",
               .default_text = "0.7",
               .lo = 0.01,
               .hi = 1,
               .front_ends = kCli},
              {.name = "scale-out-cooldown",
               .type = OptionType::kDuration,
               .help = "Between launches",
               .default_text = "5m",
               .lo = 0,
               .hi = 7 * kDay,
               .front_ends = kCli},
              {.name = "scale-in-cooldown",
               .type = OptionType::kDuration,
               .help = "After any change before stopping instances",
               .default_text = "15m",
               .lo = 0,
               .hi = 7 * kDay,
               .front_ends = kCli},
              {.name = "min-instances",
               .type = OptionType::kInteger,
               .help = "Fleet minimum",
               .default_text = "1",
               .lo = 0,
               .hi = 100000,
               .front_ends = kCli},
              {.name = "max-instances",
               .type = OptionType::kInteger,
               .help = "Fleet maximum",
               .default_text = "100",
               .lo = 0,
               .hi = 100000,
               .front_ends = kCli},
              {.name = "boot-time",
               .type = OptionType::kDuration,
               .help = "Launch to serving",
               .default_text = "10m",
               .lo = 0,
               .hi = kDay,
               .front_ends = kCli},
              {.name = "spot-share",
               .type = OptionType::kNumber,
               .help = "Share of launches on spot, a fraction",
               .default_text = "0",
               .lo = 0,
               .hi = 1,
               .front_ends = kCli},
              {.name = "allow-spot",
               .type = OptionType::kBool,
               .help = "Let the policy search use spot",
               .front_ends = kCli},
              {.name = "max-missed",
               .type = OptionType::kNumber,
               .help = "SLO: percentage of requests that may miss the latency target",
               .unit = "%",
               .default_text = "0",
               .lo = 0,
               .hi = 100,
               .front_ends = kCli},
              {.name = "no-search",
               .type = OptionType::kBool,
               .help = "Simulate the given policy only",
               .front_ends = kCli},
              {.name = "seed",
               .type = OptionType::kInteger,
               .help = "Random seed for spot interruptions",
               .default_text = "1",
               .lo = 0,
               .hi = 1e15,
               .front_ends = kCli},
              {.name = "plot",
               .help = "Write an SVG chart of load, capacity and cost",
               .front_ends = kCli,
               .metavar = "FILE"},
          }};
}

CommandSpec WatchSpec() {
  return {"watch",
          {
              {.name = "interval",
               .type = OptionType::kDuration,
               .help = "Sampling interval",
               .default_text = "60s",
               .lo = 0.01,
               .hi = kDay,
               .front_ends = kCli},
              {.name = "idle-minutes",
               .type = OptionType::kNumber,
               .help = "Act after this many minutes of idleness (43200 = 30 days)",
               .unit = "min",
               .default_text = "30",
               .lo = 0,
               .hi = 43200,
               .front_ends = kCli},
              {.name = "idle-threshold",
               .type = OptionType::kNumber,
               .help = "Every GPU at or under this utilisation is idle",
               .unit = "%",
               .default_text = "5",
               .lo = 0,
               .hi = 100,
               .front_ends = kCli},
              {.name = "boot-grace",
               .type = OptionType::kDuration,
               .help = "No action this soon after boot",
               .default_text = "10m",
               .lo = 0,
               .hi = 365 * kDay,
               .front_ends = kCli},
              {.name = "action",
               .help = "stop, hibernate, terminate, or command:SHELL-COMMAND",
               .default_text = "stop",
               .front_ends = kCli,
               .metavar = "ACTION"},
              {.name = "execute",
               .type = OptionType::kBool,
               .help = "Really act (default: dry run, log only)",
               .front_ends = kCli},
              {.name = "keep-alive-file",
               .help = "While this file exists nothing happens",
               .default_text = "/etc/gpuadvisor/keep-alive",
               .front_ends = kCli,
               .metavar = "FILE"},
              {.name = "log",
               .help = "Also append the decision log to this file",
               .front_ends = kCli,
               .metavar = "FILE"},
              {.name = "imds-endpoint",
               .help = "Instance metadata endpoint (default http://169.254.169.254, env "
                       "GPUADVISOR_IMDS_ENDPOINT)",
               .front_ends = kCli,
               .metavar = "URL"},
              {.name = "aws-endpoint-url",
               .help = "Passed to aws --endpoint-url",
               .front_ends = kCli,
               .metavar = "URL"},
              {.name = "region",
               .help = "Passed to aws --region",
               .front_ends = kCli,
               .metavar = "REGION"},
              {.name = "nvidia-smi",
               .help = "nvidia-smi command, looked up on PATH",
               .default_text = "nvidia-smi",
               .front_ends = kCli,
               .metavar = "COMMAND"},
              {.name = "max-samples",
               .type = OptionType::kInteger,
               .help = "Stop after N samples (0: run forever)",
               .default_text = "0",
               .lo = 0,
               .hi = 1e9,
               .front_ends = kCli},
              {.name = "sample-timeout",
               .type = OptionType::kDuration,
               .help = "Kill nvidia-smi after this long and log no-data",
               .default_text = "20s",
               .lo = 0.01,
               .hi = kHour,
               .front_ends = kCli},
              {.name = "wedged-after",
               .type = OptionType::kInteger,
               .help = "Failed samples in a row that mean a wedged driver",
               .default_text = "5",
               .lo = 1,
               .hi = 10000,
               .front_ends = kCli},
              {.name = "on-wedged",
               .type = OptionType::kChoice,
               .help = "keep-alive: never stop while the GPUs cannot be read; stop: count a "
                       "wedged instance as idle",
               .default_text = "keep-alive",
               .choices = {"keep-alive", "stop"},
               .front_ends = kCli},
          }};
}

CommandSpec ServeSpec() {
  return {
      "serve",
      {
          {.name = "host",
           .help = "Address to bind (127.0.0.1: this machine only)",
           .default_text = "127.0.0.1",
           .front_ends = kCli,
           .metavar = "ADDRESS"},
          {.name = "port",
           .type = OptionType::kInteger,
           .help = "TCP port (0 = any free port)",
           .default_text = "8080",
           .lo = 0,
           .hi = 65535,
           .front_ends = kCli},
          {.name = "threads",
           .type = OptionType::kInteger,
           .help = "Worker threads answering complete requests; idle and slow connections hold "
                   "none",
           .default_text = "16",
           .lo = 1,
           .hi = 1024,
           .front_ends = kCli},
          {.name = "max-connections",
           .type = OptionType::kInteger,
           .help = "Open connections at once, idle ones included; past it a new connection "
                   "closes the least valuable one (idle, then the slowest reader); 503 only when "
                   "every one is being answered",
           .default_text = "1024",
           .lo = 1,
           .hi = 100000,
           .front_ends = kCli},
          {.name = "max-connections-per-client",
           .type = OptionType::kInteger,
           .help = "Open connections from one client address; past it that client's own least "
                   "valuable connection is closed",
           .default_text = "256",
           .lo = 1,
           .hi = 100000,
           .front_ends = kCli},
          {.name = "catalog",
           .help = "Catalog file (default: the embedded catalog); re-read on reload",
           .front_ends = kCli,
           .metavar = "FILE"},
          {.name = "max-price-age",
           .type = OptionType::kInteger,
           .help = "Flag prices older than this many days as stale",
           .unit = "days",
           .default_text = "90",
           .lo = 0,
           .hi = 100000,
           .front_ends = kCli},
          {.name = "max-body",
           .type = OptionType::kNumber,
           .help = "Largest request body (1k, 1M ...)",
           .unit = "bytes",
           .default_text = "1M",
           .lo = 1024,
           .hi = 1e9,
           .front_ends = kCli},
          {.name = "timeout",
           .type = OptionType::kDuration,
           .help = "Read, write and keep-alive timeout, a plain number is seconds (idle clients "
                   "are cut off)",
           .default_text = "5s",
           .lo = 1,
           .hi = kHour,
           .front_ends = kCli},
          {.name = "header-timeout",
           .type = OptionType::kDuration,
           .help = "A request's head must arrive whole within this, however slowly; a plain "
                   "number is seconds",
           .default_text = "10s",
           .lo = 1,
           .hi = kHour,
           .front_ends = kCli},
          {.name = "body-timeout",
           .type = OptionType::kDuration,
           .help = "A request's body must arrive whole within this after its head, however "
                   "steadily it drips (408 after); a plain number is seconds",
           .default_text = "30s",
           .lo = 1,
           .hi = kHour,
           .front_ends = kCli},
          {.name = "request-timeout",
           .type = OptionType::kDuration,
           .help = "Wall-time ceiling of one request's handler: long work (upstream queries) "
                   "stops after it; a plain number is seconds",
           .default_text = "60s",
           .lo = 1,
           .hi = kHour,
           .front_ends = kCli},
          {.name = "drain-timeout",
           .type = OptionType::kDuration,
           .help = "On SIGTERM/SIGINT, requests being answered may finish for this long before "
                   "they are cancelled and the server exits; a plain number is seconds",
           .default_text = "10s",
           .lo = 1,
           .hi = kHour,
           .front_ends = kCli},
          {.name = "access-log",
           .help = "Log one line per request (time, client, method, target, status, bytes, ms) "
                   "to this file, appended, or - for standard output (default: off)",
           .front_ends = kCli,
           .metavar = "FILE"},
          {.name = "tls-cert",
           .help = "Serve HTTPS with this PEM certificate chain (with --tls-key; default: HTTP)",
           .front_ends = kCli,
           .metavar = "FILE"},
          {.name = "tls-key",
           .help = "The PEM private key of --tls-cert",
           .front_ends = kCli,
           .metavar = "FILE"},
          {.name = "cache",
           .type = OptionType::kInteger,
           .help = "Answers of estimate/recommend/pricing kept for identical requests (0 = off)",
           .default_text = "256",
           .lo = 0,
           .hi = 1e9,
           .front_ends = kCli},
          {.name = "cache-bytes",
           .type = OptionType::kNumber,
           .help = "Bytes of those answers kept, least recently used dropped first",
           .unit = "bytes",
           .default_text = "64M",
           .lo = 0,
           .hi = 64e9,
           .front_ends = kCli},
          {.name = "allow-host",
           .type = OptionType::kList,
           .help = "Answer requests whose Host header names this. Bound to loopback, only "
                   "localhost, 127.0.0.1 and [::1] are answered otherwise (DNS rebinding); bound "
                   "elsewhere, any Host is answered unless this is given ('*' = any)",
           .front_ends = kCli,
           .metavar = "HOST"},
          {.name = "cors",
           .help = "Allow cross-origin requests from this origin, scheme://host[:port], or * "
                   "(default: none)",
           .front_ends = kCli,
           .metavar = "ORIGIN"},
      }};
}

// The CLI's output options, shared by every command that prints results.
CommandSpec OutputSpec() {
  return {"output",
          {
              {.name = "format",
               .type = OptionType::kChoice,
               .help = "Output",
               .default_text = "table",
               .choices = {"table", "json", "csv", "markdown"},
               .front_ends = kCli},
              {.name = "json",
               .type = OptionType::kBool,
               .help = "Same as --format json",
               .front_ends = kCli},
              {.name = "catalog",
               .help = "Catalog file (default: the embedded catalog)",
               .front_ends = kCli,
               .metavar = "FILE"},
              {.name = "max-price-age",
               .type = OptionType::kInteger,
               .help = "Flag prices older than this",
               .unit = "days",
               .default_text = "90",
               .lo = 0,
               .hi = 1e7,
               .front_ends = kCli},
              {.name = "no-color",
               .type = OptionType::kBool,
               .help = "Never use colour (also: NO_COLOR env)",
               .front_ends = kCli},
          }};
}

OptionSpec OutFile(std::string_view help) {
  return {.name = "out", .help = help, .front_ends = kCli, .required = true, .metavar = "FILE"};
}

OptionSpec GeneratedAt() {
  return {.name = "generated-at",
          .help = "Build timestamp to record (default now)",
          .front_ends = kCli,
          .metavar = "TIME"};
}

CommandSpec CatalogBuildSpec() {
  return {"catalog build",
          {
              {.name = "manifest",
               .help = "Source manifest",
               .default_text = "data/sources.json",
               .front_ends = kCli,
               .metavar = "FILE"},
              {.name = "root",
               .help = "Directory the manifest's file paths are relative to (the sources' "
                       "checkout)",
               .front_ends = kCli,
               .required = true,
               .metavar = "DIR"},
              OutFile("Catalog file to write (atomically)"),
              GeneratedAt(),
          }};
}

CommandSpec CatalogUpgradeSpec() {
  return {"catalog upgrade",
          {
              {.name = "catalog",
               .help = "Catalog file to read",
               .front_ends = kCli,
               .required = true,
               .metavar = "FILE"},
              OutFile("Catalog file to write (atomically; may be the same)"),
          }};
}

CommandSpec CatalogImportSpec() {
  auto input = [](std::string_view name, std::string_view help) {
    return OptionSpec{.name = name,
                      .type = OptionType::kFiles,
                      .help = help,
                      .front_ends = kCli,
                      .metavar = "FILE"};
  };
  return {
      "catalog import",
      {
          input("price-list", "AWS Price List EC2 offer file, CSV or JSON (gzip ok; - = stdin)"),
          input("savings-plans", "Savings Plans regional rate file (CSV)"),
          input("instance-types", "aws ec2 describe-instance-types output (JSON)"),
          input("offerings", "aws ec2 describe-instance-type-offerings output (JSON)"),
          input("spot-advisor", "spot-advisor-data.json feed"),
          input("spot-history", "aws ec2 describe-spot-price-history output (JSON)"),
          OutFile("Catalog file to write (atomically)"),
          {.name = "snapshot-date",
           .help = "Date recorded for inputs that carry none (default today, UTC)",
           .front_ends = kCli,
           .metavar = "DATE"},
          GeneratedAt(),
          {.name = "no-progress",
           .type = OptionType::kBool,
           .help = "No progress bar (it is shown on a TTY only)",
           .front_ends = kCli},
      }};
}

CommandSpec CatalogDiffSpec() {
  auto file = [](std::string_view name, std::string_view help) {
    return OptionSpec{.name = name,
                      .help = help,
                      .front_ends = kCli,
                      .positional = true,
                      .required = true,
                      .metavar = "FILE"};
  };
  return {"catalog diff",
          {file("old", "Old catalog file (or \"embedded\")"),
           file("new", "New catalog file (or \"embedded\")")}};
}

}  // namespace

const char* OptionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kText:
      return "text";
    case OptionType::kBool:
      return "bool";
    case OptionType::kNumber:
      return "number";
    case OptionType::kInteger:
      return "integer";
    case OptionType::kDuration:
      return "duration";
    case OptionType::kChoice:
      return "choice";
    case OptionType::kList:
      return "list";
    case OptionType::kFiles:
      return "files";
  }
  return "text";
}

const std::vector<CommandSpec>& CommandSpecs() {
  static const std::vector<CommandSpec> kSpecs = {CommandOf<InstanceQuery>("instances"),
                                                  CommandOf<ShowArgs>("show"),
                                                  CommandOf<GpusArgs>("gpus"),
                                                  CommandOf<PricingArgs>("pricing"),
                                                  CommandOf<HardwareRequest>("estimate"),
                                                  CommandOf<RecommendArgs>("recommend"),
                                                  CommandOf<IdleArgs>("idle"),
                                                  CommandOf<LaunchArgs>("launch"),
                                                  SimulateSpec(),
                                                  WatchSpec(),
                                                  ServeSpec(),
                                                  CatalogBuildSpec(),
                                                  CatalogUpgradeSpec(),
                                                  CatalogImportSpec(),
                                                  CatalogDiffSpec(),
                                                  OutputSpec()};
  return kSpecs;
}

Result<const CommandSpec*> FindCommandSpec(std::string_view command) {
  for (const CommandSpec& c : CommandSpecs()) {
    if (c.name == command) return &c;
  }
  return Status::NotFound("no option table for command " + Quoted(command));
}

const OptionSpec* CommandSpec::Find(std::string_view key) const {
  const std::string k = CanonicalOptionKey(key);
  for (const OptionSpec& o : options) {
    if (o.name == k) return &o;
    if (std::find(o.aliases.begin(), o.aliases.end(), k) != o.aliases.end()) return &o;
  }
  return nullptr;
}

std::string CanonicalOptionKey(std::string_view key) {
  while (!key.empty() && key.front() == '-') key.remove_prefix(1);
  std::string out = ToLower(Trim(key));
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

std::string OptionRangeText(const OptionSpec& o) {
  if (o.type != OptionType::kNumber && o.type != OptionType::kInteger &&
      o.type != OptionType::kDuration) {
    return "";
  }
  const bool has_lo = std::isfinite(o.lo), has_hi = std::isfinite(o.hi);
  if (has_lo && has_hi) return BoundText(o, o.lo) + " to " + BoundText(o, o.hi);
  if (has_lo) return "at least " + BoundText(o, o.lo);
  if (has_hi) return "at most " + BoundText(o, o.hi);
  return "";
}

std::string OptionHelpText(const OptionSpec& o) {
  std::string out(o.help);
  std::vector<std::string> facts;
  std::string range = OptionRangeText(o);
  if (!range.empty()) facts.push_back(range + (o.unit.empty() ? "" : " " + std::string(o.unit)));
  if (range.empty() && !o.unit.empty()) facts.emplace_back(o.unit);
  if (!o.choices.empty()) facts.push_back(ChoicesText(o.choices));
  if (o.type == OptionType::kList) facts.emplace_back("repeatable or comma-separated");
  if (o.type == OptionType::kFiles) facts.emplace_back("repeatable");
  if (!o.default_text.empty()) facts.push_back("default " + std::string(o.default_text));
  if (!facts.empty()) {
    out += " [";
    for (size_t i = 0; i < facts.size(); ++i) out += (i == 0 ? "" : "; ") + facts[i];
    out += "]";
  }
  return out;
}

// ---- OptionValues ----

const OptionSpec& OptionValues::Spec(std::string_view name) const {
  const OptionSpec* o = spec_->Find(name);
  assert(o != nullptr && "option not in the command's table");
  return *o;
}

const OptionSpec* OptionValues::Known(std::string_view key, FrontEnd from, Status* unknown) const {
  const OptionSpec* o = spec_->Find(key);
  if (o != nullptr && (o->front_ends & from) != 0) return o;
  std::vector<std::string> names;
  for (const OptionSpec& s : spec_->options) {
    if ((s.front_ends & from) != 0) names.emplace_back(s.name);
  }
  // No suggestion for a key far longer than any option (edit distance is quadratic).
  const std::string hint = key.size() > 64 ? "" : DidYouMean(CanonicalOptionKey(key), names);
  *unknown = Status::InvalidArgument("unknown parameter " + Quoted(key) +
                                     (hint.empty() ? "" : "; " + hint))
                 .WithField(CanonicalOptionKey(key));
  return nullptr;
}

Status OptionValues::SetNumber(std::string_view key, double value, FrontEnd from) {
  Status unknown;
  const OptionSpec* o = Known(key, from, &unknown);
  if (o == nullptr) return unknown;
  if (!IsNumberType(o->type)) return Set(key, ExactText(value), from);
  Value& g = given_[std::string(o->name)];
  g.text = ExactText(value);
  // A plain number for a duration is hours, as typed text is.
  g.number = o->type == OptionType::kDuration ? value * kHour : value;
  return Status::OK();
}

Status OptionValues::SetBool(std::string_view key, bool value, FrontEnd from) {
  return Set(key, value ? "true" : "false", from);
}

Status OptionValues::Set(std::string_view key, std::string_view text, FrontEnd from) {
  Status unknown;
  const OptionSpec* o = Known(key, from, &unknown);
  if (o == nullptr) return unknown;
  Value& given = given_[std::string(o->name)];
  given.number.reset();
  std::string& slot = given.text;
  if (o->type == OptionType::kFiles) {
    std::vector<std::string>& files = files_[std::string(o->name)];
    if (files.size() >= kMaxListItems) {
      return Status::InvalidArgument(NameOf(*o) + ": at most " + std::to_string(kMaxListItems) +
                                     " files")
          .WithField(o->name);
    }
    files.emplace_back(text);
    slot += (slot.empty() ? "" : ",") + std::string(text);  // for GivenPairs
    return Status::OK();
  }
  if (o->type != OptionType::kList) {
    slot = std::string(Trim(text));
    return Status::OK();
  }
  const std::vector<std::string> items = ListItems(text);
  size_t count = ListItems(slot).size() + items.size();
  if (count > kMaxListItems) {
    return Status::InvalidArgument(NameOf(*o) + ": at most " + std::to_string(kMaxListItems) +
                                   " items, got " + std::to_string(count))
        .WithField(o->name);
  }
  for (const std::string& item : items) slot += (slot.empty() ? "" : ",") + item;
  return Status::OK();
}

std::vector<std::string> OptionValues::Files(std::string_view name) const {
  const OptionSpec& o = Spec(name);
  const auto it = files_.find(o.name);
  return it == files_.end() ? std::vector<std::string>() : it->second;
}

Status OptionValues::CheckOne(const OptionSpec& o, const Value& given) const {
  const std::string& text = given.text;
  if (given.number) {
    Result<double> v = InRange(o, *given.number, text);
    return v.ok() ? Status::OK() : v.status();
  }
  switch (o.type) {
    case OptionType::kText:
    case OptionType::kFiles:
      return Status::OK();
    case OptionType::kBool:
      if (BoolOf(text)) return Status::OK();
      return Status::InvalidArgument(NameOf(o) + ": expected true or false, got " + Quoted(text))
          .WithField(o.name);
    case OptionType::kNumber:
    case OptionType::kInteger:
    case OptionType::kDuration: {
      Result<double> v = ParseFor(o, text);
      return v.ok() ? Status::OK() : v.status();
    }
    case OptionType::kChoice:
      if (InChoices(o, text)) return Status::OK();
      break;
    case OptionType::kList:
      if (o.choices.empty()) return Status::OK();
      for (const std::string& item : ListItems(text)) {
        if (!InChoices(o, item)) {
          return Status::InvalidArgument(NameOf(o) + ": expected items from " +
                                         ChoicesText(o.choices).substr(7) + ", got " + Quoted(item))
              .WithField(o.name);
        }
      }
      return Status::OK();
  }
  const std::string hint = text.size() > 64 ? "" : [&] {
    std::vector<std::string> names(o.choices.begin(), o.choices.end());
    return DidYouMean(ToLower(text), names);
  }();
  return Status::InvalidArgument(NameOf(o) + ": expected " + ChoicesText(o.choices) + ", got " +
                                 Quoted(text) + (hint.empty() ? "" : "; " + hint))
      .WithField(o.name);
}

Status OptionValues::Check() const {
  for (const OptionSpec& o : spec_->options) {
    auto it = given_.find(o.name);
    if (it != given_.end()) GPUADVISOR_RETURN_IF_ERROR(CheckOne(o, it->second));
  }
  return Status::OK();
}

bool OptionValues::Given(std::string_view name) const {
  return given_.find(Spec(name).name) != given_.end();
}

std::string OptionValues::Text(std::string_view name) const {
  const OptionSpec& o = Spec(name);
  auto it = given_.find(o.name);
  return it != given_.end() ? it->second.text : o.default_text;
}

bool OptionValues::Bool(std::string_view name) const {
  const OptionSpec& o = Spec(name);
  auto it = given_.find(o.name);
  return it != given_.end() && BoolOf(it->second.text).value_or(false);
}

Result<std::optional<double>> OptionValues::Number(std::string_view name) const {
  const OptionSpec& o = Spec(name);
  auto it = given_.find(o.name);
  if (it != given_.end() && it->second.number) {
    Result<double> v = InRange(o, *it->second.number, it->second.text);
    if (!v.ok()) return v.status();
    return std::optional<double>(*v);
  }
  const std::string text = Text(name);
  if (text.empty()) return std::optional<double>();
  Result<double> v = ParseFor(o, text);
  if (!v.ok()) return v.status();
  return std::optional<double>(*v);
}

Result<std::vector<std::string>> OptionValues::List(std::string_view name) const {
  const OptionSpec& o = Spec(name);
  const std::string text = Text(name);
  GPUADVISOR_RETURN_IF_ERROR(CheckOne(o, Value{text, std::nullopt}));
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (std::string& item : ListItems(text)) {
    if (seen.insert(ToLower(item)).second) out.push_back(std::move(item));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> OptionValues::GivenPairs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const OptionSpec& o : spec_->options) {
    auto it = given_.find(o.name);
    if (it != given_.end()) out.emplace_back(o.name, it->second.text);
  }
  return out;
}

// ---- walking declarations ----

namespace options_internal {

std::string NumberText(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e7) return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string DurationText(double seconds) {
  for (const auto& [unit, scale] : {std::pair{"d", kDay}, {"h", kHour}, {"m", 60.0}}) {
    if (seconds >= scale && std::fmod(seconds, scale) == 0) {
      return NumberText(seconds / scale) + unit;
    }
  }
  return NumberText(seconds) + "s";
}

void SpecCollector::Add(std::string_view name, OptionType type, const FieldInfo& i,
                        std::string shown) {
  OptionSpec o;
  o.name = name;
  o.type = type;
  o.help = i.help;
  o.unit = i.unit;
  o.default_text = i.no_default              ? std::string()
                   : i.shown_default.empty() ? std::move(shown)
                                             : std::string(i.shown_default);
  o.lo = i.lo;
  o.hi = i.hi;
  o.choices = i.choices;
  o.front_ends = i.front_ends;
  o.positional = i.positional;
  o.required = i.required;
  o.aliases = i.aliases;
  o.metavar = i.metavar;
  options.push_back(std::move(o));
}

void SpecCollector::AddNumber(std::string_view name, OptionType type, const FieldInfo& i,
                              std::optional<double> value) {
  // A value outside the bounds stands for "not given" (0 = "enough"): no default is shown.
  std::string shown;
  if (value && *value >= i.lo && *value <= i.hi) {
    shown = type == OptionType::kDuration ? DurationText(*value) : NumberText(*value);
  }
  Add(name, type, i, std::move(shown));
}

void SpecCollector::List(std::string_view n, const std::vector<std::string>& f, FieldInfo i) {
  std::string shown;
  for (const std::string& item : f) shown += (shown.empty() ? "" : ",") + item;
  Add(n, OptionType::kList, i, std::move(shown));
}

void OptionSetter::List(std::string_view n, std::vector<std::string>& f, const FieldInfo&) {
  if (!Wanted(n)) return;
  Result<std::vector<std::string>> items = v_->List(n);
  if (items.ok()) {
    f = *std::move(items);
  } else {
    status = items.status();
  }
}

}  // namespace options_internal

}  // namespace gpuadvisor
