// Published figures through the estimator. Two sets in gpuadvisor's workload schema:
//   fixtures/calibration.yaml  the cases of ../shared/data/calibration-cases.json; the issue's
//                              bars on the median absolute error per group are asserted;
//   fixtures/holdout.yaml      published results that are NOT calibration inputs, checked
//                              against loose bars (35%): the printed table is the product.
// Both print a Markdown table of the error per case (reproduced in doc/estimation.md).
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

// Megatron-LM eq. (3): FLOPs per iteration with full recompute (also Megatron-DeepSpeed's).
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
    return p.step_time_s ? MegatronFlopPerStep(w) / (*p.step_time_s * e.gpus) / 1e12 : NAN;
  }
  if (metric == "model_tflops_per_gpu") return p.tflops_per_gpu.value_or(NAN);
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

std::string Describe(const Estimate& e) {
  if (!e.parallelism_applies) return "";
  const ParallelismChoice& p = e.parallelism;
  char buf[160];
  std::snprintf(buf, sizeof buf, "tp %d pp %d (v %d) dp %d zero %d mb %d recompute %s", p.tp, p.pp,
                p.virtual_pp, p.dp, p.zero, p.micro_batch, RecomputeName(p.recompute));
  return buf;
}

// Runs every case of `file`, prints the tables, returns |error| per group (empty on failure).
std::map<std::string, std::vector<double>> RunCases(const std::string& file, double outlier_bar) {
  const std::string path = std::string(GPUADVISOR_WORKLOAD_FIXTURES) + "/" + file;
  YAML::Node doc = YAML::LoadFile(path);
  std::map<std::string, std::vector<double>> errors;
  std::string outliers;
  std::printf(
      "\n%s\n\n| case | group | metric | published | estimated | error |\n"
      "|---|---|---|---:|---:|---:|\n",
      file.c_str());
  for (const YAML::Node& c : doc["cases"]) {
    const std::string id = c["id"].as<std::string>();
    SCOPED_TRACE(id);
    Result<Workload> w = ParseWorkloadYaml(YAML::Dump(c["workload"]), path + ":" + id);
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    if (!w.ok() || !Validate(*w).ok()) return {};
    Result<Estimate> e = EstimateWorkload(*w, HardwareOf(c["hardware"]));
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    if (!e.ok()) return {};
    const std::string metric = c["metric"].as<std::string>();
    const std::string group = c["group"].as<std::string>();
    const double published = c["published"].as<double>();
    const double predicted = Predict(metric, *w, *e);
    EXPECT_FALSE(std::isnan(predicted)) << metric;
    const double error = predicted / published - 1;
    errors[group].push_back(std::abs(error));
    std::printf("| %s | %s | %s | %.4g | %.4g | %+.1f%% |\n", id.c_str(), group.c_str(),
                metric.c_str(), published, predicted, 100 * error);
    if (std::abs(error) > outlier_bar) {
      outliers += "- " + id + ": " + Describe(*e) + "\n";
      for (const std::string& a : e->assumptions) outliers += "    - " + a + "\n";
    }
  }
  std::printf("\n| group | cases | median abs error |\n|---|---:|---:|\n");
  for (const auto& [group, v] : errors) {
    std::printf("| %s | %zu | %.1f%% |\n", group.c_str(), v.size(), 100 * Median(v));
  }
  if (!outliers.empty()) std::printf("\nOutliers:\n%s", outliers.c_str());
  return errors;
}

TEST(CalibrationTest, MedianErrorWithinTheIssueBars) {
  auto errors = RunCases("calibration.yaml", 0.3);
  const std::map<std::string, double> bars = {
      {"training", 0.15}, {"arithmetic", 0.05}, {"serving", 0.30}};
  for (const auto& [group, bar] : bars) {
    ASSERT_FALSE(errors[group].empty()) << group;
    EXPECT_LE(Median(errors[group]), bar) << group;
  }
}

TEST(CalibrationTest, HoldoutWithinLooseBars) {
  auto errors = RunCases("holdout.yaml", 0.35);
  for (const char* group : {"training", "serving", "vision"}) {
    ASSERT_FALSE(errors[group].empty()) << group;
    EXPECT_LE(Median(errors[group]), 0.35) << group;
  }
}

}  // namespace
}  // namespace gpuadvisor
