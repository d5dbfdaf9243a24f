// The per-family facts (data/family-facts.json): every family of the embedded catalog has an
// entry, the file's faults are named by path, and the quota groups and images resolve.
#include "catalog/family_facts.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/catalog.h"

namespace gpuadvisor {
namespace {

const FamilyFactsTable& Table() {
  Result<const FamilyFactsTable*> t = EmbeddedFamilyFacts();
  EXPECT_TRUE(t.ok()) << t.status().message();
  return **t;
}

// A family added to the catalog without its facts would launch on a guessed image and warn of no
// quota: the drift fails here, naming the family.
TEST(FamilyFactsTest, EveryCatalogFamilyHasAnEntry) {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  ASSERT_TRUE(c.ok());
  for (const InstanceType& t : (*c)->instance_types()) {
    EXPECT_NE(Table().Find(t.family), nullptr)
        << t.family << " (" << t.name << ") has no entry in data/family-facts.json";
  }
}

TEST(FamilyFactsTest, QuotaGroupsAndImagesResolve) {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  ASSERT_TRUE(c.ok());
  const auto quota_of = [&](const char* type) {
    const VcpuQuota* q = VcpuQuotaOf(*(*c)->FindInstanceType(type));
    return q == nullptr ? std::string("none") : q->on_demand_code;
  };
  EXPECT_EQ(quota_of("p5.48xlarge"), "L-417A185B");
  EXPECT_EQ(quota_of("g6e.xlarge"), "L-DB2E81BA");
  EXPECT_EQ(quota_of("vt1.3xlarge"), "L-DB2E81BA");
  EXPECT_EQ(quota_of("inf2.xlarge"), "L-1945791B");
  EXPECT_EQ(quota_of("trn1.32xlarge"), "L-2C3B7624");
  EXPECT_EQ(quota_of("f2.12xlarge"), "L-74FC7D96");
  // The UltraServer's hosts are P instances; the letters before its digit ("u") named none.
  EXPECT_EQ(quota_of("u-p6e-gb200x72"), "L-417A185B");
  InstanceType unknown;
  unknown.family = "zz9";
  EXPECT_EQ(VcpuQuotaOf(unknown), nullptr);

  const MachineImage* dlami = Table().FindImage("nvidia-dlami");
  ASSERT_NE(dlami, nullptr);
  EXPECT_EQ(dlami->ParameterFor("arm64"),
            "/aws/service/deeplearning/ami/arm64/base-oss-nvidia-driver-gpu-ubuntu-22.04/latest/"
            "ami-id");
  const MachineImage* ubuntu = Table().FindImage("ubuntu");
  ASSERT_NE(ubuntu, nullptr);
  EXPECT_NE(ubuntu->ParameterFor("x86_64").find("/current/amd64/"), std::string::npos);
  EXPECT_EQ(Table().ImageOf(*Table().Find("inf1")).id, "neuron-dlami");
  EXPECT_NE(Table().Find("inf1")->note.find("SDK 2.26"), std::string::npos);
}

TEST(FamilyFactsTest, FaultsAreNamedByPath) {
  const std::string head = R"({"snapshot_date": "2026-12-06",
    "quota_groups": [{"id": "p", "on_demand": "P", "on_demand_code": "L-1", "spot": "PS",
                      "spot_code": "L-2", "accelerated": true}],
    "images": [{"id": "ubuntu", "name": "Ubuntu", "ssm_parameter": "/x/{arch}", "provides": ""}],
    "families": [)";
  const auto parse = [&](const std::string& families) {
    return ParseFamilyFacts(head + families + "]}", "f.json");
  };
  const std::string p5 = R"({"family": "p5", "quota_group": "p", "image": "ubuntu",
                             "image_lists_family": false})";
  ASSERT_TRUE(parse(p5).ok()) << parse(p5).status().message();
  EXPECT_EQ(parse(p5)->families.size(), 1U);

  Result<FamilyFactsTable> r = parse(R"({"family": "p5", "quota_group": "q", "image": "ubuntu",
                                          "image_lists_family": false})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("f.json: $.families[0].quota_group: expected the id"),
            std::string::npos)
      << r.status().message();
  r = parse(R"({"family": "p5", "quota_group": "p", "image": "dlami", "image_lists_family": 1})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("image_lists_family"), std::string::npos)
      << r.status().message();
  r = parse(p5 + "," + p5);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("$.families[1]: family \"p5\" listed twice"),
            std::string::npos)
      << r.status().message();
  r = parse(R"({"quota_group": "p", "image": "ubuntu", "image_lists_family": true})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("family"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace gpuadvisor
