// Catalog build rules on small in-memory sources (no files): fractional GPUs, retired types,
// source precedence, spot estimation, known-error corrections, error messages.
#include <gtest/gtest.h>

#include "catalog/build/sources.h"
#include "gpuadvisor/catalog_build.h"

namespace gpuadvisor {
namespace {

const char* kTypes = R"({"InstanceTypes": [
 {"InstanceType": "g6f.large", "VCpuInfo": {"DefaultVCpus": 2}, "MemoryInfo": {"SizeInMiB": 8192},
  "GpuInfo": {"Gpus": [{"Name": "L4", "Manufacturer": "NVIDIA", "Count": 0, "LogicalGpuCount": 1,
     "GpuPartitionSize": 0.125, "MemoryInfo": {"SizeInMiB": 2861}}], "TotalGpuMemoryInMiB": 2861},
  "NetworkInfo": {"NetworkPerformance": "Up to 10 Gigabit", "EfaSupported": false},
  "SupportedUsageClasses": ["on-demand", "spot"]},
 {"InstanceType": "p5.48xlarge", "VCpuInfo": {"DefaultVCpus": 192}, "MemoryInfo": {"SizeInMiB": 2097152},
  "GpuInfo": {"Gpus": [{"Name": "H100", "Manufacturer": "NVIDIA", "Count": 8, "LogicalGpuCount": 8,
     "GpuPartitionSize": 1.0, "MemoryInfo": {"SizeInMiB": 81920}}], "TotalGpuMemoryInMiB": 655360},
  "NetworkInfo": {"NetworkPerformance": "3200 Gigabit", "EfaSupported": true,
     "EfaInfo": {"MaximumEfaInterfaces": 32},
     "NetworkCards": [{"BaselineBandwidthInGbps": 100.0, "PeakBandwidthInGbps": 100.0},
                      {"BaselineBandwidthInGbps": 100.0, "PeakBandwidthInGbps": 100.0}]},
  "SupportedUsageClasses": ["capacity-block", "on-demand", "spot"]},
 {"InstanceType": "trn2.48xlarge", "VCpuInfo": {"DefaultVCpus": 192}, "MemoryInfo": {"SizeInMiB": 2097152},
  "NeuronInfo": {"NeuronDevices": [{"Name": "Trainium2", "Manufacturer": "AWS", "Count": 16,
     "CoreInfo": {"Count": 8}, "MemoryInfo": {"SizeInMiB": 524288}}], "TotalNeuronDeviceMemoryInMiB": 8388608}},
 {"InstanceType": "m5.large", "VCpuInfo": {"DefaultVCpus": 2}, "MemoryInfo": {"SizeInMiB": 8192}}
]})";

const char* kRetired = R"({"p3.2xlarge": {"last_seen_commit_date": "2026-04-01", "record":
 {"InstanceType": "p3.2xlarge", "VCpuInfo": {"DefaultVCpus": 8}, "MemoryInfo": {"SizeInMiB": 62464},
  "GpuInfo": {"Gpus": [{"Name": "V100", "Manufacturer": "NVIDIA", "Count": 1,
     "MemoryInfo": {"SizeInMiB": 16384}}]}}}})";

const char* kSpecs =
    "model,vendor,architecture,memory_gib,memory_bw_gbps,fp64_tflops,fp32_tflops,tf32_tflops_dense,"
    "fp16_bf16_tflops_dense,fp8_tflops_dense,int8_tops_dense,nvlink_gbps,tdp_w,nvenc,source,"
    "aws_api_name,aws_reported_memory_mib,aws_instance_families,notes\n"
    "H100 80GB "
    "(SXM5),NVIDIA,Hopper,80,3350,34,67,494.5,989.5,1979,1979,900,700,0,ds,H100,81920,p5,\n"
    "L4,NVIDIA,Ada Lovelace,24,300,,30.3,60,121,242.5,242.5,,72,2,ds,L4,22888,g6,\n"
    "V100 16GB (SXM2),NVIDIA,Volta,16,900,7.8,15.7,,125,,,300,300,,ds,V100,16384,p3,\n"
    "Trainium2,AWS,NeuronCore-v3,96,2900,,181,667,667,1299,,,,,ds,Trainium2,524288,trn2,\n";

BuildInput In(const char* id, const char* format, const char* date, std::string text) {
  BuildInput in;
  in.meta.id = id;
  in.meta.kind = "test";
  in.meta.snapshot_date = date;
  in.format = format;
  in.origin = std::string(id) + ".src";
  in.text = std::move(text);
  return in;
}

