#include "testutil/test_hardware.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gpuadvisor::testing {
namespace {

GpuSpec Spec(const char* model, const char* arch, int mib, double bw, std::optional<double> fp64,
             std::optional<double> fp32, std::optional<double> tf32, std::optional<double> f16,
             std::optional<double> fp8, std::optional<double> nvlink, std::optional<int> nvenc,
             bool bf16) {
  GpuSpec g;
  g.model = model;
  g.full_name = model;
  g.vendor = "NVIDIA";
  g.architecture = arch;
  g.aws_memory_mib = mib;
  g.memory_gib = mib / 1024.0;
  g.memory_bw_gbyte_s = bw;
  g.fp64_tflops = fp64;
  g.fp32_tflops = fp32;
  g.tf32_tflops = tf32;
  g.fp16_tflops = f16;
  if (bf16) g.bf16_tflops = f16;
  g.fp8_tflops = fp8;
  g.int8_tops = fp8;
  g.nvlink_gbyte_s = nvlink;
  g.nvenc = nvenc;
  g.supports_bf16 = bf16 && f16.has_value();
  g.supports_fp8 = fp8.has_value();
  g.supports_tf32 = tf32.has_value();
  return g;
}

using GpuMap = std::map<std::string, GpuSpec, std::less<>>;

// The AWS Neuron devices: vendor AWS, NeuronCores, the NeuronLink interconnect per device, the
// default logical-core size and each core's SBUF (MiB), as data/accelerator-figures.csv has them.
GpuSpec Neuron(GpuSpec g, int cores, double neuronlink_gbyte_s, const char* topology, int lnc,
               double sbuf_mib) {
  g.vendor = "AWS";
  g.neuron_cores = cores;
  g.neuronlink_gbyte_s = neuronlink_gbyte_s;
  g.neuronlink_topology = topology;
  g.neuron_logical_core_size = lnc;
  g.neuron_sbuf_mib = sbuf_mib;
  return g;
}

GpuSpec Derived(GpuSpec g, const char* derivation, std::vector<std::string> fields) {
  g.confidence = "derived";
  g.derivation = derivation;
  g.derived_fields = std::move(fields);
  return g;
}

const GpuMap& AllGpus() {
  static const GpuMap* gpus = [] {
    auto* m = new GpuMap;
    const std::nullopt_t no = std::nullopt;
    // FP64 tensor-core peaks (DGEMM): NVIDIA A100 datasheet 19.5; H100/H200 SXM datasheets 67;
    // HGX B200 296 TFLOPS FP64/FP64-tensor per 8 GPUs = 37.
    (*m)["A100-40GB"] =
        Spec("A100-40GB", "Ampere", 40960, 1555, 9.7, 19.5, 156, 312, no, 600, 0, true);
    (*m)["A100-80GB"] =
        Spec("A100-80GB", "Ampere", 81920, 2039, 9.7, 19.5, 156, 312, no, 600, 0, true);
    for (const char* a100 : {"A100-40GB", "A100-80GB"}) {
      (*m)[a100].fp64_tensor_tflops = 19.5;
      (*m)[a100].int8_tops = 624;
    }
    (*m)["H100"] = Spec("H100", "Hopper", 81920, 3350, 34, 67, 494.5, 989.5, 1979, 900, 0, true);
    (*m)["H200"] = Spec("H200", "Hopper", 144384, 4800, 34, 67, 494.5, 989.5, 1979, 900, 0, true);
    (*m)["H100"].fp64_tensor_tflops = 67;
    (*m)["H200"].fp64_tensor_tflops = 67;
    (*m)["B200"] =
        Spec("B200", "Blackwell", 183359, 8000, 37, 75, 1125, 2250, 4500, 1800, no, true);
    (*m)["B200"].fp64_tensor_tflops = 37;
    (*m)["V100"] = Spec("V100", "Volta", 16384, 900, 7.8, 15.7, no, 125, no, 300, no, false);
    // The figures of data/accelerator-figures.csv (doc/estimation.md "Hardware figures"), as
    // the catalog build merges them; derivations abridged. T4 datasheet: 8.1 FP32, 65 FP16
    // tensor, 130 INT8; FP64 is not in it: TU104 runs FP64 at 1/32 of FP32 (CUDA C++ Programming
    // Guide, arithmetic instruction throughput, cc 7.5).
    (*m)["T4"] = Derived(Spec("T4", "Turing", 16384, 320, 0.253, 8.1, no, 65, no, no, 1, false),
                         "fp64_tflops: FP32 8.1 / 32 (cc 7.5 FP64 rate)", {"fp64_tflops"});
    (*m)["T4"].int8_tops = 130;
    // A10G: no NVIDIA datasheet. GA102, 80 SMs at 1.71 GHz boost: FP32 = 80 x 256 FLOP/clk x
    // 1.71 GHz = 35.0; tensor FP16/BF16 with FP32 accumulate at 512 FLOP/clk/SM (half the A10's
    // 1024: 125 TFLOPS / (72 SMs x 1.695 GHz)) = 70.0, INT8 2x = 140 (Baseten's A10G table:
    // 35 / 70 / 140); FP64 1/64 of FP32 (cc 8.6).
    (*m)["A10G"] = Derived(
        Spec("A10G", "Ampere", 22888, 600, 0.547, 35.0, 35.0, 70.0, no, no, no, true),
        "80 SMs x 1.71 GHz x GA10x per-SM rates (FP32 256, FP16/BF16 tensor "
        "with FP32 accumulate 512 FLOP/clock); fp64_tflops: FP32 / 64",
        {"fp32_tflops", "tf32_tflops", "bf16_tflops", "fp16_tflops", "int8_tops", "fp64_tflops"});
    (*m)["A10G"].int8_tops = 140;
    // L4 / L40S datasheets give no FP64: AD10x runs FP64 at 1/64 of FP32 (cc 8.9).
    (*m)["L4"] =
        Derived(Spec("L4", "Ada Lovelace", 22888, 300, 0.473, 30.3, 60, 121, 242.5, no, 2, true),
                "fp64_tflops: FP32 / 64 (cc 8.9 FP64 rate)", {"fp64_tflops"});
    (*m)["L40S"] = Derived(
        Spec("L40S", "Ada Lovelace", 45776, 864, 1.431, 91.6, 183, 362.05, 733, no, 3, true),
        "fp64_tflops: FP32 / 64 (cc 8.9 FP64 rate)", {"fp64_tflops"});
    // Neuron devices (AWS Neuron architecture pages, which print GiB/s: the catalog's GB/s is x
    // 1.073741824, issue 37). NeuronLink per device: trn1-arch 384 GiB/s (412.317 GB/s) per
    // Trainium = 4 NeuronLink-v2 links; Inferentia2 has 2 such links: 192 GiB/s (206.158), as
    // inf2-arch states; HBM 820 GiB/s (880.468 GB/s). Trn1 servers wire 16 chips as a 2D torus
    // (4x4), inf2.48xlarge as a ring; Trainium2: 1.28 TB/s NeuronLink-v3 per chip (trainium2 page),
    // 4x4 2D torus (trn2-arch).
    GpuSpec trn =
        Spec("Trainium", "NeuronCore-v2", 32768, 880.468, no, 47.5, 190, 190, 190, no, no, true);
    trn.int8_tops = 380;
    (*m)["Trainium"] = Neuron(trn, 2, 412.317, "2d-torus", 1, 24);
    GpuSpec inf2 =
        Spec("Inferentia2", "NeuronCore-v2", 32768, 880.468, no, 47.5, 190, 190, 190, no, no, true);
    inf2.int8_tops = 380;
    (*m)["Inferentia2"] = Neuron(inf2, 2, 206.158, "ring", 1, 24);
    GpuSpec trn2 =
        Spec("Trainium2", "NeuronCore-v3", 98304, 2900, no, 181, 667, 667, 1299, no, no, true);
    trn2.int8_tops = std::nullopt;  // not published
    (*m)["Trainium2"] = Neuron(trn2, 8, 1280, "2d-torus", 2, 26.703);
    // SM counts and L2 sizes (architecture whitepapers; CUDA cores / cores per SM where the
    // datasheet gives cores only), as data/accelerator-figures.csv has them.
    // H200: the H100's GH100 configuration (derived); T4/L4/L40S SMs from cores; A10G as above.
    const struct {
      const char* model;
      double sms, l2_mib;
      bool sms_derived, l2_derived;
    } kCaches[] = {{"A100-40GB", 108, 40, false, false}, {"A100-80GB", 108, 40, false, false},
                   {"H100", 132, 50, false, false},      {"H200", 132, 50, true, true},
                   {"V100", 80, 6, false, false},        {"T4", 40, 4, true, false},
                   {"A10G", 80, 6, true, false},         {"L4", 58, 48, true, false},
                   {"L40S", 142, 96, true, false}};
    for (const auto& c : kCaches) {
      GpuSpec& g = (*m)[c.model];
      g.sm_count = c.sms;
      g.l2_cache_mib = c.l2_mib;
      if (c.sms_derived) g.derived_fields.emplace_back("sm_count");
      if (c.l2_derived) g.derived_fields.emplace_back("l2_cache_mib");
      if (c.sms_derived || c.l2_derived) g.confidence = "derived";
    }
    for (auto& [name, g] : *m) {
      if (g.confidence.empty()) g.confidence = "published";
    }
    return m;
  }();
  return *gpus;
}

InstanceType Instance(const char* name, const char* gpu, int count, double gbps, bool efa,
                      double od, double spot) {
  InstanceType t;
  t.name = name;
  t.family = std::string(name).substr(0, std::string(name).find('.'));
  t.accelerator.model = gpu;
  t.accelerator.count = count;
  t.accelerator.logical_count = count;
  t.network_gbit_s = gbps;
  t.efa = efa;
  RegionOffer offer;
  offer.region = "us-east-1";
  offer.on_demand = Price{od, {"test", "2026-07-01"}, false, ""};
  offer.spot = Price{spot, {"test", "2026-07-01"}, false, ""};
  t.regions.push_back(offer);
  return t;
}

}  // namespace

