// How a request's fields are offered to users, declared once next to the struct they fill.
//
// A request struct (InstanceQuery, UsagePattern, ...) that a user fills from a front end has a
// function template beside it,
//
//   template <typename V> void DeclareOptions(V& v, InstanceQuery& q) {
//     v.Number("min-gpus", q.min_gpus, {.help = "At least N GPUs", .lo = 0, .hi = 1024});
//     ...
//   }
//
// that names each field's option, its type and what a user is told about it (FieldInfo). Every
// consumer walks that one declaration with a visitor of its own: the command's option table
// (the CLI's flags and --help, the HTTP API's keys, OpenAPI, the Python signatures) is collected
// from it, with each default read from a default-made struct; the setter fills the struct from
// what a front end received (text from a command line, typed values from JSON or Python); a test
// checks that every field of the struct is declared. Bounds live only here: the library checks
// only rules between fields (min-gpus above max-gpus).
//
// V provides, for a field `f` and its FieldInfo `i`:
//   Text(name, std::string& f, i)                free text
//   Choice(name, std::string& f, i)              one of i.choices
//   Enum(name, E& f, name_of, parse, i)          one of i.choices; name_of(E) -> text,
//                                                parse(text) -> Result<E>
//   EnumList(name, std::vector<E>& f, name_of, parse, i)
//                                                a List of Enum values, each once
//   Bool(name, bool& f, i)
//   Number(name, T& f, i) / Integer(name, T& f, i) / Duration(name, T& seconds, i)
//                                                T arithmetic or std::optional of one; a
//                                                Duration field counts i.seconds_per_unit
//   List(name, std::vector<std::string>& f, i)   repeatable, comma-separated
//   Files(name, std::vector<std::string>& f, i)  file paths, repeatable
//   Nested(s)                                    a struct with its own DeclareOptions
//   NotAnOption(f)                               a field no front end sets directly (it is
//                                                derived from another option, or set by code)
#ifndef GPUADVISOR_FIELDS_H_
#define GPUADVISOR_FIELDS_H_

#include <limits>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// What a user is told about a field, besides its name and type. Designated initializers name
// only what differs from these defaults.
struct FieldInfo {
  std::string_view help;
  // The field in words, as a form labels it ("Storage bandwidth"); "" = its name as words
  // (OptionNameAsWords: "itl-p95" -> "ITL p95"). The web page's English label; the unit follows.
  std::string_view label;
  std::string_view unit;  // "GiB", "USD/h", "%", ... ("" = none); durations: "" (text says)
  double lo = -std::numeric_limits<double>::infinity();  // numbers; durations in seconds
  double hi = std::numeric_limits<double>::infinity();
  std::vector<std::string_view> choices;  // Choice and Enum; the items of a List when not empty
  // The value names something on the machine the library runs on (a file to read or write, a
  // program to run, a header sent with its own requests): a caller elsewhere (a remote HTTP
  // client) may not give it. Which front ends offer a field is theirs to say (app/options.h).
  bool local = false;
  bool positional = false;  // CLI positional, Python positional, HTTP path or body key
  bool required = false;
  std::vector<std::string_view> aliases;  // older spellings still accepted
  std::string_view metavar;               // CLI/--help placeholder ("" = from the type)
  // The default as a user reads it, where the struct's own value is a stand-in ("" = the
  // struct's value: a number outside [lo, hi] or an empty text is shown as no default).
  std::string_view shown_default;
  bool no_default = false;      // the struct's value means "not given" (the help says what then)
  double seconds_per_unit = 1;  // Duration: what one unit of the field is (3600: it counts hours)
  // Text: an empty value is refused. For a file to write (--out, --plot, --log), where "" would
  // otherwise mean "not given" (stdout, or the default file) without saying so.
  bool nonempty = false;
  // Workload fields (src/workload/workload_options.h), which parse as the workload always has:
  bool lo_exclusive = false;  // Number: lo itself is refused (lo = 0: a positive number)
  double scale = 1;           // Number: the field holds the value times this (GFLOP -> FLOP: 1e9)
  bool bare_seconds = false;  // Duration: a bare number counts seconds (a latency), not hours
  unsigned tasks = 0;         // the TaskKind bits (1 << kind) the field applies to
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_FIELDS_H_
