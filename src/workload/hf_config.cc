// Hugging Face config.json import. Key names differ by model_type; each family below lists the
// keys its configuration class uses (transformers/models/<type>/configuration_<type>.py).
#include <nlohmann/json.hpp>
#include <string>

#include "gpuadvisor/workload.h"
#include "util/strings.h"
#include "workload/json_text.h"
#include "workload/model_internal.h"

namespace gpuadvisor {
namespace {

using nlohmann::json;

constexpr double kMaxConfigInt = 1e9;  // far beyond any real size; Validate() bounds further

// The first of `keys` present with a number; 0 if none, -1 if out of [0, 1e9] (ApplyHfConfigJson
// reports it).
int IntKey(const json& cfg, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = cfg.find(k);
    if (it == cfg.end() || !it->is_number()) continue;
    const double v = it->get<double>();
    return v >= 0 && v <= kMaxConfigInt ? static_cast<int>(v) : -1;
  }
  return 0;
}

bool BoolKey(const json& cfg, const char* key, bool fallback) {
  auto it = cfg.find(key);
  return it != cfg.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string StrKey(const json& cfg, const char* key) {
  auto it = cfg.find(key);
  return it != cfg.end() && it->is_string() ? it->get<std::string>() : "";
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Gated (SwiGLU/GeGLU) MLP families and those that tie embeddings by default.
bool GatedByType(std::string_view type) {
  return Contains(type, "llama") || Contains(type, "mistral") || Contains(type, "mixtral") ||
         Contains(type, "qwen") || Contains(type, "gemma") || Contains(type, "phi3") ||
         Contains(type, "deepseek") || Contains(type, "olmo");
}
bool TiedByDefault(std::string_view type) {
  return Contains(type, "gemma") || type == "opt" || type == "gpt2" || type == "bert" ||
         type == "mpt" || type == "t5" || type == "bloom" || type == "roberta";
}
bool BiasByType(std::string_view type) {
  return type == "gpt2" || type == "opt" || type == "bert" || type == "roberta" ||
         type == "gpt_neox" || type == "bloom";
}

ModelArch ArchFromConfig(const json& cfg) {
  const std::string type = ToLower(StrKey(cfg, "model_type"));
  ModelArch m;
  m.family = type == "bert" || type == "roberta" ? ModelFamily::kEncoder
             : type == "t5"                      ? ModelFamily::kEncoderDecoder
                                                 : ModelFamily::kDecoder;
  m.hidden = IntKey(cfg, {"hidden_size", "n_embd", "d_model", "dim"});
  m.layers = IntKey(cfg, {"num_hidden_layers", "n_layer", "n_layers", "num_layers"});
  m.heads = IntKey(cfg, {"num_attention_heads", "n_head", "n_heads", "num_heads"});
  m.kv_heads = IntKey(cfg, {"num_key_value_heads", "num_kv_heads", "n_kv_heads"});
  m.head_dim = IntKey(cfg, {"head_dim", "d_kv"});
  m.ffn = IntKey(cfg, {"moe_intermediate_size", "intermediate_size", "ffn_dim", "n_inner", "d_ff",
                       "ffn_hidden_size"});
  if (m.ffn == 0 && cfg.contains("expansion_ratio") && cfg["expansion_ratio"].is_number()) {
    const double ffn = cfg["expansion_ratio"].get<double>() * m.hidden;  // MPT
    m.ffn = ffn >= 0 && ffn <= kMaxConfigInt ? static_cast<int>(ffn) : -1;
  }
  m.vocab = IntKey(cfg, {"vocab_size", "padded_vocab_size"});
  m.experts = IntKey(cfg, {"num_local_experts", "num_experts", "n_routed_experts"});
  m.active_experts = IntKey(cfg, {"num_experts_per_tok", "moe_top_k", "top_k"});
  const bool uses_window = BoolKey(cfg, "use_sliding_window", !Contains(type, "qwen"));
  m.sliding_window = uses_window ? IntKey(cfg, {"sliding_window"}) : 0;
  m.sliding_window_fraction = type == "gemma2" || type == "gemma3" ? 0.5 : 1.0;
  m.gated_mlp = GatedByType(type) ||
                Contains(StrKey(cfg, "feed_forward_proj"), "gated");  // T5 v1.1 "gated-gelu"
  m.tied_embeddings = BoolKey(cfg, "tie_word_embeddings", TiedByDefault(type));
  m.attention_bias = BoolKey(cfg, "attention_bias", BiasByType(type));
  // Learned absolute positions (OPT adds an offset of 2; BERT also has token types).
  if (type == "gpt2" || type == "opt" || type == "bert" || type == "roberta") {
    m.max_positions = IntKey(cfg, {"max_position_embeddings", "n_positions"}) +
                      (type == "opt" ? 2 : 0) + IntKey(cfg, {"type_vocab_size"});
  }
  for (const char* k : {"hidden_dropout_prob", "dropout", "resid_pdrop", "dropout_rate"}) {
    if (cfg.contains(k) && cfg[k].is_number() && cfg[k].get<double>() > 0) m.dropout = true;
  }
  return m;
}

}  // namespace

Status ApplyHfConfigJson(Workload* w, std::string_view json_text, std::string_view origin) {
  Result<json> doc = workload_internal::ParseJson(json_text, origin);
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return Status::ParseError(std::string(origin) + ": expected an object");
  const json& cfg = doc->contains("text_config") && (*doc)["text_config"].is_object()
                        ? (*doc)["text_config"]
                        : *doc;
  ModelArch m = ArchFromConfig(cfg);
  const char* missing = m.hidden == 0   ? "hidden_size"
                        : m.layers == 0 ? "num_hidden_layers"
                        : m.heads == 0  ? "num_attention_heads"
                        : m.vocab == 0  ? "vocab_size"
                                        : nullptr;
  if (missing != nullptr) {
    return Status::ParseError(std::string(origin) + ": " + missing +
                              ": expected a positive integer (field is missing)");
  }
  const std::pair<const char*, int> sizes[] = {{"hidden_size", m.hidden},
                                               {"num_hidden_layers", m.layers},
                                               {"num_attention_heads", m.heads},
                                               {"num_key_value_heads", m.kv_heads},
                                               {"head_dim", m.head_dim},
                                               {"intermediate_size", m.ffn},
                                               {"vocab_size", m.vocab},
                                               {"num_local_experts", m.experts},
                                               {"num_experts_per_tok", m.active_experts},
                                               {"sliding_window", m.sliding_window},
                                               {"max_position_embeddings", m.max_positions}};
  for (const auto& [key, value] : sizes) {
    if (value < 0) {
      return Status::ParseError(std::string(origin) + ": " + key +
                                ": expected an integer between 0 and 1e9");
    }
  }
  workload_internal::ReplaceArchKeepingExplicit(w, m);
  const std::string name = StrKey(cfg, "_name_or_path");
  w->model_name = name.empty() ? std::string(origin) : name;
  return Status::OK();
}

}  // namespace gpuadvisor
