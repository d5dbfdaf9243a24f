// `catalog update` in the library (gpuadvisor/catalog_update.h) against a loopback fake: a region
// streamed through the price-list reader, validators and 304, retries on 5xx, and a region
// whose body is cut short keeping its old prices. The CLI's end-to-end test is
// tests/cli/update_test.sh (with tests/cli/fake_aws_pricing.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "gpuadvisor/catalog_update.h"
#include "testutil/fake_http.h"
#include "util/aws_names.h"
#include "util/byte_pipe.h"
#include "util/files.h"

namespace gpuadvisor {
namespace {

using testing::FakeHttpServer;

std::string Fixture(const std::string& name) { return std::string(IMPORT_FIXTURES) + "/" + name; }

const RegionOffer* Offer(const Catalog& c, const std::string& type, const std::string& region) {
  const InstanceType* t = c.FindInstanceType(type);
  return t ? t->FindRegion(region) : nullptr;
}

TEST(CatalogUpdate, RegionsFromAwsConfig) {
  const std::string config =
      "[default]\nregion = us-east-1\noutput=json\n\n[profile eu]\nregion=eu-west-1\n"
      "  region  =  us-east-1  \n# region = ap-south-1 is a comment: no '=' at its start\n"
      "sso_region = us-west-2\n";
  EXPECT_EQ(RegionsFromAwsConfig(config), (std::vector<std::string>{"us-east-1", "eu-west-1"}));
  EXPECT_TRUE(RegionsFromAwsConfig("").empty());
}

TEST(CatalogUpdate, CacheRoundTrips) {
  UpdateCache c;
  c.catalog_generated_at = "2026-12-04T10:00:00Z";
  c.urls["http://x/a.csv"] = {"\"abc\"", "Tue, 01 Dec 2026 00:00:00 GMT"};
  c.all_regions = {"eu-west-1", "us-east-1"};
  Result<UpdateCache> back = ParseUpdateCache(UpdateCacheToJson(c), "cache.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->catalog_generated_at, c.catalog_generated_at);
  EXPECT_EQ(back->urls["http://x/a.csv"].etag, "\"abc\"");
  EXPECT_EQ(back->all_regions, c.all_regions);
  EXPECT_FALSE(ParseUpdateCache("[1]", "cache.json").ok());
}

TEST(CatalogUpdate, BytePipeHandsOverInOrderAndReportsTheProducersError) {
  BytePipe pipe(16);
  std::thread producer([&] {
    for (int i = 0; i < 100; ++i) pipe.Write(std::to_string(i % 10));
    pipe.Finish(Status::IOError("cut short"));
  });
  std::string got;
  char buf[7];
  Status st;
  for (size_t n; (n = pipe.Read(buf, sizeof buf, &st)) > 0;) got.append(buf, n);
  producer.join();
  ASSERT_EQ(got.size(), 100u);
  EXPECT_EQ(got.substr(0, 12), "012345678901");
  EXPECT_EQ(st.message(), "cut short");
}

// Serves the fixture offer file (us-east-1 p5.48xlarge) as us-east-1 and eu-west-1 (its rows
// say us-east-1 either way, so each file is told apart only by how it is served).
class UpdateFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::string> csv = ReadFile(Fixture("price-list-p5.csv"), kCatalogFile);
    ASSERT_TRUE(csv.ok());
    csv_ = *csv;
    Result<std::string> spot = ReadFile(Fixture("spot-advisor-trimmed.json"), kCatalogFile);
    ASSERT_TRUE(spot.ok());
    spot_ = *spot;
    Result<std::shared_ptr<const Catalog>> e = EmbeddedCatalog();
    ASSERT_TRUE(e.ok());
    catalog_ = **e;
    catalog_.generated_at = "2026-12-04T00:00:00Z";
  }
  UpdateSettings Settings(const FakeHttpServer& fake) const {
    UpdateSettings s;
    s.regions = {"us-east-1"};
    s.pricing_base = s.spot_base = fake.url();
    s.timeout_s = 30;
    s.retries = 2;
    s.today = "2026-12-04";
    s.sleep = [](double) {};
    return s;
  }
  FakeHttpServer::Reply File(const std::string& body) const {
    FakeHttpServer::Reply r = FakeHttpServer::Reply::Body(body);
    r.headers = {"ETag: \"v1\"", "Last-Modified: Tue, 01 Dec 2026 00:00:00 GMT"};
    return r;
  }
  std::string csv_, spot_;
  Catalog catalog_;
};

TEST_F(UpdateFixture, StreamsARegionRetriesA503AndThenCostsA304) {
  int failures = 1;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    for (const std::string& h : r.headers) {
      if (h == "If-None-Match: \"v1\"") {
        FakeHttpServer::Reply same;
        same.status = 304;
        return same;
      }
    }
    if (r.target.find("us-east-1/index.csv") != std::string::npos && failures-- > 0) {
      FakeHttpServer::Reply busy = FakeHttpServer::Reply::Body("SlowDown");
      busy.status = 503;
      return busy;
    }
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, Settings(fake), &cache, &report).ok());
  ASSERT_TRUE(report.failed.empty()) << report.outcomes[0].error;
  ASSERT_EQ(report.outcomes.size(), 2u);
  EXPECT_EQ(report.outcomes[0].result, "updated");
  EXPECT_EQ(report.outcomes[0].requests, 2);         // a 503, then the file
  EXPECT_EQ(report.outcomes[0].date, "2026-11-20");  // the file's Publication Date
  EXPECT_EQ(report.outcomes[1].date, "2026-12-01");  // the feed's Last-Modified day
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "us-east-1");
  ASSERT_TRUE(o && o->on_demand);
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, 61.77);
  EXPECT_EQ(cache.urls[fake.url() + "/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv"].etag,
            "\"v1\"");

  // The same catalog again (as the CLI keeps it, generated_at recorded): 304s, nothing changes.
  cache.catalog_generated_at = catalog_.generated_at;
  CatalogUpdateReport again;
  ASSERT_TRUE(UpdateCatalog(&catalog_, Settings(fake), &cache, &again).ok());
  EXPECT_FALSE(again.changed);
  for (const UpdateOutcome& x : again.outcomes) EXPECT_EQ(x.result, "not-modified") << x.what;
}

