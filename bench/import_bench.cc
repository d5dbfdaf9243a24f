// `catalog import` parser throughput on synthetic AWS Price List offer files (CSV and JSON) of
// GPUADVISOR_BENCH_MB megabytes (default 256), generated once into $TMPDIR. Reports bytes/s per
// core (the parsers are single-threaded) and the process's peak RSS. The ≥500 MB end-to-end run
// with /usr/bin/time and the Python side-by-side is bench/import_throughput.sh.
//   cmake -S . -B build-bench -DGPUADVISOR_BUILD_BENCH=ON && cmake --build build-bench --target
//   import_bench && build-bench/bench/import_bench
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "catalog/import/aws_formats.h"
#include "gpuadvisor/catalog_update.h"
#include "price_list_gen.h"
#include "util/byte_stream.h"

namespace gpuadvisor {
namespace {

uint64_t BenchBytes() {
  const char* mb = std::getenv("GPUADVISOR_BENCH_MB");
  return (mb ? std::strtoull(mb, nullptr, 10) : 256) * 1000 * 1000;
}

// The file is generated on first use and removed at exit.
const std::string& File(bool json) {
  static std::string paths[2];
  std::string& p = paths[json];
  if (p.empty()) {
    const char* dir = std::getenv("TMPDIR");
    p = std::string(dir ? dir : "/tmp") + "/gpuadvisor-bench-" + std::to_string(::getpid()) +
        (json ? ".json" : ".csv");
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (json) {
      bench::WriteJson(f, BenchBytes());
    } else {
      bench::WriteCsv(f, BenchBytes());
    }
    std::fclose(f);
    std::atexit([] {
      for (const std::string& x : paths) {
        if (!x.empty()) std::remove(x.c_str());
      }
    });
  }
  return p;
}

double PeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void Run(benchmark::State& state, bool json) {
  const std::string& path = File(json);
  int64_t bytes = 0, rows = 0, taken = 0;
  for (auto _ : state) {
    auto in = ByteStream::Open(path);
    import::PriceListData d;
    auto keep = [](std::string_view t) { return t[0] == 'p' || t[0] == 'g' || t[0] == 't'; };
    Status st = json ? import::ReadPriceListJson(in->get(), keep, &d)
                     : import::ReadPriceListCsv(in->get(), keep, &d);
    if (!st.ok()) state.SkipWithError(st.message().c_str());
    bytes += (*in)->position();
    rows = d.rows;
    taken = d.canonical_rows;
  }
  state.SetBytesProcessed(bytes);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["canonical"] = static_cast<double>(taken);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}

void BM_PriceListCsv(benchmark::State& state) { Run(state, false); }
void BM_PriceListJson(benchmark::State& state) { Run(state, true); }
BENCHMARK(BM_PriceListCsv)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_PriceListJson)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// --- `catalog update --aws`: the library's side of one region read from the AWS APIs (the AWS
// CLI's own start-up, ~0.5 s a call, is not in it: the runner answers from memory). Answers are
// sized as AWS's for the catalog's types in the region: a Query API product with its 13 terms,
// spot prices in 6 zones, 12 RI offerings and 12 Savings Plans rates per type, 3 Capacity Block
// offers per type sold that way.
using ojson = nlohmann::ordered_json;

std::string Answer(const AwsCall& call, const Catalog& catalog) {
  const std::string& op = call.args.at(1);
  std::vector<std::string> types;
  for (const InstanceType& t : catalog.instance_types()) {
    if (t.FindRegion("us-east-1") != nullptr) types.push_back(t.name);
  }
  ojson out;
  if (op == "get-products") {
    out["PriceList"] = ojson::array();
    for (size_t i = 0; i < types.size(); ++i) {
      const std::string sku = "SKU" + std::to_string(i);
      ojson reserved = ojson::object();
      for (const char* len : {"1yr", "3yr"}) {
        for (const char* klass : {"standard", "convertible"}) {
          for (const char* pay : {"No Upfront", "Partial Upfront", "All Upfront"}) {
            const std::string code = sku + "." + len + klass + pay;
            ojson dims = {{code + ".H", {{"unit", "Hrs"}, {"pricePerUnit", {{"USD", "3.1"}}}}}};
            if (std::string(pay) != "No Upfront") {
              dims[code + ".Q"] = {{"unit", "Quantity"}, {"pricePerUnit", {{"USD", "9000"}}}};
            }
            reserved[code] = {{"priceDimensions", dims},
                              {"termAttributes",
                               {{"LeaseContractLength", len},
                                {"OfferingClass", klass},
                                {"PurchaseOption", pay}}}};
          }
        }
      }
      ojson item = {
          {"product",
           {{"productFamily", "Compute Instance"},
            {"sku", sku},
            {"attributes",
             {{"instanceType", types[i]},
              {"regionCode", "us-east-1"},
              {"tenancy", "Shared"},
              {"operatingSystem", "Linux"},
              {"preInstalledSw", "NA"},
              {"capacitystatus", "Used"},
              {"licenseModel", "No License required"},
              {"operation", "RunInstances"}}}}},
          {"terms",
           {{"OnDemand",
             {{sku + ".OD",
               {{"priceDimensions",
                 {{sku + ".OD.H", {{"unit", "Hrs"}, {"pricePerUnit", {{"USD", "5.5"}}}}}}}}}}},
            {"Reserved", reserved}}},
          {"publicationDate", "2026-12-01T00:00:00Z"}};
      out["PriceList"].push_back(item.dump());
    }
  } else if (op == "describe-spot-price-history") {
    out["SpotPriceHistory"] = ojson::array();
    for (const std::string& t : types) {
      for (char az = 'a'; az < 'g'; ++az) {
        out["SpotPriceHistory"].push_back({{"AvailabilityZone", std::string("us-east-1") + az},
                                           {"InstanceType", t},
                                           {"ProductDescription", "Linux/UNIX"},
                                           {"SpotPrice", "1.234500"},
                                           {"Timestamp", "2026-12-01T08:00:00.000Z"}});
      }
    }
  } else if (op == "describe-reserved-instances-offerings") {
    out["ReservedInstancesOfferings"] = ojson::array();
    for (const std::string& t : types) {
      for (int64_t d : {31536000, 94608000}) {
        for (const char* klass : {"standard", "convertible"}) {
          for (const char* pay : {"No Upfront", "Partial Upfront", "All Upfront"}) {
            const bool none = std::string(pay) == "No Upfront";
            const bool all = std::string(pay) == "All Upfront";
            out["ReservedInstancesOfferings"].push_back(
                {{"Duration", d},
                 {"FixedPrice", none ? 0.0 : 9000.0},
                 {"InstanceType", t},
                 {"UsagePrice", 0.0},
                 {"OfferingClass", klass},
                 {"OfferingType", pay},
                 {"RecurringCharges",
                  all ? ojson::array()
                      : ojson::array({{{"Amount", 3.1}, {"Frequency", "Hourly"}}})},
                 {"Scope", "Region"}});
          }
        }
      }
    }
  } else if (op == "describe-savings-plans-offering-rates") {
    out["searchResults"] = ojson::array();
    for (const std::string& t : types) {
      for (const char* plan : {"Compute", "EC2Instance"}) {
        for (int64_t d : {31536000, 94608000}) {
          for (const char* pay : {"No Upfront", "Partial Upfront", "All Upfront"}) {
            out["searchResults"].push_back(
                {{"savingsPlanOffering",
                  {{"planType", plan}, {"paymentOption", pay}, {"durationSeconds", d}}},
                 {"rate", "2.5"},
                 {"usageType", "USE1-BoxUsage:" + t},
                 {"operation", "RunInstances"},
                 {"properties",
                  {{{"name", "region"}, {"value", "us-east-1"}},
                   {{"name", "instanceType"}, {"value", t}},
                   {{"name", "productDescription"}, {"value", "Linux/UNIX"}},
                   {{"name", "tenancy"}, {"value", "shared"}}}}});
          }
        }
      }
    }
    out["nextToken"] = "";
  } else if (op == "describe-capacity-block-offerings") {
    out["CapacityBlockOfferings"] = ojson::array();
    for (char az = 'a'; az < 'd'; ++az) {
      out["CapacityBlockOfferings"].push_back(
          {{"InstanceType", call.args.at(3)},
           {"AvailabilityZone", std::string("us-east-1") + az},
           {"InstanceCount", 1},
           {"StartDate",
            std::string("2026-12-0") + static_cast<char>('6' + (az - 'a')) + "T11:30:00Z"},
           {"EndDate", "2026-12-10T11:30:00Z"},
           {"CapacityBlockDurationHours", 24},
           {"UpfrontFee", "756.00"}});
    }
  }
  return out.dump();
}

// One region, all of its calls merged; bytes = the answers' size.
void BM_AwsUpdateRegion(benchmark::State& state) {
  const Catalog base = **EmbeddedCatalog();
  std::map<std::string, std::string> answers;  // by operation and type: built once
  int64_t bytes = 0, calls = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Catalog c = base;
    UpdateSettings s;
    s.regions = {"us-east-1"};
    s.spot_base = "http://127.0.0.1:9";  // the public feed: refused at once, not measured
    s.retries = 0;
    s.today = "2026-12-05";
    s.aws = [&](const AwsCall& call) -> Result<std::string> {
      const std::string key = call.args.at(1) + " " + call.args.at(3);
      auto it = answers.find(key);
      if (it == answers.end()) it = answers.emplace(key, Answer(call, base)).first;
      bytes += static_cast<int64_t>(it->second.size());
      ++calls;
      return it->second;
    };
    UpdateCache cache;
    CatalogUpdateReport report;
    state.ResumeTiming();
    Status st = UpdateCatalog(&c, s, &cache, &report);
    if (!st.ok()) state.SkipWithError(st.message().c_str());
  }
  state.SetBytesProcessed(bytes);
  state.counters["calls"] =
      benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kAvgIterations);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_AwsUpdateRegion)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

}  // namespace
}  // namespace gpuadvisor

BENCHMARK_MAIN();
