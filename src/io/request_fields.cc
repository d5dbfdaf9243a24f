#include "io/request_fields.h"

#include <algorithm>
#include <cmath>

#include "util/numbers.h"
#include "util/strings.h"

namespace gpuadvisor {
namespace {

std::string Quoted(std::string_view v) { return "\"" + std::string(v) + "\""; }

// "true", "1", "yes", "on" or "" (a bare query parameter) -> true.
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

// A whole number in [lo, hi] (JSON bodies may send 4 or 4.0).
Status ParseCount(std::string_view key, std::string_view value, int lo, int hi, int* out) {
  Result<double> v = ParseSiNumber(Trim(value), key);
  if (!v.ok()) return v.status();
  if (!std::isfinite(*v) || *v != std::floor(*v) || *v < lo || *v > hi) {
    return Status::InvalidArgument(std::string(key) + ": expected a whole number from " +
                                   std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                                   Quoted(value));
  }
  *out = static_cast<int>(*v);
  return Status::OK();
}

void AppendList(std::string_view value, std::vector<std::string>* out) {
  for (std::string_view item : Split(value, ',')) {
    if (!Trim(item).empty()) out->emplace_back(Trim(item));
  }
}

// Appends to a comma-separated list held as text.
void AppendText(std::string_view value, std::string* out) {
  if (Trim(value).empty()) return;
  if (!out->empty()) *out += ',';
  *out += std::string(Trim(value));
}

Status UnknownKey(std::string_view key, const std::vector<std::string>& keys) {
  // No suggestion for a key far longer than any option (edit distance is quadratic).
  const std::string hint = key.size() > 64 ? "" : DidYouMean(CanonicalOptionKey(key), keys);
  return Status::InvalidArgument("unknown parameter " + Quoted(key) +
                                 (hint.empty() ? "" : "; " + hint));
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

const std::vector<std::string>& InstancesArgKeys() {
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

Status SetInstancesArg(InstancesArgs* a, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  const std::string v(Trim(value));
  if (k == "region") {
    a->region = v;
  } else if (k == "gpu") {
    AppendList(v, &a->gpus);
  } else if (k == "family") {
    AppendList(v, &a->families);
  } else if (k == "min-gpus") {
    a->min_gpus = v;
  } else if (k == "max-gpus") {
    a->max_gpus = v;
  } else if (k == "min-gpu-memory") {
    a->min_gpu_memory = v;
  } else if (k == "min-total-gpu-memory") {
    a->min_total_gpu_memory = v;
  } else if (k == "max-price") {
    a->max_price = v;
  } else if (k == "purchase") {
    a->purchase = v;
  } else if (k == "efa") {
    return ParseBool(key, value, &a->efa);
  } else if (k == "include-retired") {
    return ParseBool(key, value, &a->include_retired);
  } else if (k == "gpus-only") {
    return ParseBool(key, value, &a->gpus_only);
  } else if (k == "sort") {
    a->sort = v;
  } else if (k == "limit") {
    a->limit = v;
  } else {
    return UnknownKey(key, InstancesArgKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& HardwareArgKeys() {
  static const std::vector<std::string> kKeys = {"instance", "count", "gpu", "gpus", "region"};
  return kKeys;
}

Status SetHardwareArg(HardwareRequest* h, std::string_view key, std::string_view value) {
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
    return UnknownKey(key, HardwareArgKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& RecommendArgKeys() {
  static const std::vector<std::string> kKeys = {
      "deadline", "budget",    "regions", "purchase",      "max-instances",
      "max-gpus", "objective", "top",     "allow-retired", "explain"};
  return kKeys;
}

Status SetRecommendArg(RecommendArgs* a, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  const std::string v(Trim(value));
  if (k == "deadline") {
    a->deadline = v;
  } else if (k == "budget") {
    a->budget = v;
  } else if (k == "regions") {
    AppendText(v, &a->regions);
  } else if (k == "purchase") {
    AppendText(v, &a->purchase);
  } else if (k == "max-instances") {
    a->max_instances = v;
  } else if (k == "max-gpus") {
    a->max_gpus = v;
  } else if (k == "objective") {
    a->objective = v;
  } else if (k == "top") {
    a->top = v;
  } else if (k == "allow-retired") {
    return ParseBool(key, value, &a->allow_retired);
  } else if (k == "explain") {
    return ParseBool(key, value, &a->explain);
  } else {
    return UnknownKey(key, RecommendArgKeys());
  }
  return Status::OK();
}

const std::vector<std::string>& UsageArgKeys() {
  static const std::vector<std::string> kKeys = {
      "hours-per-month",     "months",         "count",        "interruptible",
      "checkpoint-interval", "checkpoint-gib", "storage-gbps", "restart"};
  return kKeys;
}

Status SetUsageArg(UsageArgs* a, std::string_view key, std::string_view value) {
  const std::string k = CanonicalOptionKey(key);
  const std::string v(Trim(value));
  if (k == "hours-per-month") {
    a->hours_per_month = v;
  } else if (k == "months") {
    a->months = v;
  } else if (k == "count") {
    a->count = v;
  } else if (k == "interruptible") {
    return ParseBool(key, value, &a->interruptible);
  } else if (k == "checkpoint-interval") {
    a->checkpoint_interval = v;
  } else if (k == "checkpoint-gib") {
    a->checkpoint_gib = v;
  } else if (k == "storage-gbps") {
    a->storage_gbps = v;
  } else if (k == "restart") {
    a->restart = v;
  } else {
    return UnknownKey(key, UsageArgKeys());
  }
  return Status::OK();
}

}  // namespace gpuadvisor