// AWS China's price list lives under /offers/v1.0/cn/ on its own host, in CNY: the update asks
// there for a China region, and its yuan prices land in the China region, as yuan.
TEST_F(UpdateFixture, AChinaRegionComesFromTheChinaPriceListInYuan) {
  std::string cny = csv_;
  for (auto [from, to] : {std::pair<std::string, std::string>{"us-east-1", "cn-northwest-1"},
                          {"\"USD\"", "\"CNY\""}}) {
    for (size_t at = cny.find(from); at != std::string::npos; at = cny.find(from, at + to.size())) {
      cny.replace(at, from.size(), to);
    }
  }
  std::vector<std::string> asked;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    asked.push_back(r.target);
    if (r.target == "/offers/v1.0/cn/AmazonEC2/current/cn-northwest-1/index.csv") return File(cny);
    if (r.target == "/spot-advisor-data.json") return File(spot_);
    FakeHttpServer::Reply missing = FakeHttpServer::Reply::Body("no such file");
    missing.status = 404;
    return missing;
  });
  UpdateSettings s = Settings(fake);
  s.pricing_base_cn = fake.url();
  s.regions = {"cn-northwest-1"};
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, s, &cache, &report).ok());
  ASSERT_TRUE(report.failed.empty()) << report.outcomes[0].error;
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "cn-northwest-1");
  ASSERT_TRUE(o && o->on_demand);
  EXPECT_EQ(o->currency(), Currency::kCny);
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, 61.77);  // the file's CNY figure, not converted
  // The us-west-2 rows of the file are in CNY too, not their region's currency: skipped, said.
  bool said = false;
  for (const std::string& n : report.outcomes[0].notes) {
    said |= n.find("another currency") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_EQ(asked.front(), "/offers/v1.0/cn/AmazonEC2/current/cn-northwest-1/index.csv");
}

TEST_F(UpdateFixture, ARegionCutShortKeepsItsPricesAndIsNamed) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    FakeHttpServer::Reply reply = File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
    if (r.target.find("eu-west-1") != std::string::npos) {
      reply.content_length = csv_.size() * 2;  // announced, never sent
    }
    return reply;
  });
  const Catalog before = catalog_;
  UpdateSettings s = Settings(fake);
  s.regions = {"eu-west-1"};
  s.timeout_s = 1;  // the fake keeps the connection open: the deadline ends each try
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, s, &cache, &report).ok());
  EXPECT_EQ(report.failed, std::vector<std::string>{"eu-west-1"});
  EXPECT_EQ(report.outcomes[0].requests, 3);  // bounded: the first try and 2 retries
  // The cut file's rows (us-east-1's p5 price) were not merged.
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "us-east-1");
  ASSERT_TRUE(o && o->on_demand);
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour,
                   Offer(before, "p5.48xlarge", "us-east-1")->on_demand->usd_per_hour);
  EXPECT_EQ(
      cache.urls.count(s.pricing_base + "/offers/v1.0/aws/AmazonEC2/current/eu-west-1/index.csv"),
      0u);
}

