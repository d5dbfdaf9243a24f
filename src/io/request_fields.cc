#include "io/request_fields.h"

#include <algorithm>
#include <cmath>

#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor {
namespace {

std::string Quoted(std::string_view v) { return "\"" + std::string(v) + "\""; }

// "true", "1", "yes", "on" or "" (a bare flag / query parameter) -> true.
Status ParseBool(std::string_view key, std::string_view value, bool* out) {
  const std::string v = ToLower(Trim(value));
  if (v.empty() || v == "true" || v == "1" || v == "yes" || v == "on") {
    *out = true;
  } else if (v == "false" || v == "0" || v == "no" || v == "off") {
    *out = false;
  } else {
    return Status::InvalidArgument(std::string(key) + ": expected true or false, got " +
                                   Quoted(value));
  }
  return Status::OK();
}

Status ParseNonNegative(std::string_view key, std::string_view value, double* out) {
  Result<double> v = ParseSiNumber(Trim(value), key);
  if (!v.ok()) return v.status();
  if (!std::isfinite(*v) || *v < 0) {
    return Status::InvalidArgument(std::string(key) + ": expected a non-negative number, got " +
                                   Quoted(value));
  }
  *out = *v;
  return Status::OK();
}

Status ParseOptional(std::string_view key, std::string_view value, std::optional<double>* out) {
  double v = 0;
  GPUADVISOR_RETURN_IF_ERROR(ParseNonNegative(key, value, &v));
  *out = v;
  return Status::OK();
}

// A whole number in [lo, hi].
Status ParseCount(std::string_view key, std::string_view value, int64_t lo, int64_t hi, int* out) {
  Result<double> v = ParseSiNumber(Trim(value), key);
  if (!v.ok()) return v.status();
  if (!std::isfinite(*v) || *v != std::floor(*v) || *v < static_cast<double>(lo) ||
      *v > static_cast<double>(hi)) {
    return Status::InvalidArgument(std::string(key) + ": expected a whole number from " +
                                   std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                                   Quoted(value));
  }
  *out = static_cast<int>(*v);
  return Status::OK();
}

Status ParseDuration(std::string_view key, std::string_view value, double* seconds) {
  Result<double> v = ParseDurationSeconds(Trim(value), key);
  if (!v.ok()) return v.status();
  *seconds = *v;
  return Status::OK();
}

// "a, b,,c" appended to *out as {"a", "b", "c"}.
void AppendList(std::string_view value, std::vector<std::string>* out) {
  for (std::string_view item : Split(value, ',')) {
    if (!Trim(item).empty()) out->emplace_back(Trim(item));
  }
}

Status UnknownKey(std::string_view key, const std::vector<std::string>& keys) {
  const std::string hint = DidYouMean(CanonicalOptionKey(key), keys);
  return Status::InvalidArgument("unknown parameter " + Quoted(key) +
                                 (hint.empty() ? "" : "; " + hint));
}

Status SetSort(InstanceQuery* q, std::string_view key, std::string_view value) {
  std::string s(Trim(value));
  const size_t colon = s.find(':');
  if (colon != std::string::npos) {
    const std::string dir = s.substr(colon + 1);
    if (dir != "asc" && dir != "desc") {
      return Status::InvalidArgument(std::string(key) + ": expected FIELD[:asc|desc], got " +
                                     Quoted(value));
    }
    q->sort_descending = dir == "desc";
    s.resize(colon);
  }
  q->sort = s;
  return Status::OK();
}

}  // namespace

std::string CanonicalOptionKey(std::string_view key) {
  while (!key.empty() && key.front() == '-') key.remove_prefix(1);
  std::string out = ToLower(Trim(key));
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

bool HasOptionKey(const std::vector<std::string>& keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), CanonicalOptionKey(key)) != keys.end();
}

const std::vector<std::string>& InstanceQueryKeys() {
  static const std::vector<std::string> kKeys = {"region",
                                                 "gpu",
                                                 "family",
                                                 "min-gpus",
                                                 "max-gpus",
                                                 "min-gpu-memory",
                                                 "min-total-gpu-memory",
                                                 "max-price",
                                                 "purchase",
                                                 "efa",
                                                 "include-retired",
                                                 "gpus-only",
                                                 "sort",
                                                 "limit"};
  return kKeys;
}

