// Queries over the embedded catalog: the figures a user would check against AWS.
#include "gpuadvisor/query.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "app/requests.h"

namespace gpuadvisor {
namespace {

const Catalog& C() {
  static std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  return *c;
}

// The catalog is rebuilt from new sources now and then: these state rules it keeps, not the
// counts and prices of one snapshot.
TEST(EmbeddedCatalogTest, EveryCurrentTypeIsListedAndEveryPriceHasProvenance) {
  int current = 0, retired = 0;
  for (const InstanceType& t : C().instance_types()) {
    (t.retired ? retired : current)++;
    if (t.retired) continue;
    bool listed = false;
    for (const RegionOffer& o : t.regions) {
      listed = listed || o.offered.value_or(false) || o.on_demand || o.spot;
      for (const std::optional<Price>& p : {o.on_demand, o.spot, o.reserved_1y_no_upfront}) {
        if (!p) continue;
        EXPECT_GT(p->usd_per_hour, 0) << t.name << " " << o.region;
        EXPECT_FALSE(p->from.source.empty()) << t.name << " " << o.region;
        EXPECT_FALSE(p->from.date.empty()) << t.name << " " << o.region;
      }
    }
    EXPECT_TRUE(listed) << t.name << " is offered and priced nowhere";
  }
  EXPECT_GT(current, 0);
  EXPECT_GT(retired, 0);
  EXPECT_TRUE(C().FindInstanceType("p3.16xlarge")->retired);
}

TEST(EmbeddedCatalogTest, P5Facts) {
  const InstanceType* p5 = C().FindInstanceType("p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->accelerator.count, 8);
  EXPECT_EQ(*p5->accelerator.memory_mib_each, 81920);
  EXPECT_TRUE(p5->efa);
  EXPECT_EQ(p5->accelerator.model, "H100");
  EXPECT_DOUBLE_EQ(*C().GpuOf(*p5)->bf16_tflops, 989.5);  // the datasheet's dense BF16
  // A listing row carries the region's price, and per GPU the eighth of it.
  const RegionOffer* us = p5->FindRegion("us-east-1");
  ASSERT_TRUE(us != nullptr && us->on_demand);
  const InstanceRow row = MakeInstanceRow(C(), *p5, "us-east-1");
  EXPECT_DOUBLE_EQ(*row.on_demand_usd_per_hour, us->on_demand->usd_per_hour);
  EXPECT_DOUBLE_EQ(*row.usd_per_gpu_hour, us->on_demand->usd_per_hour / 8);
}

TEST(QueryTest, DefaultListsCurrentTypesInUsEast1) {
  Result<std::vector<InstanceRow>> rows = QueryInstances(C(), InstanceQuery{});
  ASSERT_TRUE(rows.ok());
  // Exactly the current types us-east-1 knows: offered (or not known not to be) or priced there.
  std::set<std::string> want, got;
  for (const InstanceType& t : C().instance_types()) {
    const RegionOffer* o = t.FindRegion("us-east-1");
    if (!t.retired && o && (o->offered.value_or(true) || o->on_demand)) want.insert(t.name);
  }
  for (const InstanceRow& r : *rows) got.insert(r.type->name);
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), rows->size()) << "a type listed twice";
  InstanceQuery with_retired;
  with_retired.include_retired = true;
  auto all = QueryInstances(C(), with_retired);
  EXPECT_TRUE(std::any_of(all->begin(), all->end(),
                          [](const InstanceRow& r) { return r.type->name == "p3.2xlarge"; }));
}

// Every InstanceQuery filter (the `instances` options): each row it keeps satisfies it, and it
// keeps fewer rows than the default query. Add a row here with each new filter.
TEST(QueryTest, EveryFilterNarrowsTheListToWhatItAsks) {
  using Set = void (*)(InstanceQuery*);
  using Check = bool (*)(const InstanceRow&);
  const struct {
    const char* option;
    Set set;
    Check check;
  } filters[] = {
      {"--region eu-west-1", [](InstanceQuery* q) { q->region = "eu-west-1"; },
       [](const InstanceRow& r) { return r.region == "eu-west-1"; }},
      {"--gpu L4", [](InstanceQuery* q) { q->gpus = {"L4"}; },
       [](const InstanceRow& r) { return r.type->accelerator.model == "L4"; }},
      {"--family g6e", [](InstanceQuery* q) { q->families = {"g6e"}; },
       [](const InstanceRow& r) { return r.type->family == "g6e"; }},
      {"--min-gpus 4", [](InstanceQuery* q) { q->min_gpus = 4; },
       [](const InstanceRow& r) { return r.type->accelerator.device_equivalents() >= 4; }},
      {"--max-gpus 1", [](InstanceQuery* q) { q->max_gpus = 1; },
       [](const InstanceRow& r) { return r.type->accelerator.device_equivalents() <= 1; }},
      {"--min-gpu-memory 40", [](InstanceQuery* q) { q->min_gpu_memory_gib = 40; },
       [](const InstanceRow& r) {
         return r.type->accelerator.memory_mib_each.value_or(0) / 1024.0 >= 40;
       }},
      {"--min-total-gpu-memory 300", [](InstanceQuery* q) { q->min_total_gpu_memory_gib = 300; },
       [](const InstanceRow& r) {
         return r.type->accelerator.memory_mib_each.value_or(0) / 1024.0 *
                    r.type->accelerator.device_equivalents() >=
                300 - 1e-9;
       }},
      {"--max-price 2", [](InstanceQuery* q) { q->max_price_usd = 2; },
       [](const InstanceRow& r) {
         return r.on_demand_usd_per_hour && *r.on_demand_usd_per_hour <= 2;
       }},
      {"--max-price 2 --purchase spot",
       [](InstanceQuery* q) {
         q->max_price_usd = 2;
         q->purchase = PurchaseKind::kSpot;
       },
       [](const InstanceRow& r) { return r.spot_usd_per_hour && *r.spot_usd_per_hour <= 2; }},
      {"--efa", [](InstanceQuery* q) { q->efa_only = true; },
       [](const InstanceRow& r) { return r.type->efa; }},
      {"--gpus-only", [](InstanceQuery* q) { q->gpus_only = true; },
       [](const InstanceRow& r) { return r.type->accelerator.kind == AcceleratorKind::kGpu; }},
      {"--limit 5", [](InstanceQuery* q) { q->limit = 5; },
       [](const InstanceRow&) { return true; }},
  };
  const size_t all = QueryInstances(C(), InstanceQuery{})->size();
  for (const auto& f : filters) {
    InstanceQuery q;
    f.set(&q);
    Result<std::vector<InstanceRow>> rows = QueryInstances(C(), q);
    ASSERT_TRUE(rows.ok()) << f.option << ": " << rows.status().ToString();
    EXPECT_FALSE(rows->empty()) << f.option;
    EXPECT_LT(rows->size(), all) << f.option << " keeps every row";
    for (const InstanceRow& r : *rows) EXPECT_TRUE(f.check(r)) << f.option << ": " << r.type->name;
  }
  InstanceQuery q;
  q.limit = 5;
  EXPECT_EQ(QueryInstances(C(), q)->size(), 5u);
  // --include-retired adds rows, retired ones among them.
  q = InstanceQuery{};
  q.include_retired = true;
  Result<std::vector<InstanceRow>> with = QueryInstances(C(), q);
  EXPECT_GT(with->size(), all);
  EXPECT_TRUE(std::any_of(with->begin(), with->end(),
                          [](const InstanceRow& r) { return r.type->retired; }));
}

// Every --sort field orders the rows its own way: ascending differs from the default order (by
// on-demand price) and from descending. An ignored field would leave the default order.
TEST(QueryTest, EverySortFieldReordersTheRows) {
  auto names = [](const InstanceQuery& q) {
    std::vector<std::string> out;
    const Result<std::vector<InstanceRow>> rows = QueryInstances(C(), q);
    EXPECT_TRUE(rows.ok()) << q.sort;
    if (rows.ok()) {
      for (const InstanceRow& r : *rows) out.push_back(r.type->name);
    }
    return out;
  };
  for (const std::string& field : InstanceSortFields()) {
    InstanceQuery q;
    if (field == "region") q.region = "all";  // one region: nothing to order
    const std::vector<std::string> by_default = names(q);
    q.sort = field;
    const std::vector<std::string> asc = names(q);
    q.sort = field + ":desc";
    const std::vector<std::string> desc = names(q);
    EXPECT_EQ(asc.size(), by_default.size()) << field;
    // A field the catalog holds for no row leaves the tie order (by name) both ways.
    std::vector<std::string> by_name = asc;
    std::sort(by_name.begin(), by_name.end());
    if (asc != by_name) {
      EXPECT_NE(asc, desc) << field;
    }
    if (field != "on_demand_usd_per_hour") {
      EXPECT_NE(asc, by_default) << field;
    }
  }
}

TEST(QueryTest, GpuAndMinGpusCombine) {
  InstanceQuery q;
  q.gpus = {"L4"};
  q.min_gpus = 4;
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  ASSERT_FALSE(rows->empty());
  for (const InstanceRow& r : *rows) {
    EXPECT_EQ(r.type->accelerator.model, "L4");
    EXPECT_TRUE(r.type->accelerator.count == 4 || r.type->accelerator.count == 8) << r.type->name;
  }
}

TEST(QueryTest, SortDescendingPutsUnknownLast) {
  InstanceQuery q;
  q.sort = "usd_per_bf16_tflop_hour:desc";
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  bool seen_null = false;
  double prev = 1e300;
  for (const InstanceRow& r : *rows) {
    if (!r.usd_per_bf16_tflop_hour) {
      seen_null = true;
      continue;
    }
    EXPECT_FALSE(seen_null) << "a known value after an unknown one";
    EXPECT_LE(*r.usd_per_bf16_tflop_hour, prev);
    prev = *r.usd_per_bf16_tflop_hour;
  }
}

TEST(QueryTest, AllRegionsCoversEveryPricedRegion) {
  InstanceQuery q;
  q.region = "all";
  auto rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  std::set<std::string> regions, priced;
  for (const InstanceRow& r : *rows) regions.insert(r.region);
  for (const InstanceType& t : C().instance_types()) {
    for (const RegionOffer& o : t.regions) {
      if (!t.retired && o.on_demand) priced.insert(o.region);
    }
  }
  EXPECT_GT(priced.size(), 1u);
  EXPECT_TRUE(std::includes(regions.begin(), regions.end(), priced.begin(), priced.end()));
}

TEST(QueryTest, BadInputGetsSuggestions) {
  InstanceQuery q;
  q.region = "us-est-1";
  auto r = QueryInstances(C(), q);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did you mean us-east-1"), std::string::npos);
  InstanceQuery g;
  g.gpus = {"H10O"};
  EXPECT_FALSE(QueryInstances(C(), g).ok());
  auto t = ResolveInstanceType(C(), "p5.48xlarg");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("p5.48xlarge"), std::string::npos);
}