TEST_F(UpdateFixture, BadRegionsAndEndpointsAreRefused) {
  UpdateSettings s;
  s.regions = {"us-east-1-atl-1"};
  UpdateCache cache;
  CatalogUpdateReport report;
  Status st = UpdateCatalog(&catalog_, s, &cache, &report);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "regions");
  s.regions = {"us-east-1"};
  s.pricing_base = "file:///etc";
  st = UpdateCatalog(&catalog_, s, &cache, &report);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "endpoint");
}

// --- With credentials: each region from the AWS APIs, through a runner (the CLI's is the AWS
// CLI); here a fake one answering with the fixtures in the AWS CLI's JSON.
class AwsUpdate : public UpdateFixture {
 protected:
  // The fixture for a call, by its operation; `fail` names operations that fail.
  Result<std::string> Answer(const AwsCall& call) {
    calls_.push_back(call);
    const std::string& op = call.args.at(1);
    if (fail_.count(op)) return Status::IOError("An error occurred (AccessDenied): not allowed");
    if (op == "get-products") {
      const bool gpu =
          call.args.back() == "Type=TERM_MATCH,Field=instanceFamily,Value=GPU instance";
      return gpu ? Slurp("get-products-p5.json") : std::string(R"({"PriceList": []})");
    }
    if (op == "describe-spot-price-history") return Slurp("spot-history-p5.json");
    if (op == "describe-reserved-instances-offerings") return Slurp("reserved-offerings-p5.json");
    if (op == "describe-capacity-block-offerings") {
      return call.args.at(3) == "p5.48xlarge" ? Slurp("capacity-blocks-p5.json")
                                              : std::string(R"({"CapacityBlockOfferings": []})");
    }
    if (op == "describe-savings-plans-offering-rates") {
      // Two pages: the first points to the second.
      const bool second =
          std::find(call.args.begin(), call.args.end(), "--next-token") != call.args.end();
      if (second) return Slurp("savings-plan-rates-p5.json");
      nlohmann::json first = {{"searchResults", nlohmann::json::array()}, {"nextToken", token_}};
      return first.dump();
    }
    return Status::IOError("unexpected call " + call.Name());
  }
  static std::string Slurp(const std::string& name) {
    return *ReadFile(Fixture(name), kCatalogFile);
  }
  const AwsCall* Call(const std::string& op) const {
    for (const AwsCall& c : calls_) {
      if (c.args.at(1) == op) return &c;
    }
    return nullptr;
  }
  UpdateSettings AwsSettings(const FakeHttpServer& fake) {
    UpdateSettings s = Settings(fake);
    s.aws = [this](const AwsCall& c) { return Answer(c); };
    s.now = "2026-12-04T09:30:00Z";
    return s;
  }
  std::vector<AwsCall> calls_;
  std::set<std::string> fail_;
  std::string token_ = "page-2";  // the first Savings Plans page's nextToken
};

