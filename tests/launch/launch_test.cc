// Launch planning and rendering (issue 7) on the embedded catalog.
#include "gpuadvisor/launch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

LaunchPlan Plan(const std::string& type, int count = 1,
                PurchaseKind purchase = PurchaseKind::kOnDemand) {
  LaunchRequest r;
  r.instance_type = type;
  r.count = count;
  r.purchase = purchase;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? std::move(p).value() : LaunchPlan{};
}

int EfaOnCard(const LaunchPlan& p, int card) {
  return static_cast<int>(std::count_if(
      p.interfaces.begin(), p.interfaces.end(), [card](const NetworkInterfaceSpec& n) {
        return n.network_card_index == card && n.interface_type == "efa-only";
      }));
}

// Issue 37: an UltraServer is bought whole as a Capacity Block; launch says so instead of writing
// a run-instances call EC2 would refuse.
TEST(LaunchTest, AnUltraServerIsNotLaunchedAsAnInstance) {
  LaunchRequest r;
  r.instance_type = "u-p6e-gb200x72";
  r.purchase = PurchaseKind::kCapacityBlock;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(p.status().field(), "instance");
  EXPECT_NE(p.status().message().find("UltraServer Capacity Block"), std::string::npos)
      << p.status().message();
}

TEST(LaunchTest, P5ClusterGetsOneEfaInterfacePerNetworkCard) {
  const LaunchPlan p = Plan("p5.48xlarge", 4, PurchaseKind::kSpot);
  EXPECT_TRUE(p.efa);
  EXPECT_TRUE(p.placement_group);
  EXPECT_TRUE(p.spot);
  EXPECT_EQ(p.efa_interfaces, 32);
  ASSERT_EQ(p.interfaces.size(), 33u);
  // Primary ENA on card 0 device 0, EFA-only on card 0 device 1, then card N device 0.
  EXPECT_EQ(p.interfaces[0].interface_type, "interface");
  EXPECT_EQ(p.interfaces[1].network_card_index, 0);
  EXPECT_EQ(p.interfaces[1].device_index, 1);
  for (int card = 0; card < 32; ++card) EXPECT_EQ(EfaOnCard(p, card), 1) << card;
  EXPECT_EQ(p.interfaces[32].network_card_index, 31);
  EXPECT_EQ(p.interfaces[32].device_index, 0);
}

TEST(LaunchTest, EfaLayoutFollowsTheCatalogNetworkCards) {
  EXPECT_EQ(Plan("p4d.24xlarge", 2).efa_interfaces, 4);
  EXPECT_EQ(Plan("p5en.48xlarge", 2).efa_interfaces, 16);
  EXPECT_EQ(Plan("p6-b200.48xlarge", 2).efa_interfaces, 8);
  EXPECT_EQ(Plan("trn1.32xlarge", 2).efa_interfaces, 8);
  // p6-b300: 17 cards, 16 EFA interfaces: card 0 carries only the ENA primary.
  const LaunchPlan b300 = Plan("p6-b300.48xlarge", 2);
  EXPECT_EQ(b300.efa_interfaces, 16);
  EXPECT_EQ(EfaOnCard(b300, 0), 0);
  EXPECT_EQ(EfaOnCard(b300, 16), 1);
  // One-card EFA type: ENA primary and one EFA-only interface behind it on card 0.
  const LaunchPlan g5 = Plan("g5.12xlarge", 2);
  EXPECT_EQ(g5.efa_interfaces, 1);
  EXPECT_EQ(EfaOnCard(g5, 0), 1);
}

TEST(LaunchTest, SingleNodeHasNoPlacementGroupAndNoEfa) {
  for (const char* type : {"g6.xlarge", "p5.48xlarge"}) {
    const LaunchPlan p = Plan(type);
    EXPECT_FALSE(p.efa) << type;
    EXPECT_FALSE(p.placement_group) << type;
    EXPECT_TRUE(p.interfaces.empty()) << type;
  }
}

