#include "util/rj_reader.h"

#include <rapidjson/error/en.h>

namespace gpuadvisor {

using rapidjson::Value;

namespace {

// True when a number outside strings has only zero digits before its exponent ("0e44",
// "0.00E-3"): RapidJSON's full-precision path passes zero to clz() on those (undefined
// behaviour, found by fuzz_catalog_json), so such documents are parsed without it.
bool HasZeroWithExponent(std::string_view text) {
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if ((c < '0' || c > '9') ||
        (i > 0 && ((text[i - 1] >= '0' && text[i - 1] <= '9') || text[i - 1] == '.' ||
                   text[i - 1] == 'e' || text[i - 1] == 'E' || text[i - 1] == '+'))) {
      continue;
    }
    bool all_zero = true;  // the digits of the mantissa, from the number's first digit
    size_t j = i;
    for (; j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == '.'); ++j) {
      if (text[j] >= '1' && text[j] <= '9') all_zero = false;
    }
    if (all_zero && j < text.size() && (text[j] == 'e' || text[j] == 'E')) return true;
    i = j;
  }
  return false;
}

}  // namespace

Status ParseRapidJson(std::string_view text, std::string_view origin, rapidjson::Document* doc) {
  // Iterative: the default reader recurses once per nesting level, and a file nested a million
  // deep (a hostile --catalog) overflowed the stack. The DOM's pool allocator frees without
  // recursion too. Full precision: the default number parser can be off by one ULP, which a
  // catalog read and written again (`catalog import`, `catalog upgrade`) would keep as a change.
  if (HasZeroWithExponent(text)) {
    doc->Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  } else {
    doc->Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(text.data(),
                                                                                    text.size());
  }
  if (!doc->HasParseError()) return Status::OK();
  return Status::ParseError(std::string(origin) + ": byte " +
                            std::to_string(doc->GetErrorOffset()) + ": " +
                            rapidjson::GetParseError_En(doc->GetParseError()));
}

void RjReader::Fail(const std::string& path, std::string_view expected) {
  if (status_.ok()) {
    status_ = Status::ParseError(origin_ + ": " + path + ": expected " + std::string(expected));
  }
}

const Value* RjReader::Get(const Value& obj, const char* key, const std::string& path,
                           bool required) {
  if (!obj.IsObject()) {
    Fail(path, "an object");
    return nullptr;
  }
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || it->value.IsNull()) {
    if (required) Fail(path + "." + key, "a value (field is missing)");
    return nullptr;
  }
  return &it->value;
}

std::string RjReader::Str(const Value& obj, const char* key, const std::string& path,
                          bool required) {
  const Value* v = Get(obj, key, path, required);
  if (!v) return "";
  if (!v->IsString()) {
    Fail(path + "." + key, "a string");
    return "";
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<std::string> RjReader::OptStr(const Value& obj, const char* key,
                                            const std::string& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsString()) {
    Fail(path + "." + key, "a string or null");
    return std::nullopt;
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<double> RjReader::OptNum(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsNumber()) {
    Fail(path + "." + key, "a number or null");
    return std::nullopt;
  }
  return v->GetDouble();
}

double RjReader::Num(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->IsNumber()) {
    Fail(path + "." + key, "a number");
    return 0;
  }
  return v->GetDouble();
}

std::optional<int64_t> RjReader::OptInt(const Value& obj, const char* key,
                                        const std::string& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsInt64()) {
    Fail(path + "." + key, "an integer or null");
    return std::nullopt;
  }
  return v->GetInt64();
}

int64_t RjReader::Int(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->IsInt64()) {
    Fail(path + "." + key, "an integer");
    return 0;
  }
  return v->GetInt64();
}

std::optional<bool> RjReader::OptBool(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsBool()) {
    Fail(path + "." + key, "true, false or null");
    return std::nullopt;
  }
  return v->GetBool();
}

bool RjReader::Bool(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return false;
  if (!v->IsBool()) {
    Fail(path + "." + key, "true or false");
    return false;
  }
  return v->GetBool();
}

std::vector<std::string> RjReader::StrList(const Value& obj, const char* key,
                                           const std::string& path) {
  std::vector<std::string> out;
  const Value* v = Get(obj, key, path, false);
  if (!v) return out;
  if (!v->IsArray()) {
    Fail(path + "." + key, "an array of strings");
    return out;
  }
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    const Value& e = (*v)[i];
    if (!e.IsString()) {
      Fail(path + "." + key + "[" + std::to_string(i) + "]", "a string");
      return out;
    }
    out.emplace_back(e.GetString(), e.GetStringLength());
  }
  return out;
}

const Value& RjReader::Array(const Value& obj, const char* key, const std::string& path,
                             bool required) {
  static const Value kEmpty(rapidjson::kArrayType);
  const Value* v = Get(obj, key, path, required);
  if (!v) return kEmpty;
  if (!v->IsArray()) {
    Fail(path + "." + key, "an array");
    return kEmpty;
  }
  return *v;
}

const Value* RjReader::OptObject(const Value& obj, const char* key, const std::string& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return nullptr;
  if (!v->IsObject()) {
    Fail(path + "." + key, "an object or null");
    return nullptr;
  }
  return v;
}

}  // namespace gpuadvisor
