// PlanLaunch: every decision of a launch spec, each with its one-line reason. The facts and the
// documents they come from are listed in doc/launch.md.
#include "gpuadvisor/launch.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "catalog/family_facts.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/query.h"
#include "launch/internal.h"
#include "util/enum_names.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

constexpr double kGiBPerGB = 1e9 / (1024.0 * 1024 * 1024);  // decimal GB -> GiB
constexpr int kRootGib = 150;
constexpr int kGp3MaxIops = 16000, kGp3MaxThroughput = 1000, kGp3IopsPerGib = 500;
constexpr double kDataHeadroom = 1.2;

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

std::string Int(double v) { return std::to_string(static_cast<long long>(std::llround(v))); }

// Above this many vCPUs a launch gets the quota warning: more than most accounts hold for an
// accelerated group without a quota request (new accounts hold 0).
constexpr long kQuotaWarnVcpus = 512;

void AddQuotaWarning(LaunchPlan* p) {
  const long vcpus = static_cast<long>(p->count) * p->type->vcpus;
  if (vcpus <= kQuotaWarnVcpus) return;
  const VcpuQuota* q = VcpuQuotaOf(*p->type);
  if (q == nullptr) {
    p->warnings.push_back("EC2 vCPU quota: " + std::to_string(p->count) + " x " + p->type->name +
                          " need " + std::to_string(vcpus) + " vCPUs of the quota of " +
                          p->type->family + "'s group in " + p->region +
                          ", a group the family facts do not name: check it in Service Quotas "
                          "before launching");
    return;
  }
  const std::string& name = p->spot ? q->spot : q->on_demand;
  const std::string& code = p->spot ? q->spot_code : q->on_demand_code;
  p->warnings.push_back(
      "EC2 vCPU quota: " + std::to_string(p->count) + " x " + p->type->name + " need " +
      std::to_string(vcpus) + " vCPUs of \"" + name + "\" (" + code + ") in " + p->region +
      "; AWS's default is 0 and raised quotas are often far lower: check with `aws service-quotas "
      "get-service-quota --service-code ec2 --quota-code " +
      code + " --region " + p->region + "` and request an increase before launching");
}

}  // namespace

std::string UncheckedQuotaWarning(const LaunchPlan& p) {
  if (p.type == nullptr || p.request.purchase == PurchaseKind::kCapacityBlock) return "";
  const long vcpus = static_cast<long>(p.count) * p.type->vcpus;
  if (vcpus > kQuotaWarnVcpus) return "";  // AddQuotaWarning's line says it already
  const VcpuQuota* q = VcpuQuotaOf(*p.type);
  if (q == nullptr) return "";
  const std::string& name = p.spot ? q->spot : q->on_demand;
  const std::string& code = p.spot ? q->spot_code : q->on_demand_code;
  return "EC2 vCPU quota not checked (no account scan): " + std::to_string(p.count) + " x " +
         p.type->name + " need " + std::to_string(vcpus) + " vCPUs of \"" + name + "\" (" + code +
         ") in " + p.region +
         ", which AWS sets to 0 on a new account: `gpuadvisor account scan` reads yours, or `aws "
         "service-quotas get-service-quota --service-code ec2 --quota-code " +
         code + " --region " + p.region + "`";
}

