// Hugging Face config.json import. Key names differ by model_type; each reader below uses the
// keys its configuration class defines (transformers/models/<type>/configuration_<type>.py).
//
// A config is never silently miscounted (issue 15):
//  * model_type must be one of SupportedHfModelTypes(). A missing or other one is refused with
//    the list: an unknown family may lay out its MLP, attention or experts differently, and a
//    plausible count from the usual key names would be wrong without anyone noticing. The
//    refusal says how to describe the architecture with explicit keys instead.
//  * Every top-level key the type's reader does not use is checked. Known-harmless ones (token
//    ids, dropout, norm epsilon, rope base, routing hyper-parameters, ...) pass; one that names
//    experts or MoE routing is refused (a MoE layout the reader does not model would be off by
//    a large factor); other architecture-looking ones (sizes, dims, layers, heads, windows,
//    biases, ...) are named in a warning.
//  * The keys read, the resulting parameter count and the context window are listed among the
//    estimate's assumptions; parts not counted (a vision tower, DeepSeek-V3's multi-token-
//    prediction module) and the checkpoint's weight format are stated there too.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpuadvisor/workload.h"
#include "util/text.h"
#include "workload/json_text.h"
#include "workload/model_internal.h"

namespace gpuadvisor {
namespace {

using nlohmann::json;

constexpr double kMaxConfigInt = 1e9;  // far beyond any real size; Validate() bounds further

// Reads keys of one config object and remembers which it looked at (present or not).
class ConfigReader {
 public:
  explicit ConfigReader(const json& cfg) : cfg_(cfg) {}

  // The first of `keys` present (not null); 0 if none. A value that is not a number ("4096")
  // or a number outside [0, 1e9] records the key and why as bad (ApplyHfConfigJson reports it)
  // and reads as 0.
  int Int(std::initializer_list<const char*> keys) {
    for (const char* k : keys) used_.insert(k);
    for (const char* k : keys) {
      auto it = cfg_.find(k);
      if (it == cfg_.end() || it->is_null()) continue;
      if (!it->is_number()) {
        Bad(k,
            std::string("expected an integer, got ") +
                (it->is_string() ? "the string \"" + TerminalSafe(it->get<std::string>()) + "\""
                                 : std::string(it->is_array() || it->is_object() ? "an " : "a ") +
                                       it->type_name()));
        return 0;
      }
      const double v = it->get<double>();
      if (v >= 0 && v <= kMaxConfigInt) return static_cast<int>(v);
      Bad(k, "expected an integer between 0 and 1e9, got " + it->dump());
      return 0;
    }
    return 0;
  }
  // Whether the config has `key` with a value (not null).
  bool Has(const char* key) const {
    auto it = cfg_.find(key);
    return it != cfg_.end() && !it->is_null();
  }
  double Number(const char* key, double fallback) {
    used_.insert(key);
    auto it = cfg_.find(key);
    return it != cfg_.end() && it->is_number() ? it->get<double>() : fallback;
  }
  bool Bool(const char* key, bool fallback) {
    used_.insert(key);
    auto it = cfg_.find(key);
    return it != cfg_.end() && it->is_boolean() ? it->get<bool>() : fallback;
  }
  std::string Str(const char* key) {
    used_.insert(key);
    auto it = cfg_.find(key);
    return it != cfg_.end() && it->is_string() ? it->get<std::string>() : "";
  }
  // The member if it has the given type, else null.
  const json* Object(const char* key) { return Member(key, json::value_t::object); }
  const json* Array(const char* key) { return Member(key, json::value_t::array); }

  bool Used(const std::string& key) const { return used_.count(key) > 0; }
  // Keys read that the config has (with a value), in the config's (sorted) order.
  std::vector<std::string> PresentUsed() const {
    std::vector<std::string> out;
    for (auto it = cfg_.begin(); it != cfg_.end(); ++it) {
      if (Used(it.key()) && !it->is_null() && it.key() != "model_type") out.push_back(it.key());
    }
    return out;
  }
  const std::string& bad_key() const { return bad_key_; }
  const std::string& bad_why() const { return bad_why_; }

 private:
  void Bad(const char* key, std::string why) {
    if (!bad_key_.empty()) return;
    bad_key_ = key;
    bad_why_ = std::move(why);
  }