TEST(LaunchTest, MultiNodeWithoutEfaWarns) {
  const LaunchPlan p = Plan("g6.xlarge", 2);
  EXPECT_FALSE(p.efa);
  EXPECT_TRUE(p.placement_group);
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(p.warnings[0].find("no EFA"), std::string::npos);
}

// Independent replicas (a workload's plan whose model copy fits one instance) need neither EFA nor
// a placement group, so neither the warning nor the group; a bare type and count says "if".
TEST(LaunchTest, IndependentReplicasGetNoEfaWarningAndNoPlacementGroup) {
  LaunchRequest r;
  r.instance_type = "g6.xlarge";
  r.count = 2;
  r.inter_node_traffic = false;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_FALSE(p->placement_group);
  EXPECT_FALSE(p->efa);
  for (const std::string& w : p->warnings) EXPECT_EQ(w.find("EFA"), std::string::npos) << w;
  const LaunchPlan unknown = Plan("g6.xlarge", 2);
  ASSERT_FALSE(unknown.warnings.empty());
  EXPECT_NE(unknown.warnings[0].find("if the instances exchange traffic"), std::string::npos);
  r.inter_node_traffic = true;
  Result<LaunchPlan> talks = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(talks.ok());
  ASSERT_FALSE(talks->warnings.empty());
  EXPECT_EQ(talks->warnings[0].find("if the instances"), std::string::npos);
  EXPECT_NE(talks->warnings[0].find("no EFA"), std::string::npos);
}

TEST(LaunchTest, AmiFollowsArchitectureAndAccelerator) {
  EXPECT_EQ(Plan("g5g.xlarge").architecture, "arm64");
  EXPECT_NE(Plan("g5g.xlarge").ami_parameter.find("/deeplearning/ami/arm64/"), std::string::npos);
  EXPECT_NE(Plan("g6.xlarge").ami_parameter.find("/deeplearning/ami/x86_64/"), std::string::npos);
  EXPECT_NE(Plan("trn1.32xlarge").ami_parameter.find("/aws/service/neuron/dlami/"),
            std::string::npos);
  EXPECT_NE(Plan("g4ad.xlarge").ami_parameter.find("/canonical/ubuntu/"), std::string::npos);
  EXPECT_FALSE(Plan("g4ad.xlarge").warnings.empty());    // AMD: install the driver
  EXPECT_FALSE(Plan("p3dn.24xlarge").warnings.empty());  // Volta: no open kernel modules
}

