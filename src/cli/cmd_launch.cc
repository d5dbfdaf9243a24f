// `gpuadvisor launch`: a ready-to-run launch spec for an instance type, a saved plan or the best
// plan `recommend` finds for a workload.
#include <cstdio>

#include "cli/common.h"
#include "cli/workload_flags.h"
#include "gpuadvisor/launch.h"
#include "gpuadvisor/recommend.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor::cli {
namespace {

struct LaunchOptions {
  std::string catalog_path;
  std::string type, count, from_plan, rank = "1";
  WorkloadArgs workload;
  std::string format = "aws-cli", region, purchase, key_name, subnet_id, instance_profile;
  std::string security_group_ids;  // repeated options joined with '\n'
  std::string ebs_gib, checkpoint_gib, idle_stop_minutes = "60", name = "gpuadvisor", out;
  bool cli_input_json = false;
  std::string deadline, budget, max_instances, objective;  // workload mode: recommend's search
};

Status ParseCount(const std::string& text, const char* flag, int* out) {
  Result<int64_t> v = ParseInt(text, flag);
  if (!v.ok()) return v.status();
  if (*v < 1 || *v > 1000) {
    return Status::InvalidArgument(std::string(flag) + ": expected 1..1000, got " + text);
  }
  *out = static_cast<int>(*v);
  return Status::OK();
}

Status ParsePurchase(const std::string& text, PurchaseKind* out) {
  const std::string name = ToLower(text);
  if (name == "on-demand" || name == "ondemand") {
    *out = PurchaseKind::kOnDemand;
  } else if (name == "spot") {
    *out = PurchaseKind::kSpot;
  } else {
    return Status::InvalidArgument("--purchase: expected on-demand or spot, got \"" + text + "\"");
  }
  return Status::OK();
}

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
// conflicts. Exit 2 names the flag.
Status CheckSources(const LaunchOptions& o) {
  const std::string workload = FirstWorkloadFlag(o);
  const int sources = static_cast<int>(!o.type.empty()) + static_cast<int>(!o.from_plan.empty()) +
                      static_cast<int>(!workload.empty());
  if (sources == 0) {
    return Status::InvalidArgument(
        "launch: name an instance TYPE, --from-plan PLAN.json or a workload (--task ...)");
  }
  if (!o.type.empty() && !o.from_plan.empty()) {
    return Status::InvalidArgument("--from-plan: conflicts with TYPE \"" + o.type +
                                   "\" (the plan names the type)");
  }
  if (!workload.empty() && sources > 1) {
    return Status::InvalidArgument(workload + ": conflicts with " +
                                   (o.type.empty() ? "--from-plan" : "TYPE \"" + o.type + "\"") +
                                   " (workload flags ask recommend for the plan)");
  }
  if (workload.empty()) {
    for (const auto& [flag, text] : {std::pair{"--deadline", &o.deadline},
                                     {"--budget", &o.budget},
                                     {"--max-instances", &o.max_instances},
                                     {"--objective", &o.objective}}) {
      if (!text->empty()) {
        return Status::InvalidArgument(std::string(flag) +
                                       ": only with workload flags (it steers recommend's search)");
      }
    }
  }
  if (!o.count.empty() && o.type.empty()) {
    return Status::InvalidArgument("--count: only with TYPE (the plan sets the instance count)");
  }
  if (o.rank != "1" && o.from_plan.empty()) {
    return Status::InvalidArgument("--rank: only with --from-plan");
  }
  if (o.cli_input_json && o.format != "aws-cli") {
    return Status::InvalidArgument("--cli-input-json: only with --format aws-cli, got --format " +
                                   o.format);
  }
  return Status::OK();
}

// A plan file's region and purchase win unless the flags say the same thing.
Status CheckAgainstPlan(const LaunchOptions& o, const LaunchRequest& r) {
  if (!o.region.empty() && o.region != r.region) {
    return Status::InvalidArgument("--region " + o.region + ": conflicts with the plan's region " +
                                   r.region);
  }
  if (!o.purchase.empty()) {
    PurchaseKind p = PurchaseKind::kOnDemand;
    GPUADVISOR_RETURN_IF_ERROR(ParsePurchase(o.purchase, &p));
    if (p != r.purchase) {
      return Status::InvalidArgument("--purchase " + o.purchase +
                                     ": conflicts with the plan's purchase option " +
                                     PurchaseKindName(r.purchase));
    }
  }
  return Status::OK();
}

Status FromPlanFile(const LaunchOptions& o, LaunchRequest* r) {
  int rank = 1;
  GPUADVISOR_RETURN_IF_ERROR(ParseCount(o.rank, "--rank", &rank));
  Result<std::string> text = ReadFile(o.from_plan);
  if (!text.ok()) return text.status().WithPrefix("--from-plan");
  GPUADVISOR_RETURN_IF_ERROR(ReadPlanJson(*text, o.from_plan, rank, r));
  return CheckAgainstPlan(o, *r);
}

// The best plan recommend finds, restricted to --region / --purchase when given.
Status FromWorkload(const LaunchOptions& o, const Catalog& catalog, LaunchRequest* r) {
  Result<Workload> w = BuildWorkload(o.workload);
  if (!w.ok()) return w.status();
  RecommendRequest req;
  req.top = 1;
  req.savings_levers = false;
  if (!o.region.empty()) req.regions = {o.region};
  if (!o.purchase.empty()) req.purchase = {r->purchase};
  if (!o.deadline.empty()) {
    double seconds = 0;
    GPUADVISOR_RETURN_IF_ERROR(ParseOptDuration(o.deadline, "--deadline", &seconds));
    req.deadline_hours = seconds / 3600;
  }
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.budget, "--budget", &req.budget_usd));
  if (!o.max_instances.empty()) {
    GPUADVISOR_RETURN_IF_ERROR(ParseCount(o.max_instances, "--max-instances", &req.max_instances));
  }
  if (o.objective == "time") {
    req.objective = Objective::kTime;
  } else if (o.objective == "balanced") {
    req.objective = Objective::kBalanced;
  } else if (!o.objective.empty() && o.objective != "cost") {
    return Status::InvalidArgument("--objective: expected cost, time or balanced, got \"" +
                                   o.objective + "\"");
  }
  Result<Recommendation> rec = Recommend(catalog, *w, req);
  if (!rec.ok()) return rec.status();
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
  return Status::OK();
}

