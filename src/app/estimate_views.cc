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
    // TRANSLATORS: ZeRO stage, micro-batch size and activation recomputation (none, selective,
    // full: --recompute's values).
    s += Trf(", ZeRO {0}, micro-batch {1}, recompute {2}", p.zero, p.micro_batch,
             RecomputeName(p.recompute));
  }
  if (p.cp > 1) s += ", CP " + std::to_string(p.cp);
  if (p.virtual_pp > 1) s += Trf(", virtual PP {0}", p.virtual_pp);
  if (p.sequence_parallel) s += Tr(", sequence parallel");
  return s + (p.chosen ? Tr(" (chosen by the estimator)") : "");
}

void MemoryRows(const MemoryEstimate& m, Rows* r) {
  r->Num(Tr("weights (GiB/device)"), m.weights_gib, 2);
  r->Num(Tr("gradients (GiB/device)"), m.gradients_gib, 2);
  r->Num(Tr("optimizer states (GiB/device)"), m.optimizer_gib, 2);
  r->Num(Tr("activations (GiB/device)"), m.activations_gib, 2);
  r->Num(Tr("KV cache (GiB/device)"), m.kv_cache_gib, 2);
  r->Num(Tr("KV cache per token, whole model (KiB)"), m.kv_cache_kib_per_token, 1);
  r->Num(Tr("working set (GiB/device)"), m.working_set_gib, 2);
  r->Num(Tr("overhead (GiB/device)"), m.overhead_gib, 2);
  r->Num(Tr("peak allocated, tensors (GiB/device)"), m.allocated_gib, 2);
  r->Num(Tr("peak reserved, allocator (GiB/device)"), m.reserved_gib, 2);
  r->Text(Tr("total / usable (GiB/device)"), FormatFixed(m.total_gib, 2) + " / " +
                                                 FormatFixed(m.device_gib, 2) +
                                                 (m.fits ? Tr("  fits") : Tr("  DOES NOT FIT")));
}

void PerformanceRows(const PerformanceEstimate& p, Rows* r) {
  r->Num(Tr("tokens/s (all devices)"), p.tokens_per_s, 0);
  r->Num(Tr("tokens/s per device"), p.tokens_per_s_per_gpu, 0);
  r->Num(Tr("model TFLOP/s per device"), p.tflops_per_gpu, 1);
  if (p.mfu) r->Text(Tr("MFU (%)"), FormatFixed(*p.mfu * 100, 1));
  if (p.mbu) r->Text(Tr("MBU, decode (%)"), FormatFixed(*p.mbu * 100, 1));
  r->Num(Tr("step time (s)"), p.step_time_s, 3);
  if (p.images_per_s) r->Num(Tr("images/s"), p.images_per_s, Decimals(*p.images_per_s));
  r->Num(Tr("TTFT (ms)"), p.ttft_ms, 1);
  r->Num(Tr("inter-token latency (ms)"), p.itl_ms, 2);
  r->Num(Tr("end-to-end latency (ms)"), p.e2e_latency_ms, 0);
  r->Num(Tr("end-to-end latency p95 (ms)"), p.e2e_p95_ms, 1);
  r->Num(Tr("requests/s"), p.requests_per_s, 2);
  r->Num(Tr("max concurrent requests (KV capacity)"), p.max_concurrency, 0);
  r->Num(Tr("streams per GPU"), p.streams_per_gpu, 0);
  r->Num(Tr("sessions per GPU"), p.sessions_per_gpu, 0);
  r->Num(Tr("one scan (s)"), p.scan_time_s, 2);
  r->Num(Tr("sustained TFLOP/s (all devices)"), p.sustained_tflops, 1);
}

void CostRows(const CostEstimate& c, Rows* r) {
  auto row = [&](const char* name, const std::optional<double>& total,
                 const std::optional<double>& rate, const Provenance& from, const char* extra) {
    if (!rate) return;
    const Currency cur = PartitionOf(c.region).currency;
    const std::string per_hour = FormatMoney(cur, *rate, 2) + "/h";
    // TRANSLATORS: a total cost at an hourly rate, "$120 at $4.00/h".
    std::string v =
        total ? Trf("{0} at {1}", FormatMoney(cur, *total, *total >= 100 ? 0 : 2), per_hour)
              : per_hour;
    if (!from.source.empty()) {
      v += "  [" + from.source + ", " +
           (from.date == "undated" ? std::string(Tr("undated")) : from.date) + "]";
    }
    r->Text(std::string(name) + extra, v);
  };
  const std::string region = c.region.empty() ? "" : " " + c.region;
  row(Tr("cost on-demand"), c.on_demand_usd, c.on_demand_usd_per_hour, c.on_demand_from,
      region.c_str());
  const std::string spot =
      region + (c.spot_estimated ? Tr(" (estimated)") : "") +
      (c.spot_interruption_band.empty()
           ? ""
           // TRANSLATORS: the spot interruption frequency band of the Spot Instance Advisor.
           : Trf(" interruptions {0}/month", c.spot_interruption_band));
  row(Tr("cost spot"), c.spot_usd, c.spot_usd_per_hour, c.spot_from, spot.c_str());
  row(Tr("cost 1y reserved, no upfront"), c.reserved_1y_usd, c.reserved_1y_usd_per_hour,
      c.reserved_1y_from, region.c_str());
}

}  // namespace

