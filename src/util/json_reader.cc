#include "util/json_reader.h"

namespace gpuadvisor {

using nlohmann::json;

Result<json> ParseJsonText(std::string_view text, std::string_view origin) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) return doc;
  // Re-parse with exceptions only to learn where it failed (error path, cost irrelevant).
  try {
    json unused = json::parse(text.begin(), text.end());
    (void)unused;
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    size_t p = what.find("parse error");
    return Status::ParseError(std::string(origin) + ": byte " + std::to_string(e.byte) + ": " +
                              (p == std::string::npos ? what : what.substr(p)));
  }
  return Status::ParseError(std::string(origin) + ": malformed JSON");
}

void JsonReader::Fail(const std::string& path, std::string_view expected) {
  if (status_.ok()) {
    status_ = Status::ParseError(origin_ + ": " + path + ": expected " + std::string(expected));
  }
}

const json* JsonReader::Get(const json& obj, const char* key, const std::string& path,
                            bool required) {
  if (!obj.is_object()) {
    Fail(path, "an object");
    return nullptr;
  }
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) Fail(path + "." + key, "a value (field is missing)");
    return nullptr;
  }
  return &*it;
}

std::string JsonReader::Str(const json& obj, const char* key, const std::string& path,
                            bool required) {
  const json* v = Get(obj, key, path, required);
  if (!v) return "";
  if (!v->is_string()) {
    Fail(path + "." + key, "a string");
    return "";
  }
  return v->get<std::string>();
}

std::optional<std::string> JsonReader::OptStr(const json& obj, const char* key,
                                              const std::string& path) {
  const json* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    Fail(path + "." + key, "a string or null");
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<double> JsonReader::OptNum(const json& obj, const char* key,
                                         const std::string& path) {
  const json* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->is_number()) {
    Fail(path + "." + key, "a number or null");
    return std::nullopt;
  }
  return v->get<double>();
}

double JsonReader::Num(const json& obj, const char* key, const std::string& path) {
  const json* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->is_number()) {
    Fail(path + "." + key, "a number");
    return 0;
  }
  return v->get<double>();
}

std::optional<int64_t> JsonReader::OptInt(const json& obj, const char* key,
                                          const std::string& path) {
  const json* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->is_number_integer()) {
    Fail(path + "." + key, "an integer or null");
    return std::nullopt;
  }
  return v->get<int64_t>();
}

int64_t JsonReader::Int(const json& obj, const char* key, const std::string& path) {
  const json* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->is_number_integer()) {
    Fail(path + "." + key, "an integer");
    return 0;
  }
  return v->get<int64_t>();
}

std::optional<bool> JsonReader::OptBool(const json& obj, const char* key,
                                        const std::string& path) {
  const json* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) {
    Fail(path + "." + key, "true, false or null");
    return std::nullopt;
  }
  return v->get<bool>();
}

bool JsonReader::Bool(const json& obj, const char* key, const std::string& path) {
  const json* v = Get(obj, key, path, true);
  if (!v) return false;
  if (!v->is_boolean()) {
    Fail(path + "." + key, "true or false");
    return false;
  }
  return v->get<bool>();
}

std::vector<std::string> JsonReader::StrList(const json& obj, const char* key,
                                             const std::string& path) {
  std::vector<std::string> out;
  const json* v = Get(obj, key, path, false);
  if (!v) return out;
  if (!v->is_array()) {
    Fail(path + "." + key, "an array of strings");
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      Fail(path + "." + key + "[" + std::to_string(i) + "]", "a string");
      return out;
    }
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

const json& JsonReader::Array(const json& obj, const char* key, const std::string& path,
                              bool required) {
  static const json kEmpty = json::array();
  const json* v = Get(obj, key, path, required);
  if (!v) return kEmpty;
  if (!v->is_array()) {
    Fail(path + "." + key, "an array");
    return kEmpty;
  }
  return *v;
}

const json* JsonReader::OptObject(const json& obj, const char* key, const std::string& path) {
  const json* v = Get(obj, key, path, false);
  if (!v) return nullptr;
  if (!v->is_object()) {
    Fail(path + "." + key, "an object or null");
    return nullptr;
  }
  return v;
}

}  // namespace gpuadvisor
