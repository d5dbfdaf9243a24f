// Typed, path-aware access to a parsed nlohmann::json document. Each getter records the first
// error as "<origin>: <path>: expected <type>" and keeps going with a default value, so a
// loader reads a whole record straight through and checks status() once (leveldb style).
#ifndef GPUADVISOR_UTIL_JSON_READER_H_
#define GPUADVISOR_UTIL_JSON_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Parses text; ParseError "<origin>: byte N: <what>" on malformed JSON.
Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view origin);

class JsonReader {
 public:
  explicit JsonReader(std::string origin) : origin_(std::move(origin)) {}

  // Each takes the parent object, the key and the parent's path ("instance_types[3]").
  std::string Str(const nlohmann::json& obj, const char* key, const std::string& path,
                  bool required = true);
  std::optional<std::string> OptStr(const nlohmann::json& obj, const char* key,
                                    const std::string& path);
  std::optional<double> OptNum(const nlohmann::json& obj, const char* key,
                               const std::string& path);
  double Num(const nlohmann::json& obj, const char* key, const std::string& path);
  std::optional<int64_t> OptInt(const nlohmann::json& obj, const char* key,
                                const std::string& path);
  int64_t Int(const nlohmann::json& obj, const char* key, const std::string& path);
  std::optional<bool> OptBool(const nlohmann::json& obj, const char* key,
                              const std::string& path);
  bool Bool(const nlohmann::json& obj, const char* key, const std::string& path);
  std::vector<std::string> StrList(const nlohmann::json& obj, const char* key,
                                   const std::string& path);
  // The array or object at key (an empty one and an error if it has another type).
  const nlohmann::json& Array(const nlohmann::json& obj, const char* key, const std::string& path,
                              bool required = true);
  const nlohmann::json* OptObject(const nlohmann::json& obj, const char* key,
                                  const std::string& path);

  void Fail(const std::string& path, std::string_view expected);
  const Status& status() const { return status_; }

 private:
  const nlohmann::json* Get(const nlohmann::json& obj, const char* key, const std::string& path,
                            bool required);
  std::string origin_;
  Status status_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_JSON_READER_H_
