// What the estimator knows about the devices it runs on: dense peaks per precision, usable
// memory, memory bandwidth, efficiency assumptions by GPU generation, and the links between
// devices. Built once per estimate from GpuSpec (+ InstanceType); a plain value.
#ifndef GPUADVISOR_WORKLOAD_DEVICE_H_
#define GPUADVISOR_WORKLOAD_DEVICE_H_

#include <optional>
#include <string>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

enum class DeviceClass { kNvidia, kNeuron, kInferentia1, kOther };

// Efficiency assumptions of one accelerator generation (doc/estimation.md, "Efficiencies").
struct GenerationEfficiency {
  const char* name;     // "Ampere"
  double matmul;        // achieved / dense peak on large GEMMs (cuBLAS-class)
  double bandwidth;     // achieved / peak HBM bandwidth, streaming kernels
  double decode_mbu;    // bandwidth utilisation of LLM decode with 16-bit weights
  double pcie_gbyte_s;  // host link per device, GB/s one direction (peak)
  bool low_confidence;  // no published LLM efficiency for this generation
  // Serving. Share of the dense peak reached by prompt processing and compute-bound decode;
  // 0 = 0.75 x matmul (GPUs: cuBLAS GEMMs on short, ragged batches).
  double prefill = 0;
  // Fixed time per layer and decode step: kernel launches and scheduling on GPUs (CUDA graphs
  // leave ~8 us per layer), per-layer synchronisation of the compiled graph on Neuron.
  double decode_layer_s = 8e-6;
  // Training: share of the elementwise (memory-bound) time hidden behind the matmuls. GPUs run
  // them as separate kernels (0); NeuronCores run Vector/Scalar engines beside the Tensor engine.
  double elementwise_overlap = 0;
  double PrefillEfficiency() const { return prefill > 0 ? prefill : 0.75 * matmul; }
};
const GenerationEfficiency& EfficiencyFor(const GpuSpec& gpu);

DeviceClass ClassOf(const GpuSpec& gpu);

// Dense peak in FLOP/s for compute in `p`, or nullopt when the spec has no figure.
// int8 uses int8_tops; int4/fp4/nf4 (weight-only) compute in 16-bit.
std::optional<double> PeakFlops(const GpuSpec& gpu, Precision p);
// Dense FLOP/s of GEMMs whose inputs are `p` on tensor cores: FP4 (NVFP4/MXFP4 W4A4) runs at
// twice the FP8 rate on Blackwell (B200 datasheet: 9 PFLOPS dense FP4 vs 4.5 FP8; RTX PRO 6000
// Blackwell: 2x likewise; the catalog has no FP4 column); other formats as PeakFlops.
std::optional<double> GemmPeakFlops(const GpuSpec& gpu, Precision p);
// Unsupported "<GPU> has no BF16 (Volta)" when the hardware lacks the format.
Status CheckPrecisionSupported(const GpuSpec& gpu, Precision p, const char* field);
// bf16 where supported, else fp16.
Precision Default16Bit(const GpuSpec& gpu);
// Weights stored as `p` (--quantization) on hardware without kernels for that format: "" when
// `gpu` runs them natively, else the warning ("int4 weights on Inferentia2 (NeuronCore-v2):
// ..."). The estimate then assumes the weights are dequantized to 16-bit in every matmul, which
// no published measurement covers, so the caller warns and lowers the confidence (doc/
// estimation.md, "Weight formats"). Native: NVIDIA int8/int4/nf4 weight kernels (TensorRT-LLM,
// AWQ, GPTQ/Marlin, bitsandbytes) from Turing on (the parts with INT8 tensor cores); Neuron
// (Inferentia2, Trainium, Trainium2) int8 and fp8 weights, no 4-bit formats; fp8 where the part
// has FP8; fp4 on Blackwell. Formats CheckPrecisionSupported refuses outright are not repeated.
std::string WeightFormatGap(const GpuSpec& gpu, Precision p);

// The link between the devices of one node.
enum class IntraLink { kPcie, kNvlink, kNeuronLink };

// Links and sizes derived from the Hardware.
struct Topology {
  int gpus = 1;
  int gpus_per_node = 1;
  int nodes = 1;
  bool nvlink = false;
  IntraLink link = IntraLink::kPcie;
  std::string link_topology;       // NeuronLink: "ring", "2d-torus"
  double intra_bps = 0;            // effective bytes/s per device, one direction, inside a node
  double intra_latency_s = 0;      // per collective (NVLink/PCIe: per tree level)
  double inter_bps_node = 0;       // effective bytes/s per node between nodes
  double node_network_gbit_s = 0;  // Gbit/s line rate behind inter_bps_node
  double inter_latency_s = 0;
  bool network_assumed = false;  // no instance and no override: a default was used
  bool node_assumed = false;     // no instance and no override: devices per node assumed
  // Host side, for optimizer offload (ZeRO-Offload / ZeRO-Infinity).
  double host_cores_per_device = 0;  // physical CPU cores per device (vCPUs / 2)
  double nvme_bps_per_device = 0;    // local NVMe bytes/s per device
  bool host_assumed = false;         // no instance: a DGX-class host was assumed
  // Latency of one small all-reduce over `devices` devices of a node. NCCL's tree grows one
  // level per doubling; Neuron's Mesh algorithm (< 1 MB) reaches every chip in one step.
  double SmallAllReduceLatency(int devices) const;
  // "NVLink", "PCIe", "NeuronLink (ring)".
  std::string LinkName() const;
};
Topology MakeTopology(const Hardware& hw);

// Usable memory of one device in bytes (AWS-reported MiB preferred, else nominal GiB).
double DeviceMemoryBytes(const GpuSpec& gpu);

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kNvlinkEfficiency = 0.7;  // NCCL bus bandwidth / link peak
inline constexpr double kPcieEfficiency = 0.7;
inline constexpr double kNetworkEfficiency = 0.8;       // EFA/IB achieved / line rate
inline constexpr double kDefaultNodeNetworkGbps = 400;  // when nothing says otherwise
// Host of a bare GPU count: NVIDIA DGX H100 (2 x 56-core Xeon 8480C for 8 GPUs, DGX H100 user
// guide) = 14 physical cores per GPU; and 8 local NVMe drives for 8 GPUs (p4d/p5 class).
inline constexpr double kDefaultHostCoresPerDevice = 14;
// Sequential throughput of one local NVMe drive: AWS quotes 16 GB/s of read throughput from the
// eight 1 TB NVMe drives of p4d.24xlarge (p4d launch announcement, 2020) = 2 GB/s per drive.
inline constexpr double kNvmeDriveBps = 2e9;

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_DEVICE_H_
