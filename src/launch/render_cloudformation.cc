// cloudformation: a YAML template (YAML takes comments, so each choice is explained where it is
// made): parameters, an instance role for the CloudWatch agent, a launch template, the placement
// group and EFA security group when the plan spans nodes, one instance per node and an optional
// alarm that stops (spot: terminates) an idle node.
#include <string>

#include "launch/internal.h"

namespace gpuadvisor::launch_internal {
namespace {

bool NvidiaGpu(const LaunchPlan& p) {
  return p.type->accelerator.kind == AcceleratorKind::kGpu &&
         p.type->accelerator.vendor == "NVIDIA";
}

std::string Tags(const LaunchPlan& p, const std::string& indent) {
  std::string s;
  for (const auto& [k, v] : p.tags) {
    s += indent;
    s += "- Key: " + Quoted(k) + "\n";
    s += indent;
    s += "  Value: " + Quoted(v) + "\n";
  }
  return s;
}

std::string Parameters(const LaunchPlan& p) {
  const LaunchRequest& r = p.request;
  std::string s = "Parameters:\n";
  s += "  # The AMI through its public SSM parameter: always the latest release of " + p.ami_name +
       ".\n";
  s += "  ImageId:\n    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>\n    Default: " +
       p.ami_parameter + "\n";
  s += "  SubnetId:\n    Type: AWS::EC2::Subnet::Id\n"
       "    Description: Subnet for every node (one AZ where " +
       p.type->name + " is offered)\n";
  if (!r.subnet_id.empty()) s += "    Default: " + Quoted(r.subnet_id) + "\n";
  s += "  SecurityGroupIds:\n    Type: List<AWS::EC2::SecurityGroup::Id>\n"
       "    Description: Security groups for access (SSH, your services)\n";
  if (!r.security_group_ids.empty()) {
    std::string joined;
    for (const std::string& g : r.security_group_ids) joined += (joined.empty() ? "" : ",") + g;
    s += "    Default: " + Quoted(joined) + "\n";
  }
  if (p.capacity_block) {
    s += "  # The Capacity Block bought for this launch (purchase-capacity-block).\n"
         "  CapacityReservationId:\n    Type: String\n    AllowedPattern: \"^cr-[0-9a-f]+$\"\n"
         "    Description: Reservation id of the Capacity Block (cr-...)\n";
    if (!r.capacity_reservation_id.empty()) {
      s += "    Default: " + Quoted(r.capacity_reservation_id) + "\n";
    }
  }
  s += "  KeyName:\n    Type: String\n    Default: " + Quoted(r.key_name) +
       "\n    Description: EC2 key pair for SSH; empty = none (use SSM Session Manager)\n";
  if (p.efa) {
    s += "  VpcId:\n    Type: AWS::EC2::VPC::Id\n"
         "    Description: VPC of SubnetId (for the EFA security group)\n";
  }
  s += "  # 0 turns the alarm off; CloudWatch evaluates at most one day of 1-minute periods.\n";
  s += "  IdleStopMinutes:\n    Type: Number\n    Default: " +
       std::to_string(std::min(r.idle_stop_minutes, 1440)) +
       "\n    MinValue: 0\n    MaxValue: 1440\n"
       "    Description: Stop a node whose GPUs stay below 5% utilisation this many minutes\n";
  return s;
}

std::string SharedResources(const LaunchPlan& p) {
  std::string s = "Resources:\n";
  s += "  # The CloudWatch agent needs CloudWatchAgentServerPolicy; SSM core allows shell access "
       "without SSH.\n"
       "  InstanceRole:\n    Type: AWS::IAM::Role\n    Properties:\n"
       "      AssumeRolePolicyDocument:\n        Version: \"2012-10-17\"\n        Statement:\n"
       "          - Effect: Allow\n            Principal:\n              Service: "
       "!Sub \"ec2.${AWS::URLSuffix}\"\n"
       "            Action: sts:AssumeRole\n"
       "      ManagedPolicyArns:\n"
       "        - !Sub arn:${AWS::Partition}:iam::aws:policy/CloudWatchAgentServerPolicy\n"
       "        - !Sub arn:${AWS::Partition}:iam::aws:policy/AmazonSSMManagedInstanceCore\n"
       "  InstanceProfile:\n    Type: AWS::IAM::InstanceProfile\n    Properties:\n"
       "      Roles:\n        - !Ref InstanceRole\n";
  if (p.placement_group) {
    s += "  # Cluster placement group: all nodes on one low-latency network spine.\n"
         "  PlacementGroup:\n    Type: AWS::EC2::PlacementGroup\n    Properties:\n"
         "      Strategy: cluster\n";
  }
  if (p.efa) {
    s += "  # EFA traffic must be allowed to and from the group itself (all protocols).\n"
         "  EfaSecurityGroup:\n    Type: AWS::EC2::SecurityGroup\n    Properties:\n"
         "      GroupDescription: EFA between the nodes of this stack\n"
         "      VpcId: !Ref VpcId\n"
         "      SecurityGroupEgress:\n        - IpProtocol: \"-1\"\n"
         "          CidrIp: 0.0.0.0/0\n"
         "  EfaSelfIngress:\n    Type: AWS::EC2::SecurityGroupIngress\n    Properties:\n"
         "      GroupId: !Ref EfaSecurityGroup\n      IpProtocol: \"-1\"\n"
         "      SourceSecurityGroupId: !Ref EfaSecurityGroup\n";
  }
  return s;
}

std::string Volume(const VolumeSpec& v) {
  return "          # " + v.why +
         "\n"
         "          - DeviceName: " +
         v.device_name +
         "\n            Ebs:\n"
         "              VolumeType: gp3\n              VolumeSize: " +
         std::to_string(v.size_gib) + "\n              Iops: " + std::to_string(v.iops) +
         "\n              Throughput: " + std::to_string(v.throughput) +
         "\n              Encrypted: true\n              DeleteOnTermination: true\n";
}

std::string NetworkInterfaces(const LaunchPlan& p) {
  std::string s = "        # " + std::to_string(p.efa_interfaces) +
                  " EFA-only interfaces (one per EFA network card) after the ENA primary.\n"
                  "        NetworkInterfaces:\n";
  for (const NetworkInterfaceSpec& n : p.interfaces) {
    s += "          - NetworkCardIndex: " + std::to_string(n.network_card_index) +
         "\n            DeviceIndex: " + std::to_string(n.device_index) +
         "\n            InterfaceType: " + n.interface_type +
         "\n            SubnetId: !Ref SubnetId\n"
         "            Groups: !Split [\",\", !Join [\",\", [!Ref EfaSecurityGroup, !Join [\",\", "
         "!Ref SecurityGroupIds]]]]\n"
         "            DeleteOnTermination: true\n";
  }
  return s;
}

std::string LaunchTemplate(const LaunchPlan& p) {
  std::string s =
      "  LaunchTemplate:\n    Type: AWS::EC2::LaunchTemplate\n    Properties:\n"
      "      LaunchTemplateData:\n"
      "        ImageId: !Ref ImageId\n"
      "        InstanceType: " +
      p.type->name +
      "\n"
      "        KeyName: !If [HasKeyName, !Ref KeyName, !Ref AWS::NoValue]\n"
      "        IamInstanceProfile:\n          Arn: !GetAtt InstanceProfile.Arn\n"
      "        BlockDeviceMappings:\n";
  s += Volume(p.root);
  if (p.data) s += Volume(*p.data);
  if (p.efa) {
    s += NetworkInterfaces(p);
  } else {
    s += "        SecurityGroupIds: !Ref SecurityGroupIds\n";
  }
  if (p.placement_group) {
    s += "        Placement:\n          GroupName: !Ref PlacementGroup\n";
  }
  if (p.spot) {
    s += "        # Spot, one-time, terminated on interruption (2-minute notice).\n"
         "        InstanceMarketOptions:\n          MarketType: spot\n          SpotOptions:\n"
         "            SpotInstanceType: one-time\n"
         "            InstanceInterruptionBehavior: terminate\n";
  }
  if (p.capacity_block) {
    s += "        # Launched into the purchased Capacity Block, in its AZ and time window.\n"
         "        InstanceMarketOptions:\n          MarketType: capacity-block\n"
         "        CapacityReservationSpecification:\n          CapacityReservationTarget:\n"
         "            CapacityReservationId: !Ref CapacityReservationId\n";
  }
  s += "        # IMDSv2 only; hop limit 2 lets containers reach the metadata service.\n"
       "        MetadataOptions:\n          HttpTokens: required\n          HttpEndpoint: enabled\n"
       "          HttpPutResponseHopLimit: 2\n"
       "        TagSpecifications:\n"
       "          - ResourceType: instance\n            Tags:\n" +
       Tags(p, "              ") + "          - ResourceType: volume\n            Tags:\n" +
       Tags(p, "              ");
  s += "        # Instance store RAID 0, data volume at /data, CloudWatch agent with nvidia_gpu.\n"
       "        UserData:\n          Fn::Base64: |\n" +
       Commented(p.user_data, "            ");
  return s;
}

std::string Node(const LaunchPlan& p, int i) {
  const std::string id = "Node" + std::to_string(i);
  std::string s = "  " + id +
                  ":\n    Type: AWS::EC2::Instance\n    Properties:\n"
                  "      LaunchTemplate:\n        LaunchTemplateId: !Ref LaunchTemplate\n"
                  "        Version: !GetAtt LaunchTemplate.LatestVersionNumber\n";
  if (!p.efa) s += "      SubnetId: !Ref SubnetId\n";
  const bool gpu = NvidiaGpu(p);
  s += "  " + id +
       "IdleAlarm:\n    Type: AWS::CloudWatch::Alarm\n    Condition: IdleAlarm\n"
       "    Properties:\n"
       "      AlarmDescription: " +
       Quoted(std::string(p.spot ? "Terminate" : "Stop") + " " + id + " when its " +
              (gpu ? "GPUs stay" : "CPUs stay") + " below 5% for IdleStopMinutes") +
       "\n";
  if (gpu) {
    s += "      Namespace: CWAgent\n      MetricName: nvidia_smi_utilization_gpu\n";
  } else {
    s += "      Namespace: AWS/EC2\n      MetricName: CPUUtilization\n";
  }
  s += "      Dimensions:\n        - Name: InstanceId\n          Value: !Ref " + id +
       "\n      Statistic: Maximum\n      Period: 60\n"
       "      EvaluationPeriods: !Ref IdleStopMinutes\n      Threshold: 5\n"
       "      ComparisonOperator: LessThanThreshold\n"
       "      # No data (agent not running yet) never stops the node.\n"
       "      TreatMissingData: notBreaching\n";
  s += std::string("      # ") +
       (p.spot ? "A one-time spot instance cannot be stopped, only terminated.\n"
               : "Stopping keeps the EBS volumes; the instance store is erased.\n") +
       "      AlarmActions:\n        - !Sub arn:${AWS::Partition}:automate:${AWS::Region}:ec2:" +
       (p.spot ? "terminate" : "stop") + "\n";
  return s;
}

// `aws cloudformation deploy` sends a template this large or smaller inline; a larger one must go
// through an S3 bucket (--s3-bucket).
constexpr size_t kInlineTemplateBytes = 51200;

}  // namespace

std::string RenderCloudFormation(const LaunchPlan& p) {
  std::string s = "AWSTemplateFormatVersion: \"2010-09-09\"\n";
  s += "Description: " +
       Quoted("gpuadvisor launch: " + std::to_string(p.count) + " x " + p.type->name + ", " +
              p.market + ", " + p.region) +
       "\n";
  s += "# Deploy: aws cloudformation deploy --region " + p.region + " --stack-name " +
       p.request.name +
       " --template-file THIS_FILE --capabilities "
       "CAPABILITY_IAM --parameter-overrides SubnetId=subnet-... SecurityGroupIds=sg-..." +
       (p.efa ? " VpcId=vpc-..." : "") + "\n#\n# Why each choice:\n";
  for (const std::string& why : p.reasons) s += "#   - " + why + "\n";
  if (!p.warnings.empty()) {
    s += "#\n# Check before launching:\n";
    for (const std::string& w : p.warnings) s += "#   - " + w + "\n";
  }
  s += Parameters(p);
  s += "Conditions:\n  HasKeyName: !Not [!Equals [!Ref KeyName, \"\"]]\n"
       "  IdleAlarm: !Not [!Equals [!Ref IdleStopMinutes, 0]]\n";
  s += SharedResources(p);
  s += LaunchTemplate(p);
  for (int i = 1; i <= p.count; ++i) s += Node(p, i);
  s += "Outputs:\n  InstanceIds:\n    Value: !Join [\",\", [";
  for (int i = 1; i <= p.count; ++i) {
    s += std::string(i > 1 ? ", " : "") + "!Ref Node" + std::to_string(i);
  }
  s += "]]\n";
  if (s.size() > kInlineTemplateBytes) {
    const std::string file = "--template-file THIS_FILE";  // another program's flag (aws CLI)
    s.insert(s.find(file) + file.size(), " --s3-bucket BUCKET");
    s.insert(s.find("\n#\n# Why each choice:"),
             "\n# (--s3-bucket: deploy sends templates over 51,200 bytes through an S3 bucket)");
  }
  return s;
}

}  // namespace gpuadvisor::launch_internal

namespace gpuadvisor {

int CloudFormationResourceCount(const LaunchPlan& p) {
  const int shared = 3 + (p.placement_group ? 1 : 0) + (p.efa ? 2 : 0);  // see SharedResources
  return shared + 2 * p.count;                                           // Node() and its alarm
}

}  // namespace gpuadvisor
