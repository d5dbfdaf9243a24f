// EstimateWorkload end to end: the contract's JSON for every task, hardware checks, cost.
#include "gpuadvisor/estimate.h"

#include <gtest/gtest.h>

#include "testutil/test_hardware.h"
#include "workload/estimate_json.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;
using testing::OnInstance;

void ExpectContractShape(const nlohmann::json& j) {
  for (const char* k : {"hardware", "parallelism", "memory", "performance", "flops", "time", "cost",
                        "uncertainty", "assumptions"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  for (const char* k : {"gpu", "gpus", "instance_type", "instances"}) {
    EXPECT_TRUE(j["hardware"].contains(k)) << k;
  }
  for (const char* k : {"tp", "pp", "dp", "zero", "micro_batch"}) {
    EXPECT_TRUE(j["parallelism"].contains(k)) << k;
  }
  for (const char* k : {"weights_gib", "gradients_gib", "optimizer_gib", "activations_gib",
                        "kv_cache_gib", "overhead_gib", "total_gib", "device_gib", "fits"}) {
    EXPECT_TRUE(j["memory"].contains(k)) << k;
  }
  for (const char* k :
       {"tokens_per_s", "tokens_per_s_per_gpu", "tflops_per_gpu", "mfu", "step_time_s",
        "images_per_s", "ttft_ms", "itl_ms", "requests_per_s", "max_concurrency"}) {
    EXPECT_TRUE(j["performance"].contains(k)) << k;
  }
  EXPECT_TRUE(j["flops"].contains("total"));
  EXPECT_TRUE(j["time"].contains("hours"));
  EXPECT_TRUE(j["time"].contains("gpu_hours"));
  EXPECT_TRUE(j["cost"].contains("on_demand_usd"));
  EXPECT_TRUE(j["cost"].contains("spot_usd"));
  for (const char* k : {"low", "high", "metric"}) EXPECT_TRUE(j["uncertainty"].contains(k));
  EXPECT_TRUE(j["assumptions"].is_array());
}

TEST(EstimateJsonTest, EveryTaskKindGivesTheContractObject) {
  struct Case {
    std::vector<std::pair<const char*, const char*>> fields;
    const char* gpu;
    int gpus;
    const char* must_be_number;
    const char* must_be_null;
  };
  const Case cases[] = {
      {{{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "100B"}},
       "H100",
       16,
       "tokens_per_s",
       "ttft_ms"},
      {{{"task", "finetune"}, {"model", "llama-2-7b"}, {"tokens", "50M"}},
       "A100-80GB",
       8,
       "mfu",
       "images_per_s"},
      {{{"task", "lora"}, {"model", "mistral-7b"}, {"tokens", "20M"}},
       "L4",
       1,
       "tokens_per_s",
       "itl_ms"},
      {{{"task", "qlora"}, {"model", "llama-2-13b"}, {"tokens", "20M"}},
       "T4",
       1,
       "step_time_s",
       "max_concurrency"},
      {{{"task", "serve"}, {"model", "llama-3.1-8b"}, {"rps", "2"}},
       "L40S",
       1,
       "itl_ms",
       "images_per_s"},
      {{{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1.28M"}, {"epochs", "90"}},
       "A100-80GB",
       8,
       "images_per_s",
       "tokens_per_s"},
      {{{"task", "infer-vision"}, {"model", "stable-diffusion-xl"}, {"images", "1000"}},
       "L4",
       1,
       "images_per_s",
       "ttft_ms"},
      {{{"task", "hpc"}, {"fp64-flop", "1e18"}, {"working-set-gib", "100"}},
       "H100",
       8,
       "tflops_per_gpu",
       "tokens_per_s"},
      {{{"task", "transcode"}, {"streams", "40"}, {"codec", "h264"}},
       "L4",
       1,
       nullptr,
       "tokens_per_s"},
      {{{"task", "render"}, {"sessions", "8"}}, "L40S", 2, nullptr, "mfu"},
      {{{"task", "analytics"}, {"dataset-gib", "50"}}, "A100-80GB", 2, nullptr, "itl_ms"},
  };
  for (const Case& c : cases) {
    Workload w;
    for (const auto& [k, v] : c.fields) ASSERT_TRUE(GiveField(&w, k, v).ok()) << k;
    ASSERT_TRUE(Validate(w).ok()) << Validate(w).ToString();
    Result<Estimate> e = EstimateWorkload(w, Gpus(c.gpu, c.gpus));
    ASSERT_TRUE(e.ok()) << TaskKindName(w.task) << ": " << e.status().ToString();
    const auto j = EstimateToJson(*e);
    SCOPED_TRACE(TaskKindName(w.task));
    ExpectContractShape(j);
    EXPECT_TRUE(j["time"]["hours"].is_number());
    if (c.must_be_number) {
      EXPECT_TRUE(j["performance"][c.must_be_number].is_number());
    }
    EXPECT_TRUE(j["performance"][c.must_be_null].is_null());
    EXPECT_TRUE(j["hardware"]["instance_type"].is_null());
    EXPECT_TRUE(j["cost"]["on_demand_usd"].is_null());
    EXPECT_FALSE(j["assumptions"].empty());
  }
}

TEST(EstimateTest, ServingHasNoGradientsAndTrainingNoKvCache) {
  const Workload serve = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}});
  const auto s = EstimateToJson(*EstimateWorkload(serve, Gpus("H100", 1)));
  EXPECT_TRUE(s["memory"]["gradients_gib"].is_null());
  EXPECT_TRUE(s["memory"]["kv_cache_gib"].is_number());
  EXPECT_TRUE(s["parallelism"]["zero"].is_null());
  const Workload train =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
  const auto t = EstimateToJson(*EstimateWorkload(train, Gpus("H100", 8)));
  EXPECT_TRUE(t["memory"]["kv_cache_gib"].is_null());
  EXPECT_TRUE(t["memory"]["optimizer_gib"].is_number());
}

TEST(EstimateTest, CostForEachPurchaseOption) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "10B"}});
  Result<Estimate> e = EstimateWorkload(w, OnInstance("p5.48xlarge", 2));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->instances, 2);
  ASSERT_TRUE(e->cost.on_demand_usd && e->cost.spot_usd);
  EXPECT_NEAR(*e->cost.on_demand_usd, 2 * 55.04 * *e->hours, 1e-6);
  EXPECT_NEAR(*e->cost.spot_usd, 2 * 30.0 * *e->hours, 1e-6);
  EXPECT_FALSE(e->cost.reserved_1y_usd.has_value());  // not priced in the offer
  const auto j = EstimateToJson(*e);
  EXPECT_EQ(j["hardware"]["instance_type"], "p5.48xlarge");
  EXPECT_TRUE(j["cost"]["reserved_1y_usd"].is_null());
}