TEST(QueryTest, TypeOfAFamilyWithoutAcceleratorsIsNamedSo) {
  // Issue 29: `show m5.large` suggested g5.xlarge. A family the catalog does not hold is not a
  // typo of an accelerator type; a known family with a wrong size still gets its suggestion.
  for (const char* name : {"m5.large", "c7i.4xlarge", "M5.LARGE"}) {
    auto t = ResolveInstanceType(C(), name);
    ASSERT_FALSE(t.ok()) << name;
    EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
    EXPECT_EQ(t.status().field(), "type");
    EXPECT_NE(t.status().message().find("is not a GPU or ML-accelerator instance type"),
              std::string::npos)
        << t.status().message();
    EXPECT_EQ(t.status().message().find("did you mean"), std::string::npos);
  }
  auto typo = ResolveInstanceType(C(), "g5.xlarg");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("did you mean g5.xlarge"), std::string::npos);
  EXPECT_EQ(typo.status().message().find("not a GPU"), std::string::npos);
}

TEST(QueryTest, DaysBetween) {
  EXPECT_EQ(*DaysBetween("2026-07-20", "2026-12-02"), 135);
  EXPECT_FALSE(DaysBetween("", "2026-12-02").has_value());
}

// AWS China (issue 26): its regions are listed in CNY, with the China price's date; a GPU not
// sold in one China region points to the other before any region of another partition.
TEST(QueryTest, ChinaListsItsTypesInYuanAndPointsWithinThePartition) {
  InstanceQuery q;
  q.region = "cn-northwest-1";
  q.gpus = {"A100"};
  Result<std::vector<InstanceRow>> rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  const InstanceRow& p4d = rows->front();
  EXPECT_EQ(p4d.type->name, "p4d.24xlarge");
  EXPECT_EQ(p4d.currency, Currency::kCny);
  ASSERT_TRUE(p4d.on_demand_usd_per_hour);
  EXPECT_NEAR(*p4d.on_demand_usd_per_hour, 172.873412, 1e-6);  // CNY, AWS China price list
  EXPECT_EQ(p4d.offer->on_demand->from.date, "2026-08-26");
  q.region = "cn-north-1";
  rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
  const std::string hint = NoMatchWarning(C(), q);
  EXPECT_NE(hint.find("p4d.24xlarge matches in cn-northwest-1 (try --region cn-northwest-1)"),
            std::string::npos)
      << hint;
  EXPECT_EQ(hint.find("us-east-1"), std::string::npos) << hint;
}

