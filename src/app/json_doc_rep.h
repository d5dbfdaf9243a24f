// The inside of a JsonDoc (src/app/json_doc.h): an nlohmann ordered_json, for the
// library's views that build documents.
#ifndef GPUADVISOR_APP_JSON_DOC_REP_H_
#define GPUADVISOR_APP_JSON_DOC_REP_H_

#include <nlohmann/json.hpp>
#include <utility>

#include "app/json_doc.h"

namespace gpuadvisor {

struct JsonDoc::Rep {
  nlohmann::ordered_json value;
};

inline JsonDoc MakeJsonDoc(nlohmann::ordered_json value) {
  return JsonDoc(std::make_shared<const JsonDoc::Rep>(JsonDoc::Rep{std::move(value)}));
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_JSON_DOC_REP_H_
