// Built-in model architectures. Numbers are the models' published configs (Hugging Face
// config.json of the named repository, or the paper for models without one).
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "gpuadvisor/workload.h"
#include "util/text.h"

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
// A MoE whose layers also run shared experts (summed width `shared_ffn`) and whose first `dense`
// layers keep a dense MLP of `dense_ffn` (GLM-4.5, DeepSeekMoE without MLA).
constexpr ModelArch SharedMoe(ModelArch m, int experts, int active, int shared_ffn, int dense,
                              int dense_ffn) {
  m.experts = experts;
  m.active_experts = active;
  m.shared_ffn = shared_ffn;
  m.dense_layers = dense;
  m.dense_ffn = dense_ffn;
  return m;
}
constexpr ModelArch Biased(ModelArch m) {
  m.attention_bias = true;
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
// Longest sequence (prompt + output) of the published config: max_position_embeddings, or
// the rotary scaling's extended window where the config states one (see hf_config.cc).
constexpr ModelArch Ctx(ModelArch m, int context_length) {
  m.context_length = context_length;
  return m;
}
// DeepSeek-V2/V3: multi-head latent attention (non-rotary query/key head 128, rotary 64, value
// 128) and DeepSeekMoE with shared experts; the first `dense` layers keep a dense MLP.
constexpr ModelArch DeepSeek(int layers, int hidden, int heads, int q_lora_rank, int dense,
                             int dense_ffn, int experts, int active, int shared, int expert_ffn,
                             int vocab) {
  ModelArch m = Llama(layers, hidden, heads, heads, expert_ffn, vocab);
  m.head_dim = 128;
  m.kv_lora_rank = 512;
  m.q_lora_rank = q_lora_rank;
  m.rope_head_dim = 64;
  m.v_head_dim = 128;
  m.experts = experts;
  m.active_experts = active;
  m.shared_ffn = shared * expert_ffn;
  m.dense_layers = dense;
  m.dense_ffn = dense_ffn;
  m.context_length = 163840;  // yarn: factor 40 x original 4096
  return m;
}
// gpt-oss: 64 query heads of 64, 8 KV heads, biases on every projection and the router, SwiGLU
// experts of 2880 with top-4 routing, 128-token sliding window on alternate layers, experts
// stored in MXFP4 (OCP MX: 4-bit E2M1 in blocks of 32 with an 8-bit scale = 4.25 bits).
constexpr ModelArch GptOss(int layers, int experts) {
  ModelArch m = Window(Llama(layers, 2880, 64, 8, 2880, 201088), 128, 0.5);
  m.head_dim = 64;
  m.experts = experts;
  m.active_experts = 4;
  m.attention_bias = true;
  m.context_length = 131072;  // yarn: factor 32 x original 4096
  m.expert_weight_bytes = 4.25 / 8;
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
constexpr ModelArch UNet(ModelArch m, ModelArch::UNetLayout layout, double text_params) {
  m.unet = layout;
  m.text_encoder_params = text_params;
  return m;
}
constexpr ModelArch Diffusion(ModelArch m, int steps, double decoder_flop) {
  m.diffusion_steps = steps;
  m.decoder_flop_per_image = decoder_flop;
  return m;
}

const ModelPreset kPresets[] = {
    {"llama-2-7b", "meta-llama/Llama-2-7b-hf config.json",
     Ctx(Llama(32, 4096, 32, 32, 11008, 32000), 4096)},
    {"llama-2-13b", "meta-llama/Llama-2-13b-hf config.json",
     Ctx(Llama(40, 5120, 40, 40, 13824, 32000), 4096)},
    {"llama-2-70b", "meta-llama/Llama-2-70b-hf config.json",
     Ctx(Llama(80, 8192, 64, 8, 28672, 32000), 4096)},
    {"llama-3-8b", "meta-llama/Meta-Llama-3-8B config.json",
     Ctx(Llama(32, 4096, 32, 8, 14336, 128256), 8192)},
    {"llama-3-70b", "meta-llama/Meta-Llama-3-70B config.json",
     Ctx(Llama(80, 8192, 64, 8, 28672, 128256), 8192)},
    {"llama-3.1-8b", "meta-llama/Llama-3.1-8B config.json",
     Ctx(Llama(32, 4096, 32, 8, 14336, 128256), 131072)},
    {"llama-3.1-70b", "meta-llama/Llama-3.1-70B config.json",
     Ctx(Llama(80, 8192, 64, 8, 28672, 128256), 131072)},
    {"llama-3.1-405b", "meta-llama/Llama-3.1-405B config.json",
     Ctx(Llama(126, 16384, 128, 8, 53248, 128256), 131072)},
    {"llama-3.2-1b", "meta-llama/Llama-3.2-1B config.json",
     Ctx(Tied(Llama(16, 2048, 32, 8, 8192, 128256)), 131072)},
    {"llama-3.2-3b", "meta-llama/Llama-3.2-3B config.json",
     Ctx(Tied(Llama(28, 3072, 24, 8, 8192, 128256)), 131072)},
    {"llama-3.3-70b", "meta-llama/Llama-3.3-70B-Instruct config.json",
     Ctx(Llama(80, 8192, 64, 8, 28672, 128256), 131072)},
    {"mistral-7b", "mistralai/Mistral-7B-v0.1 config.json (sliding_window 4096)",
     Ctx(Window(Llama(32, 4096, 32, 8, 14336, 32000), 4096, 1.0), 32768)},
    {"mistral-7b-v0.2",
     "mistralai/Mistral-7B-Instruct-v0.2 config.json (sliding_window null: full attention over "
     "the 32k context, rope_theta 1e6)",
     Ctx(Llama(32, 4096, 32, 8, 14336, 32000), 32768)},
    {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1 config.json",
     Ctx(Moe(Llama(32, 4096, 32, 8, 14336, 32000), 8, 2), 32768)},
    {"mixtral-8x22b", "mistralai/Mixtral-8x22B-v0.1 config.json",
     Ctx(Moe(Llama(56, 6144, 48, 8, 16384, 32768), 8, 2), 65536)},
    {"qwen2.5-7b", "Qwen/Qwen2.5-7B config.json",
     Ctx(Llama(28, 3584, 28, 4, 18944, 152064), 131072)},
    // Qwen2.5-VL: the language tower (the vision encoder, ~0.7B, and the image tokens a request
    // adds are not counted); the towers are Qwen2.5's LLM shapes, max_position_embeddings 128000.
    {"qwen2.5-vl-7b",
     "Qwen/Qwen2.5-VL-7B-Instruct config.json (language tower; vision encoder not counted)",
     Ctx(Llama(28, 3584, 28, 4, 18944, 152064), 128000)},
    {"qwen2.5-vl-72b",
     "Qwen/Qwen2.5-VL-72B-Instruct config.json (language tower; vision encoder not counted)",
     Ctx(Llama(80, 8192, 64, 8, 29568, 152064), 128000)},
    {"qwen2.5-14b", "Qwen/Qwen2.5-14B config.json",
     Ctx(Llama(48, 5120, 40, 8, 13824, 152064), 131072)},
    {"qwen2.5-32b", "Qwen/Qwen2.5-32B config.json",
     Ctx(Llama(64, 5120, 40, 8, 27648, 152064), 131072)},
    {"qwen2.5-72b", "Qwen/Qwen2.5-72B config.json",
     Ctx(Llama(80, 8192, 64, 8, 29568, 152064), 131072)},
    {"qwen2.5-1.5b", "Qwen/Qwen2.5-1.5B config.json (tied embeddings)",
     Ctx(Tied(Llama(28, 1536, 12, 2, 8960, 151936)), 32768)},
    {"qwen2.5-3b", "Qwen/Qwen2.5-3B config.json (tied embeddings)",
     Ctx(Tied(Llama(36, 2048, 16, 2, 11008, 151936)), 32768)},
    // Qwen3: 128-wide heads whatever the width, QK-norm (no QKV bias), 32K native context
    // (max_position_embeddings 40960); the small ones tie their embeddings.
    {"qwen3-0.6b", "Qwen/Qwen3-0.6B config.json",
     Ctx(Tied(HeadDimOf(Llama(28, 1024, 16, 8, 3072, 151936), 128)), 40960)},
    {"qwen3-1.7b", "Qwen/Qwen3-1.7B config.json",
     Ctx(Tied(HeadDimOf(Llama(28, 2048, 16, 8, 6144, 151936), 128)), 40960)},
    {"qwen3-4b", "Qwen/Qwen3-4B config.json",
     Ctx(Tied(HeadDimOf(Llama(36, 2560, 32, 8, 9728, 151936), 128)), 40960)},
    {"qwen3-8b", "Qwen/Qwen3-8B config.json",
     Ctx(HeadDimOf(Llama(36, 4096, 32, 8, 12288, 151936), 128), 40960)},
    {"qwen3-14b", "Qwen/Qwen3-14B config.json",
     Ctx(HeadDimOf(Llama(40, 5120, 40, 8, 17408, 151936), 128), 40960)},
    {"qwen3-32b", "Qwen/Qwen3-32B config.json",
     Ctx(HeadDimOf(Llama(64, 5120, 64, 8, 25600, 151936), 128), 40960)},
    {"qwen3-30b-a3b",
     "Qwen/Qwen3-30B-A3B config.json (128 experts of 768, top-8, no shared expert)",
     Ctx(Moe(HeadDimOf(Llama(48, 2048, 32, 4, 768, 151936), 128), 128, 8), 40960)},
    {"qwen3-235b-a22b",
     "Qwen/Qwen3-235B-A22B config.json (128 experts of 1536, top-8, no shared expert)",
     Ctx(Moe(HeadDimOf(Llama(94, 4096, 64, 4, 1536, 151936), 128), 128, 8), 40960)},
    // The 2507 updates keep the shapes and extend the native context to 256k.
    {"qwen3-30b-a3b-2507",
     "Qwen/Qwen3-30B-A3B-Instruct-2507 config.json (Qwen3-30B-A3B's shape; 262144 positions)",
     Ctx(Moe(HeadDimOf(Llama(48, 2048, 32, 4, 768, 151936), 128), 128, 8), 262144)},
    {"qwen3-235b-a22b-2507",
     "Qwen/Qwen3-235B-A22B-Instruct-2507 config.json (Qwen3-235B-A22B's shape; 262144 positions)",
     Ctx(Moe(HeadDimOf(Llama(94, 4096, 64, 4, 1536, 151936), 128), 128, 8), 262144)},
    // DeepSeek-R1's distilled models are fine-tunes of Qwen2.5(-Math) and Llama checkpoints: their
    // architectures, as their config.json files state.
    {"deepseek-r1-distill-qwen-1.5b",
     "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B config.json (Qwen2.5-Math-1.5B, untied)",
     Ctx(Llama(28, 1536, 12, 2, 8960, 151936), 131072)},
    {"deepseek-r1-distill-qwen-7b",
     "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B config.json (Qwen2.5-Math-7B)",
     Ctx(Llama(28, 3584, 28, 4, 18944, 152064), 131072)},
    {"deepseek-r1-distill-qwen-14b",
     "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B config.json (Qwen2.5-14B)",
     Ctx(Llama(48, 5120, 40, 8, 13824, 152064), 131072)},
    {"deepseek-r1-distill-qwen-32b",
     "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B config.json (Qwen2.5-32B)",
     Ctx(Llama(64, 5120, 40, 8, 27648, 152064), 131072)},
    {"deepseek-r1-distill-llama-8b",
     "deepseek-ai/DeepSeek-R1-Distill-Llama-8B config.json (Llama-3.1-8B)",
     Ctx(Llama(32, 4096, 32, 8, 14336, 128256), 131072)},
    {"deepseek-r1-distill-llama-70b",
     "deepseek-ai/DeepSeek-R1-Distill-Llama-70B config.json (Llama-3.3-70B-Instruct)",
     Ctx(Llama(80, 8192, 64, 8, 28672, 128256), 131072)},
    {"glm-4.5",
     "zai-org/GLM-4.5 config.json (Glm4Moe: 96 query heads of 128, 8 KV heads, QKV bias; 1 "
     "shared + 160 routed experts of 1536, top-8; first 3 layers dense; the multi-token-"
     "prediction layer is not counted)",
     Ctx(SharedMoe(Biased(HeadDimOf(Llama(92, 5120, 96, 8, 1536, 151552), 128)), 160, 8, 1536, 3,
                   12288),
         131072)},
    {"glm-4.5-air",
     "zai-org/GLM-4.5-Air config.json (Glm4Moe: 96 query heads of 128, 8 KV heads, QKV bias; 1 "
     "shared + 128 routed experts of 1408, top-8; first layer dense)",
     Ctx(SharedMoe(Biased(HeadDimOf(Llama(46, 4096, 96, 8, 1408, 151552), 128)), 128, 8, 1408, 1,
                   10944),
         131072)},
    {"glm-4-9b",
     "THUDM/glm-4-9b-chat config.json (ZhipuAI/glm-4-9b-chat on ModelScope; 2 KV groups, QKV "
     "bias; seq_length 131072, the base model's 8192)",
     Ctx(Llama(40, 4096, 32, 2, 13696, 151552), 131072)},
    {"baichuan2-7b", "baichuan-inc/Baichuan2-7B-Base config.json (rotary, multi-head attention)",
     Ctx(Llama(32, 4096, 32, 32, 11008, 125696), 4096)},
    {"baichuan2-13b", "baichuan-inc/Baichuan2-13B-Base config.json (ALiBi, multi-head attention)",
     Ctx(Llama(40, 5120, 40, 40, 13696, 125696), 4096)},
    {"yi-1.5-6b", "01-ai/Yi-1.5-6B config.json (01ai/Yi-1.5-6B on ModelScope)",
     Ctx(Llama(32, 4096, 32, 4, 11008, 64000), 4096)},
    {"yi-1.5-9b", "01-ai/Yi-1.5-9B config.json", Ctx(Llama(48, 4096, 32, 4, 11008, 64000), 4096)},
    {"yi-1.5-34b", "01-ai/Yi-1.5-34B config.json", Ctx(Llama(60, 7168, 56, 8, 20480, 64000), 4096)},
    {"internlm2.5-7b",
     "internlm/internlm2_5-7b config.json (Shanghai_AI_Laboratory/internlm2_5-7b on ModelScope)",
     Ctx(Llama(32, 4096, 32, 8, 14336, 92544), 32768)},
    {"internlm2.5-20b", "internlm/internlm2_5-20b config.json",
     Ctx(Llama(48, 6144, 48, 8, 16384, 92544), 32768)},
    {"gemma-2-2b", "google/gemma-2-2b config.json (sliding window on alternate layers)",
     Ctx(Window(Tied(HeadDimOf(Llama(26, 2304, 8, 4, 9216, 256000), 256)), 4096, 0.5), 8192)},
    {"gemma-2-9b", "google/gemma-2-9b config.json (sliding window on alternate layers)",
     Ctx(Window(Tied(HeadDimOf(Llama(42, 3584, 16, 8, 14336, 256000), 256)), 4096, 0.5), 8192)},
    {"gemma-2-27b", "google/gemma-2-27b config.json (sliding window on alternate layers)",
     Ctx(Window(Tied(HeadDimOf(Llama(46, 4608, 32, 16, 36864, 256000), 128)), 4096, 0.5), 8192)},
    {"gpt3-175b", "Brown et al. 2020 (GPT-3) Table 2.1: 96 layers, d_model 12288, 96 heads",
     Ctx(Gpt(96, 12288, 96, 49152, 50257, 2048, true, true), 2048)},
    {"gpt3-13b",
     "Brown et al. 2020 (GPT-3) Table 2.1: 40 layers, 40 heads x 128 (the table prints d_model "
     "5140)",
     Ctx(Gpt(40, 5120, 40, 20480, 50257, 2048, true, true), 2048)},
    {"gpt-neox-20b", "EleutherAI/gpt-neox-20b config.json",
     Ctx(
         [] {
           ModelArch m = Gpt(44, 6144, 64, 24576, 50432, 0, true, false);
           m.tied_embeddings = false;
           return m;
         }(),
         2048)},
    {"opt-13b", "facebook/opt-13b config.json",
     Ctx(Gpt(40, 5120, 40, 20480, 50272, 2050, true, true), 2048)},
    {"opt-66b", "facebook/opt-66b config.json",
     Ctx(Gpt(64, 9216, 72, 36864, 50272, 2050, true, true), 2048)},
    {"bloom-176b", "bigscience/bloom config.json (ALiBi, tied embeddings)",
     Ctx(Gpt(70, 14336, 112, 57344, 250880, 0, true, false), 2048)},
    {"mpt-7b", "mosaicml/mpt-7b config.json (ALiBi, no biases)",
     Ctx(Gpt(32, 4096, 32, 16384, 50432, 0, false, false), 2048)},
    {"mpt-13b", "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-13b.yaml",
     Ctx(Gpt(40, 5120, 40, 20480, 50368, 0, false, false), 2048)},
    {"mpt-30b", "mosaicml/mpt-30b config.json",
     Ctx(Gpt(48, 7168, 64, 28672, 50432, 0, false, false), 8192)},
    {"mpt-70b", "mosaicml/llm-foundry scripts/train/yamls/pretrain/mpt-70b.yaml",
     Ctx(Gpt(80, 8192, 64, 32768, 50368, 0, false, false), 2048)},
    {"bert-base", "google-bert/bert-base-uncased config.json",
     Ctx(Family(Gpt(12, 768, 12, 3072, 30522, 514, true, true), ModelFamily::kEncoder), 512)},
    {"bert-large", "google-bert/bert-large-uncased config.json",
     Ctx(Family(Gpt(24, 1024, 16, 4096, 30522, 514, true, true), ModelFamily::kEncoder), 512)},
    {"t5-11b", "google-t5/t5-11b config.json (d_kv 128, 128 heads, d_ff 65536, ReLU)",
     HeadDimOf(
         Family(Gpt(24, 1024, 128, 65536, 32128, 0, false, true), ModelFamily::kEncoderDecoder),
         128)},
    {"deepseek-v3",
     "deepseek-ai/DeepSeek-V3 config.json (MLA; 1 shared + 256 routed experts, top-8; first 3 "
     "layers dense; the multi-token-prediction module is not counted)",
     DeepSeek(61, 7168, 128, 1536, 3, 18432, 256, 8, 1, 2048, 129280)},
    {"kimi-k2",
     "moonshotai/Kimi-K2-Instruct config.json (the DeepSeek-V3 architecture with 64 heads: MLA; 1 "
     "shared + 384 routed experts of 2048, top-8; first layer dense)",
     Ctx(DeepSeek(61, 7168, 64, 1536, 1, 18432, 384, 8, 1, 2048, 163840), 131072)},
    {"kimi-k2-0905",
     "moonshotai/Kimi-K2-Instruct-0905 config.json (Kimi-K2's shape; 262144 positions)",
     Ctx(DeepSeek(61, 7168, 64, 1536, 1, 18432, 384, 8, 1, 2048, 163840), 262144)},
    {"deepseek-r1",
     "deepseek-ai/DeepSeek-R1 config.json (the DeepSeek-V3 architecture: MLA; 1 shared + 256 "
     "routed experts, top-8; first 3 layers dense; the multi-token-prediction module is not "
     "counted)",
     DeepSeek(61, 7168, 128, 1536, 3, 18432, 256, 8, 1, 2048, 129280)},
    {"deepseek-v2",
     "deepseek-ai/DeepSeek-V2 config.json (MLA; 2 shared + 160 routed experts, top-6; first "
     "layer dense)",
     DeepSeek(60, 5120, 128, 1536, 1, 12288, 160, 6, 2, 1536, 102400)},
    {"deepseek-v2-lite",
     "deepseek-ai/DeepSeek-V2-Lite config.json (MLA without query compression; 2 shared + 64 "
     "routed experts, top-6; first layer dense)",
     DeepSeek(27, 2048, 16, 0, 1, 10944, 64, 6, 2, 1408, 102400)},
    {"gpt-oss-120b", "openai/gpt-oss-120b config.json (MXFP4 experts)", GptOss(36, 128)},
    {"gpt-oss-20b", "openai/gpt-oss-20b config.json (MXFP4 experts)", GptOss(24, 32)},
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
    // Latent diffusion: FLOP, activations and scores are counted from the UNet layout at the
    // requested resolution (src/workload/diffusion.cc); the figures given to Vision() are the
    // counts at the reference resolution, kept for listings. Layouts from the diffusers configs
    // (unet/config.json, text_encoder*/config.json) of each checkpoint.
    {"stable-diffusion-1.5",
     "stable-diffusion-v1-5 (diffusers config): UNet 860M params, block_out_channels "
     "320/640/1280/1280, one transformer per attention level, 8 heads, cross-attention to CLIP "
     "ViT-L/14 text embeddings (768 wide, 123M params); 512x512 (64x64 latents), 50 steps",
     Diffusion(UNet(Vision(ModelFamily::kDiffusion,
                           {1.07e9, 0.80e12, 0.52, 0.16, 3.0e8, 3.5, 3.5, 2.1, 300, 512, 8}),
                    {{320, 640, 1280, 1280}, {1, 1, 1, 0}, 1, 0, 8, 768}, 123e6),
               50, 2.52e12)},
    {"stable-diffusion-2",
     "stabilityai/stable-diffusion-2-base (diffusers config), the MLPerf Training text-to-image "
     "benchmark: UNet 865M params, block_out_channels 320/640/1280/1280, one transformer per "
     "attention level, 64-wide heads, cross-attention to OpenCLIP ViT-H text embeddings (1024 "
     "wide, 354M params); 512x512 (64x64 latents; 768x768 for stable-diffusion-2-1), 50 steps",
     Diffusion(UNet(Vision(ModelFamily::kDiffusion,
                           {1.3e9, 0.80e12, 0.52, 0.16, 3.0e8, 3.5, 3.5, 2.1, 300, 512, 8}),
                    {{320, 640, 1280, 1280}, {1, 1, 1, 0}, 1, 64, 0, 1024}, 354e6),
               50, 2.52e12)},
    {"stable-diffusion-xl",
     "stabilityai/stable-diffusion-xl-base-1.0 (diffusers config; Podell et al. 2023): UNet "
     "2.6B params, block_out_channels 320/640/1280, 0/2/10 transformer blocks per level and 10 "
     "in the mid block, 64-wide heads, cross-attention to CLIP ViT-L + OpenCLIP ViT-bigG text "
     "embeddings (2048 wide, 0.82B params together); 1024x1024 (128x128 latents), 30 steps",
     Diffusion(UNet(Vision(ModelFamily::kDiffusion,
                           {3.5e9, 6.8e12, 0.24, 0.12, 2.4e9, 3.5, 3.5, 2.1, 740, 1024, 1}),
                    {{320, 640, 1280, 0}, {0, 2, 10, 0}, 10, 64, 0, 2048}, 818e6),
               30, 1.05e13)},
};

}  // namespace

std::span<const ModelPreset> ModelPresets() { return kPresets; }

const std::vector<std::string>& ModelPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ModelPreset& p : kPresets) v.emplace_back(p.name);
    return v;
  }();
  return names;
}

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A repository name without the tokens that name a fine-tune of the same architecture
// ("Llama-2-7b-chat-hf" -> "llama-2-7b", "Meta-Llama-3.1-8B-Instruct" -> "llama-3.1-8b",
// "gemma-2-9b-it" -> "gemma-2-9b"), lower-case.
std::string ArchitectureName(std::string_view repo_name, bool drop_revision = true) {
  std::string out;
  const std::string lower = ToLower(repo_name);
  const std::vector<std::string_view> tokens = Split(lower, '-');
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view t = tokens[i];
    if (t == "instruct" || t == "chat" || t == "hf" || t == "it" || t == "base" ||
        t == "thinking") {
      continue;
    }
    // A dated revision of the same weights' architecture ("Qwen3-30B-A3B-Instruct-2507",
    // "DeepSeek-R1-0528", "Kimi-K2-Instruct-0905").
    if (drop_revision && i > 0 && t.size() == 4 &&
        t.find_first_not_of("0123456789") == std::string_view::npos) {
      continue;
    }
    if (i == 0 && t == "meta" && tokens.size() > 1) continue;
    if (!out.empty()) out += '-';
    out += t;
  }
  return out;
}

