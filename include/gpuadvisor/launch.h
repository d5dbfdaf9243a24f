// Launch specs (doc/launch.md): turns a plan — an instance type, a count, a region and a purchase
// option — into files a user can run: an `aws ec2 run-instances` input document with the shell
// steps around it, a CloudFormation template, Terraform HCL or a SkyPilot task.
//
// Two steps, both pure functions of their arguments (thread-safe on a shared catalog):
//   PlanLaunch()   makes every decision from the catalog (AMI, EFA interface layout, placement
//                  group, disk sizes, spot options) and records a one-line reason for each;
//   RenderLaunch() writes one format from those decisions. Every format carries the same
//                  decisions, so the reasons appear as comments in each (JSON, which has no
//                  comments, gets them in the accompanying script).
// The catalog must outlive the LaunchPlan (it points into it).
#ifndef GPUADVISOR_LAUNCH_H_
#define GPUADVISOR_LAUNCH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Output formats. Names as on the command line: do not rename.
enum class LaunchFormat { kAwsCli, kCloudFormation, kTerraform, kSkyPilot };
const char* LaunchFormatName(LaunchFormat f);  // "aws-cli", "cloudformation", ...
std::optional<LaunchFormat> ParseLaunchFormat(std::string_view name);
// ParseLaunchFormat for an option: any case; InvalidArgument naming the option "format".
Result<LaunchFormat> ParseLaunchFormatOption(std::string_view text);

struct LaunchPlan;
// The quota line for a launch no account scan has checked: the vCPUs it needs of its group's
// EC2 quota, which AWS sets to 0 on a new account. "" for a Capacity Block, a type whose quota
// group the family facts do not name, and past 512 vCPUs (the plan's own quota warning).
std::string UncheckedQuotaWarning(const LaunchPlan& p);

struct LaunchRequest {
  std::string instance_type;  // "p5.48xlarge"
  int count = 1;              // instances, 1..1000
  std::string region = "us-east-1";
  // kReserved1y launches on-demand capacity (a reservation is billing, not a launch option);
  // kCapacityBlock launches into a purchased EC2 Capacity Block for ML.
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  // The Capacity Block's reservation id ("cr-0123456789abcdef0"); "" = a parameter the user
  // fills in. Only with kCapacityBlock.
  std::string capacity_reservation_id;
  std::string key_name;                         // "" = none (use SSM Session Manager)
  std::string subnet_id;                        // "" = a placeholder / parameter
  std::vector<std::string> security_group_ids;  // empty = a placeholder / parameter
  std::string instance_profile;                 // aws-cli / terraform: for the CloudWatch agent
  std::optional<double> ebs_gib;  // data volume size override, GiB; null = sized from the job
  double dataset_gib = 0;         // training data staged on the data volume, GiB
  std::optional<double> checkpoint_gib;  // one checkpoint (estimator), GiB; null = none
  int checkpoints_kept = 2;              // checkpoints the data volume holds
  int idle_stop_minutes = 60;            // CloudFormation idle alarm default; 0 = no alarm
  std::string name = "gpuadvisor";       // prefix of the Name tag and resource names
  std::string plan_note;  // where the plan came from ("recommend rank 1"), for tags/comments
  // Whether the instances exchange traffic (Plan::inter_node_traffic), when a workload's plan
  // says; unknown for a bare type and count.
  std::optional<bool> inter_node_traffic;
};

// The `launch` options that fill a request (fields.h); the instance type and count come from
// launch's TYPE and --count or from a plan (LaunchArgs, requests.h).
template <typename V>
void DeclareOptions(V& v, LaunchRequest& r) {
  v.NotAnOption(r.instance_type);
  v.NotAnOption(r.count);
  v.Text("region", r.region,
         {.help = "Region (default us-east-1, or the plan's)", .metavar = "REGION"});
  v.Enum(
      "purchase", r.purchase, PurchaseKindName, ParsePurchaseOption("purchase"),
      {.help = "How to buy (reserved-1y-no-upfront is launched on-demand; default "
               "on-demand, or the plan's)",
       .choices = {PurchaseKindName(PurchaseKind::kOnDemand), PurchaseKindName(PurchaseKind::kSpot),
                   PurchaseKindName(PurchaseKind::kReserved1y),
                   PurchaseKindName(PurchaseKind::kCapacityBlock)},
       .no_default = true});
  v.Text("capacity-reservation-id", r.capacity_reservation_id,
         {.help = "capacity-block: the block's reservation id cr-... (default: a parameter)",
          .metavar = "ID"});
  v.Text("key-name", r.key_name,
         {.help = "EC2 key pair (default: none, use SSM)", .metavar = "NAME"});
  v.Text("subnet-id", r.subnet_id,
         {.help = "Subnet (default: a placeholder/parameter)", .metavar = "ID"});
  v.List("security-group-ids", r.security_group_ids, {.help = "Security groups", .metavar = "ID"});
  v.Text(
      "instance-profile", r.instance_profile,
      {.help = "aws-cli/terraform: instance profile for the CloudWatch agent", .metavar = "NAME"});
  v.Number("ebs-gib", r.ebs_gib,
           {.help = "Data volume size (default: dataset + checkpoints)",
            .unit = "GiB",
            .lo = 1,
            .hi = 65536});
  v.NotAnOption(r.dataset_gib);  // the workload's dataset-gib
  v.Number("checkpoint-gib", r.checkpoint_gib,
           {.help = "One checkpoint (default: the estimator's, for a plan or workload)",
            .unit = "GiB",
            .lo = 0,
            .hi = 1e6});
  v.NotAnOption(r.checkpoints_kept);
  v.Integer("idle-stop-minutes", r.idle_stop_minutes,
            {.help = "cloudformation: stop a node idle this long (0 = no alarm)",
             .unit = "min",
             .lo = 0,
             .hi = 10080});
  v.Text("name", r.name, {.help = "Prefix of names and the Name tag", .metavar = "NAME"});
  v.NotAnOption(r.plan_note);  // set from the plan
  v.NotAnOption(r.inter_node_traffic);
}

