#include "workload/test_hardware.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

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
  g.memory_bw_gbps = bw;
  g.fp64_tflops = fp64;
  g.fp32_tflops = fp32;
  g.tf32_tflops = tf32;
  g.fp16_tflops = f16;
  if (bf16) g.bf16_tflops = f16;
  g.fp8_tflops = fp8;
  g.int8_tops = fp8;
  g.nvlink_gbps = nvlink;
  g.nvenc = nvenc;
  g.supports_bf16 = bf16 && f16.has_value();
  g.supports_fp8 = fp8.has_value();
  g.supports_tf32 = tf32.has_value();
  return g;
}

using GpuMap = std::map<std::string, GpuSpec, std::less<>>;

const GpuMap& AllGpus() {
  static const GpuMap* gpus = [] {
    auto* m = new GpuMap;
    const std::nullopt_t no = std::nullopt;
    (*m)["A100-40GB"] =
        Spec("A100-40GB", "Ampere", 40960, 1555, 9.7, 19.5, 156, 312, no, 600, 0, true);
    (*m)["A100-80GB"] =
        Spec("A100-80GB", "Ampere", 81920, 2039, 9.7, 19.5, 156, 312, no, 600, 0, true);
    (*m)["H100"] = Spec("H100", "Hopper", 81920, 3350, 34, 67, 494.5, 989.5, 1979, 900, 0, true);
    (*m)["H200"] = Spec("H200", "Hopper", 144384, 4800, 34, 67, 494.5, 989.5, 1979, 900, 0, true);
    (*m)["B200"] =
        Spec("B200", "Blackwell", 183359, 8000, 37, 75, 1125, 2250, 4500, 1800, no, true);
    (*m)["V100"] = Spec("V100", "Volta", 16384, 900, 7.8, 15.7, no, 125, no, 300, no, false);
    (*m)["T4"] = Spec("T4", "Turing", 16384, 320, no, 8.1, no, 65, no, no, 1, false);
    (*m)["A10G"] = Spec("A10G", "Ampere", 22888, 600, no, no, no, no, no, no, no, true);
    (*m)["A10G"].supports_bf16 = true;  // Ampere: BF16 yes, but no published peak
    (*m)["L4"] = Spec("L4", "Ada Lovelace", 22888, 300, no, 30.3, 60, 121, 242.5, no, 2, true);
    (*m)["L40S"] =
        Spec("L40S", "Ada Lovelace", 45776, 864, no, 91.6, 183, 362.05, 733, no, 3, true);
    GpuSpec trn =
        Spec("Trainium", "NeuronCore-v2", 32768, 820, no, 47.5, 190, 190, 190, no, no, true);
    trn.vendor = "AWS";
    (*m)["Trainium"] = trn;
    GpuSpec inf2 =
        Spec("Inferentia2", "NeuronCore-v2", 32768, 820, no, 47.5, 190, 190, 190, no, no, true);
    inf2.vendor = "AWS";
    (*m)["Inferentia2"] = inf2;
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
  t.network_gbps = gbps;
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
  Workload w;
  for (const auto& [k, v] : fields) {
    Status st = SetWorkloadField(&w, k, v);
    EXPECT_TRUE(st.ok()) << k << ": " << st.ToString();
  }
  Status st = Validate(w);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return w;
}

}  // namespace gpuadvisor::testing
