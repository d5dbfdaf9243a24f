// `catalog import` readers and merge rules on the checked-in fixtures (tests/catalog/fixtures:
// trimmed real AWS shapes with a canonical p5.48xlarge row among decoys).
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "catalog/import/aws_formats.h"
#include "gpuadvisor/catalog_import.h"
#include "util/byte_stream.h"
#include "util/csv.h"

namespace gpuadvisor {
namespace {

std::string Fixture(const std::string& name) { return std::string(IMPORT_FIXTURES) + "/" + name; }

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string Gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A temporary file removed at scope exit.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/gpuadvisor-import-test-XXXXXX";
    int fd = mkstemp(name);
    path = name;
    ::close(fd);
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

Catalog Embedded() { return **EmbeddedCatalog(); }

const RegionOffer& Offer(const Catalog& c, const char* type, const char* region) {
  const InstanceType* t = c.FindInstanceType(type);
  EXPECT_NE(t, nullptr) << type;
  const RegionOffer* o = t ? t->FindRegion(region) : nullptr;
  EXPECT_NE(o, nullptr) << type << " " << region;
  static const RegionOffer kNone;
  return o ? *o : kNone;
}

import::PriceListData ReadPriceList(const std::string& text, bool json) {
  auto in = ByteStream::FromMemory(text, "prices");
  import::PriceListData d;
  auto keep = [](std::string_view t) { return t != "m5.large"; };
  Status st = json ? import::ReadPriceListJson(in.get(), keep, &d)
                   : import::ReadPriceListCsv(in.get(), keep, &d);
  EXPECT_TRUE(st.ok()) << st.message();
  return d;
}

TEST(StreamCsv, QuotesEscapesCrlfAndTinyBuffers) {
  const std::string text = "a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",,x\nlast,row";
  for (size_t buf : {64, 4096}) {
    auto in = ByteStream::FromMemory(text, "t.csv");
    CsvReader csv(in.get(), buf);
    ASSERT_TRUE(csv.Next());
    ASSERT_EQ(csv.size(), 3u);
    EXPECT_EQ(csv[1], "b,c");
    EXPECT_EQ(CsvReader::Unescape(csv[2]), "say \"hi\"");
    ASSERT_TRUE(csv.Next());
    EXPECT_EQ(csv.line(), 2);
    EXPECT_EQ(csv[0], "multi\nline");
    EXPECT_EQ(csv[1], "");
    ASSERT_TRUE(csv.Next());
    EXPECT_EQ(csv.line(), 4);
    EXPECT_EQ(csv[1], "row");
    EXPECT_FALSE(csv.Next());
    EXPECT_TRUE(csv.status().ok());
  }
}

TEST(StreamCsv, ErrorsNameTheLine) {
  auto in = ByteStream::FromMemory("a,b\n\"open,c\n", "t.csv");
  CsvReader csv(in.get());
  ASSERT_TRUE(csv.Next());
  EXPECT_FALSE(csv.Next());
  EXPECT_EQ(csv.status().message(), "t.csv:2: unterminated quoted field: expected a closing '\"'");
  auto in2 = ByteStream::FromMemory("\"a\"x,b\n", "u.csv");
  CsvReader csv2(in2.get());
  EXPECT_FALSE(csv2.Next());
  EXPECT_NE(csv2.status().message().find("u.csv:1: expected ','"), std::string::npos);
}

TEST(ByteStream, GzipIsDetectedAndTruncationIsAnError) {
  const std::string text = Slurp(Fixture("price-list-p5.csv"));
  const std::string two = Gzip(text) + Gzip("tail\n");
  auto in = ByteStream::FromMemory(two, "p.csv.gz");
  Result<std::string> back = ReadAll(in.get());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, text + "tail\n");  // concatenated members too
  std::string gz = Gzip(text);
  auto cut = ByteStream::FromMemory(std::string_view(gz).substr(0, gz.size() / 2), "cut.gz");
  Result<std::string> bad = ReadAll(cut.get());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("truncated gzip"), std::string::npos);
}

