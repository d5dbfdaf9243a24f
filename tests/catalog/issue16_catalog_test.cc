// Issue 16, catalog items: the validation policy for imported and loaded records
// (catalog/record_checks.h), the price-list JSON depth cap, import summary counts read from the
// diff, one 1-year RI price, GPU family matching and "not offered in REGION" hints. Inputs are the
// checked-in import fixtures with one figure changed per case.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/requests.h"
#include "app/views.h"
#include "catalog/build/sources.h"
#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/query.h"
#include "util/byte_stream.h"

namespace gpuadvisor {
namespace {

using ojson = nlohmann::ordered_json;

// `pricing TYPE` with every other option at its default.
OptionValues PricingOf(const std::string& type) {
  OptionValues v(**FindCommandSpec("pricing"));
  EXPECT_TRUE(v.Set("type", type, kCli).ok());
  return v;
}

std::string Fixture(const std::string& name) {
  std::ifstream f(std::string(IMPORT_FIXTURES) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// `text` with the first occurrence of `from` replaced by `to` (which must exist).
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Status ReadList(const std::string& text, bool json, import::PriceListData* d) {
  auto in = ByteStream::FromMemory(text, json ? "p.json" : "p.csv");
  auto keep = [](std::string_view) { return true; };
  return json ? import::ReadPriceListJson(in.get(), keep, d)
              : import::ReadPriceListCsv(in.get(), keep, d);
}

std::string ErrorOf(const std::string& text, bool json) {
  import::PriceListData d;
  Status st = ReadList(text, json, &d);
  EXPECT_EQ(st.code(), StatusCode::kParseError) << text.substr(0, 40);
  return st.message();
}

bool Has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

const Catalog& Embedded() { return **EmbeddedCatalog(); }

// ---- item 1: one validation policy -------------------------------------------------------------

TEST(Issue16Checks, Bounds) {
  EXPECT_EQ(CheckPrice(61.77), PriceCheck::kOk);
  EXPECT_EQ(CheckPrice(0), PriceCheck::kZero);
  EXPECT_EQ(CheckPrice(-1), PriceCheck::kBad);
  EXPECT_EQ(CheckPrice(1e308), PriceCheck::kBad);
  EXPECT_EQ(CheckPrice(std::numeric_limits<double>::quiet_NaN()), PriceCheck::kBad);
  EXPECT_EQ(CheckPrice(318000, kMaxUpfrontUsd), PriceCheck::kOk);  // a 1y all-upfront p5 fee
  EXPECT_EQ(CheckPrice(318000), PriceCheck::kBad);                 // not as an hourly price
  EXPECT_EQ(CheckCount(8, 0, kMaxDevicesPerInstance), "");
  EXPECT_EQ(CheckCount(1000000000000, 0, 64), "an integer from 0 to 64, got 1000000000000");
  EXPECT_EQ(CheckMemoryMib(-1, kMaxDeviceMemoryMib).substr(0, 25), "a memory size above 0 and");
  EXPECT_TRUE(IsIsoTimestamp("2026-11-20"));
  EXPECT_TRUE(IsIsoTimestamp("2026-11-20T18:00:00Z"));
  EXPECT_TRUE(IsIsoTimestamp("2026-11-20T08:00:00.000Z"));
  EXPECT_TRUE(IsIsoTimestamp("2026-11-20T08:00:00+00:00"));
  EXPECT_FALSE(IsIsoTimestamp("yesterday"));
  EXPECT_FALSE(IsIsoTimestamp("2026-02-30"));
  EXPECT_FALSE(IsIsoTimestamp("2026-11-20Tnoon"));
  EXPECT_FALSE(IsIsoTimestamp("20261120"));
}

TEST(Issue16PriceList, BadPricesAreRefusedWithTheLine) {
  const std::string csv = Fixture("price-list-p5.csv");
  // The canonical on-demand row of p5.48xlarge is on line 20 of the fixture.
  for (const char* bad : {"-61.77", "1e308", "nan", "20000"}) {
    std::string e =
        ErrorOf(Replace(csv, "\"61.7700000000\"", std::string("\"") + bad + "\""), false);
    EXPECT_TRUE(
        e.starts_with("p.csv:20: column \"PricePerUnit\": expected a price above $0 and "
                      "at most $10000 per hour"))
        << e;
  }
  // An upfront fee is capped as a fee, not as an hourly price.
  EXPECT_TRUE(Has(ErrorOf(Replace(csv, "\"162231\"", "\"1e12\""), false), "$262800000 upfront"));
  const std::string json = Fixture("price-list-p5.json");
  for (const char* bad : {"-61.77", "1e308", "20000"}) {
    std::string e =
        ErrorOf(Replace(json, "\"61.7700000000\"", std::string("\"") + bad + "\""), true);
    EXPECT_TRUE(Has(e, "pricePerUnit.USD: expected a price above $0")) << e;
    EXPECT_TRUE(e.starts_with("p.json:")) << e;
  }
}

TEST(Issue16PriceList, ZeroPricesAreSkippedAndCounted) {
  const std::string csv = Fixture("price-list-p5.csv");
  import::PriceListData base;
  ASSERT_TRUE(ReadList(csv, false, &base).ok());
  EXPECT_TRUE(base.skipped.empty());  // the $0 hourly charges of All Upfront terms are taken
  EXPECT_DOUBLE_EQ(*base.entries.at("p5.48xlarge\tus-east-1").ri[0][0][2].hourly, 0);
  // $0 on demand, $0 partial-upfront fee: skipped, counted, never "free".
  std::string zero = Replace(csv, "\"61.7700000000\"", "\"0.0000000000\"");
  zero = Replace(zero, "\"162231\"", "\"0\"");
  for (bool json : {false, true}) {
    std::string text = zero;
    if (json) {
      text = Replace(Fixture("price-list-p5.json"), "\"61.7700000000\"", "\"0.0000000000\"");
      text = Replace(text, "\"162231\"", "\"0\"");
    }
    import::PriceListData d;
    ASSERT_TRUE(ReadList(text, json, &d).ok());
    const import::PriceListEntry& e = d.entries.at("p5.48xlarge\tus-east-1");
    EXPECT_FALSE(e.on_demand) << json;
    EXPECT_FALSE(e.ri[0][0][1].upfront) << json;
    EXPECT_EQ(d.skipped.at(import::kSkipZeroPrice), 2) << json;
  }
}

TEST(Issue16PriceList, EmptyTypeIsSkippedAndBadDatesRefused) {
  const std::string csv = Fixture("price-list-p5.csv");
  // The canonical us-west-2 row without its instance type.
  std::string no_type = csv;
  const size_t row = no_type.find("\"P5USW20000000001\"");
  ASSERT_NE(row, std::string::npos);
  const size_t type = no_type.find("\"p5.48xlarge\",\"Yes\"", row);
  no_type.replace(type, 13, "\"\"");
  import::PriceListData d;
  ASSERT_TRUE(ReadList(no_type, false, &d).ok());
  EXPECT_EQ(d.skipped.at(import::kSkipNoTypeOrRegion), 1);
  EXPECT_FALSE(d.entries.count("p5.48xlarge\tus-west-2"));
  EXPECT_EQ(ErrorOf(Replace(csv, "2026-11-20T18:00:00Z", "soon"), false),
            "p.csv:3: \"Publication Date\": expected an ISO 8601 timestamp, got \"soon\"");
  EXPECT_TRUE(
      Has(ErrorOf(Replace(Fixture("price-list-p5.json"), "2026-11-20T18:00:00Z", "soon"), true),
          "publicationDate: expected an ISO 8601 timestamp"));
}

TEST(Issue16SavingsAndSpot, ZeroSkippedBadRefused) {
  const std::string sp = Fixture("savings-plans-p5.csv");
  auto read_sp = [](const std::string& t, import::SavingsPlansData* d) {
    auto in = ByteStream::FromMemory(t, "sp.csv");
    return import::ReadSavingsPlansCsv(in.get(), [](std::string_view) { return true; }, d);
  };
  import::SavingsPlansData d;
  ASSERT_TRUE(read_sp(Replace(sp, ",43.1200,", ",0,"), &d).ok());
  EXPECT_EQ(d.skipped.at(import::kSkipZeroPrice), 1);
  import::SavingsPlansData e;
  Status st = read_sp(Replace(sp, ",43.1200,", ",-4,"), &e);
  EXPECT_TRUE(st.message().starts_with("sp.csv:9: column \"DiscountedRate\": expected a price"))
      << st.message();

  const std::string spot = Fixture("spot-history-p5.json");
  std::map<std::string, int64_t> skipped;
  auto ok =
      import::ReadSpotPriceHistoryJson(Replace(spot, "\"18.120000\"", "\"0\""), "s.json", &skipped);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(skipped.at(import::kSkipZeroPrice), 1);
  auto bad = import::ReadSpotPriceHistoryJson(Replace(spot, "\"18.120000\"", "\"1e308\""), "s");
  EXPECT_EQ(bad.status().message(),
            "s: $.SpotPriceHistory[0].SpotPrice: expected a price above $0 and at most $10000 per "
            "hour, got 1e+308");
  auto when = import::ReadSpotPriceHistoryJson(
      Replace(spot, "2026-11-20T08:00:00.000Z", "last tuesday"), "s");
  EXPECT_TRUE(Has(when.status().message(), "$.SpotPriceHistory[0].Timestamp: expected an ISO"))
      << when.status().message();
}

const char* kOneType = R"({"InstanceTypes": [{"InstanceType": "p5.48xlarge",
  "VCpuInfo": {"DefaultVCpus": 192}, "MemoryInfo": {"SizeInMiB": 2097152},
  "GpuInfo": {"Gpus": [{"Name": "H100", "Manufacturer": "NVIDIA", "Count": 8,
               "MemoryInfo": {"SizeInMiB": 81920}}], "TotalGpuMemoryInMiB": 655360}}]})";

