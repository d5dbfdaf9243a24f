// Issue 18: one catalog schema for reading and writing (a round trip loses nothing), a Catalog
// that keeps its own index, and the units rename (`_gbit_s` / `_gbyte_s`, schema version 2) with
// version-1 files still loading.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpuadvisor/catalog.h"

namespace gpuadvisor {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string ShippedCatalogText() { return Slurp(GPUADVISOR_TESTS_DIR "/../data/catalog.json"); }

Catalog Parse(const std::string& text) {
  Result<Catalog> c = ParseCatalogJson(text, "catalog.json");
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? std::move(c).value() : Catalog();
}

TEST(CatalogSchema, TheShippedCatalogRoundTripsByteForByte) {
  // data/catalog.json is written by CatalogToJson: reading and writing it again must give the
  // same bytes, so no field the file holds is dropped, renamed or reformatted on the way.
  const std::string text = ShippedCatalogText();
  ASSERT_FALSE(text.empty());
  const Catalog c = Parse(text);
  ASSERT_FALSE(c.instance_types().empty());
  EXPECT_EQ(CatalogToJson(c), text);
  // And structurally: the re-read catalog writes the same again.
  EXPECT_EQ(CatalogToJson(Parse(CatalogToJson(c))), text);
}

TEST(CatalogSchema, EveryFieldOfARecordSurvives) {
  // Set fields the shipped catalog may leave at their defaults, then round-trip.
  Catalog c = Parse(ShippedCatalogText());
  InstanceType t = *c.FindInstanceType("p5.48xlarge");
  t.retired_note = "note";
  t.bare_metal = true;
  t.network_baseline_gbit_s = 1234.5;
  RegionOffer& o = t.regions.front();
  o.capacity_block = Price{31.5, {"cb", "2026-11-01"}, false, ""};
  o.spot = Price{9.5, {"s", "2026-11-02"}, true, "estimated from the band"};
  o.savings_plans.push_back({"compute", 3, "all-upfront", 20.25, {"sp", "2026-11-03"}});
  o.history.push_back({"spot", 9.75, {"h", "2026-10-01"}});
  c.PutInstanceType(t);
  GpuSpec g = *c.FindGpu("H100");
  g.neuron_cores = 4;
  g.neuronlink_topology = "ring";
  g.derived_fields = {"memory_bw_gbyte_s"};
  c.PutGpu(g);
  const Catalog back = Parse(CatalogToJson(c));
  const InstanceType& bt = *back.FindInstanceType("p5.48xlarge");
  EXPECT_EQ(bt.retired_note, "note");
  EXPECT_TRUE(bt.bare_metal);
  EXPECT_EQ(bt.network_baseline_gbit_s, 1234.5);
  const RegionOffer& bo = bt.regions.front();
  EXPECT_EQ(bo.capacity_block->usd_per_hour, 31.5);
  EXPECT_EQ(bo.spot->note, "estimated from the band");
  EXPECT_TRUE(bo.spot->estimated);
  EXPECT_EQ(bo.savings_plans.back().term(), "compute-3y-all-upfront");
  EXPECT_EQ(bo.history.back().from.source, "h");
  const GpuSpec& bg = *back.FindGpu("H100");
  EXPECT_EQ(bg.neuron_cores, 4);
  EXPECT_EQ(bg.neuronlink_topology, "ring");
  EXPECT_EQ(bg.derived_fields, std::vector<std::string>{"memory_bw_gbyte_s"});
  EXPECT_EQ(CatalogToJson(back), CatalogToJson(c));
}

TEST(CatalogSchema, VersionTwoKeysCarryTheirUnit) {
  const Catalog c = Parse(ShippedCatalogText());
  nlohmann::json j = nlohmann::json::parse(CatalogToJson(c));
  EXPECT_EQ(j["schema"], kCatalogSchema);
  const nlohmann::json& gpu = j["gpus"][0];
  EXPECT_TRUE(gpu.contains("memory_bw_gbyte_s"));
  EXPECT_TRUE(gpu.contains("nvlink_gbyte_s"));
  const nlohmann::json& net = j["instance_types"][0]["network"];
  EXPECT_TRUE(net.contains("gbit_s") && net.contains("baseline_gbit_s") &&
              net.contains("peak_gbit_s"));
  EXPECT_EQ(CatalogToJson(c).find("gbps\""), std::string::npos);
  // Every numeric figure the figures table can set by name is a key of the written record.
  for (const GpuFigure& f : GpuFigures()) EXPECT_TRUE(gpu.contains(f.name)) << f.name;
}

TEST(CatalogSchema, AVersionOneCatalogStillLoads) {
  // A catalog written before the units rename (a user's `catalog import --out`): old key names.
  const Catalog c = Parse(Slurp(GPUADVISOR_TESTS_DIR "/catalog/fixtures/catalog-v1.json"));
  const GpuSpec* g = c.FindGpu("T4G");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->memory_bw_gbyte_s, 320.0);
  EXPECT_EQ(g->nvlink_gbyte_s, 50.0);
  // The derived figures are named by their version-2 keys.
  EXPECT_EQ(g->derived_fields, (std::vector<std::string>{"memory_bw_gbyte_s", "fp32_tflops"}));
  EXPECT_EQ(g->derivation, "memory_bw_gbyte_s, fp32_tflops: the T4 datasheet figure");
  const InstanceType* t = c.FindInstanceType("g5g.xlarge");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->network_gbit_s, 10.0);
  EXPECT_EQ(t->network_baseline_gbit_s, 1.25);
  EXPECT_EQ(t->network_peak_gbit_s, 10.0);
  // Written back in version 2, and read again the same.
  const std::string v2 = CatalogToJson(c);
  EXPECT_NE(v2.find("\"memory_bw_gbyte_s\": 320.0"), std::string::npos);
  EXPECT_NE(v2.find("\"baseline_gbit_s\": 1.25"), std::string::npos);
  EXPECT_EQ(CatalogToJson(Parse(v2)), v2);
}

