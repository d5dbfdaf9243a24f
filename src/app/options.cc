// The option tables (one per command) and OptionValues, the one checker behind every front end.
#include "app/options.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "app/command_args.h"
#include "app/requests.h"
#include "app/serve.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/purchase.h"
#include "gpuadvisor/simulate.h"
#include "gpuadvisor/watch.h"
#include "util/enum_names.h"
#include "util/numbers.h"
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
std::string ChoicesList(const std::vector<std::string_view>& choices) {
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) list += ", ";
    list += choices[i];
  }
  return list;
}

std::string ChoicesText(const std::vector<std::string_view>& choices) {
  return Trf("one of {0}", ChoicesList(choices));
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
    const char* what = o.type == OptionType::kInteger    ? Tr("a whole number")
                       : o.type == OptionType::kDuration ? Tr("a duration")
                                                         : Tr("a number");
    const std::string range = OptionRangeText(o);
    const std::string expected = range.empty()              ? std::string(what)
                                 : StartsWith(range, "at ") ? Trf("{0}, {1}", what, range)
                                                            : Trf("{0} from {1}", what, range);
    return Status::InvalidArgument(
               Trf("{0}: expected {1}, got {2}", NameOf(o), expected, Quoted(Trim(text))))
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

}  // namespace

}  // namespace gpuadvisor

template <>
struct gpuadvisor::EnumNames<gpuadvisor::OptionType> {
  static constexpr EnumName<OptionType> kTable[] = {
      {OptionType::kText, "text"},         {OptionType::kBool, "bool"},
      {OptionType::kNumber, "number"},     {OptionType::kInteger, "integer"},
      {OptionType::kDuration, "duration"}, {OptionType::kChoice, "choice"},
      {OptionType::kList, "list"},         {OptionType::kFiles, "files"}};
};

namespace gpuadvisor {

const char* OptionTypeName(OptionType type) { return NameOf(type); }

const std::vector<CommandSpec>& CommandSpecs() {
  static const std::vector<CommandSpec> kSpecs = {
      CommandOf<InstanceQuery>("instances"), CommandOf<ShowArgs>("show"),
      CommandOf<GpusArgs>("gpus"), CommandOf<PricingArgs>("pricing"),
      CommandOf<HardwareRequest>("estimate"), CommandOf<RecommendArgs>("recommend"),
      CommandOf<IdleArgs>("idle"), CommandOf<LaunchArgs>("launch"),
      CommandOf<CommitmentsArgs>("commitments"),
      // The CLI's own commands.
      CommandOf<SimulateArgs>("simulate", kCli), CommandOf<WatchArgs>("watch", kCli),
      CommandOf<server::ServeArgs>("serve", kCli),
      CommandOf<CatalogBuildArgs>("catalog build", kCli),
      CommandOf<CatalogUpgradeArgs>("catalog upgrade", kCli),
      CommandOf<CatalogImportArgs>("catalog import", kCli),
      CommandOf<CatalogDiffArgs>("catalog diff", kCli),
      CommandOf<CatalogUpdateArgs>("catalog update", kCli),
      CommandOf<AccountScanArgs>("account scan", kCli), CommandOf<OutputArgs>("output")};
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

std::string OptionLabel(const OptionSpec& o) {
  return o.label.empty() ? OptionNameAsWords(o.name) : std::string(o.label);
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
  const std::string canonical = CanonicalOptionKey(key);
  std::string hint = DidYouMean(canonical, names);  // none past 64 chars
  // A command that chooses the hardware (recommend, launch) takes its filters as --only-X:
  // `--gpu T4` there means `--only-gpu T4`.
  const std::string filter = "only-" + canonical;
  if (const OptionSpec* f = spec_->Find(filter); f != nullptr && (f->front_ends & from) != 0) {
    hint = Trf("this command chooses the {0} itself; --{1} limits its choice", canonical, filter);
  }
  *unknown = Status::InvalidArgument(Trf("unknown parameter {0}", Quoted(key)) +
                                     (hint.empty() ? "" : "; " + hint))
                 .WithField(canonical);
  return nullptr;
}

Status OptionValues::NoteSpelling(const OptionSpec& o, std::string_view key) {
  while (!key.empty() && key.front() == '-') key.remove_prefix(1);
  const std::string spelled(Trim(key));
  const auto [it, fresh] = spelled_.emplace(std::string(o.name), spelled);
  if (fresh || it->second == spelled) return Status::OK();
  return Status::InvalidArgument(Quoted(it->second) + " and " + Quoted(spelled) +
                                 " are two spellings of " + NameOf(o) + "; give it once")
      .WithField(o.name);
}

Status OptionValues::SetNumber(std::string_view key, double value, FrontEnd from) {
  Status unknown;
  const OptionSpec* o = Known(key, from, &unknown);
  if (o == nullptr) return unknown;
  GPUADVISOR_RETURN_IF_ERROR(NoteSpelling(*o, key));
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
  GPUADVISOR_RETURN_IF_ERROR(NoteSpelling(*o, key));
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
  // Repeats dropped before the count (as List() would drop them later), so the cap is on
  // distinct items and memory stays bounded by them.
  std::set<std::string>& seen = list_seen_[std::string(o->name)];
  for (const std::string& item : ListItems(text)) {
    if (!seen.insert(ToLower(item)).second) continue;
    if (seen.size() > kMaxListItems) {
      return Status::InvalidArgument(NameOf(*o) + ": at most " + std::to_string(kMaxListItems) +
                                     " different items")
          .WithField(o->name);
    }
    slot += (slot.empty() ? "" : ",") + item;
  }
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
      if (o.nonempty && Trim(text).empty()) {
        return Status::InvalidArgument(
                   Trf("{0}: expected a file name, got an empty one", NameOf(o)))
            .WithField(o.name);
      }
      return Status::OK();
    case OptionType::kFiles:
      return Status::OK();
    case OptionType::kBool:
      if (BoolOf(text)) return Status::OK();
      return Status::InvalidArgument(
                 Trf("{0}: expected true or false, got {1}", NameOf(o), Quoted(text)))
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
          return Status::InvalidArgument(Trf("{0}: expected items from {1}, got {2}", NameOf(o),
                                             ChoicesList(o.choices), Quoted(item)))
              .WithField(o.name);
        }
      }
      return Status::OK();
  }
  const std::string hint =
      DidYouMean(ToLower(text), std::vector<std::string>(o.choices.begin(), o.choices.end()));
  return Status::InvalidArgument(
             Trf("{0}: expected {1}, got {2}", NameOf(o), ChoicesText(o.choices), Quoted(text)) +
             (hint.empty() ? "" : "; " + hint))
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
  const std::optional<double> typed = it != given_.end() ? it->second.number : std::nullopt;
  if (typed) {
    Result<double> v = InRange(o, *typed, it->second.text);
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
  o.label = i.label;
  o.unit = i.unit;
  o.default_text = i.no_default              ? std::string()
                   : i.shown_default.empty() ? std::move(shown)
                                             : std::string(i.shown_default);
  o.lo = i.lo;
  o.hi = i.hi;
  o.choices = i.choices;
  o.front_ends = offered & (i.local ? kLocalFrontEnds : kEveryFrontEnd);
  o.positional = i.positional;
  o.required = i.required;
  o.aliases = i.aliases;
  o.metavar = i.metavar;
  o.nonempty = i.nonempty;
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

void SpecCollector::List(std::string_view n, const std::vector<std::string>& f,
                         const FieldInfo& i) {
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
