// Published figures through the estimator, in gpuadvisor's workload schema:
//   fixtures/calibration.yaml      the first calibration set (Megatron, MosaicML, KV cache)
//   fixtures/calibration-*.yaml    the second set (Neuron, MLPerf, torchtitan, HPL), one file
//                                  per area
//   fixtures/holdout*.yaml         published results in neither set, checked against loose bars
// Each case names its primary source; doc/estimation.md, "Calibration", lists them all.
// Every case has a `kind`; the report (reproduced in doc/estimation.md) gives the error per case,
// the median |error| per kind and the share of cases within tolerance (memory +/-10%, others
// +/-20%). The calibration set is held to issue 23's bars in every kind: median |error| <= 15%
// and >= 75% of its cases within tolerance. GPUADVISOR_CALIBRATION_REPORT=PATH also writes the
// Markdown report to PATH.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"
#include "workload/bands.h"
#include "workload/llm_formulas.h"

#ifndef GPUADVISOR_WORKLOAD_FIXTURES
#define GPUADVISOR_WORKLOAD_FIXTURES "tests/workload/fixtures"
#endif

namespace gpuadvisor {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kWithinShare = 0.75;  // issue 23: >= 75% of every kind's cases within tolerance
constexpr double kKindBar = 0.15;      // issues 15 and 23: median |error| <= 15% per kind

// Tolerance per case: memory within +/-10% (issue 23), everything else within +/-20%.
double ToleranceOf(const std::string& kind) { return kind == "memory" ? 0.10 : 0.20; }

// The bar a kind is held to: issue 23's, in every kind.
struct Bar {
  double median, within_share;
};
Bar BarOf(const std::string&) { return {kKindBar, kWithinShare}; }

// The kinds of the report, in the order it prints them.
const std::vector<std::string>& Kinds() {
  static const std::vector<std::string> kKinds = {
      "gpu-llm-training", "gpu-llm-serving", "neuron-training", "neuron-serving", "vision", "hpc",
      "memory",           "diffusion"};
  return kKinds;
}

// Megatron-LM eq. (3): FLOPs per iteration with full recompute (also Megatron-DeepSpeed's).
double MegatronFlopPerStep(const Workload& w) {
  const double b = w.global_batch, s = w.seq_len, l = w.model.layers, h = w.model.hidden;
  const double v = w.model.vocab;
  return 96 * b * s * l * h * h * (1 + s / (6 * h) + v / (16 * l * h));
}

double Or(const std::optional<double>& v) { return v.value_or(NAN); }

// The value of `metric` the estimator predicts; NaN if it did not produce one.
double Predict(const std::string& metric, const Workload& w, const Estimate& e) {
  const PerformanceEstimate& p = e.performance;
  const MemoryEstimate& m = e.memory;
  const ModelParams params = ComputeModelParams(w.model);
  if (metric == "megatron_tflops_per_gpu") {
    return p.step_time_s ? MegatronFlopPerStep(w) / (*p.step_time_s * e.gpus) / 1e12 : NAN;
  }
  if (metric == "model_tflops_per_gpu") return Or(p.tflops_per_gpu);
  if (metric == "tokens_per_s_per_gpu") return Or(p.tokens_per_s_per_gpu);
  if (metric == "tokens_per_s") return Or(p.tokens_per_s);
  if (metric == "sequences_per_s") return Or(p.tokens_per_s) / w.seq_len;
  if (metric == "itl_ms") return Or(p.itl_ms);
  if (metric == "ttft_ms") return Or(p.ttft_ms);
  if (metric == "images_per_s") return Or(p.images_per_s);
  if (metric == "sustained_tflops") return Or(p.sustained_tflops);
  if (metric == "minutes") return e.hours ? *e.hours * 60 : NAN;
  if (metric == "memory_total_gib") return m.total_gib;
  if (metric == "memory_allocated_gib") return Or(m.allocated_gib);
  if (metric == "memory_reserved_gib") return Or(m.reserved_gib);
  if (metric == "flops_total") return Or(e.flops_total);
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

// The estimate's uncertainty band as multipliers of the predicted `metric` ({lo, hi}), or nullopt
// when the metric has none (memory and counting formulas carry no band). The estimate states one
// band, on a time ("time.hours", "performance.scan_time_s") or on a rate (tokens/s, images/s,
// ...): a rate's band is the inverse of a time's, [1 / (1 + high), 1 / (1 - low)].
struct BandRange {
  double lo, hi;
  bool inverse;  // the band is on the inverse of `metric` (a time's band on a rate, or back)
};
std::optional<BandRange> BandFor(const std::string& metric, const Estimate& e) {
  // The memory of a run carries the estimate's memory band (formula counts carry none).
  static const char* const kMemory[] = {"memory_total_gib", "memory_allocated_gib",
                                        "memory_reserved_gib", "model_states_gb"};
  if (std::find(std::begin(kMemory), std::end(kMemory), metric) != std::end(kMemory)) {
    const MemoryEstimate& m = e.memory;
    if (m.band_low == 0 && m.band_high == 0) return std::nullopt;
    return BandRange{1 - m.band_low, 1 + m.band_high, false};
  }
  static const char* const kRates[] = {
      "megatron_tflops_per_gpu", "model_tflops_per_gpu", "tokens_per_s_per_gpu", "tokens_per_s",
      "sequences_per_s",         "images_per_s",         "sustained_tflops"};
  static const char* const kTimes[] = {"minutes", "itl_ms", "ttft_ms"};
  const bool rate = std::find(std::begin(kRates), std::end(kRates), metric) != std::end(kRates);
  const bool time = std::find(std::begin(kTimes), std::end(kTimes), metric) != std::end(kTimes);
  if ((!rate && !time) || e.uncertainty_metric == nullptr) return std::nullopt;
  const std::string on = e.uncertainty_metric;
  const bool band_on_time =
      on == "time.hours" || (on.size() > 7 && on.substr(on.size() - 7) == "_time_s");
  if (band_on_time == time) return BandRange{1 - e.band_low, 1 + e.band_high, false};
  return BandRange{1 / (1 + e.band_high), e.band_low < 1 ? 1 / (1 - e.band_low) : INFINITY, true};
}

// n[key], falling back to a YAML merge key ("<<: *anchor"), which yaml-cpp does not resolve.
YAML::Node Get(const YAML::Node& n, const char* key) {
  if (n[key]) return n[key];
  if (n["<<"] && n["<<"][key]) return n["<<"][key];
  return YAML::Node(YAML::NodeType::Undefined);
}

// Numeric GpuSpec fields a case may override (a published system's part differs from the AWS
// one: torchtitan's H100 96GB HBM2e, gpt-fast's power-capped A100).
void Override(GpuSpec* g, const std::string& key, double v) {
  if (key == "aws_memory_mib") {
    g->aws_memory_mib = static_cast<int>(v);
    return;
  }
  const GpuFigure* f = FindGpuFigure(key);
  ASSERT_NE(f, nullptr) << "gpu_overrides: unknown field " << key;
  g->*(f->member) = v;
}

// Specs with overrides live as long as the test program (Hardware points into them).
std::deque<GpuSpec>& OverriddenSpecs() {
  static std::deque<GpuSpec> specs;
  return specs;
}

// {gpu, gpus, gpus_per_node?, node_network_gbit_s?, nvlink?, gpu_overrides?} on the test GPUs, or
// {instance, count} resolved from the embedded catalog.
Result<Hardware> HardwareOf(const YAML::Node& n) {
  if (Get(n, "instance")) {
    HardwareRequest r;
    r.instance_type = Get(n, "instance").as<std::string>();
    r.instances = Get(n, "count") ? Get(n, "count").as<int>() : 1;
    return ResolveHardware(testing::EmbeddedForTests(), r);
  }
  Hardware hw = testing::Gpus(Get(n, "gpu").as<std::string>(), Get(n, "gpus").as<int>());
  if (YAML::Node o = Get(n, "gpu_overrides")) {
    GpuSpec spec = *hw.gpu;
    for (const auto& kv : o) Override(&spec, kv.first.as<std::string>(), kv.second.as<double>());
    OverriddenSpecs().push_back(std::move(spec));
    hw.gpu = &OverriddenSpecs().back();
  }
  if (Get(n, "gpus_per_node")) hw.gpus_per_node = Get(n, "gpus_per_node").as<int>();
  if (Get(n, "node_network_gbit_s")) {
    hw.node_network_gbit_s = Get(n, "node_network_gbit_s").as<double>();
  }
  if (Get(n, "nvlink")) hw.nvlink = Get(n, "nvlink").as<bool>();
  return hw;
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
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

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// The fixture files whose names start with `prefix`, sorted (calibration.yaml first).
std::vector<std::string> FixtureFiles(const std::string& prefix) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(GPUADVISOR_WORKLOAD_FIXTURES)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".yaml") files.push_back(name);
  }
  std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return files;
}

