// The account scan (issue 25, item 2-3): parsing the AWS CLI's answers, the scan file, and what
// it says of a plan, alone and inside recommend.
#include "gpuadvisor/account.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"
#include "util/text.h"

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

// What the scan's commitments leave once its running instances used theirs.
Commitments Left(const AccountScan& s) {
  return ApplyCommitmentsToRunning(s, testing::EmbeddedForTests());
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
  const AccountFit one =
      CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kOnDemand);
  ASSERT_TRUE(one.quota.has_value());
  EXPECT_FALSE(one.fits_quota);
  EXPECT_DOUBLE_EQ(one.needed_vcpus, 192);
  const std::string line = AccountFitWarning(one, p5, "us-east-1");
  EXPECT_NE(line.find("L-417A185B"), std::string::npos) << line;
  EXPECT_NE(line.find("--desired-value 192"), std::string::npos) << line;
  EXPECT_NE(line.find("has 96"), std::string::npos) << line;
  // The spot quota governs spot plans; Capacity Blocks no vCPU quota; another region is unknown.
  EXPECT_FALSE(
      CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kSpot).fits_quota);
  EXPECT_FALSE(CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kCapacityBlock)
                   .quota.has_value());
  EXPECT_TRUE(CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-west-2", PurchaseKind::kOnDemand)
                  .obtainable());
  const AccountScan enough = ScanWithPQuota(384);
  EXPECT_TRUE(
      CheckPlanAgainstAccount(enough, Left(enough), p5, 2, "us-east-1", PurchaseKind::kOnDemand)
          .fits_quota);
  EXPECT_EQ(AccountFitWarning(CheckPlanAgainstAccount(enough, Left(enough), p5, 2, "us-east-1",
                                                      PurchaseKind::kOnDemand),
                              p5, "us-east-1"),
            "");
  // G and VT covers g6e.
  const AccountFit g = CheckPlanAgainstAccount(s, Left(s), Type("g6e.48xlarge"), 1, "us-east-1",
                                               PurchaseKind::kOnDemand);
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
  const AccountFit p5 = CheckPlanAgainstAccount(s, Left(s), Type("p5.48xlarge"), 1, "us-east-1",
                                                PurchaseKind::kOnDemand);
  ASSERT_TRUE(p5.zones.has_value());
  EXPECT_FALSE(p5.obtainable());
  EXPECT_NE(AccountFitWarning(p5, Type("p5.48xlarge"), "us-east-1").find("not offered"),
            std::string::npos);
  EXPECT_TRUE(CheckPlanAgainstAccount(s, Left(s), Type("p4d.24xlarge"), 1, "us-east-1",
                                      PurchaseKind::kOnDemand)
                  .obtainable());
}

TEST(AccountTest, ReservedInstancesAreCapacityAlreadyPaidFor) {
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-1", "p4d.24xlarge", "us-east-1", "", 2, "2027-03-01", "standard"});
  s.savings_plans.push_back({"sp-1", "EC2Instance", "p4d", "us-east-1", 12.5, "2029-01-01"});
  const InstanceType& p4d = Type("p4d.24xlarge");
  const AccountFit fit =
      CheckPlanAgainstAccount(s, Left(s), p4d, 4, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_EQ(fit.reserved_instances, 2);
  EXPECT_DOUBLE_EQ(fit.paid_fraction(4), 0.5);
  EXPECT_EQ(fit.savings_plans, (std::vector<std::string>{"sp-1"}));
  // The catalog has no Savings Plans rate for p4d: the plan's dollars cannot be counted.
  EXPECT_DOUBLE_EQ(fit.coverage.savings_plan_instances, 0);
  const std::vector<std::string> why = AccountFitWhy(fit, 4, 1000);
  ASSERT_EQ(why.size(), 2u);
  EXPECT_NE(why[1].find("adds $500.00"), std::string::npos) << why[1];
  // Spot plans use neither; another region's reservations do not count.
  const AccountFit spot =
      CheckPlanAgainstAccount(s, Left(s), p4d, 4, "us-east-1", PurchaseKind::kSpot);
  EXPECT_DOUBLE_EQ(spot.paid_fraction(4), 0);
  EXPECT_TRUE(spot.savings_plans.empty());
  EXPECT_EQ(CheckPlanAgainstAccount(s, Left(s), p4d, 4, "us-west-2", PurchaseKind::kOnDemand)
                .reserved_instances,
            0);
}

// DescribeInstances as the AWS CLI prints it with the scan's --query (the API's shape, only the
// fields kept): on demand a p5 and a p3, a spot p5, a Capacity Block p5 (no quota), and a type
// the catalog does not know, counted by its CpuOptions.
constexpr const char* kRunning = R"({"Reservations": [
  {"Instances": [{"InstanceType": "p5.48xlarge", "InstanceLifecycle": null,
                  "CpuOptions": {"CoreCount": 96, "ThreadsPerCore": 2}},
                 {"InstanceType": "p3.16xlarge", "InstanceLifecycle": null, "CpuOptions": null}]},
  {"Instances": [{"InstanceType": "p5.48xlarge", "InstanceLifecycle": "spot"}]},
  {"Instances": [{"InstanceType": "p5.48xlarge", "InstanceLifecycle": "capacity-block"}]},
  {"Instances": [{"InstanceType": "m7i.large", "CpuOptions": {"CoreCount": 1, "ThreadsPerCore": 2}}]}]})";