Catalog Build(std::vector<BuildInput> extra = {}) {
  std::vector<BuildInput> in = {
      In("types", "describe-instance-types-json", "2026-08-02", kTypes),
      In("retired", "describe-instance-types-json", "2026-07-02", kRetired),
      In("specs", "gpu-specs-csv", "2026-08-01", kSpecs),
      // Older regional source and a newer us-east-1 one: the newer wins per figure.
      In("old", "ondemand-reserved-csv", "2026-01-21",
         "instance_type,region,ondemand_usd_per_hour_linux,"
         "reserved_1yr_standard_no_upfront_usd_per_hour_linux\n"
         "p5.48xlarge,us-east-1,98.32,60.0\np5.48xlarge,eu-west-1,100.0,\n"
         "p5.48xlarge,us-east-1-atl-1,99.0,\np3.2xlarge,us-east-1,3.06,\n"),
      In("new", "ondemand-csv", "2026-07-20",
         "instance_type,region,ondemand_usd_per_hour_linux\np5.48xlarge,us-east-1,55.04\n"
         "g6f.large,us-east-1,0.202\n"),
      In("spot", "spot-advisor-json", "2025-06-28",
         R"({"ranges":[{"index":0,"label":"<5%","max":5},{"index":1,"label":"5-10%","max":11}],
             "spot_advisor":{"us-east-1":{"Linux":{"g6f.large":{"s":60,"r":1}},
                                          "Windows":{"g6f.large":{"s":10,"r":0}}}}})"),
  };
  for (BuildInput& e : extra) in.push_back(std::move(e));
  Result<Catalog> c = BuildCatalog(in, "2026-12-01T00:00:00Z");
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? std::move(c).value() : Catalog();
}

TEST(CatalogBuildTest, FractionalGpuIsAGpuNotZero) {
  Catalog c = Build();
  const InstanceType* t = c.FindInstanceType("g6f.large");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->accelerator.kind, AcceleratorKind::kGpu);
  EXPECT_TRUE(t->accelerator.fractional());
  EXPECT_DOUBLE_EQ(t->accelerator.device_equivalents(), 0.125);
  EXPECT_EQ(t->accelerator.model, "L4");  // joined by AWS name despite the 2861 MiB slice
}

TEST(CatalogBuildTest, NonAcceleratorTypesAreSkipped) {
  EXPECT_EQ(Build().FindInstanceType("m5.large"), nullptr);
}

TEST(CatalogBuildTest, RetiredTypesAreMarked) {
  Catalog c = Build();
  const InstanceType* p3 = c.FindInstanceType("p3.2xlarge");
  ASSERT_NE(p3, nullptr);
  EXPECT_TRUE(p3->retired);
  EXPECT_NE(p3->retired_note.find("2026-04-01"), std::string::npos);
  EXPECT_FALSE(c.FindInstanceType("p5.48xlarge")->retired);
  EXPECT_EQ(p3->accelerator.model, "V100-16GB");
}

TEST(CatalogBuildTest, NewestSourceWinsPerFigure) {
  Catalog c = Build();
  const RegionOffer* use1 = c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1");
  ASSERT_NE(use1, nullptr);
  ASSERT_TRUE(use1->on_demand);
  EXPECT_DOUBLE_EQ(use1->on_demand->usd_per_hour, 55.04);
  EXPECT_EQ(use1->on_demand->from.source, "new");
  EXPECT_EQ(use1->on_demand->from.date, "2026-07-20");
  // The reserved price only the older source has is still taken from it.
  ASSERT_TRUE(use1->reserved_1y_no_upfront);
  EXPECT_EQ(use1->reserved_1y_no_upfront->from.source, "old");
  const RegionOffer* euw1 = c.FindInstanceType("p5.48xlarge")->FindRegion("eu-west-1");
  ASSERT_NE(euw1, nullptr);
  EXPECT_DOUBLE_EQ(euw1->on_demand->usd_per_hour, 100.0);
}