// One published figure with a band: its error in the band's own metric, ln(published /
// estimated) (the inverse for a band on the inverse metric), and whether the published figure
// lies inside the band the estimate states (its confidence floors included).
struct CaseBand {
  std::string kind;
  double log_ratio = 0;
  bool inside = false;
  double width = 0;      // the band's high / low
  bool measured = true;  // the band is its kind's measured one (not widened by a floor)
};

// Signed errors per kind, the banded figures, and the Markdown report.
struct Report {
  std::map<std::string, std::vector<double>> errors;
  std::map<std::string, int> cases_of_kind;
  std::vector<CaseBand> bands;
  std::string markdown;
  int cases = 0, within = 0;
};

// Runs every case of the files, appends rows to the report; outliers (|error| > outlier_bar)
// get the chosen layout and the assumptions (stdout only).
void RunCases(const std::vector<std::string>& files, double outlier_bar, Report* report) {
  std::string& md = report->markdown;
  md += "| case | kind | metric | published | estimated | error |\n|---|---|---|---:|---:|---:|\n";
  std::string outliers;
  for (const std::string& file : files) {
    const std::string path = std::string(GPUADVISOR_WORKLOAD_FIXTURES) + "/" + file;
    YAML::Node doc = YAML::LoadFile(path);
    for (const YAML::Node& c : doc["cases"]) {
      const std::string id = c["id"].as<std::string>();
      SCOPED_TRACE(file + ": " + id);
      const std::string kind = c["kind"].as<std::string>();
      EXPECT_NE(std::find(Kinds().begin(), Kinds().end(), kind), Kinds().end()) << kind;
      Result<Workload> w = ParseWorkloadYaml(YAML::Dump(c["workload"]), path + ":" + id);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      ASSERT_TRUE(Validate(*w).ok()) << Validate(*w).ToString();
      Result<Hardware> hw = HardwareOf(c["hardware"]);
      ASSERT_TRUE(hw.ok()) << hw.status().ToString();
      Result<Estimate> e = EstimateWorkload(*w, *hw);
      ASSERT_TRUE(e.ok()) << e.status().ToString();
      const std::string metric = c["metric"].as<std::string>();
      const double published = c["published"].as<double>();
      const double predicted = Predict(metric, *w, *e);
      ASSERT_FALSE(std::isnan(predicted)) << metric;
      const double error = predicted / published - 1;
      report->errors[kind].push_back(error);
      ++report->cases_of_kind[kind];
      if (const std::optional<BandRange> b = BandFor(metric, *e)) {
        const double r = std::log(published / predicted);
        const bool memory = kind == "memory";
        report->bands.push_back({kind, b->inverse ? -r : r,
                                 published >= predicted * b->lo && published <= predicted * b->hi,
                                 b->hi / b->lo, memory || e->band_coverage.has_value()});
      }
      ++report->cases;
      if (std::abs(error) <= ToleranceOf(kind)) ++report->within;
      md += Format("| %s | %s | %s | %.4g | %.4g | %+.1f%% |\n", id.c_str(), kind.c_str(),
                   metric.c_str(), published, predicted, 100 * error);
      if (std::abs(error) > outlier_bar) {
        outliers += "- " + id + ": " + Describe(*e) + "\n";
        for (const std::string& a : e->assumptions) outliers += "    - " + a + "\n";
      }
    }
  }
  md +=
      "\n| kind | cases | median abs error | within tolerance (memory ±10%, others ±20%) |\n"
      "|---|---:|---:|---:|\n";
  for (const std::string& kind : Kinds()) {
    auto it = report->errors.find(kind);
    if (it == report->errors.end()) continue;
    std::vector<double> abs_errors;
    int within = 0;
    for (double e : it->second) {
      abs_errors.push_back(std::abs(e));
      within += std::abs(e) <= ToleranceOf(kind);
    }
    md += Format("| %s | %zu | %.1f%% | %d |\n", kind.c_str(), abs_errors.size(),
                 100 * Median(abs_errors), within);
  }
  md += Format("| all | %d | | %d (%.0f%%) |\n", report->cases, report->within,
               report->cases ? 100.0 * report->within / report->cases : 0.0);
  std::printf("\n%s", md.c_str());
  if (!outliers.empty()) std::printf("\nOutliers:\n%s", outliers.c_str());
}