  const json* Member(const char* key, json::value_t type) {
    used_.insert(key);
    auto it = cfg_.find(key);
    return it != cfg_.end() && it->type() == type ? &*it : nullptr;
  }

  const json& cfg_;
  std::set<std::string> used_;
  std::string bad_key_, bad_why_;
};

// What the import says about itself: assumptions and warnings for the estimate.
struct ImportNotes {
  std::vector<std::string> lines;
  void Assume(std::string s) { lines.push_back(std::move(s)); }
  void Warn(std::string s) { lines.push_back("warning: " + std::move(s)); }
};

// How a model_type lays out its config; each Read* function below handles one layout.
enum class Layout { kLlama, kGpt2, kOpt, kBert, kGptNeox, kBloom, kMpt, kT5 };

struct HfType {
  const char* name;
  Layout layout;
  ModelFamily family;
  bool gated;  // SwiGLU/GeGLU MLP
  bool tied;   // tie_word_embeddings default of the configuration class
  bool bias;   // biases on the linear layers by default
};

// Sorted by name. Defaults are those of each configuration class.
const HfType kHfTypes[] = {
    {"bert", Layout::kBert, ModelFamily::kEncoder, false, true, true},
    {"bloom", Layout::kBloom, ModelFamily::kDecoder, false, true, true},
    {"deepseek_v2", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"deepseek_v3", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"gemma", Layout::kLlama, ModelFamily::kDecoder, true, true, false},
    {"gemma2", Layout::kLlama, ModelFamily::kDecoder, true, true, false},
    {"gemma3", Layout::kLlama, ModelFamily::kDecoder, true, true, false},
    {"gemma3_text", Layout::kLlama, ModelFamily::kDecoder, true, true, false},
    {"gpt2", Layout::kGpt2, ModelFamily::kDecoder, false, true, true},
    {"gpt_neox", Layout::kGptNeox, ModelFamily::kDecoder, false, false, true},
    {"gpt_oss", Layout::kLlama, ModelFamily::kDecoder, true, false, true},
    {"llama", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"mistral", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"mixtral", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"mpt", Layout::kMpt, ModelFamily::kDecoder, false, true, false},
    {"opt", Layout::kOpt, ModelFamily::kDecoder, false, true, true},
    {"qwen2", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"qwen2_moe", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"qwen3", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"qwen3_moe", Layout::kLlama, ModelFamily::kDecoder, true, false, false},
    {"roberta", Layout::kBert, ModelFamily::kEncoder, false, true, true},
    {"t5", Layout::kT5, ModelFamily::kEncoderDecoder, false, true, false},
};

const HfType* FindHfType(std::string_view name) {
  for (const HfType& t : kHfTypes) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

// ---- Unknown keys ----

// Keys that look architectural but change neither the parameter count nor the KV cache.
const std::set<std::string>& HarmlessKeys() {
  static const std::set<std::string> keys = {
      "_remove_final_layer_norm",
      "bias_dropout_fusion",
      "layer_norm_elementwise_affine",
      "skip_bias_add",
      "skip_bias_add_qkv",
      "add_cross_attention",
      "attention_dropout",
      "attention_probs_dropout_prob",
      "attn_logit_softcapping",
      "attn_pdrop",
      "aux_loss_alpha",
      "chunk_size_feed_forward",
      "classifier_dropout",
      "cross_attention_hidden_size",
      "do_layer_norm_before",
      "emb_pdrop",
      "embd_pdrop",
      "embedding_dropout",
      "ep_size",
      "final_logit_softcapping",
      "hidden_act",
      "hidden_activation",
      "hidden_dropout",
      "init_config",
      "initial_context_length",
      "initializer_range",
      "is_decoder",
      "layer_norm_eps",
      "layer_norm_epsilon",
      "layer_norm_type",
      "layerdrop",
      "learned_pos_emb",
      "length_penalty",
      "logit_scale",
      "max_length",
      "min_length",
      "n_group",
      "no_repeat_ngram_size",
      "norm_topk_prob",
      "num_beam_groups",
      "num_beams",
      "num_labels",
      "num_return_sequences",
      "output_router_logits",
      "position_embedding_type",
      "pretraining_tp",
      "query_pre_attn_scalar",
      "relative_attention_max_distance",
      "relative_attention_num_buckets",
      "reorder_and_upcast_attn",
      "rope_local_base_freq",
      "rotary_emb_base",
      "rotary_pct",
      "routed_scaling_factor",
      "router_aux_loss_coef",
      "router_jitter_noise",
      "router_z_loss_coef",
      "scale_attn_by_inverse_layer_idx",
      "scale_attn_weights",
      "scoring_func",
      "seq_aux",
      "swiglu_limit",
      "tie_encoder_decoder",
      "topk_group",
      "topk_method",
      "use_parallel_residual",
  };
  return keys;
}

std::vector<std::string> KeyTokens(const std::string& key) {
  std::vector<std::string> out;
  for (std::string_view t : Split(key, '_')) {
    if (!t.empty()) out.emplace_back(t);
  }
  return out;
}

// Keys naming experts or MoE routing: a layout the reader does not know (refused).
bool IsMoeKey(const std::string& key) {
  for (const std::string& t : KeyTokens(key)) {
    if (t == "expert" || t == "experts" || t == "moe" || t == "sparse" || t == "routed" ||
        t == "router" || t == "nextn") {
      return true;
    }
  }
  return false;
}

// Keys that may size something: the warning's candidates.
bool LooksArchitectural(const std::string& key) {
  static const std::set<std::string> tokens = {
      "size",  "dim",     "dims",  "layer",      "layers",    "head",     "heads",
      "rank",  "window",  "ffn",   "inner",      "vocab",     "position", "positions",
      "lora",  "shared",  "kv",    "attn",       "attention", "block",    "blocks",
      "mlp",   "embed",   "embd",  "embeddings", "proj",      "pattern",  "latent",
      "bias",  "tie",     "sinks", "group",      "groups",    "ratio",    "width",
      "depth", "context", "seq",   "len",        "length",    "hidden",   "intermediate",
      "ctx",   "stride"};
  const std::vector<std::string> t = KeyTokens(key);
  if (!t.empty() && (t[0] == "n" || t[0] == "num" || t[0] == "d")) return true;
  for (const std::string& s : t) {
    if (tokens.count(s) > 0) return true;
  }
  return false;
}

// Refuses MoE keys the reader did not use; lists the other architecture-looking ones.
Status CheckUnusedKeys(const json& cfg, const ConfigReader& r, std::string_view type,
                       std::string_view origin, ImportNotes* notes) {
  std::string unknown;
  for (auto it = cfg.begin(); it != cfg.end(); ++it) {
    const std::string& key = it.key();
    // "summary_*": GPT-2's sequence-summary head of the double-heads model, not the LM.
    if (r.Used(key) || it->is_null() || HarmlessKeys().count(key) > 0 || key == "model_type" ||
        StartsWith(key, "_") || StartsWith(key, "summary_")) {
      continue;
    }
    if (IsMoeKey(key)) {
      return Status::InvalidArgument(
          std::string(origin) + ": " + key + ": not modelled for model_type " + std::string(type) +
          " (a mixture-of-experts layout the importer does not know); describe the "
          "architecture with explicit keys (--experts, --active-experts, --ffn, ...) instead");
    }
    if (LooksArchitectural(key)) unknown += (unknown.empty() ? "" : ", ") + key;
  }
  if (!unknown.empty()) {
    notes->Warn(std::string(origin) +
                ": keys not understood, the parameter count or KV cache "
                "may differ from the model's: " +
                unknown);
  }
  return Status::OK();
}

// ---- Readers ----

// What a reader found: the architecture and its required sizes by the type's key names.
struct ReadResult {
  ModelArch arch;
  std::vector<std::pair<const char*, int>> required;  // checked in this order when 0
  std::string context_how;                            // where the context window came from
};

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// The dimensions most configs name alike (Llama, OPT, BERT, GPT-NeoX families), required in this
// order when missing.
void ReadCommonDims(ConfigReader& r, ReadResult* out) {
  ModelArch& m = out->arch;
  m.hidden = r.Int({"hidden_size"});
  m.layers = r.Int({"num_hidden_layers"});
  m.heads = r.Int({"num_attention_heads"});
  m.vocab = r.Int({"vocab_size"});
  out->required = {{"hidden_size", m.hidden},
                   {"num_hidden_layers", m.layers},
                   {"num_attention_heads", m.heads},
                   {"vocab_size", m.vocab}};
}

void ReadDropout(ConfigReader& r, ModelArch* m) {
  for (const char* k : {"hidden_dropout_prob", "dropout", "resid_pdrop", "dropout_rate"}) {
    if (r.Number(k, 0) > 0) m->dropout = true;
  }
}

// Share of layers with a sliding window. transformers writes `layer_types` for newer configs;
// older ones state the pattern: Gemma 2 slides on even layers (Gemma Team 2024, §2), Gemma 3 on
// all but every `sliding_window_pattern`-th (5 local : 1 global), gpt-oss alternates (model
// card), Qwen2/3 from layer `max_window_layers` on when `use_sliding_window`.
void ReadWindow(ConfigReader& r, std::string_view type, ModelArch* m) {
  const bool qwen = StartsWith(type, "qwen"), gemma3 = StartsWith(type, "gemma3");
  const bool alternate = type == "gemma2" || type == "gpt_oss";
  if (!qwen && !gemma3 && !alternate && type != "mistral" && type != "mixtral") return;
  const double layers = std::max(1, m->layers);
  int window = r.Int({"sliding_window"});
  double sliding = layers;
  if (qwen) {
    if (!r.Bool("use_sliding_window", false)) window = 0;
    sliding = std::max(0.0, layers - r.Int({"max_window_layers"}));
  } else if (alternate) {
    sliding = std::ceil(layers / 2);
  } else if (gemma3) {
    const int pattern = r.Int({"sliding_window_pattern"});
    sliding = layers - std::floor(layers / (pattern > 0 ? pattern : 6));
  }
  if (const json* types = r.Array("layer_types"); types != nullptr && !types->empty()) {
    sliding = 0;
    for (const json& t : *types) {
      if (t.is_string() && t.get<std::string>() == "sliding_attention") ++sliding;
    }
    sliding = sliding * layers / double(types->size());
  }
  m->sliding_window = sliding > 0 ? window : 0;
  m->sliding_window_fraction = std::min(1.0, sliding / layers);
}

// The longest sequence: max_position_embeddings, extended by rope_scaling as vLLM derives
// max_model_len (vllm/config.py, _get_and_verify_max_len): YaRN windows are
// original_max_position_embeddings x factor; linear and dynamic scaling multiply
// max_position_embeddings (except Gemma 3, whose figure already includes it); llama3,
// longrope and su scaling leave it as stated.
int ReadRopeContext(ConfigReader& r, std::string_view type, int max_pos, std::string* how) {
  *how = "max_position_embeddings";
  const json* rope = r.Object("rope_scaling");
  if (rope == nullptr || max_pos <= 0) return max_pos;
  auto num = [&](const char* k) {
    auto it = rope->find(k);
    return it != rope->end() && it->is_number() ? it->get<double>() : 0.0;
  };
  std::string kind;
  for (const char* k : {"rope_type", "type"}) {
    auto it = rope->find(k);
    if (it != rope->end() && it->is_string()) kind = ToLower(it->get<std::string>());
  }
  const double factor = num("factor"), original = num("original_max_position_embeddings");
  double window = max_pos;
  if (factor > 1 && kind == "yarn" && original > 0) {
    window = std::max(window, factor * original);
    *how += "; rope_scaling yarn " + FormatFixed(factor, 0) + " x " + FormatFixed(original, 0);
  } else if (factor > 1 && (kind == "linear" || kind == "dynamic") && !StartsWith(type, "gemma3")) {
    window = factor * max_pos;
    *how += "; rope_scaling " + kind + " x" + FormatFixed(factor, 0);
  }
  return static_cast<int>(std::min(window, kMaxConfigInt));
}

// Layers whose MLP is routed experts. DeepSeek (modeling_deepseek.py): layer i >=
// first_k_dense_replace with i % moe_layer_freq == 0. Qwen-MoE (modeling_qwen2_moe.py): i not
// in mlp_only_layers with (i + 1) % decoder_sparse_step == 0.
int CountMoeLayers(ConfigReader& r, bool deepseek, int layers) {
  if (layers <= 0) return 0;
  if (deepseek) {  // multiples of freq in [first_dense, layers), counted without a loop
    const int64_t first_dense = r.Int({"first_k_dense_replace"});
    const int64_t freq = std::max(1, r.Int({"moe_layer_freq"}));
    if (first_dense >= layers) return 0;
    const int64_t below = first_dense == 0 ? 0 : (first_dense - 1) / freq + 1;
    return static_cast<int>((layers - 1) / freq + 1 - below);
  }
  const int64_t step = std::max(1, r.Int({"decoder_sparse_step"}));
  int64_t count = layers / step;  // i with (i + 1) % step == 0
  std::set<int64_t> dense_only;
  if (const json* only = r.Array("mlp_only_layers")) {
    for (const json& i : *only) {
      if (i.is_number_integer()) dense_only.insert(i.get<int64_t>());
    }
  }
  for (int64_t i : dense_only) count -= i >= 0 && i < layers && (i + 1) % step == 0;
  return static_cast<int>(count);
}

// Experts of Mixtral, gpt-oss, Qwen-MoE and DeepSeekMoE; each type reads its own keys only.
void ReadExperts(ConfigReader& r, std::string_view type, ModelArch* m) {
  const bool deepseek = StartsWith(type, "deepseek"), qwen_moe = Contains(type, "_moe");
  if (type == "mixtral" || type == "gpt_oss") {
    m->experts = r.Int({"num_local_experts"});
    m->active_experts = r.Int({"num_experts_per_tok", "experts_per_token"});
    return;
  }
  if (!deepseek && !qwen_moe) return;
  m->experts = r.Int({deepseek ? "n_routed_experts" : "num_experts"});
  m->active_experts = r.Int({"num_experts_per_tok"});
  const int expert_ffn = r.Int({"moe_intermediate_size"});
  const int shared = deepseek ? r.Int({"n_shared_experts"}) * expert_ffn
                              : r.Int({"shared_expert_intermediate_size"});
  const int moe_layers = CountMoeLayers(r, deepseek, m->layers);
  if (m->experts <= 1 || moe_layers == 0) {  // a dense model written in a MoE config class
    m->experts = m->active_experts = 0;
    return;
  }
  m->dense_ffn = m->ffn;
  m->ffn = expert_ffn;
  m->shared_ffn = shared;
  m->dense_layers = m->layers - moe_layers;
}

// Multi-head latent attention (DeepSeek-V2/V3): kv_lora_rank, q_lora_rank (null = full-rank
// queries), qk_rope_head_dim, qk_nope_head_dim, v_head_dim.
void ReadLatentAttention(ConfigReader& r, ReadResult* out) {
  ModelArch& m = out->arch;
  r.Int({"head_dim", "qk_head_dim"});  // derived copies some configs carry; not needed
  m.kv_lora_rank = r.Int({"kv_lora_rank"});
  m.q_lora_rank = r.Int({"q_lora_rank"});
  m.rope_head_dim = r.Int({"qk_rope_head_dim"});
  m.head_dim = r.Int({"qk_nope_head_dim"});
  m.v_head_dim = r.Int({"v_head_dim"});
  out->required.insert(out->required.end(), {{"kv_lora_rank", m.kv_lora_rank},
                                             {"qk_rope_head_dim", m.rope_head_dim},
                                             {"qk_nope_head_dim", m.head_dim},
                                             {"v_head_dim", m.v_head_dim}});
}

// Llama-style decoders: Llama, Mistral, Mixtral, Qwen2/3 (+MoE), Gemma 1-3, gpt-oss, DeepSeek.
ReadResult ReadLlama(ConfigReader& r, const HfType& t, ImportNotes* notes,
                     std::string_view origin) {
  ReadResult out;
  ModelArch& m = out.arch;
  const std::string_view type = t.name;
  ReadCommonDims(r, &out);
  m.kv_heads = r.Int({"num_key_value_heads"});
  m.ffn = r.Int({"intermediate_size"});
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = r.Bool("attention_bias", t.bias);
  if (type == "llama" && r.Bool("mlp_bias", false) && !m.attention_bias) {
    notes->Warn(std::string(origin) +
                ": mlp_bias: MLP biases without attention biases are not "
                "counted (under 0.01% of the parameters)");
  }
  if (StartsWith(type, "deepseek")) {
    ReadLatentAttention(r, &out);
    m.kv_heads = m.heads;  // MLA: every head has its own (up-projected) key and value
    const int mtp = r.Int({"num_nextn_predict_layers"});
    if (mtp > 0) {
      notes->Assume(std::string(origin) + ": num_nextn_predict_layers " + std::to_string(mtp) +
                    ": the multi-token-prediction module is not counted (it serves no tokens "
                    "unless used for speculative decoding)");
    }
  } else {
    m.head_dim = r.Int({"head_dim"});
  }
  ReadExperts(r, type, &m);
  ReadWindow(r, type, &m);
  m.context_length = ReadRopeContext(r, type, r.Int({"max_position_embeddings"}), &out.context_how);
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadGpt2(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  m.hidden = r.Int({"n_embd"});
  m.layers = r.Int({"n_layer"});
  m.heads = r.Int({"n_head"});
  m.ffn = r.Int({"n_inner"});  // null = 4h
  m.vocab = r.Int({"vocab_size"});
  m.max_positions = r.Int({"n_positions"});
  const int n_ctx = r.Int({"n_ctx"});
  m.context_length =
      n_ctx > 0 && (m.max_positions == 0 || n_ctx < m.max_positions) ? n_ctx : m.max_positions;
  out.context_how = "n_positions";
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = t.bias;
  out.required = {
      {"n_embd", m.hidden}, {"n_layer", m.layers}, {"n_head", m.heads}, {"vocab_size", m.vocab}};
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadOpt(ConfigReader& r, const HfType& t, ImportNotes* notes, std::string_view origin) {
  ReadResult out;
  ModelArch& m = out.arch;
  ReadCommonDims(r, &out);
  m.ffn = r.Int({"ffn_dim"});
  m.context_length = r.Int({"max_position_embeddings"});
  out.context_how = "max_position_embeddings";
  m.max_positions = m.context_length > 0 ? m.context_length + 2 : 0;  // OPT's offset of 2
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = r.Bool("enable_bias", t.bias);
  const int proj = r.Int({"word_embed_proj_dim"});
  if (proj > 0 && proj != m.hidden) {
    notes->Warn(std::string(origin) + ": word_embed_proj_dim " + std::to_string(proj) +
                " differs from hidden_size: the embedding projections are not counted");
  }
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadBert(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  m.family = t.family;
  ReadCommonDims(r, &out);
  m.ffn = r.Int({"intermediate_size"});
  const int positions = r.Int({"max_position_embeddings"});
  // Learned positions and token types; RoBERTa's first two positions are padding offsets.
  m.max_positions = positions > 0 ? positions + r.Int({"type_vocab_size"}) : 0;
  m.context_length = t.name == std::string_view("roberta") ? std::max(0, positions - 2) : positions;
  out.context_how = "max_position_embeddings";
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = t.bias;
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadGptNeox(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  ReadCommonDims(r, &out);
  m.ffn = r.Int({"intermediate_size"});
  m.context_length = r.Int({"max_position_embeddings"});
  out.context_how = "max_position_embeddings";
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = r.Bool("attention_bias", t.bias);
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadBloom(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  m.hidden = r.Int({"hidden_size", "n_embed"});
  m.layers = r.Int({"n_layer", "num_hidden_layers"});
  m.heads = r.Int({"n_head", "num_attention_heads"});
  m.vocab = r.Int({"vocab_size"});
  m.context_length = r.Int({"seq_length"});  // ALiBi; the trained length
  out.context_how = "seq_length";
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.attention_bias = t.bias;
  out.required = {{"hidden_size", m.hidden},
                  {"n_layer", m.layers},
                  {"n_head", m.heads},
                  {"vocab_size", m.vocab}};
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadMpt(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  m.hidden = r.Int({"d_model"});
  m.layers = r.Int({"n_layers"});
  m.heads = r.Int({"n_heads"});
  m.vocab = r.Int({"vocab_size"});
  const double ratio = r.Number("expansion_ratio", 4);
  m.ffn = ratio > 0 && ratio * m.hidden <= kMaxConfigInt ? static_cast<int>(ratio * m.hidden) : 0;
  m.context_length = r.Int({"max_seq_len"});
  out.context_how = "max_seq_len";
  m.tied_embeddings = t.tied;  // MPT has no separate output head
  m.attention_bias = !r.Bool("no_bias", true);
  if (const json* attn = r.Object("attn_config")) {  // grouped-query variants
    auto kv = attn->find("kv_n_heads");
    auto kind = attn->find("attn_type");
    if (kind != attn->end() && kind->is_string() &&
        kind->get<std::string>() == "grouped_query_attention" && kv != attn->end() &&
        kv->is_number_integer()) {
      m.kv_heads = static_cast<int>(std::clamp<int64_t>(kv->get<int64_t>(), 0, 1000000000));
    }
  }
  if (const json* ffn = r.Object("ffn_config")) {
    auto kind = ffn->find("ffn_type");
    m.gated_mlp =
        kind != ffn->end() && kind->is_string() && Contains(kind->get<std::string>(), "glu");
  } else {
    m.gated_mlp = false;
  }
  out.required = {
      {"d_model", m.hidden}, {"n_layers", m.layers}, {"n_heads", m.heads}, {"vocab_size", m.vocab}};
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadT5(ConfigReader& r, const HfType& t) {
  ReadResult out;
  ModelArch& m = out.arch;
  m.family = t.family;
  m.hidden = r.Int({"d_model"});
  m.layers = r.Int({"num_layers"});
  m.heads = r.Int({"num_heads"});
  m.head_dim = r.Int({"d_kv"});
  m.ffn = r.Int({"d_ff"});
  m.vocab = r.Int({"vocab_size"});
  r.Int({"n_positions"});  // informational: relative position buckets have no window
  m.tied_embeddings = r.Bool("tie_word_embeddings", t.tied);
  m.gated_mlp = Contains(r.Str("feed_forward_proj"), "gated");  // T5 v1.1 "gated-gelu"
  r.Bool("is_gated_act", false);
  r.Str("dense_act_fn");
  out.required = {{"d_model", m.hidden},
                  {"num_layers", m.layers},
                  {"num_heads", m.heads},
                  {"vocab_size", m.vocab}};
  ReadDropout(r, &m);
  return out;
}

ReadResult ReadArch(ConfigReader& r, const HfType& t, ImportNotes* notes, std::string_view origin) {
  ReadResult out;
  switch (t.layout) {
    case Layout::kLlama:
      out = ReadLlama(r, t, notes, origin);
      break;
    case Layout::kGpt2:
      out = ReadGpt2(r, t);
      break;
    case Layout::kOpt:
      out = ReadOpt(r, t, notes, origin);
      break;
    case Layout::kBert:
      out = ReadBert(r, t);
      break;
    case Layout::kGptNeox:
      out = ReadGptNeox(r, t);
      break;
    case Layout::kBloom:
      out = ReadBloom(r, t);
      break;
    case Layout::kMpt:
      out = ReadMpt(r, t);
      break;
    case Layout::kT5:
      out = ReadT5(r, t);
      break;
  }
  out.arch.family = t.family;
  if (t.layout != Layout::kMpt && t.layout != Layout::kT5) out.arch.gated_mlp = t.gated;
  return out;
}

// The checkpoint's weight format (quantization_config). gpt-oss stores its routed experts in
// MXFP4 (OCP Microscaling spec v1.0: FP4 E2M1 elements in blocks of 32 sharing an E8M0 scale,
// 4.25 bits) and the rest in bf16: serving counts the experts so. Other formats are stated;
// the estimate keeps 16-bit weights unless --quantization says otherwise.
void ReadQuantization(const json* q, std::string_view type, std::string_view origin, ModelArch* m,
                      ImportNotes* notes) {
  if (q == nullptr) return;
  auto it = q->find("quant_method");
  const std::string method =
      it != q->end() && it->is_string() ? ToLower(it->get<std::string>()) : "";
  if (method.empty()) return;
  if (method == "mxfp4" && type == "gpt_oss" && m->experts > 1) {
    m->expert_weight_bytes = 4.25 / 8;
    notes->Assume(std::string(origin) +
                  ": routed experts stored in MXFP4 (4.25 bits per weight, quantization_config); "
                  "serving counts them so unless --quantization is given, other weights 16-bit");
    return;
  }
  notes->Assume(std::string(origin) + ": checkpoint weights are " + method +
                " (quantization_config); estimated with 16-bit weights unless --quantization "
                "says otherwise");
}

// The repository the config names (_name_or_path), in the text config or around it.
std::string StrKeyOf(const json& cfg, const json& outer) {
  for (const json* j : {&cfg, &outer}) {
    auto it = j->find("_name_or_path");
    if (it != j->end() && it->is_string() && !it->get<std::string>().empty()) {
      return it->get<std::string>();
    }
  }
  return "";
}

std::string Billions(double v) { return FormatFixed(v / 1e9, 2) + "B"; }

std::string SupportedList() {
  std::string out;
  for (const HfType& t : kHfTypes) out += std::string(out.empty() ? "" : ", ") + t.name;
  return out;
}

}  // namespace

const std::vector<std::string>& SupportedHfModelTypes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const HfType& t : kHfTypes) v.emplace_back(t.name);
    return v;
  }();
  return names;
}

Status ApplyHfConfigJson(Workload* w, std::string_view json_text, std::string_view origin) {
  Result<json> doc = workload_internal::ParseJson(json_text, origin);
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return Status::ParseError(std::string(origin) + ": expected an object");
  const json& outer = *doc;
  const bool nested = outer.contains("text_config") && outer["text_config"].is_object();
  const json& cfg = nested ? outer["text_config"] : outer;
  std::string type = cfg.contains("model_type") && cfg["model_type"].is_string()
                         ? cfg["model_type"].get<std::string>()
                         : "";
  if (type.empty() && nested && outer.contains("model_type") && outer["model_type"].is_string()) {
    type = outer["model_type"].get<std::string>();
  }
  const HfType* t = FindHfType(ToLower(type));
  if (t == nullptr) {
    return Status::InvalidArgument(
        std::string(origin) + ": model_type: " +
        (type.empty() ? std::string("missing") : "\"" + type + "\" is not supported") +
        " (supported: " + SupportedList() +
        "); describe the model with --layers/--hidden/--heads/--kv-heads/--ffn/--vocab instead");
  }
  ConfigReader r(cfg);
  ImportNotes notes;
  ReadResult read = ReadArch(r, *t, &notes, origin);
  ModelArch& m = read.arch;
  if (!r.bad_key().empty()) {
    return Status::ParseError(std::string(origin) + ": " + r.bad_key() + ": " + r.bad_why());
  }
  for (const auto& [key, value] : read.required) {
    if (value <= 0) {
      return Status::ParseError(std::string(origin) + ": " + key + ": expected a positive integer" +
                                (r.Has(key) ? ", got 0" : " (field is missing)"));
    }
  }
  if (t->layout == Layout::kT5) {
    const int decoder = r.Int({"num_decoder_layers"});
    if (decoder > 0 && decoder != m.layers) {
      return Status::InvalidArgument(std::string(origin) +
                                     ": num_decoder_layers: " + std::to_string(decoder) +
                                     " differs from num_layers " + std::to_string(m.layers) +
                                     ": encoder and decoder stacks of different depths are not "
                                     "modelled");
    }
  }
  const json* quant = r.Object("quantization_config");
  if (auto it = outer.find("quantization_config");
      quant == nullptr && nested && it != outer.end() && it->is_object()) {
    quant = &*it;
  }
  ReadQuantization(quant, t->name, origin, &m, &notes);
  GPUADVISOR_RETURN_IF_ERROR(CheckUnusedKeys(cfg, r, t->name, origin, &notes));
  if (nested) {  // multimodal: only the language model is read
    for (auto it = outer.begin(); it != outer.end(); ++it) {
      if (it->is_object() && it.key() != "text_config" && it.key() != "quantization_config" &&
          Contains(it.key(), "_config")) {
        notes.Warn(std::string(origin) + ": " + it.key() +
                   " is not counted: parameters and memory cover the language model only");
      }
    }
  }
  const ModelParams params = ComputeModelParams(m);
  std::string summary = std::string(origin) + ": " + t->name + " config read from ";
  const std::vector<std::string> keys = r.PresentUsed();
  for (size_t i = 0; i < keys.size(); ++i) summary += (i ? ", " : "") + keys[i];
  summary += ": " + Billions(params.total) + " parameters";
  if (params.active < params.total) summary += " (" + Billions(params.active) + " active)";
  if (m.context_length > 0) {
    summary +=
        ", context " + std::to_string(m.context_length) + " tokens (" + read.context_how + ")";
  }
  notes.lines.insert(notes.lines.begin(), summary);
  w->model = m;
  const std::string name = StrKeyOf(cfg, outer);
  w->model_name = name.empty() ? std::string(origin) : name;
  w->model_notes = std::move(notes.lines);
  return Status::OK();
}

}  // namespace gpuadvisor
