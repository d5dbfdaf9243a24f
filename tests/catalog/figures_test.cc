// The project's accelerator figures (data/accelerator-figures.csv): the reader's errors, the
// merge rule against the datasheet rows, the manifest's manifest-relative paths, and a rule over
// the embedded catalog: every ML accelerator of a current instance type has memory, bandwidth
// and a training peak, graded, with the derivation of anything derived.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "catalog/build/sources.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/query.h"

namespace gpuadvisor {
namespace {

using build::AcceleratorFigure;

const char* kHeader = "model,field,value,basis,source,derivation\n";

Result<std::vector<AcceleratorFigure>> Read(const std::string& body) {
  return build::ReadAcceleratorFiguresCsv(kHeader + body, "figs.csv");
}

std::string ErrorOf(const std::string& body) {
  Result<std::vector<AcceleratorFigure>> r = Read(body);
  EXPECT_FALSE(r.ok()) << body;
  if (!r.ok()) {
    EXPECT_EQ(r.status().code(), StatusCode::kParseError);
  }
  return r.ok() ? "" : r.status().message();
}

TEST(AcceleratorFiguresTest, ReadsNumbersTextAndBasis) {
  Result<std::vector<AcceleratorFigure>> r = Read(
      "A10G,bf16_tflops,70,derived,Baseten,80 SMs x 512 x 1.71 GHz\n"
      "Trainium,neuronlink_topology,2d-torus,published,trn1-arch,\n"
      "Trainium,neuron_cores,2,published,trainium,\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].model, "A10G");
  EXPECT_DOUBLE_EQ(*(*r)[0].value, 70);
  EXPECT_TRUE((*r)[0].derived);
  EXPECT_EQ((*r)[0].where, "figs.csv:2");
  EXPECT_EQ((*r)[1].text, "2d-torus");
  EXPECT_FALSE((*r)[1].value.has_value());
  EXPECT_FALSE((*r)[2].derived);
}

TEST(AcceleratorFiguresTest, ErrorsNameFileAndLine) {
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,70,published,s,\nA10G,bf17_tflops,1,published,s,\n")
                .find("figs.csv:3: column \"field\": unknown field \"bf17_tflops\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,70,guessed,s,\n").find("figs.csv:2: column \"basis\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,70,derived,s,\n").find("figs.csv:2: column \"derivation\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,seventy,published,s,\n").find("figs.csv:2"),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,-1,published,s,\n").find("figs.csv:2: column \"value\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("Trainium,neuron_cores,2.5,published,s,\n").find("whole number"),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,70,published,,\n").find("column \"source\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("A10G,bf16_tflops,70,published,s,\nA10G,bf16_tflops,71,published,s,\n")
                .find("figs.csv:3: A10G bf16_tflops is given twice"),
            std::string::npos);
  Result<std::vector<AcceleratorFigure>> no_basis =
      build::ReadAcceleratorFiguresCsv("model,field,value,source,derivation\n", "h.csv");
  ASSERT_FALSE(no_basis.ok());
  EXPECT_NE(no_basis.status().message().find("h.csv:1"), std::string::npos);
  EXPECT_NE(no_basis.status().message().find("basis"), std::string::npos);
}

std::vector<GpuSpec> Specs() {
  GpuSpec a10g;
  a10g.model = "A10G";
  a10g.memory_gib = 24;
  a10g.memory_bw_gbyte_s = 600;
  a10g.supports_bf16 = a10g.supports_tf32 = true;
  GpuSpec t4;
  t4.model = "T4";
  t4.aliases = {"Tesla-T4"};
  t4.fp16_tflops = 65;
  GpuSpec trn;
  trn.model = "Trainium";
  trn.bf16_tflops = 190;
  trn.supports_bf16 = true;
  return {a10g, t4, trn};
}

const GpuSpec& Find(const std::vector<GpuSpec>& gpus, const char* model) {
  for (const GpuSpec& g : gpus) {
    if (g.model == model) return g;
  }
  static const GpuSpec kNone;
  ADD_FAILURE() << model;
  return kNone;
}

TEST(AcceleratorFiguresTest, FillsGapsAndGradesEachSpec) {
  Result<std::vector<AcceleratorFigure>> f = Read(
      "A10G,bf16_tflops,70,derived,src,tensor rate x SMs x clock\n"
      "A10G,fp32_tflops,35,derived,src,lanes x clock\n"
      "A10G,tf32_tflops,35,derived,src,lanes x clock\n"
      "A10G,memory_bw_gbyte_s,600,published,src,\n"  // equal to the datasheet: no change
      "Tesla-T4,fp64_tflops,0.253,derived,src,fp32 / 32\n"
      "Trainium,neuron_cores,2,published,src,\n"
      "Trainium,neuronlink_gbyte_s,384,published,src,\n"
      "Trainium,neuronlink_topology,2d-torus,published,src,\n");
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  std::vector<GpuSpec> gpus = Specs();
  std::vector<Correction> corrections;
  ASSERT_TRUE(build::ApplyAcceleratorFigures(*f, &gpus, &corrections).ok());
  EXPECT_TRUE(corrections.empty());
  const GpuSpec& a10g = Find(gpus, "A10G");
  EXPECT_DOUBLE_EQ(*a10g.bf16_tflops, 70);
  EXPECT_DOUBLE_EQ(*a10g.memory_bw_gbyte_s, 600);
  EXPECT_EQ(a10g.confidence, "derived");
  EXPECT_EQ(a10g.derivation,
            "bf16_tflops: tensor rate x SMs x clock; fp32_tflops, tf32_tflops: lanes x clock");
  const GpuSpec& t4 = Find(gpus, "T4");  // found by alias
  EXPECT_DOUBLE_EQ(*t4.fp64_tflops, 0.253);
  EXPECT_EQ(t4.confidence, "derived");
  EXPECT_EQ(t4.derived_fields, std::vector<std::string>{"fp64_tflops"});
  EXPECT_EQ(a10g.derived_fields,
            (std::vector<std::string>{"bf16_tflops", "fp32_tflops", "tf32_tflops"}));
  const GpuSpec& trn = Find(gpus, "Trainium");
  EXPECT_EQ(trn.neuron_cores, 2);
  EXPECT_DOUBLE_EQ(*trn.neuronlink_gbyte_s, 384);
  EXPECT_EQ(trn.neuronlink_topology, "2d-torus");
  EXPECT_EQ(trn.confidence, "published");
  EXPECT_TRUE(trn.derivation.empty());
}

TEST(AcceleratorFiguresTest, AContradictionIsARecordedCorrection) {
  Result<std::vector<AcceleratorFigure>> f =
      Read("Trainium,bf16_tflops,191,published,trainium2 comparison table,\n");
  ASSERT_TRUE(f.ok());
  std::vector<GpuSpec> gpus = Specs();
  std::vector<Correction> corrections;
  ASSERT_TRUE(build::ApplyAcceleratorFigures(*f, &gpus, &corrections).ok());
  EXPECT_DOUBLE_EQ(*Find(gpus, "Trainium").bf16_tflops, 191);
  ASSERT_EQ(corrections.size(), 1u);
  EXPECT_EQ(corrections[0].subject, "gpu Trainium bf16_tflops");
  EXPECT_EQ(corrections[0].from, "190");
  EXPECT_EQ(corrections[0].to, "191");
  EXPECT_NE(corrections[0].reason.find("figs.csv:2"), std::string::npos);
}

TEST(AcceleratorFiguresTest, UnknownModelsAndImpossiblePrecisionsAreErrors) {
  std::vector<GpuSpec> gpus = Specs();
  std::vector<Correction> corrections;
  Result<std::vector<AcceleratorFigure>> unknown = Read("X99,fp32_tflops,1,published,s,\n");
  ASSERT_TRUE(unknown.ok());
  Status st = build::ApplyAcceleratorFigures(*unknown, &gpus, &corrections);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("figs.csv:2: model \"X99\""), std::string::npos) << st.message();
  Result<std::vector<AcceleratorFigure>> bf16 = Read("T4,bf16_tflops,65,published,s,\n");
  ASSERT_TRUE(bf16.ok());
  st = build::ApplyAcceleratorFigures(*bf16, &gpus, &corrections);
  EXPECT_NE(st.message().find("has no BF16"), std::string::npos) << st.message();
}

// The figures go through BuildCatalog and the catalog file; a catalog written before the
// fields existed still loads, ungraded.
TEST(AcceleratorFiguresTest, BuildAndCatalogFileCarryTheGrades) {
  const char* types = R"({"InstanceTypes": [{"InstanceType": "g5.xlarge",
      "VCpuInfo": {"DefaultVCpus": 4}, "MemoryInfo": {"SizeInMiB": 16384},
      "GpuInfo": {"Gpus": [{"Name": "A10G", "Manufacturer": "NVIDIA", "Count": 1,
        "MemoryInfo": {"SizeInMiB": 22888}}]}}]})";
  const char* specs =
      "model,vendor,architecture,memory_gib,memory_bw_gbps,fp64_tflops,fp32_tflops,"
      "tf32_tflops_dense,fp16_bf16_tflops_dense,fp8_tflops_dense,int8_tops_dense,nvlink_gbps,"
      "tdp_w,nvenc,source,aws_api_name,aws_reported_memory_mib\n"
      "A10G,NVIDIA,Ampere,24,600,,,,,,,,,,ds,A10G,22888\n";
  auto in = [](const char* id, const char* format, std::string text) {
    BuildInput b;
    b.meta.id = id;
    b.format = format;
    b.origin = std::string(id) + ".src";
    b.text = std::move(text);
    return b;
  };
  Result<Catalog> c = BuildCatalog(
      {in("types", "describe-instance-types-json", types), in("specs", "gpu-specs-csv", specs),
       in("figs", "accelerator-figures-csv",
          std::string(kHeader) + "A10G,bf16_tflops,70,derived,src,SMs x clock\n")},
      "2026-12-03T00:00:00Z");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const GpuSpec* g = c->FindGpu("A10G");
  ASSERT_NE(g, nullptr);
  EXPECT_DOUBLE_EQ(*g->bf16_tflops, 70);
  EXPECT_EQ(g->confidence, "derived");
  Result<Catalog> back = ParseCatalogJson(CatalogToJson(*c), "rt.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->FindGpu("A10G")->derivation, "bf16_tflops: SMs x clock");
  EXPECT_EQ(CatalogToJson(*back), CatalogToJson(*c));

  Result<Catalog> old = ParseCatalogJson(
      R"({"schema":"gpuadvisor-catalog/1","sources":[],"instance_types":[],
          "gpus":[{"model":"T4","fp16_tflops":65}]})",
      "old.json");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_TRUE(old->FindGpu("T4")->confidence.empty());
  EXPECT_EQ(old->FindGpu("T4")->neuron_cores, 0);
  EXPECT_FALSE(old->FindGpu("T4")->fp64_tensor_tflops.has_value());
}