TEST(PriceListCsv, TakesTheCanonicalRowOnly) {
  import::PriceListData d = ReadPriceList(Slurp(Fixture("price-list-p5.csv")), false);
  EXPECT_EQ(d.version, "20261120180000");
  EXPECT_EQ(d.publication_date, "2026-11-20");
  ASSERT_TRUE(d.entries.count("p5.48xlarge\tus-east-1"));
  const import::PriceListEntry& e = d.entries.at("p5.48xlarge\tus-east-1");
  EXPECT_DOUBLE_EQ(*e.on_demand, 61.77);  // not Windows, dedicated, reservations, SQL, RHEL
  EXPECT_DOUBLE_EQ(*e.ri[0][0][0].hourly, 38.91);  // not the Windows RI row
  EXPECT_DOUBLE_EQ(*e.ri[0][0][1].upfront, 162231);
  EXPECT_DOUBLE_EQ(*e.ri[0][0][1].hourly, 18.52);
  EXPECT_DOUBLE_EQ(*e.ri[1][1][2].upfront, 790000);
  EXPECT_FALSE(e.ri[1][0][1].hourly);
  EXPECT_DOUBLE_EQ(*d.entries.at("p5.48xlarge\tus-west-2").on_demand, 61.0);
  EXPECT_FALSE(d.entries.count("m5.large\tus-east-1"));  // filtered by the type filter
  EXPECT_EQ(d.entries.size(), 4u);                       // + the Local Zone and p7 rows
}

TEST(PriceListJson, SameFiguresAsTheCsv) {
  import::PriceListData c = ReadPriceList(Slurp(Fixture("price-list-p5.csv")), false);
  import::PriceListData j = ReadPriceList(Slurp(Fixture("price-list-p5.json")), true);
  EXPECT_EQ(j.version, c.version);
  EXPECT_EQ(j.publication_date, c.publication_date);
  ASSERT_EQ(j.entries.size(), c.entries.size());
  for (const auto& [k, e] : c.entries) {
    const import::PriceListEntry& x = j.entries.at(k);
    EXPECT_EQ(x.on_demand, e.on_demand) << k;
    for (int y = 0; y < 2; ++y) {
      for (int o = 0; o < 2; ++o) {
        for (int p = 0; p < 3; ++p) {
          EXPECT_EQ(x.ri[y][o][p].hourly, e.ri[y][o][p].hourly) << k;
          EXPECT_EQ(x.ri[y][o][p].upfront, e.ri[y][o][p].upfront) << k;
        }
      }
    }
  }
}

// AWS China's price list has the same format in CNY: its rows are taken for the China regions,
// in yuan; a row whose currency is not its region's partition's is skipped and counted, never
// taken as the other currency.
TEST(PriceListCsv, ChinaRowsAreTakenInYuanAndAWrongCurrencyIsSkippedWithItsReason) {
  std::string text = Slurp(Fixture("price-list-p5.csv"));
  // The us-west-2 row becomes a Ningxia one priced in CNY.
  const size_t row = text.find("\"P5USW20000000001\"");
  ASSERT_NE(row, std::string::npos);
  const size_t end = text.find('\n', row);
  std::string cn = text.substr(row, end - row);
  auto swap = [&](std::string& line, const std::string& from, const std::string& to) {
    const size_t at = line.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    line.replace(at, from.size(), to);
  };
  swap(cn, "\"61.0000000000\",\"USD\"", "\"400.5000000000\",\"CNY\"");
  swap(cn, "us-west-2", "cn-northwest-1");
  std::string wrong = text.substr(row, end - row);  // us-west-2 in CNY: not its currency
  swap(wrong, "\"USD\"", "\"CNY\"");
  const std::string both = text.substr(0, row) + cn + "\n" + wrong + text.substr(end);
  import::PriceListData d = ReadPriceList(both, false);
  ASSERT_TRUE(d.entries.count("p5.48xlarge\tcn-northwest-1"));
  EXPECT_DOUBLE_EQ(*d.entries.at("p5.48xlarge\tcn-northwest-1").on_demand, 400.5);
  EXPECT_FALSE(d.entries.count("p5.48xlarge\tus-west-2") &&
               d.entries.at("p5.48xlarge\tus-west-2").on_demand);
  EXPECT_EQ(d.skipped[import::kSkipCurrency], 1);
}

