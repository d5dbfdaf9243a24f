// The options of each command, declared once. A command's table gives each option its name,
// type, unit, bounds, default and help; the CLI's flags and --help, the HTTP API's query and
// body keys, the OpenAPI schema and the Python keyword arguments are all made from it, and every
// front end hands the text it received to the same OptionValues, so a value is accepted, refused
// (with the same message, code and field) and defaulted the same way wherever it comes from.
//
// Workload fields (--model, --tokens, ...) are not here: they are declared the same way
// (DeclareOptions of Workload, src/workload/workload_options.h) but bound by WorkloadFields
// (workload.h), with the workload's own messages, and shared the same way.
#ifndef GPUADVISOR_APP_OPTIONS_H_
#define GPUADVISOR_APP_OPTIONS_H_

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/fields.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Where an option is offered: a front end's decision, made here, never in the domain's
// declarations (include/). A field's declaration says only what it is (FieldInfo::local: a
// file, program or header of the caller's machine, which the HTTP API never takes); the
// command's table says which front ends offer the command (CommandOf), and an app-layer
// declaration narrows a few fields further (OfferedBy: --format at the CLI only).
enum FrontEnd : unsigned { kCli = 1, kHttp = 2, kPython = 4, kEveryFrontEnd = 7 };
// The front ends of a caller on the library's own machine.
inline constexpr unsigned kLocalFrontEnds = kCli | kPython;

enum class OptionType {
  kText,      // free text (a name, a URL, a selector)
  kBool,      // true/false; a bare CLI flag or query key means true
  kNumber,    // a real number, SI suffixes allowed (1.5k); `unit` says what it counts
  kInteger,   // a whole number
  kDuration,  // 90s, 30m, 36h, 14d (a plain number is hours); bounds in seconds
  kChoice,    // one of `choices`
  kList,      // repeatable and/or comma-separated; items from `choices` when it is not empty
  kFiles,     // file paths, one per occurrence (repeatable), never split at commas
};
// "text", "bool", "number", "integer", "duration", "choice", "list", "files".
const char* OptionTypeName(OptionType type);

// One option of a command's table: collected from a field's declaration (fields.h), its
// default from the struct it fills.
struct OptionSpec {
  std::string_view name;  // canonical spelling: CLI --name, HTTP name or na_me, Python na_me
  OptionType type = OptionType::kText;
  std::string_view help;
  std::string_view label;    // FieldInfo::label: the form's label ("" = OptionLabel's words)
  std::string_view unit;     // "GiB", "USD/h", "%", ... ("" = none); durations: "" (text says)
  std::string default_text;  // as a user would type it; "" = none
  double lo = -std::numeric_limits<double>::infinity();  // kNumber/kInteger/kDuration (seconds)
  double hi = std::numeric_limits<double>::infinity();
  std::vector<std::string_view> choices;  // kChoice, and the items of a kList when not empty
  unsigned front_ends = kEveryFrontEnd;   // the command's, narrowed by OfferedBy and local
  bool positional = false;  // CLI positional, Python positional, HTTP path or body key
  bool required = false;
  std::vector<std::string_view> aliases;  // older spellings still accepted
  std::string_view metavar;               // CLI/--help placeholder ("" = from the type)
  bool nonempty = false;                  // kText: "" is refused (FieldInfo::nonempty)
};

struct CommandSpec {
  std::string_view name;  // "instances", "pricing", ...
  std::vector<OptionSpec> options;
  // The option that `OptionSpec::name` names, or nullptr. Any spelling: "min_gpus", "--Min-GPUs".
  const OptionSpec* Find(std::string_view key) const;
};

// Every command's table, in a stable order: the shared commands first, then the CLI-only ones
// (simulate, watch, serve, the catalog subcommands as "catalog build" etc., account scan: made
// with CommandOf(..., kCli)), then "output": the output options every CLI command with a table
// of results takes, at the CLI only (but --catalog and --max-price-age, which Python's Catalog
// takes too).
const std::vector<CommandSpec>& CommandSpecs();
// NotFound for a command without a table.
Result<const CommandSpec*> FindCommandSpec(std::string_view command);

// "min_gpus", "--min-gpus", "Min-GPUs" -> "min-gpus".
std::string CanonicalOptionKey(std::string_view key);

