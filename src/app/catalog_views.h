// The JSON pieces the views (app/views.h) are built from: instance rows, datasheets and
// region offers as nlohmann ordered_json, shared by the catalog, import and request views.
#ifndef GPUADVISOR_APP_CATALOG_VIEWS_H_
#define GPUADVISOR_APP_CATALOG_VIEWS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/json_doc_rep.h"
#include "app/views.h"

namespace gpuadvisor {

using ojson = nlohmann::ordered_json;

// The value, or JSON null for an unknown one (the contract's "missing knowledge is null").
template <typename T>
ojson Opt(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

ojson InstanceRowJson(const InstanceRow& row, const Freshness& fresh);
ojson GpuSpecJson(const GpuSpec& g);
// `show TYPE`: the instance fields for `region` plus every region's prices and the datasheet.
ojson ShowJson(const Catalog& c, const InstanceType& t, const std::string& region,
               const Freshness& fresh);
// Every reserved term / savings plan / dated price of one region offer (show JSON, per region).
ojson ReservedJson(const RegionOffer& o);
ojson SavingsPlansJson(const RegionOffer& o);
ojson HistoryJson(const RegionOffer& o);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_CATALOG_VIEWS_H_
