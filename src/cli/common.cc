#include "cli/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>

#include "app/requests.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/workload.h"
#include "util/aws_names.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::cli {

namespace {
// AWS has ~35 regions: more is a mistake, and each one costs calls.
constexpr size_t kMaxRegionsGiven = 64;
}  // namespace

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      {"instances", "List and filter accelerator instance types with prices", &SetupInstances},
      {"show", "Everything about one instance type: specs, datasheet, prices per region",
       &SetupShow},
      {"estimate", "Memory, time and cost of a workload on given hardware", &SetupEstimate},
      {"recommend", "Ranked plans for a workload: instance, count, region, purchase, why",
       &SetupRecommend},
      {"launch", "Launch spec for a plan: aws-cli, CloudFormation, Terraform or SkyPilot",
       &SetupLaunch},
      {"pricing", "Cost of each purchase option for a usage pattern, with break-even",
       &SetupPricing},
      {"gpus", "Accelerator models with datasheet figures and cheapest offers", &SetupGpus},
      {"models", "Model presets: family, tasks, parameters, shape and where the figures come from",
       &SetupModels},
      {"catalog", "Catalog sources, dates and counts; build it from source files", &SetupCatalog},
      {"account",
       "What your AWS account can launch: quotas, zones, Reserved Instances, Savings Plans",
       &SetupAccount},
      {"idle", "Idle GPUs, wasted dollars and rightsizing from GPU telemetry", &SetupIdle},
      {"commitments",
       "Reserved Instances and Savings Plans sized from your bill (Cost and Usage Report)",
       &SetupCommitments},
      {"simulate", "Replay a request-rate trace against an autoscaled serving fleet",
       &SetupSimulate},
      {"serve", "HTTP JSON API and a local web page (127.0.0.1 by default)", &SetupServe},
      {"watch", "On-instance agent: stop the instance after a stretch of GPU idleness",
       &SetupWatch},
  };
  return kCommands;
}

std::string TodayFromEnvironment() {
  if (const char* today = std::getenv("GPUADVISOR_TODAY")) return today;
  return TodayUtc();
}

Language LanguageFromEnvironment() {
  const auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string_view(v != nullptr ? v : "");
  };
  return ChooseLanguage(env("LANGUAGE"), env("LC_ALL"), env("LC_MESSAGES"), env("LANG"));
}

void AddCommonOptions(CLI::App* cmd, CommonOptions* o, const std::vector<std::string_view>& only) {
  o->table.Add(cmd, "output", "", only, /*report_unknown=*/false);
}

namespace {

// The --help placeholder: the table's, else one from the type.
std::string_view MetavarOf(const OptionSpec& o) {
  if (!o.metavar.empty()) return o.metavar;
  switch (o.type) {
    case OptionType::kBool:
      return "";
    case OptionType::kNumber:
    case OptionType::kInteger:
      return "N";
    case OptionType::kDuration:
      return "DURATION";
    case OptionType::kChoice:
      return "CHOICE";
    case OptionType::kList:
      return "LIST";
    case OptionType::kFiles:
      return "FILE";
    case OptionType::kText:
      break;
  }
  return "TEXT";
}

}  // namespace

void TableOptions::Add(CLI::App* app, std::string_view command, const std::string& group,
                       const std::vector<std::string_view>& only, bool report_unknown) {
  Result<const CommandSpec*> spec = FindCommandSpec(command);
  assert(spec.ok() && "every command with a table is registered in CommandSpecs()");
  spec_ = *spec;
  app_ = app;
  report_unknown_ = report_unknown;
  // Unknown flags reach Values(), which reports them as every front end does (with a hint).
  if (report_unknown) app->allow_extras();
  for (const OptionSpec& o : spec_->options) {
    if ((o.front_ends & kCli) == 0) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), o.name) == only.end()) continue;
    Slot& slot = slots_.emplace_back();
    slot.spec = &o;
    std::string name = o.positional ? std::string(o.name) : "--" + std::string(o.name);
    if (!o.positional) {
      // Older spellings, unless the command already has a flag of that name (idle's `format`
      // alias of telemetry-format is HTTP's; the CLI's --format is the output format).
      for (std::string_view alias : o.aliases) {
        const std::string flag = "--" + std::string(alias);
        if (app->get_option_no_throw(flag) == nullptr) name += "," + flag;
      }
    }
    const std::string help = OptionHelpText(o);
    if (o.type == OptionType::kBool) {
      // Bound to text so that `--efa=maybe` reaches the one checker (its message and field).
      slot.option = app->add_flag(name, slot.text, help);
    } else if (o.type == OptionType::kList || o.type == OptionType::kFiles) {
      slot.option = app->add_option(name, slot.items, help);
    } else {
      slot.option = app->add_option(name, slot.text, help);
    }
    slot.option->type_name(std::string(MetavarOf(o)));
    if (o.required) slot.option->required();
    if (!group.empty()) slot.option->group(group);
  }
}

