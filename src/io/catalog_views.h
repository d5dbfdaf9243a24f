// The JSON objects (doc/formats.md, "Command JSON": instances, show, gpus, catalog info) and human
// tables for catalog results. The CLI, the HTTP server and the Python module all emit these same
// objects.
#ifndef GPUADVISOR_IO_CATALOG_VIEWS_H_
#define GPUADVISOR_IO_CATALOG_VIEWS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/query.h"
#include "io/table.h"

namespace gpuadvisor {

using ojson = nlohmann::ordered_json;

// The value, or JSON null for an unknown one (the contract's "missing knowledge is null").
template <typename T>
ojson Opt(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

// How old prices may be before outputs flag them (days), and today's date (ISO).
struct Freshness {
  std::string today;
  int max_price_age_days = 90;
  // Age of a price dated `date`; nullopt for undated.
  std::optional<int> AgeDays(const std::string& date) const;
  bool Stale(const std::string& date) const;
};

// The one stale-price warning a command prints (at most one line, whatever the number of sources
// and rows): the sources of the `used` prices that are undated or older than the limit, each with
// its date and age, and how many of the prices that is; nullopt when none is stale.
std::optional<std::string> StalePricesWarning(const std::vector<Provenance>& used,
                                              const Freshness& fresh);

ojson InstanceRowJson(const InstanceRow& row, const Freshness& fresh);
ojson InstancesJson(const std::vector<InstanceRow>& rows, const Freshness& fresh);
Table InstancesTable(const std::vector<InstanceRow>& rows);

ojson GpuSpecJson(const GpuSpec& g);
// `show TYPE`: the instance fields for `region` plus every region's prices and the datasheet.
ojson ShowJson(const Catalog& c, const InstanceType& t, const std::string& region,
               const Freshness& fresh);
Table ShowRegionsTable(const InstanceType& t, const Freshness& fresh);
// Every reserved term / savings plan / dated price of one region offer (show JSON, per region).
ojson ReservedJson(const RegionOffer& o);
ojson SavingsPlansJson(const RegionOffer& o);
ojson HistoryJson(const RegionOffer& o);
// `show TYPE`: reserved terms and savings plans of one region, with the saving vs on-demand.
Table ShowTermsTable(const RegionOffer& o);
// `show TYPE --history`: dated prices per kind, oldest first, with the change from the last one.
Table ShowHistoryTable(const RegionOffer& o);

struct GpuSummary {
  const GpuSpec* gpu;
  std::vector<const InstanceType*> types;
  std::optional<InstanceRow> cheapest_on_demand, cheapest_spot;  // by $/GPU-hour
};
// One summary per accelerator model (retired types only when `include_retired`).
std::vector<GpuSummary> SummarizeGpus(const Catalog& c, bool include_retired);
ojson GpusJson(const std::vector<GpuSummary>& gpus);
// A "*" after a model marks figures that were derived (GpuSpec::confidence "derived").
Table GpusTable(const std::vector<GpuSummary>& gpus);
// The footnote explaining "*" (with the derivations), or "" when no listed model has one.
std::string GpusTableFootnote(const std::vector<GpuSummary>& gpus);

ojson CatalogInfoJson(const Catalog& c, const Freshness& fresh);

// Human lines for stale prices among the rows (empty when all are fresh).
std::vector<std::string> StaleWarnings(const std::vector<InstanceRow>& rows,
                                       const Freshness& fresh);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_CATALOG_VIEWS_H_
