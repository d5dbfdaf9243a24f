// Built-in model architectures. Numbers are the models' published configs (Hugging Face
// config.json of the named repository, or the paper for models without one).
#include <algorithm>
#include <array>

#include "gpuadvisor/workload.h"
#include "util/strings.h"

namespace gpuadvisor {
namespace {

// Decoder-only LM: SwiGLU, rotary, no biases, untied unless stated.
constexpr ModelArch Llama(int layers, int hidden, int heads, int kv_heads, int ffn, int vocab) {
  ModelArch m;
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = kv_heads;
  m.ffn = ffn;
  m.vocab = vocab;
  return m;
}

constexpr ModelArch Tied(ModelArch m) {
  m.tied_embeddings = true;
  return m;
}
constexpr ModelArch Window(ModelArch m, int window, double fraction) {
  m.sliding_window = window;
  m.sliding_window_fraction = fraction;
  return m;
}
constexpr ModelArch Moe(ModelArch m, int experts, int active) {
  m.experts = experts;
  m.active_experts = active;
  return m;
}
constexpr ModelArch HeadDimOf(ModelArch m, int head_dim) {
  m.head_dim = head_dim;
  return m;
}
// GPT-2/3, OPT, BLOOM, MPT style: GELU MLP, LayerNorm with biases unless `bias` is false.
constexpr ModelArch Gpt(int layers, int hidden, int heads, int ffn, int vocab, int positions,
                        bool bias, bool dropout) {
  ModelArch m = Llama(layers, hidden, heads, heads, ffn, vocab);
  m.gated_mlp = false;
  m.tied_embeddings = true;
  m.max_positions = positions;
  m.attention_bias = bias;
  m.dropout = dropout;
  return m;
}
constexpr ModelArch Family(ModelArch m, ModelFamily f) {
  m.family = f;
  return m;
}
// A vision model by its forward FLOP and how they split over the kernel classes (the rest of the
// FLOP is GEMM), per sample at the reference resolution (doc/estimation.md, "Vision").
struct VisionFigures {
  double params, fwd_flop, conv_share, attention_share;
  double act_elems;                                 // conv/linear outputs per sample
  double eager_train, eager_infer, fused_accesses;  // HBM accesses per activation element
  int layers, resolution, default_batch;
};

constexpr ModelArch Vision(ModelFamily f, VisionFigures v) {
  ModelArch m;
  m.family = f;
  m.params = v.params;
  m.fwd_flop_per_image = v.fwd_flop;
  m.conv_share = v.conv_share;
  m.attention_share = v.attention_share;
  m.act_elems_per_image = v.act_elems;
  m.eager_accesses_train = v.eager_train;
  m.eager_accesses_infer = v.eager_infer;
  m.fused_accesses = v.fused_accesses;
  m.vision_layers = v.layers;
  m.resolution_px = v.resolution;
  m.default_batch = v.default_batch;
  m.dominant_kernel = v.conv_share >= 0.5 ? KernelClass::kConv : KernelClass::kGemm;
  return m;
}
constexpr ModelArch Narrow(ModelArch m, ModelArch::NarrowLayers a, ModelArch::NarrowLayers b = {},
                           ModelArch::NarrowLayers c = {}) {
  m.narrow = {a, b, c};
  return m;
}
constexpr ModelArch Scores(ModelArch m, double attention_score_elems) {
  m.attention_score_elems = attention_score_elems;
  return m;
}
constexpr ModelArch Volumetric(ModelArch m) {
  m.spatial_dims = 3;
  return m;
}
constexpr ModelArch Diffusion(ModelArch m, int steps, double decoder_flop) {
  m.diffusion_steps = steps;
  m.decoder_flop_per_image = decoder_flop;
  return m;
}

const ModelPreset kPresets[] = {
    {"llama-2-7b", "meta-llama/Llama-2-7b-hf config.json", Llama(32, 4096, 32, 32, 11008, 32000)},
    {"llama-2-13b", "meta-llama/Llama-2-13b-hf config.json", Llama(40, 5120, 40, 40, 13824, 32000)},
    {"llama-2-70b", "meta-llama/Llama-2-70b-hf config.json", Llama(80, 8192, 64, 8, 28672, 32000)},
    {"llama-3-8b", "meta-llama/Meta-Llama-3-8B config.json", Llama(32, 4096, 32, 8, 14336, 128256)},
    {"llama-3-70b", "meta-llama/Meta-Llama-3-70B config.json",
     Llama(80, 8192, 64, 8, 28672, 128256)},
    {"llama-3.1-8b", "meta-llama/Llama-3.1-8B config.json", Llama(32, 4096, 32, 8, 14336, 128256)},
    {"llama-3.1-70b", "meta-llama/Llama-3.1-70B config.json",
     Llama(80, 8192, 64, 8, 28672, 128256)},
    {"llama-3.1-405b", "meta-llama/Llama-3.1-405B config.json",
     Llama(126, 16384, 128, 8, 53248, 128256)},
    {"llama-3.2-1b", "meta-llama/Llama-3.2-1B config.json",
     Tied(Llama(16, 2048, 32, 8, 8192, 128256))},
    {"llama-3.2-3b", "meta-llama/Llama-3.2-3B config.json",
     Tied(Llama(28, 3072, 24, 8, 8192, 128256))},
    {"llama-3.3-70b", "meta-llama/Llama-3.3-70B-Instruct config.json",
     Llama(80, 8192, 64, 8, 28672, 128256)},
    {"mistral-7b", "mistralai/Mistral-7B-v0.1 config.json (sliding_window 4096)",
     Window(Llama(32, 4096, 32, 8, 14336, 32000), 4096, 1.0)},
    {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1 config.json",
     Moe(Llama(32, 4096, 32, 8, 14336, 32000), 8, 2)},
    {"mixtral-8x22b", "mistralai/Mixtral-8x22B-v0.1 config.json",
     Moe(Llama(56, 6144, 48, 8, 16384, 32768), 8, 2)},
    {"qwen2.5-7b", "Qwen/Qwen2.5-7B config.json", Llama(28, 3584, 28, 4, 18944, 152064)},
    {"qwen2.5-14b", "Qwen/Qwen2.5-14B config.json", Llama(48, 5120, 40, 8, 13824, 152064)},
    {"qwen2.5-32b", "Qwen/Qwen2.5-32B config.json", Llama(64, 5120, 40, 8, 27648, 152064)},
    {"qwen2.5-72b", "Qwen/Qwen2.5-72B config.json", Llama(80, 8192, 64, 8, 29568, 152064)},
    {"gemma-2-2b", "google/gemma-2-2b config.json (sliding window on alternate layers)",
     Window(Tied(HeadDimOf(Llama(26, 2304, 8, 4, 9216, 256000), 256)), 4096, 0.5)},
    {"gemma-2-9b", "google/gemma-2-9b config.json (sliding window on alternate layers)",
     Window(Tied(HeadDimOf(Llama(42, 3584, 16, 8, 14336, 256000), 256)), 4096, 0.5)},
    {"gemma-2-27b", "google/gemma-2-27b config.json (sliding window on alternate layers)",
     Window(Tied(HeadDimOf(Llama(46, 4608, 32, 16, 36864, 256000), 128)), 4096, 0.5)},
    {"gpt3-175b", "Brown et al. 2020 (GPT-3) Table 2.1: 96 layers, d_model 12288, 96 heads",
     Gpt(96, 12288, 96, 49152, 50257, 2048, true, true)},
    {"gpt3-13b",
     "Brown et al. 2020 (GPT-3) Table 2.1: 40 layers, 40 heads x 128 (the table prints d_model "
     "5140)",
     Gpt(40, 5120, 40, 20480, 50257, 2048, true, true)},
    {"gpt-neox-20b", "EleutherAI/gpt-neox-20b config.json",
     [] {
       ModelArch m = Gpt(44, 6144, 64, 24576, 50432, 0, true, false);
       m.tied_embeddings = false;
       return m;
     }()},
    {"opt-13b", "facebook/opt-13b config.json", Gpt(40, 5120, 40, 20480, 50272, 2050, true, true)},
    {"opt-66b", "facebook/opt-66b config.json", Gpt(64, 9216, 72, 36864, 50272, 2050, true, true)},
    {"bloom-176b", "bigscience/bloom config.json (ALiBi, tied embeddings)",
     Gpt(70, 14336, 112, 57344, 250880, 0, true, false)},
    {"mpt-7b", "mosaicml/mpt-7b config.json (ALiBi, no biases)",
     Gpt(32, 4096, 32, 16384, 50432, 0, false, false)},
    {"mpt-13b", "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-13b.yaml",
     Gpt(40, 5120, 40, 20480, 50368, 0, false, false)},
    {"mpt-30b", "mosaicml/mpt-30b config.json", Gpt(48, 7168, 64, 28672, 50432, 0, false, false)},
    {"mpt-70b", "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-70b.yaml",
     Gpt(80, 8192, 64, 32768, 50368, 0, false, false)},
    {"bert-base", "google-bert/bert-base-uncased config.json",
     Family(Gpt(12, 768, 12, 3072, 30522, 514, true, true), ModelFamily::kEncoder)},
    {"bert-large", "google-bert/bert-large-uncased config.json",
     Family(Gpt(24, 1024, 16, 4096, 30522, 514, true, true), ModelFamily::kEncoder)},
    {"t5-11b", "google-t5/t5-11b config.json (d_kv 128, 128 heads, d_ff 65536, ReLU)",
     HeadDimOf(
         Family(Gpt(24, 1024, 128, 65536, 32128, 0, false, true), ModelFamily::kEncoderDecoder),
         128)},
    // Vision. Forward FLOP = 2 x multiply-adds at the reference resolution. Activation elements
    // are the outputs of the conv/linear layers per sample (what a fused engine writes and the
    // next layer reads); the access counts per element are counted from the layer sequence:
    //   conv-BN-ReLU (eager): conv writes 1, BN reads 2 (statistics + normalise; 1 in
    //     inference with running statistics) and writes 1, ReLU reads and writes, the next
    //     layer reads 1 = 7 (6); a residual add reads 2 and writes 1, its ReLU 2 more = 5 per
    //     element of the block output; fused (TensorRT/XLA/Neuron): write 1, read 1, plus the
    //     skip read in the residual epilogue.
    //   transformer block per token (eager): 39 h-sized accesses around 12 h of GEMM outputs
    //     (LayerNorm reads twice, GELU, residual adds) = 3.25 per element; fused 25/12 = 2.1.
    // Narrow layers (fewer than 128 channels) and the counts were computed from the published
    // architectures (layer tables of the cited papers / reference implementations).
    {"resnet50",
     "He et al. 2016; torchvision resnet50: 25.6M params, 4.09 GMAC at 224x224; 11.1M conv "
     "outputs + 5.5M residual-block outputs per image (counted from the layer table)",
     // eager: (11.1M x 7 + 5.5M x 5) / 11.1M = 9.5 (training), 8.5 (inference); fused 2.5
     Narrow(Vision(ModelFamily::kConvNet,
                   {25.6e6, 8.18e9, 1.0, 0, 11.1e6, 9.5, 8.5, 2.5, 54, 224, 256}),
            {0.029, 3, 64},      // 7x7 stem on RGB
            {0.113, 64, 64},     // stage-1 1x1/3x3 convolutions to 64 channels
            {0.050, 64, 256})},  // stage-1 expansions from 64 channels
    {"vit-b16",
     "Dosovitskiy et al. 2021; timm vit_base_patch16_224: 86.6M params, 17.6 GMAC at 224x224 "
     "(attention core 0.72 GMAC: 12 layers x 2 x 197^2 x 768)",
     // 12 h per token and layer: 12 x 768 x 197 x 12 = 21.8M elements; scores 12 heads x 197^2
     Scores(Narrow(Vision(ModelFamily::kVit,
                          {86.6e6, 35.1e9, 0.007, 0.041, 21.8e6, 3.25, 3.25, 2.1, 62, 224, 64}),
                   {0.0205, 64, 197}),  // QK^T contracts over the 64-wide head dimension
            5.6e6)},
    {"vit-l16",
     "Dosovitskiy et al. 2021; timm vit_large_patch16_224: 304M params, 61.6 GMAC at 224x224 "
     "(attention core 1.9 GMAC)",
     Scores(Narrow(Vision(ModelFamily::kVit,
                          {304e6, 123e9, 0.0025, 0.031, 58.1e6, 3.25, 3.25, 2.1, 122, 224, 64}),
                   {0.0155, 64, 197}),
            14.9e6)},
    {"retinanet",
     "MLPerf RetinaNet (torchvision retinanet_resnext50_32x4d_fpn, 264 OpenImages classes, 9 "
     "anchors) at 800x800: ResNeXt50-32x4d 53.9 GMAC (4.23 GMAC at 224, torchvision) + FPN 11 + "
     "class/box heads 137 = 202 GMAC; 41M params; 250M conv outputs (counted from the layers)",
     // no residuals in FPN and heads: eager (11 ResNeXt blocks as resnet50, heads 7/6) ~8.5/7.5
     Narrow(
         Vision(ModelFamily::kConvNet, {41e6, 403.8e9, 1.0, 0, 250e6, 8.5, 7.5, 2.2, 111, 800, 16}),
         {0.0075, 3, 64},    // stem
         {0.015, 16, 16})},  // grouped 3x3 convolutions: 4-32 channels per group
    {"unet3d",
     "MLPerf 3D U-Net for KiTS19 (mlcommons/training image_segmentation, No New-Net variant): "
     "filters 32-64-128-256-320-320, 3x3x3 convolutions with instance norm, 2x2x2 transposed "
     "convolutions; per 128^3 patch 477 GMAC, 31.2M params, 453M conv outputs (from the layers)",
     // instance norm computes statistics in inference too: 7 accesses either way; fused 2
     Volumetric(Narrow(
         Vision(ModelFamily::kConvNet, {31.2e6, 954.6e9, 1.0, 0, 453e6, 7, 7, 2, 28, 128, 2}),
         {0.495, 43, 32},  // full-resolution level: 32 output channels
         {0.247, 86, 64},  // second level: 64
         {0.045, 38, 77}))},
    {"stable-diffusion-2",
     "Stability AI stable-diffusion-2-base, 512x512 (64x64 latent), the MLPerf Training "
     "text-to-image benchmark: UNet 865M params, 444 GMAC per sample and evaluation (onnx-tool "
     "profile of the SD 1.x UNet, 888.9 GMAC for its exported batch of 2; SD 2 keeps the block "
     "layout and 320/640/1280 widths), 49% in convolutions and 14% in attention einsums (same "
     "profile); VAE decoder 1.27 TMAC per 512x512 image (onnx-tool); activation counts from the "
     "block layout (approximate)",
     // 2.8e8 GEMM/conv outputs per evaluation (22 h-sized tensors per token in each of the 16
     // transformer blocks, 2 per ResNet block); scores: 5/10/20 heads at 4096/1024/256 tokens
     Diffusion(Scores(Narrow(Vision(ModelFamily::kDiffusion, {865e6, 0.889e12, 0.49, 0.14, 2.8e8,
                                                              3.5, 3.5, 2.1, 300, 512, 8}),
                             {0.07, 64, 4096}),  // QK^T over the 64-wide head dimension
                      4.8e8),
               50, 2.54e12)},
    {"stable-diffusion-xl",
     "Podell et al. 2023 (SDXL): 2.6B-param UNet + 0.8B text encoders; FLOP per UNet step, its "
     "kernel mix and activation counts are approximate figures (low confidence)",
     Diffusion(Scores(Vision(ModelFamily::kDiffusion,
                             {3.5e9, 5.0e12, 0.25, 0.15, 2.4e9, 3.5, 3.5, 2.1, 740, 1024, 1}),
                      2.9e9),
               30, 2.5e12)},
};

}  // namespace

const std::vector<std::string>& ModelPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ModelPreset& p : kPresets) v.emplace_back(p.name);
    return v;
  }();
  return names;
}

Result<const ModelPreset*> FindModelPreset(std::string_view name) {
  const std::string wanted = NormalizeName(name);
  for (const ModelPreset& p : kPresets) {
    if (NormalizeName(p.name) == wanted) return &p;
  }
  std::string msg = "model: unknown preset \"" + std::string(name) + "\"";
  std::string hint = DidYouMean(name, ModelPresetNames());
  msg += hint.empty() ? " (see the preset list in doc/estimation.md)" : "; " + hint;
  return Status::NotFound(msg);
}

}  // namespace gpuadvisor
