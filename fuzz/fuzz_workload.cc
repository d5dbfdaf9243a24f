// libFuzzer target: workload files (JSON/YAML), Hugging Face config.json import and the
// estimator on whatever validates.
//
// Every input goes to ParseWorkloadText and to ApplyHfConfigJson on a fresh Workload. A workload
// that parses and passes Validate() is estimated on a fixed H100-like GpuSpec with 1 and 8 GPUs;
// a config.json that imports is estimated as a serving and as a pretraining workload. An
// estimate must be an error Status or have finite, non-negative memory figures; anything else
// traps (a real bug).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/workload.h"
#include "workload/estimate_json.h"

namespace {

using namespace gpuadvisor;  // NOLINT

const GpuSpec& H100() {
  static const GpuSpec* gpu = [] {
    auto* g = new GpuSpec;
    g->model = "H100";
    g->full_name = "H100 80GB (SXM5)";
    g->vendor = "NVIDIA";
    g->architecture = "Hopper";
    g->aws_names = {"H100"};
    g->memory_gib = 80.0;
    g->aws_memory_mib = 81920;
    g->memory_bw_gbyte_s = 3350.0;
    g->fp64_tflops = 34.0;
    g->fp32_tflops = 67.0;
    g->tf32_tflops = 494.5;
    g->bf16_tflops = 989.5;
    g->fp16_tflops = 989.5;
    g->fp8_tflops = 1979.0;
    g->int8_tops = 1979.0;
    g->nvlink_gbyte_s = 900.0;
    g->tdp_w = 700.0;
    g->nvenc = 0;
    g->compute_capability = "9.0";
    g->supports_bf16 = g->supports_fp8 = g->supports_tf32 = true;
    return g;
  }();
  return *gpu;
}

bool Sane(double v) { return std::isfinite(v) && v >= 0; }
bool Sane(const std::optional<double>& v) { return !v || Sane(*v); }

void CheckEstimate(const Workload& w) {
  for (int gpus : {1, 8}) {
    Hardware hw;
    hw.gpu = &H100();
    hw.gpus = gpus;
    Result<Estimate> e = EstimateWorkload(w, hw);
    if (!e.ok()) continue;  // an error Status is an acceptable answer
    const MemoryEstimate& m = e->memory;
    if (!Sane(m.total_gib) || !Sane(m.device_gib) || !Sane(m.weights_gib) ||
        !Sane(m.gradients_gib) || !Sane(m.optimizer_gib) || !Sane(m.activations_gib) ||
        !Sane(m.kv_cache_gib) || !Sane(m.overhead_gib) || !Sane(m.working_set_gib) ||
        !Sane(m.kv_cache_kib_per_token)) {
      std::fprintf(stderr,
                   "fuzz_workload: bad memory estimate (task %s, %d GPU): total %g device %g "
                   "weights %g grads %g optim %g act %g kv %g overhead %g working set %g\n",
                   TaskKindName(w.task), gpus, m.total_gib, m.device_gib, m.weights_gib.value_or(0),
                   m.gradients_gib.value_or(0), m.optimizer_gib.value_or(0),
                   m.activations_gib.value_or(0), m.kv_cache_gib.value_or(0),
                   m.overhead_gib.value_or(0), m.working_set_gib.value_or(0));
      __builtin_trap();
    }
    (void)EstimateToJson(*e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // "model-config: -" reads a config.json from stdin; give it an empty one instead of blocking.
  if (std::freopen("/dev/null", "r", stdin) == nullptr) return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // "model-config"/"hf-config" open the named file; keep the fuzzer away from device and kernel
  // files (/dev/zero never ends, /dev/tty blocks). Not a library concern: the CLI user picks it.
  for (std::string_view bad : {"/dev", "/proc", "/sys"}) {
    if (text.find(bad) != std::string_view::npos) return -1;  // -1: not added to the corpus
  }

  Result<Workload> w = ParseWorkloadText(text, "fuzz.yaml");
  if (w.ok() && Validate(*w).ok()) CheckEstimate(*w);

  Workload hf;
  if (ApplyHfConfigJson(&hf, text, "config.json").ok()) {
    hf.task = TaskKind::kServe;
    if (Validate(hf).ok()) CheckEstimate(hf);
    hf.task = TaskKind::kPretrain;
    hf.tokens = 1e11;
    if (Validate(hf).ok()) CheckEstimate(hf);
  }
  return 0;
}