TEST(AccountTest, RunningInstancesTakeFromTheQuota) {
  AccountScan s = ScanWithPQuota(384, 192);
  ASSERT_TRUE(
      AddRunningInstances(kRunning, "i", "us-east-1", &testing::EmbeddedForTests(), &s).ok());
  EXPECT_EQ(s.running_scanned, (std::vector<std::string>{"us-east-1"}));
  ASSERT_EQ(s.running.size(), 4u);  // p3, p5, spot p5, m7i; the Capacity Block left out
  double m7i = 0;
  for (const RunningInstances& ri : s.running) {
    if (ri.instance_type == "m7i.large") m7i = ri.vcpus;
  }
  EXPECT_DOUBLE_EQ(m7i, 2);
  const InstanceType& p5 = Type("p5.48xlarge");
  const AccountFit fit =
      CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_TRUE(fit.usage_known);
  EXPECT_DOUBLE_EQ(fit.used_vcpus,
                   256);  // 192 + 64; the spot and Standard ones are not P on demand
  EXPECT_EQ(fit.running_instances, 2);
  EXPECT_DOUBLE_EQ(fit.free_vcpus(), 128);
  EXPECT_FALSE(fit.fits_quota);  // 192 needed, 384 quota, but only 128 free
  const std::string line = AccountFitWarning(fit, p5, "us-east-1");
  EXPECT_NE(line.find("needs 192 vCPUs"), std::string::npos) << line;
  EXPECT_NE(line.find("quota 384, 256 in use by 2 running instances, so 128 free"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("--desired-value 448"), std::string::npos) << line;  // room beside them
  // Capacity Blocks take no vCPU quota: where the type is sold that way, they are named, with
  // the soonest offer when `catalog update --aws` read one.
  EXPECT_NE(line.find("or buy a Capacity Block (offered for p5.48xlarge in us-east-1), which "
                      "takes no vCPU quota"),
            std::string::npos)
      << line;
  InstanceType offered = p5;
  for (RegionOffer& o : offered.regions) {
    if (o.region == "us-east-1" && o.capacity_block) {
      o.capacity_block->note =
          "soonest offer: 1 x p5.48xlarge for 24 h from 2026-12-08T11:30:00Z in us-east-1b";
    }
  }
  const std::string with_offer = AccountFitWarning(fit, offered, "us-east-1");
  EXPECT_NE(with_offer.find("in us-east-1; soonest offer: 1 x p5.48xlarge for 24 h from "
                            "2026-12-08T11:30:00Z in us-east-1b)"),
            std::string::npos)
      << with_offer;
  EXPECT_EQ(AccountFitWarning(fit, Type("p3.2xlarge"), "us-east-1").find("Capacity Block"),
            std::string::npos);
  // The spot quota (192) holds the spot p5 already: nothing left for another.
  const AccountFit spot =
      CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kSpot);
  EXPECT_DOUBLE_EQ(spot.used_vcpus, 192);
  EXPECT_FALSE(spot.fits_quota);
  // A smaller plan fits in what is free.
  EXPECT_TRUE(CheckPlanAgainstAccount(s, Left(s), Type("p3.16xlarge"), 2, "us-east-1",
                                      PurchaseKind::kOnDemand)
                  .fits_quota);
  // The scan file keeps the usage; a scan written before usage was read still loads, unknown.
  Result<AccountScan> back = ParseAccountScan(AccountScanToJson(s), "scan.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(AccountScanToJson(*back), AccountScanToJson(s));
  std::string old = AccountScanToJson(ScanWithPQuota(384));
  const size_t at = old.find("  \"running\"");
  ASSERT_NE(at, std::string::npos);
  old.erase(at, old.find("  \"failures\"") - at);
  Result<AccountScan> older = ParseAccountScan(old, "old.json");
  ASSERT_TRUE(older.ok()) << older.status().ToString();
  const AccountFit unknown =
      CheckPlanAgainstAccount(*older, Left(*older), p5, 1, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_FALSE(unknown.usage_known);
  EXPECT_TRUE(unknown.fits_quota);
  EXPECT_NE(AccountFitWarning(CheckPlanAgainstAccount(*older, Left(*older), p5, 3, "us-east-1",
                                                      PurchaseKind::kOnDemand),
                              p5, "us-east-1")
                .find("not scanned"),
            std::string::npos);
}

TEST(AccountTest, SpotScoreRequestsAreBounded) {
  Result<std::vector<std::pair<std::string, int>>> ok =
      ParseSpotScoreRequests({"p5.48xlarge:2", " g6e.xlarge"});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, (std::vector<std::pair<std::string, int>>{{"p5.48xlarge", 2}, {"g6e.xlarge", 1}}));
  for (const char* bad : {"p5.48xlarge:0", "p5.48xlarge:1.5", "p5.48xlarge:x", "p5", ".x:1"}) {
    Result<std::vector<std::pair<std::string, int>>> r = ParseSpotScoreRequests({bad});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().field(), "spot-scores") << bad;
  }
  EXPECT_FALSE(ParseSpotScoreRequests(std::vector<std::string>(11, "g6e.xlarge")).ok());
  EXPECT_TRUE(ParseSpotScoreRequests(std::vector<std::string>(10, "g6e.xlarge")).ok());
}

