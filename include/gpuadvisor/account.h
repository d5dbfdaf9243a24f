// The buyer's own AWS account (doc/account.md): what it may launch (Service Quotas, in vCPUs per
// instance class), where (instance-type offerings per availability zone) and what it has already
// paid for (active Reserved Instances and Savings Plans), as `gpuadvisor account scan` read them
// through the AWS CLI, with the date of the scan.
//
// The parsers take the JSON the AWS CLI prints for each call (`--output json`); the scan is kept
// in the project's own schema (AccountScanToJson / ParseAccountScan). CheckPlanAgainstAccount
// answers, for one plan, whether the account can launch it and what it already owns of it.
#ifndef GPUADVISOR_ACCOUNT_H_
#define GPUADVISOR_ACCOUNT_H_

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/commitments.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/purchase.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// One EC2 vCPU quota of one region: "Running On-Demand P instances" (L-417A185B) or "All P Spot
// Instance Requests" (L-7212CCBC).
struct AccountQuota {
  std::string region;
  std::string code;                  // "L-417A185B"
  std::string name;                  // as Service Quotas names it
  bool spot = false;                 // a spot-request quota, else on-demand
  std::vector<std::string> classes;  // instance classes it covers, upper case: {"G", "VT"}
  double vcpus = 0;                  // the applied value
};

// Active Reserved Instances of one instance type (a DescribeReservedInstances record).
struct ReservedInstances {
  std::string id;
  std::string instance_type;
  std::string region;
  std::string zone;  // "" for a regional reservation
  int count = 0;
  std::string end;             // ISO date
  std::string offering_class;  // "standard", "convertible"
};

// An active Savings Plan (a DescribeSavingsPlans record).
struct SavingsPlan {
  std::string id;
  std::string type;    // "Compute", "EC2Instance", "SageMaker"
  std::string family;  // EC2Instance plans: the instance family they cover
  std::string region;  // EC2Instance plans: their region
  double commitment_usd_per_hour = 0;
  std::string end;  // ISO date
};

// Running (or pending) instances of one type in one region, on demand or spot: what already
// takes from the class's vCPU quota (a DescribeInstances answer, summed per type).
struct RunningInstances {
  std::string region;
  std::string instance_type;
  bool spot = false;  // InstanceLifecycle "spot", else on demand
  std::string zone;   // Placement.AvailabilityZone; "" in scans that did not read it
  int count = 0;
  double vcpus = 0;  // all `count` instances' vCPUs (the type's own count, see AddRunningInstances)
};

// How likely a spot request for `count` instances of a type is to be fulfilled, 1 (unlikely) to
// 10, in a region or one availability zone (a GetSpotPlacementScores answer).
struct SpotScore {
  std::string instance_type;
  int count = 1;
  std::string region;
  std::string zone_id;  // "use1-az4" when scored per zone, else ""
  int score = 0;
  std::string scored_at;  // ISO UTC time
};
// At or below this score a spot plan is unlikely to get its capacity: it ranks with the plans
// the account cannot launch.
constexpr int kLowSpotScore = 3;
// At most this many types (one get-spot-placement-scores call each) per scan: AWS limits how
// many distinct configurations an account may score per day.
constexpr size_t kMaxSpotScoreRequests = 10;

struct AccountScan {
  std::string account_id;            // "" when sts did not answer
  std::string scanned_at;            // ISO UTC time of the scan
  std::vector<std::string> regions;  // regions scanned
  std::vector<AccountQuota> quotas;
  // Region -> instance type -> availability zones offering it. A region with an entry was
  // scanned for offerings; a type absent from it is not offered there.
  std::map<std::string, std::map<std::string, std::vector<std::string>>> zones;
  std::vector<ReservedInstances> reserved;
  std::vector<SavingsPlan> savings_plans;
  bool savings_plans_scanned = false;
  // Instances running when the scan ran, per region in `running_scanned` (a region absent from
  // it was not read: its quotas' usage is unknown). Scans written before usage was read have
  // neither field.
  std::vector<RunningInstances> running;
  std::vector<std::string> running_scanned;
  std::vector<SpotScore> spot_scores;  // what --spot-scores asked for (absent in older scans)
  std::vector<std::string> failures;   // "us-west-2: service quotas: AccessDeniedException ..."
};

// Adders, one per AWS CLI call; each takes the call's JSON output (`source` names it in errors)
// and keeps what the advice needs. InvalidArgument naming the source and field on a malformed
// answer.
Status AddServiceQuotas(
    std::string_view json, std::string_view source, std::string_view region,
    AccountScan* scan);  // `service-quotas list-service-quotas --service-code ec2`
Status AddInstanceTypeOfferings(std::string_view json, std::string_view source,
                                std::string_view region,
                                AccountScan* scan);  // `ec2 describe-instance-type-offerings
                                                     // --location-type availability-zone`
Status AddReservedInstances(std::string_view json, std::string_view source, std::string_view region,
                            AccountScan* scan);  // `ec2 describe-reserved-instances`
Status AddSavingsPlans(std::string_view json, std::string_view source,
                       AccountScan* scan);  // `savingsplans describe-savings-plans`