TEST(Issue16InstanceTypes, CountsMemoryAndNamesAreBounded) {
  ASSERT_TRUE(build::ReadDescribeInstanceTypes(kOneType, "t.json").ok());
  struct Case {
    const char *from, *to, *want;
  };
  const Case cases[] = {
      {"\"Count\": 8", "\"Count\": 1000000000000",
       "$.InstanceTypes[0].GpuInfo.Gpus[0].Count: expected an integer from 0 to 64, got "
       "1000000000000"},
      {"\"Count\": 8", "\"Count\": -1", "Gpus[0].Count: expected an integer from 0 to 64"},
      {"\"SizeInMiB\": 81920", "\"SizeInMiB\": -80",
       "Gpus[0].MemoryInfo.SizeInMiB: expected a memory size above 0"},
      {"\"SizeInMiB\": 2097152", "\"SizeInMiB\": 0", "MemoryInfo.SizeInMiB: expected a memory"},
      {"\"p5.48xlarge\"", "\"\"", "$.InstanceTypes[0].InstanceType: expected an EC2 instance type"},
  };
  for (const Case& c : cases) {
    auto r = build::ReadDescribeInstanceTypes(Replace(kOneType, c.from, c.to), "t.json");
    ASSERT_FALSE(r.ok()) << c.to;
    EXPECT_TRUE(Has(r.status().message(), c.want)) << r.status().message();
  }
}