// The bounds of an option as a user types them: "0 to 100", "1m to 30d", "at least 1", "".
std::string OptionRangeText(const OptionSpec& o);
// The option as a form labels it: its declared label, else its name as words ("ITL p95").
std::string OptionLabel(const OptionSpec& o);
// The --help line: help, then unit, range, choices and default in one fixed form.
std::string OptionHelpText(const OptionSpec& o);

// The text of a command's options as given, checked and typed against the command's table.
// Errors are InvalidArgument whose message starts with the flag ("--min-gpus: expected ...")
// and whose field() is the canonical name.
class OptionValues {
 public:
  explicit OptionValues(const CommandSpec& spec) : spec_(&spec) {}

  const CommandSpec& spec() const { return *spec_; }

  // Records `text` for `key` (any spelling, aliases too). An option the front end does not offer
  // is unknown there ("unknown parameter", with "did you mean"). Lists append (text may itself be
  // comma-separated; a repeat of an item already given, case-insensitive, is dropped, and at
  // most kMaxListItems distinct items are kept); other types replace. One option given under
  // two spellings ("min_gpus" and "min-gpus", an alias and its new name) is refused naming both
  // instead of the last one read silently winning; the same spelling again is not.
  // Values are checked when read, so that all front ends report the first bad option in table
  // order, not in the order they happened to receive them.
  Status Set(std::string_view key, std::string_view text, FrontEnd from);
  // Typed values from JSON or Python, kept as they are (no text round trip), checked as text is:
  // a number for a duration counts hours, as a plain number typed does; a number or a bool for
  // a text option is that value written out.
  Status SetNumber(std::string_view key, double value, FrontEnd from);
  Status SetBool(std::string_view key, bool value, FrontEnd from);
  // Every given option parsed and within bounds (call before acting on any of them).
  Status Check() const;

  bool Given(std::string_view name) const;
  // The given text, else the default ("" when none). REQUIRES: `name` is in the table.
  std::string Text(std::string_view name) const;
  bool Bool(std::string_view name) const;  // REQUIRES: Check() passed
  // kNumber/kInteger/kDuration (seconds) within bounds; nullopt when neither given nor defaulted.
  Result<std::optional<double>> Number(std::string_view name) const;
  // kList items without repeats (first kept, case-insensitive), checked against `choices`.
  Result<std::vector<std::string>> List(std::string_view name) const;
  // kFiles paths in the order given (empty when none).
  std::vector<std::string> Files(std::string_view name) const;

  // Given options in table order, as (canonical name, text): a request's cache key or echo.
  std::vector<std::pair<std::string, std::string>> GivenPairs() const;

 private:
  struct Value {
    std::string text;              // as received, or the typed value written out
    std::optional<double> number;  // a number option's typed value (durations in seconds)
  };
  const OptionSpec* Known(std::string_view key, FrontEnd from, Status* unknown) const;
  const OptionSpec& Spec(std::string_view name) const;
  Status CheckOne(const OptionSpec& o, const Value& given) const;
  Status NoteSpelling(const OptionSpec& o, std::string_view key);

  const CommandSpec* spec_;
  std::map<std::string, Value, std::less<>> given_;                     // canonical name -> value
  std::map<std::string, std::vector<std::string>, std::less<>> files_;  // kFiles paths
  std::map<std::string, std::string, std::less<>> spelled_;  // canonical name -> first key given
  std::map<std::string, std::set<std::string>, std::less<>> list_seen_;  // kList items, lower
};

// ---- walking declarations (fields.h) ----

namespace options_internal {

// 730 -> "730", 0.5 -> "0.5", 600 s as a duration -> "10m".
std::string NumberText(double v);
std::string DurationText(double seconds);

// Collects a declaration into option specs; defaults are read from the fields' values.
class SpecCollector {
 public:
  std::vector<OptionSpec> options;
  unsigned offered = kEveryFrontEnd;  // the front ends of what is declared now (OfferedBy)