Status BuildRequest(const LaunchOptions& o, const Catalog& catalog, LaunchRequest* r) {
  GPUADVISOR_RETURN_IF_ERROR(CheckSources(o));
  if (!o.purchase.empty()) GPUADVISOR_RETURN_IF_ERROR(ParsePurchase(o.purchase, &r->purchase));
  if (!o.region.empty()) r->region = o.region;
  if (!o.type.empty()) {
    r->instance_type = o.type;
    if (!o.count.empty()) GPUADVISOR_RETURN_IF_ERROR(ParseCount(o.count, "--count", &r->count));
  } else if (!o.from_plan.empty()) {
    GPUADVISOR_RETURN_IF_ERROR(FromPlanFile(o, r));
  } else {
    GPUADVISOR_RETURN_IF_ERROR(FromWorkload(o, catalog, r));
  }
  const auto ds = o.workload.values.find("dataset-gib");
  if (ds != o.workload.values.end() && !ds->second.empty()) {
    GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(ds->second, "--dataset-gib", &r->dataset_gib));
  }
  GPUADVISOR_RETURN_IF_ERROR(ParseOptNumber(o.ebs_gib, "--ebs-gib", &r->ebs_gib));
  GPUADVISOR_RETURN_IF_ERROR(
      ParseOptNumber(o.checkpoint_gib, "--checkpoint-gib", &r->checkpoint_gib));
  Result<int64_t> idle = ParseInt(o.idle_stop_minutes, "--idle-stop-minutes");
  if (!idle.ok()) return idle.status();
  r->idle_stop_minutes = static_cast<int>(std::clamp<int64_t>(*idle, -1, 100000));
  r->key_name = o.key_name;
  r->subnet_id = o.subnet_id;
  for (std::string_view line : Split(o.security_group_ids, '\n')) {
    for (std::string_view part : Split(line, ',')) {
      if (!Trim(part).empty()) r->security_group_ids.emplace_back(Trim(part));
    }
  }
  r->instance_profile = o.instance_profile;
  r->name = o.name;
  return Status::OK();
}