// GetSpotPlacementScores as the AWS CLI prints it: 1 x p5 scores 8 in us-east-1, 4 x p5 scores 2
// (per zone: the region's best zone speaks for it when no region score was read).
AccountScan ScanWithSpotScores() {
  AccountScan s = ScanWithPQuota(4096, 4096);
  EXPECT_TRUE(AddSpotPlacementScores(
                  R"({"SpotPlacementScores": [{"Region": "us-east-1", "Score": 8},
                                              {"Region": "us-west-2", "Score": 5}]})",
                  "sps", "p5.48xlarge", 1, "2026-12-05T02:00:00Z", &s)
                  .ok());
  EXPECT_TRUE(AddSpotPlacementScores(R"({"SpotPlacementScores": [
      {"Region": "us-east-1", "AvailabilityZoneId": "use1-az1", "Score": 1},
      {"Region": "us-east-1", "AvailabilityZoneId": "use1-az2", "Score": 2}]})",
                                     "sps", "p5.48xlarge", 4, "2026-12-05T02:00:00Z", &s)
                  .ok());
  return s;
}

TEST(AccountTest, ALowSpotPlacementScoreMakesASpotPlanUnlikely) {
  const AccountScan s = ScanWithSpotScores();
  ASSERT_EQ(s.spot_scores.size(), 4u);
  const InstanceType& p5 = Type("p5.48xlarge");
  const AccountFit one =
      CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kSpot);
  ASSERT_TRUE(one.spot_score.has_value());
  EXPECT_EQ(one.spot_score->score, 8);
  EXPECT_TRUE(one.obtainable());
  EXPECT_EQ(AccountFitWarning(one, p5, "us-east-1"), "");
  const std::vector<std::string> advice = AccountFitAdvice(one, p5, 1, "us-east-1");
  ASSERT_FALSE(advice.empty());
  EXPECT_NE(advice[0].find("spot placement score 8/10 in us-east-1"), std::string::npos);
  // Two instances: the score for 4 (the smallest count covering 2), its best zone's.
  const AccountFit two =
      CheckPlanAgainstAccount(s, Left(s), p5, 2, "us-east-1", PurchaseKind::kSpot);
  ASSERT_TRUE(two.spot_score.has_value());
  EXPECT_EQ(two.spot_score->score, 2);
  EXPECT_EQ(two.spot_score->zone_id, "use1-az2");
  EXPECT_FALSE(two.obtainable());
  const std::string line = AccountFitWarning(two, p5, "us-east-1");
  EXPECT_NE(line.find("spot placement score 2/10 in use1-az2: spot capacity for 4 x p5.48xlarge "
                      "is unlikely"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("on-demand or a Capacity Block"), std::string::npos) << line;
  // A score of exactly 3 is still unlikely; 4 is not.
  AccountScan edge = ScanWithPQuota(4096, 4096);
  ASSERT_TRUE(
      AddSpotPlacementScores(R"({"SpotPlacementScores": [{"Region": "us-east-1", "Score": 3},
      {"Region": "us-west-2", "Score": 4}]})",
                             "sps", "p5.48xlarge", 1, "2026-12-05T02:00:00Z", &edge)
          .ok());
  EXPECT_FALSE(CheckPlanAgainstAccount(edge, Left(edge), p5, 1, "us-east-1", PurchaseKind::kSpot)
                   .obtainable());
  EXPECT_TRUE(CheckPlanAgainstAccount(edge, Left(edge), p5, 1, "us-west-2", PurchaseKind::kSpot)
                  .obtainable());
  // On-demand plans and unscored types are not scored; more instances than any score: the largest.
  EXPECT_FALSE(CheckPlanAgainstAccount(s, Left(s), p5, 1, "us-east-1", PurchaseKind::kOnDemand)
                   .spot_score.has_value());
  EXPECT_FALSE(
      CheckPlanAgainstAccount(s, Left(s), Type("p4d.24xlarge"), 1, "us-east-1", PurchaseKind::kSpot)
          .spot_score.has_value());
  EXPECT_EQ(CheckPlanAgainstAccount(s, Left(s), p5, 8, "us-east-1", PurchaseKind::kSpot)
                .spot_score->count,
            4);
  // The scan file keeps them; a score outside 1-10 is refused.
  Result<AccountScan> back = ParseAccountScan(AccountScanToJson(s), "scan.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(AccountScanToJson(*back), AccountScanToJson(s));
  AccountScan bad;
  EXPECT_FALSE(
      AddSpotPlacementScores(R"({"SpotPlacementScores": [{"Region": "us-east-1", "Score": 11}]})",
                             "sps", "p5.48xlarge", 1, "", &bad)
          .ok());
}

