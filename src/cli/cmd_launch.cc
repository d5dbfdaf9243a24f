// `gpuadvisor launch`: a ready-to-run launch spec for an instance type, a saved plan or the best
// plan `recommend` finds for a workload.
#include <cstdio>

#include "app/requests.h"
#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/launch.h"
#include "gpuadvisor/recommend.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct LaunchOptions {
  CommonOptions common;  // --catalog only: the document is the output
  // The "launch" table: type, count, rank, format, region, purchase, ..., the CLI's from-plan,
  // out and cli-input-json, and recommend's search options for a workload.
  TableOptions table;
  WorkloadArgs workload;
};

// The launch options that steer recommend's search for a workload (recommend's own table entries).
constexpr const char* kSearchOptions[] = {
    "deadline",       "budget",   "max-instances", "objective",     "only-family",
    "exclude-family", "only-gpu", "exclude-gpu",   "only-instance", "exclude-instance"};

// Workload flags other than --dataset-gib (which also sizes the data volume of a TYPE launch).
std::string FirstWorkloadFlag(const LaunchOptions& o) {
  if (!o.workload.file.empty()) return "--workload";
  const auto task = o.workload.values.find("task");
  if (task != o.workload.values.end() && !task->second.empty()) return "--task";
  for (const auto& [field, text] : o.workload.values) {
    if (!text.empty() && field != "dataset-gib") return "--" + field;
  }
  return "";
}

// Exactly one source: TYPE, --from-plan or a workload; flags that only fit another source are
// conflicts. Exit 2 names the flag. (Conflicts with the plan's own settings are the library's.)
Status CheckSources(const LaunchOptions& o, const OptionValues& v, const LaunchArgs& a) {
  const std::string& type = a.type;
  const std::string& from_plan = a.from_plan;
  const std::string workload = FirstWorkloadFlag(o);
  const int sources = static_cast<int>(!type.empty()) + static_cast<int>(!from_plan.empty()) +
                      static_cast<int>(!workload.empty());
  if (sources == 0) {
    return Status::InvalidArgument(
               "launch: name an instance TYPE, --from-plan PLAN.json or a workload (--task ...)")
        .WithField("type");
  }
  if (!type.empty() && !from_plan.empty()) {
    return Status::InvalidArgument("--from-plan: conflicts with TYPE \"" + type +
                                   "\" (the plan names the type)")
        .WithField("from-plan");
  }
  if (!workload.empty() && sources > 1) {
    return Status::InvalidArgument(workload + ": conflicts with " +
                                   (type.empty() ? "--from-plan" : "TYPE \"" + type + "\"") +
                                   " (workload flags ask recommend for the plan)")
        .WithField(workload.substr(2));
  }
  if (workload.empty()) {
    for (const char* name : kSearchOptions) {
      if (v.Given(name)) {
        return Status::InvalidArgument("--" + std::string(name) +
                                       ": only with workload flags (it steers recommend's search)")
            .WithField(name);
      }
    }
  }
  if (v.Given("count") && type.empty()) {
    return Status::InvalidArgument("--count: only with TYPE (the plan sets the instance count)")
        .WithField("count");
  }
  if (v.Given("rank") && from_plan.empty()) {
    return Status::InvalidArgument("--rank: only with --from-plan").WithField("rank");
  }
  if (a.cli_input_json && a.format != LaunchFormat::kAwsCli) {
    return Status::InvalidArgument("--cli-input-json: only with --format aws-cli, got --format " +
                                   std::string(LaunchFormatName(a.format)))
        .WithField("cli-input-json");
  }
  return Status::OK();
}

// The best plan recommend finds, restricted to --region / --purchase when given.
Status FromWorkload(const LaunchOptions& o, const OptionValues& v, const Catalog& catalog,
                    const AccountScan* account, LaunchRequest* r) {
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return w.status();
  Result<RecommendRequest> req = MakeLaunchSearch(v);
  if (!req.ok()) return req.status();
  req->account = account;  // the best plan the account can launch
  Result<Recommendation> rec = Recommend(catalog, *w, *req);
  if (!rec.ok()) return rec.status();
  if (!rec->filters.emptied_by.empty()) {
    return Status::NoResult("recommend found no plan for the workload: " + rec->filters.note);
  }
  if (rec->plans.empty()) {
    std::string why = rec->rejected.empty() ? ""
                                            : ": " + rec->rejected.front().instance_type + " " +
                                                  rec->rejected.front().reason;
    return Status::NoResult("recommend found no feasible plan for the workload" + why);
  }
  const Plan& best = rec->plans.front();
  r->instance_type = best.type->name;
  r->count = best.instances;
  r->region = best.region;
  r->purchase = best.purchase;
  r->checkpoint_gib = best.estimate.checkpoint_gib;
  r->plan_note = "recommend rank 1";
  r->inter_node_traffic = best.inter_node_traffic;
  return Status::OK();
}

