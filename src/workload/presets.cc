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
constexpr ModelArch Vision(ModelFamily f, double params, double fwd_flop, double fwd_bytes,
                           int resolution) {
  ModelArch m;
  m.family = f;
  m.params = params;
  m.fwd_flop_per_image = fwd_flop;
  m.fwd_bytes_per_image = fwd_bytes;
  m.resolution_px = resolution;
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
    // Vision: forward FLOP = 2 x multiply-adds at the reference resolution; bytes = HBM traffic
    // of the non-matmul layers (normalisation, activation, residual) in 16-bit, forward pass.
    {"resnet50", "He et al. 2016; 25.6M params, 4.1 GMAC at 224x224 (torchvision)",
     Vision(ModelFamily::kConvNet, 25.6e6, 8.2e9, 226e6, 224)},
    {"vit-b16", "Dosovitskiy et al. 2021; 86.6M params, 17.6 GMAC at 224x224 (timm)",
     Vision(ModelFamily::kVit, 86.6e6, 35.1e9, 240e6, 224)},
    {"vit-l16", "Dosovitskiy et al. 2021; 304M params, 61.6 GMAC at 224x224 (timm)",
     Vision(ModelFamily::kVit, 304e6, 123e9, 640e6, 224)},
    {"stable-diffusion-xl",
     "Podell et al. 2023 (SDXL): 2.6B-param UNet + 0.8B text encoders; FLOP per UNet step is "
     "an approximate figure (low confidence)",
     Diffusion(Vision(ModelFamily::kDiffusion, 3.5e9, 5.0e12, 3.0e9, 1024), 30, 2.5e12)},
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