TEST(CatalogBuildTest, LocalZonesAreNotRegions) {
  Catalog c = Build();
  EXPECT_EQ(c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1-atl-1"), nullptr);
  EXPECT_FALSE(c.HasRegion("us-east-1-atl-1"));
}

TEST(CatalogBuildTest, SpotEstimatedFromAdvisorSavings) {
  Catalog c = Build();
  const RegionOffer* o = c.FindInstanceType("g6f.large")->FindRegion("us-east-1");
  ASSERT_TRUE(o && o->spot && o->spot_band);
  EXPECT_TRUE(o->spot->estimated);
  EXPECT_NEAR(o->spot->usd_per_hour, 0.202 * 0.40, 1e-12);  // Linux row, not Windows
  EXPECT_EQ(o->spot_band->label, "5-10%");
  EXPECT_DOUBLE_EQ(o->spot_band->max_pct, 11);
}

// The advisor feed publishes a premium as negative savings (ca-central-1 p5.48xlarge at -62 in
// the 2026-12 feed): the band is kept, but no spot price is estimated from it; 0% still is one.
TEST(CatalogBuildTest, SpotPremiumKeepsTheBandButEstimatesNoPrice) {
  Catalog c = Build({In("spot2", "spot-advisor-json", "2026-12-01",
                        R"({"ranges":[{"index":0,"label":"<5%","max":5}],
                            "spot_advisor":{"us-east-1":{"Linux":{"g6f.large":{"s":-62,"r":0},
                                                                   "p5.48xlarge":{"s":0,"r":0}}}}})")});
  const RegionOffer* g = c.FindInstanceType("g6f.large")->FindRegion("us-east-1");
  ASSERT_TRUE(g && g->spot_band);
  EXPECT_EQ(g->spot_band->savings_pct, -62);
  EXPECT_FALSE(g->spot.has_value());
  const RegionOffer* p = c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1");
  ASSERT_TRUE(p && p->spot);
  EXPECT_DOUBLE_EQ(p->spot->usd_per_hour, 55.04);
  Result<std::vector<build::SpotAdvice>> bad = build::ReadSpotAdvisorJson(
      R"({"ranges":[{"index":0,"label":"<5%","max":5}],
          "spot_advisor":{"us-east-1":{"Linux":{"g6f.large":{"s":-101,"r":0}}}}})",
      "feed.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("g6f.large.s: expected a savings percentage from -100"),
            std::string::npos)
      << bad.status().ToString();
}

TEST(CatalogBuildTest, SpotPerAzTakesLowest) {
  Catalog c = Build({In("sky", "skypilot-vms-csv", "",
                        "InstanceType,Price,SpotPrice,Region,AvailabilityZone\n"
                        "p5.48xlarge,55.04,20.5,us-east-1,use1-az1\n"
                        "p5.48xlarge,55.04,18.25,us-east-1,use1-az2\n"
                        "p5.48xlarge,55.04,,us-east-1,use1-az4\n")});
  const RegionOffer* o = c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1");
  ASSERT_TRUE(o->spot);
  EXPECT_DOUBLE_EQ(o->spot->usd_per_hour, 18.25);
  EXPECT_FALSE(o->spot->estimated);
  EXPECT_EQ(o->spot->note, "lowest of 2 AZ prices");
  EXPECT_EQ(o->on_demand->from.source, "new");  // undated source does not beat a dated one
}

TEST(CatalogBuildTest, Trainium2MemoryIsCorrectedAndDocumented) {
  Catalog c = Build();
  const InstanceType* t = c.FindInstanceType("trn2.48xlarge");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->accelerator.kind, AcceleratorKind::kNeuron);
  EXPECT_EQ(*t->accelerator.memory_mib_each, 96 * 1024);
  EXPECT_EQ(*t->accelerator.memory_mib_total, 16LL * 96 * 1024);
  bool documented = false;
  for (const Correction& k : c.corrections) {
    documented |= k.subject == "trn2.48xlarge accelerator.memory_mib_each" && k.from == "524288";
  }
  EXPECT_TRUE(documented);
}

TEST(CatalogBuildTest, PrecisionSupportFollowsArchitecture) {
  Catalog c = Build();
  const GpuSpec* v100 = c.FindGpu("V100");
  ASSERT_NE(v100, nullptr);
  EXPECT_FALSE(v100->supports_bf16);
  EXPECT_FALSE(v100->bf16_tflops.has_value());
  EXPECT_DOUBLE_EQ(*v100->fp16_tflops, 125);
  const GpuSpec* h100 = c.FindGpu("h100-sxm");
  ASSERT_NE(h100, nullptr);
  EXPECT_TRUE(h100->supports_fp8);
  EXPECT_DOUBLE_EQ(*h100->bf16_tflops, 989.5);
}