TEST(EstimateTest, UnsetParallelismIsChosenAndReported) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 64));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE(e->memory.fits);
  EXPECT_TRUE(e->parallelism.chosen);
  const ParallelismChoice& p = e->parallelism;
  EXPECT_EQ(p.tp * p.pp * p.dp, 64);
  bool reported = false;
  for (const std::string& a : e->assumptions) reported |= a.rfind("parallelism chosen", 0) == 0;
  EXPECT_TRUE(reported);
}

TEST(EstimateTest, ExplicitParallelismIsKeptOrRejected) {
  Workload w = MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
  ParallelismRequest r;
  r.tp = 2;
  r.pp = 2;
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8), r);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->parallelism.tp, 2);
  EXPECT_EQ(e->parallelism.pp, 2);
  EXPECT_EQ(e->parallelism.dp, 2);
  r.tp = 3;
  EXPECT_EQ(EstimateWorkload(w, Gpus("H100", 8), r).status().code(), StatusCode::kInvalidArgument);
}

TEST(EstimateTest, MfuOverrideSetsTheThroughput) {
  const Workload w = MakeWorkload(
      {{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}, {"mfu", "0.5"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8));
  ASSERT_TRUE(e.ok());
  EXPECT_NEAR(*e->performance.mfu, 0.5, 1e-9);
  // ... and the throughput with it: half the dense BF16 peak per GPU, tokens/s = that over the
  // model FLOPs per token (6 x params plus attention), so MFU 0.25 halves it.
  EXPECT_NEAR(*e->performance.tflops_per_gpu, 0.5 * *testing::TestGpu("H100").bf16_tflops, 1e-6);
  Workload quarter = w;
  quarter.mfu = 0.25;
  Result<Estimate> q = EstimateWorkload(quarter, Gpus("H100", 8));
  ASSERT_TRUE(q.ok());
  EXPECT_NEAR(*q->performance.tokens_per_s / *e->performance.tokens_per_s, 0.5, 1e-9);
  EXPECT_NEAR(*q->hours / *e->hours, 2, 1e-9);
}

TEST(HardwareCheckTest, PrecisionSupport) {
  const Workload bf16 = MakeWorkload(
      {{"task", "pretrain"}, {"model", "llama-2-7b"}, {"tokens", "1B"}, {"precision", "bf16"}});
  EXPECT_EQ(EstimateWorkload(bf16, Gpus("V100", 8)).status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(EstimateWorkload(bf16, Gpus("T4", 1)).status().code(), StatusCode::kUnsupported);
  const Workload fp8 =
      MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"quantization", "fp8"}});
  EXPECT_EQ(EstimateWorkload(fp8, Gpus("A100-80GB", 1)).status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(EstimateWorkload(fp8, Gpus("L4", 1)).ok());
  EXPECT_TRUE(EstimateWorkload(fp8, Gpus("H100", 1)).ok());
  // Unset precision falls back to fp16 on Volta.
  const Workload any =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-2-7b"}, {"tokens", "1B"}});
  Result<Estimate> v = EstimateWorkload(any, Gpus("V100", 8));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->precision, Precision::kFp16);
}

