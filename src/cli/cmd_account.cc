// `gpuadvisor account scan|show`: what the buyer's AWS account can launch (gpuadvisor/account.h).
// The scan runs the AWS CLI (cli/aws_cli.h), so that whatever credentials the user's `aws` finds
// are the ones used and gpuadvisor holds no secret of its own.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <utility>

#include "app/command_args.h"
#include "app/table.h"
#include "cli/aws_cli.h"
#include "cli/common.h"
#include "gpuadvisor/account.h"
#include "gpuadvisor/query.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

// Runs one call and hands its output to `add`; a failure is recorded in the scan, not fatal.
template <typename Add>
void Scan(const AwsCli& aws, const std::string& region, const std::vector<std::string>& call,
          AccountScan* scan, int* ok, Add add) {
  const std::string where = region.empty() ? "" : region + ": ";
  Result<std::string> out = aws.Call(region, call);
  Status st = out.ok() ? add(*out) : out.status();
  if (st.ok()) {
    ++*ok;
  } else {
    scan->failures.push_back(where + st.message());
  }
}

AccountScan RunScan(const AccountScanArgs& a, const std::vector<std::string>& regions,
                    const std::vector<std::pair<std::string, int>>& spot_scores,
                    const Catalog& catalog, int* ok) {
  const AwsCli aws(AwsCliSettings{.options = a.aws_cli, .timeout_s = a.timeout_s});
  AccountScan scan;
  scan.scanned_at = NowUtcIso();
  scan.regions = regions;
  // sts answers in any region; the first one scanned is surely enabled.
  Scan(aws, regions.front(), {"sts", "get-caller-identity"}, &scan, ok,
       [&](const std::string& json) {
         return AddCallerIdentity(json, "sts get-caller-identity", &scan);
       });
  for (const std::string& r : regions) {
    Scan(aws, r, {"service-quotas", "list-service-quotas", "--service-code", "ec2"}, &scan, ok,
         [&](const std::string& json) {
           return AddServiceQuotas(json, r + " list-service-quotas", r, &scan);
         });
    Scan(aws, r,
         {"ec2", "describe-instance-type-offerings", "--location-type", "availability-zone"}, &scan,
         ok, [&](const std::string& json) {
           return AddInstanceTypeOfferings(json, r + " describe-instance-type-offerings", r, &scan);
         });
    Scan(aws, r, {"ec2", "describe-reserved-instances", "--filters", "Name=state,Values=active"},
         &scan, ok, [&](const std::string& json) {
           return AddReservedInstances(json, r + " describe-reserved-instances", r, &scan);
         });
    // What already runs takes from the quotas and uses RIs (zonal ones in its zone): only the
    // fields the count needs come back.
    Scan(aws, r,
         {"ec2", "describe-instances", "--filters",
          "Name=instance-state-name,Values=pending,running", "--query",
          std::string("Reservations[].{Instances: Instances[].{InstanceType: InstanceType, ") +
              "InstanceLifecycle: InstanceLifecycle, CpuOptions: CpuOptions, Placement: "
              "Placement}}"},
         &scan, ok, [&](const std::string& json) {
           // --query leaves the list of reservations bare; the parser reads the API's shape.
           return AddRunningInstances("{\"Reservations\": " + json + "}", r + " describe-instances",
                                      r, &catalog, &scan);
         });
  }
  // Spot placement scores: one call per type and count, for every scanned region at once (the
  // API answers for any region from one; at most kMaxSpotScoreRequests calls).
  for (const auto& [type, count] : spot_scores) {
    std::vector<std::string> call = {"ec2",
                                     "get-spot-placement-scores",
                                     "--instance-types",
                                     type,
                                     "--target-capacity",
                                     std::to_string(count),
                                     "--region-names"};
    call.insert(call.end(), regions.begin(), regions.end());
    if (a.spot_scores_per_zone) call.emplace_back("--single-availability-zone");
    const std::string what = type + ":" + std::to_string(count);
    Scan(aws, regions.front(), call, &scan, ok, [&](const std::string& json) {
      return AddSpotPlacementScores(json, "get-spot-placement-scores " + what, type, count,
                                    scan.scanned_at, &scan);
    });
  }
  // Savings Plans are global (the API lives in us-east-1).
  Scan(aws, "us-east-1", {"savingsplans", "describe-savings-plans", "--states", "active"}, &scan,
       ok, [&](const std::string& json) {
         return AddSavingsPlans(json, "describe-savings-plans", &scan);
       });
  return scan;
}

