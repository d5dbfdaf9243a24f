// Runs every case of fixtures/calibration.yaml through the estimator, prints the error per case
// (a Markdown table, reproduced in doc/estimation.md) and asserts the median absolute error
// bars of issue 3 per group.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gpuadvisor/estimate.h"
#include "workload/llm_formulas.h"
#include "workload/test_hardware.h"

#ifndef GPUADVISOR_WORKLOAD_FIXTURES
#define GPUADVISOR_WORKLOAD_FIXTURES "tests/workload/fixtures"
#endif

namespace gpuadvisor {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// Megatron-LM eq. (3): FLOPs per iteration with full recompute.
double MegatronFlopPerStep(const Workload& w) {
  const double b = w.global_batch, s = w.seq_len, l = w.model.layers, h = w.model.hidden;
  const double v = w.model.vocab;
  return 96 * b * s * l * h * h * (1 + s / (6 * h) + v / (16 * l * h));
}

// The value of `metric` the estimator predicts; NaN if it did not produce one.
double Predict(const std::string& metric, const Workload& w, const Estimate& e) {
  const PerformanceEstimate& p = e.performance;
  const MemoryEstimate& m = e.memory;
  const ModelParams params = ComputeModelParams(w.model);
  if (metric == "megatron_tflops_per_gpu") {
    return MegatronFlopPerStep(w) / (*p.step_time_s * e.gpus) / 1e12;
  }
  if (metric == "tokens_per_s_per_gpu") return p.tokens_per_s_per_gpu.value_or(NAN);
  if (metric == "tokens_per_s") return p.tokens_per_s.value_or(NAN);
  if (metric == "itl_ms") return p.itl_ms.value_or(NAN);
  if (metric == "images_per_s") return p.images_per_s.value_or(NAN);
  if (metric == "flops_total") return e.flops_total.value_or(NAN);
  if (metric == "model_states_gb") {
    return (*m.weights_gib + *m.gradients_gib + *m.optimizer_gib) * kGiB / 1e9;
  }
  if (metric == "weights_gib_16bit") return params.total * 2 / kGiB;
  if (metric == "checkpoint_tib") return params.total * (2 + 4 + 4 + 4) / (kGiB * 1024);
  if (metric == "weights_mib_fp32") return params.total * 4 / (1024.0 * 1024);
  if (metric == "kv_kib_per_token") {
    return workload_internal::KvBytesPerToken(workload_internal::MakeShape(w.model), 2) / 1024;
  }
  return NAN;
}

// n[key], falling back to a YAML merge key ("<<: *anchor"), which yaml-cpp does not resolve.
YAML::Node Get(const YAML::Node& n, const char* key) {
  if (n[key]) return n[key];
  if (n["<<"] && n["<<"][key]) return n["<<"][key];
  return YAML::Node(YAML::NodeType::Undefined);
}

Hardware HardwareOf(const YAML::Node& n) {
  Hardware hw = testing::Gpus(Get(n, "gpu").as<std::string>(), Get(n, "gpus").as<int>());
  if (Get(n, "gpus_per_node")) hw.gpus_per_node = Get(n, "gpus_per_node").as<int>();
  if (Get(n, "node_network_gbps")) {
    hw.node_network_gbps = Get(n, "node_network_gbps").as<double>();
  }
  return hw;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

TEST(CalibrationTest, MedianErrorWithinTheIssueBars) {
  const std::string path = std::string(GPUADVISOR_WORKLOAD_FIXTURES) + "/calibration.yaml";
  YAML::Node doc = YAML::LoadFile(path);
  std::map<std::string, std::vector<double>> errors;
  std::printf("\n| case | group | metric | published | estimated | error |\n"
              "|---|---|---|---:|---:|---:|\n");
  for (const YAML::Node& c : doc["cases"]) {
    const std::string id = c["id"].as<std::string>();
    SCOPED_TRACE(id);
    Result<Workload> w = ParseWorkloadYaml(YAML::Dump(c["workload"]), path + ":" + id);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    ASSERT_TRUE(Validate(*w).ok()) << Validate(*w).ToString();
    const Hardware hw = HardwareOf(c["hardware"]);
    Result<Estimate> e = EstimateWorkload(*w, hw);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    const std::string metric = c["metric"].as<std::string>();
    const double published = c["published"].as<double>();
    const double predicted = Predict(metric, *w, *e);
    ASSERT_FALSE(std::isnan(predicted)) << metric;
    const double error = predicted / published - 1;
    errors[c["group"].as<std::string>()].push_back(std::abs(error));
    std::printf("| %s | %s | %s | %.4g | %.4g | %+.1f%% |\n", id.c_str(),
                c["group"].as<std::string>().c_str(), metric.c_str(), published, predicted,
                100 * error);
  }
  const std::map<std::string, double> bars = {
      {"training", 0.15}, {"arithmetic", 0.05}, {"serving", 0.30}};
  std::printf("\n| group | cases | median abs error | bar |\n|---|---:|---:|---:|\n");
  for (const auto& [group, bar] : bars) {
    ASSERT_FALSE(errors[group].empty()) << group;
    const double median = Median(errors[group]);
    std::printf("| %s | %zu | %.1f%% | %.0f%% |\n", group.c_str(), errors[group].size(),
                100 * median, 100 * bar);
    EXPECT_LE(median, bar) << group;
  }
}

}  // namespace
}  // namespace gpuadvisor