TEST(PriceListCsv, MalformedInputsNameTheLine) {
  std::string text = Slurp(Fixture("price-list-p5.csv"));
  auto read = [](const std::string& t) {
    auto in = ByteStream::FromMemory(t, "bad.csv");
    import::PriceListData d;
    return import::ReadPriceListCsv(in.get(), [](std::string_view) { return true; }, &d);
  };
  std::string no_price = text;
  no_price.replace(no_price.find("\"PricePerUnit\""), 14, "\"Price\"");
  Status st = read(no_price);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_EQ(st.message(), "bad.csv:6: missing column \"PricePerUnit\" in the header");
  st = read(text + "\x01\x02garbage\xff,\n");
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("bad.csv:31: expected 91 fields as in the header, got 2"),
            std::string::npos)
      << st.message();
  std::string bad_price = text;
  bad_price.replace(bad_price.find("\"61.7700000000\""), 15, "\"61,77\"");
  st = read(bad_price);
  EXPECT_NE(st.message().find("column \"PricePerUnit\": expected a number"), std::string::npos)
      << st.message();
  EXPECT_EQ(read("\"a\",\"b\"\n").message(),
            "bad.csv:2: expected a header row starting with \"SKU\", got the end of the file");
}

TEST(PriceListJson, TruncatedAndMisorderedInputsAreErrors) {
  std::string text = Slurp(Fixture("price-list-p5.json"));
  auto read = [](const std::string& t) {
    auto in = ByteStream::FromMemory(t, "bad.json");
    import::PriceListData d;
    return import::ReadPriceListJson(in.get(), [](std::string_view) { return true; }, &d);
  };
  Status st = read(text.substr(0, text.size() / 2));
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  // file:line first, then the byte offset.
  EXPECT_TRUE(st.message().starts_with("bad.json:")) << st.message();
  EXPECT_NE(st.message().find(": byte "), std::string::npos) << st.message();
  st = read(R"({"terms": {"OnDemand": {}}, "products": {}})");
  EXPECT_NE(st.message().find("expected \"products\" before \"terms\""), std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("\"61.7700000000\""), 15, "\"abc\"");
  EXPECT_NE(read(bad).message().find("pricePerUnit.USD: expected a number"), std::string::npos);
}

TEST(Import, PriceListSetsOnDemandAndReservedWithHistory) {
  Catalog c = Embedded();
  const double before = Offer(c, "p5.48xlarge", "us-east-1").on_demand->usd_per_hour;
  ImportInputs in;
  in.price_list = {Fixture("price-list-p5.csv")};
  ImportReport r;
  ASSERT_TRUE(ImportIntoCatalog(&c, in, &r).ok());
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  EXPECT_DOUBLE_EQ(o.on_demand->usd_per_hour, 61.77);
  EXPECT_EQ(o.on_demand->from.source, "aws-price-list-20261120180000");
  EXPECT_EQ(o.on_demand->from.date, "2026-11-20");
  ASSERT_TRUE(o.reserved_1y_no_upfront);
  EXPECT_DOUBLE_EQ(o.reserved_1y_no_upfront->usd_per_hour, 38.91);
  ASSERT_EQ(o.reserved.size(), 6u);
  const ReservedPrice* partial = o.FindReserved(1, "standard", "partial-upfront");
  ASSERT_NE(partial, nullptr);
  EXPECT_NEAR(partial->effective_usd_per_hour(), 18.52 + 162231 / 8760.0, 1e-9);
  ASSERT_NE(o.FindReserved(3, "convertible", "all-upfront"), nullptr);
  // History keeps the previous on-demand price and the new one, oldest first.
  std::vector<PricePoint> od;
  for (const PricePoint& p : o.history) {
    if (p.kind == "on-demand") od.push_back(p);
  }
  ASSERT_EQ(od.size(), 2u);
  EXPECT_DOUBLE_EQ(od[0].usd_per_hour, before);
  EXPECT_DOUBLE_EQ(od[1].usd_per_hour, 61.77);
  EXPECT_NE(c.FindSource("aws-price-list-20261120180000"), nullptr);
  EXPECT_EQ(r.unknown_types, std::vector<std::string>{"p7.48xlarge"});
  ASSERT_EQ(r.inputs.size(), 1u);
  EXPECT_EQ(r.inputs[0].rows, 24);
  EXPECT_GE(r.prices_set, 2);
  // Estimated spot follows the new on-demand price.
  const RegionOffer& g = Offer(c, "p5.48xlarge", "us-west-2");
  EXPECT_DOUBLE_EQ(g.on_demand->usd_per_hour, 61.0);
  // The new fields round-trip through the catalog's JSON form.
  Result<Catalog> back = ParseCatalogJson(CatalogToJson(c), "x");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const RegionOffer& b = Offer(*back, "p5.48xlarge", "us-east-1");
  ASSERT_EQ(b.reserved.size(), o.reserved.size());
  for (size_t i = 0; i < b.reserved.size(); ++i) {
    EXPECT_EQ(b.reserved[i].term(), o.reserved[i].term());
    EXPECT_DOUBLE_EQ(b.reserved[i].upfront_usd, o.reserved[i].upfront_usd);
    EXPECT_DOUBLE_EQ(b.reserved[i].usd_per_hour, o.reserved[i].usd_per_hour);
    EXPECT_EQ(b.reserved[i].from.source, o.reserved[i].from.source);
  }
  ASSERT_EQ(b.history.size(), o.history.size());
  EXPECT_EQ(b.history.back().from.date, o.history.back().from.date);
  // A diff shows the change.
  CatalogDiff d = DiffCatalogs(Embedded(), c);
  bool found = false;
  for (const CatalogDiff::PriceChange& ch : d.price_changes) {
    if (ch.instance_type == "p5.48xlarge" && ch.region == "us-east-1" && ch.price == "on-demand") {
      found = ch.old_per_hour->amount == before && ch.new_per_hour->amount == 61.77;
    }
  }
  EXPECT_TRUE(found);
}