// The image and its warnings are the family facts' (data/family-facts.json), not code tables.
TEST(LaunchTest, AmiWarningsComeFromTheFamilyFacts) {
  const auto warned = [](const LaunchPlan& p, std::string_view text) {
    return std::any_of(p.warnings.begin(), p.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  // The image's unsupported GPU architectures.
  EXPECT_TRUE(warned(Plan("p3dn.24xlarge"), "V100-32GB (Volta) is not supported by NVIDIA's open"));
  EXPECT_FALSE(warned(Plan("p5.48xlarge"), "open kernel modules"));
  // A family the image's release notes do not list, and one they do.
  EXPECT_TRUE(warned(Plan("g7e.2xlarge"), "g7e is not in the Deep Learning Base OSS"));
  EXPECT_FALSE(warned(Plan("g6e.xlarge"), "supported-instance list"));
  // A family's own note; a fractional GPU's driver.
  EXPECT_TRUE(warned(Plan("inf1.xlarge"), "pin an image released with SDK 2.26"));
  EXPECT_TRUE(warned(Plan("g6f.xlarge"), "needs the GRID driver"));
  EXPECT_EQ(Plan("g6e.xlarge").ami_name,
            "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04)");
}

// gp3 sizing (doc/launch.md): throughput as fast as the instance's EBS link allows, at most
// 1000 MiB/s; IOPS 4 per MiB/s, at least the free 3000, at most 16000 and 500 per GiB.
void ExpectGp3Rule(const LaunchPlan& p) {
  ASSERT_TRUE(p.data.has_value());
  int link = 1000;
  if (p.type->ebs_max_mbps)
    link = std::min(link, static_cast<int>(*p.type->ebs_max_mbps / 8.0 / 1.048576));
  const int iops = std::max(3000, std::min({4 * link, 16000, 500 * p.data->size_gib}));
  EXPECT_EQ(p.data->iops, iops) << p.type->name;
  EXPECT_EQ(p.data->throughput, std::clamp(std::min(link, iops / 4), 125, 1000)) << p.type->name;
}

TEST(LaunchTest, DataVolumeHoldsDatasetAndCheckpoints) {
  LaunchRequest r;
  r.instance_type = "p5.48xlarge";
  r.dataset_gib = 500;
  r.checkpoint_gib = 100;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->data.has_value());
  EXPECT_EQ(p->data->size_gib, 840);  // (500 + 2 x 100) x 1.2
  ExpectGp3Rule(*p);
  EXPECT_TRUE(p->instance_store);
  // No dataset and no checkpoints: root volume only.
  EXPECT_FALSE(Plan("g6.xlarge").data.has_value());
  // A slow EBS link caps the throughput asked of gp3.
  r.instance_type = "g4dn.xlarge";
  p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->type->ebs_max_mbps.has_value());
  EXPECT_LT(*p->type->ebs_max_mbps / 8 / 1.048576, 1000) << "no longer a slow link: pick another";
  EXPECT_LT(p->data->throughput, 1000);
  ExpectGp3Rule(*p);
  // A small volume caps the IOPS at 500 per GiB, and the throughput at a quarter of that.
  r.instance_type = "p5.48xlarge";
  r.ebs_gib = 7;
  p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->data->size_gib, 7);
  ExpectGp3Rule(*p);
  EXPECT_EQ(p->data->iops, 3500);
}

TEST(LaunchTest, BadRequestsNameTheFlag) {
  const Catalog& c = testing::EmbeddedForTests();
  LaunchRequest r;
  r.instance_type = "p5.48xlarg";
  Result<LaunchPlan> p = PlanLaunch(c, r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("did you mean p5.48xlarge"), std::string::npos);

  r.instance_type = "p6-b200.48xlarge";
  r.region = "eu-west-1";
  p = PlanLaunch(c, r);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("region"), std::string::npos);

  r = LaunchRequest{};
  r.instance_type = "g6.xlarge";
  r.count = 0;
  EXPECT_NE(PlanLaunch(c, r).status().message().find("count"), std::string::npos);
  r.count = 1;
  r.ebs_gib = 0;
  EXPECT_NE(PlanLaunch(c, r).status().message().find("ebs-gib"), std::string::npos);
}

TEST(LaunchTest, SpotOnATypeSoldWithoutSpotIsRefused) {
  Catalog c = testing::EmbeddedForTests();
  InstanceType t = *c.FindInstanceType("g6.xlarge");
  t.usage_classes = {"on-demand"};
  c.PutInstanceType(t);
  LaunchRequest r;
  r.instance_type = "g6.xlarge";
  r.purchase = PurchaseKind::kSpot;
  Result<LaunchPlan> p = PlanLaunch(c, r);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("purchase: spot: g6.xlarge is not sold as spot"),
            std::string::npos);
}