TEST(Issue16CatalogJson, FiguresOutsideThePolicyAreRefused) {
  const std::string json = CatalogToJson(Embedded());
  // p5.48xlarge's accelerator block and its first price, as the writer lays them out.
  const std::string count = "\"aws_name\": \"H100\",\n    \"count\": 8,";
  struct Case {
    std::string from, to, want;
  };
  const Case cases[] = {
      {count, "\"aws_name\": \"H100\",\n    \"count\": 1000000000000,",
       "accelerator.count: expected an integer from 0 to 64"},
      {"\"memory_mib_each\": 81920", "\"memory_mib_each\": -5",
       "accelerator.memory_mib_each: expected a memory size above 0"},
      {"\"instance_type\": \"p5.48xlarge\"", "\"instance_type\": \"\"",
       "instance_type: expected an EC2 instance type"},
  };
  for (const Case& c : cases) {
    Result<Catalog> r = ParseCatalogJson(Replace(json, c.from, c.to), "cat.json");
    ASSERT_FALSE(r.ok()) << c.to;
    EXPECT_TRUE(Has(r.status().message(), c.want)) << r.status().message();
  }
  for (const char* price : {"0", "-1", "1e300"}) {
    Catalog c = Embedded();
    InstanceType t = c.instance_types().front();
    ASSERT_FALSE(t.regions.empty());
    t.regions[0].on_demand = Price{1, {"x", "2026-01-01"}, false, ""};
    c.PutInstanceType(t);
    std::string text = CatalogToJson(c);
    text = Replace(text, "\"usd_per_hour\": 1.0,", std::string("\"usd_per_hour\": ") + price + ",");
    Result<Catalog> r = ParseCatalogJson(text, "cat.json");
    ASSERT_FALSE(r.ok()) << price;
    EXPECT_TRUE(Has(r.status().message(), "on_demand.usd_per_hour: expected a price above $0"))
        << r.status().message();
  }
}