TEST_F(AwsUpdate, EachRegionIsReadFromTheApisInsteadOfTheBulkFile) {
  std::vector<std::string> targets;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    targets.push_back(r.target);
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, AwsSettings(fake), &cache, &report).ok());
  for (const UpdateOutcome& o : report.outcomes)
    EXPECT_EQ(o.result, "updated") << o.what << o.error;
  // Only the public spot-advisor feed came over HTTP: no bulk offer file.
  EXPECT_EQ(targets, std::vector<std::string>{"/spot-advisor-data.json"});
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "us-east-1");
  ASSERT_TRUE(o && o->on_demand && o->spot && o->capacity_block);
  // On demand from the Query API (the fixture's figure, its publication day).
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, 61.77);
  EXPECT_EQ(o->on_demand->from.source, "aws-price-list-query-2026-11-20");
  // Spot observed, in effect on the day of the update (the price was set on the 20th).
  EXPECT_FALSE(o->spot->estimated);
  EXPECT_DOUBLE_EQ(o->spot->usd_per_hour, 18.12);
  EXPECT_EQ(o->spot->from.date, "2026-12-04");
  EXPECT_NE(o->spot->note.find("in effect on 2026-12-04 (set 2026-11-20)"), std::string::npos)
      << o->spot->note;
  // Reserved: EC2's offering (dated the day of the call) over the Query API's older term.
  EXPECT_DOUBLE_EQ(o->FindReserved(1, "standard", "no-upfront")->usd_per_hour, 36.52);
  EXPECT_DOUBLE_EQ(o->capacity_block->usd_per_hour, 802.56 / 24);
  // Savings Plans: both pages read, the rates of the second merged.
  bool compute = false;
  for (const SavingsPlanRate& sp : o->savings_plans) {
    compute = compute || (sp.term() == "compute-1y-no-upfront" && sp.usd_per_hour == 41.23);
  }
  EXPECT_TRUE(compute);
  int sp_calls = 0;
  for (const AwsCall& c : calls_) sp_calls += c.args[1] == "describe-savings-plans-offering-rates";
  EXPECT_EQ(sp_calls, 2);

  // The calls: the Price List and Savings Plans APIs in us-east-1, one Query API call per
  // accelerator family, the region's types named, the spot history as of now.
  const AwsCall* spot = Call("describe-spot-price-history");
  ASSERT_NE(spot, nullptr);
  EXPECT_EQ(spot->region, "us-east-1");
  EXPECT_NE(std::find(spot->args.begin(), spot->args.end(), "2026-12-04T09:30:00Z"),
            spot->args.end());
  EXPECT_NE(std::find(spot->args.begin(), spot->args.end(), "p5.48xlarge"), spot->args.end());
  const AwsCall* query = Call("get-products");
  ASSERT_NE(query, nullptr);
  EXPECT_EQ(query->region, "us-east-1");
  EXPECT_EQ(query->Name(), "aws pricing get-products --region us-east-1");
  int families = 0;
  for (const AwsCall& c : calls_) families += c.args[1] == "get-products";
  EXPECT_GE(families, 2);  // GPU and ML ASIC (Trainium, Inferentia) types are sold there
  // Capacity Blocks asked only for the types sold that way.
  for (const AwsCall& c : calls_) {
    if (c.args[1] != "describe-capacity-block-offerings") continue;
    const InstanceType* t = catalog_.FindInstanceType(c.args[3]);
    ASSERT_NE(t, nullptr);
    EXPECT_TRUE(std::any_of(t->regions.begin(), t->regions.end(),
                            [](const RegionOffer& r) { return r.capacity_block.has_value(); }));
  }
  const auto outcome =
      std::find_if(report.outcomes.begin(), report.outcomes.end(),
                   [](const UpdateOutcome& x) { return x.what == "us-east-1 spot-price-history"; });
  ASSERT_NE(outcome, report.outcomes.end());
  EXPECT_EQ(outcome->url, "aws ec2 describe-spot-price-history --region us-east-1");
  EXPECT_EQ(outcome->date, "2026-12-04");
}

TEST_F(AwsUpdate, AFailedCallKeepsItsPartAndIsNamedWhileTheOthersLand) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  const Catalog before = catalog_;
  fail_ = {"describe-reserved-instances-offerings"};
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, AwsSettings(fake), &cache, &report).ok());
  EXPECT_EQ(report.failed, std::vector<std::string>{"us-east-1 reserved-offerings"});
  const auto failed = std::find_if(report.outcomes.begin(), report.outcomes.end(),
                                   [](const UpdateOutcome& x) { return x.result == "failed"; });
  ASSERT_NE(failed, report.outcomes.end());
  EXPECT_NE(failed->error.find("AccessDenied"), std::string::npos);
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "us-east-1");
  const RegionOffer* was = Offer(before, "p5.48xlarge", "us-east-1");
  // The spot history landed; the 3-year convertible term is not the offerings' figure.
  EXPECT_FALSE(o->spot->estimated);
  const ReservedPrice* conv = o->FindReserved(3, "convertible", "no-upfront");
  const ReservedPrice* conv_was = was->FindReserved(3, "convertible", "no-upfront");
  ASSERT_EQ(conv == nullptr, conv_was == nullptr);
  if (conv != nullptr) {
    EXPECT_NE(conv->from.source.rfind("ec2-reserved-offerings", 0), 0u);
  }
  EXPECT_TRUE(report.changed);
}