// An empty file or a JSON array is named as what it is, not as a CSV without a header.
TEST(Import, EmptyOrArrayPriceListsSayWhatTheyAre) {
  const std::string dir = testing::TempDir();
  for (const auto& [name, text, what] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"empty.csv", "", ": empty; expected an AWS price-list offer file"},
           {"blank.json", " \n\n", ": empty; expected an AWS price-list offer file"},
           {"array.json", "[]\n", ": a JSON array; expected an AWS price-list offer file"}}) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    Catalog c = Embedded();
    ImportInputs in;
    in.price_list = {path};
    ImportReport r;
    const Status st = ImportIntoCatalog(&c, in, &r);
    EXPECT_EQ(st.code(), StatusCode::kParseError) << name;
    EXPECT_NE(st.message().find(path + what), std::string::npos) << st.message();
  }
}

TEST(Import, OlderSourcesDoNotOverwriteNewerPrices) {
  std::string text = Slurp(Fixture("price-list-p5.csv"));
  text.replace(text.find("2026-11-20T18"), 13, "2019-01-01T00");
  TempFile f(text);
  Catalog c = Embedded();
  const Price before = *Offer(c, "p5.48xlarge", "us-east-1").on_demand;
  ImportInputs in;
  in.price_list = {f.path};
  ImportReport r;
  ASSERT_TRUE(ImportIntoCatalog(&c, in, &r).ok());
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  EXPECT_DOUBLE_EQ(o.on_demand->usd_per_hour, before.usd_per_hour);
  EXPECT_EQ(o.on_demand->from.source, before.from.source);
  EXPECT_GE(r.prices_kept_newer, 1);
  // Recorded in the history (beside the catalog's own dated points), not used.
  bool recorded = false;
  for (const PricePoint& p : o.history) {
    recorded = recorded || (p.kind == "on-demand" && p.from.date == "2019-01-01");
  }
  EXPECT_TRUE(recorded);
}

TEST(Import, JsonAndGzipPriceListsGiveTheSameCatalog) {
  Catalog a = Embedded(), b = Embedded();
  ImportInputs in;
  ImportReport r;
  in.price_list = {Fixture("price-list-p5.csv")};
  ASSERT_TRUE(ImportIntoCatalog(&a, in, &r).ok());
  TempFile gz(Gzip(Slurp(Fixture("price-list-p5.json"))));
  in.price_list = {gz.path};
  ASSERT_TRUE(ImportIntoCatalog(&b, in, &r).ok());
  EXPECT_EQ(r.inputs.back().format, "price-list-json");
  for (CatalogSource& s : b.sources) s.name = s.origin = "";
  for (CatalogSource& s : a.sources) s.name = s.origin = "";
  EXPECT_EQ(CatalogToJson(a), CatalogToJson(b));
}

// Everything but prices and provenance, as the catalog file stores it.
std::string SpecJson(InstanceType t) {
  t.regions.clear();
  t.spec_from = {};
  Catalog one;
  one.PutInstanceType(std::move(t));
  return CatalogToJson(one);
}