TEST(Issue16Import, ReportCountsSkippedRowsInTableAndJson) {
  std::string csv = Replace(Fixture("price-list-p5.csv"), "\"61.7700000000\"", "\"0.00\"");
  char name[] = "/tmp/gpuadvisor-issue16-XXXXXX";
  int fd = mkstemp(name);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(name) << csv;
  Catalog before = Embedded();
  Catalog after = before;
  ImportInputs in;
  in.price_list = {name};
  ImportReport r;
  ASSERT_TRUE(ImportIntoCatalog(&after, in, &r).ok());
  std::remove(name);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].rows, 1);
  CatalogDiff diff = DiffCatalogs(before, after);
  const ojson j = ojson::parse(ImportReportJson(r, diff, "out.json").Text());
  EXPECT_EQ(j["rows_skipped"], 1);
  EXPECT_EQ(j["skipped"][0]["reason"], import::kSkipZeroPrice);
  EXPECT_TRUE(Has(ImportSummaryText(r, diff, "out.json"),
                  std::string("skipped 1 rows of ") + name + ": $0 price"));
  // The $0 row did not replace the catalog's on-demand price.
  EXPECT_EQ(
      after.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->on_demand->usd_per_hour,
      before.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->on_demand->usd_per_hour);
}

TEST(Issue16Import, SnapshotDateMustParse) {
  Catalog c = Embedded();
  ImportInputs in;
  in.snapshot_date = "today";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(st.message(), "snapshot-date")) << st.message();
}

// ---- item 2: the SAX reader's depth cap -------------------------------------------------------

TEST(Issue16PriceList, DeepNestingIsAnErrorNotACrash) {
  for (const char* open : {"[", "{\"a\":"}) {
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += open;
    std::string e = ErrorOf("{\"products\": " + deep, true);
    EXPECT_TRUE(e.starts_with("p.json:1: byte ")) << e.substr(0, 80);
    EXPECT_TRUE(Has(e, "nested deeper than 64 levels")) << e.substr(0, 80);
  }
  // The line is counted across lines too.
  EXPECT_TRUE(ErrorOf("{\n\"products\":\n" + std::string(70, '['), true).starts_with("p.json:3:"));
}

TEST(Issue16CatalogJson, DeepNestingIsAnErrorNotACrash) {
  // The DOM readers (catalog files, EC2 API responses) parse iteratively: a million levels used to
  // overflow the stack.
  Result<Catalog> r = ParseCatalogJson(std::string(1000000, '['), "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with("deep.json: byte ")) << r.status().message();
  EXPECT_FALSE(build::ReadDescribeInstanceTypes(std::string(1000000, '['), "d.json").ok());
}

// ---- item 3: the summary's counts are the diff's ----------------------------------------------

TEST(Issue16Import, SummaryCountsComeFromTheDiff) {
  // Mixed changes: two prices of one type, one of another, a type added and a type removed.
  Catalog before = Embedded();
  Catalog after = before;
  after.EditInstanceTypes([](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      if (t.name == "p5.48xlarge") {
        RegionOffer& o =
            *std::find_if(t.regions.begin(), t.regions.end(),
                          [](const RegionOffer& x) { return x.region == "us-east-1"; });
        o.on_demand->usd_per_hour += 1;
        o.spot->usd_per_hour += 1;
      }
      if (t.name == "g6.xlarge") t.regions[0].on_demand->usd_per_hour += 0.5;  // ap-northeast-1
    }
  });
  InstanceType added = *after.FindInstanceType("p5.48xlarge");
  added.name = "p9.48xlarge";
  after.PutInstanceType(added);
  after.RemoveInstanceType("g5.xlarge");
  CatalogDiff diff = DiffCatalogs(before, after);
  ASSERT_EQ(diff.price_changes.size(), 3u);
  ImportReport r;
  r.prices_set = 7;  // figures an import wrote: not the number of changes
  const std::string text = ImportSummaryText(r, diff, "new.json");
  EXPECT_TRUE(Has(text, "3 price changes in 2 types, 1 types added, 1 removed")) << text;
  const ojson j = ojson::parse(ImportReportJson(r, diff, "new.json").Text());
  EXPECT_EQ(j["prices_changed"], 3);
  EXPECT_EQ(j["prices_changed"], j["diff"]["price_changes"].size());
  EXPECT_EQ(j["types_added"], 1);
  EXPECT_EQ(j["types_removed"], 1);
  EXPECT_EQ(j["types_with_price_changes"], 2);
}

