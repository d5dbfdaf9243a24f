// Workload files: a JSON or YAML mapping of WorkloadFields keys, read into a WorkloadFields (JSON
// numbers and booleans given as they are) and bound by it. Third-party parser exceptions stop
// here; callers see Status only.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "gpuadvisor/workload.h"
#include "util/text.h"
#include "workload/json_text.h"
#include "workload/value_parse.h"

namespace gpuadvisor {
namespace {

// The most values a YAML workload may hold (real ones: a few dozen).
constexpr size_t kMaxYamlNodes = 100000;

// Sections whose keys are applied as if they were top-level ("parallelism: {tp: 2}").
bool IsFlattenedSection(std::string_view key) {
  return key == "parallelism" || key == "training" || key == "serving" || key == "workload" ||
         key == "efficiency" || key == "vision" || key == "hpc" || key == "transcode" ||
         key == "analytics" || key == "render";
}

// Inside a "model:" mapping, "name"/"preset" select the preset and "config" a config.json.
std::string ModelSubkey(std::string_view key) {
  if (key == "name" || key == "preset") return "model";
  if (key == "config" || key == "hf-config" || key == "hf_config") return "model-config";
  return std::string(key);
}

// The field an error about `key` names: the key as WorkloadFields names it ("input-tokens";
// "model" for a "model:" mapping's "name").
std::string FieldOf(const std::string& key, bool in_model) {
  return workload_internal::CanonicalKey(in_model ? ModelSubkey(key) : key);
}

// The field of errors about the whole document (syntax, not a mapping).
constexpr std::string_view kDocument = "workload";

// One document's fields and the spelling that first set each. Two spellings of one field
// ("gpu_count" and "gpu-count", "num_layers" and "layers", a section's "tp" and a top-level
// "tp") would silently resolve to whichever was read last: refused, naming both.
class FieldSpellings {
 public:
  // `spelled`: the key as written, with its section ("parallelism.tp").
  Status Note(const std::string& key, bool in_model, const std::string& spelled) {
    const std::string field = workload_internal::WorkloadFieldOf(in_model ? ModelSubkey(key) : key);
    if (field.empty()) return Status::OK();  // unknown: WorkloadFields::Give says so
    const auto [it, fresh] = first_.emplace(field, spelled);
    if (fresh) return Status::OK();
    return Status::InvalidArgument("\"" + it->second + "\" and \"" + spelled + "\" both set " +
                                   field + "; give it once")
        .WithField(field);
  }

 private:
  std::map<std::string, std::string> first_;  // field -> first spelling
};

// Where a member sits, for messages: "" at the top, "model." or "parallelism." in a section.
std::string Spelled(std::string_view section, const std::string& key) {
  return std::string(section) + key;
}

// ---- JSON ----

Result<std::string> JsonScalarText(const nlohmann::json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_float()) return v.dump();
  return Status::InvalidArgument(key + ": expected a number, string or boolean, got " +
                                 std::string(v.type_name()));
}

// Untrusted input (ParseWorkloadJsonInline) may not name files: config.json comes inline.
struct JsonMode {
  bool inline_only = false;
};

// Where a JSON document's values are read from, for Bind's messages: the document itself.
struct JsonSource {
  JsonMode mode;
  std::string_view origin;
};

Status ApplyJsonObject(WorkloadFields* w, const nlohmann::json& obj, bool in_model, JsonSource src,
                       FieldSpellings* seen, std::string_view section);

Status ApplyInlineConfig(WorkloadFields* w, const std::string& key, const nlohmann::json& v,
                         std::string_view origin) {
  if (!v.is_object()) {
    return Status::InvalidArgument(
        key +
        ": file paths (and - for stdin) are not accepted here; send the config.json "
        "content as a JSON object");
  }
  w->GiveInlineConfig(key, v.dump(), std::string(origin));
  return Status::OK();
}

Status ApplyJsonMember(WorkloadFields* w, const std::string& key, const nlohmann::json& v,
                       bool in_model, JsonSource src, FieldSpellings* seen,
                       std::string_view section) {
  if (v.is_null()) return Status::OK();
  if (!v.is_object()) {
    GPUADVISOR_RETURN_IF_ERROR(seen->Note(key, in_model, Spelled(section, key)));
  }
  if (src.mode.inline_only && IsFileWorkloadField(in_model ? ModelSubkey(key) : key)) {
    Status st = ApplyInlineConfig(w, key, v, src.origin);
    return st.ok() ? st : st.WithField(FieldOf(key, in_model));
  }
  if (v.is_object()) {
    const std::string inner = Spelled(section, key) + ".";
    if (!in_model && key == "model") return ApplyJsonObject(w, v, true, src, seen, inner);
    if (!in_model && IsFlattenedSection(key)) {
      return ApplyJsonObject(w, v, false, src, seen, inner);
    }
    return Status::InvalidArgument(key + ": expected a value, got an object")
        .WithField(FieldOf(key, in_model));
  }
  Result<std::string> text = JsonScalarText(v, key);
  if (!text.ok()) return text.status().WithField(FieldOf(key, in_model));
  // A number or a bool is bound as it is where the field takes one; its text is for messages
  // (and for the fields that take text: "stream-resolution": 1080).
  WorkloadValue given{.text = *text};
  if (v.is_boolean()) {
    given.boolean = v.get<bool>();
  } else if (v.is_number()) {
    given.number = v.get<double>();
  }
  return w->Give(in_model ? ModelSubkey(key) : key, std::move(given), std::string(src.origin));
}

Status ApplyJsonObject(WorkloadFields* w, const nlohmann::json& obj, bool in_model, JsonSource src,
                       FieldSpellings* seen, std::string_view section) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    GPUADVISOR_RETURN_IF_ERROR(ApplyJsonMember(w, it.key(), *it, in_model, src, seen, section));
  }
  return Status::OK();
}

