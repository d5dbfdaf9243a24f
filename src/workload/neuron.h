// AWS Neuron devices (Inferentia, Inferentia2, Trainium, Trainium2) as the estimator sees them:
// NeuronCores per chip and their peaks, the NeuronLink between chips inside an instance, the
// instance a bare device count is assumed to come in, and the efficiencies of the Neuron
// software stack for training, prompt processing and decode. Device = chip everywhere in
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

// One Neuron chip model and the NeuronCore generation it carries.
struct NeuronChip {
  const char* model;  // catalog id: "Trainium"
  const char* core;   // "NeuronCore-v2"
  int cores;          // physical NeuronCores per chip
  int lnc;            // default Logical NeuronCore size (physical cores per logical one)
  // Dense peaks per NeuronCore, TFLOP/s (TOP/s for int8); 0 = not published.
  double core_bf16_tflops, core_fp8_tflops, core_fp32_tflops, core_int8_tops;
  double neuronlink_gbyte_s;   // NeuronLink per chip, total bidirectional GB/s
  const char* topology;        // "ring", "2d-torus"
  int chips_per_node;          // chips of the largest instance (the node a bare count assumes)
  double node_network_gbit_s;  // Gbit/s, EFA/ENA of that instance
  const char* node_instance;   // "trn1.32xlarge"
};

// The chip table entry for `gpu`, or null when it is not an AWS Neuron device.
const NeuronChip* NeuronChipOf(const GpuSpec& gpu);

// Physical NeuronCores per chip: GpuSpec::neuron_cores when the catalog has it, else the table's.
int NeuronCoresPerChip(const GpuSpec& gpu);
// NeuronCores per chip as the frameworks count them (tensor-parallel ranks): physical cores over
// the default Logical NeuronCore size (Trainium2: 8 / LNC 2 = 4).
int NeuronLogicalCoresPerChip(const GpuSpec& gpu);
// NeuronLink per chip (total bidirectional GB/s) and topology, catalog first, then the table.
// `instance` (may be null) matters for Trainium: a trn1n.32xlarge has twice a trn1.32xlarge's
// NeuronLink per chip.
double NeuronLinkGbyteS(const GpuSpec& gpu, const InstanceType* instance = nullptr);
std::string NeuronLinkTopology(const GpuSpec& gpu);

// Chip peak in FLOP/s = NeuronCores x the per-core peak of `p`; nullopt when not published.
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

// Latency of one small (< 1 MB) collective among the chips of one instance over NeuronLink.
inline constexpr double kNeuronCollectiveLatencyS = 10e-6;
// Achieved share of NeuronLink bandwidth by ring/RDH collectives on large buffers.
inline constexpr double kNeuronLinkEfficiency = 0.7;

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_NEURON_H_
