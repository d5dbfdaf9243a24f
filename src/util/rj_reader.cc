// RapidJSON's SSE2 scanners (x86-64's baseline) for the in-situ parse below. Defined here only:
// every RapidJSON instantiation it changes takes this file's own handlers (anonymous namespace),
// so no other object holds a different copy of them.
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2 1
#endif
#include "util/rj_reader.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
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
// searched in order is several times faster than a hash set there; past kListKeys the keys move
// to a hash set, so an object of a million keys (a hostile upload) stays linear in time.
// `Stored` is std::string_view where the keys stay in place for the whole parse (an in-situ
// parse: they are in the document's own copy of the text), else std::string.
template <typename Stored>
class ObjectKeys {
 public:
  // False when `key` is already there.
  bool Insert(std::string_view key) {
    if (set_.empty()) {
      for (const Stored& k : list_) {
        if (k == key) return false;
      }
      if (list_.size() < kListKeys) {
        list_.emplace_back(key);
        return true;
      }
      for (Stored& k : list_) set_.insert(std::move(k));
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
  std::vector<Stored> list_;
  std::unordered_set<Stored> set_;
};

template <typename Handler, typename Stream, typename StoredKey>
class ExactNumbers {
 public:
  // `stream`: where the reader is, for a duplicate key's byte offset.
  ExactNumbers(Handler* h, Stream* stream) : h_(h), stream_(stream) {}
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

  // `s` is the literal as JSON spells it (the reader checked the grammar), `n` bytes (an in-situ
  // parse does not end it with a NUL).
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
      d = std::strtod(std::string(s, n).c_str(), nullptr);  // underflow is 0 (or a subnormal)
      if (std::isinf(d)) {                                  // overflow is refused
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
  Stream* stream_;
  bool too_big_ = false;
  std::vector<ObjectKeys<StoredKey>> keys_;
  size_t depth_ = 0;
  std::string duplicate_;
  size_t duplicate_at_ = 0;
};

}  // namespace

Status ParseRapidJson(std::string_view text, std::string_view origin, rapidjson::Document* doc) {
  // A NUL inside the text would end the NUL-terminated parse below early: refused first.
  // (An empty view may have a null data(): neither memchr nor memcpy may see it.)
  static constexpr std::string_view kEmpty = "";  // data() points at a NUL, not null
  if (text.empty()) text = kEmpty;
  if (const void* nul = std::memchr(text.data(), '\0', text.size()); nul != nullptr) {
    return Status::ParseError(std::string(origin) + ": byte " +
                              std::to_string(static_cast<const char*>(nul) - text.data()) +
                              ": a NUL character (not JSON text)");
  }
  // In situ: the text is copied once into memory the document owns (its pool allocator, freed
  // with it), decoded there, and the document's strings point into it: no string is copied
  // twice (a fifth of the embedded catalog's load was those copies). The copy ends with a NUL
  // and 16 bytes more, which RapidJSON's SSE2 scanners may read up to.
  constexpr size_t kPadding = 16;  // SSE2 reads 16-byte blocks
  char* copy = static_cast<char*>(doc->GetAllocator().Malloc(text.size() + kPadding + 1));
  std::memcpy(copy, text.data(), text.size());
  std::memset(copy + text.size(), 0, kPadding + 1);
  rapidjson::InsituStringStream stream(copy);
  // Iterative: the default reader recurses once per nesting level, and a file nested a million
  // deep (a hostile --catalog) overflowed the stack; the DOM's pool allocator frees without
  // recursion too.
  rapidjson::ParseResult result;
  bool too_big = false;
  std::string duplicate;
  size_t duplicate_at = 0;
  auto generate = [&](rapidjson::Document& d) {
    ExactNumbers<rapidjson::Document, rapidjson::InsituStringStream, std::string_view> numbers(
        &d, &stream);
    rapidjson::Reader reader;
    result = reader.Parse < rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag |
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
  ExactNumbers<NullHandler, rapidjson::MemoryStream, std::string> keys(&sink, &stream);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag>(stream,
                                                                                       keys);
  if (keys.duplicate_at() == 0) return Status::OK();
  return Status::ParseError(std::string(origin) + ":" + LineColumn(text, keys.duplicate_at()) +
                            ": duplicate key \"" + keys.duplicate() +
                            "\" (an object names each key once)");
}

std::string JsonPath::str() const {
  if (parent_ == nullptr) return std::string(text_);
  std::string s = parent_->str() + "." + key_;
  if (indexed_) s += "[" + std::to_string(index_) + "]";
  return s;
}

void RjReader::Fail(const JsonPath& path, std::string_view expected) {
  if (status_.ok()) {
    status_ =
        Status::ParseError(origin_ + ": " + path.str() + ": expected " + std::string(expected));
  }
}

const Value* RjReader::Get(const Value& obj, const char* key, const JsonPath& path, bool required) {
  if (!obj.IsObject()) {
    Fail(path, "an object");
    return nullptr;
  }
  // Readers ask for an object's keys in the order its writer wrote them: the member after the
  // last one found is tried first, and the search covers the rest only when it is not the key.
  const size_t length = std::strlen(key);
  Value::ConstMemberIterator it = obj.MemberEnd();
  if (&obj == next_object_ && next_member_ != obj.MemberEnd() &&
      next_member_->name.GetStringLength() == length &&
      std::memcmp(next_member_->name.GetString(), key, length) == 0) {
    it = next_member_;
  } else {
    it = obj.FindMember(Value(rapidjson::StringRef(key, static_cast<rapidjson::SizeType>(length))));
  }
  if (it != obj.MemberEnd()) {
    next_object_ = &obj;
    next_member_ = it + 1;
  }
  if (it == obj.MemberEnd() || it->value.IsNull()) {
    if (required) Fail(JsonPath(path, key), "a value (field is missing)");
    return nullptr;
  }
  return &it->value;
}

std::string RjReader::Str(const Value& obj, const char* key, const JsonPath& path, bool required) {
  const Value* v = Get(obj, key, path, required);
  if (!v) return "";
  if (!v->IsString()) {
    Fail(JsonPath(path, key), "a string");
    return "";
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<std::string> RjReader::OptStr(const Value& obj, const char* key,
                                            const JsonPath& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsString()) {
    Fail(JsonPath(path, key), "a string or null");
    return std::nullopt;
  }
  return std::string(v->GetString(), v->GetStringLength());
}

std::optional<double> RjReader::OptNum(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsNumber()) {
    Fail(JsonPath(path, key), "a number or null");
    return std::nullopt;
  }
  return v->GetDouble();
}

double RjReader::Num(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->IsNumber()) {
    Fail(JsonPath(path, key), "a number");
    return 0;
  }
  return v->GetDouble();
}

std::optional<int64_t> RjReader::OptInt(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsInt64()) {
    Fail(JsonPath(path, key), "an integer or null");
    return std::nullopt;
  }
  return v->GetInt64();
}

int64_t RjReader::Int(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return 0;
  if (!v->IsInt64()) {
    Fail(JsonPath(path, key), "an integer");
    return 0;
  }
  return v->GetInt64();
}

std::optional<bool> RjReader::OptBool(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return std::nullopt;
  if (!v->IsBool()) {
    Fail(JsonPath(path, key), "true, false or null");
    return std::nullopt;
  }
  return v->GetBool();
}

bool RjReader::Bool(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, true);
  if (!v) return false;
  if (!v->IsBool()) {
    Fail(JsonPath(path, key), "true or false");
    return false;
  }
  return v->GetBool();
}