// The scan as tables: the accelerator classes' quotas per region, then what is already paid for.
std::string ScanText(const AccountScan& s, OutputFormat format, bool color) {
  Table quotas;
  quotas.AddColumn(Tr("region"));
  quotas.AddColumn(Tr("quota"));
  quotas.AddColumn(Tr("code"));
  quotas.AddColumn(Tr("vCPUs"), /*numeric=*/true);
  quotas.AddColumn(Tr("in use"), /*numeric=*/true);
  quotas.AddColumn(Tr("types offered (zones scanned)"));
  for (const AccountQuota& q : s.quotas) {
    // The accelerator classes only (P, G and VT, Inf, Trn, DL, F); Standard and X are not ours.
    bool accel = false;
    for (const std::string& c : q.classes) {
      accel = accel || c == "P" || c == "G" || c == "INF" || c == "TRN" || c == "DL" || c == "F";
    }
    if (!accel) continue;
    std::optional<std::string> zones;
    if (const auto z = s.zones.find(q.region); z != s.zones.end()) {
      int types = 0;
      for (const auto& [type, list] : z->second) {
        std::string cls;
        for (char ch : type) {
          if (!std::isalpha(static_cast<unsigned char>(ch))) break;
          cls += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        if (std::find(q.classes.begin(), q.classes.end(), cls) != q.classes.end()) ++types;
      }
      zones = std::to_string(types) + " types";
    }
    int running = 0;
    const std::optional<double> used = QuotaUsedVcpus(s, q, &running);
    quotas.AddRow(
        {q.region, q.name, q.code, FormatFixed(q.vcpus, 0),
         used ? std::optional<std::string>(FormatFixed(*used, 0)) : std::optional<std::string>(),
         q.spot ? std::optional<std::string>() : zones});
  }
  std::string out = quotas.Render(format, color);
  if (format != OutputFormat::kTable) return out;
  // Every text below came from an AWS answer (or a scan file): TerminalSafe, so an account id
  // holding "\x1b[31m" is shown escaped, not obeyed by the terminal.
  out += "\naccount " +
         (s.account_id.empty() ? std::string("(unknown)") : TerminalSafe(s.account_id)) +
         ", scanned " + TerminalSafe(s.scanned_at) + "\n";
  for (const ReservedInstances& ri : s.reserved) {
    out += "reserved: " + std::to_string(ri.count) + " x " + TerminalSafe(ri.instance_type) +
           " in " + TerminalSafe(ri.zone.empty() ? ri.region : ri.zone) + " until " +
           TerminalSafe(ri.end) + "\n";
  }
  for (const SavingsPlan& sp : s.savings_plans) {
    out += "savings plan: " + TerminalSafe(sp.id) + " (" + TerminalSafe(sp.type) +
           (sp.family.empty() ? ""
                              : ", " + TerminalSafe(sp.family) + " in " + TerminalSafe(sp.region)) +
           ") $" + FormatFixed(sp.commitment_usd_per_hour, 2) + "/h until " + TerminalSafe(sp.end) +
           "\n";
  }
  for (const SpotScore& sc : s.spot_scores) {
    out += "spot placement score: " + std::to_string(sc.score) + "/10 for " +
           std::to_string(sc.count) + " x " + TerminalSafe(sc.instance_type) + " in " +
           TerminalSafe(sc.zone_id.empty() ? sc.region : sc.zone_id) +
           (sc.score <= kLowSpotScore ? " (unlikely)" : "") + "\n";
  }
  for (const std::string& f : s.failures) out += "not read: " + TerminalSafe(f) + "\n";
  return out;
}

struct AccountOptions {
  CommonOptions common;
  TableOptions table;  // "account scan"
};

int RunAccountScan(const AccountOptions& o) {
  Result<Context> ctx = MakeContext(o.common);  // the catalog: the vCPUs of running types
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> v = o.table.Values();
  if (!v.ok()) return Fail(v.status());
  AccountScanArgs a;
  if (Status st = SetFromOptions(*v, &a); !st.ok()) return Fail(st);
  Result<std::vector<std::string>> given =
      RegionsGivenOrConfigured(a.regions, "us-east-1,us-west-2");
  if (!given.ok()) return Fail(given.status());
  const std::vector<std::string>& regions = *given;
  Result<std::vector<std::pair<std::string, int>>> spot_scores =
      ParseSpotScoreRequests(a.spot_scores);
  if (!spot_scores.ok()) return Fail(spot_scores.status());
  const std::string out = a.out.empty() ? UserAccountPath() : a.out;
  if (out.empty()) {
    return Fail(
        Status::InvalidArgument("out: no account scan path (neither XDG_DATA_HOME nor HOME is set)")
            .WithField("out"));
  }
  int ok = 0;
  const AccountScan scan = RunScan(a, regions, *spot_scores, *ctx->catalog, &ok);
  if (ok == 0) {
    // Nothing answered: keep whatever scan was there, and say why.
    return Fail(Status::IOError("account scan: no AWS call succeeded; first failure: " +
                                scan.failures.front()));
  }
  if (a.out.empty()) {
    if (Status st = MakeParentDirectories(out); !st.ok()) return Fail(st);
  }
  // Bounded by what `account show` and recommend read back (kAccountFile), not written past it.
  if (Status st = WriteFileAtomic(out, AccountScanToJson(scan), {.kind = &kAccountFile});
      !st.ok()) {
    return Fail(st);
  }
  if (ctx->format == OutputFormat::kJson) {
    std::cout << AccountScanToJson(scan);
  } else {
    std::cout << ScanText(scan, ctx->format, ctx->color);
    if (ctx->format == OutputFormat::kTable)
      std::cout << "written to " << TerminalSafe(out) << "\n";
  }
  if (ctx->format != OutputFormat::kTable) {  // the table's own lines name them otherwise
    for (const std::string& f : scan.failures) Warn("not read: " + f);
  }
  return kExitOk;
}

// The scan recommend would use (GPUADVISOR_ACCOUNT, else the user's).
int RunAccountShow(const CommonOptions& common) {
  Result<Context> ctx = MakeContext(common, /*load_catalog=*/false);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<std::optional<AccountScan>> loaded = LoadAccountScan("");
  if (!loaded.ok()) return Fail(loaded.status());
  const std::optional<AccountScan>& scan = *loaded;
  if (!scan.has_value()) {
    return Fail(Status::NotFound(
        Trf("no account scan (looked for {0}); run `gpuadvisor account scan` first",
            UserAccountPath())));
  }
  if (ctx->format == OutputFormat::kJson) {
    std::cout << AccountScanToJson(*scan);
  } else {
    std::cout << ScanText(*scan, ctx->format, ctx->color);
  }
  return kExitOk;
}

}  // namespace

