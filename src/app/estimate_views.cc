#include <cmath>
#include <functional>

#include "app/catalog_views.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// Adds "name | value" rows, skipping values that do not apply.
class Rows {
 public:
  explicit Rows(Table* t) : t_(t) {}
  void Text(const std::string& name, const std::string& value) { t_->AddRow({name, value}); }
  void Num(const std::string& name, const std::optional<double>& v, int decimals) {
    if (v) t_->AddRow({name, FormatFixed(*v, decimals)});
  }

 private:
  Table* t_;
};

// Decimals that keep three significant figures for a positive value.
int Decimals(double v) {
  const double a = std::fabs(v);
  return a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
}

std::string Compact(double v) {
  const char* units[] = {"", "k", "M", "B", "T"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 4) {
    v /= 1000;
    ++i;
  }
  return FormatFixed(v, Decimals(v)) + units[i];
}

std::string ParallelismLine(const Estimate& e) {
  const ParallelismChoice& p = e.parallelism;
  std::string s = "TP " + std::to_string(p.tp) + ", PP " + std::to_string(p.pp) + ", DP " +
                  std::to_string(p.dp);
  if (e.task != TaskKind::kServe) {
    s += ", ZeRO " + std::to_string(p.zero) + ", micro-batch " + std::to_string(p.micro_batch) +
         ", recompute " + RecomputeName(p.recompute);
  }
  if (p.cp > 1) s += ", CP " + std::to_string(p.cp);
  if (p.virtual_pp > 1) s += ", virtual PP " + std::to_string(p.virtual_pp);
  if (p.sequence_parallel) s += ", sequence parallel";
  return s + (p.chosen ? " (chosen by the estimator)" : "");
}

void MemoryRows(const MemoryEstimate& m, Rows* r) {
  r->Num("weights (GiB/device)", m.weights_gib, 2);
  r->Num("gradients (GiB/device)", m.gradients_gib, 2);
  r->Num("optimizer states (GiB/device)", m.optimizer_gib, 2);
  r->Num("activations (GiB/device)", m.activations_gib, 2);
  r->Num("KV cache (GiB/device)", m.kv_cache_gib, 2);
  r->Num("KV cache per token, whole model (KiB)", m.kv_cache_kib_per_token, 1);
  r->Num("working set (GiB/device)", m.working_set_gib, 2);
  r->Num("overhead (GiB/device)", m.overhead_gib, 2);
  r->Num("peak allocated, tensors (GiB/device)", m.allocated_gib, 2);
  r->Num("peak reserved, allocator (GiB/device)", m.reserved_gib, 2);
  r->Text("total / usable (GiB/device)", FormatFixed(m.total_gib, 2) + " / " +
                                             FormatFixed(m.device_gib, 2) +
                                             (m.fits ? "  fits" : "  DOES NOT FIT"));
}

void PerformanceRows(const PerformanceEstimate& p, Rows* r) {
  r->Num("tokens/s (all devices)", p.tokens_per_s, 0);
  r->Num("tokens/s per device", p.tokens_per_s_per_gpu, 0);
  r->Num("model TFLOP/s per device", p.tflops_per_gpu, 1);
  if (p.mfu) r->Text("MFU (%)", FormatFixed(*p.mfu * 100, 1));
  if (p.mbu) r->Text("MBU, decode (%)", FormatFixed(*p.mbu * 100, 1));
  r->Num("step time (s)", p.step_time_s, 3);
  if (p.images_per_s) r->Num("images/s", p.images_per_s, Decimals(*p.images_per_s));
  r->Num("TTFT (ms)", p.ttft_ms, 1);
  r->Num("inter-token latency (ms)", p.itl_ms, 2);
  r->Num("end-to-end latency (ms)", p.e2e_latency_ms, 0);
  r->Num("end-to-end latency p95 (ms)", p.e2e_p95_ms, 1);
  r->Num("requests/s", p.requests_per_s, 2);
  r->Num("max concurrent requests (KV capacity)", p.max_concurrency, 0);
  r->Num("streams per GPU", p.streams_per_gpu, 0);
  r->Num("sessions per GPU", p.sessions_per_gpu, 0);
  r->Num("one scan (s)", p.scan_time_s, 2);
  r->Num("sustained TFLOP/s (all devices)", p.sustained_tflops, 1);
}