Result<OptionValues> TableOptions::Values() const {
  OptionValues values(*spec_);
  for (const std::string& extra :
       report_unknown_ ? app_->remaining() : std::vector<std::string>()) {
    if (!StartsWith(extra, "-")) {
      return Status::InvalidArgument(Trf("unexpected argument {0}", "\"" + extra + "\""));
    }
    const size_t eq = extra.find('=');
    // Known flags never get here, so this is the table's "unknown parameter" error.
    GPUADVISOR_RETURN_IF_ERROR(values.Set(extra.substr(0, eq), "", kCli));
  }
  for (const Slot& slot : slots_) {
    if (slot.option->count() == 0) continue;
    const std::string_view name = slot.spec->name;
    if (slot.spec->type == OptionType::kBool) {
      GPUADVISOR_RETURN_IF_ERROR(values.Set(name, slot.text, kCli));
    } else if (slot.spec->type == OptionType::kList || slot.spec->type == OptionType::kFiles) {
      for (const std::string& item : slot.items) {
        GPUADVISOR_RETURN_IF_ERROR(values.Set(name, item, kCli));
      }
    } else {
      GPUADVISOR_RETURN_IF_ERROR(values.Set(name, slot.text, kCli));
    }
  }
  return values;
}

int ExitCodeFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kNoResult:
      return kExitNothingFound;
    case StatusCode::kIOError:
      return kExitIoError;
    default:
      return kExitBadInput;
  }
}

namespace {
// Set once a command knows its output is JSON (MakeContext); RunCli clears it. The CLI runs one
// command per process, or one at a time under the Python module's lock-free main(), which the
// GIL serialises.
bool g_json_errors = false;  // NOLINT: process-wide CLI state, see above
}  // namespace

void SetJsonErrors(bool on) { g_json_errors = on; }

// Whether `name` (as the message spells it: the option's name or an older alias) is a flag of
// the CLI for the Status's `field`.
bool IsFlagFor(std::string_view name, std::string_view field) {
  if (name == "workload") return field == "workload";  // cli/workload_flags.cc
  for (const CommandSpec& c : CommandSpecs()) {
    if (const OptionSpec* o = c.Find(name); o != nullptr && o->name == field) return true;
  }
  return name == field && FindWorkloadFieldInfo(name) != nullptr;
}

std::string_view LeadingName(const Status& status) {
  const std::string& message = status.message();
  const size_t colon = message.find(':');
  if (status.field().empty() || colon == std::string::npos || colon == 0) return {};
  const std::string_view name(message.data(), colon);
  return name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string_view::npos
             ? name
             : std::string_view();
}

std::string CliMessage(const Status& status) {
  const std::string_view name = LeadingName(status);
  return !name.empty() && IsFlagFor(name, status.field()) ? "--" + status.message()
                                                          : status.message();
}

int Fail(const Status& status) {
  const std::string message = CliMessage(status);
  std::cerr << "gpuadvisor: " << TerminalSafe(message) << "\n";
  if (g_json_errors) {
    // The HTTP API's error object, so scripts get the code and the field as data.
    std::cout << ErrorJson(StatusCodeName(status.code()), message, status.field()).Text() << "\n";
  }
  return ExitCodeFor(status.code());
}

void Warn(const std::string& line) {
  std::cerr << "gpuadvisor: " << TerminalSafe(Trf("warning: {0}", line)) << "\n";
}

void PrintText(std::string_view text) {
  const std::string safe = TerminalSafe(text, /*keep_newlines=*/true);
  std::fwrite(safe.data(), 1, safe.size(), stdout);
}

namespace {
// $XDG_DATA_HOME/gpuadvisor/NAME (~/.local/share when unset or relative); "" without HOME.
std::string UserDataPath(const char* name) {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  std::string base;
  if (xdg != nullptr && xdg[0] == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = std::string(home) + "/.local/share";
  } else {
    return "";
  }
  return base + "/gpuadvisor/" + name;
}
}  // namespace

std::string UserCatalogPath() { return UserDataPath("catalog.json"); }
std::string UserAccountPath() { return UserDataPath("account.json"); }

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}
// The first of the variables that is set and not empty.
std::string FirstEnv(std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (std::string v = Env(n); !v.empty()) return v;
  }
  return "";
}