  void Text(std::string_view n, const std::string& f, const FieldInfo& i) {
    Add(n, OptionType::kText, i, f);
  }
  void Choice(std::string_view n, const std::string& f, const FieldInfo& i) {
    Add(n, OptionType::kChoice, i, f);
  }
  template <typename E, typename NameOf, typename Parse>
  void Enum(std::string_view n, const E& f, NameOf name_of, Parse&&, const FieldInfo& i) {
    Add(n, OptionType::kChoice, i, std::string(name_of(f)));
  }
  void Bool(std::string_view n, const bool&, const FieldInfo& i) {
    Add(n, OptionType::kBool, i, "");
  }
  template <typename T>
  void Number(std::string_view n, const T& f, const FieldInfo& i) {
    AddNumber(n, OptionType::kNumber, i, ValueOf(f));
  }
  template <typename T>
  void Integer(std::string_view n, const T& f, const FieldInfo& i) {
    AddNumber(n, OptionType::kInteger, i, ValueOf(f));
  }
  template <typename T>
  void Duration(std::string_view n, const T& f, const FieldInfo& i) {
    std::optional<double> seconds = ValueOf(f);
    if (seconds) *seconds *= i.seconds_per_unit;
    AddNumber(n, OptionType::kDuration, i, seconds);
  }
  void List(std::string_view n, const std::vector<std::string>& f, const FieldInfo& i);
  template <typename E, typename NameOf, typename Parse>
  void EnumList(std::string_view n, const std::vector<E>& f, NameOf name_of, Parse&&,
                const FieldInfo& i) {
    std::vector<std::string> names;
    names.reserve(f.size());
    for (const E& e : f) names.emplace_back(name_of(e));
    List(n, names, i);
  }
  void Files(std::string_view n, const std::vector<std::string>&, const FieldInfo& i) {
    Add(n, OptionType::kFiles, i, "");
  }
  template <typename S>
  void Nested(S& s) {
    DeclareOptions(*this, s);
  }
  template <typename T>
  void NotAnOption(const T&) {}

 private:
  template <typename T>
  static std::optional<double> ValueOf(const T& v) {
    return static_cast<double>(v);
  }
  template <typename T>
  static std::optional<double> ValueOf(const std::optional<T>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  }
  void Add(std::string_view name, OptionType type, const FieldInfo& i, std::string shown);
  void AddNumber(std::string_view name, OptionType type, const FieldInfo& i,
                 std::optional<double> value);
};

// Fills a struct from the options given; options not given leave their fields as they are.
class OptionSetter {
 public:
  explicit OptionSetter(const OptionValues& v) : v_(&v) {}
  Status status;  // the first error

  void Text(std::string_view n, std::string& f, const FieldInfo&) {
    if (Wanted(n)) f = v_->Text(n);
  }
  void Choice(std::string_view n, std::string& f, const FieldInfo& i) { Text(n, f, i); }
  template <typename E, typename NameOf, typename Parse>
  void Enum(std::string_view n, E& f, NameOf&&, Parse&& parse, const FieldInfo&) {
    if (!Wanted(n)) return;
    auto e = parse(v_->Text(n));
    if (e.ok()) {
      f = *e;
    } else {
      status = e.status();
    }
  }
  void Bool(std::string_view n, bool& f, const FieldInfo&) {
    if (Wanted(n)) f = v_->Bool(n);
  }
  template <typename T>
  void Number(std::string_view n, T& f, const FieldInfo&) {
    SetNumber(n, 1, &f);
  }
  template <typename T>
  void Integer(std::string_view n, T& f, const FieldInfo& i) {
    Number(n, f, i);
  }
  template <typename T>
  void Duration(std::string_view n, T& f, const FieldInfo& i) {
    SetNumber(n, i.seconds_per_unit, &f);
  }
  void List(std::string_view n, std::vector<std::string>& f, const FieldInfo&);
  template <typename E, typename NameOf, typename Parse>
  void EnumList(std::string_view n, std::vector<E>& f, NameOf&&, Parse&& parse,
                const FieldInfo& i) {
    if (!Wanted(n)) return;
    std::vector<std::string> items;
    List(n, items, i);
    std::vector<E> out;
    for (const std::string& item : items) {
      if (!status.ok()) return;
      auto e = parse(item);
      if (!e.ok()) {
        status = e.status();
        return;
      }
      if (std::find(out.begin(), out.end(), *e) == out.end()) out.push_back(*e);
    }
    if (status.ok()) f = std::move(out);
  }
  void Files(std::string_view n, std::vector<std::string>& f, const FieldInfo&) {
    if (Wanted(n)) f = v_->Files(n);
  }
  template <typename S>
  void Nested(S& s) {
    DeclareOptions(*this, s);
  }
  template <typename T>
  void NotAnOption(const T&) {}