TEST(Import, DescribeInstanceTypesRoundTripsTheEmbeddedSpecs) {
  const Catalog before = Embedded();
  Catalog c = before;
  ImportInputs in;
  in.instance_types = {Fixture("describe-instance-types-accelerated.json.gz")};
  in.snapshot_date = "2026-12-01";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  // The fixture is DescribeInstanceTypes for every current type of the embedded catalog: each
  // is taken and updated, none added, and each comes back with the specs it had. UltraServers
  // have no DescribeInstanceTypes record (their specs come from the Capacity Block source): they
  // are left as they were.
  int current = 0;
  for (const InstanceType& t : before.instance_types()) {
    current += t.retired || t.ultraserver() ? 0 : 1;
  }
  ASSERT_GT(current, 0);
  EXPECT_EQ(r.inputs[0].taken, current);
  EXPECT_EQ(r.types_added, 0);
  EXPECT_EQ(r.types_updated, current);
  EXPECT_EQ(c.instance_types().size(), before.instance_types().size());
  int compared = 0;
  for (const InstanceType& t : c.instance_types()) {
    const InstanceType* old = before.FindInstanceType(t.name);
    ASSERT_NE(old, nullptr);
    if (t.retired) continue;
    if (t.ultraserver()) {
      EXPECT_EQ(SpecJson(t), SpecJson(*old)) << t.name;
      EXPECT_EQ(t.spec_from.source, old->spec_from.source) << t.name;
      continue;
    }
    EXPECT_EQ(t.spec_from.source, "describe-instance-types-2026-12-01");
    EXPECT_EQ(SpecJson(t), SpecJson(*old)) << t.name;
    EXPECT_EQ(t.regions.size(), old->regions.size()) << t.name;  // prices kept
    ++compared;
  }
  EXPECT_EQ(compared, current);
  EXPECT_EQ(c.corrections.size(), before.corrections.size());
}

TEST(Import, NewTypeIsAdded) {
  Catalog c = Embedded();
  ImportInputs in;
  in.instance_types = {Fixture("describe-instance-types-new-type.json")};
  in.price_list = {Fixture("price-list-p5.csv")};
  ImportReport r;
  ASSERT_TRUE(ImportIntoCatalog(&c, in, &r).ok());
  EXPECT_EQ(r.types_added, 1);
  const InstanceType* t = c.FindInstanceType("p5z.48xlarge");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->accelerator.model, "H100");
  EXPECT_EQ(t->family, "p5z");
}

TEST(Import, SavingsPlansOfferingsSpotHistoryAndAdvisor) {
  Catalog c = Embedded();
  ImportInputs in;
  in.savings_plans = {Fixture("savings-plans-p5.csv")};
  in.offerings = {Fixture("offerings-az-id.json")};
  in.spot_history = {Fixture("spot-history-p5.json")};
  in.spot_advisor = {Fixture("spot-advisor-trimmed.json")};
  in.snapshot_date = "2026-12-01";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  ASSERT_EQ(o.savings_plans.size(), 3u);  // not the dedicated or Windows rows
  EXPECT_EQ(o.savings_plans[0].term(), "compute-1y-no-upfront");
  EXPECT_DOUBLE_EQ(o.savings_plans[0].usd_per_hour, 43.12);
  EXPECT_EQ(o.savings_plans[0].from.date, "2026-11-18");
  EXPECT_EQ(o.savings_plans[1].term(), "ec2-instance-1y-partial-upfront");
  EXPECT_EQ(o.savings_plans[2].term(), "compute-3y-all-upfront");
  // Offerings by AZ ID: the region is learnt from the catalog's own AZ IDs.
  EXPECT_NE(std::find(o.az_ids.begin(), o.az_ids.end(), "use1-az9"), o.az_ids.end());
  EXPECT_EQ(o.offered, std::optional<bool>(true));
  // Spot: the lowest of the latest price per AZ (1a: 18.12 on the 20th, 1b: 19.50 on the 19th).
  ASSERT_TRUE(o.spot);
  EXPECT_DOUBLE_EQ(o.spot->usd_per_hour, 18.12);
  EXPECT_FALSE(o.spot->estimated);
  EXPECT_EQ(o.spot->from.date, "2026-11-20");
  int spot_points = 0;
  for (const PricePoint& p : o.history) spot_points += p.kind == "spot";
  EXPECT_GE(spot_points, 5);  // the previous price + one per day seen
  // Spot advisor: a new band for g6.xlarge; its estimated spot follows.
  const RegionOffer& g = Offer(c, "g6.xlarge", "us-east-1");
  ASSERT_TRUE(g.spot_band);
  EXPECT_EQ(g.spot_band->label, "5-10%");
  EXPECT_EQ(g.spot_band->savings_pct, 71);
  if (g.spot && g.spot->estimated) {
    EXPECT_NEAR(g.spot->usd_per_hour, g.on_demand->usd_per_hour * 0.29, 1e-9);
  }
}