void CostRows(const CostEstimate& c, Rows* r) {
  auto row = [&](const char* name, const std::optional<double>& total,
                 const std::optional<double>& rate, const Provenance& from, const char* extra) {
    if (!rate) return;
    const Currency cur = PartitionOf(c.region).currency;
    std::string v = total ? FormatMoney(cur, *total, *total >= 100 ? 0 : 2) + " at " : "";
    v += FormatMoney(cur, *rate, 2) + "/h";
    if (!from.source.empty()) v += "  [" + from.source + ", " + from.date + "]";
    r->Text(std::string(name) + extra, v);
  };
  const std::string region = c.region.empty() ? "" : " " + c.region;
  row("cost on-demand", c.on_demand_usd, c.on_demand_usd_per_hour, c.on_demand_from,
      region.c_str());
  const std::string spot =
      region + (c.spot_estimated ? " (estimated)" : "") +
      (c.spot_interruption_band.empty() ? ""
                                        : " interruptions " + c.spot_interruption_band + "/month");
  row("cost spot", c.spot_usd, c.spot_usd_per_hour, c.spot_from, spot.c_str());
  row("cost 1y reserved, no upfront", c.reserved_1y_usd, c.reserved_1y_usd_per_hour,
      c.reserved_1y_from, region.c_str());
}

}  // namespace

std::string AssumptionsText(const Estimate& e) {
  std::string out = "\nAssumptions:\n";
  for (const std::string& a : e.assumptions) out += "  - " + a + "\n";
  return out;
}

std::string HardwareLine(const Estimate& e) {
  std::string s = e.device_fraction < 1
                      ? FormatFixed(e.device_fraction, 3) + " of one " + e.gpu_model
                      : std::to_string(e.gpus) + " x " + e.gpu_model;
  if (!e.instance_type.empty()) {
    s += " (" + std::to_string(e.instances) + " x " + e.instance_type + ")";
  }
  if (e.gpus > e.gpus_per_node) s += ", " + std::to_string(e.gpus_per_node) + " per node";
  return s;
}

Table EstimateTable(const Estimate& e, bool with_assumptions) {
  Table t;
  t.AddColumn(Tr("estimate"));
  t.AddColumn(Tr("value"));
  Rows r(&t);
  r.Text("task", TaskKindName(e.task));
  if (e.params_total) {
    std::string model = e.model_name.empty() ? "" : e.model_name + ", ";
    model += Compact(*e.params_total) + " parameters";
    if (e.params_active && *e.params_active < *e.params_total * 0.999) {
      model += " (" + Compact(*e.params_active) + " active per token)";
    }
    r.Text("model", model);
  }
  r.Text("hardware", HardwareLine(e));
  if (e.parallelism_applies) r.Text("parallelism", ParallelismLine(e));
  if (PrecisionApplies(e.task)) {
    r.Text("precision", PrecisionName(e.precision));
  }
  MemoryRows(e.memory, &r);
  PerformanceRows(e.performance, &r);
  if (e.flops_total) r.Text("model FLOPs (total)", FormatSci(*e.flops_total));
  r.Num("time (hours, wall clock)", e.hours, e.hours && *e.hours < 10 ? 2 : 1);
  r.Num("GPU-hours", e.gpu_hours, 0);
  CostRows(e.cost, &r);
  if (e.uncertainty_low && e.uncertainty_high) {
    const double lo = *e.uncertainty_low, hi = *e.uncertainty_high;
    // The measured band says what it covers; a widened or hand-set one says that it is not.
    const std::string held =
        e.band_coverage ? FormatFixed(100 * *e.band_coverage, 0) + "% band" : "band not measured";
    r.Text("uncertainty (" + std::string(e.uncertainty_metric) + ", " + held + ")",
           FormatFixed(lo, Decimals(lo)) + " .. " + FormatFixed(hi, Decimals(hi)));
    if (std::string(e.uncertainty_metric) == "time.hours" && e.cost.on_demand_usd) {
      const double c = *e.cost.on_demand_usd;
      r.Text(std::string("uncertainty (cost on-demand ") +
                 CurrencySymbol(PartitionOf(e.cost.region).currency) + ")",
             FormatFixed(c * (1 - e.band_low), 0) + " .. " + FormatFixed(c * (1 + e.band_high), 0));
    }
  }
  if (e.memory.band_low > 0 || e.memory.band_high > 0) {
    const double m = e.memory.total_gib;
    r.Text(
        "uncertainty (memory.total_gib, " + FormatFixed(100 * kMeasuredBandCoverage, 0) + "% band)",
        FormatFixed(m * (1 - e.memory.band_low), 1) + " .. " +
            FormatFixed(m * (1 + e.memory.band_high), 1));
  }
  r.Text("confidence", std::string(ConfidenceName(e.confidence)) +
                           (e.confidence_basis.empty() ? "" : ": " + e.confidence_basis));
  if (with_assumptions) {
    for (const std::string& a : e.assumptions) r.Text("assumption", a);
  }
  return t;
}

}  // namespace gpuadvisor
