// Latent diffusion counted from its layout: the UNet per evaluation and the VAE decoder per
// image, at any latent size (doc/estimation.md, "Diffusion").
#ifndef GPUADVISOR_WORKLOAD_DIFFUSION_H_
#define GPUADVISOR_WORKLOAD_DIFFUSION_H_

#include <array>
#include <vector>

#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

// diffusers AutoencoderKL of Stable Diffusion: 83.7M parameters (encoder and decoder).
constexpr double kVaeParams = 83.7e6;

// One conv/linear/attention GEMM of the pass: its FLOP and output shape per sample.
struct GemmShape {
  double flop = 0;   // per sample
  double rows = 0;   // output rows per sample (positions, or queries x heads)
  double cols = 0;   // output columns (channels, keys)
  double depth = 0;  // reduction length K (0: fused attention, whose efficiency is set apart)
};

// One forward pass of one sample, by kernel class and by what it writes.
struct NetworkCounts {
  double conv = 0, gemm = 0, attention = 0;  // FLOP (2 per multiply-add)
  double outputs = 0;                        // elements the conv/linear/attention kernels write
  double norm_inputs = 0;  // elements GroupNorm/LayerNorm read: a pass of their own
  double scores = 0;       // attention scores (heads x queries x keys)
  // Training memory, as autograd keeps it: the elements the backward pass reads, each tensor
  // once (a norm's input, the activation's output a conv reads, Q/K/V and the output of fused
  // attention, the MLP's hidden layer), at the compute precision where the norm and activation
  // are fused into one kernel (NVIDIA's NeMo/MLPerf UNet; the norm's output is recomputed).
  double saved = 0;
  // What an eager framework under autocast keeps on top, in FP32: autocast runs GroupNorm and
  // LayerNorm in FP32, so autograd keeps the norm's FP32 copy of its input, and for GroupNorm
  // also its FP32 output, which the SiLU after it saves (the LayerNorm's output is cast back to
  // 16-bit for the next GEMM: counted in `saved`).
  double saved_fp32_eager = 0;
  int layers = 0;    // conv/linear kernels
  int host_ops = 0;  // operators an eager framework dispatches (norms, views, adds too)
  // Score GEMMs (QK^T) contract over the head width: narrower than a 128-wide tile, {share of
  // the FLOP, head width, query count} per distinct width (as ModelArch::narrow).
  std::array<ModelArch::NarrowLayers, 3> narrow{};
  std::vector<GemmShape> gemms;
  double Total() const { return conv + gemm + attention; }
};

// How much longer the pass's GEMMs take than at the large-GEMM efficiency, at a batch of `n`:
//  - wave quantization: each GEMM cuts its n*rows x cols output into 128x128 tiles, one per SM
//    at a time, and a last partial wave takes a whole wave's time;
//  - short reductions: a tile streams K-deep slices of its operands and then writes its result;
//    filling the pipeline and the write cost about one more 128-deep slice, so a tile takes
//    time in proportion to K + 128 (a K = 320 projection runs at 71% of a long one's rate).
// Returns >= 1; 1 without a known SM count.
double TileStretch(const std::vector<GemmShape>& gemms, double n, int sms);

// The UNet at a square latent of `latent` x `latent` (image side / 8), one evaluation.
NetworkCounts CountUNet(const ModelArch::UNetLayout& u, int latent);
// The Stable Diffusion autoencoder's decoder (SD 1.x, 2.x and SDXL share it) from a latent of
// `latent` x `latent` to the image, 8x the side.
NetworkCounts CountVaeDecoder(int latent);

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_DIFFUSION_H_
