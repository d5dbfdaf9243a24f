// The contract's `estimate` JSON object (doc/formats.md, "estimate"). Unknown / non-applicable =
// null.
#include "workload/estimate_json.h"

#include <nlohmann/json.hpp>

#include "gpuadvisor/estimate.h"

namespace gpuadvisor {
namespace {

using json = nlohmann::ordered_json;

json Opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json Opt(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }
json Str(const std::string& v) { return v.empty() ? json(nullptr) : json(v); }

json HardwareJson(const Estimate& e) {
  return {{"gpu", e.gpu_model},
          {"gpus", e.gpus},
          {"device_fraction", e.device_fraction},
          {"gpus_per_node", e.gpus_per_node},
          {"instance_type", e.instance_type.empty() ? json(nullptr) : json(e.instance_type)},
          {"instances", e.instances > 0 ? json(e.instances) : json(nullptr)}};
}

json ParallelismJson(const Estimate& e) {
  const ParallelismChoice& p = e.parallelism;
  if (!e.parallelism_applies) {
    return {{"tp", nullptr},
            {"pp", nullptr},
            {"dp", nullptr},
            {"zero", nullptr},
            {"micro_batch", nullptr}};
  }
  const bool serve = e.task == TaskKind::kServe;
  return {{"tp", p.tp},
          {"pp", p.pp},
          {"dp", p.dp},
          {"zero", serve ? json(nullptr) : json(p.zero)},
          {"micro_batch", p.micro_batch},
          {"context_parallel", p.cp},
          {"virtual_pp", p.virtual_pp},
          {"sequence_parallel", p.sequence_parallel},
          {"recompute", serve ? json(nullptr) : json(RecomputeName(p.recompute))},
          {"framework", serve ? json(nullptr) : json(FrameworkName(p.framework))},
          {"chosen", p.chosen}};
}

json MemoryJson(const MemoryEstimate& m) {
  return {{"weights_gib", Opt(m.weights_gib)},
          {"gradients_gib", Opt(m.gradients_gib)},
          {"optimizer_gib", Opt(m.optimizer_gib)},
          {"activations_gib", Opt(m.activations_gib)},
          {"kv_cache_gib", Opt(m.kv_cache_gib)},
          {"kv_cache_kib_per_token", Opt(m.kv_cache_kib_per_token)},
          {"working_set_gib", Opt(m.working_set_gib)},
          {"overhead_gib", Opt(m.overhead_gib)},
          {"allocated_gib", Opt(m.allocated_gib)},
          {"reserved_gib", Opt(m.reserved_gib)},
          {"total_gib", m.total_gib},
          {"device_gib", m.device_gib},
          {"fits", m.fits}};
}

json PerformanceJson(const PerformanceEstimate& p) {
  return {{"tokens_per_s", Opt(p.tokens_per_s)},
          {"tokens_per_s_per_gpu", Opt(p.tokens_per_s_per_gpu)},
          {"tflops_per_gpu", Opt(p.tflops_per_gpu)},
          {"mfu", Opt(p.mfu)},
          {"hfu", Opt(p.hfu)},
          {"step_time_s", Opt(p.step_time_s)},
          {"images_per_s", Opt(p.images_per_s)},
          {"ttft_ms", Opt(p.ttft_ms)},
          {"itl_ms", Opt(p.itl_ms)},
          {"e2e_latency_ms", Opt(p.e2e_latency_ms)},
          {"e2e_p95_ms", Opt(p.e2e_p95_ms)},
          {"requests_per_s", Opt(p.requests_per_s)},
          {"max_concurrency", Opt(p.max_concurrency)},
          {"mbu", Opt(p.mbu)},
          {"streams_per_gpu", Opt(p.streams_per_gpu)},
          {"sessions_per_gpu", Opt(p.sessions_per_gpu)},
          {"scan_time_s", Opt(p.scan_time_s)},
          {"sustained_tflops", Opt(p.sustained_tflops)}};
}

json CostJson(const CostEstimate& c) {
  // Amounts in the region's currency (CNY in AWS China), keys spelled by it.
  const Currency cur = PartitionOf(c.region).currency;
  return {{"currency", c.region.empty() ? json(nullptr) : json(CurrencyCode(cur))},
          {MoneyKey("on_demand_usd", cur), Opt(c.on_demand_usd)},
          {MoneyKey("spot_usd", cur), Opt(c.spot_usd)},
          {MoneyKey("reserved_1y_usd", cur), Opt(c.reserved_1y_usd)},
          {MoneyKey("on_demand_usd_per_hour", cur), Opt(c.on_demand_usd_per_hour)},
          {MoneyKey("spot_usd_per_hour", cur), Opt(c.spot_usd_per_hour)},
          {MoneyKey("reserved_1y_usd_per_hour", cur), Opt(c.reserved_1y_usd_per_hour)},
          {"region", Str(c.region)},
          {"on_demand_source", Str(c.on_demand_from.source)},
          {"on_demand_date", Str(c.on_demand_from.date)},
          {"spot_source", Str(c.spot_from.source)},
          {"spot_date", Str(c.spot_from.date)},
          {"reserved_1y_source", Str(c.reserved_1y_from.source)},
          {"reserved_1y_date", Str(c.reserved_1y_from.date)},
          {"spot_estimated", c.spot_usd_per_hour ? json(c.spot_estimated) : json(nullptr)},
          {"spot_interruption_band", Str(c.spot_interruption_band)}};
}

// The band of the primary metric carried to the figures that follow from it: a longer run costs
// proportionally more; a slower run has proportionally lower throughput (and longer latency).
json BandsJson(const Estimate& e) {
  json bands = json::array();
  const MemoryEstimate& m = e.memory;
  const bool memory_band = m.band_low > 0 || m.band_high > 0;
  auto add_memory = [&] {
    if (!memory_band) return;
    bands.push_back({{"metric", "memory.total_gib"},
                     {"low", m.total_gib * (1 - m.band_low)},
                     {"high", m.total_gib * (1 + m.band_high)}});
  };
  if (!e.uncertainty_metric || !e.uncertainty_low) {
    add_memory();
    return bands;
  }
  const double lo = e.band_low, hi = e.band_high;
  auto add = [&](const char* metric, const std::optional<double>& v, bool inverse) {
    if (!v) return;
    const double a = inverse ? *v / (1 + hi) : *v * (1 - lo);
    const double b = inverse ? (lo < 1 ? *v / (1 - lo) : *v * 1e9) : *v * (1 + hi);
    bands.push_back({{"metric", metric}, {"low", a}, {"high", b}});
  };
  const std::string primary = e.uncertainty_metric;
  bands.push_back(
      {{"metric", primary}, {"low", *e.uncertainty_low}, {"high", *e.uncertainty_high}});
  const PerformanceEstimate& p = e.performance;
  if (primary == "time.hours") {
    add("time.gpu_hours", e.gpu_hours, false);
    const Currency cur = PartitionOf(e.cost.region).currency;
    add(("cost." + MoneyKey("on_demand_usd", cur)).c_str(), e.cost.on_demand_usd, false);
    add(("cost." + MoneyKey("spot_usd", cur)).c_str(), e.cost.spot_usd, false);
    add(("cost." + MoneyKey("reserved_1y_usd", cur)).c_str(), e.cost.reserved_1y_usd, false);
    add("performance.tokens_per_s", p.tokens_per_s, true);
    add("performance.images_per_s", p.images_per_s, true);
  } else if (primary == "performance.tokens_per_s") {
    add("performance.requests_per_s", p.requests_per_s, false);
    add("performance.itl_ms", p.itl_ms, true);
    add("performance.ttft_ms", p.ttft_ms, true);
  }
  add_memory();
  return bands;
}

}  // namespace

nlohmann::ordered_json EstimateToJson(const Estimate& e) {
  json out;
  out["task"] = TaskKindName(e.task);
  out["precision"] = PrecisionApplies(e.task) ? json(PrecisionName(e.precision)) : json(nullptr);
  out["model"] = {{"name", Str(e.model_name)},
                  {"params_total", Opt(e.params_total)},
                  {"params_active", Opt(e.params_active)}};
  out["hardware"] = HardwareJson(e);
  out["parallelism"] = ParallelismJson(e);
  out["memory"] = MemoryJson(e.memory);
  out["performance"] = PerformanceJson(e.performance);
  out["flops"] = {{"total", Opt(e.flops_total)}};
  out["checkpoint_gib"] = Opt(e.checkpoint_gib);
  out["time"] = {{"hours", Opt(e.hours)}, {"gpu_hours", Opt(e.gpu_hours)}};
  out["cost"] = CostJson(e.cost);
  out["targets"] = {{"demand_met", e.demand_met},
                    {"slo_met", e.slo_met},
                    {"service", e.service},
                    {"devices_needed", Opt(e.devices_needed)},
                    {"instances_needed", Opt(e.instances_needed)}};
  out["uncertainty"] = {
      {"low", Opt(e.uncertainty_low)},
      {"high", Opt(e.uncertainty_high)},
      {"metric", e.uncertainty_metric ? json(e.uncertainty_metric) : json(nullptr)},
      {"coverage", Opt(e.band_coverage)},
      {"bands", BandsJson(e)}};
  out["confidence"] = {{"grade", ConfidenceName(e.confidence)}, {"basis", Str(e.confidence_basis)}};
  out["assumptions"] = e.assumptions;
  return out;
}

}  // namespace gpuadvisor