// Without the Price List Query API (no pricing:GetProducts permission, still throttled), the
// region's on-demand and RI prices come from its public offer file, which needs none; the
// refusals are still named.
TEST_F(AwsUpdate, WithoutTheQueryApiTheRegionsOfferFileServesInstead) {
  std::vector<std::string> targets;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    targets.push_back(r.target);
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  fail_ = {"get-products"};
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, AwsSettings(fake), &cache, &report).ok());
  EXPECT_NE(std::find(targets.begin(), targets.end(),
                      "/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv"),
            targets.end());
  int refused = 0;
  for (const std::string& f : report.failed) refused += f.find("price-list-query") != f.npos;
  EXPECT_GE(refused, 2);
  EXPECT_EQ(report.failed.size(), static_cast<size_t>(refused));
  const auto file = std::find_if(report.outcomes.begin(), report.outcomes.end(),
                                 [](const UpdateOutcome& x) { return x.what == "us-east-1"; });
  ASSERT_NE(file, report.outcomes.end());
  EXPECT_EQ(file->result, "updated");
  ASSERT_FALSE(file->notes.empty());
  EXPECT_NE(file->notes.back().find("instead of the Price List Query API"), std::string::npos);
  const RegionOffer* o = Offer(catalog_, "p5.48xlarge", "us-east-1");
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, 61.77);
  EXPECT_EQ(o->on_demand->from.source.rfind("aws-price-list-2", 0), 0u)
      << o->on_demand->from.source;
  EXPECT_FALSE(o->spot->estimated);  // the other calls still answered
}

TEST_F(AwsUpdate, AChinaRegionAsksAwsChinasApisAndNoCapacityBlocks) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  UpdateSettings s = AwsSettings(fake);
  s.regions = {"cn-north-1"};
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, s, &cache, &report).ok());
  ASSERT_NE(Call("get-products"), nullptr);
  EXPECT_EQ(Call("get-products")->region, "cn-northwest-1");
  EXPECT_EQ(Call("describe-spot-price-history")->region, "cn-north-1");
  EXPECT_EQ(Call("describe-capacity-block-offerings"), nullptr);
}

// Issue 43, findings 1 and 2: an AWS answer's token must not add arguments to the next call. Each
// value is one argv element, and a token of any other shape than a token's is refused.
TEST_F(AwsUpdate, ATokenFromAnAnswerNeverBecomesAnOptionAFileOrAUrl) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  for (const std::string hostile :
       {"x --endpoint-url http://127.0.0.1:9", "file:///root/.aws/credentials", "--endpoint-url",
        "fileb://key", "a\nb", "http://attacker.example/"}) {
    SCOPED_TRACE(hostile);
    calls_.clear();
    token_ = hostile;
    Catalog c = catalog_;
    UpdateCache cache;
    CatalogUpdateReport report;
    ASSERT_TRUE(UpdateCatalog(&c, AwsSettings(fake), &cache, &report).ok());
    int sp_calls = 0;
    for (const AwsCall& call : calls_) {
      sp_calls += call.args[1] == "describe-savings-plans-offering-rates";
      EXPECT_EQ(AwsArgumentsProblem(call.args), "") << call.Name();
      EXPECT_EQ(std::find(call.args.begin(), call.args.end(), hostile), call.args.end());
    }
    EXPECT_EQ(sp_calls, 1);  // the second page was never asked for
    const auto sp = std::find_if(
        report.outcomes.begin(), report.outcomes.end(),
        [](const UpdateOutcome& x) { return x.what == "us-east-1 savings-plan-rates"; });
    ASSERT_NE(sp, report.outcomes.end());
    EXPECT_EQ(sp->result, "failed");
    EXPECT_NE(sp->error.find("nextToken: expected a pagination token"), std::string::npos)
        << sp->error;
    EXPECT_EQ(sp->error.find('\n'), std::string::npos) << "shown raw: " << sp->error;
  }
  // A token of a token's shape is handed back as one argument after its option.
  calls_.clear();
  token_ = "AAEAAZmV4dA+/==_.~-x";
  Catalog c = catalog_;
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&c, AwsSettings(fake), &cache, &report).ok());
  const AwsCall* second = nullptr;
  for (const AwsCall& call : calls_) {
    if (std::find(call.args.begin(), call.args.end(), "--next-token") != call.args.end()) {
      second = &call;
    }
  }
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->args.back(), token_);
  EXPECT_EQ(second->args[second->args.size() - 2], "--next-token");
}

