#include "gpuadvisor/query.h"

#include <algorithm>
#include <functional>

#include "gpuadvisor/i18n.h"
#include "util/aws_names.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

double TotalGib(const InstanceType& t) {
  return t.accelerator.memory_mib_total
             ? static_cast<double>(*t.accelerator.memory_mib_total) / 1024
             : 0;
}

using SortKey = std::function<std::optional<double>(const InstanceRow&)>;

// Numeric sort keys; text keys (instance_type, family, gpu, region) are handled separately.
const std::vector<std::pair<std::string, SortKey>>& NumericKeys() {
  static const std::vector<std::pair<std::string, SortKey>> kKeys = {
      {"on_demand_usd_per_hour", [](const InstanceRow& r) { return r.on_demand_usd_per_hour; }},
      {"spot_usd_per_hour", [](const InstanceRow& r) { return r.spot_usd_per_hour; }},
      {"usd_per_gpu_hour", [](const InstanceRow& r) { return r.usd_per_gpu_hour; }},
      {"usd_per_bf16_tflop_hour", [](const InstanceRow& r) { return r.usd_per_bf16_tflop_hour; }},
      {"gpu_memory_gib_per_usd", [](const InstanceRow& r) { return r.gpu_memory_gib_per_usd; }},
      {"reserved_1y_no_upfront_usd_per_hour",
       [](const InstanceRow& r) -> std::optional<double> {
         if (!r.offer || !r.offer->reserved_1y_no_upfront) return std::nullopt;
         return r.offer->reserved_1y_no_upfront->usd_per_hour;
       }},
      {"gpus",
       [](const InstanceRow& r) -> std::optional<double> {
         return r.type->accelerator.device_equivalents();
       }},
      {"memory_gib_total",
       [](const InstanceRow& r) -> std::optional<double> { return TotalGib(*r.type); }},
      {"memory_mib_each",
       [](const InstanceRow& r) -> std::optional<double> {
         if (!r.type->accelerator.memory_mib_each) return std::nullopt;
         return *r.type->accelerator.memory_mib_each;
       }},
      {"vcpus", [](const InstanceRow& r) -> std::optional<double> { return r.type->vcpus; }},
      {"memory_gib",
       [](const InstanceRow& r) -> std::optional<double> {
         return static_cast<double>(r.type->memory_mib) / 1024;
       }},
      {"network_gbit_s", [](const InstanceRow& r) { return r.type->network_gbit_s; }},
      // The contract's name for the same Gbit/s (the JSON carries both).
      {"network_gbps", [](const InstanceRow& r) { return r.type->network_gbit_s; }},
      {"local_nvme_gb",
       [](const InstanceRow& r) -> std::optional<double> {
         if (!r.type->local_storage_gb) return std::nullopt;
         return *r.type->local_storage_gb;
       }},
      {"bf16_tflops",
       [](const InstanceRow& r) -> std::optional<double> {
         return r.gpu ? r.gpu->bf16_tflops : std::nullopt;
       }},
      {"memory_bw_gbyte_s",
       [](const InstanceRow& r) -> std::optional<double> {
         return r.gpu ? r.gpu->memory_bw_gbyte_s : std::nullopt;
       }},
      {"memory_bw_gbps",  // the contract's name for the same GB/s
       [](const InstanceRow& r) -> std::optional<double> {
         return r.gpu ? r.gpu->memory_bw_gbyte_s : std::nullopt;
       }},
      {"spot_interruption_band",
       [](const InstanceRow& r) -> std::optional<double> {
         if (!r.offer || !r.offer->spot_band) return std::nullopt;
         return r.offer->spot_band->index;
       }},
  };
  return kKeys;
}

std::string TextKey(const std::string& field, const InstanceRow& r) {
  if (field == "family") return r.type->family;
  if (field == "gpu") return r.type->accelerator.model;
  if (field == "region") return r.region;
  return r.type->name;
}

bool IsTextKey(const std::string& f) {
  return f == "instance_type" || f == "family" || f == "gpu" || f == "region";
}

