#include "workload/neuron.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "util/text.h"

namespace gpuadvisor::workload_internal {
namespace {

// Per-chip facts, AWS Neuron architecture pages
// (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/):
// * Inferentia (inferentia.rst): 4 NeuronCore-v1, 128 INT8 TOPS and 64 FP16/BF16 TFLOPS per
//   chip; NeuronLink-v1 32 GiB/s per chip, ring (inf1.24xlarge: 16 chips, 100 Gbps).
// * Inferentia2 (inferentia2.rst, inf2-arch.rst): 2 NeuronCore-v2, 190 FP16/BF16/cFP8/TF32
//   TFLOPS, 47.5 FP32, 380 INT8 TOPS per chip; NeuronLink-v2 192 GiB/s per chip, the chips of an
//   inf2.24xlarge/48xlarge in a ring (inf2.48xlarge: 12 chips, 100 Gbps ENA).
// * Trainium (trainium.rst, trn1-arch.rst): the same NeuronCore-v2 pair; 4 NeuronLink-v2 per
//   chip (NKI "Trainium/Inferentia2 Architecture Guide": 2 on Inferentia2, 4 on Trainium),
//   384 GiB/s per chip in trn1-arch.rst's table (768 on trn1n); the 16 chips of a trn1.32xlarge
//   form a 2D torus (the Neuron intra-node collectives page; older trn1-arch revisions call the
//   same 4x4 torus a 4D hypercube); 800 Gbps EFA (trn1n: 1600).
// * Trainium2 (trainium2.rst, NKI Trainium2 guide): 8 NeuronCore-v3, 667 BF16/FP16/TF32 and
//   1299 FP8 dense TFLOPS, 181 FP32 per chip; 4 NeuronLink-v3, ~1.28 TB/s per chip (AWS Trn2
//   product page), 4x4 2D torus in a trn2.48xlarge; 16 x 200 Gbps EFA.
// The pages print GiB/s; the figures below are GB/s (x 1.073741824), as the catalog's.
// Per-core peaks are the chip figures over the cores.
// LNC: Trainium2 runs at Logical NeuronCore size 2 by default, so frameworks see 4 cores per
// chip (logical-neuroncore-config.rst: "a Trn2.48xlarge instance presents 64 NeuronCores");
// NeuronCore-v1/v2 chips have LNC 1.
const NeuronChip kChips[] = {
    {"Inferentia", "NeuronCore-v1", 4, 1, 16, 0, 0, 32, 32 * 1.073741824, "ring", 16, 100,
     "inf1.24xlarge"},
    {"Inferentia2", "NeuronCore-v2", 2, 1, 95, 95, 23.75, 190, 192 * 1.073741824, "ring", 12, 100,
     "inf2.48xlarge"},
    {"Trainium", "NeuronCore-v2", 2, 1, 95, 95, 23.75, 190, 384 * 1.073741824, "2d-torus", 16, 800,
     "trn1.32xlarge"},
    {"Trainium2", "NeuronCore-v3", 8, 2, 667.0 / 8, 1299.0 / 8, 181.0 / 8, 0, 1280, "2d-torus", 16,
     3200, "trn2.48xlarge"},
};

// Efficiencies of the Neuron software stack, per NeuronCore generation (doc/estimation.md,
// "Neuron devices"):
// * matmul 0.45 of the dense BF16 peak in training (NeuronX Distributed). The AWS Trn1
//   training tables (about-neuron/benchmarks/trn1/training_data_*.csv) show 28-36% MFU for
//   Llama-2/3 7B-70B and BERT-large once TP/PP/DP traffic is paid; with the step model's
//   communication and memory terms that is 0.45 on the matmuls.
// * bandwidth 0.7 of HBM for the elementwise ops the XLA-fused graph still streams.
// * decode_mbu 0.6: the NKI performance guide calls 60% of device bandwidth "good in practice"
//   for memory-bound kernels, and the slope of bs-1 TPOT against weight bytes per chip in the
//   Inf2/Trn1 decode tables (Llama-2 7B -> 70B, TP 24/32) gives the same.
// * prefill 0.2 of the dense peak: context encoding in the Inf2/Trn1 latency tables (Llama-2/3
//   70B, Llama-2 13B, prompts of 1-8k tokens) reaches 12-27% of peak; transformers-neuronx and
//   NxD Inference run the prompt as one compiled bucket without FlashAttention-class kernels.
// * decode_layer_s 110 us: the same tables' intercept of TPOT is ~0.13 ms per layer at batch 1
//   (Llama-2-7B 6.5 ms over 32 layers on inf2 TP 24 against 1.4 ms of weights; 13B 9.2 ms over
//   40): per-layer synchronisation and DMA set-up of the compiled graph, on top of the two
//   all-reduces (kNeuronCollectiveLatency each) that the serving model adds itself.
// NeuronCore-v3 (Trainium2) has only tutorial figures (NxD Inference Llama-3.3-70B/3.1-405B on
// trn2.48xlarge), which the v2 constants reproduce within ~20%: low confidence.
// NeuronCore-v1 (Inferentia) runs no current LLM; its figures are the former generic ones.
const GenerationEfficiency kNeuronV1 = {"NeuronCore-v1", 0.50, 0.70, 0.55, 25, true};
const GenerationEfficiency kNeuronV2 = {"NeuronCore-v2", 0.45, 0.70,   0.60, 25,
                                        false,           0.45, 110e-6, 0.5};
const GenerationEfficiency kNeuronV3 = {"NeuronCore-v3", 0.45, 0.70, 0.60, 25, true, 0.45,
                                        110e-6,          0.5};

}  // namespace

const NeuronChip* NeuronChipOf(const GpuSpec& gpu) {
  if (ToLower(gpu.vendor) != "aws") return nullptr;
  for (const NeuronChip& c : kChips) {
    if (gpu.model == c.model) return &c;
  }
  // Unknown model ids (a renamed catalog entry): go by the NeuronCore generation.
  const std::string& arch = gpu.architecture;
  if (arch.find("v3") != std::string::npos) return &kChips[3];
  if (arch.find("v1") != std::string::npos) return &kChips[0];
  if (arch.find("NeuronCore") != std::string::npos) {
    return gpu.model.find("Inferentia") != std::string::npos ? &kChips[1] : &kChips[2];
  }
  return nullptr;
}

int NeuronCoresPerChip(const GpuSpec& gpu) {
  if (gpu.neuron_cores > 0) return gpu.neuron_cores;
  const NeuronChip* chip = NeuronChipOf(gpu);
  return chip != nullptr ? chip->cores : 1;
}

int NeuronLogicalCoresPerChip(const GpuSpec& gpu) {
  const NeuronChip* chip = NeuronChipOf(gpu);
  const int lnc = chip != nullptr ? chip->lnc : 1;
  return std::max(1, NeuronCoresPerChip(gpu) / lnc);
}

double NeuronLinkGbyteS(const GpuSpec& gpu, const InstanceType* instance) {
  double gbyte_s = 0;
  if (gpu.neuronlink_gbyte_s && *gpu.neuronlink_gbyte_s > 0) {
    gbyte_s = *gpu.neuronlink_gbyte_s;
  } else if (const NeuronChip* chip = NeuronChipOf(gpu)) {
    gbyte_s = chip->neuronlink_gbyte_s;
  }
  // An instance type's own figure wins (the catalog's trn1n.32xlarge: trn1-arch.rst gives 768
  // GiB/s per device there, 384 on trn1.32xlarge).
  if (instance != nullptr && instance->accelerator.neuronlink_gbyte_s) {
    gbyte_s = *instance->accelerator.neuronlink_gbyte_s;
  } else if (instance != nullptr && instance->family == "trn1n") {
    gbyte_s *= 2;  // a catalog written before the per-type figure
  }
  return gbyte_s;
}

std::string NeuronLinkTopology(const GpuSpec& gpu) {
  if (!gpu.neuronlink_topology.empty()) return gpu.neuronlink_topology;
  const NeuronChip* chip = NeuronChipOf(gpu);
  return chip != nullptr ? chip->topology : "";
}

std::optional<double> NeuronChipPeakFlops(const GpuSpec& gpu, Precision p) {
  const NeuronChip* chip = NeuronChipOf(gpu);
  if (chip == nullptr) return std::nullopt;
  double per_core = 0;
  switch (p) {
    case Precision::kFp32:
      per_core = chip->core_fp32_tflops;
      break;
    case Precision::kFp8:
      per_core = chip->core_fp8_tflops;
      break;
    case Precision::kInt8:
      per_core = chip->core_int8_tops;
      break;
    case Precision::kFp64:
      per_core = 0;  // no FP64 datapath
      break;
    default:  // bf16, fp16, tf32 and the weight-only formats, which compute in 16-bit
      per_core = chip->core_bf16_tflops;
      break;
  }
  if (per_core <= 0) return std::nullopt;
  return per_core * NeuronCoresPerChip(gpu) * 1e12;
}

Precision NeuronMatmulPrecision(Precision p) {
  return p == Precision::kFp32 || p == Precision::kTf32 ? Precision::kBf16 : p;
}

std::optional<int> ChipsForNeuronCores(const GpuSpec& gpu, int neuron_cores) {
  const int per_chip = NeuronLogicalCoresPerChip(gpu);
  if (neuron_cores < 1 || neuron_cores % per_chip != 0) return std::nullopt;
  return neuron_cores / per_chip;
}

// Reports of 7-13 GB models that compile but are killed while loading on inf2.xlarge (16 GiB
// of host memory): Hugging Face aws-neuron/Mistral-7B-Instruct-v0.1-neuron-1x2048-2-cores
// discussion #1 (TGI shard killed, signal 9) and the gemma3-12b-int8-inf2 model card ("Neuron
// Runtime DMA-pins weight pages during loading"; OS + Python ~2-3 GB): the weights plus
// kNeuronHostReserveGib must fit the host.
Status CheckNeuronHostMemory(const InstanceType& instance, double weight_bytes) {
  if (instance.memory_mib <= 0) return Status::OK();
  const double host = double(instance.memory_mib) * 1024 * 1024;
  const double need = weight_bytes + kNeuronHostReserveGib * kGiB;
  if (need <= host) return Status::OK();
  return Status::Unsupported(
      "instance: " + instance.name + " has " + FormatFixed(host / kGiB, 0) +
      " GiB of host memory; the Neuron runtime pins the " + FormatFixed(weight_bytes / kGiB, 1) +
      " GiB of weights it loads (plus ~" + FormatFixed(kNeuronHostReserveGib, 0) +
      " GiB for the OS and runtime): use an instance with at least " +
      FormatFixed(std::ceil(need / kGiB), 0) + " GiB of host memory, or quantize");
}

double NeuronPaddedHeads(double heads, int cores) {
  if (cores <= 1 || heads <= 0) return heads;
  return std::ceil(heads / cores) * cores;
}

double NeuronTileFill(double width) {
  if (width <= 0) return 1;
  return width / (std::ceil(width / kNeuronTensorTile) * kNeuronTensorTile);
}

double NeuronSbufBytes(const GpuSpec& gpu) {
  const NeuronChip* chip = NeuronChipOf(gpu);
  const bool v3 = chip != nullptr && std::string(chip->core) == "NeuronCore-v3";
  return v3 ? 28e6 : 24.0 * 1024 * 1024;
}

bool NeuronFlashContextEncoding(const GpuSpec& gpu, double prompt_tokens, bool allowed) {
  if (!allowed) return false;
  const NeuronChip* chip = NeuronChipOf(gpu);
  const bool lnc2 = chip != nullptr && chip->lnc >= 2;
  return prompt_tokens >= (lnc2 ? 256 : 4096);
}

const GenerationEfficiency& NeuronEfficiency(const GpuSpec& gpu) {
  const NeuronChip* chip = NeuronChipOf(gpu);
  const std::string core = chip != nullptr ? chip->core : "";
  if (core == "NeuronCore-v3") return kNeuronV3;
  if (core == "NeuronCore-v1") return kNeuronV1;
  return kNeuronV2;
}

}  // namespace gpuadvisor::workload_internal
