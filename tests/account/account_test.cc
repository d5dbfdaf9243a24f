// The account scan (issue 25, item 2-3): parsing the AWS CLI's answers, the scan file, and what
// it says of a plan, alone and inside recommend.
#include "gpuadvisor/account.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

const InstanceType& Type(const std::string& name) {
  const InstanceType* t = testing::EmbeddedForTests().FindInstanceType(name);
  EXPECT_NE(t, nullptr) << name;
  return *t;
}

// ListServiceQuotas as the AWS CLI prints it (the fields kept, one quota of another kind).
std::string QuotasJson(double p_vcpus, double p_spot_vcpus, double g_vcpus) {
  return R"({"Quotas": [
    {"ServiceCode": "ec2", "QuotaCode": "L-0263D0A3", "QuotaName": "EC2-VPC Elastic IPs", "Value": 5.0},
    {"ServiceCode": "ec2", "QuotaCode": "L-417A185B", "QuotaName": "Running On-Demand P instances", "Value": )" +
         std::to_string(p_vcpus) + R"(},
    {"ServiceCode": "ec2", "QuotaCode": "L-7212CCBC", "QuotaName": "All P Spot Instance Requests", "Value": )" +
         std::to_string(p_spot_vcpus) + R"(},
    {"ServiceCode": "ec2", "QuotaCode": "L-DB2E81BA", "QuotaName": "Running On-Demand G and VT instances", "Value": )" +
         std::to_string(g_vcpus) + R"(},
    {"ServiceCode": "ec2", "QuotaCode": "L-1216C47A",
     "QuotaName": "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", "Value": 1152.0}]})";
}

AccountScan ScanWithPQuota(double p_vcpus, double p_spot_vcpus = 0, double g_vcpus = 64) {
  AccountScan s;
  EXPECT_TRUE(
      AddServiceQuotas(QuotasJson(p_vcpus, p_spot_vcpus, g_vcpus), "q", "us-east-1", &s).ok());
  return s;
}

TEST(AccountTest, QuotaNamesGiveTheirClasses) {
  bool spot = true;
  EXPECT_EQ(QuotaClasses("Running On-Demand G and VT instances", &spot),
            (std::vector<std::string>{"G", "VT"}));
  EXPECT_FALSE(spot);
  EXPECT_EQ(QuotaClasses("All Inf Spot Instance Requests", &spot),
            (std::vector<std::string>{"INF"}));
  EXPECT_TRUE(spot);
  EXPECT_EQ(QuotaClasses("Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", &spot)
                .size(),
            9u);
  EXPECT_TRUE(QuotaClasses("EC2-VPC Elastic IPs", &spot).empty());
  EXPECT_TRUE(QuotaClasses("Running Dedicated p4d Hosts", &spot).empty());
}

TEST(AccountTest, ServiceQuotasKeepTheClassVcpuQuotasOfTheRegion) {
  const AccountScan s = ScanWithPQuota(96, 8);
  ASSERT_EQ(s.quotas.size(), 4u);  // the Elastic IPs quota is not one of ours
  EXPECT_EQ(s.quotas[0].code, "L-417A185B");
  EXPECT_EQ(s.quotas[0].region, "us-east-1");
  EXPECT_DOUBLE_EQ(s.quotas[0].vcpus, 96);
  EXPECT_TRUE(s.quotas[1].spot);
}

TEST(AccountTest, AMalformedAnswerNamesTheCallAndTheField) {
  AccountScan s;
  Status st = AddServiceQuotas(R"({"Quotas": [{"QuotaName": "Running On-Demand P instances",
      "QuotaCode": "L-417A185B", "Value": "many"}]})",
                               "us-east-1 list-service-quotas", "us-east-1", &s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("us-east-1 list-service-quotas"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("Value"), std::string::npos) << st.message();
  EXPECT_FALSE(AddServiceQuotas("[]", "q", "us-east-1", &s).ok());
  EXPECT_FALSE(AddSavingsPlans(R"({"savingsPlans": [{"savingsPlanId": "sp-1",
      "savingsPlanType": "Compute", "state": "active", "end": "2027-01-01", "commitment": "lots"}]})",
                               "sp", &s)
                   .ok());
}