TEST(QueryTest, YuanAndDollarsAreNeverOrderedAgainstEachOther) {
  InstanceQuery q;
  q.region = "all";
  q.gpus = {"A10G"};
  Result<std::vector<InstanceRow>> rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  bool seen_cny = false, any_cny = false;
  for (const InstanceRow& r : *rows) {
    if (r.currency == Currency::kCny) seen_cny = any_cny = true;
    // Every USD row comes before the first CNY one, whatever the amounts.
    if (r.currency == Currency::kUsd) {
      EXPECT_FALSE(seen_cny) << r.type->name << " " << r.region;
    }
  }
  EXPECT_TRUE(any_cny);
  // With region all the price limit is in USD: CNY rows are left out of "all".
  q.max_price_usd = 100;
  rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  for (const InstanceRow& r : *rows) EXPECT_EQ(r.currency, Currency::kUsd);
  // Issue 42: in an AWS China region it is in CNY per hour, the currency of the region's prices.
  q.region = "cn-north-1";
  q.max_price_usd = 1e6;
  Result<std::vector<InstanceRow>> all_cny = QueryInstances(C(), q);
  ASSERT_TRUE(all_cny.ok());
  ASSERT_FALSE(all_cny->empty());
  double cheapest = 1e9, dearest = 0;
  for (const InstanceRow& r : *all_cny) {
    EXPECT_EQ(r.currency, Currency::kCny);
    if (r.on_demand_usd_per_hour) {
      cheapest = std::min(cheapest, *r.on_demand_usd_per_hour);
      dearest = std::max(dearest, *r.on_demand_usd_per_hour);
    }
  }
  ASSERT_LT(cheapest, dearest);
  q.max_price_usd = (cheapest + dearest) / 2;
  rows = QueryInstances(C(), q);
  ASSERT_TRUE(rows.ok());
  EXPECT_FALSE(rows->empty());
  EXPECT_LT(rows->size(), all_cny->size());
  for (const InstanceRow& r : *rows) {
    ASSERT_TRUE(r.on_demand_usd_per_hour);
    EXPECT_LE(*r.on_demand_usd_per_hour, *q.max_price_usd);
  }
}

}  // namespace
}  // namespace gpuadvisor