TEST(Issue16Import, ImportSummaryAgreesWithItsDiff) {
  // The fixture sets the 1-year standard no-upfront RI as the headline figure and as a term: the
  // old per-figure counter saw two changes where the diff (and the catalog) has one.
  char name[] = "/tmp/gpuadvisor-issue16-XXXXXX";
  int fd = mkstemp(name);
  ::close(fd);
  std::ofstream(name) << Fixture("price-list-p5.csv");
  Catalog before = Embedded();
  Catalog after = before;
  ImportInputs in;
  in.price_list = {name};
  ImportReport r;
  ASSERT_TRUE(ImportIntoCatalog(&after, in, &r).ok());
  std::remove(name);
  CatalogDiff diff = DiffCatalogs(before, after);
  const ojson j = ojson::parse(ImportReportJson(r, diff, "x").Text());
  EXPECT_EQ(j["prices_changed"], diff.price_changes.size());
  EXPECT_EQ(diff.price_changes.size(), 8u);
  EXPECT_TRUE(Has(ImportSummaryText(r, diff, "x"), "vs the previous catalog: 8 price changes"));
}

// ---- item 4: one 1-year RI price ----------------------------------------------------------------

// The fixture's p5 rows relabelled as p4de.24xlarge (whose headline 1y RI comes from a build
// source dated 2026-01-21), published on `date`.
Catalog ImportP4de(const std::string& date) {
  std::string csv = Fixture("price-list-p5.csv");
  for (size_t at; (at = csv.find("p5.48xlarge")) != std::string::npos;) {
    csv.replace(at, 11, "p4de.24xlarge");
  }
  csv = Replace(csv, "2026-11-20T18:00:00Z", date + "T00:00:00Z");
  char name[] = "/tmp/gpuadvisor-issue16-XXXXXX";
  int fd = mkstemp(name);
  ::close(fd);
  std::ofstream(name) << csv;
  Catalog c = Embedded();
  ImportInputs in;
  in.price_list = {name};
  ImportReport r;
  EXPECT_TRUE(ImportIntoCatalog(&c, in, &r).ok());
  std::remove(name);
  return c;
}

TEST(Issue16Reserved1y, OneChoiceEverywhere) {
  const RegionOffer& embedded =
      *Embedded().FindInstanceType("p4de.24xlarge")->FindRegion("us-east-1");
  ASSERT_TRUE(embedded.reserved_1y_no_upfront);
  const double headline = embedded.reserved_1y_no_upfront->usd_per_hour;
  // An older price list: its term is recorded, the newer headline stays the price used.
  Catalog old_list = ImportP4de("2025-09-01");
  const RegionOffer& o = *old_list.FindInstanceType("p4de.24xlarge")->FindRegion("us-east-1");
  ASSERT_NE(o.FindReserved(1, "standard", "no-upfront"), nullptr);
  EXPECT_DOUBLE_EQ(o.FindReserved(1, "standard", "no-upfront")->usd_per_hour, 38.91);
  EXPECT_DOUBLE_EQ(o.Reserved1y()->usd_per_hour, headline);
  EXPECT_DOUBLE_EQ(o.reserved_1y_no_upfront->usd_per_hour, headline);
  // show: the terms table says which 1-year price is used; the diff has no 1y RI change.
  EXPECT_TRUE(Has(ShowTermsTable(o).Render(OutputFormat::kCsv, false), "not used: ")) << "terms";
  for (const CatalogDiff::PriceChange& ch : DiffCatalogs(Embedded(), old_list).price_changes) {
    EXPECT_NE(ch.price, "reserved-1y-standard-no-upfront") << ch.instance_type;
  }
  // pricing prices the same 1-year RI.
  Result<PricingResult> p = PriceType(old_list, PricingOf("p4de.24xlarge"));
  ASSERT_TRUE(p.ok()) << p.status().message();
  for (const PurchaseOptionCost& c : p->options) {
    if (c.option == "reserved-1y-no-upfront") {
      EXPECT_DOUBLE_EQ(*c.usd_per_hour, headline);
    }
  }
  // A newer price list: the term is the price, headline included.
  Catalog new_list = ImportP4de("2026-11-20");
  const RegionOffer& n = *new_list.FindInstanceType("p4de.24xlarge")->FindRegion("us-east-1");
  EXPECT_DOUBLE_EQ(n.reserved_1y_no_upfront->usd_per_hour, 38.91);
  EXPECT_FALSE(Has(ShowTermsTable(n).Render(OutputFormat::kCsv, false), "not used"));
}