// Every call's values are separate elements: a filter with a space (the Price List's "GPU
// instance") stays one, and no element is a URL, a file or a runner-only option.
TEST_F(AwsUpdate, EveryCallIsAnArgumentVectorTheRunnerAccepts) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, AwsSettings(fake), &cache, &report).ok());
  ASSERT_FALSE(calls_.empty());
  bool family_with_space = false;
  for (const AwsCall& call : calls_) {
    EXPECT_EQ(AwsArgumentsProblem(call.args), "") << call.Name();
    EXPECT_TRUE(IsRegionCode(call.region)) << call.region;
    EXPECT_GT(call.timeout_s, 0) << "each call bounded by what is left of the run";
    family_with_space |=
        std::find(call.args.begin(), call.args.end(),
                  "Type=TERM_MATCH,Field=instanceFamily,Value=GPU instance") != call.args.end();
  }
  EXPECT_TRUE(family_with_space);
}

// --total-timeout: once the run has no time left, nothing more starts; what is left is named.
TEST_F(AwsUpdate, TheWholeRunStopsAtItsTotalTimeout) {
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return File(r.target == "/spot-advisor-data.json" ? spot_ : csv_);
  });
  double now = 1000;
  UpdateSettings s = AwsSettings(fake);
  s.regions = {"us-east-1", "us-west-2"};
  s.total_timeout_s = 250;
  s.clock = [&] { return now; };
  s.aws = [&](const AwsCall& c) {
    now += 100;  // each call takes 100 s
    EXPECT_LE(c.timeout_s, 250);
    return Answer(c);
  };
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, s, &cache, &report).ok());
  EXPECT_EQ(calls_.size(), 3u);  // at 1000, 1100 and 1200; at 1300 the 250 s had passed
  int not_tried = 0;
  for (const UpdateOutcome& o : report.outcomes) {
    not_tried += o.error.rfind("not tried: the update passed its total timeout of 250 s", 0) == 0;
  }
  EXPECT_GE(not_tried, 3);  // the rest of us-east-1, us-west-2 and the spot-advisor feed
  EXPECT_TRUE(std::any_of(report.outcomes.begin(), report.outcomes.end(),
                          [](const UpdateOutcome& o) { return o.what == "us-west-2"; }));
  EXPECT_TRUE(std::any_of(report.outcomes.begin(), report.outcomes.end(),
                          [](const UpdateOutcome& o) { return o.what == "spot-advisor"; }));
}

// A 304 is an answer only to a request that sent validators: to a first update it is a server's
// error, named, not "not modified" (which wrote nothing and exited 0).
TEST_F(UpdateFixture, A304ToARequestWithoutValidatorsIsAFailure) {
  FakeHttpServer fake([&](const FakeHttpServer::Request&) {
    FakeHttpServer::Reply same;
    same.status = 304;
    return same;
  });
  UpdateCache cache;
  CatalogUpdateReport report;
  ASSERT_TRUE(UpdateCatalog(&catalog_, Settings(fake), &cache, &report).ok());
  ASSERT_FALSE(report.outcomes.empty());
  for (const UpdateOutcome& o : report.outcomes) {
    EXPECT_EQ(o.result, "failed") << o.what;
    EXPECT_NE(o.error.find("sent no validators"), std::string::npos) << o.error;
  }
}

// "--regions all" from a mirror's index that lists far more regions than AWS has: refused.
TEST_F(UpdateFixture, ARegionIndexOfThousandsIsRefused) {
  std::string index = R"({"regions": {)";
  for (int i = 1; i <= 5000; ++i) {
    index += (i > 1 ? "," : "") + std::string("\"us-east-") + std::to_string(i) + "\": {}";
  }
  index += "}}";
  int asked = 0;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    ++asked;
    return File(r.target.find("region_index.json") != std::string::npos ? index : csv_);
  });
  UpdateSettings s = Settings(fake);
  s.regions = {"all"};
  s.all_regions = true;
  UpdateCache cache;
  CatalogUpdateReport report;
  Status st = UpdateCatalog(&catalog_, s, &cache, &report);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("at most 64 region codes, got 5000"), std::string::npos)
      << st.message();
  EXPECT_EQ(asked, 1);  // no region was downloaded
}

}  // namespace
}  // namespace gpuadvisor