namespace {

Status CheckRequest(const LaunchRequest& r) {
  if (r.count < 1 || r.count > 1000) {
    return Status::InvalidArgument("count: expected 1..1000 instances, got " +
                                   std::to_string(r.count))
        .WithField("count");
  }
  if (r.ebs_gib && (*r.ebs_gib < 1 || *r.ebs_gib > 65536)) {
    return Status::InvalidArgument("ebs-gib: expected 1..65536 GiB (gp3 limit 64 TiB)")
        .WithField("ebs-gib");
  }
  if (r.dataset_gib < 0 || r.dataset_gib > 1e7) {
    return Status::InvalidArgument("dataset-gib: expected a size in GiB >= 0")
        .WithField("dataset-gib");
  }
  if (r.checkpoint_gib && !(*r.checkpoint_gib >= 0 && *r.checkpoint_gib <= 1e6)) {
    return Status::InvalidArgument("checkpoint-gib: expected 0 to 1e6 GiB")
        .WithField("checkpoint-gib");
  }
  if (r.checkpoint_gib && !(*r.checkpoint_gib <= 1e7)) {  // sizes the data volume (int GiB)
    return Status::InvalidArgument("checkpoint_gib: expected a size in GiB up to 1e7")
        .WithField("checkpoint-gib");
  }
  if (r.idle_stop_minutes < 0 || r.idle_stop_minutes > 10080) {
    return Status::InvalidArgument("idle-stop-minutes: expected 0..10080")
        .WithField("idle-stop-minutes");
  }
  for (char c : r.name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') {
      return Status::InvalidArgument("name: letters, digits and '-' only, got \"" + r.name + "\"")
          .WithField("name");
    }
  }
  if (r.name.empty() || r.name.size() > 40) {
    return Status::InvalidArgument("name: 1..40 characters").WithField("name");
  }
  return Status::OK();
}

// "cr-" and 8 or 17 hex digits, as EC2 writes capacity reservation ids.
bool ValidReservationId(const std::string& id) {
  if (!StartsWith(id, "cr-") || (id.size() != 11 && id.size() != 20)) return false;
  return std::all_of(id.begin() + 3, id.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
  });
}

Status CheckOffer(const Catalog& catalog, const InstanceType& t, const LaunchRequest& r,
                  LaunchPlan* plan) {
  // An UltraServer is bought whole as a Capacity Block and its instances are launched into that
  // reservation by AWS's own UltraServer flow; no renderer here writes that yet, and a
  // run-instances call for the UltraServer's name would be refused by EC2.
  if (t.ultraserver()) {
    return Status::Unsupported(
               "instance: " + t.name +
               " is an EC2 UltraServer, sold only as a whole UltraServer Capacity Block: find an "
               "offering with aws ec2 describe-capacity-block-offerings for its UltraServer type, "
               "buy it with aws ec2 purchase-capacity-block, then launch its instances into the "
               "reservation; launch does not write that flow yet")
        .WithField("instance");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(catalog, r.region, "region"));
  const RegionOffer* offer = t.FindRegion(r.region);
  if (offer == nullptr || (offer->offered && !*offer->offered)) {
    std::vector<std::string> where;
    for (const RegionOffer& o : t.regions) {
      if (o.offered.value_or(false)) where.emplace_back(o.region);
    }
    return Status::InvalidArgument("region: " + t.name + " is not offered in " + r.region +
                                   (where.empty() ? std::string("; no region is known to offer it")
                                                  : "; offered in " + Join(where, ", ")))
        .WithField("region");
  }
  if (!offer->offered) {
    plan->warnings.emplace_back("whether " + t.name + " is offered in " + r.region +
                                " is unknown to the catalog; check with describe-instance-type-"
                                "offerings");
  }
  if (r.purchase == PurchaseKind::kCapacityBlock && !t.HasUsageClass("capacity-block")) {
    return Status::InvalidArgument("purchase: capacity-block: " + t.name +
                                   " is not sold as EC2 Capacity Blocks for ML (" +
                                   Join(t.usage_classes, ", ") + ")")
        .WithField("purchase");
  }
  if (r.purchase == PurchaseKind::kCapacityBlock && r.count > kCapacityBlockMaxInstances) {
    return Status::InvalidArgument("count: a Capacity Block holds 1 to " +
                                   std::to_string(kCapacityBlockMaxInstances) + " instances, got " +
                                   std::to_string(r.count))
        .WithField("count");
  }
  if (!r.capacity_reservation_id.empty() && r.purchase != PurchaseKind::kCapacityBlock) {
    return Status::InvalidArgument("capacity-reservation-id: only with --purchase capacity-block")
        .WithField("capacity-reservation-id");
  }
  if (!r.capacity_reservation_id.empty() && !ValidReservationId(r.capacity_reservation_id)) {
    return Status::InvalidArgument("capacity-reservation-id: expected cr- and hex digits, got \"" +
                                   r.capacity_reservation_id + "\"")
        .WithField("capacity-reservation-id");
  }
  if (r.purchase == PurchaseKind::kSpot && !t.HasUsageClass("spot")) {
    return Status::InvalidArgument("purchase: spot: " + t.name + " is not sold as spot (" +
                                   Join(t.usage_classes, ", ") + ")")
        .WithField("purchase");
  }
  return Status::OK();
}