void SetupAccount(CLI::App* app, int* exit_code) {
  app->require_subcommand(1);
  CLI::App* scan = app->add_subcommand(
      "scan", "Read the account's quotas, zone offerings, Reserved Instances and Savings Plans");
  auto so = std::make_shared<AccountOptions>();
  AddCommonOptions(scan, &so->common);
  so->table.Add(scan, "account scan");
  scan->footer(
      R"(Runs the AWS CLI (`aws`) with your usual credentials; each region costs four calls
(service-quotas list-service-quotas, ec2 describe-instance-type-offerings, ec2
describe-reserved-instances, ec2 describe-instances), plus sts get-caller-identity and
savingsplans describe-savings-plans once. The permissions needed are read-only:
servicequotas:ListServiceQuotas, ec2:DescribeInstanceTypeOfferings, ec2:DescribeReservedInstances,
ec2:DescribeInstances, savingsplans:DescribeSavingsPlans.
A call that fails is named and the rest are kept. `recommend` then checks every plan against the
scan (--account FILE or none to choose).

--spot-scores TYPE[:N],... adds one ec2 get-spot-placement-scores call per type
(ec2:GetSpotPlacementScores) scoring N instances of it in every scanned region; recommend then
ranks a spot plan scored 3 or less with the plans the account cannot launch.

Examples:
  gpuadvisor account scan --regions us-east-1,us-west-2
  gpuadvisor account scan --regions us-east-1 --spot-scores p5.48xlarge:2,g6e.xlarge
  gpuadvisor account scan --profile prod --regions us-east-1 --json
  gpuadvisor account show)");
  scan->callback([so, exit_code] { *exit_code = RunAccountScan(*so); });
  CLI::App* show = app->add_subcommand("show", "The last account scan: quotas, zones, RIs, plans");
  auto wo = std::make_shared<CommonOptions>();
  AddCommonOptions(show, wo.get());
  show->callback([wo, exit_code] { *exit_code = RunAccountShow(*wo); });
}

}  // namespace gpuadvisor::cli