// AWS_REGION, AWS_DEFAULT_REGION, then every `region` of the AWS config file
// ($AWS_CONFIG_FILE, else ~/.aws/config), each once.
std::vector<std::string> RegionsFromEnvironment() {
  std::vector<std::string> out;
  auto add = [&](const std::string& r) {
    if (!r.empty() && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  add(Env("AWS_REGION"));
  add(Env("AWS_DEFAULT_REGION"));
  std::string config = Env("AWS_CONFIG_FILE");
  if (config.empty() && !Env("HOME").empty()) config = Env("HOME") + "/.aws/config";
  if (!config.empty()) {
    if (Result<std::string> text = ReadFile(config, kManifestFile); text.ok()) {
      for (const std::string& r : RegionsFromAwsConfig(*text)) add(r);
    }
  }
  return out;
}

Result<std::vector<std::string>> RegionsGivenOrConfigured(const std::vector<std::string>& given,
                                                          std::string_view example) {
  std::vector<std::string> regions = given.empty() ? RegionsFromEnvironment() : given;
  if (regions.empty()) {
    return Status::InvalidArgument(
               "regions: none given and none in your AWS configuration (AWS_REGION, "
               "AWS_DEFAULT_REGION, `region` in ~/.aws/config); name them, e.g. --regions " +
               std::string(example))
        .WithField("regions");
  }
  // Each becomes the AWS CLI's --region (util/aws_names.h): region codes only, each once.
  std::vector<std::string> out;
  for (const std::string& r : regions) {
    if (r == "all" && regions.size() == 1) return regions;  // catalog update's word for every one
    if (!IsRegionCode(r)) {
      return Status::InvalidArgument("regions: expected " + RegionCodeProblem(r))
          .WithField("regions");
    }
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  if (out.size() > kMaxRegionsGiven) {
    return Status::InvalidArgument("regions: expected at most " + std::to_string(kMaxRegionsGiven) +
                                   " regions, got " + std::to_string(out.size()))
        .WithField("regions");
  }
  return out;
}

Status MakeParentDirectories(const std::string& path) {
  for (size_t at = path.find('/', 1); at != std::string::npos; at = path.find('/', at + 1)) {
    const std::string dir = path.substr(0, at);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      return Status::IOError("cannot create " + dir + ": " + std::strerror(errno));
    }
  }
  return Status::OK();
}

Result<std::optional<AccountScan>> LoadAccountScan(const std::string& account_option) {
  std::string path = account_option;
  if (path.empty()) {
    if (const char* env = std::getenv("GPUADVISOR_ACCOUNT")) path = env;
  }
  if (path.empty()) {
    const std::string user = UserAccountPath();
    if (user.empty() || ::access(user.c_str(), F_OK) != 0) return std::optional<AccountScan>();
    path = user;
  }
  if (path == "none") return std::optional<AccountScan>();
  Result<std::string> text = ReadFile(path, kAccountFile);
  if (!text.ok()) return text.status().WithField("account");
  Result<AccountScan> scan = ParseAccountScan(*text, path);
  if (!scan.ok()) return scan.status().WithField("account");
  return std::optional<AccountScan>(std::move(*scan));
}

CatalogInUse ChooseCatalog(const std::string& catalog_option) {
  std::string path = catalog_option;
  if (path.empty()) {
    if (const char* env = std::getenv("GPUADVISOR_CATALOG")) path = env;
  }
  const std::string user = UserCatalogPath();
  if (path.empty() && !user.empty() && ::access(user.c_str(), F_OK) == 0) path = user;
  if (path.empty() || path == "embedded") return {"embedded", ""};
  return {path == user ? "user" : "file", path};
}

Result<Context> MakeContext(const CommonOptions& o, bool load_catalog) {
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return values.status();
  OutputArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(*values, &a));
  Context ctx;
  ctx.format = a.json ? OutputFormat::kJson : a.format;
  SetJsonErrors(ctx.format == OutputFormat::kJson);
  ctx.color = ctx.format == OutputFormat::kTable && !a.no_color && ::isatty(STDOUT_FILENO) &&
              std::getenv("NO_COLOR") == nullptr;
  ctx.fresh = MakeFreshness(a.max_price_age_days, TodayFromEnvironment());
  ctx.catalog_option = a.catalog;
  if (!load_catalog) return ctx;
  ctx.in_use = ChooseCatalog(a.catalog);
  Result<std::shared_ptr<const Catalog>> c = OpenCatalog(ctx.in_use.path);
  if (!c.ok()) {
    if (ctx.in_use.kind != "user") return c.status();
    return c.status().WithPrefix(
        "the user catalog (written by `gpuadvisor catalog update`; "
        "`--catalog embedded` reads the built-in one)");
  }
  ctx.catalog = *c;
  return ctx;
}

void Emit(const Context& ctx, const std::function<JsonDoc()>& json,
          const std::function<Table()>& table, const std::vector<std::string>& warnings) {
  // Each line once, in order (several results may carry the same stale-price line).
  std::set<std::string> seen;
  for (const std::string& w : warnings) {
    if (seen.insert(w).second) Warn(w);
  }
  std::string out = ctx.format == OutputFormat::kJson ? json().Text(2) + "\n"
                                                      : table().Render(ctx.format, ctx.color);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace gpuadvisor::cli