// One network interface of the launch, in the order AWS expects them.
struct NetworkInterfaceSpec {
  int network_card_index = 0;
  int device_index = 0;
  std::string interface_type;  // "interface" (ENA), "efa", "efa-only"
};

struct VolumeSpec {
  std::string device_name;  // "/dev/sda1" (root), "/dev/sdf" (data)
  int size_gib = 0;
  int iops = 3000;       // gp3 baseline 3000
  int throughput = 125;  // MiB/s, gp3 baseline 125
  std::string mount;     // "/" or "/data"
  std::string why;       // one line: what the size is made of
};

// Every decision behind a launch, each with its reason. Produced by PlanLaunch.
struct LaunchPlan {
  const InstanceType* type = nullptr;
  int count = 1;
  std::string region;
  bool spot = false;
  bool capacity_block = false;  // launched into a Capacity Block (MarketType capacity-block)
  std::string market;           // "on-demand", "spot" or "capacity-block", for headers and tags
  std::string architecture;     // "x86_64" or "arm64"
  std::string ami_parameter;    // public SSM parameter name of the AMI
  std::string ami_name;         // the AMI family it resolves to, e.g. "Deep Learning Base OSS ..."
  std::string ssh_user;         // "ubuntu"
  bool efa = false;             // EFA interfaces requested
  bool placement_group = false;
  std::vector<NetworkInterfaceSpec> interfaces;  // empty = the default single ENA interface
  int efa_interfaces = 0;                        // interfaces with an EFA device
  VolumeSpec root;
  std::optional<VolumeSpec> data;
  bool instance_store = false;  // NVMe instance store to assemble and mount
  std::string instance_store_mount = "/opt/dlami/nvme";
  std::string user_data;              // the boot script (bash), plain text
  std::string cloudwatch_config;      // amazon-cloudwatch-agent JSON
  std::string skypilot_accelerator;   // "H100:8"; "" when SkyPilot has no name for it
  std::vector<std::string> reasons;   // one line per decision, rendered as comments
  std::vector<std::string> warnings;  // things the user must check
  std::vector<std::pair<std::string, std::string>> tags;  // Key, Value
  LaunchRequest request;
};

// Errors: NotFound for an unknown type (with "did you mean"); InvalidArgument naming the flag for
// a region the type is not offered in, spot on a type sold without spot, a bad count or size.
// A launch needing many vCPUs gets a warning naming the EC2 vCPU quota it draws on.
Result<LaunchPlan> PlanLaunch(const Catalog& catalog, const LaunchRequest& request);

// Reads a plan saved from `recommend --json` (the whole output: plans[rank - 1]) or a single plan
// object, filling instance_type, count, region, purchase, checkpoint_gib (from the plan's
// estimate) and plan_note of `*request`; other fields are left as they are. `origin` names the
// input in errors. Errors: ParseError naming the byte offset or the field and what was expected.
// With `hours`, the plan's time_hours (how long it runs) too, which it must then have.
Status ReadPlanJson(std::string_view json, std::string_view origin, int rank,
                    LaunchRequest* request, double* hours = nullptr);

// CloudFormation's quota of resources declared in one template.
inline constexpr int kCloudFormationMaxResources = 500;
// Resources the CloudFormation template of `plan` declares: the instance role and profile, the
// launch template, the placement group and the EFA security group with its ingress rule when the
// plan has them, and an instance and its idle alarm per node (the EFA network interfaces are
// part of the launch template, not resources of their own).
int CloudFormationResourceCount(const LaunchPlan& plan);
// Whether `plan` can be written as `format`. InvalidArgument naming --format, the count of
// resources, the limit and the ways out for a CloudFormation template over
// kCloudFormationMaxResources (AWS would reject the stack at deploy time).
Status CheckLaunchFormat(const LaunchPlan& plan, LaunchFormat format);

// The rendered files. `document` is what `launch` prints or writes with --out.
struct LaunchSpec {
  LaunchFormat format = LaunchFormat::kAwsCli;
  std::string document;
  std::string file_name;  // suggested: "launch-p5.48xlarge.sh", "template.yaml", "main.tf", ...
  // aws-cli only: the `run-instances --cli-input-json` document the script embeds, on its own.
  std::string cli_input_json;
};
LaunchSpec RenderLaunch(const LaunchPlan& plan, LaunchFormat format);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_LAUNCH_H_