// The repository a preset's source cites ("mistralai/Mistral-7B-v0.1 config.json ..."), or "".
std::string_view SourceRepoName(const ModelPreset& p) {
  const std::string_view src = p.source;
  const size_t space = src.find(' ');
  if (space == std::string_view::npos || src.substr(space + 1, 11) != "config.json") return "";
  const std::string_view repo = src.substr(0, space);
  const size_t slash = repo.find('/');
  return slash == std::string_view::npos ? "" : repo.substr(slash + 1);
}

// Point releases that keep their predecessor's architecture (config.json alike but for the
// weights' names and the chat template): DeepSeek-V3.1 and its Terminus update are DeepSeek-V3.
// (DeepSeek-V3.2 is not: its sparse attention changes the cost.)
std::string SameArchitectureAs(const std::string& arch) {
  static constexpr std::pair<std::string_view, std::string_view> kRevisions[] = {
      {"deepseek-v3.1", "deepseek-v3"}, {"deepseek-v3.1-terminus", "deepseek-v3"}};
  for (const auto& [revision, base] : kRevisions) {
    if (arch == revision) return std::string(base);
  }
  return arch;
}

// The preset closest to an architecture name: the longest preset name it starts with, else the
// smallest edit distance.
const ModelPreset& ClosestPreset(const std::string& arch) {
  // Compared up to kMaxSuggestChars only: edit distance is quadratic in an untrusted length.
  const std::string wanted = NormalizeName(arch).substr(0, kMaxSuggestChars);
  const ModelPreset* best = &kPresets[0];
  size_t best_prefix = 0, best_distance = std::string::npos;
  for (const ModelPreset& p : kPresets) {
    const std::string name = NormalizeName(p.name);
    if (StartsWith(wanted, name) && name.size() > best_prefix) {
      best_prefix = name.size();
      best = &p;
    }
  }
  if (best_prefix > 0) return *best;
  for (const ModelPreset& p : kPresets) {
    const size_t d = EditDistance(wanted, NormalizeName(p.name));
    if (d < best_distance) {
      best_distance = d;
      best = &p;
    }
  }
  return *best;
}

}  // namespace

