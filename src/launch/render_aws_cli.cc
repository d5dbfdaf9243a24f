// aws-cli: a bash script around one `aws ec2 run-instances --cli-input-json` document. JSON has
// no comments, so the reasons for every field are the script's comments.
#include <nlohmann/json.hpp>
#include <string>

#include "launch/internal.h"
#include "util/json_text.h"

namespace gpuadvisor::launch_internal {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kSubnetPlaceholder = "@SUBNET_ID@";
constexpr const char* kReservationPlaceholder = "@CAPACITY_RESERVATION_ID@";
constexpr const char* kGroupPlaceholder = "@SECURITY_GROUP_ID@";

ojson Tags(const LaunchPlan& p, const char* resource) {
  ojson tags = ojson::array();
  for (const auto& [k, v] : p.tags) tags.push_back({{"Key", k}, {"Value", v}});
  return {{"ResourceType", resource}, {"Tags", tags}};
}

ojson Volume(const VolumeSpec& v) {
  return {{"DeviceName", v.device_name},
          {"Ebs",
           {{"VolumeSize", v.size_gib},
            {"VolumeType", "gp3"},
            {"Iops", v.iops},
            {"Throughput", v.throughput},
            {"DeleteOnTermination", true},
            {"Encrypted", true}}}};
}

bool NeedSubnet(const LaunchPlan& p) { return p.efa && p.request.subnet_id.empty(); }
bool NeedGroup(const LaunchPlan& p) { return p.efa && p.request.security_group_ids.empty(); }
bool NeedReservation(const LaunchPlan& p) {
  return p.capacity_block && p.request.capacity_reservation_id.empty();
}

ojson Groups(const LaunchPlan& p) {
  if (!p.request.security_group_ids.empty()) return p.request.security_group_ids;
  return ojson::array({kGroupPlaceholder});
}

std::string PlacementGroupName(const LaunchPlan& p) {
  return p.request.name + "-" + Slug(p.type->name) + "-cluster";
}

ojson RunInstancesInput(const LaunchPlan& p) {
  const LaunchRequest& r = p.request;
  ojson j;
  j["ImageId"] = "resolve:ssm:" + p.ami_parameter;
  j["InstanceType"] = p.type->name;
  j["MinCount"] = p.count;
  j["MaxCount"] = p.count;
  if (!r.key_name.empty()) j["KeyName"] = r.key_name;
  ojson volumes = ojson::array({Volume(p.root)});
  if (p.data) volumes.push_back(Volume(*p.data));
  j["BlockDeviceMappings"] = volumes;
  if (p.efa) {
    ojson nics = ojson::array();
    for (const NetworkInterfaceSpec& n : p.interfaces) {
      nics.push_back({{"NetworkCardIndex", n.network_card_index},
                      {"DeviceIndex", n.device_index},
                      {"InterfaceType", n.interface_type},
                      {"SubnetId", r.subnet_id.empty() ? kSubnetPlaceholder : r.subnet_id},
                      {"Groups", Groups(p)},
                      {"DeleteOnTermination", true}});
    }
    j["NetworkInterfaces"] = nics;
  } else {
    if (!r.subnet_id.empty()) j["SubnetId"] = r.subnet_id;
    if (!r.security_group_ids.empty()) j["SecurityGroupIds"] = r.security_group_ids;
  }
  if (p.placement_group) j["Placement"] = {{"GroupName", PlacementGroupName(p)}};
  if (p.spot) {
    j["InstanceMarketOptions"] = {
        {"MarketType", "spot"},
        {"SpotOptions",
         {{"SpotInstanceType", "one-time"}, {"InstanceInterruptionBehavior", "terminate"}}}};
  }
  if (p.capacity_block) {
    j["InstanceMarketOptions"] = {{"MarketType", "capacity-block"}};
    j["CapacityReservationSpecification"] = {
        {"CapacityReservationTarget",
         {{"CapacityReservationId", r.capacity_reservation_id.empty()
                                        ? kReservationPlaceholder
                                        : r.capacity_reservation_id}}}};
  }
  j["MetadataOptions"] = {
      {"HttpTokens", "required"}, {"HttpEndpoint", "enabled"}, {"HttpPutResponseHopLimit", 2}};
  if (!r.instance_profile.empty()) j["IamInstanceProfile"] = {{"Name", r.instance_profile}};
  j["TagSpecifications"] = ojson::array({Tags(p, "instance"), Tags(p, "volume")});
  j["UserData"] = p.user_data;
  return j;
}

std::string Header(const LaunchPlan& p) {
  std::string s = "#!/usr/bin/env bash\n";
  s += "# gpuadvisor launch: " + std::to_string(p.count) + " x " + p.type->name + ", " + p.market +
       ", " + p.region + " (" + (p.request.plan_note.empty() ? "manual" : p.request.plan_note) +
       ")\n";
  s += "#\n# Why each choice:\n";
  for (const std::string& why : p.reasons) s += "#   - " + why + "\n";
  if (!p.warnings.empty()) {
    s += "#\n# Check before launching:\n";
    for (const std::string& w : p.warnings) s += "#   - " + w + "\n";
  }
  s += "#\n# UserData is plain text in the JSON below: the AWS CLI base64-encodes it for "
       "RunInstances.\n";
  return s;
}

std::string Variables(const LaunchPlan& p) {
  std::string s = "set -euo pipefail\n\nREGION=" + p.region + "\nSPEC=\"${SPEC:-$(mktemp)}\"\n";
  if (NeedSubnet(p)) {
    s += "# One subnet for every node: a cluster placement group and EFA stay inside one AZ.\n"
         ": \"${SUBNET_ID:?set SUBNET_ID=subnet-... (an AZ where " +
         p.type->name + " is offered)}\"\n";
  }
  if (NeedReservation(p)) {
    s += "# The Capacity Block bought for this launch (aws ec2 describe-capacity-block-offerings,\n"
         "# then purchase-capacity-block): its reservation id.\n"
         ": \"${CAPACITY_RESERVATION_ID:?set CAPACITY_RESERVATION_ID=cr-... (the Capacity "
         "Block)}\"\n";
  }
  if (NeedGroup(p)) {
    s += "# EFA needs a security group that allows all traffic to and from itself, e.g.:\n"
         "#   aws ec2 authorize-security-group-ingress --group-id $SG --protocol -1 "
         "--source-group $SG\n"  // another program's flag (aws CLI)
         "#   aws ec2 authorize-security-group-egress --group-id $SG --ip-permissions "
         "'IpProtocol=-1,UserIdGroupPairs=[{GroupId='$SG'}]'\n"
         ": \"${SECURITY_GROUP_ID:?set SECURITY_GROUP_ID=sg-... (self-referencing, see "
         "above)}\"\n";
  }
  return s;
}

std::string Steps(const LaunchPlan& p, const std::string& json) {
  std::string s;
  s += "\n# 1. The AMI the SSM parameter resolves to today (RunInstances resolves it again).\n"
       "aws ssm get-parameter --region \"$REGION\" --name " +
       p.ami_parameter + " --query Parameter.Value --output text\n";
  if (p.placement_group) {
    const std::string pg = PlacementGroupName(p);
    s += "\n# 2. Cluster placement group (created once, reused by later launches).\n"
         "aws ec2 describe-placement-groups --region \"$REGION\" --group-names " +
         pg +
         " >/dev/null 2>&1 ||\n"
         "  aws ec2 create-placement-group --region \"$REGION\" --group-name " +
         pg + " --strategy cluster\n";
  }
  s += "\n# 3. The run-instances input" +
       std::string(p.efa ? " (" + std::to_string(p.interfaces.size()) +
                               " network interfaces per instance: 1 ENA + " +
                               std::to_string(p.efa_interfaces) + " EFA-only)"
                         : "") +
       ".\n";
  s += "cat > \"$SPEC\" <<'GPUADVISOR_JSON'\n" + json + "\nGPUADVISOR_JSON\n";
  if (NeedSubnet(p))
    s += "sed -i \"s/" + std::string(kSubnetPlaceholder) + "/$SUBNET_ID/g\" \"$SPEC\"\n";
  if (NeedReservation(p)) {
    s += "sed -i \"s/" + std::string(kReservationPlaceholder) +
         "/$CAPACITY_RESERVATION_ID/g\" \"$SPEC\"\n";
  }
  if (NeedGroup(p)) {
    s += "sed -i \"s/" + std::string(kGroupPlaceholder) + "/$SECURITY_GROUP_ID/g\" \"$SPEC\"\n";
  }
  s += "\n# 4. Launch and wait until every instance runs.\n"
       "IDS=$(aws ec2 run-instances --region \"$REGION\" --cli-input-json \"file://$SPEC\" "
       "--query 'Instances[].InstanceId' --output text)\n"  // another program's flag (aws CLI)
       "echo \"launched: $IDS\"\n"
       "# shellcheck disable=SC2086\n"
       "aws ec2 wait instance-running --region \"$REGION\" --instance-ids $IDS\n"
       "echo \"running; connect with: aws ssm start-session --region $REGION --target <id>" +
       std::string(p.request.key_name.empty() ? "" : "  (or ssh " + p.ssh_user + "@<address>)") +
       "\"\n";
  return s;
}

}  // namespace

std::string RenderAwsCli(const LaunchPlan& plan, std::string* cli_input_json) {
  const std::string json = DumpJson(RunInstancesInput(plan), 2);
  if (cli_input_json != nullptr) *cli_input_json = json + "\n";
  return Header(plan) + Variables(plan) + Steps(plan, json);
}

}  // namespace gpuadvisor::launch_internal