TEST(HardwareCheckTest, NvencAndNeuron) {
  const Workload video = MakeWorkload({{"task", "transcode"}, {"streams", "10"}});
  Status st = EstimateWorkload(video, Gpus("H100", 1)).status();
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("no NVENC"), std::string::npos);
  EXPECT_EQ(EstimateWorkload(video, Gpus("A100-80GB", 1)).status().code(),
            StatusCode::kUnsupported);
  Result<Estimate> t4 = EstimateWorkload(video, Gpus("T4", 1));
  ASSERT_TRUE(t4.ok());
  EXPECT_EQ(*t4->performance.streams_per_gpu, 38);  // NVIDIA: 38 x 1080p30 H.264 on a T4
  const Workload av1 = MakeWorkload({{"task", "transcode"}, {"streams", "10"}, {"codec", "av1"}});
  EXPECT_EQ(EstimateWorkload(av1, Gpus("T4", 1)).status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(EstimateWorkload(av1, Gpus("L4", 1)).ok());
  const Workload train =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-2-7b"}, {"tokens", "1B"}});
  EXPECT_EQ(EstimateWorkload(train, Gpus("Inferentia2", 1)).status().code(),
            StatusCode::kUnsupported);
  Result<Estimate> trn = EstimateWorkload(train, Gpus("Trainium", 16));
  ASSERT_TRUE(trn.ok()) << trn.status().ToString();
  EXPECT_EQ(EstimateWorkload(video, Gpus("Trainium", 1)).status().code(), StatusCode::kUnsupported);
}

TEST(HardwareCheckTest, UnknownPeakGivesMemoryButNoTime) {
  const Workload w = MakeWorkload({{"task", "lora"}, {"model", "llama-2-7b"}, {"tokens", "1M"}});
  // Every catalog GPU now has a training peak; a spec without one (an imported catalog that
  // lacks it) still gets a memory estimate and no time.
  GpuSpec bare = testing::TestGpu("A10G");
  bare.fp32_tflops = bare.tf32_tflops = bare.bf16_tflops = bare.fp16_tflops = std::nullopt;
  bare.fp8_tflops = bare.int8_tops = std::nullopt;
  Hardware hw;
  hw.gpu = &bare;
  hw.gpus = 1;
  Result<Estimate> e = EstimateWorkload(w, hw);
  ASSERT_TRUE(e.ok());
  EXPECT_GT(e->memory.total_gib, 10);
  EXPECT_FALSE(e->hours.has_value());
  EXPECT_FALSE(e->performance.tokens_per_s.has_value());
}

TEST(HardwareCheckTest, A10gHasADerivedTrainingPeak) {
  const Workload w = MakeWorkload({{"task", "lora"}, {"model", "llama-2-7b"}, {"tokens", "1M"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("A10G", 1));
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->hours.has_value());
  EXPECT_EQ(testing::TestGpu("A10G").confidence, "derived");
  EXPECT_FALSE(testing::TestGpu("A10G").derivation.empty());
}

TEST(EstimateTest, FastModeBuildsNoStrings) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8), {}, EstimateMode::kFast);
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->assumptions.empty());
  Result<Estimate> d = EstimateWorkload(w, Gpus("H100", 8));
  EXPECT_DOUBLE_EQ(*e->hours, *d->hours);
}

TEST(EstimateTest, UncertaintyBandBracketsTheValue) {
  const Workload w =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8));
  ASSERT_TRUE(e.ok());
  EXPECT_STREQ(e->uncertainty_metric, "time.hours");
  EXPECT_LT(*e->uncertainty_low, *e->hours);
  EXPECT_GT(*e->uncertainty_high, *e->hours);
}

}  // namespace
}  // namespace gpuadvisor
