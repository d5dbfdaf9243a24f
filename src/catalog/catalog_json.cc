// The catalog file (doc/formats.md): a writer and a reader that both walk the one field list per
// record in catalog/catalog_schema.h. Keys are written in a fixed order and nulls are written
// out, so a rebuilt catalog diffs cleanly.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "catalog/catalog_schema.h"
#include "catalog/record_checks.h"
#include "gpuadvisor/catalog.h"
#include "util/files.h"
#include "util/json_text.h"
#include "util/rj_reader.h"

namespace gpuadvisor {
namespace {

using ojson = nlohmann::ordered_json;
using schema::Absent;
using schema::Key;
using schema::Need;

// The version before the units rename: same records, `_gbps` key names.
constexpr const char* kCatalogSchemaV1 = "gpuadvisor-catalog/1";

template <typename T>
ojson Opt(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

// Builds the JSON object of one record (see catalog_schema.h for the operations).
class Writer {
 public:
  ojson out = ojson::object();

  void Str(Key k, const std::string& s, Need need = schema::kRequired) {
    if (need != schema::kOmitEmpty || !s.empty()) out[k.name] = s;
  }
  void OptStr(Key k, const std::optional<std::string>& s) { out[k.name] = Opt(s); }
  void Num(Key k, double d) { out[k.name] = d; }
  void OptNum(Key k, const std::optional<double>& d) { out[k.name] = Opt(d); }
  template <typename T>
  void Int(Key k, const T& i) {
    out[k.name] = i;
  }
  template <typename T>
  void IntIn(Key k, const T& i, int64_t /*lo*/, int64_t /*hi*/) {
    out[k.name] = i;
  }
  template <typename T>
  void IntOr(Key k, const T& i, int /*absent*/) {
    out[k.name] = i;
  }
  template <typename T>
  void OptInt(Key k, const std::optional<T>& i) {
    out[k.name] = Opt(i);
  }
  template <typename T>
  void MemoryMib(Key k, const std::optional<T>& i, int64_t /*hi*/) {
    out[k.name] = Opt(i);
  }
  template <typename T>
  void ZeroIsNull(Key k, T i) {
    out[k.name] = i != 0 ? ojson(i) : ojson(nullptr);
  }
  void Bool(Key k, bool b) { out[k.name] = b; }
  void BoolOr(Key k, bool b) { out[k.name] = b; }
  void OptBool(Key k, const std::optional<bool>& b) { out[k.name] = Opt(b); }
  void StrList(Key k, const std::vector<std::string>& l) { out[k.name] = l; }
  template <typename E, typename NameOf, typename Parse>
  void Enum(Key k, E e, NameOf name_of, Parse /*parse*/, const char* /*expected*/) {
    out[k.name] = name_of(e);
  }
  template <typename R, typename Fields>
  void Object(Key k, const R& r, Fields fields, Need /*need*/) {
    out[k.name] = Of(r, fields);
  }
  template <typename R, typename Fields>
  void OptObject(Key k, const std::optional<R>& r, Fields fields, Absent absent) {
    if (r) {
      out[k.name] = Of(*r, fields);
    } else if (absent == schema::kWriteNull) {
      out[k.name] = nullptr;
    }
  }
  template <typename R, typename Fields>
  void List(Key k, const std::vector<R>& l, Fields fields, Need need) {
    if (need == schema::kOmitEmpty && l.empty()) return;
    ojson a = ojson::array();
    for (const R& r : l) a.push_back(Of(r, fields));
    out[k.name] = std::move(a);
  }
  template <typename F>
  void Check(const char* /*suffix*/, F&& /*problem*/) {}
  template <typename R, typename F>
  void Derive(const R& /*record*/, F&& /*fn*/) {}

  template <typename R, typename Fields>
  static ojson Of(const R& r, Fields fields) {
    Writer w;
    fields(w, r);
    return std::move(w.out);
  }
};

// Reads one record from a parsed object (RapidJSON: the hot path of every CLI start). Figures are
// held to the import policy (catalog/record_checks.h): a catalog is our own file, so anything
// outside it (a $0 or 1e308 price, 10^12 GPUs, negative memory) is refused, never skipped.
// Errors go to the shared RjReader, which keeps the first.
class Reader {
 public:
  Reader(RjReader& r, const rapidjson::Value& obj, JsonPath path, int version)
      : r_(r), obj_(obj), path_(path), version_(version) {}

  void Str(Key k, std::string& s, Need need = schema::kRequired) {
    s = r_.Str(obj_, Name(k), path_, need == schema::kRequired);
  }
  void OptStr(Key k, std::optional<std::string>& s) { s = r_.OptStr(obj_, Name(k), path_); }
  void Num(Key k, double& d) { d = r_.Num(obj_, Name(k), path_); }
  void OptNum(Key k, std::optional<double>& d) { d = r_.OptNum(obj_, Name(k), path_); }
  template <typename T>
  void Int(Key k, T& i) {
    i = static_cast<T>(r_.Int(obj_, Name(k), path_));
  }
  template <typename T>
  void IntIn(Key k, T& i, int64_t lo, int64_t hi) {
    int64_t v = r_.Int(obj_, Name(k), path_);
    std::string bad = CheckCount(v, lo, hi);
    if (!bad.empty() && r_.status().ok()) r_.Fail(JsonPath(path_, Name(k)), bad);
    i = static_cast<T>(bad.empty() ? v : lo);
  }
  template <typename T>
  void IntOr(Key k, T& i, int absent) {
    i = static_cast<T>(r_.OptInt(obj_, Name(k), path_).value_or(absent));
  }
  template <typename T>
  void OptInt(Key k, std::optional<T>& i) {
    i = Cast<T>(r_.OptInt(obj_, Name(k), path_));
  }
  template <typename T>
  void MemoryMib(Key k, std::optional<T>& i, int64_t hi) {
    i = Cast<T>(OptMemoryMib(r_, obj_, Name(k), path_, hi));
  }
  template <typename T>
  void ZeroIsNull(Key k, T& i) {
    i = static_cast<T>(r_.OptInt(obj_, Name(k), path_).value_or(0));
  }
  void Bool(Key k, bool& b) { b = r_.Bool(obj_, Name(k), path_); }
  void BoolOr(Key k, bool& b) { b = r_.OptBool(obj_, Name(k), path_).value_or(false); }
  void OptBool(Key k, std::optional<bool>& b) { b = r_.OptBool(obj_, Name(k), path_); }
  void StrList(Key k, std::vector<std::string>& l) { l = r_.StrList(obj_, Name(k), path_); }
  template <typename E, typename NameOf, typename Parse>
  void Enum(Key k, E& e, NameOf /*name_of*/, Parse parse, const char* expected) {
    std::string s = r_.Str(obj_, Name(k), path_);
    if (auto v = parse(s)) {
      e = *v;
    } else if (r_.status().ok()) {
      r_.Fail(JsonPath(path_, Name(k)), expected);
    }
  }
  template <typename R, typename Fields>
  void Object(Key k, R& r, Fields fields, Need need) {
    const rapidjson::Value* o = r_.OptObject(obj_, Name(k), path_);
    if (!o) {
      if (need == schema::kRequired) r_.Fail(JsonPath(path_, Name(k)), "an object");
      return;
    }
    Reader sub(r_, *o, JsonPath(path_, Name(k)), version_);
    fields(sub, r);
  }
  template <typename R, typename Fields>
  void OptObject(Key k, std::optional<R>& r, Fields fields, Absent /*absent*/) {
    const rapidjson::Value* o = r_.OptObject(obj_, Name(k), path_);
    if (!o) return;
    R value;
    Reader sub(r_, *o, JsonPath(path_, Name(k)), version_);
    fields(sub, value);
    r = std::move(value);
  }
  template <typename R, typename Fields>
  void List(Key k, std::vector<R>& l, Fields fields, Need need) {
    const rapidjson::Value& a = r_.Array(obj_, Name(k), path_, need == schema::kRequired);
    l.reserve(a.Size());
    for (rapidjson::SizeType i = 0; i < a.Size() && r_.status().ok(); ++i) {
      R value;
      Reader sub(r_, a[i], JsonPath(path_, Name(k), i), version_);
      fields(sub, value);
      l.push_back(std::move(value));
    }
  }
  template <typename F>
  void Check(const char* suffix, F&& problem) {
    if (!r_.status().ok()) return;
    std::string bad = problem();
    if (!bad.empty()) r_.Fail(path_.str() + suffix, bad);
  }
  template <typename R, typename F>
  void Derive(R& record, F&& fn) {
    fn(record);
  }

 private:
  const char* Name(const Key& k) const { return version_ == 1 && k.v1 ? k.v1 : k.name; }
  template <typename T>
  static std::optional<T> Cast(const std::optional<int64_t>& v) {
    return v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt;
  }

  RjReader& r_;
  const rapidjson::Value& obj_;
  JsonPath path_;
  int version_;
};

// Collects the keys a field list renamed since version 1 (old name -> new name), so the figure
// names that appear as data (GpuSpec::derived_fields, the derivation text) move with the keys.
class RenamedKeys {
 public:
  std::vector<std::pair<std::string, std::string>> renamed;

  template <typename... Rest>
  void Str(Key k, Rest&&...) {
    Note(k);
  }
  template <typename... Rest>
  void OptNum(Key k, Rest&&...) {
    Note(k);
  }
  // Every other operation takes a key first and names no renamed figure.
  template <typename... Rest>
  void OptStr(Key, Rest&&...) {}
  template <typename... Rest>
  void OptInt(Key, Rest&&...) {}
  template <typename... Rest>
  void ZeroIsNull(Key, Rest&&...) {}
  template <typename... Rest>
  void BoolOr(Key, Rest&&...) {}
  template <typename... Rest>
  void StrList(Key, Rest&&...) {}

 private:
  void Note(const Key& k) {
    if (k.v1) renamed.emplace_back(k.v1, k.name);
  }
};

// A version-1 GpuSpec names its derived figures by their version-1 keys ("memory_bw_gbps");
// renames them, in the list and where the derivation text names them ("memory_bw_gbps: ...").
void UpgradeV1FigureNames(std::vector<GpuSpec>* gpus) {
  static const std::vector<std::pair<std::string, std::string>> kRenamed = [] {
    RenamedKeys keys;
    GpuSpec g;
    schema::GpuFields()(keys, g);
    return keys.renamed;
  }();
  for (GpuSpec& g : *gpus) {
    for (const auto& [old_name, name] : kRenamed) {
      std::replace(g.derived_fields.begin(), g.derived_fields.end(), old_name, name);
      for (size_t at = g.derivation.find(old_name); at != std::string::npos;
           at = g.derivation.find(old_name, at + name.size())) {
        g.derivation.replace(at, old_name.size(), name);
      }
    }
  }
}

}  // namespace

nlohmann::ordered_json GpuSpecToJson(const GpuSpec& g) {
  return Writer::Of(g, schema::GpuFields());
}

std::string CatalogToJson(const Catalog& c) {
  Writer w;
  w.out["schema"] = kCatalogSchema;
  schema::CatalogFields(w, c, c.gpus(), c.instance_types());
  return DumpJson(w.out, 1) + "\n";
}

namespace {

Result<Catalog> ReadCatalogJson(std::string_view text, std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  RjReader r{std::string(origin)};
  Catalog c;
  c.schema = r.Str(doc, "schema", "$");
  const int version = c.schema == kCatalogSchema ? 2 : c.schema == kCatalogSchemaV1 ? 1 : 0;
  if (r.status().ok() && version == 0) {
    return Status::ParseError(std::string(origin) + ": $.schema: expected \"" + kCatalogSchema +
                              "\" (or \"" + kCatalogSchemaV1 + "\"), got \"" + c.schema + "\"");
  }
  Reader reader(r, doc, "$", version);
  std::vector<GpuSpec> gpus;
  std::vector<InstanceType> types;
  schema::CatalogFields(reader, c, gpus, types);
  if (!r.status().ok()) return r.status();
  if (version == 1) UpgradeV1FigureNames(&gpus);
  c.SetGpus(std::move(gpus));
  c.SetInstanceTypes(std::move(types));
  return c;
}

}  // namespace

Result<Catalog> ParseCatalogJson(std::string_view text, std::string_view origin) {
  Result<Catalog> c = ReadCatalogJson(text, origin);
  if (!c.ok()) return c.status().WithField("catalog");
  return c;
}

Result<Catalog> LoadCatalogFile(const std::string& path) {
  Result<std::string> text = ReadFile(path, kCatalogFile);
  if (!text.ok()) return text.status().WithField("catalog");
  return ParseCatalogJson(*text, path);
}

Status WriteCatalogFile(const Catalog& catalog, const std::string& path) {
  return WriteFileAtomic(path, CatalogToJson(catalog), {.kind = &kCatalogFile});
}

}  // namespace gpuadvisor