TEST(Import, MalformedAwsJsonInputs) {
  Catalog c = Embedded();
  ImportReport r;
  TempFile bad_spot(
      R"({"SpotPriceHistory":[{"AvailabilityZone":"us-east-1a","InstanceType":"p5.48xlarge","SpotPrice":"cheap","Timestamp":"2026-11-20T00:00:00Z"}]})");
  ImportInputs in;
  in.spot_history = {bad_spot.path};
  Status st = ImportIntoCatalog(&c, in, &r);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("$.SpotPriceHistory[0].SpotPrice"), std::string::npos)
      << st.message();
  TempFile bad_off(R"({"InstanceTypeOfferings":[{"Location":"us-east-1"}]})");
  in.spot_history.clear();
  in.offerings = {bad_off.path};
  st = ImportIntoCatalog(&c, in, &r);
  EXPECT_NE(st.message().find("InstanceType"), std::string::npos) << st.message();
  in.offerings = {"/nonexistent/offerings.json"};
  EXPECT_EQ(ImportIntoCatalog(&c, in, &r).code(), StatusCode::kIOError);
}

// --- The answers of the AWS APIs read with credentials (`catalog update --aws`).

import::TypeFilter KeepAll() {
  return [](std::string_view) { return true; };
}

// The Query API's items are the bulk file's products with their terms: the same canonical filter
// gives the same figures (the fixture is price-list-p5.json's products, one item each).
TEST(PriceListQuery, SameFiguresAsTheBulkFile) {
  import::PriceListData bulk = ReadPriceList(Slurp(Fixture("price-list-p5.json")), true);
  import::PriceListData q;
  Status st = import::ReadPriceListQueryJson(
      Slurp(Fixture("get-products-p5.json")), "get-products.json",
      [](std::string_view t) { return t != "m5.large"; }, &q);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(q.publication_date, "2026-11-20");
  EXPECT_EQ(q.canonical_rows, bulk.canonical_rows);
  ASSERT_EQ(q.entries.size(), bulk.entries.size());
  ASSERT_FALSE(q.entries.empty());
  for (const auto& [key, e] : bulk.entries) {
    const import::PriceListEntry& got = q.entries.at(key);
    EXPECT_EQ(got.on_demand, e.on_demand) << key;
    for (int y = 0; y < 2; ++y) {
      for (int k = 0; k < 2; ++k) {
        for (int p = 0; p < 3; ++p) {
          EXPECT_EQ(got.ri[y][k][p].hourly, e.ri[y][k][p].hourly) << key << y << k << p;
          EXPECT_EQ(got.ri[y][k][p].upfront, e.ri[y][k][p].upfront) << key << y << k << p;
        }
      }
    }
  }
}

TEST(PriceListQuery, MalformedAnswersNameTheItem) {
  auto read = [](const std::string& text) {
    import::PriceListData d;
    return import::ReadPriceListQueryJson(text, "q.json", KeepAll(), &d);
  };
  Status st = read(R"({"PriceList": [42]})");
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("$.PriceList[0]"), std::string::npos) << st.message();
  st = read(R"({"PriceList": ["{not json"]})");
  EXPECT_NE(st.message().find("a product as a JSON object in a string"), std::string::npos)
      << st.message();
  st = read(R"({"PriceList": ["{\"terms\": {}}"]})");
  EXPECT_NE(st.message().find("$.PriceList[0].product"), std::string::npos) << st.message();
  st = read(R"({"PriceList": ["{\"product\": {\"sku\": \"A\"}, \"publicationDate\": \"soon\"}"]})");
  EXPECT_NE(st.message().find("publicationDate"), std::string::npos) << st.message();
  EXPECT_EQ(read(R"({"Products": []})").code(), StatusCode::kParseError);
  EXPECT_TRUE(read(R"({"FormatVersion": "aws_v1", "PriceList": []})").ok());
}