TEST(CatalogBuildTest, JsonRoundTrip) {
  Catalog c = Build();
  std::string text = CatalogToJson(c);
  Result<Catalog> back = ParseCatalogJson(text, "rt.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CatalogToJson(*back), text);
}

TEST(CatalogBuildTest, MalformedInputsNameTheirPlace) {
  Result<std::vector<build::PriceRecord>> r = build::ReadPriceCsv(
      "instance_type,region,ondemand_usd_per_hour_linux\np5.48xlarge,us-east-1,abc\n", "p.csv", {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("p.csv:2"), std::string::npos) << r.status().message();
  Result<std::vector<build::PriceRecord>> missing =
      build::ReadPriceCsv("instance_type,region\nx,y\n", "m.csv", {});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("ondemand_usd_per_hour_linux"), std::string::npos);
  Result<std::vector<InstanceType>> bad =
      build::ReadDescribeInstanceTypes("{\"InstanceTypes\": [", "d.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kParseError);
  EXPECT_NE(bad.status().message().find("d.json: byte"), std::string::npos);
  Result<Catalog> wrong = ParseCatalogJson(R"({"schema":"gpuadvisor-catalog/1","sources":[],
      "gpus":[],"instance_types":[{"instance_type":"x.large","family":"x","retired":"no"}]})",
                                           "c.json");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("instance_types[0].retired"), std::string::npos);
}

TEST(CatalogBuildTest, NetworkPerformanceStrings) {
  EXPECT_EQ(*build::ParseNetworkPerformanceGbps("3200 Gigabit"), 3200);
  EXPECT_EQ(*build::ParseNetworkPerformanceGbps("Up to 25 Gigabit"), 25);
  EXPECT_EQ(*build::ParseNetworkPerformanceGbps("4x 100 Gigabit"), 400);
  EXPECT_FALSE(build::ParseNetworkPerformanceGbps("High").has_value());
}

// Issue 37: the instance's bandwidth is NetworkPerformance, never the sum over its network cards
// (g6e.48xlarge: 4 cards of 400, "400 Gigabit"); "Up to N" keeps the card's baseline, N the peak.
TEST(CatalogBuildTest, NetworkBandwidthIsPerInstanceNotSummedOverCards) {
  const char* types = R"({"InstanceTypes": [
   {"InstanceType": "g6e.48xlarge", "VCpuInfo": {"DefaultVCpus": 192}, "MemoryInfo": {"SizeInMiB": 1572864},
    "GpuInfo": {"Gpus": [{"Name": "L40S", "Manufacturer": "NVIDIA", "Count": 8}]},
    "NetworkInfo": {"NetworkPerformance": "400 Gigabit", "MaximumNetworkCards": 4, "NetworkCards": [
      {"BaselineBandwidthInGbps": 400.0, "PeakBandwidthInGbps": 400.0},
      {"BaselineBandwidthInGbps": 400.0, "PeakBandwidthInGbps": 400.0},
      {"BaselineBandwidthInGbps": 400.0, "PeakBandwidthInGbps": 400.0},
      {"BaselineBandwidthInGbps": 400.0, "PeakBandwidthInGbps": 400.0}]}},
   {"InstanceType": "trn2.3xlarge", "VCpuInfo": {"DefaultVCpus": 12}, "MemoryInfo": {"SizeInMiB": 131072},
    "NeuronInfo": {"NeuronDevices": [{"Name": "Trainium2", "Manufacturer": "AWS", "Count": 1}]},
    "NetworkInfo": {"NetworkPerformance": "200 Gigabit", "NetworkCards": [
      {"BaselineBandwidthInGbps": 50.0, "PeakBandwidthInGbps": 50.0}]}},
   {"InstanceType": "g4dn.xlarge", "VCpuInfo": {"DefaultVCpus": 4}, "MemoryInfo": {"SizeInMiB": 16384},
    "GpuInfo": {"Gpus": [{"Name": "T4", "Manufacturer": "NVIDIA", "Count": 1}]},
    "NetworkInfo": {"NetworkPerformance": "Up to 25 Gigabit", "NetworkCards": [
      {"BaselineBandwidthInGbps": 5.0, "PeakBandwidthInGbps": 25.0}]}},
   {"InstanceType": "p2.xlarge", "VCpuInfo": {"DefaultVCpus": 4}, "MemoryInfo": {"SizeInMiB": 62464},
    "GpuInfo": {"Gpus": [{"Name": "K80", "Manufacturer": "NVIDIA", "Count": 1}]},
    "NetworkInfo": {"NetworkPerformance": "High", "NetworkCards": [
      {"BaselineBandwidthInGbps": 1.5, "PeakBandwidthInGbps": 10.0}]}}]})";
  Result<std::vector<InstanceType>> r = build::ReadDescribeInstanceTypes(types, "t.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 4u);
  const double want[][2] = {{400, 400}, {200, 200}, {5, 25}, {1.5, 10}};
  for (size_t i = 0; i < r->size(); ++i) {
    const InstanceType& t = (*r)[i];
    ASSERT_TRUE(t.network_baseline_gbit_s && t.network_peak_gbit_s) << t.name;
    EXPECT_DOUBLE_EQ(*t.network_baseline_gbit_s, want[i][0]) << t.name;
    EXPECT_DOUBLE_EQ(*t.network_peak_gbit_s, want[i][1]) << t.name;
  }
}