// A source with "relative_to": "manifest" is read next to the manifest, not under --root.
TEST(AcceleratorFiguresTest, ManifestPathsRelativeToTheManifest) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "figures_manifest_test";
  fs::create_directories(dir / "data");
  fs::create_directories(dir / "root");
  std::ofstream(dir / "data" / "figs.csv") << kHeader;
  std::ofstream(dir / "root" / "specs.csv") << "x\n";
  const std::string manifest = (dir / "data" / "sources.json").string();
  auto write_manifest = [&](const char* relative_to) {
    std::ofstream(manifest) << R"({"sources": [
      {"id": "specs", "name": "n", "kind": "specs", "format": "gpu-specs-csv", "file": "specs.csv",
       "origin": "o"},
      {"id": "figs", "name": "n", "kind": "specs", "format": "accelerator-figures-csv",
       "file": "figs.csv", "relative_to": ")"
                            << relative_to << R"(", "origin": "o"}]})";
  };
  write_manifest("manifest");
  Result<std::vector<BuildInput>> in = LoadBuildManifest(manifest, (dir / "root").string());
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  ASSERT_EQ(in->size(), 2u);
  EXPECT_EQ((*in)[0].origin, (dir / "root" / "specs.csv").string());
  EXPECT_EQ((*in)[1].origin, (dir / "data" / "figs.csv").string());
  EXPECT_EQ((*in)[1].text, kHeader);
  write_manifest("elsewhere");
  Result<std::vector<BuildInput>> bad = LoadBuildManifest(manifest, (dir / "root").string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("$.sources[1].relative_to"), std::string::npos)
      << bad.status().message();
  fs::remove_all(dir);
}