double MedianAbs(const std::vector<double>& errors) {
  std::vector<double> a;
  for (double e : errors) a.push_back(std::abs(e));
  return Median(a);
}

void WriteReport(const std::string& title, const std::string& markdown) {
  const char* path = std::getenv("GPUADVISOR_CALIBRATION_REPORT");
  if (path == nullptr || *path == '\0') return;
  std::ofstream out(path, std::ios::app);
  out << "### " << title << "\n\n" << markdown << "\n";
}

TEST(CalibrationTest, EveryKindWithinTheIssueBars) {
  Report report;
  RunCases(FixtureFiles("calibration"), 0.2, &report);
  WriteReport("Calibration set", report.markdown);
  for (const std::string& kind : Kinds()) {  // every kind is calibrated, each within the bars
    ASSERT_TRUE(report.errors.count(kind)) << kind;
    const std::vector<double>& errors = report.errors[kind];
    const Bar bar = BarOf(kind);
    EXPECT_LE(MedianAbs(errors), bar.median) << kind;
    const auto within = std::count_if(errors.begin(), errors.end(),
                                      [&](double e) { return std::abs(e) <= ToleranceOf(kind); });
    EXPECT_GE(static_cast<double>(within), bar.within_share * static_cast<double>(errors.size()))
        << kind << ": " << within << " of " << errors.size() << " within tolerance";
  }
  ASSERT_GT(report.cases, 0);
  EXPECT_GE(report.within, kWithinShare * report.cases)
      << report.within << " of " << report.cases << " cases within tolerance";
}

