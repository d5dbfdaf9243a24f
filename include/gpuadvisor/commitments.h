// What the account's Reserved Instances and Savings Plans leave for a new plan (issue 37, item 2;
// doc/account.md, "Commitments counted once").
//
// Running on-demand instances use the account's commitments first, in AWS's order: Reserved
// Instances (zonal ones in their zone for their exact type, then regional ones, size-flexible
// within the family in normalization units), then Savings Plans (EC2 Instance plans before
// Compute plans; each plan's dollars go to the usage with the highest discount first). What is
// left (units per region and family, dollars per hour per plan) is what a new plan may use;
// CoverPlan says how much of a plan that covers and how.
#ifndef GPUADVISOR_COMMITMENTS_H_
#define GPUADVISOR_COMMITMENTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"

namespace gpuadvisor {

struct AccountScan;
struct SavingsPlan;

// AWS's normalization factor of an instance size ("p4d.24xlarge" -> 192, "g5.xlarge" -> 8):
// nano 0.25 ... 48xlarge 384; "metal" counts as the largest size of its family in `catalog`
// (null: unknown), "metal-24xl" as 24xlarge. nullopt for a size not in AWS's table.
std::optional<double> NormalizationUnits(std::string_view instance_type, const Catalog* catalog);

// Reserved Instances pooled as AWS applies them.
struct ReservedPool {
  std::string region;
  std::string family;          // "p4d"
  std::string zone;            // a zonal reservation's AZ; "" for regional ones
  std::string instance_type;   // pools that are not size-flexible: the exact type; else ""
  bool size_flexible = false;  // regional, with a known normalization factor
  int count = 0;               // instances reserved
  double units = 0;            // size-flexible: normalization units reserved; else = count
  double used = 0;             // of `units`, what running instances use
  std::string until;           // the latest end among them
  double left() const { return units > used ? units - used : 0; }
};

// One Savings Plan and what running instances use of its hourly commitment.
struct SavingsPlanLeft {
  std::string id;
  std::string type;    // "EC2Instance" or "Compute" (SageMaker plans do not cover EC2)
  std::string family;  // EC2Instance plans
  std::string region;  // EC2Instance plans
  double commitment_usd_per_hour = 0;
  double used_usd_per_hour = 0;  // by running instances, at the plan's rates
  // Running usage the plan could not price (the catalog has no rate for the type): such usage
  // would take some of the commitment too, so `left` is an upper bound when true.
  bool unpriced_usage = false;
  double left_usd_per_hour() const {
    return commitment_usd_per_hour > used_usd_per_hour ? commitment_usd_per_hour - used_usd_per_hour
                                                       : 0;
  }
};

// What the commitments of a scan leave once its running instances have used theirs.
struct Commitments {
  std::vector<ReservedPool> reserved;          // zonal pools first, then regional
  std::vector<SavingsPlanLeft> savings_plans;  // EC2 Instance plans first, then Compute
};

// Applies the scan's commitments to its running on-demand instances (spot instances use none)
// in AWS's order and returns what is left. `catalog` prices running usage for Savings Plans and
// sizes metal instances; a running type it does not know uses no Savings Plan dollars.
Commitments ApplyCommitmentsToRunning(const AccountScan& scan, const Catalog& catalog);

// How much of `instances` x `type` in `region` (on demand) what is left covers.
struct PlanCoverage {
  double reserved_instances = 0;      // instances (fractional: size flexibility) RIs cover
  double savings_plan_instances = 0;  // instances the Savings Plans' dollars cover
  double billed_instances = 0;        // the rest, billed at the on-demand rate
  double on_demand_usd_per_hour = 0;  // per instance
  std::vector<std::string> lines;     // the arithmetic, one line per commitment used
};
PlanCoverage CoverPlan(const Commitments& left, const InstanceType& type, int instances,
                       std::string_view region);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_COMMITMENTS_H_