int Run(const LaunchOptions& o) {
  CommonOptions common;
  common.catalog_path = o.catalog_path;
  Result<Context> ctx = MakeContext(common);
  if (!ctx.ok()) return Fail(ctx.status());
  const std::optional<LaunchFormat> format = ParseLaunchFormat(o.format);
  if (!format) {
    return Fail(Status::InvalidArgument(
        "--format: expected aws-cli, cloudformation, terraform or skypilot, got \"" + o.format +
        "\""));
  }
  LaunchRequest req;
  Status built = BuildRequest(o, *ctx->catalog, &req);
  if (!built.ok()) return Fail(built);
  Result<LaunchPlan> plan = PlanLaunch(*ctx->catalog, req);
  if (!plan.ok()) return Fail(plan.status());
  Status fits = CheckLaunchFormat(*plan, *format);
  if (!fits.ok()) return Fail(fits);
  const LaunchSpec spec = RenderLaunch(*plan, *format);
  for (const std::string& w : plan->warnings) Warn(w);
  const std::string& text = o.cli_input_json ? spec.cli_input_json : spec.document;
  if (o.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  Status written = WriteFileAtomic(o.out, text);
  if (!written.ok()) return Fail(written.WithPrefix("--out"));
  std::fprintf(stderr, "gpuadvisor: wrote %s (%s, %zu bytes)\n", o.out.c_str(),
               LaunchFormatName(*format), text.size());
  return kExitOk;
}

}  // namespace

void SetupLaunch(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<LaunchOptions>();
  app->add_option("--catalog", o->catalog_path, "Catalog file (default: the embedded catalog)");
  const std::string g = "Launch";
  app->add_option("type", o->type, "Instance type to launch (or use --from-plan / a workload)")
      ->group(g);
  app->add_option("--count", o->count, "Instances of TYPE (default 1)")->group(g);
  app->add_option("--from-plan", o->from_plan,
                  "Plan from `recommend --json` (the whole output or one plan; - = stdin)")
      ->group(g);
  app->add_option("--rank", o->rank, "Which plan of a --from-plan file (default 1)")->group(g);
  app->add_option("--format", o->format, "aws-cli (default), cloudformation, terraform, skypilot")
      ->group(g);
  app->add_option("--region", o->region, "Region (default us-east-1, or the plan's)")->group(g);
  app->add_option("--purchase", o->purchase, "on-demand (default) or spot")->group(g);
  app->add_option("--key-name", o->key_name, "EC2 key pair (default: none, use SSM)")->group(g);
  app->add_option("--subnet-id", o->subnet_id, "Subnet (default: a placeholder/parameter)")
      ->group(g);
  app->add_option("--security-group-ids", o->security_group_ids,
                  "Security groups (comma-separated or repeated)")
      ->multi_option_policy(CLI::MultiOptionPolicy::Join)
      ->group(g);
  app->add_option("--instance-profile", o->instance_profile,
                  "aws-cli/terraform: instance profile for the CloudWatch agent")
      ->group(g);
  app->add_option("--ebs-gib", o->ebs_gib,
                  "Data volume size in GiB (default: dataset + checkpoints)")
      ->group(g);
  app->add_option("--checkpoint-gib", o->checkpoint_gib,
                  "One checkpoint in GiB (default: the estimator's, for a plan or workload)")
      ->group(g);
  app->add_option("--idle-stop-minutes", o->idle_stop_minutes,
                  "cloudformation: stop a node idle this long (default 60, 0 = no alarm)")
      ->group(g);
  app->add_option("--name", o->name, "Prefix of names and the Name tag (default gpuadvisor)")
      ->group(g);
  app->add_option("--out", o->out, "Write to FILE (atomically) instead of stdout")->group(g);
  app->add_flag("--cli-input-json", o->cli_input_json,
                "aws-cli: print only the run-instances --cli-input-json document")
      ->group(g);
  const std::string rs = "Recommend (with workload flags)";
  app->add_option("--deadline", o->deadline, "Finish within DUR (36h, 14d)")->group(rs);
  app->add_option("--budget", o->budget, "Spend at most USD on the run")->group(rs);
  app->add_option("--max-instances", o->max_instances, "Instances per plan (default 64)")
      ->group(rs);
  app->add_option("--objective", o->objective, "cost (default), time or balanced")->group(rs);
  AddWorkloadOptions(app, &o->workload);
  app->footer(
      R"(Every choice (AMI, EFA interfaces, placement group, disk sizes, spot options) is explained
in a comment of the generated file; see doc/launch.md for the facts behind them.

Examples:
  gpuadvisor launch p5.48xlarge --count 4 --purchase spot --format aws-cli
  gpuadvisor launch g6e.12xlarge --format cloudformation --dataset-gib 200 --out stack.yaml
  gpuadvisor recommend --task finetune --model llama-3.1-8b --tokens 200M --json > plans.json
  gpuadvisor launch --from-plan plans.json --format terraform --out main.tf
  gpuadvisor launch --task pretrain --model llama-3.1-8b --tokens 100B --deadline 14d --format skypilot)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