std::vector<std::string> RjReader::StrList(const Value& obj, const char* key,
                                           const JsonPath& path) {
  std::vector<std::string> out;
  const Value* v = Get(obj, key, path, false);
  if (!v) return out;
  if (!v->IsArray()) {
    Fail(JsonPath(path, key), "an array of strings");
    return out;
  }
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    const Value& e = (*v)[i];
    if (!e.IsString()) {
      Fail(JsonPath(path, key, i), "a string");
      return out;
    }
    out.emplace_back(e.GetString(), e.GetStringLength());
  }
  return out;
}

const Value& RjReader::Array(const Value& obj, const char* key, const JsonPath& path,
                             bool required) {
  static const Value kEmpty(rapidjson::kArrayType);
  const Value* v = Get(obj, key, path, required);
  if (!v) return kEmpty;
  if (!v->IsArray()) {
    Fail(JsonPath(path, key), "an array");
    return kEmpty;
  }
  return *v;
}

const Value* RjReader::OptObject(const Value& obj, const char* key, const JsonPath& path) {
  const Value* v = Get(obj, key, path, false);
  if (!v) return nullptr;
  if (!v->IsObject()) {
    Fail(JsonPath(path, key), "an object or null");
    return nullptr;
  }
  return v;
}

}  // namespace gpuadvisor