TEST(Import, ReservedOfferingsAreTheRegionsTermsAsEc2SellsThem) {
  Catalog c = Embedded();
  ImportInputs in;
  in.reserved_offerings = {"us-east-1=" + Fixture("reserved-offerings-p5.json")};
  in.snapshot_date = "2026-12-05";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  const ReservedPrice* no = o.FindReserved(1, "standard", "no-upfront");
  ASSERT_NE(no, nullptr);
  // The regional, AWS-sold, default-tenancy Linux offering; not the zonal (30), Marketplace
  // (20), dedicated (40) or Windows (45) ones.
  EXPECT_DOUBLE_EQ(no->usd_per_hour, 36.52);
  EXPECT_DOUBLE_EQ(no->upfront_usd, 0);
  EXPECT_EQ(no->from.source, "ec2-reserved-offerings-2026-12-05");
  EXPECT_EQ(no->from.date, "2026-12-05");
  const ReservedPrice* partial = o.FindReserved(1, "standard", "partial-upfront");
  ASSERT_NE(partial, nullptr);
  EXPECT_DOUBLE_EQ(partial->upfront_usd, 157880);
  EXPECT_DOUBLE_EQ(partial->usd_per_hour, 18.02);
  const ReservedPrice* all = o.FindReserved(1, "standard", "all-upfront");
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(all->upfront_usd, 309470);
  EXPECT_DOUBLE_EQ(all->usd_per_hour, 0);
  const ReservedPrice* conv = o.FindReserved(3, "convertible", "no-upfront");
  ASSERT_NE(conv, nullptr);
  EXPECT_DOUBLE_EQ(conv->usd_per_hour, 27.61);
  // The headline 1-year price every command shows is the new offering's.
  ASSERT_TRUE(o.reserved_1y_no_upfront);
  EXPECT_DOUBLE_EQ(o.reserved_1y_no_upfront->usd_per_hour, 36.52);
  ASSERT_EQ(r.inputs.size(), 1u);
  EXPECT_EQ(r.inputs[0].format, "reserved-offerings-json");
  EXPECT_EQ(r.inputs[0].rows, 9);
  EXPECT_EQ(r.inputs[0].taken, 4);

  // The answer names no region: the input must.
  in.reserved_offerings = {Fixture("reserved-offerings-p5.json")};
  st = ImportIntoCatalog(&c, in, &r);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.field(), "reserved-offerings");
  // Yuan for a US region is skipped and counted, never taken as dollars.
  TempFile cny(
      R"({"ReservedInstancesOfferings":[{"Duration":31536000,"FixedPrice":0.0,"InstanceType":"p5.48xlarge","UsagePrice":0.0,"CurrencyCode":"CNY","OfferingClass":"standard","OfferingType":"No Upfront","RecurringCharges":[{"Amount":250.0,"Frequency":"Hourly"}]}]})");
  in.reserved_offerings = {"us-east-1=" + cny.path};
  ImportReport r2;
  ASSERT_TRUE(ImportIntoCatalog(&c, in, &r2).ok());
  ASSERT_EQ(r2.skipped.size(), 1u);
  EXPECT_EQ(r2.skipped[0].reason, import::kSkipCurrency);
  EXPECT_DOUBLE_EQ(
      Offer(c, "p5.48xlarge", "us-east-1").FindReserved(1, "standard", "no-upfront")->usd_per_hour,
      36.52);
  // A malformed figure names its place.
  TempFile bad(
      R"({"ReservedInstancesOfferings":[{"Duration":31536000,"FixedPrice":-5,"InstanceType":"p5.48xlarge","UsagePrice":0.0,"OfferingClass":"standard","OfferingType":"Partial Upfront"}]})");
  in.reserved_offerings = {"us-east-1=" + bad.path};
  st = ImportIntoCatalog(&c, in, &r2);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("$.ReservedInstancesOfferings[0].FixedPrice"), std::string::npos)
      << st.message();
}