// The family's machine image and its warnings, from the family facts (data/family-facts.json).
// A family without an entry (a catalog file newer than this binary) gets the image its
// accelerator implies, and says so.
Status ChooseAmi(const Catalog& catalog, LaunchPlan* p) {
  Result<const FamilyFactsTable*> table = EmbeddedFamilyFacts();
  if (!table.ok()) return table.status();
  const FamilyFactsTable& facts = **table;
  const InstanceType& t = *p->type;
  const Accelerator& a = t.accelerator;
  const bool nvidia = a.kind == AcceleratorKind::kGpu && a.vendor == "NVIDIA";
  const FamilyFacts* family = facts.Find(t.family);
  const MachineImage* image = family != nullptr ? &facts.ImageOf(*family) : nullptr;
  if (image == nullptr) {
    p->warnings.emplace_back(t.family +
                             " has no entry in the family facts (data/family-facts.json): its AMI "
                             "follows its accelerator and its vCPU quota group is unknown");
    image = facts.FindImage(a.kind == AcceleratorKind::kNeuron ? "neuron-dlami"
                            : nvidia                           ? "nvidia-dlami"
                                                               : "ubuntu");
    if (image == nullptr) return Status::ParseError("family facts: no image for " + t.family);
  }
  const bool arm = std::find(t.cpu_architectures.begin(), t.cpu_architectures.end(), "arm64") !=
                       t.cpu_architectures.end() ||
                   (family != nullptr && family->cpu_architecture == "arm64");
  p->architecture = arm ? "arm64" : "x86_64";
  p->ssh_user = "ubuntu";
  p->ami_parameter = image->ParameterFor(p->architecture);
  p->ami_name = image->NameFor(p->architecture);
  const std::string accelerator = a.vendor.empty() ? a.model : a.vendor + " " + a.model;
  if (image->provides.empty()) {
    p->reasons.emplace_back("AMI: " + p->ami_name + " (" + p->architecture +
                            "): AWS publishes no Deep Learning AMI for " + accelerator);
    p->warnings.emplace_back("install the " + (a.vendor.empty() ? a.model : a.vendor) +
                             " driver yourself (no DLAMI for this accelerator)");
  } else {
    p->reasons.emplace_back("AMI: " + p->ami_name + " (" + p->architecture +
                            "): " + image->provides + " for " + a.model +
                            (arm ? "; arm64 because " + t.family + " has arm64 CPUs" : ""));
  }
  const GpuSpec* gpu = catalog.GpuOf(t);
  const std::vector<std::string>& unsupported = image->unsupported_gpu_architectures;
  if (gpu != nullptr &&
      std::find(unsupported.begin(), unsupported.end(), gpu->architecture) != unsupported.end()) {
    p->warnings.emplace_back(a.model + " (" + gpu->architecture + ") is " + image->unsupported_why);
  } else if (nvidia && a.fractional()) {
    p->warnings.emplace_back(t.family +
                             " shares a GPU through NVIDIA vGPU and needs the GRID "
                             "driver, which this DLAMI does not ship: see AWS's NVIDIA GRID "
                             "driver instructions");
  } else if (family != nullptr && !family->image_lists_family && !image->provides.empty()) {
    p->warnings.emplace_back(t.family + " is not in the " + p->ami_name +
                             " release notes' supported-instance list: check before relying on it");
  }
  if (family != nullptr && !family->note.empty()) p->warnings.push_back(family->note);
  return Status::OK();
}