bool LooksLikeHfId(std::string_view text) {
  const std::string_view t = Trim(text);
  const size_t slash = t.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == t.size() ||
      t.find('/', slash + 1) != std::string_view::npos || t.find("..") != std::string_view::npos ||
      t[0] == '.' || t[slash + 1] == '.') {
    return false;
  }
  for (char c : t) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != '/') {
      return false;
    }
  }
  const std::string lower = ToLower(t);
  return !EndsWith(lower, ".json") && !EndsWith(lower, ".yaml") && !EndsWith(lower, ".yml");
}

Result<const ModelPreset*> FindModelPresetForHfId(std::string_view id) {
  const std::string_view t = Trim(id);
  const std::string_view repo_name = t.substr(t.find('/') + 1);
  const std::string arch = SameArchitectureAs(ArchitectureName(repo_name));
  // A dated revision with a preset of its own (a longer context) first, then its base.
  for (const std::string& name : {ArchitectureName(repo_name, false), arch}) {
    const std::string wanted = NormalizeName(name);
    for (const ModelPreset& p : kPresets) {
      const std::string_view repo = SourceRepoName(p);
      if (NormalizeName(p.name) == wanted ||
          (!repo.empty() && NormalizeName(ArchitectureName(repo, false)) == wanted)) {
        return &p;
      }
    }
  }
  return Status::NotFound("model: unknown Hugging Face id \"" + std::string(t) +
                          "\": no preset has its architecture; did you mean " +
                          ClosestPreset(arch).name +
                          "? (or pass the model's config.json with --model-config)")
      .WithField("model");
}

Result<const ModelPreset*> FindModelPreset(std::string_view name) {
  if (LooksLikeHfId(name)) return FindModelPresetForHfId(name);
  const std::string wanted = NormalizeName(name);
  for (const ModelPreset& p : kPresets) {
    if (NormalizeName(p.name) == wanted) return &p;
  }
  std::string msg = "model: unknown preset \"" + std::string(name) + "\"";
  std::string hint = DidYouMean(name, ModelPresetNames());
  if (!hint.empty()) msg += "; " + hint;
  msg += " (`gpuadvisor models` lists the presets)";
  return Status::NotFound(msg).WithField("model");
}

}  // namespace gpuadvisor