// ---- YAML ----

std::string YamlWhere(std::string_view origin, const YAML::Mark& mark) {
  std::string out(origin);
  if (mark.line >= 0) {
    out += ':';
    out += std::to_string(mark.line + 1);
  }
  return out;
}

// Walks a document's events before YAML::Load builds nodes of it: a document nested deeper than
// kMaxDocumentDepth, or of more than kMaxYamlNodes values, is refused (thrown as Exceeded)
// before it can take gigabytes (yaml-cpp's nodes cost hundreds of bytes each).
class YamlBounds : public YAML::EventHandler {
 public:
  struct Exceeded {
    YAML::Mark mark;
    std::string what;
  };
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { Count(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { Count(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    Count(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Open(m);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Open(m);
  }
  void OnMapEnd() override { --depth_; }

 private:
  void Count(const YAML::Mark& m) {
    if (++nodes_ > kMaxYamlNodes) {
      throw Exceeded{m, "more than " + std::to_string(kMaxYamlNodes) + " values"};
    }
  }
  void Open(const YAML::Mark& m) {
    Count(m);
    if (++depth_ > kMaxDocumentDepth) {
      throw Exceeded{m, "nested deeper than " + std::to_string(kMaxDocumentDepth) + " levels"};
    }
  }
  int depth_ = 0;
  size_t nodes_ = 0;
};

Status ApplyYamlMap(WorkloadFields* w, const YAML::Node& map, bool in_model,
                    std::string_view origin, FieldSpellings* seen, std::string_view section);

Status ApplyYamlMember(WorkloadFields* w, const std::string& key, const YAML::Node& v,
                       bool in_model, std::string_view origin, FieldSpellings* seen,
                       std::string_view section) {
  if (v.IsNull()) return Status::OK();
  if (!v.IsMap()) {
    Status st = seen->Note(key, in_model, Spelled(section, key));
    if (!st.ok()) return st.WithPrefix(YamlWhere(origin, v.Mark()));
  }
  if (v.IsMap()) {
    const std::string inner = Spelled(section, key) + ".";
    if (!in_model && key == "model") return ApplyYamlMap(w, v, true, origin, seen, inner);
    if (!in_model && IsFlattenedSection(key)) {
      return ApplyYamlMap(w, v, false, origin, seen, inner);
    }
    return Status::InvalidArgument(key + ": expected a value, got a mapping")
        .WithPrefix(YamlWhere(origin, v.Mark()))
        .WithField(FieldOf(key, in_model));
  }
  if (!v.IsScalar()) {
    return Status::InvalidArgument(key + ": expected a value, got a list")
        .WithPrefix(YamlWhere(origin, v.Mark()))
        .WithField(FieldOf(key, in_model));
  }
  const std::string where = YamlWhere(origin, v.Mark());
  Status st = w->Give(in_model ? ModelSubkey(key) : key, WorkloadValue{.text = v.Scalar()}, where);
  return st.ok() ? st : st.WithPrefix(where);
}

// A merge key's defaults ("<<: *anchor") check their spellings on their own: the keys beside
// "<<" override them by design, in any spelling.
Status ApplyYamlMap(WorkloadFields* w, const YAML::Node& map, bool in_model,
                    std::string_view origin, FieldSpellings* seen, std::string_view section) {
  const YAML::Node merged = map["<<"];  // YAML merge key: defaults shared through an anchor
  if (merged && merged.IsMap()) {
    FieldSpellings defaults;
    GPUADVISOR_RETURN_IF_ERROR(ApplyYamlMap(w, merged, in_model, origin, &defaults, section));
  }
  std::set<std::string> keys;  // yaml-cpp keeps a repeated key; the last would silently win
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) {
      return Status::ParseError(YamlWhere(origin, kv.first.Mark()) + ": expected a key")
          .WithField(kDocument);
    }
    const std::string key = kv.first.Scalar();
    if (!keys.insert(key).second) {
      return Status::ParseError(YamlWhere(origin, kv.first.Mark()) + ": duplicate key \"" + key +
                                "\" (a mapping names each key once)")
          .WithField(kDocument);
    }
    if (key == "<<") continue;
    GPUADVISOR_RETURN_IF_ERROR(ApplyYamlMember(w, key, kv.second, in_model, origin, seen, section));
  }
  return Status::OK();
}

Result<WorkloadFields> FieldsOfObject(const nlohmann::json& obj, std::string_view origin,
                                      JsonMode mode) {
  WorkloadFields w;
  FieldSpellings seen;
  Status st = ApplyJsonObject(&w, obj, false, JsonSource{mode, origin}, &seen, "");
  if (!st.ok()) return st.WithPrefix(origin);
  return w;
}

Result<WorkloadFields> ReadJsonFields(std::string_view text, std::string_view origin,
                                      JsonMode mode) {
  if (JsonDepth(text) > kMaxDocumentDepth) {
    return Status::ParseError(std::string(origin) + ": nested deeper than " +
                              std::to_string(kMaxDocumentDepth) + " levels")
        .WithField(kDocument);
  }
  Result<nlohmann::json> doc = workload_internal::ParseJson(text, origin);
  // A number beyond a double names its key; other errors are the document's.
  if (!doc.ok()) {
    return doc.status().field().empty() ? doc.status().WithField(kDocument) : doc.status();
  }
  if (!doc->is_object()) {
    return Status::ParseError(std::string(origin) + ": expected a JSON object of workload keys")
        .WithField(kDocument);
  }
  return FieldsOfObject(*doc, origin, mode);
}

Result<Workload> Bound(const Result<WorkloadFields>& fields) {
  if (!fields.ok()) return fields.status();
  return fields->Bind();
}

Result<WorkloadFields> ReadYamlFields(std::string_view text, std::string_view origin) {
  YAML::Node doc;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    YamlBounds bounds;
    parser.HandleNextDocument(bounds);  // only the first document, as YAML::Load reads
    doc = YAML::Load(std::string(text));
  } catch (const YamlBounds::Exceeded& e) {
    return Status::ParseError(YamlWhere(origin, e.mark) + ":" + std::to_string(e.mark.column + 1) +
                              ": " + e.what)
        .WithField(kDocument);
  } catch (const YAML::Exception& e) {
    return Status::ParseError(YamlWhere(origin, e.mark) + ":" + std::to_string(e.mark.column + 1) +
                              ": " + e.msg)
        .WithField(kDocument);
  }
  if (!doc.IsMap()) {
    return Status::ParseError(std::string(origin) + ": expected a mapping of workload keys")
        .WithField(kDocument);
  }
  WorkloadFields w;
  try {
    FieldSpellings seen;
    GPUADVISOR_RETURN_IF_ERROR(ApplyYamlMap(&w, doc, false, origin, &seen, ""));
  } catch (const YAML::Exception& e) {
    return Status::ParseError(YamlWhere(origin, e.mark) + ": " + e.msg).WithField(kDocument);
  }
  return w;
}

}  // namespace

Result<Workload> ParseWorkloadJson(std::string_view text, std::string_view origin) {
  return Bound(ReadJsonFields(text, origin, JsonMode{}));
}

Result<Workload> workload_internal::WorkloadFromInlineJson(const nlohmann::json& obj,
                                                           std::string_view origin) {
  return Bound(FieldsOfObject(obj, origin, JsonMode{.inline_only = true}));
}

Result<Workload> ParseWorkloadJsonInline(std::string_view text, std::string_view origin) {
  return Bound(ReadJsonFields(text, origin, JsonMode{.inline_only = true}));
}

Result<Workload> ParseWorkloadYaml(std::string_view text, std::string_view origin) {
  return Bound(ReadYamlFields(text, origin));
}

Result<WorkloadFields> ReadWorkloadFields(std::string_view text, std::string_view origin) {
  std::string_view t = Trim(text);
  if (!t.empty() && t.front() == '{') return ReadJsonFields(text, origin, JsonMode{});
  return ReadYamlFields(text, origin);
}

Result<Workload> ParseWorkloadText(std::string_view text, std::string_view origin) {
  return Bound(ReadWorkloadFields(text, origin));
}

}  // namespace gpuadvisor