TEST(CalibrationTest, HoldoutWithinLooseBars) {
  Report report;
  RunCases(FixtureFiles("holdout"), 0.35, &report);
  WriteReport("Holdout", report.markdown);
  for (const auto& [kind, errors] : report.errors) {
    EXPECT_LE(MedianAbs(errors), 0.35) << kind;
  }
}

// The log errors of `kind`'s figures with the measured band (the ones it is drawn from).
std::vector<double> LogRatios(const std::vector<CaseBand>& bands, const std::string& kind) {
  std::vector<double> out;
  for (const CaseBand& b : bands) {
    if (b.kind == kind && b.measured) out.push_back(b.log_ratio);
  }
  return out;
}

// Both sets' banded figures. The bands are drawn from the holdout's: the estimator's constants
// were set on the calibration set, whose errors understate what a figure it has not seen meets.
struct BothSets {
  Report calibration, holdout;
  std::vector<CaseBand> all;
};
const BothSets& Measured() {
  static const BothSets* sets = [] {
    auto* s = new BothSets;
    RunCases(FixtureFiles("calibration"), INFINITY, &s->calibration);
    RunCases(FixtureFiles("holdout"), INFINITY, &s->holdout);
    s->all = s->calibration.bands;
    s->all.insert(s->all.end(), s->holdout.bands.begin(), s->holdout.bands.end());
    return s;
  }();
  return *sets;
}