TEST(AccountTest, RecommendRanksAnUnlikelySpotPlanBelowOnDemand) {
  const Workload w =
      testing::MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "20B"}});
  RecommendRequest req;
  req.only_instances = {"p5.48xlarge"};
  req.purchase = {PurchaseKind::kOnDemand, PurchaseKind::kSpot};
  req.max_instances = 1;
  req.top = 5;
  AccountScan s = ScanWithPQuota(4096, 4096);
  req.account = &s;
  Result<Recommendation> free = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(free.ok()) << free.status().ToString();
  ASSERT_FALSE(free->plans.empty());
  EXPECT_EQ(free->plans[0].purchase, PurchaseKind::kSpot);  // the premise: unscored, spot wins
  ASSERT_TRUE(
      AddSpotPlacementScores(R"({"SpotPlacementScores": [{"Region": "us-east-1", "Score": 2}]})",
                             "sps", "p5.48xlarge", 1, "2026-12-05T02:00:00Z", &s)
          .ok());
  Result<Recommendation> scored = Recommend(testing::EmbeddedForTests(), w, req);
  ASSERT_TRUE(scored.ok()) << scored.status().ToString();
  ASSERT_GE(scored->plans.size(), 2u);
  EXPECT_EQ(scored->plans[0].purchase, PurchaseKind::kOnDemand);
  bool warned = false;
  for (const Plan& p : scored->plans) {
    if (p.purchase != PurchaseKind::kSpot) continue;
    for (const std::string& line : p.warnings) {
      warned = warned || line.find("spot placement score 2/10") != std::string::npos;
    }
  }
  EXPECT_TRUE(warned);
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

// --- Issue 37, item 2: commitments counted once. Running on-demand instances use RIs and
// Savings Plans first, in AWS's order; a plan gets what is left.