TEST(Issue16Reserved1y, TheCatalogReaderReconcilesAStaleHeadline) {
  // A catalog whose headline figure is older than its itemised term (written before the choice
  // lived in one place) loads with the term's price as the 1-year RI.
  Catalog c = ImportP4de("2026-11-20");
  ASSERT_NE(c.FindInstanceType("p4de.24xlarge"), nullptr);
  InstanceType t = *c.FindInstanceType("p4de.24xlarge");
  auto use1 = std::find_if(t.regions.begin(), t.regions.end(),
                           [](const RegionOffer& x) { return x.region == "us-east-1"; });
  ASSERT_NE(use1, t.regions.end());
  RegionOffer& o = *use1;
  ASSERT_FALSE(o.reserved.empty());
  o.reserved_1y_no_upfront = Price{1.0, {"old-source", "2020-01-01"}, false, ""};
  c.PutInstanceType(t);
  Result<Catalog> back = ParseCatalogJson(CatalogToJson(c), "c.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const RegionOffer& b = *back->FindInstanceType("p4de.24xlarge")->FindRegion("us-east-1");
  EXPECT_EQ(b.reserved_1y_no_upfront->from.source, o.reserved.front().from.source);
  EXPECT_NE(b.reserved_1y_no_upfront->usd_per_hour, 1.0);
}

// ---- item 5: GPU families, suggestions, regions -----------------------------------------------

std::vector<std::string> TypesFor(const std::string& gpu) {
  InstanceQuery q;
  q.region = "all";
  q.include_retired = true;
  q.gpus = {gpu};
  auto rows = QueryInstances(Embedded(), q);
  EXPECT_TRUE(rows.ok()) << gpu << ": " << rows.status().message();
  std::vector<std::string> out;
  if (!rows.ok()) return out;
  for (const InstanceRow& r : *rows) {
    if (std::find(out.begin(), out.end(), r.type->name) == out.end()) out.push_back(r.type->name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(Issue16Gpu, FamilyNamesSelectEveryMemoryVariant) {
  std::vector<std::string> v100 = TypesFor("V100");
  EXPECT_TRUE(Contains(v100, "p3dn.24xlarge"));  // V100-32GB
  EXPECT_TRUE(Contains(v100, "p3.2xlarge"));     // V100-16GB
  std::vector<std::string> a100 = TypesFor("a100");
  EXPECT_EQ(a100, (std::vector<std::string>{"p4d.24xlarge", "p4de.24xlarge"}));
  // A model id still selects that variant only; T4 is not T4G.
  EXPECT_EQ(TypesFor("A100-80GB"), std::vector<std::string>{"p4de.24xlarge"});
  EXPECT_FALSE(Contains(TypesFor("T4"), "g5g.xlarge"));
  // Names with spaces and any case.
  for (const char* name : {"RTX PRO 4500", "rtx pro 4500", "RTX-Pro-4500", "rtx_pro_4500"}) {
    EXPECT_TRUE(Contains(TypesFor(name), "g7.2xlarge")) << name;
  }
}

TEST(Issue16Gpu, UnknownNamesSuggestTheNearestModel) {
  InstanceQuery q;
  q.gpus = {"A10"};
  auto r = QueryInstances(Embedded(), q);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "gpu: unknown GPU \"A10\"; did you mean A10G?");
  EXPECT_EQ(GpuSuggestion(Embedded(), "H10O"), "did you mean H100?");
  EXPECT_EQ(GpuSuggestion(Embedded(), "L40"), "did you mean L40S?");
  EXPECT_EQ(GpuSuggestion(Embedded(), "zzzzzzzz"), "");
}

TEST(Issue16Regions, ATypeSoldElsewhereSaysWhere) {
  const InstanceType& dl2q = *Embedded().FindInstanceType("dl2q.24xlarge");
  EXPECT_EQ(RegionHint(dl2q, "us-east-1"),
            "dl2q.24xlarge is not offered in us-east-1; it is offered in eu-central-1, us-west-2 "
            "(try --region eu-central-1)");
  EXPECT_EQ(RegionHint(dl2q, "us-west-2"), "");
  Result<PricingResult> p = PriceType(Embedded(), PricingOf("dl2q.24xlarge"));
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(Has(p.status().message(), "it is offered in eu-central-1")) << p.status().message();
}

}  // namespace
}  // namespace gpuadvisor