void SortRows(std::vector<InstanceRow>* rows, const std::string& field, bool desc) {
  auto tie = [](const InstanceRow& a, const InstanceRow& b) {
    return std::tie(a.type->name, a.region) < std::tie(b.type->name, b.region);
  };
  if (IsTextKey(field)) {
    std::stable_sort(rows->begin(), rows->end(), [&](const InstanceRow& a, const InstanceRow& b) {
      std::string ka = TextKey(field, a), kb = TextKey(field, b);
      if (ka != kb) return desc ? ka > kb : ka < kb;
      return tie(a, b);
    });
    return;
  }
  const SortKey* key = nullptr;
  for (const auto& [name, k] : NumericKeys()) {
    if (name == field) key = &k;
  }
  // Amounts in different currencies are never ordered against each other: USD rows, then CNY.
  const bool money = field.find("usd") != std::string::npos;
  std::stable_sort(rows->begin(), rows->end(), [&](const InstanceRow& a, const InstanceRow& b) {
    if (money && a.currency != b.currency) return a.currency < b.currency;
    std::optional<double> ka = (*key)(a), kb = (*key)(b);
    if (ka.has_value() != kb.has_value()) return ka.has_value();  // unknowns last
    if (ka && *ka != *kb) return desc ? *ka > *kb : *ka < *kb;
    return tie(a, b);
  });
}

// Types shown in a region: the region knows them (offered, or priced there).
bool ListedIn(const RegionOffer* o) {
  return o && (o->offered.value_or(true) || o->on_demand.has_value());
}

// InstanceQuery::sort: "COLUMN", "COLUMN:asc" or "COLUMN:desc".
struct SortOrder {
  std::string column;
  bool descending = false;
};
Result<SortOrder> ParseSort(const std::string& sort) {
  SortOrder order;
  const size_t colon = sort.find(':');
  order.column = sort.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string dir = sort.substr(colon + 1);
    if (dir != "asc" && dir != "desc") {
      return Status::InvalidArgument("sort: expected FIELD[:asc|desc], got \"" + sort + "\"")
          .WithField("sort");
    }
    order.descending = dir == "desc";
  }
  const auto& fields = InstanceSortFields();
  if (std::find(fields.begin(), fields.end(), order.column) == fields.end()) {
    std::string hint = DidYouMean(order.column, fields);
    return Status::InvalidArgument("sort: unknown column \"" + order.column + "\"" +
                                   (hint.empty() ? "" : "; " + hint))
        .WithField("sort");
  }
  return order;
}

Status CheckQuery(const Catalog& c, const InstanceQuery& q, std::vector<const GpuSpec*>* gpus) {
  if (q.region != "all") GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, q.region, "region"));
  for (const std::string& g : q.gpus) {
    Result<std::vector<const GpuSpec*>> specs = ResolveGpuFamily(c, g);
    if (!specs.ok()) return specs.status().WithPrefix("gpu").WithField("gpu");
    gpus->insert(gpus->end(), specs->begin(), specs->end());
  }
  std::vector<std::string> families;
  for (const InstanceType& t : c.instance_types()) families.push_back(t.family);
  std::sort(families.begin(), families.end());
  families.erase(std::unique(families.begin(), families.end()), families.end());
  for (const std::string& f : q.families) {
    if (!std::binary_search(families.begin(), families.end(), ToLower(f))) {
      std::string hint = DidYouMean(f, families);
      return Status::InvalidArgument("family: unknown instance family \"" + f + "\"" +
                                     (hint.empty() ? "" : "; " + hint))
          .WithField("family");
    }
  }
  Result<SortOrder> order = ParseSort(q.sort);
  if (!order.ok()) return order.status();
  if (q.min_gpus && q.max_gpus && *q.min_gpus > *q.max_gpus) {
    return Status::InvalidArgument("min-gpus: greater than max-gpus").WithField("min-gpus");
  }
  return Status::OK();
}

