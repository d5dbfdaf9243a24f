// libFuzzer target (issue 43): the names the catalog loader accepts and the tokens an AWS answer
// hands back never become an AWS CLI option, a file or a URL. The input is a selector byte and a
// text; the text is checked by the grammar, put into a one-type catalog as its instance type,
// family or region (the loader's check), and into a Savings Plans answer as its nextToken (the
// pager's check). Whatever passes a check must pass the AWS CLI runner's argument check
// (AwsArgumentProblem) too: a violation traps.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "catalog/import/aws_formats.h"
#include "gpuadvisor/catalog.h"
#include "util/aws_names.h"

namespace {

using gpuadvisor::AwsArgumentProblem;

void Require(bool ok) {
  if (!ok) __builtin_trap();
}

// The embedded catalog cut to its first instance type and that type's first region.
const nlohmann::json& OneTypeCatalog() {
  static const nlohmann::json kDoc = [] {
    auto c = gpuadvisor::EmbeddedCatalog();
    Require(c.ok());
    nlohmann::json d = nlohmann::json::parse(gpuadvisor::CatalogToJson(**c));
    nlohmann::json type = d["instance_types"][0];
    type["regions"] = nlohmann::json::array({type["regions"][0]});
    d["instance_types"] = nlohmann::json::array({type});
    return d;
  }();
  return kDoc;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  // The grammar: every accepted name is an argument the runner takes as it is.
  if (gpuadvisor::IsInstanceTypeName(text) || gpuadvisor::IsRegionCode(text) ||
      gpuadvisor::IsInstanceFamilyName(text) || gpuadvisor::IsPageToken(text) ||
      gpuadvisor::IsAzId(text)) {
    Require(AwsArgumentProblem(text).empty());
  }
  if (!nlohmann::json(text).is_string()) return 0;
  switch (data[0] % 4) {
    case 0:
    case 1:
    case 2: {  // the catalog loader: a name it accepts passes the grammar
      nlohmann::json doc = OneTypeCatalog();
      nlohmann::json& type = doc["instance_types"][0];
      const char* key = data[0] % 4 == 0 ? "instance_type" : data[0] % 4 == 1 ? "family" : "";
      if (*key) {
        type[key] = text;
      } else {
        type["regions"][0]["region"] = text;
      }
      std::string json;
      try {
        json = doc.dump();
      } catch (const nlohmann::json::exception&) {
        return 0;  // not UTF-8: no JSON file holds it
      }
      auto c = gpuadvisor::ParseCatalogJson(json, "fuzz.json");
      if (c.ok()) {
        for (const gpuadvisor::InstanceType& t : c->instance_types()) {
          Require(gpuadvisor::IsInstanceTypeName(t.name) && AwsArgumentProblem(t.name).empty());
          Require(gpuadvisor::IsInstanceFamilyName(t.family));
          for (const gpuadvisor::RegionOffer& o : t.regions) {
            Require(gpuadvisor::IsRegionCode(o.region) && AwsArgumentProblem(o.region).empty());
          }
        }
      }
      break;
    }
    default: {  // a Savings Plans answer's nextToken, as the pager reads it
      nlohmann::json answer = {{"searchResults", nlohmann::json::array()}, {"nextToken", text}};
      std::string json;
      try {
        json = answer.dump();
      } catch (const nlohmann::json::exception&) {
        return 0;
      }
      gpuadvisor::import::SavingsPlansData sp;
      std::string token;
      const auto keep = [](std::string_view) { return true; };
      if (gpuadvisor::import::ReadSavingsPlanRatesJson(json, "fuzz.json", keep, &sp, &token).ok() &&
          gpuadvisor::IsPageToken(token)) {
        Require(AwsArgumentProblem(token).empty() && token.front() != '-');
      }
      break;
    }
  }
  return 0;
}