TEST(AccountTest, OnlyActiveReservationsAndPlansAreKept) {
  AccountScan s;
  ASSERT_TRUE(AddReservedInstances(R"({"ReservedInstances": [
      {"ReservedInstancesId": "ri-1", "InstanceType": "p4d.24xlarge", "InstanceCount": 2,
       "End": "2027-03-01T00:00:00+00:00", "State": "active", "OfferingClass": "standard"},
      {"ReservedInstancesId": "ri-2", "InstanceType": "p4d.24xlarge", "InstanceCount": 4,
       "End": "2024-01-01T00:00:00+00:00", "State": "retired"}]})",
                                   "ri", "us-east-1", &s)
                  .ok());
  ASSERT_EQ(s.reserved.size(), 1u);
  EXPECT_EQ(s.reserved[0].end, "2027-03-01");
  ASSERT_TRUE(AddSavingsPlans(R"({"savingsPlans": [
      {"savingsPlanId": "sp-1", "savingsPlanType": "EC2Instance", "state": "active",
       "ec2InstanceFamily": "p4d", "region": "us-east-1", "end": "2029-01-01T00:00:00.000Z",
       "commitment": "12.5"},
      {"savingsPlanId": "sp-2", "savingsPlanType": "Compute", "state": "retired",
       "end": "2025-01-01T00:00:00.000Z", "commitment": "3"}]})",
                              "sp", &s)
                  .ok());
  ASSERT_EQ(s.savings_plans.size(), 1u);
  EXPECT_DOUBLE_EQ(s.savings_plans[0].commitment_usd_per_hour, 12.5);
  EXPECT_TRUE(s.savings_plans_scanned);
}

TEST(AccountTest, TheScanFileRoundTrips) {
  AccountScan s = ScanWithPQuota(96);
  s.account_id = "123456789012";
  s.scanned_at = "2026-12-05T02:00:00Z";
  s.regions = {"us-east-1"};
  ASSERT_TRUE(AddInstanceTypeOfferings(R"({"InstanceTypeOfferings": [
      {"InstanceType": "p5.48xlarge", "LocationType": "availability-zone", "Location": "us-east-1b"},
      {"InstanceType": "p5.48xlarge", "LocationType": "availability-zone", "Location": "us-east-1a"}]})",
                                       "o", "us-east-1", &s)
                  .ok());
  s.failures = {"us-west-2: service-quotas list-service-quotas: exit 254: AccessDenied"};
  Result<AccountScan> back = ParseAccountScan(AccountScanToJson(s), "scan.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(AccountScanToJson(*back), AccountScanToJson(s));
  EXPECT_EQ(back->zones.at("us-east-1").at("p5.48xlarge"),
            (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  Result<AccountScan> wrong = ParseAccountScan(R"({"schema": "other"})", "scan.json");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("scan.json"), std::string::npos);
}

TEST(AccountTest, APlanOverTheQuotaSaysWhichAndHowToRequestIt) {
  const AccountScan s = ScanWithPQuota(96);
  const InstanceType& p5 = Type("p5.48xlarge");  // 192 vCPUs
  const AccountFit one = CheckPlanAgainstAccount(s, p5, 1, "us-east-1", PurchaseKind::kOnDemand);
  ASSERT_TRUE(one.quota.has_value());
  EXPECT_FALSE(one.fits_quota);
  EXPECT_DOUBLE_EQ(one.needed_vcpus, 192);
  const std::string line = AccountFitWarning(one, p5, "us-east-1");
  EXPECT_NE(line.find("L-417A185B"), std::string::npos) << line;
  EXPECT_NE(line.find("--desired-value 192"), std::string::npos) << line;
  EXPECT_NE(line.find("has 96"), std::string::npos) << line;
  // The spot quota governs spot plans; Capacity Blocks no vCPU quota; another region is unknown.
  EXPECT_FALSE(CheckPlanAgainstAccount(s, p5, 1, "us-east-1", PurchaseKind::kSpot).fits_quota);
  EXPECT_FALSE(CheckPlanAgainstAccount(s, p5, 1, "us-east-1", PurchaseKind::kCapacityBlock)
                   .quota.has_value());
  EXPECT_TRUE(CheckPlanAgainstAccount(s, p5, 1, "us-west-2", PurchaseKind::kOnDemand).obtainable());
  const AccountScan enough = ScanWithPQuota(384);
  EXPECT_TRUE(
      CheckPlanAgainstAccount(enough, p5, 2, "us-east-1", PurchaseKind::kOnDemand).fits_quota);
  EXPECT_EQ(AccountFitWarning(
                CheckPlanAgainstAccount(enough, p5, 2, "us-east-1", PurchaseKind::kOnDemand), p5,
                "us-east-1"),
            "");
  // G and VT covers g6e.
  const AccountFit g =
      CheckPlanAgainstAccount(s, Type("g6e.48xlarge"), 1, "us-east-1", PurchaseKind::kOnDemand);
  ASSERT_TRUE(g.quota.has_value());
  EXPECT_EQ(g.quota->code, "L-DB2E81BA");
  EXPECT_FALSE(g.fits_quota);  // 192 vCPUs against 64
}

TEST(AccountTest, ATypeOfferedInNoZoneIsNotObtainable) {
  AccountScan s = ScanWithPQuota(1000);
  ASSERT_TRUE(AddInstanceTypeOfferings(R"({"InstanceTypeOfferings": [
      {"InstanceType": "p4d.24xlarge", "LocationType": "availability-zone", "Location": "us-east-1c"}]})",
                                       "o", "us-east-1", &s)
                  .ok());
  const AccountFit p5 =
      CheckPlanAgainstAccount(s, Type("p5.48xlarge"), 1, "us-east-1", PurchaseKind::kOnDemand);
  ASSERT_TRUE(p5.zones.has_value());
  EXPECT_FALSE(p5.obtainable());
  EXPECT_NE(AccountFitWarning(p5, Type("p5.48xlarge"), "us-east-1").find("not offered"),
            std::string::npos);
  EXPECT_TRUE(
      CheckPlanAgainstAccount(s, Type("p4d.24xlarge"), 1, "us-east-1", PurchaseKind::kOnDemand)
          .obtainable());
}