bool Matches(const InstanceQuery& q, const std::vector<const GpuSpec*>& gpus,
             const InstanceRow& r) {
  const InstanceType& t = *r.type;
  const Accelerator& a = t.accelerator;
  if (t.retired && !q.include_retired) return false;
  if (q.gpus_only && a.kind != AcceleratorKind::kGpu) return false;
  if (!gpus.empty() && std::find(gpus.begin(), gpus.end(), r.gpu) == gpus.end()) return false;
  if (!q.families.empty() &&
      std::none_of(q.families.begin(), q.families.end(),
                   [&](const std::string& f) { return ToLower(f) == t.family; })) {
    return false;
  }
  double n = a.device_equivalents();
  if (q.min_gpus && n < *q.min_gpus) return false;
  if (q.max_gpus && n > *q.max_gpus) return false;
  if (q.min_gpu_memory_gib &&
      (!a.memory_mib_each || *a.memory_mib_each / 1024.0 < *q.min_gpu_memory_gib)) {
    return false;
  }
  if (q.min_total_gpu_memory_gib && TotalGib(t) < *q.min_total_gpu_memory_gib) return false;
  if (q.efa_only && !t.efa) return false;
  if (q.max_price_usd) {
    // In the currency of the region's prices (CNY/h in AWS China); with region all, USD: a USD
    // limit says nothing of a CNY price, so those rows are left out.
    const Currency limit = q.region == "all" ? Currency::kUsd : PartitionOf(q.region).currency;
    if (r.currency != limit) return false;
    std::optional<double> p =
        q.purchase == PurchaseKind::kSpot ? r.spot_usd_per_hour : r.on_demand_usd_per_hour;
    if (!p || *p > *q.max_price_usd) return false;
  }
  if (q.purchase == PurchaseKind::kSpot && !r.spot_usd_per_hour && !t.HasUsageClass("spot")) {
    return false;
  }
  return true;
}

// A model id without its memory-variant suffix: "V100-32GB" -> "V100", "A100-40GB" -> "A100";
// other ids are their own family ("H100", "A10G").
std::string GpuFamily(const std::string& model) {
  size_t dash = model.rfind('-');
  if (dash == std::string::npos || dash + 3 > model.size()) return model;
  std::string_view suffix = std::string_view(model).substr(dash + 1);
  if (ToLower(suffix.substr(suffix.size() - 2)) != "gb") return model;
  std::string_view digits = suffix.substr(0, suffix.size() - 2);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return model;
  }
  return model.substr(0, dash);
}

std::string DigitsOf(std::string_view s) {
  std::string d;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') d.push_back(ch);
  }
  return d;
}

// Whether `o` prices the type the way it is sold: on demand, or for an UltraServer (sold only
// whole, through Capacity Blocks) as a Capacity Block.
bool PricedAsSold(const InstanceType& t, const RegionOffer& o) {
  return o.on_demand.has_value() || (t.ultraserver() && o.capacity_block.has_value());
}

