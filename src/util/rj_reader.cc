#include "util/rj_reader.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace gpuadvisor {

using rapidjson::Value;

namespace {

// Numbers to doubles with std::from_chars (correctly rounded, as a catalog read and written again
// must keep every figure), everything else straight to the document. RapidJSON's own
// full-precision path is undefined behaviour on some inputs (clz(0) on "0e44", a signed overflow
// and an out-of-bounds read on a long mantissa with a large negative exponent; found by
// fuzz_catalog_json and fuzz_instance_types_json), and its default path can be one ULP off.
template <typename Handler>
class ExactNumbers {
 public:
  explicit ExactNumbers(Handler* h) : h_(h) {}
  bool Null() { return h_->Null(); }
  bool Bool(bool b) { return h_->Bool(b); }
  bool Int(int i) { return h_->Int(i); }
  bool Uint(unsigned u) { return h_->Uint(u); }
  bool Int64(int64_t i) { return h_->Int64(i); }
  bool Uint64(uint64_t u) { return h_->Uint64(u); }
  bool Double(double d) { return h_->Double(d); }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return h_->String(s, n, copy); }
  bool StartObject() { return h_->StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return h_->Key(s, n, copy); }
  bool EndObject(rapidjson::SizeType n) { return h_->EndObject(n); }
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

 private:
  Handler* h_;
  bool too_big_ = false;
};

}  // namespace

Status ParseRapidJson(std::string_view text, std::string_view origin, rapidjson::Document* doc) {
  // Iterative: the default reader recurses once per nesting level, and a file nested a million
  // deep (a hostile --catalog) overflowed the stack. The DOM's pool allocator frees without
  // recursion too.
  rapidjson::ParseResult result;
  bool too_big = false;
  auto generate = [&](rapidjson::Document& d) {
    ExactNumbers<rapidjson::Document> numbers(&d);
    rapidjson::MemoryStream stream(text.data(), text.size());
    rapidjson::Reader reader;
    result = reader.Parse < rapidjson::kParseIterativeFlag |
             rapidjson::kParseNumbersAsStringsFlag > (stream, numbers);
    too_big = numbers.too_big();
    return !result.IsError();
  };
  doc->Populate(generate);
  if (!result.IsError()) return Status::OK();
  return Status::ParseError(std::string(origin) + ": byte " + std::to_string(result.Offset()) +
                            ": " +
                            (too_big ? "Number too big to be stored in double."
                                     : rapidjson::GetParseError_En(result.Code())));
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
