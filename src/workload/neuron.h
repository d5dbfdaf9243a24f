// AWS Neuron devices (Inferentia, Inferentia2, Trainium, Trainium2) as the estimator sees them:
// NeuronCores per chip and their peaks, the NeuronLink between chips inside an instance (all
// catalog figures), and the efficiencies of the Neuron software stack for training, prompt
// processing and decode. Device = chip everywhere in
// gpuadvisor; NeuronCores only enter through the figures below and the TP conversion.
// Sources are cited in neuron.cc and doc/estimation.md ("Neuron devices").
#ifndef GPUADVISOR_WORKLOAD_NEURON_H_
#define GPUADVISOR_WORKLOAD_NEURON_H_

#include <optional>
#include <string>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/status.h"
#include "gpuadvisor/workload.h"
#include "workload/device.h"

namespace gpuadvisor::workload_internal {

// True for an AWS Neuron device (Inferentia, Trainium and their successors): its NeuronCores,
// peaks, NeuronLink, logical-core size and SBUF are catalog figures (data/accelerator-figures.csv),
// none of them a table here.
bool IsNeuronDevice(const GpuSpec& gpu);

// The NeuronCore generation ("NeuronCore-v2"), from the catalog's architecture; "" elsewhere.
std::string NeuronCoreGeneration(const GpuSpec& gpu);

// Physical NeuronCores per chip (GpuSpec::neuron_cores; 1 when the catalog lacks it).
int NeuronCoresPerChip(const GpuSpec& gpu);
// NeuronCores per chip as the frameworks count them (tensor-parallel ranks): physical cores over
// the default Logical NeuronCore size (GpuSpec::neuron_logical_core_size; Trainium2: 8 / 2 = 4).
int NeuronLogicalCoresPerChip(const GpuSpec& gpu);
// NeuronLink per chip (total bidirectional GB/s) and topology, from the catalog. `instance` (may
// be null) matters for Trainium: a trn1n.32xlarge has twice a trn1.32xlarge's NeuronLink per
// chip, its own figure in the catalog.
double NeuronLinkGbyteS(const GpuSpec& gpu, const InstanceType* instance = nullptr);
std::string NeuronLinkTopology(const GpuSpec& gpu);

// Chip peak in FLOP/s of `p` (the catalog's chip figure; BF16 where the chip has only FP16, as
// Inferentia); nullopt when not published.
std::optional<double> NeuronChipPeakFlops(const GpuSpec& gpu, Precision p);

// The format the Neuron compiler runs matmuls in for training precision `p`: neuronx-cc's
// default --auto-cast matmult --auto-cast-type bf16 casts FP32/TF32 matmuls to BF16 (weights,
// gradients and optimizer states stay FP32).
Precision NeuronMatmulPrecision(Precision p);

// A tensor-parallel degree published in (logical) NeuronCores in chips: "TP=24" on
// inf2.48xlarge is 12 chips, "TP=64" at LNC=2 on trn2.48xlarge 16; nullopt when `neuron_cores`
// is not a whole number of chips.
std::optional<int> ChipsForNeuronCores(const GpuSpec& gpu, int neuron_cores);

// Efficiencies of the Neuron stack on this chip's NeuronCore generation.
const GenerationEfficiency& NeuronEfficiency(const GpuSpec& gpu);

// Neuron serving needs the weights in host memory while it loads them: the Neuron runtime
// DMA-pins the pages it copies to the chips (they cannot be swapped), beside the OS, Python and
// runtime. Unsupported naming the instance when `weight_bytes` (what one instance loads) and
// the reserve exceed its host memory; OK otherwise or when the host memory is unknown.
Status CheckNeuronHostMemory(const InstanceType& instance, double weight_bytes);
inline constexpr double kNeuronHostReserveGib = 3;

// Prompt processing (context encoding) on NeuronCores, from the systolic array up.
// * Heads: NxD and transformers-neuronx shard attention heads over the tensor-parallel
//   NeuronCores and pad the head count up to a multiple of them when it does not divide
//   (neuronx_distributed pad_model / get_number_of_extra_heads: extra = tp - n % tp): Llama-2-13B's
//   40 heads run as 64 on TP=32 NeuronCores (2 per core, 1.6x the attention and Q/K/V/O work),
//   as 48 on inf2's TP=24. The padded heads over `cores` tensor-parallel NeuronCores.
double NeuronPaddedHeads(double heads, int cores);
// * Tile fill: the TensorEngine is a 128x128 systolic array (NeuronCore-v2/v3 architecture
//   pages; NKI architecture guides), so a GEMM dimension sharded to `width` columns per core
//   runs in ceil(width / 128) passes of 128: the share of the array doing useful work.
inline constexpr double kNeuronTensorTile = 128;
double NeuronTileFill(double width);
// * Attention without a flash kernel materialises each head's full S x S scores (the causal mask
//   is applied to the whole matrix, nothing skipped) and normalises them on the Vector Engine:
//   128 elements per cycle at 1.12 GHz per NeuronCore-v2 (NKI "Trainium/Inferentia2
//   Architecture Guide", engine data-path table), a max pass and a normalising pass per score
//   (the exponent and its sum run on the Scalar Engine alongside). Scores of one layer that
//   exceed the NeuronCore's SBUF (24 MiB on NeuronCore-v2, 28 MB on v3: NKI architecture guides,
//   neuron-core-v3.rst) go through HBM: FP32 scores out of PSUM written and read back, BF16
//   probabilities written and read back for the PV matmul, 12 bytes per score.
inline constexpr double kNeuronCoreVectorElemsPerS = 128 * 1.12e9;
inline constexpr double kNeuronSoftmaxVectorPasses = 2;
inline constexpr double kNeuronScoreSpillBytes = 4 + 4 + 2 + 2;
double NeuronSbufBytes(const GpuSpec& gpu);
// * Which context encodings get a flash-attention kernel. NxD Inference (the serving library
//   of current SDKs, 2.21 on) enables it by itself at LNC=2 (Trainium2) for prompts of 256
//   tokens and more, at LNC=1 (Trainium, Inferentia2) from 4096 tokens (NxD Inference
//   tutorial "Llama-3.1-405B on Trn2", attention_base.get_flash_attention_strategy). `allowed`
//   false (`flash-attention: false`) is the older transformers-neuronx of the SDK 2.18
//   benchmark tables, whose kernel only runs prompts longer than 8k tokens (developer guide,
//   "Long Sequence length support"): scores materialised at every length a workload states.
bool NeuronFlashContextEncoding(const GpuSpec& gpu, double prompt_tokens, bool allowed);
// * A fixed cost per request in time to first token: the context-encoding graph is a program
//   of its own, loaded with the request's inputs and followed by a switch to the
//   token-generation graph. The batch-1 rows of 128-token prompts in the Inf2/Trn1 latency
//   tables (SDK 2.18; not calibration rows) leave 1-20 ms of TTFT beyond one TPOT, the
//   prompt's own compute and all-reduces: ~10 ms.
inline constexpr double kNeuronRequestS = 10e-3;

// Latency of one small (< 1 MB) collective among the chips of one instance over NeuronLink.
inline constexpr double kNeuronCollectiveLatencyS = 10e-6;
// Achieved share of NeuronLink bandwidth by ring/RDH collectives on large buffers.
inline constexpr double kNeuronLinkEfficiency = 0.7;

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_NEURON_H_