TEST(AccountTest, ReservedInstancesAreCapacityAlreadyPaidFor) {
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-1", "p4d.24xlarge", "us-east-1", "", 2, "2027-03-01", "standard"});
  s.savings_plans.push_back({"sp-1", "EC2Instance", "p4d", "us-east-1", 12.5, "2029-01-01"});
  const InstanceType& p4d = Type("p4d.24xlarge");
  const AccountFit fit = CheckPlanAgainstAccount(s, p4d, 4, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_EQ(fit.reserved_instances, 2);
  EXPECT_DOUBLE_EQ(fit.paid_fraction(4), 0.5);
  EXPECT_EQ(fit.savings_plans, (std::vector<std::string>{"sp-1"}));
  const std::vector<std::string> advice = AccountFitAdvice(fit, p4d, 4, 1000, "us-east-1");
  ASSERT_EQ(advice.size(), 2u);
  EXPECT_NE(advice[0].find("adds $500.00"), std::string::npos) << advice[0];
  // Spot plans use neither; another region's reservations do not count.
  const AccountFit spot = CheckPlanAgainstAccount(s, p4d, 4, "us-east-1", PurchaseKind::kSpot);
  EXPECT_DOUBLE_EQ(spot.paid_fraction(4), 0);
  EXPECT_TRUE(spot.savings_plans.empty());
  EXPECT_EQ(
      CheckPlanAgainstAccount(s, p4d, 4, "us-west-2", PurchaseKind::kOnDemand).reserved_instances,
      0);
}

// The issue's case: with 96 P vCPUs, a 2 x p5.48xlarge plan says it exceeds the quota, and a plan
// the account can launch ranks above it.
TEST(AccountTest, RecommendRanksWhatTheAccountCanLaunchFirst) {
  const Workload w =
      testing::MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "20B"}});
  RecommendRequest req;
  req.only_instances = {"p5.48xlarge", "g6e.12xlarge"};
  req.purchase = {PurchaseKind::kOnDemand};
  req.top = 20;
  Result<Recommendation> free = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(free.ok()) << free.status().ToString();
  ASSERT_FALSE(free->plans.empty());
  EXPECT_EQ(free->plans[0].type->name, "p5.48xlarge");  // the premise: unconstrained, p5 wins
  EXPECT_FALSE(free->plans[0].account.has_value());

  const AccountScan s = ScanWithPQuota(96, 0, 4096);
  req.account = &s;
  Result<Recommendation> mine = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(mine.ok()) << mine.status().ToString();
  ASSERT_FALSE(mine->plans.empty());
  EXPECT_EQ(mine->plans[0].type->name, "g6e.12xlarge");
  ASSERT_TRUE(mine->plans[0].account.has_value());
  EXPECT_TRUE(mine->plans[0].account->obtainable());
  bool p5_warned = false;
  for (const Plan& p : mine->plans) {
    if (p.type->name != "p5.48xlarge") continue;
    EXPECT_FALSE(p.account->obtainable());
    for (const std::string& line : p.warnings) {
      p5_warned = p5_warned || line.find("L-417A185B") != std::string::npos;
    }
  }
  EXPECT_TRUE(p5_warned);
}

}  // namespace
}  // namespace gpuadvisor
