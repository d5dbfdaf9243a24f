#include "app/json_doc.h"

#include <cmath>

#include "app/json_doc_rep.h"
#include "app/views.h"
#include "util/json_text.h"

namespace gpuadvisor {

JsonDoc::JsonDoc() : rep_(std::make_shared<Rep>()) {}

JsonDoc::JsonDoc(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

namespace {

// Recursion is bounded by the library's own documents (views nest a few levels).
void WalkValue(const nlohmann::ordered_json& j, JsonSink& sink) {
  using value_t = nlohmann::ordered_json::value_t;
  switch (j.type()) {
    case value_t::boolean:
      return sink.Bool(j.get<bool>());
    case value_t::number_integer:
      return sink.Int(j.get<int64_t>());
    case value_t::number_unsigned:
      return sink.Uint(j.get<uint64_t>());
    case value_t::number_float: {
      const auto d = j.get<double>();
      return std::isfinite(d) ? sink.Double(d) : sink.Null();  // Text() writes null
    }
    case value_t::string:
      return sink.String(j.get_ref<const std::string&>());
    case value_t::array:
      sink.StartArray(j.size());
      for (const auto& v : j) WalkValue(v, sink);
      return sink.EndArray();
    case value_t::object:
      sink.StartObject(j.size());
      for (const auto& [key, v] : j.items()) {
        sink.Key(key);
        WalkValue(v, sink);
      }
      return sink.EndObject();
    default:  // null; also binary and discarded values, which views never build
      return sink.Null();
  }
}

}  // namespace

std::string JsonDoc::Text(int indent) const { return DumpJson(rep_->value, indent); }

void JsonDoc::Walk(JsonSink& sink) const { WalkValue(rep_->value, sink); }

JsonDoc ErrorJson(std::string_view code, std::string_view message, std::string_view field) {
  using ojson = nlohmann::ordered_json;
  ojson e;
  e["code"] = code;
  e["message"] = message;
  e["field"] = field.empty() ? ojson(nullptr) : ojson(field);
  return MakeJsonDoc(ojson{{"error", std::move(e)}});
}

}  // namespace gpuadvisor