TEST(LaunchTest, EveryFormatCarriesTheDecisions) {
  const LaunchPlan p = Plan("p5.48xlarge", 2, PurchaseKind::kSpot);
  for (LaunchFormat f : {LaunchFormat::kAwsCli, LaunchFormat::kCloudFormation,
                         LaunchFormat::kTerraform, LaunchFormat::kSkyPilot}) {
    const LaunchSpec s = RenderLaunch(p, f);
    EXPECT_NE(s.document.find("p5.48xlarge"), std::string::npos) << LaunchFormatName(f);
    EXPECT_NE(s.document.find("# Why each choice:"), std::string::npos) << LaunchFormatName(f);
    EXPECT_NE(s.document.find("EFA"), std::string::npos) << LaunchFormatName(f);
    EXPECT_EQ(ParseLaunchFormat(LaunchFormatName(f)), f);
  }
  const LaunchSpec cli = RenderLaunch(p, LaunchFormat::kAwsCli);
  EXPECT_NE(cli.document.find(cli.cli_input_json.substr(0, cli.cli_input_json.size() - 1)),
            std::string::npos);  // the script embeds the document verbatim
  EXPECT_NE(RenderLaunch(p, LaunchFormat::kCloudFormation).document.find("ec2:terminate"),
            std::string::npos);
  EXPECT_EQ(ParseLaunchFormat("pulumi"), std::nullopt);
}

TEST(LaunchTest, RendersEveryFormatForEveryKindOfType) {
  struct Case {
    const char* type;
    int count;
    const char* must;  // in every format
  };
  for (const Case& c : {Case{"g6.xlarge", 1, "g6.xlarge"}, Case{"trn1.32xlarge", 2, "trn1"},
                        Case{"g4ad.xlarge", 1, "Ubuntu Server 22.04"},
                        Case{"g5g.xlarge", 3, "arm64"}, Case{"p4d.24xlarge", 2, "EFA"}}) {
    LaunchRequest r;
    r.instance_type = c.type;
    r.count = c.count;
    r.key_name = "k";
    r.subnet_id = "subnet-1";
    r.security_group_ids = {"sg-1", "sg-2"};
    r.instance_profile = "prof";
    r.ebs_gib = 50;
    r.dataset_gib = 100;  // more than --ebs-gib: a warning
    Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
    ASSERT_TRUE(p.ok()) << c.type << ": " << p.status().ToString();
    EXPECT_FALSE(p->warnings.empty()) << c.type;
    for (LaunchFormat f : {LaunchFormat::kAwsCli, LaunchFormat::kCloudFormation,
                           LaunchFormat::kTerraform, LaunchFormat::kSkyPilot}) {
      const LaunchSpec s = RenderLaunch(*p, f);
      EXPECT_NE(s.document.find(c.must), std::string::npos) << c.type << " " << LaunchFormatName(f);
      EXPECT_FALSE(s.file_name.empty());
    }
    const std::string cfn = RenderLaunch(*p, LaunchFormat::kCloudFormation).document;
    const bool nvidia = p->type->accelerator.vendor == "NVIDIA";
    EXPECT_EQ(cfn.find("nvidia_smi_utilization_gpu") != std::string::npos, nvidia) << c.type;
    EXPECT_EQ(cfn.find("CPUUtilization") != std::string::npos, !nvidia) << c.type;
    EXPECT_NE(RenderLaunch(*p, LaunchFormat::kAwsCli).cli_input_json.find("\"subnet-1\""),
              std::string::npos);
  }
}

// The resources between "Resources:" and "Outputs:" of a rendered template.
int TemplateResources(const std::string& cfn) {
  const size_t from = cfn.find("\nResources:\n"), to = cfn.find("\nOutputs:\n");
  int n = 0;
  for (size_t at = cfn.find("\n    Type: AWS::", from); at < to;
       at = cfn.find("\n    Type: AWS::", at + 1)) {
    ++n;
  }
  return n;
}

