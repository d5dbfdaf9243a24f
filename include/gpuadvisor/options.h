// The options of each command, declared once. A command's table gives each option its name,
// type, unit, bounds, default and help; the CLI's flags and --help, the HTTP API's query and
// body keys, the OpenAPI schema and the Python keyword arguments are all made from it, and every
// front end hands the text it received to the same OptionValues, so a value is accepted, refused
// (with the same message, code and field) and defaulted the same way wherever it comes from.
//
// Workload fields (--model, --tokens, ...) are not here: they have their own table behind
// SetWorkloadField (workload.h), shared the same way.
#ifndef GPUADVISOR_OPTIONS_H_
#define GPUADVISOR_OPTIONS_H_

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

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

// Where an option is offered. The HTTP API takes no option that names a file on the server.
enum FrontEnd : unsigned { kCli = 1, kHttp = 2, kPython = 4, kEveryFrontEnd = 7 };

struct OptionSpec {
  std::string_view name;  // canonical spelling: CLI --name, HTTP name or na_me, Python na_me
  OptionType type = OptionType::kText;
  std::string_view help;
  std::string_view unit;          // "GiB", "USD/h", "%", ... ("" = none); durations: "" (text says)
  std::string_view default_text;  // as a user would type it; "" = none
  double lo = -std::numeric_limits<double>::infinity();  // kNumber/kInteger/kDuration (seconds)
  double hi = std::numeric_limits<double>::infinity();
  std::vector<std::string_view> choices;  // kChoice, and the items of a kList when not empty
  unsigned front_ends = kEveryFrontEnd;
  bool positional = false;  // CLI positional, Python positional, HTTP path or body key
  bool required = false;
  std::vector<std::string_view> aliases;  // older spellings still accepted
  std::string_view metavar;               // CLI/--help placeholder ("" = from the type)
};

struct CommandSpec {
  std::string_view name;  // "instances", "pricing", ...
  std::vector<OptionSpec> options;
  // The option that `OptionSpec::name` names, or nullptr. Any spelling: "min_gpus", "--Min-GPUs".
  const OptionSpec* Find(std::string_view key) const;
};

// Every command's table, in a stable order: the shared commands first, then the CLI-only ones
// (simulate, watch, serve, the catalog subcommands as "catalog build" etc., and "output": the
// output options every CLI command with a table of results takes), whose options all have
// front_ends = kCli.
const std::vector<CommandSpec>& CommandSpecs();
// NotFound for a command without a table.
Result<const CommandSpec*> FindCommandSpec(std::string_view command);

// "min_gpus", "--min-gpus", "Min-GPUs" -> "min-gpus".
std::string CanonicalOptionKey(std::string_view key);

// The bounds of an option as a user types them: "0 to 100", "1m to 30d", "at least 1", "".
std::string OptionRangeText(const OptionSpec& o);
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
  // comma-separated; at most kMaxListItems items, repeats counted); other types replace.
  // Values are checked when read, so that all front ends report the first bad option in table
  // order, not in the order they happened to receive them.
  Status Set(std::string_view key, std::string_view text, FrontEnd from);
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
  const OptionSpec& Spec(std::string_view name) const;
  Status CheckOne(const OptionSpec& o, const std::string& text) const;

  const CommandSpec* spec_;
  std::map<std::string, std::string, std::less<>> given_;               // canonical name -> text
  std::map<std::string, std::vector<std::string>, std::less<>> files_;  // kFiles paths
};

// List options hold at most this many items; repeats count once after the check (a list of
// 60k copies of one region is refused, not searched 60k times).
inline constexpr size_t kMaxListItems = 1000;

}  // namespace gpuadvisor

#endif  // GPUADVISOR_OPTIONS_H_