void ChooseNetwork(LaunchPlan* p) {
  const InstanceType& t = *p->type;
  const bool multi = p->count > 1;
  if (!multi) {
    p->reasons.emplace_back(
        "network: one instance, so no placement group and no EFA (GPUs talk over " +
        std::string(t.accelerator.count > 1 ? "NVLink/PCIe inside the node)" : "PCIe)"));
    return;
  }
  if (p->request.inter_node_traffic == false) {
    p->reasons.emplace_back("network: the " + std::to_string(p->count) +
                            " instances are independent replicas (the plan's model copy fits "
                            "one instance), so no placement group and no EFA");
    return;
  }
  const bool cluster = std::find(t.placement_strategies.begin(), t.placement_strategies.end(),
                                 "cluster") != t.placement_strategies.end();
  if (cluster && p->request.purchase == PurchaseKind::kCapacityBlock) {
    p->reasons.emplace_back(
        "placement: no placement group; a Capacity Block's instances are already co-located "
        "in an EC2 UltraCluster, in the block's one AZ");
  } else if (cluster) {
    p->placement_group = true;
    p->reasons.emplace_back("placement: a cluster placement group keeps the " +
                            std::to_string(p->count) +
                            " instances on one low-latency network spine (one AZ)");
  }
  if (!t.efa || t.max_efa_interfaces < 1) {
    p->warnings.emplace_back(t.name + " has no EFA: " +
                             (p->request.inter_node_traffic.has_value()
                                  ? std::string("")
                                  : std::string("if the instances exchange traffic "
                                                "(training, a model sharded across them), ")) +
                             "inter-node collectives run over TCP at " + t.network_performance +
                             "; expect poor multi-node scaling");
    return;
  }
  p->efa = true;
  const int cards = std::max(1, t.network_cards);
  const int efa_cards = std::min(t.max_efa_interfaces, cards);
  const int first_efa_card = cards - efa_cards;  // p6-b300: 17 cards, 16 EFA -> card 0 ENA only
  p->interfaces.push_back({0, 0, "interface"});
  if (first_efa_card == 0) p->interfaces.push_back({0, 1, "efa-only"});
  for (int card = std::max(1, first_efa_card); card < cards; ++card) {
    p->interfaces.push_back({card, 0, "efa-only"});
  }
  p->efa_interfaces = efa_cards;
  p->reasons.emplace_back(
      "EFA: " + std::to_string(efa_cards) +
      " EFA-only interfaces, one per EFA-capable network "
      "card (" +
      std::to_string(cards) + " cards, " + t.network_performance +
      "), plus the primary ENA interface on card 0 device 0, as AWS recommends for multi-card "
      "instances: NCCL over EFA needs every card for full bandwidth");
  if (first_efa_card > 0) {
    p->reasons.emplace_back("EFA: network card 0 carries no EFA device on " + t.name + " (" +
                            std::to_string(t.max_efa_interfaces) + " EFA interfaces for " +
                            std::to_string(cards) +
                            " cards; inferred from the counts), so EFA starts at card " +
                            std::to_string(first_efa_card));
  }
  p->reasons.emplace_back("EFA: EFA-only interfaces take no IP address, so " +
                          std::to_string(p->count) + " nodes use " + std::to_string(p->count) +
                          " subnet addresses, not " + std::to_string(p->count * (efa_cards + 1)));
}

