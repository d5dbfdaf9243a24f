// Typed, path-aware access to a parsed RapidJSON DOM, used by every JSON reader (catalog files,
// DescribeInstanceTypes, spot advisor, manifests). RapidJSON parses ~5x faster than nlohmann's
// DOM, which keeps CLI start-up under 20 ms. Each getter records the first error as
// "<origin>: <path>: expected <type>" and returns a default afterwards, so a loader reads a
// record straight through and checks status() once (leveldb iterator style).
#ifndef GPUADVISOR_UTIL_RJ_READER_H_
#define GPUADVISOR_UTIL_RJ_READER_H_

#include <rapidjson/document.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Where a value sits in a document ("$.instance_types[3].regions[0]"), spelled out only when an
// error names it: a reader walks thousands of objects and reports at most one, so building every
// path up front was a fifth of the embedded catalog's load. A JsonPath refers to its text or to
// its parent and key, it copies neither: it lives no longer than they do (a temporary for one
// call, or a member of a reader scoped inside its parent's).
class JsonPath {
 public:
  // A spelled-out path ("$", or one a caller built).
  JsonPath(const std::string& text) : text_(text) {}  // NOLINT(google-explicit-constructor)
  JsonPath(const char* text) : text_(text) {}         // NOLINT(google-explicit-constructor)
  // parent.key, and parent.key[index].
  JsonPath(const JsonPath& parent, const char* key) : parent_(&parent), key_(key) {}
  JsonPath(const JsonPath& parent, const char* key, size_t index)
      : parent_(&parent), key_(key), index_(index), indexed_(true) {}
  std::string str() const;

 private:
  std::string_view text_;
  const JsonPath* parent_ = nullptr;
  const char* key_ = nullptr;
  size_t index_ = 0;
  bool indexed_ = false;
};

class RjReader {
 public:
  using Value = rapidjson::Value;
  explicit RjReader(std::string origin) : origin_(std::move(origin)) {}

  std::string Str(const Value& obj, const char* key, const JsonPath& path, bool required = true);
  std::optional<std::string> OptStr(const Value& obj, const char* key, const JsonPath& path);
  std::optional<double> OptNum(const Value& obj, const char* key, const JsonPath& path);
  double Num(const Value& obj, const char* key, const JsonPath& path);
  std::optional<int64_t> OptInt(const Value& obj, const char* key, const JsonPath& path);
  int64_t Int(const Value& obj, const char* key, const JsonPath& path);
  std::optional<bool> OptBool(const Value& obj, const char* key, const JsonPath& path);
  bool Bool(const Value& obj, const char* key, const JsonPath& path);
  std::vector<std::string> StrList(const Value& obj, const char* key, const JsonPath& path);
  // The array at key (an empty array, plus an error when required or mistyped, otherwise).
  const Value& Array(const Value& obj, const char* key, const JsonPath& path, bool required = true);
  const Value* OptObject(const Value& obj, const char* key, const JsonPath& path);

  // Records "<path>: expected <expected>" unless an error is already recorded.
  void Fail(const JsonPath& path, std::string_view expected);
  const Status& status() const { return status_; }

 private:
  const Value* Get(const Value& obj, const char* key, const JsonPath& path, bool required);
  std::string origin_;
  Status status_;
  // Get's hint: the member after the last one found, in that object.
  const Value* next_object_ = nullptr;
  Value::ConstMemberIterator next_member_;
};

// Parses `text` into `doc`; ParseError "<origin>: byte N: <reason>" when malformed, and
// "<origin>: byte N: duplicate key \"k\" (an object names each key once)" when one object
// gives a key twice (JSON parsers differ on which one wins; we take neither).
Status ParseRapidJson(std::string_view text, std::string_view origin, rapidjson::Document* doc);
// The same rule for text other parsers read: CheckUniqueJsonKeys (util/text.h).

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_RJ_READER_H_