// Capacity Blocks (issue 17): per type and region the rate with the newest row date is the price
// (with its source and date); every dated rate is history; Local Zones and unknown regions are
// left out; GovCloud is a region like any other.
TEST(CatalogBuildTest, CapacityBlockRatesNewestDateWinsAndHistoryIsKept) {
  const std::string header =
      "commit,instance_type,region,capacity_block_usd_per_hour_instance,last_updated\n";
  Catalog c = Build({In("cb", "capacity-block-csv", "2026-07-22",
                        header + "a,p5.48xlarge,us-east-1,41.528,2026-07-22T07:14:56Z\n"
                                 "b,p5.48xlarge,us-east-1,31.464,2026-03-01T00:00:00Z\n"
                                 "b,p5.48xlarge,us-gov-west-1,45.0,2026-03-01T00:00:00Z\n"
                                 "c,p5.48xlarge,us-east-1,31.464,2026-01-31T14:16:57Z\n"
                                 "a,p5.48xlarge,us-east-1-dfw-2a,30.0,2026-07-22T07:14:56Z\n"
                                 "c,p5.48xlarge,unknown,3.9,2026-01-31T14:16:57Z\n"
                                 "a,p5.48xlarge,eu-west-1,,2026-07-22T07:14:56Z\n")});
  const InstanceType* p5 = c.FindInstanceType("p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  const RegionOffer* east = p5->FindRegion("us-east-1");
  ASSERT_NE(east, nullptr);
  ASSERT_TRUE(east->capacity_block.has_value());
  EXPECT_DOUBLE_EQ(east->capacity_block->usd_per_hour, 41.528);
  EXPECT_EQ(east->capacity_block->from.source, "cb");
  EXPECT_EQ(east->capacity_block->from.date, "2026-07-22");
  ASSERT_EQ(east->history.size(), 3u);
  EXPECT_EQ(east->history[0].kind, "capacity-block");
  EXPECT_EQ(east->history[0].from.date, "2026-01-31");
  EXPECT_DOUBLE_EQ(east->history[1].usd_per_hour, 31.464);
  EXPECT_EQ(east->history[2].from.date, "2026-07-22");
  EXPECT_DOUBLE_EQ(east->on_demand->usd_per_hour, 55.04);  // other prices untouched
  const RegionOffer* gov = p5->FindRegion("us-gov-west-1");
  ASSERT_NE(gov, nullptr);
  EXPECT_DOUBLE_EQ(gov->capacity_block->usd_per_hour, 45.0);
  EXPECT_FALSE(p5->FindRegion("eu-west-1")->capacity_block.has_value());  // empty rate
  EXPECT_EQ(p5->FindRegion("us-east-1-dfw-2a"), nullptr);
  EXPECT_EQ(p5->FindRegion("unknown"), nullptr);
  // Round trip through the catalog JSON.
  Result<Catalog> back = ParseCatalogJson(CatalogToJson(c), "c.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CatalogToJson(*back), CatalogToJson(c));
  EXPECT_DOUBLE_EQ(
      back->FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->capacity_block->usd_per_hour,
      41.528);
}

// Issue 37, item 5: a newer reference's figures rounded to the cent. A per-accelerator
// Capacity Block rate fills a region no per-instance rate covers (rate x devices, noted as
// rounded) and confirms one it rounds to; an on-demand figure confirms the catalog's figure it
// equals to the cent (which keeps its exact value, source and date) and one that differs is
// listed in the notes. Neither replaces a figure.
TEST(CatalogBuildTest, RoundedFiguresFillGapsAndConfirmButNeverReplace) {
  Catalog c =
      Build({In("cb", "capacity-block-csv", "2026-07-22",
                "instance_type,region,capacity_block_usd_per_hour_instance,last_updated\n"
                "p5.48xlarge,us-east-1,41.528,2026-07-22\np5.48xlarge,eu-west-1,40.0,2026-07-22\n"),
             In("qr-cb", "capacity-block-per-accelerator-csv", "2026-09-14",
                "instance_type,region,capacity_block_usd_per_accelerator_hour_rounded,comparison\n"
                "p5.48xlarge,us-east-1,5.19,equal\np5.48xlarge,eu-west-1,4.99,differs\n"
                "p5.48xlarge,ap-south-2,4.72,new\n"),
             In("qr-od", "ondemand-confirmation-csv", "2026-09-14",
                "instance_type,region,ondemand_usd_per_hour_linux_rounded\n"
                "p5.48xlarge,us-east-1,55.04\np5.48xlarge,eu-west-1,100.01\n"
                "g6f.large,eu-west-1,0.25\n")});
  const InstanceType* p5 = c.FindInstanceType("p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  const RegionOffer* east = p5->FindRegion("us-east-1");
  ASSERT_TRUE(east && east->capacity_block && east->on_demand);
  EXPECT_DOUBLE_EQ(east->capacity_block->usd_per_hour, 41.528);  // kept, confirmed
  EXPECT_EQ(east->capacity_block->from.source, "cb");
  EXPECT_EQ(east->capacity_block->confirmed.source, "qr-cb");
  EXPECT_EQ(east->capacity_block->confirmed.date, "2026-09-14");
  EXPECT_DOUBLE_EQ(east->on_demand->usd_per_hour, 55.04);
  EXPECT_EQ(east->on_demand->from.date, "2026-07-20");
  EXPECT_EQ(east->on_demand->confirmed.source, "qr-od");
  EXPECT_EQ(east->on_demand->dated_by().date, "2026-09-14");
  const RegionOffer* west = p5->FindRegion("eu-west-1");
  ASSERT_TRUE(west && west->capacity_block && west->on_demand);
  EXPECT_DOUBLE_EQ(west->capacity_block->usd_per_hour, 40.0);  // 5.00/GPU-h, not 4.99
  EXPECT_TRUE(west->capacity_block->confirmed.date.empty());
  EXPECT_DOUBLE_EQ(west->on_demand->usd_per_hour, 100.0);  // 100.01 disagrees: kept, noted
  EXPECT_TRUE(west->on_demand->confirmed.date.empty());
  EXPECT_EQ(west->on_demand->dated_by().date, "2026-01-21");
  const RegionOffer* new_region = p5->FindRegion("ap-south-2");
  ASSERT_TRUE(new_region && new_region->capacity_block);
  EXPECT_DOUBLE_EQ(new_region->capacity_block->usd_per_hour, 4.72 * 8);
  EXPECT_EQ(new_region->capacity_block->from.source, "qr-cb");
  EXPECT_NE(new_region->capacity_block->note.find("rounded to the cent"), std::string::npos);
  EXPECT_NE(new_region->capacity_block->note.find("0.040"), std::string::npos);
  ASSERT_EQ(new_region->history.size(), 1u);
  int disagreements = 0;
  for (const std::string& n : c.notes) {
    if (n.starts_with("Not confirmed, kept: ")) {
      ++disagreements;
      EXPECT_TRUE(n.find("eu-west-1") != std::string::npos) << n;
    }
  }
  EXPECT_EQ(disagreements, 2);  // the CB rate and the on-demand figure in eu-west-1
  Result<Catalog> back = ParseCatalogJson(CatalogToJson(c), "c.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CatalogToJson(*back), CatalogToJson(c));
  EXPECT_EQ(
      back->FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->on_demand->confirmed.source,
      "qr-od");
}

// An UltraServer (no DescribeInstanceTypes record) becomes a record of its own from the Capacity
// Block source: whole unit, Capacity Block only, in the region of its Local Zone (kept), host
// figures unknown; a row whose two rates disagree (the feed's parser bug) is left out.
TEST(CatalogBuildTest, UltraServersAreRecordsOfTheirOwnFromCapacityBlockRows) {
  const std::string header =
      "instance_type,accelerator_type,accelerator_count,region,"
      "capacity_block_usd_per_hour_instance,capacity_block_usd_per_accelerator_hour,last_updated\n";
  Catalog c = Build({In("cb", "capacity-block-csv", "2026-07-22",
                        header + "u-p6e-gb200x72,GB200,72,us-east-1-dfw-2a,10.582,0.0,2026-01-31\n"
                                 "u-p6e-gb200x72,GB200,72,us-east-1-dfw-2a,761.904,10.582,"
                                 "2026-07-22\n"
                                 "p5.48xlarge,H100,8,us-east-1-atl-2a,41.528,5.191,2026-07-22\n")});
  const InstanceType* u = c.FindInstanceType("u-p6e-gb200x72");
  ASSERT_NE(u, nullptr);
  EXPECT_TRUE(u->ultraserver());
  EXPECT_EQ(u->family, "u-p6e-gb200");
  EXPECT_EQ(u->accelerator.count, 72);
  EXPECT_EQ(u->vcpus, 0);
  EXPECT_EQ(u->memory_mib, 0);
  ASSERT_EQ(u->regions.size(), 1u);
  const RegionOffer& o = u->regions[0];
  EXPECT_EQ(o.region, "us-east-1");
  EXPECT_EQ(o.offered, std::optional<bool>(true));
  ASSERT_TRUE(o.capacity_block);
  EXPECT_DOUBLE_EQ(o.capacity_block->usd_per_hour, 761.904);
  EXPECT_EQ(o.capacity_block->zone, "us-east-1-dfw-2a");
  EXPECT_EQ(o.history.size(), 1u);  // the 2026-01-31 row is the feed's error
  // Other types' Local Zone rows stay out.
  EXPECT_EQ(c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->capacity_block,
            std::nullopt);
  const std::string json = CatalogToJson(c);
  EXPECT_NE(json.find("\"vcpus\": null"), std::string::npos);
  Result<Catalog> back = ParseCatalogJson(json, "c.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CatalogToJson(*back), json);
}

TEST(CatalogBuildTest, CapacityBlockCsvErrorsNameTheLine) {
  const std::string header =
      "instance_type,region,capacity_block_usd_per_hour_instance,last_updated\n";
  Result<std::vector<build::CapacityBlockRate>> r = build::ReadCapacityBlockCsv(
      header + "p5.48xlarge,us-east-1,41.5,2026-07-22\np5.48xlarge,us-east-1,-1,2026-07-22\n",
      "cb.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cb.csv:3"), std::string::npos) << r.status().message();
  r = build::ReadCapacityBlockCsv(header + "p5.48xlarge,us-east-1,41.5,July\n", "cb.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("last_updated"), std::string::npos);
  r = build::ReadCapacityBlockCsv("instance_type,region\n", "cb.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("capacity_block_usd_per_hour_instance"), std::string::npos);
}

// AWS China: a CNY price file marked complete, dated per row. Its prices stay CNY (the catalog
// says so per region offer), its Local Zone rows are left out, and the types it does not price
// in a China region are not offered there.
BuildInput ChinaPrices(std::string text) {
  BuildInput in = In("cn", "ondemand-reserved-csv", "2026-08-26", std::move(text));
  in.currency = Currency::kCny;
  in.currency_column = "currency";
  in.date_column = "snapshot_date";
  in.complete = true;
  return in;
}

const char* kChinaCsv =
    "instance_type,region,currency,ondemand_cny_per_hour_linux,"
    "reserved_1yr_standard_no_upfront_cny_per_hour_linux,snapshot_date,source\n"
    "p5.48xlarge,cn-northwest-1,CNY,400.5,250.25,2026-08-26,x\n"
    "g6f.large,cn-north-1,CNY,1.5,,2026-01-21,x\n"
    "g6f.large,cn-north-1-pkx-1,CNY,1.6,,2026-01-21,x\n";

TEST(CatalogBuildTest, ChinaPricesStayInYuanWithTheirRowDates) {
  Catalog c = Build({ChinaPrices(kChinaCsv)});
  const RegionOffer* nw = c.FindInstanceType("p5.48xlarge")->FindRegion("cn-northwest-1");
  ASSERT_NE(nw, nullptr);
  EXPECT_EQ(nw->currency(), Currency::kCny);
  ASSERT_TRUE(nw->on_demand);
  EXPECT_DOUBLE_EQ(nw->on_demand->usd_per_hour, 400.5);  // CNY, never converted
  EXPECT_EQ(nw->on_demand->from.date, "2026-08-26");
  ASSERT_TRUE(nw->reserved_1y_no_upfront);
  EXPECT_DOUBLE_EQ(nw->reserved_1y_no_upfront->usd_per_hour, 250.25);
  EXPECT_EQ(nw->offered, std::optional<bool>(true));
  const RegionOffer* bj = c.FindInstanceType("g6f.large")->FindRegion("cn-north-1");
  ASSERT_NE(bj, nullptr);
  EXPECT_EQ(bj->on_demand->from.date, "2026-01-21");  // the row's date, not the source's
  EXPECT_FALSE(c.HasRegion("cn-north-1-pkx-1"));      // a Local Zone
  EXPECT_TRUE(c.HasRegion("cn-northwest-1"));
  EXPECT_EQ(c.FindInstanceType("p5.48xlarge")->FindRegion("us-east-1")->currency(), Currency::kUsd);
}

TEST(CatalogBuildTest, ACompleteChinaFileSaysWhatIsNotOfferedThere) {
  // p5 is priced in Ningxia only; the China file lists every type it sells, so a p5 figure from
  // another source in Beijing would be a type not offered there. Build one through a second,
  // incomplete CNY source.
  BuildInput other = In("cn-old", "ondemand-csv", "2024-11-06",
                        "instance_type,region,ondemand_cny_per_hour_linux\n"
                        "p5.48xlarge,cn-north-1,410.0\n");
  other.currency = Currency::kCny;
  Catalog c = Build({ChinaPrices(kChinaCsv), std::move(other)});
  const RegionOffer* bj = c.FindInstanceType("p5.48xlarge")->FindRegion("cn-north-1");
  ASSERT_NE(bj, nullptr);
  EXPECT_EQ(bj->offered, std::optional<bool>(false));
  EXPECT_EQ(c.FindInstanceType("g6f.large")->FindRegion("cn-north-1")->offered,
            std::optional<bool>(true));
}

// Issue 37: price lists keep listing retired types, so a retired type priced by the complete
// China file is still not offered there; its price stays, and the retirement record says why.
TEST(CatalogBuildTest, ARetiredTypeIsNotOfferedOnAPriceRowAlone) {
  const std::string csv = std::string(kChinaCsv) + "p3.2xlarge,cn-north-1,CNY,21.7,,2026-08-26,x\n";
  Catalog c = Build({ChinaPrices(csv)});
  const InstanceType* p3 = c.FindInstanceType("p3.2xlarge");
  ASSERT_NE(p3, nullptr);
  ASSERT_TRUE(p3->retired);
  const RegionOffer* bj = p3->FindRegion("cn-north-1");
  ASSERT_NE(bj, nullptr);
  ASSERT_TRUE(bj->on_demand);
  EXPECT_DOUBLE_EQ(bj->on_demand->usd_per_hour, 21.7);
  EXPECT_EQ(bj->offered, std::optional<bool>(false));
  EXPECT_EQ(bj->offered_from.source, "retired");
  // A current type the same file prices is offered.
  EXPECT_EQ(c.FindInstanceType("g6f.large")->FindRegion("cn-north-1")->offered,
            std::optional<bool>(true));
}

TEST(CatalogBuildTest, APriceInTheWrongCurrencyIsRefusedWithItsLine) {
  // A CNY file with a us-east-1 row, and a USD file with a China row: both refused, by line.
  Result<Catalog> cny = BuildCatalog(
      {In("types", "describe-instance-types-json", "2026-08-02", kTypes),
       ChinaPrices("instance_type,region,currency,ondemand_cny_per_hour_linux,"
                   "reserved_1yr_standard_no_upfront_cny_per_hour_linux,snapshot_date\n"
                   "p5.48xlarge,us-east-1,CNY,400,,2026-08-26\n")},
      "2026-12-01T00:00:00Z");
  ASSERT_FALSE(cny.ok());
  EXPECT_NE(cny.status().message().find("cn.src:2: a CNY price for us-east-1"), std::string::npos)
      << cny.status().ToString();
  Result<Catalog> usd = BuildCatalog(
      {In("types", "describe-instance-types-json", "2026-08-02", kTypes),
       In("usd", "ondemand-csv", "2026-07-20",
          "instance_type,region,ondemand_usd_per_hour_linux\np5.48xlarge,cn-north-1,55\n")},
      "2026-12-01T00:00:00Z");
  ASSERT_FALSE(usd.ok());
  EXPECT_NE(usd.status().message().find("usd.src:2: a USD price for cn-north-1"), std::string::npos)
      << usd.status().ToString();
  // A row whose currency column disagrees with the file's.
  Result<Catalog> column = BuildCatalog(
      {In("types", "describe-instance-types-json", "2026-08-02", kTypes),
       ChinaPrices("instance_type,region,currency,ondemand_cny_per_hour_linux,"
                   "reserved_1yr_standard_no_upfront_cny_per_hour_linux,snapshot_date\n"
                   "p5.48xlarge,cn-north-1,USD,400,,2026-08-26\n")},
      "2026-12-01T00:00:00Z");
  ASSERT_FALSE(column.ok());
  EXPECT_NE(column.status().message().find("column \"currency\": expected CNY, got \"USD\""),
            std::string::npos)
      << column.status().ToString();
}

TEST(CatalogBuildTest, ChinaRegionsRoundTripWithTheirCurrencyKeys) {
  Catalog c = Build({ChinaPrices(kChinaCsv)});
  const std::string json = CatalogToJson(c);
  EXPECT_NE(json.find("\"currency\": \"CNY\""), std::string::npos);
  EXPECT_NE(json.find("\"cny_per_hour\": 400.5"), std::string::npos);
  Result<Catalog> back = ParseCatalogJson(json, "rt");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CatalogToJson(*back), json);
  // A China region whose file says USD is refused, naming the field.
  std::string bad = json;
  const size_t at = bad.find("\"currency\": \"CNY\"");
  bad.replace(at, 17, "\"currency\": \"USD\"");
  Result<Catalog> refused = ParseCatalogJson(bad, "bad");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(".currency"), std::string::npos)
      << refused.status().ToString();
}

}  // namespace
}  // namespace gpuadvisor