VolumeSpec DataVolume(const LaunchPlan& p, double needed_gib) {
  const LaunchRequest& r = p.request;
  VolumeSpec v;
  v.device_name = "/dev/sdf";
  v.mount = "/data";
  const double sized = std::max(10.0, std::ceil(needed_gib * kDataHeadroom / 10) * 10);
  v.size_gib = static_cast<int>(r.ebs_gib ? std::ceil(*r.ebs_gib) : sized);
  // Throughput: as fast as the instance's EBS bandwidth allows, up to the gp3 maximum; gp3 needs
  // 4 IOPS per MiB/s and allows 500 IOPS per GiB.
  int throughput = kGp3MaxThroughput;
  if (p.type->ebs_max_mbps) {
    throughput = std::min(throughput, static_cast<int>(*p.type->ebs_max_mbps / 8.0 / 1.048576));
  }
  v.iops = std::clamp(throughput * 4, 3000, std::min(kGp3MaxIops, kGp3IopsPerGib * v.size_gib));
  v.iops = std::max(v.iops, 3000);
  v.throughput = std::clamp(std::min(throughput, v.iops / 4), 125, kGp3MaxThroughput);
  std::string parts;
  if (r.dataset_gib > 0) parts = "dataset " + FormatFixed(r.dataset_gib, 0) + " GiB";
  if (r.checkpoint_gib && *r.checkpoint_gib > 0) {
    parts += std::string(parts.empty() ? "" : " + ") + std::to_string(r.checkpoints_kept) +
             " checkpoints x " + FormatFixed(*r.checkpoint_gib, 1) + " GiB";
  }
  v.why = r.ebs_gib ? "data volume " + std::to_string(v.size_gib) + " GiB as given (--ebs-gib)"
                    : "data volume " + std::to_string(v.size_gib) + " GiB gp3 = (" + parts +
                          ") x 1.2 headroom, rounded up to 10 GiB";
  v.why += "; " + std::to_string(v.throughput) + " MiB/s, " + std::to_string(v.iops) + " IOPS";
  if (r.checkpoint_gib && *r.checkpoint_gib > 0) {
    const double seconds = *r.checkpoint_gib * 1024 / v.throughput;
    v.why += " (one checkpoint written in ~" + Int(seconds) + " s)";
  }
  return v;
}

void ChooseStorage(LaunchPlan* p) {
  const LaunchRequest& r = p->request;
  p->root = VolumeSpec{"/dev/sda1", kRootGib, 3000, 125, "/", ""};
  p->root.why = "root " + std::to_string(kRootGib) +
                " GiB gp3 at the free baseline (3000 IOPS, 125 MiB/s): above the DLAMI's root "
                "snapshot, with room for containers and caches";
  p->reasons.emplace_back(p->root.why);
  const double ckpt = r.checkpoint_gib.value_or(0) * r.checkpoints_kept;
  const double needed = r.dataset_gib + ckpt;
  if (needed > 0 || r.ebs_gib) {
    p->data = DataVolume(*p, needed);
    p->reasons.emplace_back(p->data->why);
    if (r.ebs_gib && *r.ebs_gib < needed) {
      p->warnings.emplace_back("ebs-gib: " + FormatFixed(*r.ebs_gib, 0) + " is below the " +
                               FormatFixed(needed, 0) + " GiB the dataset and checkpoints need");
    }
  }
  const InstanceType& t = *p->type;
  if (t.local_nvme && t.local_disk_count > 0) {
    p->instance_store = true;
    const double gib = t.local_storage_gb.value_or(0) * kGiBPerGB;
    p->reasons.emplace_back(
        "instance store: " + std::to_string(t.local_disk_count) + " x " +
        std::to_string(t.local_disk_gb.value_or(0)) + " GB NVMe" +
        (t.local_disk_count > 1 ? " striped as RAID 0" : "") + " at " + p->instance_store_mount +
        " (" + FormatFixed(gib, 0) +
        " GiB) for scratch and data caches; it is erased when the instance stops");
  }
}