// The catalog the binary ships: every ML accelerator (GPU, Neuron, inference) of a current
// instance type has memory, bandwidth and a dense training peak (BF16 or FP16; FP32 for the
// Radeon Pro V520, which has no matrix units), a low-precision peak where the architecture has
// one, and a grade; derived ones say how. Removing a figure from the sources fails this.
TEST(EmbeddedCatalogFiguresTest, CurrentAcceleratorsHaveGradedFigures) {
  std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  std::set<std::string> checked;
  for (const InstanceType& t : c->instance_types()) {
    const AcceleratorKind kind = t.accelerator.kind;
    if (t.retired || (kind != AcceleratorKind::kGpu && kind != AcceleratorKind::kNeuron &&
                      kind != AcceleratorKind::kInference)) {
      continue;
    }
    const GpuSpec* g = c->FindGpu(t.accelerator.model);
    ASSERT_NE(g, nullptr) << t.name;
    if (!checked.insert(g->model).second) continue;
    SCOPED_TRACE(g->model);
    EXPECT_TRUE(g->memory_gib.has_value() || g->aws_memory_mib.has_value());
    EXPECT_TRUE(g->memory_bw_gbyte_s.has_value());
    if (g->model == "Radeon-Pro-V520") {
      EXPECT_TRUE(g->fp32_tflops.has_value());
    } else {
      EXPECT_TRUE(g->bf16_tflops.has_value() || g->fp16_tflops.has_value());
    }
    if (g->supports_bf16) {
      EXPECT_TRUE(g->bf16_tflops.has_value());
    }
    if (g->supports_fp8) {
      EXPECT_TRUE(g->fp8_tflops.has_value());
    }
    // INT8/FP8 tensor units: NVIDIA from Turing (CC 7.5), Neuron, Cloud AI 100.
    const bool low_precision_units =
        g->vendor == "AWS" || g->model == "AI100" ||
        (g->compute_capability && std::stod(*g->compute_capability) >= 7.5);
    if (low_precision_units) {
      EXPECT_TRUE(g->int8_tops.has_value() || g->fp8_tflops.has_value());
    }
    if (kind == AcceleratorKind::kNeuron) {
      EXPECT_GT(g->neuron_cores, 0);
    }
    EXPECT_TRUE(g->confidence == "published" || g->confidence == "derived") << g->confidence;
    if (g->confidence == "derived") {
      EXPECT_FALSE(g->derivation.empty());
    }
  }
  // The accelerators of the current catalog: a smaller set means the rule checked too little.
  EXPECT_GE(checked.size(), 18u);
  for (const char* m : {"A10G", "T4G", "RTX-PRO-4500", "RTX-PRO-6000", "AI100", "Trainium2"}) {
    EXPECT_TRUE(checked.count(m)) << m;
  }
  // The multi-device Neuron parts carry their interconnect.
  for (const char* m : {"Trainium", "Trainium2", "Inferentia2"}) {
    const GpuSpec* g = c->FindGpu(m);
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->neuronlink_gbyte_s.has_value()) << m;
    EXPECT_FALSE(g->neuronlink_topology.empty()) << m;
  }
  // FP64 tensor cores: the HPC parts.
  for (const char* m : {"A100-40GB", "A100-80GB", "H100", "H200", "B200", "B300"}) {
    EXPECT_TRUE(c->FindGpu(m)->fp64_tensor_tflops.has_value()) << m;
  }
}

}  // namespace
}  // namespace gpuadvisor
