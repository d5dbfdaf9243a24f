// AWS names and the AWS CLI argument check (util/aws_names.h): issue 43, findings 1 and 2.
#include "util/aws_names.h"

#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/catalog.h"

namespace gpuadvisor {
namespace {

TEST(AwsNames, InstanceTypesOfEveryShapeAwsSells) {
  for (const char* ok : {"p5.48xlarge", "p6-b200.48xlarge", "u7i-6tb.112xlarge", "m7i.metal-48xl",
                         "g4dn.metal", "trn2u.48xlarge", "inf2.xlarge", "dl2q.24xlarge"}) {
    EXPECT_TRUE(IsInstanceTypeName(ok)) << ok;
    EXPECT_EQ(InstanceTypeNameProblem(ok), "") << ok;
  }
  for (const char* bad :
       {"", "p5", ".48xlarge", "p5.", "p5..48xlarge", "p5.48xlarge.x", "P5.48xlarge",
        "p5.48xlarge --endpoint-url http://x", "-p5.48xlarge", "p5-.48xlarge", "p--5.large",
        "p5.48xlarge\n", "file:///etc/passwd", "5p.large", "p5.48xlarge-"}) {
    EXPECT_FALSE(IsInstanceTypeName(bad)) << bad;
  }
  EXPECT_FALSE(IsInstanceTypeName(std::string(40, 'p') + "." + std::string(30, 'x')));
}

TEST(AwsNames, RegionsFamiliesZonesAndTokens) {
  for (const char* ok : {"us-east-1", "us-gov-west-1", "cn-north-1", "ap-southeast-5"}) {
    EXPECT_TRUE(IsRegionCode(ok)) << ok;
  }
  for (const char* bad :
       {"", "us-east-1-atl-1", "US-east-1", "us-east", "us-east-1 --x", "u-e-1"}) {
    EXPECT_FALSE(IsRegionCode(bad)) << bad;
  }
  EXPECT_TRUE(IsInstanceFamilyName("p6-b200"));
  EXPECT_FALSE(IsInstanceFamilyName("p6 b200"));
  EXPECT_TRUE(IsAzId("use1-az1"));
  EXPECT_TRUE(IsAzId("use1-atl2-az1"));
  EXPECT_FALSE(IsAzId("use1-az"));
  EXPECT_FALSE(IsAzId("us-east-1a; rm"));
  EXPECT_TRUE(IsPageToken("AAEAAZmV4dA+/==_.~-x"));
  for (const char* bad : {"", "-x", "--endpoint-url", "a b", "file:///x", "x\n"}) {
    EXPECT_FALSE(IsPageToken(bad)) << bad;
  }
  EXPECT_FALSE(IsPageToken(std::string(8193, 'a')));
}

TEST(AwsNames, TheRunnerRefusesWhatTheAwsCliWouldReadOrRedirect) {
  for (const char* ok : {"ec2", "describe-spot-price-history", "--instance-types", "p5.48xlarge",
                         "Type=TERM_MATCH,Field=instanceFamily,Value=GPU instance",
                         "2026-12-04T09:30:00Z", "name=region,values=us-east-1",
                         "Reservations[].{Instances: Instances[].{InstanceType: InstanceType}}"}) {
    EXPECT_EQ(AwsArgumentProblem(ok), "") << ok;
  }
  for (const char* bad : {"file:///home/u/.aws/credentials",
                          "fileb://key.pem",
                          "http://attacker/",
                          "HTTPS://x",
                          "--endpoint-url",
                          "--profile",
                          "--region",
                          "--output",
                          "--ca-bundle",
                          "--no-verify-ssl",
                          "--no-sign-request",
                          "--debug",
                          "--cli-input-json",
                          "--cli-read-timeout",
                          "-x",
                          "--",
                          "--a=b",
                          "a\nb",
                          "a\x1b[31mb",
                          "\xff"}) {
    EXPECT_NE(AwsArgumentProblem(bad), "") << bad;
  }
  EXPECT_EQ(AwsArgumentsProblem({"ec2", "describe-instances"}), "");
  const std::string p = AwsArgumentsProblem({"ec2", "x", "--endpoint-url", "http://a"});
  EXPECT_EQ(p.rfind("argument 3: expected", 0), 0u) << p;
  // What is refused is shown safely.
  EXPECT_EQ(AwsArgumentProblem("a\x1b[31m").find('\x1b'), std::string::npos);
}

// The catalog is a door: a name outside AWS's grammar is refused where the file is read, with
// its JSON path, so it can never reach an AWS CLI command line.
TEST(AwsNames, TheCatalogLoaderRefusesAHostileName) {
  Result<std::shared_ptr<const Catalog>> e = EmbeddedCatalog();
  ASSERT_TRUE(e.ok());
  const std::string json = CatalogToJson(**e);
  ASSERT_TRUE(ParseCatalogJson(json, "catalog.json").ok());
  struct Case {
    std::string from, to, where;
  };
  for (const Case& c :
       {Case{"\"instance_type\": \"p5.48xlarge\"",
             "\"instance_type\": \"p9.48xlarge --endpoint-url http://127.0.0.1:9 --instance-type "
             "file:///root/.aws/credentials\"",
             ".instance_type: expected an EC2 instance type"},
        Case{"\"family\": \"p5\"", "\"family\": \"p5 --debug\"",
             ".family: expected an instance family"},
        Case{"\"region\": \"us-east-1\"", "\"region\": \"us-east-1 --endpoint-url\"",
             ".region: expected an AWS region code"}}) {
    std::string hostile = json;
    const size_t at = hostile.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    hostile.replace(at, c.from.size(), c.to);
    Result<Catalog> r = ParseCatalogJson(hostile, "catalog.json");
    ASSERT_FALSE(r.ok()) << c.to;
    EXPECT_NE(r.status().message().find(c.where), std::string::npos) << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace gpuadvisor