void ChoosePurchase(LaunchPlan* p) {
  const LaunchRequest& r = p->request;
  p->spot = r.purchase == PurchaseKind::kSpot;
  p->capacity_block = r.purchase == PurchaseKind::kCapacityBlock;
  p->market = p->spot ? "spot" : p->capacity_block ? "capacity-block" : "on-demand";
  if (p->capacity_block) {
    p->reasons.emplace_back(
        "capacity block: launched into the purchased block " +
        (r.capacity_reservation_id.empty() ? std::string("(its reservation id is a parameter)")
                                           : r.capacity_reservation_id) +
        " with MarketType capacity-block; the subnet must be in the block's AZ and the "
        "launch within its start and end time");
    p->warnings.emplace_back(
        "AWS begins terminating a Capacity Block's instances 30 minutes before the block's end "
        "time: checkpoint to /data or S3 before then");
  }
  if (r.purchase == PurchaseKind::kReserved1y) {
    p->reasons.emplace_back(
        "purchase: on-demand launch; a 1-year reservation or Savings Plan is "
        "bought separately and applies to it on the bill");
  }
  if (!p->spot) return;
  const RegionOffer* offer = p->type->FindRegion(p->region);
  std::string band = offer && offer->spot_band ? offer->spot_band->label : "unknown";
  p->reasons.emplace_back(
      "spot: one-time request, terminate on interruption (2-minute notice); "
      "interruption frequency in " +
      p->region + ": " + band + " a month (Spot Instance Advisor)");
  if (p->count > 1) {
    p->reasons.emplace_back("spot: MinCount = MaxCount = " + std::to_string(p->count) +
                            ", so the launch gets every node or none");
    p->warnings.emplace_back("an interruption of any of the " + std::to_string(p->count) +
                             " spot nodes stops the job: checkpoint to /data or S3 and resume");
  }
}

std::string SkyPilotAccelerator(const InstanceType& t) {
  const Accelerator& a = t.accelerator;
  if (a.fractional() || a.count < 1) return "";
  std::string name = a.aws_name.empty() ? a.model : a.aws_name;
  if (a.model == "A100-80GB") name = "A100-80GB";
  if (a.model == "V100-32GB") name = "V100-32GB";
  return name + ":" + std::to_string(a.count);
}

}  // namespace

template <>
struct EnumNames<LaunchFormat> {
  static constexpr EnumName<LaunchFormat> kTable[] = {
      {LaunchFormat::kAwsCli, "aws-cli"},
      {LaunchFormat::kCloudFormation, "cloudformation"},
      {LaunchFormat::kTerraform, "terraform"},
      {LaunchFormat::kSkyPilot, "skypilot"}};
};

const char* LaunchFormatName(LaunchFormat f) { return NameOf(f); }

std::optional<LaunchFormat> ParseLaunchFormat(std::string_view name) {
  return ParseName<LaunchFormat>(name);
}

Result<LaunchFormat> ParseLaunchFormatOption(std::string_view text) {
  if (const std::optional<LaunchFormat> f = ParseName<LaunchFormat>(ToLower(Trim(text)))) return *f;
  return Status::InvalidArgument("format: expected one of " + JoinNames<LaunchFormat>(", ") +
                                 ", got \"" + std::string(text) + "\"")
      .WithField("format");
}

// AWS China is its own partition: another account, endpoints and ARNs, and rules of its own.
void AddPartitionNotes(LaunchPlan* p) {
  const Partition& part = PartitionOf(p->region);
  if (std::string_view(part.id) != "aws-cn") return;
  const RegionInfo* info = FindRegionInfo(p->region);
  p->reasons.emplace_back(
      std::string(part.name) + " (" + p->region +
      (info != nullptr ? std::string(", ") + info->name_en + ", operated by " + info->operator_en
                       : std::string()) +
      "): partition " + part.id + ", endpoints *." + part.dns_suffix + ", ARNs " +
      ArnPrefix(p->region) +
      "...; the CloudFormation template takes both from AWS::Partition and "
      "AWS::URLSuffix");
  p->warnings.emplace_back(
      "AWS China needs an AWS China account and its own credentials (aws configure --profile "
      "for " +
      p->region + "): an AWS global account cannot launch there");
  p->warnings.emplace_back(
      "a public web service in AWS China needs an ICP filing (ICP 备案) before ports 80/443 "
      "may serve the internet");
  p->warnings.emplace_back("check that the AMI parameter " + p->ami_parameter +
                           " is published in " + p->region + " (aws ssm get-parameter --region " +
                           p->region + " --name ...); AWS China does not carry every public image");
}

