// Latent diffusion counted from its layout (doc/estimation.md, "Diffusion").
//
// The UNet follows diffusers' UNet2DConditionModel: per level `layers_per_block` ResNet blocks
// (GroupNorm, SiLU, 3x3 conv, twice; a 1x1 shortcut where the width changes), each followed by
// a spatial transformer where the level has attention (GroupNorm, linear projection in, `depth`
// blocks of self-attention, cross-attention to the 77 text tokens and a GEGLU MLP, each behind a
// LayerNorm, projection out), a stride-2 conv between levels; the mid block; the up path with
// one more ResNet block per level, each reading the skip connection of the down path. Checked
// against published counts: SD 1.5 at 64x64 latents comes to 0.80 TFLOP per evaluation
// (NVIDIA's TensorRT Stable Diffusion talk: 1.68e12 for the guided pair, the 5% difference
// being the non-GEMM operators it also counts) and the VAE decoder at 512 px to 2.52 TFLOP
// (same source: 2.54e12); SDXL at 128x128 latents to 6.8 TFLOP.
#include "workload/diffusion.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuadvisor::workload_internal {
namespace {

constexpr int kLayersPerBlock = 2;  // diffusers default for SD 1.x, 2.x and SDXL
constexpr int kTextTokens = 77;     // CLIP context
constexpr int kLatentChannels = 4;

// Accumulates one network's counts layer by layer.
class Counter {
 public:
  explicit Counter(NetworkCounts* c) : c_(c) {}

  void Conv3(double c_in, double c_out, double positions) {
    c_->conv += 2 * 9 * c_in * c_out * positions;
    c_->outputs += c_out * positions;
    c_->gemms.push_back({2 * 9 * c_in * c_out * positions, positions, c_out, 9 * c_in});
    ++c_->layers;
    ++c_->host_ops;
  }
  // GroupNorm + SiLU + conv, twice, and a 1x1 shortcut when the width changes. Eager
  // frameworks also dispatch the norms, activations, the time-embedding projection and add, the
  // dropout, the residual add and its rescale (diffusers ResnetBlock2D): 10 operators.
  // Autograd keeps the block's input (the first norm's and the shortcut's), each activation's
  // output (a conv's input) and the first conv's output (the second norm's input).
  void ResNet(double c_in, double c_out, double positions) {
    c_->norm_inputs += (c_in + c_out) * positions;
    Keep(2 * (c_in + c_out) * positions);
    c_->saved_fp32_eager += 2 * (c_in + c_out) * positions;  // GroupNorm: FP32 input and output
    c_->host_ops += 10;
    Conv3(c_in, c_out, positions);
    Conv3(c_out, c_out, positions);
    if (c_in != c_out) Linear(c_in, c_out, positions, /*conv=*/true);
  }
  void Linear(double in, double out, double tokens, bool conv = false) {
    (conv ? c_->conv : c_->gemm) += 2 * in * out * tokens;
    c_->outputs += out * tokens;
    c_->gemms.push_back({2 * in * out * tokens, tokens, out, in});
    ++c_->layers;
    ++c_->host_ops;
  }
  // Attention core over `queries` x `keys` with `heads` heads of `head_dim`.
  void Attention(double queries, double keys, int heads, int head_dim) {
    const double qk = 2.0 * queries * keys * heads * head_dim;
    c_->attention += 2 * qk;  // QK^T and PV
    c_->scores += queries * keys * heads;
    // Fused attention tiles the queries of every head: rows = queries x heads.
    c_->gemms.push_back({2 * qk, queries * heads, static_cast<double>(head_dim), 0});
    c_->host_ops += 6;  // the fused attention call and the views that split and merge heads
    c_->outputs += queries * heads * head_dim;
    AddNarrow(qk, head_dim, queries);
  }
  // GroupNorm, projection in, `depth` transformer blocks, projection out.
  void Transformer(int channels, int depth, double tokens, int heads, int head_dim,
                   int context_dim) {
    const double c = channels;
    c_->norm_inputs += c * tokens;
    Keep(2 * c * tokens);  // GroupNorm's input, the projection's input
    c_->saved_fp32_eager += c * tokens;
    c_->host_ops += 6;  // GroupNorm, the reshapes to tokens and back, the residual add
    Linear(c, c, tokens);
    for (int i = 0; i < depth; ++i) {
      c_->host_ops += 12;  // 3 LayerNorms, 3 residual adds, 3 dropouts, GEGLU's split/GELU/mul
      c_->norm_inputs += 3 * c * tokens;  // before self-attention, cross-attention, MLP
      // Kept per token: each LayerNorm's input and output (3 x 2c), Q/K/V and the attention
      // output (4c), the cross-attention's query and output (2c), the GEGLU's input (8c) and
      // output (4c); the text tokens' K and V (2c each).
      Keep(24 * c * tokens + 2 * c * kTextTokens);
      c_->saved_fp32_eager += 3 * c * tokens;  // LayerNorm: FP32 input
      Linear(c, 3 * c, tokens);                // Q, K, V
      Attention(tokens, tokens, heads, head_dim);
      Linear(c, c, tokens);  // out
      Linear(c, c, tokens);  // cross-attention Q; K and V read the text tokens
      Linear(context_dim, 2 * c, kTextTokens);
      Attention(tokens, kTextTokens, heads, head_dim);
      Linear(c, c, tokens);
      Linear(c, 8 * c, tokens);  // GEGLU: value and gate
      c_->outputs += 4 * c * tokens;
      Linear(4 * c, c, tokens);
    }
    Keep(c * tokens);  // the projection out's input
    Linear(c, c, tokens);
  }
  // A tensor the backward pass reads, kept from the forward pass.
  void Keep(double elements) { c_->saved += elements; }