 private:
  bool Wanted(std::string_view name) const { return status.ok() && v_->Given(name); }
  // A number option into *f, in units of `scale` (a duration's seconds per unit of the field).
  template <typename T>
  void SetNumber(std::string_view n, double scale, T* f) {
    if (!Wanted(n)) return;
    Result<std::optional<double>> x = v_->Number(n);
    if (!x.ok()) {
      status = x.status();
    } else if (const std::optional<double>& value = *x; value.has_value()) {
      Assign(*value / scale, f);
    }
  }
  template <typename T>
  static void Assign(double v, T* f) {
    *f = static_cast<T>(v);
  }
  template <typename T>
  static void Assign(double v, std::optional<T>* f) {
    *f = static_cast<T>(v);
  }
  const OptionValues* v_;
};

// Counts a declaration's fields (a Nested struct is one field of its parent).
class FieldCounter {
 public:
  size_t count = 0;
  template <typename T>
  void Text(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Choice(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename E, typename NameOf, typename Parse>
  void Enum(std::string_view, E&, NameOf&&, Parse&&, const FieldInfo&) {
    ++count;
  }
  template <typename E, typename NameOf, typename Parse>
  void EnumList(std::string_view, E&, NameOf&&, Parse&&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Bool(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Number(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Integer(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Duration(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void List(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename T>
  void Files(std::string_view, T&, const FieldInfo&) {
    ++count;
  }
  template <typename S>
  void Nested(S&) {
    ++count;
  }
  template <typename T>
  void NotAnOption(const T&) {
    ++count;
  }
};

}  // namespace options_internal

// Declares what `declare()` declares as offered by `front_ends` only (and what each field's
// own declaration allows): the table's collector narrows those options; every other visitor
// of the declaration sees them as they are.
template <typename V, typename F>
void OfferedBy(V& v, unsigned front_ends, F&& declare) {
  if constexpr (requires { v.offered; }) {
    const unsigned outer = v.offered;
    v.offered &= front_ends;
    declare();
    v.offered = outer;
  } else {
    declare();
  }
}

// The option table of `R`'s declaration (fields.h), its defaults read from a default-made R,
// for a command the front ends `front_ends` offer (the CLI-only commands: kCli).
// (`R r = R()` rather than `R r{}`: g++ 12 at -O3 warns of a nested struct's string "maybe
// uninitialized" in the latter, e.g. WatchArgs.)
template <typename R>
CommandSpec CommandOf(std::string_view command, unsigned front_ends = kEveryFrontEnd) {
  R r = R();
  options_internal::SpecCollector c;
  c.offered = front_ends;
  DeclareOptions(c, r);
  return {command, std::move(c.options)};
}
template <typename R>
void CollectOptions(std::vector<OptionSpec>* out) {
  R r = R();
  options_internal::SpecCollector c;
  DeclareOptions(c, r);
  for (OptionSpec& o : c.options) out->push_back(std::move(o));
}

// Checks the given options (Check()), then sets the fields of *r that `R`'s declaration names
// from those given; the others keep their values (the struct's defaults).
template <typename R>
Status SetFromOptions(const OptionValues& v, R* r) {
  GPUADVISOR_RETURN_IF_ERROR(v.Check());
  options_internal::OptionSetter s(v);
  DeclareOptions(s, *r);
  return s.status;
}

// How many fields `R`'s declaration names (declared options, nested structs and NotAnOption).
template <typename R>
size_t DeclaredFieldCount() {
  R r = R();
  options_internal::FieldCounter c;
  DeclareOptions(c, r);
  return c.count;
}

// List options hold at most this many distinct items. Repeats are dropped as they arrive (case-
// insensitive, the first spelling kept), before the count: 60k copies of one region are one
// region, kept once, never searched 60k times; 1001 different items are refused.
inline constexpr size_t kMaxListItems = 1000;

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_OPTIONS_H_