// A type is listed in a region that prices it on demand (an UltraServer: as a Capacity Block).
std::vector<std::string> PricedRegions(const InstanceType& t) {
  std::vector<std::string> out;
  for (const RegionOffer& o : t.regions) {
    if (PricedAsSold(t, o) && o.offered.value_or(true)) out.push_back(o.region);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& InstanceSortFields() {
  static const std::vector<std::string> kFields = [] {
    std::vector<std::string> f = {"instance_type", "family", "gpu", "region"};
    for (const auto& [name, key] : NumericKeys()) f.push_back(name);
    return f;
  }();
  return kFields;
}

InstanceRow MakeInstanceRow(const Catalog& catalog, const InstanceType& type,
                            const std::string& region) {
  InstanceRow r;
  r.type = &type;
  r.region = region;
  r.offer = type.FindRegion(region);
  r.gpu = catalog.GpuOf(type);
  r.currency = PartitionOf(region).currency;
  if (r.offer && r.offer->on_demand) r.on_demand_usd_per_hour = r.offer->on_demand->usd_per_hour;
  if (r.offer && r.offer->spot) r.spot_usd_per_hour = r.offer->spot->usd_per_hour;
  double devices = type.accelerator.device_equivalents();
  if (r.on_demand_usd_per_hour && devices > 0) {
    double od = *r.on_demand_usd_per_hour;
    r.usd_per_gpu_hour = od / devices;
    if (r.gpu && r.gpu->bf16_tflops && *r.gpu->bf16_tflops > 0) {
      r.usd_per_bf16_tflop_hour = od / (devices * *r.gpu->bf16_tflops);
    }
    if (od > 0 && type.accelerator.memory_mib_total) r.gpu_memory_gib_per_usd = TotalGib(type) / od;
  }
  return r;
}

Result<std::vector<InstanceRow>> QueryInstances(const Catalog& c, const InstanceQuery& q) {
  std::vector<const GpuSpec*> gpus;
  GPUADVISOR_RETURN_IF_ERROR(CheckQuery(c, q, &gpus));
  std::vector<InstanceRow> rows;
  for (const InstanceType& t : c.instance_types()) {
    if (q.region == "all") {
      for (const RegionOffer& o : t.regions) {
        if (!ListedIn(&o)) continue;
        InstanceRow r = MakeInstanceRow(c, t, o.region);
        if (Matches(q, gpus, r)) rows.push_back(r);
      }
    } else if (ListedIn(t.FindRegion(q.region))) {
      InstanceRow r = MakeInstanceRow(c, t, q.region);
      if (Matches(q, gpus, r)) rows.push_back(r);
    }
  }
  const SortOrder order = *ParseSort(q.sort);  // checked above
  SortRows(&rows, order.column, order.descending);
  if (q.limit && rows.size() > *q.limit) rows.resize(*q.limit);
  return rows;
}

namespace {

// The family of a well-formed type name ("m5" of "m5.large"), or "" when `name` is not
// FAMILY.SIZE.
std::string_view FamilyOf(std::string_view name) {
  const size_t dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot + 1 == name.size() ||
      name.find('.', dot + 1) != std::string_view::npos) {
    return {};
  }
  return name.substr(0, dot);
}

}  // namespace

Result<const InstanceType*> ResolveInstanceType(const Catalog& c, std::string_view name) {
  if (const InstanceType* t = c.FindInstanceType(name)) return t;
  // Characters no AWS name has, or longer than any (util/aws_names.h): say what one looks like,
  // and compare nothing. ("h100", "p5" still get suggestions below.)
  const std::string lower = ToLower(Trim(name));
  if (lower.size() > 64 || !std::all_of(lower.begin(), lower.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';
      })) {
    return Status::InvalidArgument("type: expected " + InstanceTypeNameProblem(name))
        .WithField("type");
  }
  // A type of a family the catalog does not hold (m5.large, c7i.4xlarge) is not a misspelt
  // accelerator type: say so rather than suggest the nearest GPU type.
  const std::string family = ToLower(FamilyOf(Trim(name)));
  if (!family.empty() &&
      std::none_of(c.instance_types().begin(), c.instance_types().end(),
                   [&](const InstanceType& t) { return ToLower(t.family) == family; })) {
    return Status::NotFound("\"" + std::string(Trim(name)) +
                            "\" is not a GPU or ML-accelerator instance type: the catalog holds "
                            "accelerator types only and no " +
                            family + " family (`gpuadvisor instances` lists them)")
        .WithField("type");
  }
  std::string hint = DidYouMean(name, c.InstanceTypeNames());
  return Status::NotFound("unknown instance type \"" + std::string(name) + "\"" +
                          (hint.empty() ? "" : "; " + hint))
      .WithField("type");
}

Result<const GpuSpec*> ResolveGpu(const Catalog& c, std::string_view name) {
  if (const GpuSpec* g = c.FindGpu(name)) return g;
  std::string hint = GpuSuggestion(c, name);
  return Status::InvalidArgument("unknown GPU \"" + std::string(name) + "\"" +
                                 (hint.empty() ? "; see `gpuadvisor gpus`" : "; " + hint))
      .WithField("gpu");
}

Result<std::vector<const GpuSpec*>> ResolveGpuFamily(const Catalog& c, std::string_view name) {
  const std::string n = NormalizeName(name);
  std::vector<const GpuSpec*> out;
  for (const GpuSpec& g : c.gpus()) {
    if (NormalizeName(g.model) == n) return std::vector<const GpuSpec*>{&g};
  }
  for (const GpuSpec& g : c.gpus()) {
    bool family = NormalizeName(GpuFamily(g.model)) == n;
    for (const std::string& a : g.aws_names) family |= NormalizeName(a) == n;
    if (family) out.push_back(&g);
  }
  if (!out.empty()) return out;
  Result<const GpuSpec*> one = ResolveGpu(c, name);
  if (!one.ok()) return one.status();
  return std::vector<const GpuSpec*>{*one};
}

