// What every subcommand shares: output options, catalog loading, number flags, and the single
// place where library Status codes become exit codes (README.md, doc/design.md).
#ifndef GPUADVISOR_CLI_COMMON_H_
#define GPUADVISOR_CLI_COMMON_H_

#include <CLI/CLI.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/options.h"
#include "app/table.h"
#include "app/views.h"
#include "gpuadvisor/account.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/i18n.h"

namespace gpuadvisor::cli {

// Exit codes (README.md lists them for users). Do not renumber.
constexpr int kExitOk = 0;
constexpr int kExitNothingFound = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitIoError = 3;

// A command's option table (options.h) as flags and arguments: names, --help text, metavars and
// defaults all come from the table. After parsing, Values() hands what was typed to the one
// checker every front end uses.
class TableOptions {
 public:
  // Adds every option of `command` that the CLI offers (only those in `only`, when it is not
  // empty), in table order, to `app` (in `group`). Unknown flags are the table's to report
  // ("unknown parameter ...; did you mean ..."), unless `report_unknown` is false (a table
  // shared by many commands: the command's own table, or CLI11, reports them).
  void Add(CLI::App* app, std::string_view command, const std::string& group = "",
           const std::vector<std::string_view>& only = {}, bool report_unknown = true);
  // The options given on the command line (not yet checked: the request functions check).
  Result<OptionValues> Values() const;