 private:
  void AddNarrow(double flop, int width, double queries) {
    if (width >= 128) return;
    for (ModelArch::NarrowLayers& n : c_->narrow) {
      if (n.c_in == width || n.c_in == 0) {
        n.c_in = width;
        n.c_out = static_cast<int>(queries);
        n.share += flop;  // FLOP for now; shares once the total is known
        return;
      }
    }
  }
  NetworkCounts* c_;
};

void SharesOfTotal(NetworkCounts* c) {
  const double total = c->Total();
  for (ModelArch::NarrowLayers& n : c->narrow) n.share = total > 0 ? n.share / total : 0;
}

}  // namespace

double TileStretch(const std::vector<GemmShape>& gemms, double n, int sms) {
  constexpr double kTile = 128;  // CUTLASS/cuBLAS/cuDNN tensor-core CTA tile (128x128)
  // The large GEMMs the generation efficiencies were measured on have K in the thousands:
  // their own prologue/epilogue share, (128 / (4096 + 128)), is already in that efficiency.
  constexpr double kLongK = 4096;
  if (sms <= 0 || n <= 0) return 1;
  double ideal = 0, actual = 0;
  for (const GemmShape& g : gemms) {
    const double tiles = std::ceil(n * g.rows / kTile) * std::ceil(g.cols / kTile);
    const double waves = std::ceil(tiles / sms);
    // Time at full waves is the tiles' share of the SMs; a partial wave costs a whole one. A
    // GEMM of fewer output elements than a tile's fill is no better than one tile.
    const double fill = tiles / (waves * sms);
    const double reduction =
        g.depth > 0 ? (g.depth / (g.depth + kTile)) / (kLongK / (kLongK + kTile)) : 1;
    ideal += g.flop;
    actual += g.flop / std::max(fill * std::min(1.0, reduction), 1e-6);
  }
  return ideal > 0 ? actual / ideal : 1;
}

NetworkCounts CountUNet(const ModelArch::UNetLayout& u, int latent) {
  NetworkCounts out;
  Counter count(&out);
  int levels = 0;
  while (levels < 4 && u.channels[levels] > 0) ++levels;
  const auto heads_of = [&](int channels) {
    return u.head_dim > 0 ? channels / u.head_dim : u.heads;
  };
  const auto head_dim_of = [&](int channels) {
    return u.head_dim > 0 ? u.head_dim : channels / std::max(1, u.heads);
  };
  double side = latent;
  count.Keep(kLatentChannels * side * side);
  count.Conv3(kLatentChannels, u.channels[0], side * side);
  std::vector<int> skips = {u.channels[0]};
  int width = u.channels[0];
  for (int i = 0; i < levels; ++i) {
    const int c = u.channels[i];
    for (int j = 0; j < kLayersPerBlock; ++j) {
      count.ResNet(width, c, side * side);
      width = c;
      if (u.depth[i] > 0) {
        count.Transformer(c, u.depth[i], side * side, heads_of(c), head_dim_of(c), u.context_dim);
      }
      skips.push_back(width);
    }
    if (i + 1 < levels) {
      count.Keep(width * side * side);
      side /= 2;
      count.Conv3(width, width, side * side);  // stride-2 downsampling
      skips.push_back(width);
    }
  }
  count.ResNet(width, width, side * side);
  if (u.mid_depth > 0) {
    count.Transformer(width, u.mid_depth, side * side, heads_of(width), head_dim_of(width),
                      u.context_dim);
  }
  count.ResNet(width, width, side * side);
  int previous = width;
  for (int i = levels - 1; i >= 0; --i) {
    const int c = u.channels[i];
    for (int j = 0; j <= kLayersPerBlock; ++j) {
      const int skip = skips.back();
      skips.pop_back();
      count.ResNet((j == 0 ? previous : c) + skip, c, side * side);
      if (u.depth[i] > 0) {
        count.Transformer(c, u.depth[i], side * side, heads_of(c), head_dim_of(c), u.context_dim);
      }
    }
    previous = c;
    if (i > 0) {
      side *= 2;
      count.Keep(c * side * side);
      count.Conv3(c, c, side * side);  // nearest upsampling, then a conv
    }
  }
  out.norm_inputs += u.channels[0] * side * side;
  count.Keep(2 * u.channels[0] * side * side);  // GroupNorm's input, SiLU's output
  out.saved_fp32_eager += 2 * u.channels[0] * side * side;
  count.Conv3(u.channels[0], kLatentChannels, side * side);
  SharesOfTotal(&out);
  return out;
}

NetworkCounts CountVaeDecoder(int latent) {
  // diffusers AutoencoderKL (the SD autoencoder): block_out_channels 128/256/512/512, three
  // ResNet blocks per decoder level, one single-head attention at 512 channels in the mid block.
  constexpr int kWidths[] = {512, 512, 256, 128};
  NetworkCounts out;
  Counter count(&out);
  double side = latent;
  count.Conv3(kLatentChannels, 512, side * side);
  count.ResNet(512, 512, side * side);
  out.norm_inputs += 512 * side * side;
  count.Linear(512, 3 * 512, side * side);
  count.Attention(side * side, side * side, 1, 512);
  count.Linear(512, 512, side * side);
  count.ResNet(512, 512, side * side);
  int width = 512;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      count.ResNet(width, kWidths[i], side * side);
      width = kWidths[i];
    }
    if (i < 3) {
      side *= 2;
      count.Conv3(width, width, side * side);
    }
  }
  out.norm_inputs += width * side * side;
  count.Conv3(width, 3, side * side);
  SharesOfTotal(&out);
  return out;
}

}  // namespace gpuadvisor::workload_internal