Result<LaunchPlan> PlanLaunch(const Catalog& catalog, const LaunchRequest& request) {
  GPUADVISOR_RETURN_IF_ERROR(CheckRequest(request));
  Result<const InstanceType*> type = ResolveInstanceType(catalog, request.instance_type);
  if (!type.ok()) return type.status();
  LaunchPlan p;
  p.type = *type;
  p.count = request.count;
  p.region = request.region;
  p.request = request;
  GPUADVISOR_RETURN_IF_ERROR(CheckOffer(catalog, **type, request, &p));
  GPUADVISOR_RETURN_IF_ERROR(ChooseAmi(catalog, &p));
  ChooseNetwork(&p);
  ChooseStorage(&p);
  ChoosePurchase(&p);
  AddQuotaWarning(&p);
  AddPartitionNotes(&p);
  p.reasons.emplace_back(
      "IMDSv2 required (HttpTokens=required), hop limit 2 so containers on the "
      "instance can still reach the metadata service");
  if (p.type->accelerator.kind == AcceleratorKind::kGpu && p.type->accelerator.vendor == "NVIDIA") {
    p.reasons.emplace_back(
        "monitoring: CloudWatch agent publishes nvidia_gpu utilization_gpu, "
        "memory_used and power_draw per instance (namespace CWAgent)");
  }
  p.skypilot_accelerator = SkyPilotAccelerator(**type);
  p.tags = {{"Name", request.name + "-" + launch_internal::Slug(p.type->name)},
            {"gpuadvisor:instance-type", p.type->name},
            {"gpuadvisor:purchase", p.market},
            {"gpuadvisor:plan", request.plan_note.empty() ? "manual" : request.plan_note}};
  p.cloudwatch_config = launch_internal::CloudWatchConfig(p);
  p.user_data = launch_internal::UserData(p);
  return p;
}

Status CheckLaunchFormat(const LaunchPlan& plan, LaunchFormat format) {
  // SkyPilot's AWS cloud knows the aws partition's regions only (its catalog has no cn-* rows and
  // it signs for amazonaws.com): a task file for Beijing or Ningxia would not launch.
  if (format == LaunchFormat::kSkyPilot &&
      std::string_view(PartitionOf(plan.region).id) == "aws-cn") {
    return Status::InvalidArgument("format: skypilot: SkyPilot has no AWS China regions (" +
                                   plan.region +
                                   "); use --format aws-cli, cloudformation or terraform there")
        .WithField("format");
  }
  if (format != LaunchFormat::kCloudFormation) return Status::OK();
  const int resources = CloudFormationResourceCount(plan);
  if (resources <= kCloudFormationMaxResources) return Status::OK();
  const int per_node = 2, shared = resources - per_node * plan.count;
  const int fit = (kCloudFormationMaxResources - shared) / per_node;
  return Status::InvalidArgument(
             "format: cloudformation: " + std::to_string(plan.count) + " x " + plan.type->name +
             " needs " + std::to_string(resources) +
             " resources (an instance and an idle alarm per node), " +
             "over CloudFormation's limit of " + std::to_string(kCloudFormationMaxResources) +
             " per template; use --format terraform or aws-cli, or launch at most " +
             std::to_string(fit) + " instances per stack")
      .WithField("format");
}

LaunchSpec RenderLaunch(const LaunchPlan& plan, LaunchFormat format) {
  LaunchSpec s;
  s.format = format;
  const std::string slug = launch_internal::Slug(plan.type->name);
  switch (format) {
    case LaunchFormat::kAwsCli:
      s.document = launch_internal::RenderAwsCli(plan, &s.cli_input_json);
      s.file_name = "launch-" + slug + ".sh";
      break;
    case LaunchFormat::kCloudFormation:
      s.document = launch_internal::RenderCloudFormation(plan);
      s.file_name = "launch-" + slug + ".yaml";
      break;
    case LaunchFormat::kTerraform:
      s.document = launch_internal::RenderTerraform(plan);
      s.file_name = "main.tf";
      break;
    case LaunchFormat::kSkyPilot:
      s.document = launch_internal::RenderSkyPilot(plan);
      s.file_name = "task.yaml";
      break;
  }
  return s;
}

}  // namespace gpuadvisor