// Issue 16: CloudFormation refuses templates with over 500 resources at deploy time.
TEST(LaunchTest, CloudFormationOverFiveHundredResourcesIsRefused) {
  for (const auto& [type, count] :
       {std::pair{"p5.48xlarge", 2}, {"p5.48xlarge", 1}, {"g6.xlarge", 3}, {"p5.48xlarge", 40}}) {
    const LaunchPlan p = Plan(type, count);
    EXPECT_EQ(CloudFormationResourceCount(p),
              TemplateResources(RenderLaunch(p, LaunchFormat::kCloudFormation).document))
        << type << " x " << count;
  }
  const LaunchPlan fits = Plan("p5.48xlarge", 247);  // 6 shared + 2 x 247 = 500
  EXPECT_EQ(CloudFormationResourceCount(fits), 500);
  EXPECT_TRUE(CheckLaunchFormat(fits, LaunchFormat::kCloudFormation).ok());
  const LaunchPlan big = Plan("p5.48xlarge", 248);
  const Status st = CheckLaunchFormat(big, LaunchFormat::kCloudFormation);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("format: cloudformation: 248 x p5.48xlarge needs 502 resources"),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("limit of 500 per template; use --format terraform or aws-cli, or "
                              "launch at most 247 instances per stack"),
            std::string::npos)
      << st.message();
  for (LaunchFormat f :
       {LaunchFormat::kAwsCli, LaunchFormat::kTerraform, LaunchFormat::kSkyPilot}) {
    EXPECT_TRUE(CheckLaunchFormat(big, f).ok()) << LaunchFormatName(f);
  }
  // Over 51,200 bytes `aws cloudformation deploy` needs an S3 bucket for the template.
  const std::string large = RenderLaunch(fits, LaunchFormat::kCloudFormation).document;
  EXPECT_GT(large.size(), 51200u);
  EXPECT_NE(large.find("--template-file THIS_FILE --s3-bucket BUCKET"), std::string::npos);
  EXPECT_EQ(RenderLaunch(Plan("p5.48xlarge", 2), LaunchFormat::kCloudFormation)
                .document.find("--s3-bucket"),
            std::string::npos);
}

// Issue 42: with no account scan a launch still names the quota it draws on, which a new
// account holds at 0 (a first p5 launch fails on it); a Capacity Block needs none.
TEST(LaunchTest, AnUncheckedLaunchNamesItsQuota) {
  const std::string line = UncheckedQuotaWarning(Plan("p5.48xlarge"));
  EXPECT_NE(line.find("need 192 vCPUs of \"Running On-Demand P instances\""), std::string::npos)
      << line;
  EXPECT_NE(line.find("which AWS sets to 0 on a new account"), std::string::npos) << line;
  EXPECT_NE(line.find("gpuadvisor account scan"), std::string::npos) << line;
  EXPECT_EQ(UncheckedQuotaWarning(Plan("p5.48xlarge", 1, PurchaseKind::kCapacityBlock)), "");
  // Past 512 vCPUs the plan's own quota warning speaks.
  EXPECT_EQ(UncheckedQuotaWarning(Plan("p5.48xlarge", 4)), "");
}

// Issue 42: SkyPilot cannot launch in AWS China; the other formats can.
TEST(LaunchTest, SkyPilotIsRefusedInAwsChina) {
  LaunchRequest r;
  r.instance_type = "g5.xlarge";
  r.region = "cn-northwest-1";
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const Status st = CheckLaunchFormat(*p, LaunchFormat::kSkyPilot);
  EXPECT_EQ(st.field(), "format");
  EXPECT_EQ(st.message().rfind("format: skypilot: SkyPilot has no AWS China regions", 0), 0u)
      << st.message();
  for (LaunchFormat f :
       {LaunchFormat::kAwsCli, LaunchFormat::kCloudFormation, LaunchFormat::kTerraform}) {
    EXPECT_TRUE(CheckLaunchFormat(*p, f).ok()) << LaunchFormatName(f);
  }
  EXPECT_TRUE(CheckLaunchFormat(Plan("g5.xlarge"), LaunchFormat::kSkyPilot).ok());
}