// band_table.inc as DeriveBand draws it from the holdout, each fraction rounded outward to 0.1%.
std::string BandTableText(const std::vector<CaseBand>& holdout) {
  std::string out =
      "// Generated by CalibrationTest.TheBandTableIsWhatThePublishedFiguresGive\n"
      "// (GPUADVISOR_CALIBRATION_UPDATE_DOC=1); do not edit. {kind, {low, high, figures}}\n";
  for (int i = 0; i < workload_internal::kBandKindCount; ++i) {
    const auto kind = static_cast<workload_internal::BandKind>(i);
    const std::string name = workload_internal::BandKindName(kind);
    const std::vector<double> r = LogRatios(holdout, name);
    const workload_internal::MeasuredBand b = workload_internal::DeriveBand(r);
    std::string id = "k";
    for (size_t j = 0; j < name.size(); ++j) {
      if (name[j] == '-') continue;
      id += j == 0 || name[j - 1] == '-' ? static_cast<char>(std::toupper(name[j])) : name[j];
    }
    out += Format("{BandKind::%s, {%.3f, %.3f, %d}},\n", id.c_str(),
                  std::ceil(b.low * 1000 - 1e-9) / 1000, std::ceil(b.high * 1000 - 1e-9) / 1000,
                  b.cases);
  }
  return out;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool UpdateRequested() {
  const char* up = std::getenv("GPUADVISOR_CALIBRATION_UPDATE_DOC");
  return up != nullptr && *up == '1';
}

// The bands the estimator states are the ones the published figures give (issue 38, item 1:
// measured, not set by hand). GPUADVISOR_CALIBRATION_UPDATE_DOC=1 rewrites the table.
TEST(CalibrationTest, TheBandTableIsWhatThePublishedFiguresGive) {
  const std::string path = std::string(GPUADVISOR_TESTS_DIR) + "/../src/workload/band_table.inc";
  const std::string table = BandTableText(Measured().holdout.bands);
  if (UpdateRequested()) {
    std::ofstream(path) << table;
    return;
  }
  EXPECT_EQ(ReadText(path), table)
      << "src/workload/band_table.inc is not what the fixtures give; rerun with "
         "GPUADVISOR_CALIBRATION_UPDATE_DOC=1 and rebuild";
}

// Coverage of a set of banded figures.
struct Coverage {
  int banded = 0, inside = 0;
  std::vector<double> widths;
  void Add(const CaseBand& b) {
    ++banded;
    inside += b.inside;
    widths.push_back(b.width);
  }
  std::string Share() const {
    return banded ? Format("%d/%d (%.0f%%)", inside, banded, 100.0 * inside / banded) : "–";
  }
};

// Leave-one-out: each figure against the band drawn from the other figures of its kind, what a
// figure the project has not seen meets.
Coverage LeaveOneOut(const std::vector<CaseBand>& all, const std::string& kind) {
  const std::vector<double> r = LogRatios(all, kind);
  Coverage c;
  for (size_t i = 0; i < r.size(); ++i) {
    std::vector<double> others = r;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    const workload_internal::MeasuredBand b = workload_internal::DeriveBand(others);
    if (b.cases == 0) continue;
    const double x = std::exp(r[i]);
    c.Add({kind, r[i], x >= 1 - b.low && x <= 1 + b.high, (1 + b.high) / (1 - b.low)});
  }
  return c;
}

// The coverage table of doc/estimation.md: per kind, the band the estimator states (drawn from
// the holdout), the share of the holdout's figures inside it, leave-one-out on the holdout (each
// figure against the band the others give: what a figure the project has not seen meets), the
// share of the calibration set inside it, the median width; then the figures whose band a lower
// confidence grade widened past the measured one.
std::string CoverageTable(const BothSets& s) {
  std::string md =
      "| kind | band stated (80 %) | inside, holdout | inside, holdout leave-one-out "
      "| inside, calibration | median width (high / low) | widened bands: inside |\n"
      "|---|---|---:|---:|---:|---:|---:|\n";
  Coverage all, holdout_all, calibration_all, loo_all, widened_all;
  for (const std::string& kind : Kinds()) {
    Coverage both, holdout, calibration, widened;
    for (const CaseBand& b : s.all) {
      if (b.kind != kind) continue;
      (b.measured ? both : widened).Add(b);
      (b.measured ? all : widened_all).Add(b);
    }
    for (const CaseBand& b : s.holdout.bands) {
      if (b.kind == kind && b.measured) holdout.Add(b), holdout_all.Add(b);
    }
    for (const CaseBand& b : s.calibration.bands) {
      if (b.kind == kind && b.measured) calibration.Add(b), calibration_all.Add(b);
    }
    const Coverage loo = LeaveOneOut(s.holdout.bands, kind);
    loo_all.banded += loo.banded;
    loo_all.inside += loo.inside;
    const workload_internal::MeasuredBand& band = workload_internal::MeasuredBandOf(
        static_cast<workload_internal::BandKind>(&kind - Kinds().data()));
    md += Format("| %s | %s | %s | %s | %s | %s | %s |\n", kind.c_str(),
                 Format("−%.0f%% / +%.0f%%", 100 * band.low, 100 * band.high).c_str(),
                 holdout.Share().c_str(), loo.Share().c_str(), calibration.Share().c_str(),
                 both.banded ? Format("x%.2f", Median(both.widths)).c_str() : "–",
                 widened.Share().c_str());
  }
  md += Format("| all | | %s | %s | %s | x%.2f | %s |\n", holdout_all.Share().c_str(),
               loo_all.Share().c_str(), calibration_all.Share().c_str(), Median(all.widths),
               widened_all.Share().c_str());
  return md;
}

// Every kind's measured band holds 80 % of its holdout figures, and at least 75 % of them each
// left out in turn (issue 38's bar: within 5 points), at a median width over both sets no wider
// than the hand-set bands' (x1.86 before issue 38); the bands a lower grade widens hold at least as
// many. doc/estimation.md's table (between its markers) is today's.
// GPUADVISOR_CALIBRATION_UPDATE_DOC=1 rewrites it.
TEST(CalibrationTest, TheDocumentedBandCoverageIsTodays) {
  const BothSets& s = Measured();
  std::vector<double> widths;
  int widened = 0, widened_inside = 0;
  for (const CaseBand& b : s.all) {
    if (!b.measured) {
      ++widened;
      widened_inside += b.inside;
    } else {
      widths.push_back(b.width);
    }
  }
  int loo_banded = 0, loo_inside = 0;
  for (const std::string& kind : Kinds()) {
    int banded = 0, inside = 0;
    for (const CaseBand& b : s.holdout.bands) {
      if (b.kind != kind || !b.measured) continue;
      ++banded;
      inside += b.inside;
    }
    ASSERT_GT(banded, 0) << kind << ": no holdout figure with the measured band";
    // A conformal band holds at least its share of the figures it is drawn from.
    EXPECT_GE(inside, workload_internal::kBandCoverage * banded)
        << kind << ": " << inside << " of " << banded << " holdout figures inside the stated band";
    const Coverage loo = LeaveOneOut(s.holdout.bands, kind);
    loo_banded += loo.banded;
    loo_inside += loo.inside;
    // Per kind, a figure the project has not seen is inside its band at least 75 % of the time
    // (5 points under the stated 80 %; a kind of n figures moves in steps of 1/n, so this needs
    // about ten: with 6, leaving out either extreme falls outside and 4/6 is the most it shows).
    EXPECT_GE(loo.inside, (workload_internal::kBandCoverage - 0.05) * loo.banded - 1e-9)
        << kind << ": " << loo.inside << " of " << loo.banded
        << " holdout figures inside their leave-one-out band";
  }
  // What a figure the project has not seen meets: each holdout figure against the band the
  // others of its kind give, within 5 points of the coverage stated.
  EXPECT_NEAR(static_cast<double>(loo_inside) / loo_banded, workload_internal::kBandCoverage,
              0.05 + 1e-9)
      << loo_inside << " of " << loo_banded << " holdout figures inside their leave-one-out band";
  EXPECT_LE(Median(widths), 1.86) << "the bands are wider than the hand-set ones were";
  EXPECT_GE(widened_inside, workload_internal::kBandCoverage * widened);
  const std::string table = CoverageTable(s);
  const std::string path = std::string(GPUADVISOR_TESTS_DIR) + "/../doc/estimation.md";
  std::string doc = ReadText(path);
  const std::string begin = "<!-- band-coverage:begin -->\n", end = "<!-- band-coverage:end -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_TRUE(b != std::string::npos && e != std::string::npos && b < e) << "markers in " << path;
  const std::string shown = doc.substr(b + begin.size(), e - b - begin.size());
  if (UpdateRequested()) {
    doc.replace(b + begin.size(), e - b - begin.size(), table);
    std::ofstream(path) << doc;
    return;
  }
  EXPECT_EQ(shown, table) << "doc/estimation.md's band coverage drifted; rerun with "
                             "GPUADVISOR_CALIBRATION_UPDATE_DOC=1";
}

// The kind the estimator draws a figure's band from is the kind its fixture measures it as.
TEST(CalibrationTest, EachFigureIsBandedAsItsKind) {
  for (const char* set : {"calibration", "holdout"}) {
    for (const std::string& file : FixtureFiles(set)) {
      const std::string path = std::string(GPUADVISOR_WORKLOAD_FIXTURES) + "/" + file;
      for (const YAML::Node& c : YAML::LoadFile(path)["cases"]) {
        const std::string kind = c["kind"].as<std::string>();
        if (kind == "memory") continue;  // every task's memory carries the memory band
        Result<Workload> w = ParseWorkloadYaml(YAML::Dump(c["workload"]), path);
        ASSERT_TRUE(w.ok());
        Result<Hardware> hw = HardwareOf(c["hardware"]);
        ASSERT_TRUE(hw.ok());
        const auto band_kind = workload_internal::BandKindOf(*w, *hw->gpu);
        ASSERT_TRUE(band_kind.has_value()) << c["id"].as<std::string>();
        EXPECT_EQ(workload_internal::BandKindName(*band_kind), kind) << c["id"].as<std::string>();
      }
    }
  }
}

TEST(CalibrationTest, DeriveBandHoldsItsShareAndContainsTheEstimate) {
  using workload_internal::DeriveBand;
  // Ten figures, ceil(0.8 x 11) + 1 = 10 inside: the band spans them all. (A new figure lies
  // between the i-th and j-th of n with probability (j - i) / (n + 1): an 80 % band needs
  // 0.8 (n + 1) + 1 of them, round(0.8 n) held 68 % of the holdout left out one at a time.)
  const std::vector<double> r = {-0.5, -0.2, -0.1, 0, 0, 0.05, 0.1, 0.1, 0.2, 0.6};
  const workload_internal::MeasuredBand b = DeriveBand(r);
  EXPECT_EQ(b.cases, 10);
  EXPECT_NEAR(b.low, 1 - std::exp(-0.5), 1e-12);
  EXPECT_NEAR(b.high, std::exp(0.6) - 1, 1e-12);
  // Twenty: ceil(0.8 x 21) + 1 = 18 inside, one excluded from each tail, the edges half way.
  std::vector<double> r20 = r;
  for (double x : {-0.03, -0.02, -0.01, 0.0, 0.01, 0.02, 0.03, 0.04, 0.06, 0.07}) r20.push_back(x);
  EXPECT_NEAR(DeriveBand(r20).low, 1 - std::exp(-0.35), 1e-12);
  EXPECT_NEAR(DeriveBand(r20).high, std::exp(0.4) - 1, 1e-12);
  // Fourteen: 13 inside, the one excluded from the tail farther from the estimate (0.6).
  std::vector<double> r14 = r;
  for (double x : {-0.02, -0.01, 0.01, 0.02}) r14.push_back(x);
  EXPECT_NEAR(DeriveBand(r14).low, 1 - std::exp(-0.5), 1e-12);
  EXPECT_NEAR(DeriveBand(r14).high, std::exp(0.4) - 1, 1e-12);
  // All errors on one side: the band still contains the estimate.
  const std::vector<double> over = {0.1, 0.2, 0.3, 0.4, 0.5};
  EXPECT_EQ(DeriveBand(over).low, 0);
  EXPECT_GT(DeriveBand(over).high, 0.3);
  EXPECT_EQ(DeriveBand(std::vector<double>{0.1}).cases, 0);
}

// The harness itself: a case whose published figure is far off must count as outside the bar.
TEST(CalibrationTest, ReportCountsMisses) {
  EXPECT_DOUBLE_EQ(MedianAbs({0.1, -0.3, 0.05}), 0.1);
  EXPECT_TRUE(std::isnan(Median({})));
  EXPECT_EQ(FixtureFiles("calibration").front(), "calibration.yaml");
}

}  // namespace
}  // namespace gpuadvisor
