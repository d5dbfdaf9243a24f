#include "workload/neuron.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "util/text.h"

namespace gpuadvisor::workload_internal {
namespace {

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

bool IsNeuronDevice(const GpuSpec& gpu) {
  return ToLower(gpu.vendor) == "aws" &&
         (gpu.neuron_cores > 0 || StartsWith(gpu.architecture, "NeuronCore"));
}

std::string NeuronCoreGeneration(const GpuSpec& gpu) {
  if (!IsNeuronDevice(gpu)) return "";
  // "NeuronCore-v2 (2 cores/chip)" -> "NeuronCore-v2"
  return gpu.architecture.substr(0, gpu.architecture.find(' '));
}

int NeuronCoresPerChip(const GpuSpec& gpu) { return std::max(1, gpu.neuron_cores); }

int NeuronLogicalCoresPerChip(const GpuSpec& gpu) {
  return std::max(1, NeuronCoresPerChip(gpu) / std::max(1, gpu.neuron_logical_core_size));
}

double NeuronLinkGbyteS(const GpuSpec& gpu, const InstanceType* instance) {
  double gbyte_s = gpu.neuronlink_gbyte_s.value_or(0);
  // An instance type's own figure wins (the catalog's trn1n.32xlarge: trn1-arch.rst gives 768
  // GiB/s per device there, 384 on trn1.32xlarge).
  if (instance != nullptr && instance->accelerator.neuronlink_gbyte_s) {
    gbyte_s = *instance->accelerator.neuronlink_gbyte_s;
  }
  return gbyte_s;
}

std::string NeuronLinkTopology(const GpuSpec& gpu) { return gpu.neuronlink_topology; }

std::optional<double> NeuronChipPeakFlops(const GpuSpec& gpu, Precision p) {
  if (!IsNeuronDevice(gpu)) return std::nullopt;
  std::optional<double> tflops;
  switch (p) {
    case Precision::kFp32:
      tflops = gpu.fp32_tflops;
      break;
    case Precision::kFp8:
      tflops = gpu.fp8_tflops;
      break;
    case Precision::kInt8:
      tflops = gpu.int8_tops;
      break;
    case Precision::kFp64:
      break;  // no FP64 datapath
    default:  // bf16, fp16, tf32 and the weight-only formats, which compute in 16-bit
      tflops = gpu.bf16_tflops ? gpu.bf16_tflops : gpu.fp16_tflops;
      break;
  }
  if (!tflops || *tflops <= 0) return std::nullopt;
  return *tflops * 1e12;
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
  // The smallest SBUF the catalog knows (NeuronCore-v2's) where it has none for this chip.
  return gpu.neuron_sbuf_mib.value_or(24) * 1024 * 1024;
}

bool NeuronFlashContextEncoding(const GpuSpec& gpu, double prompt_tokens, bool allowed) {
  if (!allowed) return false;
  const bool lnc2 = gpu.neuron_logical_core_size >= 2;
  return prompt_tokens >= (lnc2 ? 256 : 4096);
}

const GenerationEfficiency& NeuronEfficiency(const GpuSpec& gpu) {
  const std::string core = NeuronCoreGeneration(gpu);
  if (core == "NeuronCore-v3") return kNeuronV3;
  if (core == "NeuronCore-v1") return kNeuronV1;
  return kNeuronV2;
}

}  // namespace gpuadvisor::workload_internal
