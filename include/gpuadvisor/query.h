// Catalog queries behind `instances`, `show` and `gpus`: filtering, derived price columns and
// sorting. Rows hold non-owning pointers into the Catalog, which must outlive them.
#ifndef GPUADVISOR_QUERY_H_
#define GPUADVISOR_QUERY_H_

#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/purchase.h"

namespace gpuadvisor {

struct InstanceQuery {
  std::string region = "us-east-1";                // "all": one row per type x region
  std::vector<std::string> gpus;                   // GPU names or aliases (any of them matches)
  std::vector<std::string> families;               // "p5", "g6e" (any of them matches)
  std::optional<double> min_gpus, max_gpus;        // whole-device equivalents
  std::optional<double> min_gpu_memory_gib;        // per device
  std::optional<double> min_total_gpu_memory_gib;  // per instance
  // Per instance-hour at `purchase`, in the region's currency (CNY in AWS China; USD with
  // region "all", where CNY rows are then left out).
  std::optional<double> max_price_usd;
  PurchaseKind purchase = PurchaseKind::kOnDemand;
  bool efa_only = false;
  bool include_retired = false;
  bool gpus_only = false;  // leave out FPGA / media / inference-only types
  // Any InstanceSortFields() name, optionally ":asc" or ":desc" (ascending by default).
  std::string sort = "on_demand_usd_per_hour";
  std::optional<size_t> limit;
};

// The `instances` command's options (fields.h).
template <typename V>
void DeclareOptions(V& v, InstanceQuery& q) {
  v.Text("region", q.region,
         {.help = "Region code, or `all` for one row per type and region", .metavar = "REGION"});
  v.List("gpu", q.gpus,
         {.help = "Accelerator model or alias: H100, A100-80GB, L4 ...", .metavar = "GPU"});
  v.List("family", q.families, {.help = "Instance family: p5, g6e ...", .metavar = "FAMILY"});
  v.Number("min-gpus", q.min_gpus,
           {.help = "At least N GPUs (whole-device equivalents)", .lo = 0, .hi = 1024});
  v.Number("max-gpus", q.max_gpus, {.help = "At most N GPUs", .lo = 0, .hi = 1024});
  v.Number("min-gpu-memory", q.min_gpu_memory_gib,
           {.help = "At least this much memory per GPU", .unit = "GiB", .lo = 0, .hi = 1e6});
  v.Number("min-total-gpu-memory", q.min_total_gpu_memory_gib,
           {.help = "At least this much accelerator memory per instance",
            .unit = "GiB",
            .lo = 0,
            .hi = 1e7});
  v.Number("max-price", q.max_price_usd,
           {.help = "At most this per instance-hour (at --purchase), in the region's currency: "
                    "CNY/h in an AWS China region (cn-north-1, cn-northwest-1); with region all, "
                    "USD/h and CNY rows are left out",
            .unit = "USD/h",
            .lo = 0,
            .hi = 1e6});
  v.Enum("purchase", q.purchase, PurchaseKindName, ParsePurchaseOption("purchase"),
         {.help = "Price used by --max-price and the price columns",
          .choices = {PurchaseKindName(PurchaseKind::kOnDemand),
                      PurchaseKindName(PurchaseKind::kSpot)}});
  v.Bool("efa", q.efa_only, {.help = "Only types with EFA networking"});
  v.Bool("include-retired", q.include_retired,
         {.help = "Also list retired types (p2, p3, g3 ...)"});
  v.Bool("gpus-only", q.gpus_only, {.help = "Only GPU types (no FPGA, media or Neuron)"});
  v.Text("sort", q.sort,
         {.help = "Sort by a column, e.g. usd_per_gpu_hour or on_demand_usd_per_hour:desc",
          .metavar = "FIELD[:asc|desc]"});
  v.Integer("limit", q.limit, {.help = "Show at most N rows", .lo = 0, .hi = 1e9});
}

struct InstanceRow {
  const InstanceType* type = nullptr;
  const RegionOffer* offer = nullptr;  // null when the type has no data in the region
  const GpuSpec* gpu = nullptr;        // null when the model has no datasheet row
  std::string region;
  Currency currency = Currency::kUsd;  // of every price below: the region's partition's
  std::optional<double> on_demand_usd_per_hour, spot_usd_per_hour;
  std::optional<double> usd_per_gpu_hour;         // on-demand / device equivalents
  std::optional<double> usd_per_bf16_tflop_hour;  // on-demand / (devices x dense BF16 TFLOP/s)
  std::optional<double> gpu_memory_gib_per_usd;   // total accelerator GiB per on-demand $/h
};

// Column names accepted by InstanceQuery::sort (the JSON field names).
const std::vector<std::string>& InstanceSortFields();

// Errors: InvalidArgument naming the option for an unknown region, GPU, family or sort field,
// each with a "did you mean" hint; or for contradictory bounds (min > max).
Result<std::vector<InstanceRow>> QueryInstances(const Catalog& catalog, const InstanceQuery& q);

// A row for one type in one region (no filtering). For `show` and other callers.
InstanceRow MakeInstanceRow(const Catalog& catalog, const InstanceType& type,
                            const std::string& region);

// NotFound with "did you mean" when the name is unknown; its field() is "type" (callers that
// take the name from another option name that one with WithField).
Result<const InstanceType*> ResolveInstanceType(const Catalog& catalog, std::string_view name);
// One datasheet row (for estimates): by model id, full name, alias or AWS name, case- and
// punctuation-insensitive ("rtx pro 4500"). InvalidArgument with GpuSuggestion otherwise
// (field "gpu").
Result<const GpuSpec*> ResolveGpu(const Catalog& catalog, std::string_view name);
// Every row a --gpu filter selects. A name that is exactly a model id selects that row
// ("A100-80GB", "A10G", "T4"); a model family selects all its memory variants, the family being a
// model id without its memory suffix ("V100" -> V100-16GB and V100-32GB; "A100" -> A100-40GB and
// A100-80GB) or an AWS name shared by them; otherwise an alias or full name selects its row.
// InvalidArgument with GpuSuggestion when nothing matches (never an empty selection).
Result<std::vector<const GpuSpec*>> ResolveGpuFamily(const Catalog& catalog, std::string_view name);
// "did you mean A10G?" for an unknown GPU name (model ids and families), or "" when nothing is
// close. Names are compared without case and punctuation, by edit distance; at equal distance the
// same model number wins (A10 -> A10G, not A100). Every name at the best score is listed.
std::string GpuSuggestion(const Catalog& catalog, std::string_view name);

// "" when `type` has an on-demand price in `region`; else why not and where it is offered:
// "dl2q.24xlarge is not offered in us-east-1; it is offered in eu-central-1, us-west-2 (try
// --region eu-central-1)".
std::string RegionHint(const InstanceType& type, std::string_view region);
// InvalidArgument "<what>: unknown region ..." unless the catalog knows `region`; the field is
// `what` without its leading dashes ("--regions" -> "regions").
Status CheckRegion(const Catalog& catalog, std::string_view region, std::string_view what);

// Days between an ISO date ("2026-07-20") and `today` (same format); nullopt if unparsable.
std::optional<int> DaysBetween(const std::string& from_date, const std::string& today);
// Today's date in UTC, ISO format.
std::string TodayUtc();
// Now in UTC as ISO 8601 ("2026-12-02T18:40:00Z").
std::string NowUtcIso();

}  // namespace gpuadvisor

#endif  // GPUADVISOR_QUERY_H_