// Issue 16: many vCPUs get a warning naming the EC2 quota they draw on, in every format.
TEST(LaunchTest, LargeLaunchesWarnAboutTheVcpuQuota) {
  auto quota_warning = [](const LaunchPlan& p) {
    for (const std::string& w : p.warnings) {
      if (w.rfind("EC2 vCPU quota:", 0) == 0) return w;
    }
    return std::string();
  };
  EXPECT_EQ(quota_warning(Plan("p5.48xlarge", 2)), "");  // 384 vCPUs
  const LaunchPlan p5 = Plan("p5.48xlarge", 200);
  const std::string w = quota_warning(p5);
  EXPECT_NE(w.find("200 x p5.48xlarge need 38400 vCPUs of \"Running On-Demand P instances\" "
                   "(L-417A185B) in us-east-1"),
            std::string::npos)
      << w;
  for (LaunchFormat f : {LaunchFormat::kAwsCli, LaunchFormat::kTerraform, LaunchFormat::kSkyPilot,
                         LaunchFormat::kCloudFormation}) {
    EXPECT_NE(RenderLaunch(p5, f).document.find("L-417A185B"), std::string::npos)
        << LaunchFormatName(f);
  }
  EXPECT_NE(quota_warning(Plan("p5.48xlarge", 8, PurchaseKind::kSpot))
                .find("\"All P Spot Instance Requests\" (L-7212CCBC)"),
            std::string::npos);
  EXPECT_NE(quota_warning(Plan("g6.xlarge", 200)).find("G and VT instances\" (L-DB2E81BA)"),
            std::string::npos);
  EXPECT_NE(quota_warning(Plan("trn1.32xlarge", 8)).find("(L-2C3B7624)"), std::string::npos);
}

TEST(LaunchTest, ReservedPlansLaunchOnDemand) {
  LaunchRequest r;
  r.instance_type = "g6.xlarge";
  r.purchase = PurchaseKind::kReserved1y;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->spot);
  EXPECT_EQ(RenderLaunch(*p, LaunchFormat::kAwsCli).cli_input_json.find("InstanceMarketOptions"),
            std::string::npos);
}

TEST(LaunchTest, TerraformHeredocKeepsShellSyntaxLiteral) {
  const std::string tf = RenderLaunch(Plan("p5.48xlarge", 2), LaunchFormat::kTerraform).document;
  EXPECT_NE(tf.find("$${#NVME[@]}"), std::string::npos);
  EXPECT_EQ(tf.find(" ${#NVME"), std::string::npos);
}

TEST(LaunchTest, ReadsRecommendOutputAndSinglePlans) {
  LaunchRequest r;
  const char* rec = R"({"plans": [{"rank": 1, "instance_type": "p5.48xlarge", "instances": 4,
    "region": "us-east-2", "purchase": "spot", "estimate": {"checkpoint_gib": 91.5}}]})";
  ASSERT_TRUE(ReadPlanJson(rec, "plans.json", 1, &r).ok());
  EXPECT_EQ(r.instance_type, "p5.48xlarge");
  EXPECT_EQ(r.count, 4);
  EXPECT_EQ(r.region, "us-east-2");
  EXPECT_EQ(r.purchase, PurchaseKind::kSpot);
  EXPECT_DOUBLE_EQ(r.checkpoint_gib.value_or(0), 91.5);
  EXPECT_EQ(r.plan_note, "recommend rank 1");

  LaunchRequest single;
  ASSERT_TRUE(ReadPlanJson(R"({"instance_type": "g6.xlarge"})", "p.json", 1, &single).ok());
  EXPECT_EQ(single.count, 1);

  const Status bad = ReadPlanJson(R"({"plans": [{"instance_type": "x.large", "instances": 0}]})",
                                  "p.json", 1, &single);
  EXPECT_EQ(bad.message(), "p.json: plans[0].instances: expected an integer 1..1000");
  // A name outside AWS's grammar never reaches the spec's command lines (issue 43).
  EXPECT_NE(ReadPlanJson(R"({"instance_type": "p5.48xlarge; rm -rf /", "region": "us-east-1"})",
                         "p.json", 1, &single)
                .message()
                .find("instance_type: expected an EC2 instance type"),
            std::string::npos);
  EXPECT_NE(ReadPlanJson(R"({"instance_type": "p5.48xlarge", "region": "us-east-1 `id`"})",
                         "p.json", 1, &single)
                .message()
                .find("region: expected an AWS region code"),
            std::string::npos);
  EXPECT_NE(ReadPlanJson("{", "p.json", 1, &single).message().find("p.json: byte"),
            std::string::npos);
  EXPECT_NE(ReadPlanJson(rec, "p.json", 2, &single).message().find("rank"), std::string::npos);
  EXPECT_NE(ReadPlanJson(R"({"plans": []})", "p.json", 1, &single).message().find("plans"),
            std::string::npos);
}