// `ec2 describe-instances` (pending and running): the instances per type and lifecycle.
// Capacity Block instances are left out (they use no vCPU quota). Each instance counts the vCPUs
// of its type, as the quotas do: the catalog's figure for a type it knows, else CpuOptions
// (CoreCount x ThreadsPerCore); a type neither names counts 0 vCPUs.
Status AddRunningInstances(std::string_view json, std::string_view source, std::string_view region,
                           const Catalog* catalog, AccountScan* scan);
// `ec2 get-spot-placement-scores` for `count` x `type`: one score per region (or per zone).
Status AddSpotPlacementScores(std::string_view json, std::string_view source, std::string_view type,
                              int count, std::string_view scored_at, AccountScan* scan);
// "p5.48xlarge:2,g6e.xlarge" as given to --spot-scores: (type, count) pairs, at most
// kMaxSpotScoreRequests; InvalidArgument naming spot-scores otherwise.
Result<std::vector<std::pair<std::string, int>>> ParseSpotScoreRequests(
    const std::vector<std::string>& given);
// `sts get-caller-identity`: the account id.
Status AddCallerIdentity(std::string_view json, std::string_view source, AccountScan* scan);

// The instance classes a quota name covers: "Running On-Demand G and VT instances" -> {G, VT};
// "All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests" -> {A, C, ..., Z}; empty
// when the name is not a vCPU quota of a class. *spot says which kind it is.
std::vector<std::string> QuotaClasses(std::string_view quota_name, bool* spot);

// The vCPUs that running instances take from `quota` (*instances: how many), or nullopt when
// the scan did not read the quota's region's instances.
std::optional<double> QuotaUsedVcpus(const AccountScan& scan, const AccountQuota& quota,
                                     int* instances);

// The scan in the project's schema, and back (errors name `source` and the field).
std::string AccountScanToJson(const AccountScan& scan);
Result<AccountScan> ParseAccountScan(std::string_view json, std::string_view source);

// What the account says about one plan: `instances` of `type` in `region`, bought as `purchase`.
struct AccountFit {
  // The quota that governs the plan; absent when the scan has none for the type's class in the
  // region (not scanned there, or a purchase option no vCPU quota limits: Capacity Blocks).
  std::optional<AccountQuota> quota;
  double needed_vcpus = 0;
  // What running instances already take from that quota (when the region's instances were
  // scanned: usage_known), and so what is left for the plan.
  bool usage_known = false;
  double used_vcpus = 0;
  int running_instances = 0;
  double free_vcpus() const { return quota ? std::max(0.0, quota->vcpus - used_vcpus) : 0; }
  bool fits_quota = true;
  // Availability zones offering the type; nullopt when the region's offerings were not scanned.
  std::optional<std::vector<std::string>> zones;
  int reserved_instances = 0;  // active RIs of this type in the region (regional or in an AZ)
  std::string reserved_until;  // the latest end among them
  std::vector<std::string> savings_plans;  // ids of active plans whose terms cover the plan
  bool on_demand = false;                  // RIs and Savings Plans discount on-demand use only
  // Spot plans: the scan's placement score for the type in the region (the region's score,
  // else its best zone's), for the smallest scored count not below the plan's instances, else
  // the largest scored. nullopt when not scored.
  std::optional<SpotScore> spot_score;
  bool spot_unlikely() const;  // scored kLowSpotScore or less
  bool obtainable() const { return fits_quota && (!zones || !zones->empty()) && !spot_unlikely(); }
  // On-demand plans: what the commitments running instances leave cover of the plan (CoverPlan).
  PlanCoverage coverage;
  // Of `instances`, the share that Reserved Instances and Savings Plans already pay for.
  double paid_fraction(int instances) const;
};
// `left`: ApplyCommitmentsToRunning(scan, catalog), computed once per scan.
AccountFit CheckPlanAgainstAccount(const AccountScan& scan, const Commitments& left,
                                   const InstanceType& type, int instances, std::string_view region,
                                   PurchaseKind purchase);

// One line for a plan that does not fit: "needs 192 P vCPUs on demand in us-east-1, the account
// has 96 (Running On-Demand P instances, L-417A185B): aws service-quotas
// request-service-quota-increase ..."; "" when it fits.
std::string AccountFitWarning(const AccountFit& fit, const InstanceType& type,
                              std::string_view region);

// AccountFitWarning for `instances` x the type named `type` in `region` bought as `purchase`
// (what `launch` warns about, on the CLI and over HTTP); "" when it fits or the catalog does not
// know the type.
std::string AccountWarningFor(const AccountScan& scan, const Catalog& catalog,
                              std::string_view type, int instances, std::string_view region,
                              PurchaseKind purchase);

// Advice lines: a spot plan's placement score.
std::vector<std::string> AccountFitAdvice(const AccountFit& fit, const InstanceType& type,
                                          int instances, std::string_view region);

// The plan's why lines for what the account already pays for: the commitments arithmetic
// (CoverPlan's lines) and what the plan adds to the bill; empty when no commitment covers it.
std::vector<std::string> AccountFitWhy(const AccountFit& fit, int instances, double cost_usd);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_ACCOUNT_H_
