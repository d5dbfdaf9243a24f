#include "util/rj_reader.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

#include "util/text.h"

namespace gpuadvisor {

using rapidjson::Value;

namespace {

// Numbers to doubles with std::from_chars (correctly rounded, as a catalog read and written again
// must keep every figure), everything else straight to the document. RapidJSON's own
// full-precision path is undefined behaviour on some inputs (clz(0) on "0e44", a signed overflow
// and an out-of-bounds read on a long mantissa with a large negative exponent; found by
// fuzz_catalog_json and fuzz_instance_types_json), and its default path can be one ULP off.
// The keys of one object. Objects of a catalog or telemetry file name a handful of keys: a list
// searched in order (short keys fit std::string's inline buffer, so nothing is allocated) is
// several times faster than a hash set there; past kListKeys the keys move to a hash set, so an
// object of a million keys (a hostile upload) stays linear in time.
class ObjectKeys {
 public:
  // False when `key` is already there.
  bool Insert(std::string_view key) {
    if (set_.empty()) {
      for (const std::string& k : list_) {
        if (k == key) return false;
      }
      if (list_.size() < kListKeys) {
        list_.emplace_back(key);
        return true;
      }
      for (std::string& k : list_) set_.insert(std::move(k));
      list_.clear();
    }
    return set_.emplace(key).second;
  }
  void Clear() {
    list_.clear();
    set_.clear();
  }

 private:
  static constexpr size_t kListKeys = 32;
  std::vector<std::string> list_;
  std::unordered_set<std::string> set_;
};

template <typename Handler>
class ExactNumbers {
 public:
  // `stream`: where the reader is, for a duplicate key's byte offset.
  ExactNumbers(Handler* h, const rapidjson::MemoryStream* stream) : h_(h), stream_(stream) {}
  bool Null() { return h_->Null(); }
  bool Bool(bool b) { return h_->Bool(b); }
  bool Int(int i) { return h_->Int(i); }
  bool Uint(unsigned u) { return h_->Uint(u); }
  bool Int64(int64_t i) { return h_->Int64(i); }
  bool Uint64(uint64_t u) { return h_->Uint64(u); }
  bool Double(double d) { return h_->Double(d); }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return h_->String(s, n, copy); }
  // Each object's keys, so that a key given twice is refused instead of the last one silently
  // winning (security issue, input validation, finding 5). One key list per open object, reused.
  bool StartObject() {
    if (keys_.size() <= depth_) keys_.emplace_back();
    keys_[depth_++].Clear();
    return h_->StartObject();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    if (depth_ > 0 && !keys_[depth_ - 1].Insert(std::string_view(s, n))) {
      duplicate_ = std::string(s, n);
      duplicate_at_ = stream_->Tell();
      return false;
    }
    return h_->Key(s, n, copy);
  }
  bool EndObject(rapidjson::SizeType n) {
    if (depth_ > 0) keys_[--depth_].Clear();
    return h_->EndObject(n);
  }
  bool StartArray() { return h_->StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return h_->EndArray(n); }

  // `s` is the literal as JSON spells it (the reader checked the grammar), null-terminated.
  bool RawNumber(const char* s, rapidjson::SizeType n, bool /*copy*/) {
    const char* end = s + n;
    if (std::find_if(s, end, [](char c) { return c == '.' || c == 'e' || c == 'E'; }) == end) {
      if (*s == '-') {
        int64_t i = 0;
        if (std::from_chars(s, end, i).ec == std::errc()) return h_->Int64(i);
      } else {
        uint64_t u = 0;
        if (std::from_chars(s, end, u).ec == std::errc()) return h_->Uint64(u);
      }
    }
    double d = 0;
    const std::from_chars_result r = std::from_chars(s, end, d);
    if (r.ec == std::errc::result_out_of_range) {
      d = std::strtod(s, nullptr);  // underflow is 0 (or a subnormal); overflow is refused
      if (std::isinf(d)) {
        too_big_ = true;
        return false;
      }
    } else if (r.ec != std::errc() || r.ptr != end) {
      return false;  // not reached: the reader checked the literal
    }
    return h_->Double(d);
  }
  bool too_big() const { return too_big_; }
  // The first key repeated in one object ("" when none) and the byte after it.
  const std::string& duplicate() const { return duplicate_; }
  size_t duplicate_at() const { return duplicate_at_; }

 private:
  Handler* h_;
  const rapidjson::MemoryStream* stream_;
  bool too_big_ = false;
  std::vector<ObjectKeys> keys_;
  size_t depth_ = 0;
  std::string duplicate_;
  size_t duplicate_at_ = 0;
};

}  // namespace

Status ParseRapidJson(std::string_view text, std::string_view origin, rapidjson::Document* doc) {
  // Iterative: the default reader recurses once per nesting level, and a file nested a million
  // deep (a hostile --catalog) overflowed the stack. The DOM's pool allocator frees without
  // recursion too.
  rapidjson::ParseResult result;
  bool too_big = false;
  std::string duplicate;
  size_t duplicate_at = 0;
  auto generate = [&](rapidjson::Document& d) {
    rapidjson::MemoryStream stream(text.data(), text.size());
    ExactNumbers<rapidjson::Document> numbers(&d, &stream);
    rapidjson::Reader reader;
    result = reader.Parse < rapidjson::kParseIterativeFlag |
             rapidjson::kParseNumbersAsStringsFlag > (stream, numbers);
    too_big = numbers.too_big();
    duplicate = numbers.duplicate();
    duplicate_at = numbers.duplicate_at();
    return !result.IsError();
  };
  doc->Populate(generate);
  if (!result.IsError()) return Status::OK();
  if (!duplicate.empty() || duplicate_at > 0) {
    return Status::ParseError(std::string(origin) + ": byte " + std::to_string(duplicate_at) +
                              ": duplicate key \"" + duplicate +
                              "\" (an object names each key once)");
  }
  return Status::ParseError(std::string(origin) + ": byte " + std::to_string(result.Offset()) +
                            ": " +
                            (too_big ? "Number too big to be stored in double."
                                     : rapidjson::GetParseError_En(result.Code())));
}

namespace {

// Takes every event: CheckUniqueJsonKeys needs only ExactNumbers' key sets.
struct NullHandler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, NullHandler> {
  bool Default() { return true; }
};

}  // namespace

std::string LineColumn(std::string_view text, size_t at) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

Status CheckUniqueJsonKeys(std::string_view text, std::string_view origin) {
  NullHandler sink;
  rapidjson::MemoryStream stream(text.data(), text.size());
  ExactNumbers<NullHandler> keys(&sink, &stream);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag>(stream,
                                                                                       keys);
  if (keys.duplicate_at() == 0) return Status::OK();
  return Status::ParseError(std::string(origin) + ":" + LineColumn(text, keys.duplicate_at()) +
                            ": duplicate key \"" + keys.duplicate() +
                            "\" (an object names each key once)");
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