AccountScan WithRunning(AccountScan s, std::vector<RunningInstances> running) {
  for (RunningInstances& r : running) {
    if (std::find(s.running_scanned.begin(), s.running_scanned.end(), r.region) ==
        s.running_scanned.end()) {
      s.running_scanned.push_back(r.region);
    }
    s.running.push_back(std::move(r));
  }
  return s;
}

TEST(AccountTest, Issue37TwoRisOneRunningPlanOfTwoBillsOne) {
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-1", "p4d.24xlarge", "us-east-1", "", 2, "2027-03-01", "standard"});
  s = WithRunning(
      s, {{.region = "us-east-1", .instance_type = "p4d.24xlarge", .count = 1},
          // A spot instance uses no RI.
          {.region = "us-east-1", .instance_type = "p4d.24xlarge", .spot = true, .count = 3}});
  const Commitments left = Left(s);
  ASSERT_EQ(left.reserved.size(), 1u);
  EXPECT_TRUE(left.reserved[0].size_flexible);
  EXPECT_DOUBLE_EQ(left.reserved[0].units, 384);  // 2 x 24xlarge (192 units each)
  EXPECT_DOUBLE_EQ(left.reserved[0].used, 192);
  const InstanceType& p4d = Type("p4d.24xlarge");
  const AccountFit fit =
      CheckPlanAgainstAccount(s, left, p4d, 2, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_DOUBLE_EQ(fit.coverage.reserved_instances, 1);
  EXPECT_DOUBLE_EQ(fit.coverage.billed_instances, 1);
  EXPECT_DOUBLE_EQ(fit.paid_fraction(2), 0.5);
  const double od = p4d.FindRegion("us-east-1")->on_demand->usd_per_hour;
  const double cost = 2 * od * 720;
  const std::vector<std::string> why = AccountFitWhy(fit, 2, cost);
  ASSERT_EQ(why.size(), 2u);
  EXPECT_EQ(why[0],
            "2 RIs of p4d in us-east-1 (384 units), running instances use 192, 192 left: cover 1 "
            "of the plan's 2 p4d.24xlarge (192 units each)");
  EXPECT_EQ(why[1], "1 billed on-demand at $" + FormatFixed(od, 2) + "/h: the plan adds $" +
                        FormatFixed(od * 720, 2) + " to the bill, not $" + FormatFixed(cost, 2));
  // Without the running instance both are covered; with two running, none.
  AccountScan idle = s;
  idle.running.erase(idle.running.begin());
  EXPECT_DOUBLE_EQ(
      CheckPlanAgainstAccount(idle, Left(idle), p4d, 2, "us-east-1", PurchaseKind::kOnDemand)
          .paid_fraction(2),
      1);
  AccountScan busy = s;
  busy.running[0].count = 2;
  EXPECT_DOUBLE_EQ(
      CheckPlanAgainstAccount(busy, Left(busy), p4d, 2, "us-east-1", PurchaseKind::kOnDemand)
          .paid_fraction(2),
      0);
}

TEST(AccountTest, NormalizationUnitsFollowAwsTable) {
  const Catalog* c = &testing::EmbeddedForTests();
  EXPECT_EQ(NormalizationUnits("t3.nano", c), 0.25);
  EXPECT_EQ(NormalizationUnits("t3.medium", c), 2);
  EXPECT_EQ(NormalizationUnits("g5.xlarge", c), 8);
  EXPECT_EQ(NormalizationUnits("g5.12xlarge", c), 96);
  EXPECT_EQ(NormalizationUnits("p4d.24xlarge", c), 192);
  EXPECT_EQ(NormalizationUnits("p5.48xlarge", c), 384);
  EXPECT_EQ(NormalizationUnits("c7i.metal-24xl", c), 192);
  // metal: the family's largest size (g4dn.16xlarge in the catalog).
  EXPECT_EQ(NormalizationUnits("g4dn.metal", c), 128);
  EXPECT_EQ(NormalizationUnits("g4dn.metal", nullptr), std::nullopt);
  EXPECT_EQ(NormalizationUnits("p4d.huge", c), std::nullopt);
}

TEST(AccountTest, RegionalRisAreSizeFlexibleWithinTheFamily) {
  // One g5.12xlarge RI is 96 units: 4 running g5.xlarge use 32, 64 left cover 8 more.
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-g5", "g5.12xlarge", "us-east-1", "", 1, "2027-03-01", "convertible"});
  s = WithRunning(s, {{.region = "us-east-1", .instance_type = "g5.xlarge", .count = 4}});
  const AccountFit fit = CheckPlanAgainstAccount(s, Left(s), Type("g5.xlarge"), 10, "us-east-1",
                                                 PurchaseKind::kOnDemand);
  EXPECT_DOUBLE_EQ(fit.coverage.reserved_instances, 8);
  EXPECT_DOUBLE_EQ(fit.coverage.billed_instances, 2);
  // A larger size is covered in part: 64 of the 192 units of a g5.24xlarge.
  const AccountFit big = CheckPlanAgainstAccount(s, Left(s), Type("g5.24xlarge"), 1, "us-east-1",
                                                 PurchaseKind::kOnDemand);
  EXPECT_NEAR(big.coverage.reserved_instances, 64.0 / 192, 1e-12);
  // Another family, another region: nothing.
  EXPECT_DOUBLE_EQ(CheckPlanAgainstAccount(s, Left(s), Type("g6.xlarge"), 1, "us-east-1",
                                           PurchaseKind::kOnDemand)
                       .paid_fraction(1),
                   0);
  EXPECT_DOUBLE_EQ(CheckPlanAgainstAccount(s, Left(s), Type("g5.xlarge"), 1, "us-west-2",
                                           PurchaseKind::kOnDemand)
                       .paid_fraction(1),
                   0);
}

TEST(AccountTest, AZonalRiCoversOnlyItsZoneAndExactType) {
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-z", "g5.12xlarge", "us-east-1", "us-east-1a", 1, "2027-03-01", ""});
  // Running in another zone: the zonal RI stays unused.
  AccountScan other = WithRunning(
      s,
      {{.region = "us-east-1", .instance_type = "g5.12xlarge", .zone = "us-east-1b", .count = 1}});
  const Commitments left = Left(other);
  ASSERT_EQ(left.reserved.size(), 1u);
  EXPECT_FALSE(left.reserved[0].size_flexible);
  EXPECT_DOUBLE_EQ(left.reserved[0].used, 0);
  const AccountFit fit = CheckPlanAgainstAccount(other, left, Type("g5.12xlarge"), 2, "us-east-1",
                                                 PurchaseKind::kOnDemand);
  EXPECT_DOUBLE_EQ(fit.coverage.reserved_instances, 1);
  ASSERT_FALSE(fit.coverage.lines.empty());
  EXPECT_NE(fit.coverage.lines[0].find("if it runs in us-east-1a"), std::string::npos);
  // Not size-flexible: no other size of the family.
  EXPECT_DOUBLE_EQ(CheckPlanAgainstAccount(other, left, Type("g5.xlarge"), 1, "us-east-1",
                                           PurchaseKind::kOnDemand)
                       .paid_fraction(1),
                   0);
  // Running in its zone: used up.
  AccountScan same = WithRunning(
      s,
      {{.region = "us-east-1", .instance_type = "g5.12xlarge", .zone = "us-east-1a", .count = 1}});
  EXPECT_DOUBLE_EQ(CheckPlanAgainstAccount(same, Left(same), Type("g5.12xlarge"), 2, "us-east-1",
                                           PurchaseKind::kOnDemand)
                       .paid_fraction(2),
                   0);
}

// The embedded catalog with Savings Plans rates (1 year, no upfront) for a few types in us-east-1.
Catalog CatalogWithSavingsPlanRates() {
  Catalog c = testing::EmbeddedForTests();
  const auto add = [&c](const std::string& name, double ec2_instance, double compute) {
    InstanceType t = *c.FindInstanceType(name);
    for (RegionOffer& o : t.regions) {
      if (o.region != "us-east-1") continue;
      o.savings_plans.push_back({"compute", 1, "no-upfront", compute, {}});
      o.savings_plans.push_back({"ec2-instance", 1, "no-upfront", ec2_instance, {}});
    }
    c.PutInstanceType(std::move(t));
  };
  add("g5.xlarge", 0.60, 0.70);   // on demand 1.006: 40 % (EC2 Instance), 30 % (Compute)
  add("g5.2xlarge", 0.90, 1.00);  // on demand 1.212: 26 % (EC2 Instance)
  add("p4d.24xlarge", 12.0, 14.0);
  return c;
}

TEST(AccountTest, SavingsPlansEc2InstanceFirstThenComputeHighestDiscountFirst) {
  const Catalog catalog = CatalogWithSavingsPlanRates();
  AccountScan s = ScanWithPQuota(1000);
  // Listed Compute first: the order of application is AWS's, not the scan's.
  s.savings_plans.push_back({"sp-compute", "Compute", "", "", 14.0, "2029-01-01"});
  s.savings_plans.push_back({"sp-g5", "EC2Instance", "g5", "us-east-1", 0.60, "2029-01-01"});
  s = WithRunning(
      s, {{.region = "us-east-1", .instance_type = "g5.2xlarge", .count = 1},
          {.region = "us-east-1", .instance_type = "g5.xlarge", .count = 1},
          {.region = "us-east-1", .instance_type = "g5.xlarge", .spot = true, .count = 5}});
  const Commitments left = ApplyCommitmentsToRunning(s, catalog);
  ASSERT_EQ(left.savings_plans.size(), 2u);
  EXPECT_EQ(left.savings_plans[0].id, "sp-g5");
  // The EC2 Instance plan's $0.60 goes to g5.xlarge (40 % off) before g5.2xlarge (26 %): all of
  // it. The Compute plan then pays the g5.2xlarge at its $1.00 rate; the spot ones use nothing.
  EXPECT_NEAR(left.savings_plans[0].used_usd_per_hour, 0.60, 1e-9);
  EXPECT_NEAR(left.savings_plans[1].used_usd_per_hour, 1.00, 1e-9);
  // A p4d plan: the Compute plan's $13.00 left covers 13/14 of one instance at $14.00/h.
  const InstanceType& p4d = *catalog.FindInstanceType("p4d.24xlarge");
  const AccountFit fit =
      CheckPlanAgainstAccount(s, left, p4d, 2, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_NEAR(fit.coverage.savings_plan_instances, 13.0 / 14, 1e-9);
  EXPECT_NEAR(fit.coverage.billed_instances, 2 - 13.0 / 14, 1e-9);
  ASSERT_EQ(fit.coverage.lines.size(), 2u);
  EXPECT_EQ(fit.coverage.lines[0],
            "Savings Plan sp-compute (Compute) $14.00/h, running instances use $1.00/h, $13.00/h "
            "left: covers 0.93 of the plan's 2 at $14.00/h");
  // A g5.xlarge plan: nothing is left of the EC2 Instance plan; the Compute plan covers it.
  const AccountFit g5 = CheckPlanAgainstAccount(s, left, *catalog.FindInstanceType("g5.xlarge"), 1,
                                                "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_DOUBLE_EQ(g5.coverage.savings_plan_instances, 1);
  ASSERT_FALSE(g5.coverage.lines.empty());
  EXPECT_NE(g5.coverage.lines[0].find("sp-compute"), std::string::npos);
}

TEST(AccountTest, RisApplyBeforeSavingsPlans) {
  const Catalog catalog = CatalogWithSavingsPlanRates();
  AccountScan s = ScanWithPQuota(1000);
  s.reserved.push_back({"ri-1", "p4d.24xlarge", "us-east-1", "", 1, "2027-03-01", "standard"});
  s.savings_plans.push_back({"sp-p4d", "EC2Instance", "p4d", "us-east-1", 12.0, "2029-01-01"});
  s = WithRunning(s, {{.region = "us-east-1", .instance_type = "p4d.24xlarge", .count = 1}});
  // The running p4d uses the RI; the Savings Plan is left whole for the plan.
  const Commitments left = ApplyCommitmentsToRunning(s, catalog);
  EXPECT_DOUBLE_EQ(left.reserved[0].left(), 0);
  EXPECT_DOUBLE_EQ(left.savings_plans[0].used_usd_per_hour, 0);
  const AccountFit fit = CheckPlanAgainstAccount(s, left, *catalog.FindInstanceType("p4d.24xlarge"),
                                                 2, "us-east-1", PurchaseKind::kOnDemand);
  EXPECT_DOUBLE_EQ(fit.coverage.reserved_instances, 0);
  EXPECT_DOUBLE_EQ(fit.coverage.savings_plan_instances, 1);
  EXPECT_DOUBLE_EQ(fit.paid_fraction(2), 0.5);
}

}  // namespace
}  // namespace gpuadvisor