TEST(Import, SavingsPlanRatesFromTheApi) {
  Catalog c = Embedded();
  ImportInputs in;
  in.savings_plan_rates = {Fixture("savings-plan-rates-p5.json")};
  in.snapshot_date = "2026-12-05";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  std::map<std::string, double> got;
  for (const SavingsPlanRate& sp : o.savings_plans) {
    if (sp.from.source == "savings-plans-offering-rates-2026-12-05")
      got[sp.term()] = sp.usd_per_hour;
  }
  // Not the Windows, dedicated or SageMaker rates.
  EXPECT_EQ(got, (std::map<std::string, double>{{"compute-1y-no-upfront", 41.23},
                                                {"compute-3y-all-upfront", 26.91},
                                                {"ec2-instance-1y-no-upfront", 35.1}}));
  EXPECT_EQ(r.inputs[0].rows, 6);
  EXPECT_EQ(r.inputs[0].taken, 3);

  // Pages, as the updater joins them: the last page's token says whether more follow.
  std::string token;
  import::SavingsPlansData d;
  st = import::ReadSavingsPlanRatesJson(
      R"([{"searchResults": [], "nextToken": "t2"}, {"searchResults": [], "nextToken": "t3"}])",
      "pages", KeepAll(), &d, &token);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(token, "t3");
  st = import::ReadSavingsPlanRatesJson(
      R"({"searchResults": [{"savingsPlanOffering": {"planType": "Compute", "paymentOption": "No Upfront", "durationSeconds": 31536000}, "rate": "lots", "usageType": "BoxUsage:p5.48xlarge", "operation": "RunInstances", "properties": [{"name": "region", "value": "us-east-1"}, {"name": "instanceType", "value": "p5.48xlarge"}, {"name": "productDescription", "value": "Linux/UNIX"}, {"name": "tenancy", "value": "shared"}]}]})",
      "rates", KeepAll(), &d, &token);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("$.searchResults[0].rate"), std::string::npos) << st.message();
}

TEST(Import, CapacityBlockOffersPriceTheSoonestBlock) {
  Catalog c = Embedded();
  ImportInputs in;
  in.capacity_blocks = {Fixture("capacity-blocks-p5.json")};
  in.snapshot_date = "2026-12-05";
  ImportReport r;
  Status st = ImportIntoCatalog(&c, in, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  const RegionOffer& o = Offer(c, "p5.48xlarge", "us-east-1");
  ASSERT_TRUE(o.capacity_block);
  // The soonest block (us-east-1b, 8 December), not the cheaper later one: 802.56 / 24 h.
  EXPECT_DOUBLE_EQ(o.capacity_block->usd_per_hour, 802.56 / 24);
  EXPECT_EQ(o.capacity_block->from.source, "capacity-block-offerings-2026-12-05");
  EXPECT_NE(o.capacity_block->note.find("from 2026-12-08T11:30:00+00:00 in us-east-1b"),
            std::string::npos)
      << o.capacity_block->note;
  EXPECT_NE(o.capacity_block->note.find("802.56 USD upfront"), std::string::npos);
  bool in_history = false;
  for (const PricePoint& p : o.history) {
    in_history = in_history || (p.kind == "capacity-block" && p.from.date == "2026-12-05");
  }
  EXPECT_TRUE(in_history);
  const RegionOffer& w = Offer(c, "p5.48xlarge", "us-west-2");
  ASSERT_TRUE(w.capacity_block);
  EXPECT_DOUBLE_EQ(w.capacity_block->usd_per_hour, 739.20 / 24);
  EXPECT_EQ(r.inputs[0].taken, 2);

  TempFile bad(
      R"({"CapacityBlockOfferings":[{"InstanceType":"p5.48xlarge","AvailabilityZone":"us-east-1a","InstanceCount":1,"StartDate":"2026-12-09T11:30:00Z","EndDate":"2026-12-10T11:30:00Z","CapacityBlockDurationHours":24,"UpfrontFee":"a lot"}]})");
  in.capacity_blocks = {bad.path};
  st = ImportIntoCatalog(&c, in, &r);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("$.CapacityBlockOfferings[0].UpfrontFee"), std::string::npos)
      << st.message();
  TempFile zero_hours(
      R"({"CapacityBlockOfferings":[{"InstanceType":"p5.48xlarge","AvailabilityZone":"us-east-1a","InstanceCount":1,"StartDate":"2026-12-09T11:30:00Z","EndDate":"2026-12-10T11:30:00Z","CapacityBlockDurationHours":0,"UpfrontFee":"756.00"}]})");
  in.capacity_blocks = {zero_hours.path};
  st = ImportIntoCatalog(&c, in, &r);
  EXPECT_NE(st.message().find("CapacityBlockDurationHours"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace gpuadvisor
