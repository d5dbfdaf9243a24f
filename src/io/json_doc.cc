#include "gpuadvisor/json_doc.h"

#include "gpuadvisor/views.h"
#include "io/json_doc_rep.h"
#include "util/json_text.h"

namespace gpuadvisor {

JsonDoc::JsonDoc() : rep_(std::make_shared<Rep>()) {}

JsonDoc::JsonDoc(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

std::string JsonDoc::Text(int indent) const { return DumpJson(rep_->value, indent); }

JsonDoc ErrorJson(std::string_view code, std::string_view message, std::string_view field) {
  using ojson = nlohmann::ordered_json;
  ojson e;
  e["code"] = code;
  e["message"] = message;
  e["field"] = field.empty() ? ojson(nullptr) : ojson(field);
  return MakeJsonDoc(ojson{{"error", std::move(e)}});
}

}  // namespace gpuadvisor