Status SetInstanceQueryField(InstanceQuery* q, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  if (k == "region") {
    q->region = std::string(Trim(value));
  } else if (k == "gpu") {
    AppendList(value, &q->gpus);
  } else if (k == "family") {
    AppendList(value, &q->families);
  } else if (k == "min-gpus") {
    return ParseOptional(key, value, &q->min_gpus);
  } else if (k == "max-gpus") {
    return ParseOptional(key, value, &q->max_gpus);
  } else if (k == "min-gpu-memory") {
    return ParseOptional(key, value, &q->min_gpu_memory_gib);
  } else if (k == "min-total-gpu-memory") {
    return ParseOptional(key, value, &q->min_total_gpu_memory_gib);
  } else if (k == "max-price") {
    return ParseOptional(key, value, &q->max_price_usd);
  } else if (k == "purchase") {
    const std::string p = ToLower(Trim(value));
    if (p != "on-demand" && p != "spot") {
      return Status::InvalidArgument(std::string(key) + ": expected on-demand or spot, got " +
                                     Quoted(value));
    }
    q->purchase = p == "spot" ? Purchase::kSpot : Purchase::kOnDemand;
  } else if (k == "efa") {
    return ParseBool(key, value, &q->efa_only);
  } else if (k == "include-retired") {
    return ParseBool(key, value, &q->include_retired);
  } else if (k == "gpus-only") {
    return ParseBool(key, value, &q->gpus_only);
  } else if (k == "sort") {
    return SetSort(q, key, value);
  } else if (k == "limit") {
    int n = 0;
    GPUADVISOR_RETURN_IF_ERROR(ParseCount(key, value, 0, 1000000, &n));
    q->limit = static_cast<size_t>(n);
  } else {
    return UnknownKey(key, InstanceQueryKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& HardwareKeys() {
  static const std::vector<std::string> kKeys = {"instance", "count", "gpu", "gpus", "region"};
  return kKeys;
}

Status SetHardwareField(HardwareRequest* h, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  if (k == "instance") {
    h->instance_type = std::string(Trim(value));
  } else if (k == "count") {
    return ParseCount(key, value, 1, kMaxDevices, &h->instances);
  } else if (k == "gpu") {
    h->gpu = std::string(Trim(value));
  } else if (k == "gpus") {
    return ParseCount(key, value, 1, kMaxDevices, &h->gpus);
  } else if (k == "region") {
    h->region = std::string(Trim(value));
  } else {
    return UnknownKey(key, HardwareKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& RecommendKeys() {
  static const std::vector<std::string> kKeys = {
      "deadline", "budget",    "regions", "purchase",      "max-instances",
      "max-gpus", "objective", "top",     "allow-retired", "explain"};
  return kKeys;
}

namespace {

Status SetPurchaseList(RecommendRequest* r, std::string_view key, std::string_view value) {
  std::vector<std::string> items;
  AppendList(value, &items);
  for (const std::string& p : items) {
    const std::string name = ToLower(p);
    if (name == "on-demand" || name == "ondemand") {
      r->purchase.push_back(PurchaseKind::kOnDemand);
    } else if (name == "spot") {
      r->purchase.push_back(PurchaseKind::kSpot);
    } else if (name == "reserved" || name == "reserved-1y" || name == "reserved-1y-no-upfront") {
      r->purchase.push_back(PurchaseKind::kReserved1y);
    } else {
      return Status::InvalidArgument(std::string(key) +
                                     ": expected on-demand, spot or reserved-1y, got " + Quoted(p));
    }
  }
  return Status::OK();
}

}  // namespace

Status SetRecommendField(RecommendRequest* r, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  if (k == "deadline") {
    double seconds = 0;
    GPUADVISOR_RETURN_IF_ERROR(ParseDuration(key, value, &seconds));
    r->deadline_hours = seconds / 3600;
  } else if (k == "budget") {
    return ParseOptional(key, value, &r->budget_usd);
  } else if (k == "regions") {
    AppendList(value, &r->regions);
  } else if (k == "purchase") {
    return SetPurchaseList(r, key, value);
  } else if (k == "max-instances") {
    return ParseCount(key, value, 1, 1000000, &r->max_instances);
  } else if (k == "max-gpus") {
    return ParseCount(key, value, 1, 1000000, &r->max_gpus);
  } else if (k == "objective") {
    const std::string o = ToLower(Trim(value));
    if (o != "cost" && o != "time" && o != "balanced") {
      return Status::InvalidArgument(std::string(key) + ": expected cost, time or balanced, got " +
                                     Quoted(value));
    }
    r->objective = o == "time"       ? Objective::kTime
                   : o == "balanced" ? Objective::kBalanced
                                     : Objective::kCost;
  } else if (k == "top") {
    return ParseCount(key, value, 1, 1000, &r->top);
  } else if (k == "allow-retired") {
    return ParseBool(key, value, &r->allow_retired);
  } else if (k == "explain") {
    return ParseBool(key, value, &r->explain);
  } else {
    return UnknownKey(key, RecommendKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& UsageKeys() {
  static const std::vector<std::string> kKeys = {
      "hours-per-month",     "months",         "count",        "interruptible",
      "checkpoint-interval", "checkpoint-gib", "storage-gbps", "restart"};
  return kKeys;
}

Status SetUsageField(UsagePattern* u, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  if (k == "hours-per-month") return ParseNonNegative(key, value, &u->hours_per_month);
  if (k == "months") return ParseNonNegative(key, value, &u->months);
  if (k == "count") return ParseCount(key, value, 1, 100000, &u->instances);
  if (k == "interruptible") return ParseBool(key, value, &u->interruptible);
  if (k == "checkpoint-interval") return ParseDuration(key, value, &u->checkpoint_interval_s);
  if (k == "checkpoint-gib") return ParseNonNegative(key, value, &u->checkpoint_gib);
  if (k == "storage-gbps") return ParseNonNegative(key, value, &u->storage_gbps);
  if (k == "restart") return ParseDuration(key, value, &u->restart_s);
  return UnknownKey(key, UsageKeys());
}

}  // namespace gpuadvisor
