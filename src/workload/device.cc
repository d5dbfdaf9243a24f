#include "workload/device.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/text.h"
#include "workload/neuron.h"

namespace gpuadvisor::workload_internal {
namespace {

// Matmul efficiencies: large-GEMM throughput over dense peak as measured by cuBLAS-class
// kernels; they reproduce the published MFU of Megatron-LM (A100) and MosaicML (A100/H100)
// together with the bandwidth and communication terms (doc/estimation.md).
const GenerationEfficiency kGenerations[] = {
    {"Kepler", 0.60, 0.75, 0.60, 12, true},
    {"Maxwell", 0.60, 0.75, 0.60, 12, true},
    {"Volta", 0.70, 0.80, 0.70, 12, false},  // PaLM Table 3, Megatron-LM 2019
    {"Turing", 0.60, 0.80, 0.70, 12, true},
    {"Ampere", 0.75, 0.80, 0.70, 25, false},
    {"Ada Lovelace", 0.65, 0.80, 0.70, 25, true},
    {"Hopper", 0.65, 0.80, 0.70, 50, false},
    {"Blackwell", 0.60, 0.80, 0.70, 50, true},
    {"Other", 0.50, 0.70, 0.55, 12, true},  // Neuron generations: neuron.cc
};

const GenerationEfficiency& Generation(std::string_view name) {
  for (const GenerationEfficiency& g : kGenerations) {
    if (name == g.name) return g;
  }
  return kGenerations[std::size(kGenerations) - 1];
}

}  // namespace

DeviceClass ClassOf(const GpuSpec& gpu) {
  const std::string vendor = ToLower(gpu.vendor);
  if (vendor == "nvidia") return DeviceClass::kNvidia;
  if (vendor == "aws") {
    return gpu.architecture.find("v1") != std::string::npos ? DeviceClass::kInferentia1
                                                            : DeviceClass::kNeuron;
  }
  return DeviceClass::kOther;
}

const GenerationEfficiency& EfficiencyFor(const GpuSpec& gpu) {
  if (ClassOf(gpu) == DeviceClass::kNeuron || ClassOf(gpu) == DeviceClass::kInferentia1) {
    return NeuronEfficiency(gpu);  // per NeuronCore generation (neuron.cc)
  }
  if (ClassOf(gpu) != DeviceClass::kNvidia) return Generation("Other");
  const std::string& arch = gpu.architecture;
  if (StartsWith(arch, "Blackwell")) return Generation("Blackwell");
  if (StartsWith(arch, "Ada")) return Generation("Ada Lovelace");
  return Generation(arch);
}

std::optional<double> PeakFlops(const GpuSpec& gpu, Precision p) {
  std::optional<double> tflops;
  switch (p) {
    case Precision::kFp64:
      tflops = gpu.fp64_tflops;
      break;
    case Precision::kFp32:
      tflops = gpu.fp32_tflops;
      break;
    case Precision::kTf32:
      tflops = gpu.tf32_tflops;
      break;
    case Precision::kBf16:
      tflops = gpu.bf16_tflops ? gpu.bf16_tflops : gpu.fp16_tflops;
      break;
    case Precision::kFp8:
      tflops = gpu.fp8_tflops;
      break;
    case Precision::kInt8:
      tflops = gpu.int8_tops;
      break;
    case Precision::kFp16:
    case Precision::kInt4:
    case Precision::kFp4:
    case Precision::kNf4:
      tflops = gpu.fp16_tflops ? gpu.fp16_tflops : gpu.bf16_tflops;
      break;
  }
  if (!tflops || *tflops <= 0) {
    // Neuron chips without a catalog figure: NeuronCores x the per-core peak.
    return p == Precision::kFp64 ? std::nullopt : NeuronChipPeakFlops(gpu, p);
  }
  return *tflops * 1e12;
}

std::optional<double> GemmPeakFlops(const GpuSpec& gpu, Precision p) {
  if (p != Precision::kFp4) return PeakFlops(gpu, p);
  const std::optional<double> fp8 = PeakFlops(gpu, Precision::kFp8);
  if (!fp8) return std::nullopt;
  return 2 * *fp8;
}

Status CheckPrecisionSupported(const GpuSpec& gpu, Precision p, const char* field) {
  const std::string who = gpu.model + " (" + gpu.architecture + ")";
  if (p == Precision::kBf16 && !gpu.supports_bf16 && !gpu.bf16_tflops) {
    return Status::Unsupported(std::string(field) + ": " + who +
                               " has no BF16; use fp16 (mixed precision) or fp32")
        .WithField(field);
  }
  if (p == Precision::kFp8 && !gpu.supports_fp8 && !gpu.fp8_tflops) {
    return Status::Unsupported(std::string(field) + ": " + who +
                               " has no FP8 tensor cores (Ada, Hopper and Blackwell do)")
        .WithField(field);
  }
  if (p == Precision::kTf32 && !gpu.supports_tf32 && !gpu.tf32_tflops) {
    return Status::Unsupported(std::string(field) + ": " + who + " has no TF32; use fp32")
        .WithField(field);
  }
  if (p == Precision::kFp4 && !StartsWith(gpu.architecture, "Blackwell")) {
    return Status::Unsupported(std::string(field) + ": " + who +
                               " has no FP4 tensor cores (Blackwell does)")
        .WithField(field);
  }
  return Status::OK();
}

std::string WeightFormatGap(const GpuSpec& gpu, Precision p) {
  const bool four_bit = p == Precision::kInt4 || p == Precision::kNf4;
  if (!four_bit && p != Precision::kInt8) return "";
  const std::string what =
      std::string(PrecisionName(p)) + " weights on " + gpu.model + " (" + gpu.architecture + "): ";
  const char* assumed =
      "; estimated as if dequantized to 16-bit in every matmul (no measurement; confidence "
      "lowered)";
  switch (ClassOf(gpu)) {
    case DeviceClass::kNvidia:
      if (gpu.int8_tops) return "";  // Turing and newer
      return what + "no INT8 tensor cores, so no " + (four_bit ? "4-bit" : "int8") +
             " weight kernels (AWQ, GPTQ, TensorRT-LLM need Turing or newer)" + assumed;
    case DeviceClass::kNeuron:
    case DeviceClass::kInferentia1:
      if (!four_bit) return "";  // Neuron stores int8 weights and dequantizes on the fly
      return what + "Neuron has no 4-bit weight format (it quantizes weights to int8 or fp8)" +
             assumed;
    case DeviceClass::kOther:
      break;
  }
  return what + "no known kernels for this format" + assumed;
}

Precision Default16Bit(const GpuSpec& gpu) {
  return gpu.supports_bf16 || gpu.bf16_tflops ? Precision::kBf16 : Precision::kFp16;
}

double DeviceMemoryBytes(const GpuSpec& gpu) {
  if (gpu.aws_memory_mib && *gpu.aws_memory_mib > 0) {
    return double(*gpu.aws_memory_mib) * 1024.0 * 1024.0;
  }
  return gpu.memory_gib.value_or(0) * kGiB;
}

double Topology::SmallAllReduceLatency(int devices) const {
  if (devices <= 1) return 0;
  if (link == IntraLink::kNeuronLink) return intra_latency_s;
  return intra_latency_s * (1 + std::log2(double(devices)));
}

std::string Topology::LinkName() const {
  switch (link) {
    case IntraLink::kNvlink:
      return "NVLink";
    case IntraLink::kNeuronLink:
      return "NeuronLink (" + link_topology + ")";
    case IntraLink::kPcie:
      break;
  }
  return "PCIe";
}

namespace {

// Inside a node: NVLink where the GPU has it (or the caller says so), NeuronLink between the
// chips of a Neuron instance (never PCIe: the chips exchange data device to device, bypassing
// the host; Neuron collective-communication docs), else PCIe.
void SetIntraLink(const Hardware& hw, Topology* t) {
  const GpuSpec& g = *hw.gpu;
  const bool neuron = IsNeuronDevice(g);
  const bool has_nvlink = g.nvlink_gbyte_s && *g.nvlink_gbyte_s > 0;
  t->nvlink = !neuron && hw.nvlink.value_or(has_nvlink) && t->gpus_per_node > 1;
  if (neuron && NeuronLinkGbyteS(g, hw.instance) > 0) {
    t->link = IntraLink::kNeuronLink;
    t->link_topology = NeuronLinkTopology(g);
    // Neuron collectives run rings over the chips (on the torus, its two link-disjoint
    // Hamiltonian cycles), each sending one way (intra-node collectives page): a chip sends on
    // half of its links in one direction, a quarter of the total bidirectional figure.
    t->intra_bps = NeuronLinkGbyteS(g, hw.instance) / 4 * 1e9 * kNeuronLinkEfficiency;
    t->intra_latency_s = kNeuronCollectiveLatencyS;
  } else if (t->nvlink) {
    t->link = IntraLink::kNvlink;
    t->intra_bps = g.nvlink_gbyte_s.value_or(0) / 2 * 1e9 * kNvlinkEfficiency;  // one direction
    t->intra_latency_s = 8e-6;
  } else {
    t->link = IntraLink::kPcie;
    t->intra_bps = EfficiencyFor(g).pcie_gbyte_s * 1e9 * kPcieEfficiency;
    t->intra_latency_s = 25e-6;
  }
}

}  // namespace

Topology MakeTopology(const Hardware& hw) {
  Topology t;
  t.gpus = std::max(1, hw.gpus);
  // The node: the instance's, else the one assumed for a bare GPU count (named in AssumeTopology).
  const InstanceType* node = hw.instance != nullptr ? hw.instance : hw.assumed_node;
  int per_node = hw.gpus_per_node;
  if (per_node <= 0 && node != nullptr) per_node = node->accelerator.logical_count;
  if (per_node <= 0) {
    // A bare device count with no catalog node (ResolveHardware names the largest instance with
    // the device, as AssumeTopology says): 8 per node.
    per_node = std::min(t.gpus, 8);
    t.node_assumed = t.gpus > 1;
  }
  t.gpus_per_node = std::clamp(per_node, 1, t.gpus);
  t.nodes = (t.gpus + t.gpus_per_node - 1) / t.gpus_per_node;
  SetIntraLink(hw, &t);
  double gbps = hw.node_network_gbit_s;
  if (gbps <= 0 && node != nullptr && node->network_gbit_s) gbps = *node->network_gbit_s;
  if (gbps <= 0) {
    gbps = kDefaultNodeNetworkGbps;
    t.network_assumed = t.nodes > 1;
  }
  t.node_network_gbit_s = gbps;
  t.inter_bps_node = gbps / 8 * 1e9 * kNetworkEfficiency;
  t.inter_latency_s = 30e-6;
  const InstanceType* inst = node;
  const int per_instance = inst != nullptr ? inst->accelerator.devices() : 1;
  if (inst != nullptr && inst->vcpus > 0) {
    t.host_cores_per_device = inst->vcpus / 2.0 / per_instance;  // vCPUs are hyperthreads
  } else {
    t.host_cores_per_device = kDefaultHostCoresPerDevice;
    t.host_assumed = true;
  }
  if (inst != nullptr) {
    const int drives = inst->local_nvme ? std::max(1, inst->local_disk_count) : 0;
    t.nvme_bps_per_device = drives * kNvmeDriveBps / per_instance;
  } else {
    t.nvme_bps_per_device = kNvmeDriveBps;  // 8 drives for 8 GPUs
  }
  return t;
}

}  // namespace gpuadvisor::workload_internal