 private:
  struct Slot {
    const OptionSpec* spec = nullptr;
    CLI::Option* option = nullptr;
    std::string text;
    std::vector<std::string> items;
  };
  const CommandSpec* spec_ = nullptr;
  CLI::App* app_ = nullptr;
  bool report_unknown_ = true;
  std::deque<Slot> slots_;  // CLI11 writes into them: their addresses must not move
};

// The "output" table: --format, --json, --catalog, --max-price-age, --no-color.
struct CommonOptions {
  TableOptions table;
};

// Adds the output options (all, or those in `only`) to a subcommand.
void AddCommonOptions(CLI::App* cmd, CommonOptions* opts,
                      const std::vector<std::string_view>& only = {});

// Maps a non-OK status to an exit code and prints "gpuadvisor: <message>" to stderr. This is the
// one place the CLI prints errors: the message (which may quote input) goes through TerminalSafe.
// With JSON output (SetJsonErrors, done by MakeContext) the error is also printed to stdout as
// {"error": {"code", "message", "field"}}, the HTTP API's error object.
int Fail(const Status& status);
void SetJsonErrors(bool on);
int ExitCodeFor(StatusCode code);

// Context built once options are parsed.
struct Context {
  OutputFormat format = OutputFormat::kTable;
  bool color = false;
  std::shared_ptr<const Catalog> catalog;
  CatalogInUse in_use;  // which catalog that is
  Freshness fresh;
  std::string catalog_option;  // --catalog as given ("" = not given)
};
// Resolves the output format and loads the catalog (ChooseCatalog); without `load_catalog`
// only the format and dates (`catalog update` loads its own).
Result<Context> MakeContext(const CommonOptions& opts, bool load_catalog = true);

// The user catalog `catalog update` writes: $XDG_DATA_HOME/gpuadvisor/catalog.json, with
// ~/.local/share for XDG_DATA_HOME when it is unset or not absolute; "" when HOME is unset too.
std::string UserCatalogPath();
// The value of an environment variable, "" when unset.
std::string Env(const char* name);
// The first of the variables that is set and not empty.
std::string FirstEnv(std::initializer_list<const char*> names);
// AWS_REGION, AWS_DEFAULT_REGION, then every `region` of the AWS config file ($AWS_CONFIG_FILE,
// else ~/.aws/config), each once.
std::vector<std::string> RegionsFromEnvironment();
// `given` when not empty, else RegionsFromEnvironment(); InvalidArgument naming --regions, with
// `example` ("us-east-1,us-west-2") as what to write, when both are empty.
Result<std::vector<std::string>> RegionsGivenOrConfigured(const std::vector<std::string>& given,
                                                          std::string_view example);
// Creates the directories above `path` that are missing (0700, as XDG asks for data).
Status MakeParentDirectories(const std::string& path);
// The account scan `account scan` writes, beside the user catalog: .../gpuadvisor/account.json.
std::string UserAccountPath();
// The account scan a command checks plans against: --account PATH when given ("none" = no
// scan), else $GPUADVISOR_ACCOUNT (a path or "none"), else the user's scan when it exists, else
// none (nullopt). A file named but unreadable or malformed is an error naming it.
Result<std::optional<AccountScan>> LoadAccountScan(const std::string& account_option);
// The catalog a command reads: --catalog PATH when given ("embedded" = the built-in one), else
// $GPUADVISOR_CATALOG (a path or "embedded"), else the user catalog when it exists, else the
// embedded catalog (the offline fallback).
CatalogInUse ChooseCatalog(const std::string& catalog_option);

// Writes JSON (format json) or the table (other formats) to stdout; warnings go to stderr.
// Only the view the format needs is built.
void Emit(const Context& ctx, const std::function<JsonDoc()>& json,
          const std::function<Table()>& table, const std::vector<std::string>& warnings = {});
void Warn(const std::string& line);
// Free text (notes, details, footnotes) to stdout through TerminalSafe with newlines kept: the
// text may quote hostnames, file names or catalog strings. Rendered tables are already safe.
void PrintText(std::string_view text);

// A subcommand: registers its options and sets `*exit_code` when it runs.
struct Command {
  const char* name;
  const char* summary;
  void (*setup)(CLI::App* app, int* exit_code);
};
const std::vector<Command>& Commands();

// The whole command line (argv[0] is the program name); returns the exit code. The arguments
// stay readable through CommandLine() while it runs.
int RunCli(int argc, char** argv);
// RunCli's argc and argv (argv[argc] is null); {0, nullptr} outside RunCli.
std::pair<int, char**> CommandLine();

// `serve`'s run step, its options parsed by CLI11 into `table`. Two definitions, one per
// program, chosen at link time:
//   - serve_run.cc: the HTTP server itself (Boost.Asio/Beast, OpenSSL for --tls-cert), in
//     gpuadvisor-serve, the Python module and the tests;
//   - serve_exec.cc: the gpuadvisor binary, which replaces itself (execv, same process id and
//     arguments) with gpuadvisor-serve from its own directory, so the CLI that users run in loops
//     and scripts does not load the server's libraries at start.
int RunServe(const TableOptions& table);

// The library names the field a Status is about in neutral words, first ("min-gpus: expected
// ..."). LeadingName is that first name ("" when the Status has no field or the message does not
// start with a name and a colon); CliMessage spells it as the CLI's flag ("--min-gpus: expected
// ...") where it is one for the Status's field.
std::string_view LeadingName(const Status& status);
std::string CliMessage(const Status& status);

// Today's UTC date for the front ends' requests: $GPUADVISOR_TODAY where set (tests pin the
// date the catalog's price ages are measured from), else the clock. Front ends read it and
// hand it to the library; the library reads no environment.
std::string TodayFromEnvironment();
// The language the POSIX variables ask for (ChooseLanguage over LANGUAGE, LC_ALL, LC_MESSAGES,
// LANG), read now: the CLI's default without --lang, and the Python module's without lang=.
Language LanguageFromEnvironment();

void SetupInstances(CLI::App* app, int* exit_code);
void SetupShow(CLI::App* app, int* exit_code);
void SetupGpus(CLI::App* app, int* exit_code);
void SetupModels(CLI::App* app, int* exit_code);
void SetupCatalog(CLI::App* app, int* exit_code);
void SetupAccount(CLI::App* app, int* exit_code);  // cmd_account.cc
void SetupEstimate(CLI::App* app, int* exit_code);
void SetupPricing(CLI::App* app, int* exit_code);
void SetupCommitments(CLI::App* app, int* exit_code);
void SetupRecommend(CLI::App* app, int* exit_code);
void SetupServe(CLI::App* app, int* exit_code);
void SetupLaunch(CLI::App* app, int* exit_code);
void SetupIdle(CLI::App* app, int* exit_code);
void SetupSimulate(CLI::App* app, int* exit_code);
void SetupWatch(CLI::App* app, int* exit_code);

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_COMMON_H_