const GpuSpec& TestGpu(std::string_view model) {
  auto it = AllGpus().find(model);
  if (it == AllGpus().end()) std::abort();
  return it->second;
}

const InstanceType& TestInstance(std::string_view name) {
  using TypeMap = std::map<std::string, InstanceType, std::less<>>;
  static const TypeMap* types = [] {
    auto* m = new TypeMap;
    (*m)["g5.12xlarge"] = Instance("g5.12xlarge", "A10G", 4, 40, false, 5.672, 2.0);
    (*m)["p4d.24xlarge"] = Instance("p4d.24xlarge", "A100-40GB", 8, 400, true, 21.96, 8.0);
    (*m)["p5.48xlarge"] = Instance("p5.48xlarge", "H100", 8, 3200, true, 55.04, 30.0);
    return m;
  }();
  auto it = types->find(name);
  if (it == types->end()) std::abort();
  return it->second;
}

Workload MakeWorkload(std::initializer_list<std::pair<const char*, const char*>> fields) {
  WorkloadFields given;
  for (const auto& [k, v] : fields) {
    Status st = given.Give(k, WorkloadValue{.text = v});
    EXPECT_TRUE(st.ok()) << k << ": " << st.ToString();
  }
  Result<Workload> w = given.Bind();
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return Workload();
  Status st = Validate(*w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return *w;
}

Status GiveField(Workload* w, std::string_view key, std::string_view text) {
  return GiveField(w, key, WorkloadValue{.text = std::string(text)});
}

Status GiveField(Workload* w, std::string_view key, WorkloadValue value) {
  WorkloadFields given;
  GPUADVISOR_RETURN_IF_ERROR(given.Give(key, std::move(value)));
  Result<Workload> bound = given.Bind(*w);
  if (!bound.ok()) return bound.status();
  *w = std::move(bound).value();
  return Status::OK();
}

}  // namespace gpuadvisor::testing