std::string GpuSuggestion(const Catalog& c, std::string_view name) {
  const std::string n = NormalizeName(name);
  if (n.size() > kMaxSuggestChars) return "";  // edit distance is quadratic
  const std::string digits = DigitsOf(n);
  // Score: twice the edit distance, plus one when the model number differs, so at equal distance
  // the same number wins: A10 -> A10G (a variant), not A100 (another GPU).
  std::vector<std::pair<size_t, std::string>> scored;
  auto consider = [&](const std::string& candidate) {
    const std::string cn = NormalizeName(candidate);
    const size_t d = EditDistance(n, cn);
    // Close in spelling, or the typed name is a prefix of the candidate ("rtx pro" ->
    // RTX-PRO-4500).
    if (d > std::max<size_t>(2, n.size() / 3) && !(n.size() >= 2 && StartsWith(cn, n))) return;
    scored.emplace_back(2 * d + (DigitsOf(cn) != digits ? 1 : 0), candidate);
  };
  for (const GpuSpec& g : c.gpus()) {
    consider(g.model);
    if (GpuFamily(g.model) != g.model) consider(GpuFamily(g.model));
  }
  if (scored.empty()) return "";
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> best;
  for (const auto& [score, candidate] : scored) {
    if (score != scored[0].first) break;
    if (std::find(best.begin(), best.end(), candidate) == best.end()) best.push_back(candidate);
  }
  std::string out = "did you mean ";
  for (size_t i = 0; i < best.size(); ++i) {
    out += (i ? (i + 1 == best.size() ? " or " : ", ") : "") + best[i];
  }
  return out + "?";
}

std::string RegionHint(const InstanceType& t, std::string_view region) {
  const RegionOffer* o = t.FindRegion(region);
  if (o && PricedAsSold(t, *o) && o->offered.value_or(true)) return "";
  std::string why =
      t.name +
      (o && o->offered.value_or(true) ? " has no on-demand price in " : " is not offered in ") +
      std::string(region);
  std::vector<std::string> priced = PricedRegions(t);
  if (priced.empty()) return why + "; no region in the catalog prices it";
  // The region's own partition first: another partition is another account and currency.
  const std::string_view home = PartitionOf(region).id;
  std::stable_partition(priced.begin(), priced.end(),
                        [&](const std::string& r) { return PartitionOf(r).id == home; });
  constexpr size_t kShown = 6;
  std::string list;
  for (size_t i = 0; i < priced.size() && i < kShown; ++i) list += (i ? ", " : "") + priced[i];
  if (priced.size() > kShown) list += " and " + std::to_string(priced.size() - kShown) + " more";
  return why + "; it is offered in " + list + " (try --region " + priced[0] + ")";
}

Status CheckRegion(const Catalog& c, std::string_view region, std::string_view what) {
  if (c.HasRegion(region)) return Status::OK();
  const std::string lower = ToLower(Trim(region));
  std::string problem;
  if (lower.size() > 32 || !std::all_of(lower.begin(), lower.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
      })) {
    // Characters no region code has: say what one looks like, and compare nothing.
    problem = "expected " + RegionCodeProblem(region);
  } else {
    const std::string hint = DidYouMean(region, c.regions());
    problem = "unknown region \"" + std::string(region) + "\"" + (hint.empty() ? "" : "; " + hint);
  }
  return Status::InvalidArgument(std::string(what) + ": " + problem).WithField(OptionName(what));
}

std::optional<int> DaysBetween(const std::string& from, const std::string& to) {
  const std::optional<int64_t> a = ParseIsoDatePrefix(from), b = ParseIsoDatePrefix(to);
  if (!a || !b) return std::nullopt;
  return static_cast<int>(*b - *a);
}

std::string TodayUtc() { return FormatIsoDate(UnixDays(UnixNow())); }

std::string NowUtcIso() { return FormatIsoUtc(UnixNow()); }

}  // namespace gpuadvisor