TEST(CatalogSchema, VersionKeysAreNotMixed) {
  // A version-2 file is read by version-2 names only: an old key there is not the figure.
  std::string v2 =
      CatalogToJson(Parse(Slurp(GPUADVISOR_TESTS_DIR "/catalog/fixtures/catalog-v1.json")));
  const std::string key = "\"memory_bw_gbyte_s\": 320.0";
  v2.replace(v2.find(key), key.size(), "\"memory_bw_gbps\": 320.0");
  EXPECT_FALSE(Parse(v2).FindGpu("T4G")->memory_bw_gbyte_s.has_value());
  Result<Catalog> unknown = ParseCatalogJson(R"({"schema":"gpuadvisor-catalog/3"})", "c.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("c.json: $.schema: expected \"gpuadvisor-catalog/2\""),
            std::string::npos)
      << unknown.status().message();
}

TEST(CatalogIndex, ChangesThroughTheApiKeepLookupsRight) {
  Catalog c = Parse(ShippedCatalogText());
  const size_t n = c.instance_types().size();
  // Add a type under a new name: found, sorted in, and its new region is listed.
  InstanceType added = *c.FindInstanceType("p5.48xlarge");
  added.name = "a1.test";
  added.regions.front().region = "zz-test-1";
  c.PutInstanceType(added);
  ASSERT_NE(c.FindInstanceType("a1.test"), nullptr);
  EXPECT_EQ(c.FindInstanceType("a1.test")->name, "a1.test");
  EXPECT_EQ(c.instance_types().front().name, "a1.test");
  EXPECT_EQ(c.FindInstanceType("p5.48xlarge")->name, "p5.48xlarge");  // shifted, still found
  EXPECT_TRUE(c.HasRegion("zz-test-1"));
  // Replace: no duplicate.
  added.vcpus = 7;
  c.PutInstanceType(added);
  EXPECT_EQ(c.instance_types().size(), n + 1);
  EXPECT_EQ(c.FindInstanceType("a1.test")->vcpus, 7);
  // Remove: gone, and so is the region only it had.
  EXPECT_TRUE(c.RemoveInstanceType("a1.test"));
  EXPECT_FALSE(c.RemoveInstanceType("a1.test"));
  EXPECT_EQ(c.FindInstanceType("a1.test"), nullptr);
  EXPECT_FALSE(c.HasRegion("zz-test-1"));
  EXPECT_EQ(c.FindInstanceType("p5.48xlarge")->name, "p5.48xlarge");
  // Rename in place through EditInstanceTypes.
  c.EditInstanceTypes([](std::vector<InstanceType>& types) {
    for (InstanceType& t : types) {
      if (t.name == "g6.xlarge") t.name = "zz9.xlarge";
    }
  });
  EXPECT_EQ(c.FindInstanceType("g6.xlarge"), nullptr);
  EXPECT_EQ(c.FindInstanceType("zz9.xlarge")->name, "zz9.xlarge");
  EXPECT_EQ(c.instance_types().back().name, "zz9.xlarge");
  // A new accelerator model is found by its alias and AWS name; GpuOf follows it.
  GpuSpec g = *c.FindGpu("H100");
  g.model = "AAA100";
  g.full_name = "AAA100 test";
  g.aliases = {"triple-a"};
  g.aws_names = {"AAA"};
  c.PutGpu(g);
  EXPECT_EQ(c.FindGpu("triple-a")->model, "AAA100");
  EXPECT_EQ(c.FindGpu("aaa")->model, "AAA100");
  EXPECT_EQ(c.FindGpu("H100")->model, "H100");
  InstanceType onto = *c.FindInstanceType("p5.48xlarge");
  onto.accelerator.model = "AAA100";
  c.PutInstanceType(onto);
  EXPECT_EQ(c.GpuOf(*c.FindInstanceType("p5.48xlarge"))->model, "AAA100");
}

}  // namespace
}  // namespace gpuadvisor