// Issue 16, found by fuzz_plan_file (fuzz/regressions/plan_file/): a number past double's range
// threw out of ReadPlanJson (abort), and a huge checkpoint size overflowed the data volume's int.
TEST(LaunchTest, PlanFileNumbersOutOfRangeAreErrors) {
  LaunchRequest r;
  const Status inf = ReadPlanJson(
      R"({"instance_type":"g5.xlarge","estimate":{"checkpoint_gib":1e400}})", "p.json", 1, &r);
  EXPECT_EQ(inf.message(), "p.json: a number out of range (over 1.8e308)");
  const Status huge = ReadPlanJson(
      R"({"instance_type":"g5.xlarge","estimate":{"checkpoint_gib":1e300}})", "p.json", 1, &r);
  EXPECT_EQ(huge.message(),
            "p.json: plan.estimate.checkpoint_gib: expected a size in GiB (0 to 1e7) or null");
  LaunchRequest direct;
  direct.instance_type = "g5.xlarge";
  direct.checkpoint_gib = 1e300;
  Result<LaunchPlan> plan = PlanLaunch(testing::EmbeddedForTests(), direct);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
}

// Issue 43: HCL interpolates ${...} and %{...} inside quoted strings too; a key pair, profile,
// subnet or plan note holding one must reach Terraform as text ("$${", "%%{"), not run as code.
TEST(LaunchTest, TerraformEscapesTemplateSequencesInUserStrings) {
  const std::string evil = "x${file(\"/etc/passwd\")}%{if true}y%{endif}";
  LaunchRequest r;
  r.instance_type = "g6.xlarge";
  r.key_name = evil;
  r.instance_profile = evil;
  r.subnet_id = evil;
  r.security_group_ids = {evil};
  r.plan_note = evil;
  Result<LaunchPlan> p = PlanLaunch(testing::EmbeddedForTests(), r);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  const std::string tf = RenderLaunch(*p, LaunchFormat::kTerraform).document;
  const std::string escaped = R"("x$${file(\"/etc/passwd\")}%%{if true}y%%{endif}")";
  size_t count = 0;
  for (size_t at = tf.find(escaped); at != std::string::npos; at = tf.find(escaped, at + 1)) {
    ++count;
  }
  EXPECT_GE(count, 5u) << tf;  // key, profile, subnet, security group, the plan-note tag
  // Outside comments, every "${" left is an escaped one ("$${") or the node index's own.
  size_t line_start = 0;
  while (line_start < tf.size()) {
    size_t end = tf.find('\n', line_start);
    if (end == std::string::npos) end = tf.size();
    const std::string line = tf.substr(line_start, end - line_start);
    line_start = end + 1;
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line[first] == '#') continue;
    for (const char* open : {"${", "%{"}) {
      for (size_t at = line.find(open); at != std::string::npos; at = line.find(open, at + 1)) {
        const bool doubled = at > 0 && line[at - 1] == open[0];  // "$${", "%%{"
        EXPECT_TRUE(doubled || line.compare(at, 14, "${count.index}") == 0) << line;
      }
    }
  }
}

}  // namespace
}  // namespace gpuadvisor