// The request for the one source CheckSources allowed.
Result<LaunchArgs> BuildRequest(const LaunchOptions& o, const OptionValues& v,
                                const Catalog& catalog, const AccountScan* account) {
  LaunchArgs given;  // the options as given, for the choice of source
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(v, &given));
  GPUADVISOR_RETURN_IF_ERROR(CheckSources(o, v, given));
  Result<LaunchArgs> a = LaunchArgs{};
  if (const std::string& from_plan = given.from_plan; !from_plan.empty()) {
    Result<std::string> text = ReadFile(from_plan, kPlanFile);
    if (!text.ok()) return text.status().WithPrefix("--from-plan").WithField("from-plan");
    a = MakeLaunchRequest(v, &*text, from_plan);
  } else if (!given.type.empty()) {
    a = MakeLaunchRequest(v, nullptr, "");
  } else {
    a = given;
    GPUADVISOR_RETURN_IF_ERROR(FromWorkload(o, v, catalog, account, &a->request));
    GPUADVISOR_RETURN_IF_ERROR(ApplyLaunchOptions(v, &a->request));
  }
  if (!a.ok()) return a.status();
  const auto ds = o.workload.values.find("dataset-gib");
  if (ds != o.workload.values.end() && !ds->second.empty()) {
    Result<double> gib = ParseSiNumber(ds->second, "--dataset-gib");
    if (!gib.ok()) return gib.status();
    a->request.dataset_gib = *gib;
  }
  return a;
}

int Run(const LaunchOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  // The account scan (GPUADVISOR_ACCOUNT, else the user's): a spec it cannot launch is warned
  // about with the quota to request.
  Result<std::optional<AccountScan>> account = LoadAccountScan("");
  if (!account.ok()) return Fail(account.status());
  const std::optional<AccountScan>& loaded = *account;
  const AccountScan* scan = loaded.has_value() ? &*loaded : nullptr;
  Result<LaunchArgs> args = BuildRequest(o, *values, *ctx->catalog, scan);
  if (!args.ok()) return Fail(args.status());
  Result<LaunchPlan> plan = PlanLaunchWarned(*ctx->catalog, args->request, scan);
  if (!plan.ok()) return Fail(plan.status());
  Status fits = CheckLaunchFormat(*plan, args->format);
  if (!fits.ok()) return Fail(fits);
  const LaunchSpec spec = RenderLaunch(*plan, args->format);
  for (const std::string& w : plan->warnings) Warn(w);
  const std::string& text = args->cli_input_json ? spec.cli_input_json : spec.document;
  const std::string& out = args->out;
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  Status written = WriteFileAtomic(out, text);
  if (!written.ok()) return Fail(written.WithPrefix("--out"));
  std::fprintf(stderr, "gpuadvisor: wrote %s (%s, %zu bytes)\n", TerminalSafe(out).c_str(),
               LaunchFormatName(args->format), text.size());
  return kExitOk;
}

}  // namespace

void SetupLaunch(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<LaunchOptions>();
  AddCommonOptions(app, &o->common, {"catalog"});
  const std::string g = "Launch";
  o->table.Add(app, "launch", g);
  // One ID per --security-group-ids (repeat it or use commas): a greedy list would take the
  // positional TYPE after it for a group.
  app->get_option("--security-group-ids")->allow_extra_args(false);
  for (const char* name : kSearchOptions) {
    app->get_option("--" + std::string(name))->group("Recommend (with workload flags)");
  }
  AddWorkloadOptions(app, &o->workload);
  app->footer(
      R"(Every choice (AMI, EFA interfaces, placement group, disk sizes, spot options) is explained
in a comment of the generated file; see doc/launch.md for the facts behind them.

Examples:
  gpuadvisor launch p5.48xlarge --count 4 --purchase spot --format aws-cli
  gpuadvisor launch p5.48xlarge --count 8 --purchase capacity-block --capacity-reservation-id cr-0123456789abcdef0
  gpuadvisor launch g6e.12xlarge --format cloudformation --dataset-gib 200 --out stack.yaml
  gpuadvisor recommend --task finetune --model llama-3.1-8b --tokens 200M --json > plans.json
  gpuadvisor launch --from-plan plans.json --format terraform --out main.tf
  gpuadvisor launch --task pretrain --model llama-3.1-8b --tokens 100B --deadline 14d --format skypilot)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