std::string AssumptionsText(const Estimate& e) {
  std::string out = std::string("\n") + Tr("Assumptions:") + "\n";
  for (const std::string& a : e.assumptions) out += "  - " + a + "\n";
  return out;
}

std::string HardwareLine(const Estimate& e) {
  std::string s = e.device_fraction < 1
                      ? Trf("{0} of one {1}", FormatFixed(e.device_fraction, 3), e.gpu_model)
                      : std::to_string(e.gpus) + " x " + e.gpu_model;
  if (!e.instance_type.empty()) {
    s += " (" + std::to_string(e.instances) + " x " + e.instance_type + ")";
  }
  if (e.gpus > e.gpus_per_node) s += Trf(", {0} per node", e.gpus_per_node);
  return s;
}

Table EstimateTable(const Estimate& e, bool with_assumptions) {
  Table t;
  t.AddColumn(Tr("estimate"));
  t.AddColumn(Tr("value"));
  Rows r(&t);
  r.Text(Tr("task"), TaskKindName(e.task));
  if (e.params_total) {
    std::string model = e.model_name.empty() ? "" : e.model_name + ", ";
    model += Trf("{0} parameters", Compact(*e.params_total));
    if (e.params_active && *e.params_active < *e.params_total * 0.999) {
      model += Trf(" ({0} active per token)", Compact(*e.params_active));
    }
    r.Text(Tr("model"), model);
  }
  r.Text(Tr("hardware"), HardwareLine(e));
  if (e.parallelism_applies) r.Text(Tr("parallelism"), ParallelismLine(e));
  if (PrecisionApplies(e.task)) {
    r.Text(Tr("precision"), PrecisionName(e.precision));
  }
  MemoryRows(e.memory, &r);
  PerformanceRows(e.performance, &r);
  if (e.flops_total) r.Text(Tr("model FLOPs (total)"), FormatSci(*e.flops_total));
  r.Num(Tr("time (hours, wall clock)"), e.hours, e.hours && *e.hours < 10 ? 2 : 1);
  r.Num(Tr("GPU-hours"), e.gpu_hours, 0);
  CostRows(e.cost, &r);
  if (e.uncertainty_low && e.uncertainty_high) {
    const double lo = *e.uncertainty_low, hi = *e.uncertainty_high;
    // The measured band says what it covers; a widened or hand-set one says that it is not.
    const std::string held = e.band_coverage
                                 ? Trf("{0}% band", FormatFixed(100 * *e.band_coverage, 0))
                                 : std::string(Tr("band not measured"));
    // TRANSLATORS: {0} is a JSON field name (time.hours), {1} what the band covers.
    r.Text(Trf("uncertainty ({0}, {1})", e.uncertainty_metric, held),
           FormatFixed(lo, Decimals(lo)) + " .. " + FormatFixed(hi, Decimals(hi)));
    if (std::string(e.uncertainty_metric) == "time.hours" && e.cost.on_demand_usd) {
      const double c = *e.cost.on_demand_usd;
      r.Text(Trf("uncertainty (cost on-demand {0})",
                 CurrencySymbol(PartitionOf(e.cost.region).currency)),
             FormatFixed(c * (1 - e.band_low), 0) + " .. " + FormatFixed(c * (1 + e.band_high), 0));
    }
  }
  if (e.memory.band_low > 0 || e.memory.band_high > 0) {
    const double m = e.memory.total_gib;
    r.Text(Trf("uncertainty ({0}, {1})", "memory.total_gib",
               Trf("{0}% band", FormatFixed(100 * kMeasuredBandCoverage, 0))),
           FormatFixed(m * (1 - e.memory.band_low), 1) + " .. " +
               FormatFixed(m * (1 + e.memory.band_high), 1));
  }
  r.Text(Tr("confidence"), std::string(Tr(ConfidenceName(e.confidence))) +
                               (e.confidence_basis.empty() ? "" : ": " + e.confidence_basis));
  if (with_assumptions) {
    for (const std::string& a : e.assumptions) r.Text(Tr("assumption"), a);
  }
  return t;
}

}  // namespace gpuadvisor
