// LLM serving as an operator-level roofline (doc/estimation.md, "Serving engines"): the engine
// option and its defaults, the scheduler's batch cap, weight formats (FP8 at batch 1, FP4 W4A4
// on Blackwell vs weight-only int4), and the streamed-token costs that grow with concurrency.
#include <gtest/gtest.h>

#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;
using testing::Mentions;

Estimate Serve(Workload w, const char* gpu, int gpus = 1) {
  Result<Estimate> e = EstimateWorkload(w, Gpus(gpu, gpus));
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? *e : Estimate{};
}

Workload Llama8b(std::initializer_list<std::pair<const char*, const char*>> extra) {
  Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}, {"tp", "1"}});
  for (const auto& [k, v] : extra) EXPECT_TRUE(GiveField(&w, k, v).ok()) << k;
  EXPECT_TRUE(Validate(w).ok()) << Validate(w).ToString();
  return w;
}

TEST(ServeEngineTest, DefaultsToWhatTheHardwareRuns) {
  EXPECT_TRUE(Mentions(Serve(Llama8b({}), "H100"), "engine vllm (default for the hardware"));
  Workload neuron = Llama8b({});
  Result<Estimate> inf2 = EstimateWorkload(neuron, Gpus("Inferentia2", 1));
  ASSERT_TRUE(inf2.ok()) << inf2.status().ToString();
  EXPECT_TRUE(Mentions(*inf2, "engine neuron"));
  // --engine neuron is accepted on Neuron and gives the same numbers as the default there.
  ASSERT_TRUE(GiveField(&neuron, "engine", "neuron").ok());
  Result<Estimate> explicit_neuron = EstimateWorkload(neuron, Gpus("Inferentia2", 1));
  ASSERT_TRUE(explicit_neuron.ok());
  EXPECT_DOUBLE_EQ(*explicit_neuron->performance.tokens_per_s, *inf2->performance.tokens_per_s);
}

TEST(ServeEngineTest, AnEngineThatDoesNotApplyIsAnError) {
  Result<Estimate> e = EstimateWorkload(Llama8b({{"engine", "neuron"}}), Gpus("H100", 1));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("engine:", 0), 0u) << e.status().message();
  Workload vllm = Llama8b({{"engine", "vllm"}});
  e = EstimateWorkload(vllm, Gpus("Inferentia2", 1));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("engine:", 0), 0u) << e.status().message();
  // Vision engines on serving, serving engines on vision, any engine on training.
  // Refused where it is bound (a field of another task) or by Validate (a value of the wrong
  // kind of engine), naming the field either way.
  const auto refusal = [](Workload w, const char* key, const char* value) {
    Status st = GiveField(&w, key, value);
    return st.ok() ? Validate(w) : st;
  };
  EXPECT_EQ(refusal(Llama8b({}), "engine", "eager").message().rfind("engine:", 0), 0u);
  Workload vit = MakeWorkload({{"task", "infer-vision"}, {"model", "vit-b16"}, {"images", "1M"}});
  EXPECT_EQ(refusal(vit, "engine", "trtllm").message().rfind("engine:", 0), 0u);
  Workload train =
      MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-8b"}, {"tokens", "1B"}});
  EXPECT_EQ(refusal(train, "engine", "vllm").message().rfind("engine:", 0), 0u);
  EXPECT_FALSE(refusal(train, "engine", "fused").ok());
  EXPECT_EQ(refusal(train, "streaming", "true").message().rfind("streaming:", 0), 0u);
}

TEST(ServeEngineTest, TheSchedulerCapsTheOfflineBatch) {
  // TGI admits 128 requests; TensorRT-LLM lets the 141 GB KV cache of an H200 fill up.
  auto offline = [](const char* engine) {
    return Serve(Llama8b({{"engine", engine},
                          {"quantization", "fp8"},
                          {"kv-precision", "fp8"},
                          {"input-tokens", "128"},
                          {"output-tokens", "2048"}}),
                 "H200");
  };
  const Estimate tgi = offline("tgi"), trt = offline("trtllm");
  EXPECT_EQ(tgi.parallelism.micro_batch, 128);
  EXPECT_GT(trt.parallelism.micro_batch, 500);
  EXPECT_GT(*trt.performance.tokens_per_s, 1.1 * *tgi.performance.tokens_per_s);
  // vLLM on a 24 GB part: max_num_batched_tokens 2048 bounds batch x (1 + input/output).
  Workload small = Llama8b({{"engine", "vllm"},
                            {"quantization", "int4"},
                            {"input-tokens", "1000"},
                            {"output-tokens", "100"}});
  EXPECT_LE(Serve(small, "L40S").parallelism.micro_batch, 2048 / 11);
}

TEST(ServeEngineTest, Fp8DecodeAtBatchOneStreamsBelowThe16BitUtilisation) {
  const Estimate bf16 = Serve(Llama8b({{"concurrency", "1"}}), "H100");
  const Estimate fp8 = Serve(Llama8b({{"concurrency", "1"}, {"quantization", "fp8"}}), "H100");
  // Half the bytes, but FP8 GEMMs reach ~0.8 of the 16-bit kernels' bandwidth.
  EXPECT_LT(*fp8.performance.mbu, *bf16.performance.mbu);
  EXPECT_GT(*fp8.performance.itl_ms, 0.55 * *bf16.performance.itl_ms);
  EXPECT_LT(*fp8.performance.itl_ms, 0.9 * *bf16.performance.itl_ms);
}

TEST(ServeEngineTest, Fp4RunsW4A4OnBlackwellAndInt4Dequantises) {
  // The prompt is compute-bound: FP4 tensor cores (2x FP8) against 16-bit for weight-only int4.
  auto prompt = [](const char* q) {
    Workload w = MakeWorkload({{"task", "serve"},
                               {"model", "llama-3.3-70b"},
                               {"tp", "1"},
                               {"quantization", q},
                               {"concurrency", "1"},
                               {"input-tokens", "8000"},
                               {"output-tokens", "100"}});
    return Serve(w, "B200");
  };
  const Estimate fp4 = prompt("nvfp4"), int4 = prompt("awq");
  EXPECT_LT(*fp4.performance.ttft_ms, 0.4 * *int4.performance.ttft_ms);
  EXPECT_TRUE(Mentions(fp4, "W4A4"));
  EXPECT_TRUE(Mentions(int4, "weight-only"));
  // mxfp4 names the same format; fp4 is refused before Blackwell.
  Workload h100 = Llama8b({{"quantization", "mxfp4"}});
  EXPECT_FALSE(EstimateWorkload(h100, Gpus("H100", 1)).ok());
}

TEST(ServeEngineTest, StreamedTokensCostPerSequenceAsConcurrencyGrows) {
  const Estimate c1 = Serve(Llama8b({{"concurrency", "1"}}), "H100");
  const Estimate c200 = Serve(Llama8b({{"concurrency", "200"}}), "H100");
  const Estimate quiet = Serve(Llama8b({{"concurrency", "200"}, {"streaming", "false"}}), "H100");
  // 40 us per streamed token and sequence: 8 ms at 200 concurrent requests.
  EXPECT_NEAR(*c200.performance.itl_ms - *quiet.performance.itl_ms, 0.8 + 200 * 0.04, 0.5);
  EXPECT_GT(*c200.performance.itl_ms, 2 * *c1.performance.itl_ms);
}

// Attention data parallelism (TensorRT-LLM's enable_attention_dp): DeepSeek's MLA latent is one
// KV head, so tensor parallelism keeps the whole cache on every rank; with attention DP each rank
// holds only its own requests' cache and the node serves several times the requests, at the
// price of the attention weights on every rank.
Workload DeepSeekR1(bool attention_dp) {
  Workload w = MakeWorkload({{"task", "serve"},
                             {"model", "deepseek-r1"},
                             {"quantization", "fp8"},
                             {"kv-precision", "fp8"},
                             {"engine", "trtllm"},
                             {"tp", "8"},
                             {"input-tokens", "1024"},
                             {"output-tokens", "2048"}});
  if (attention_dp) {
    EXPECT_TRUE(GiveField(&w, "attention-dp", "true").ok());
  }
  EXPECT_TRUE(Validate(w).ok()) << Validate(w).ToString();
  return w;
}

TEST(ServeEngineTest, AttentionDataParallelHoldsTheLatentCacheOnce) {
  const Estimate tp = Serve(DeepSeekR1(false), "H200", 8);
  const Estimate dp = Serve(DeepSeekR1(true), "H200", 8);
  // The same cache per token; each rank keeps 1/8 of the requests instead of all of them.
  EXPECT_DOUBLE_EQ(*tp.memory.kv_cache_kib_per_token, *dp.memory.kv_cache_kib_per_token);
  EXPECT_GT(*dp.performance.max_concurrency, 4 * *tp.performance.max_concurrency);
  // Attention and the dense layers are whole on every rank: more weight bytes per device.
  EXPECT_GT(*dp.memory.weights_gib, *tp.memory.weights_gib + 5);
  EXPECT_GT(*dp.performance.tokens_per_s, 2 * *tp.performance.tokens_per_s);
  EXPECT_TRUE(Mentions(dp, "attention data-parallel over the 8 ranks"));
  EXPECT_FALSE(Mentions(tp, "attention data-parallel"));
}

TEST(ServeEngineTest, AttentionDataParallelNeedsExpertsAndAnEngineWithIt) {
  Workload dense = Llama8b({{"tp", "8"}, {"attention-dp", "true"}});
  Result<Estimate> e = EstimateWorkload(dense, Gpus("H100", 8));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("attention-dp: applies to MoE models", 0), 0u)
      << e.status().message();
  Workload tgi = DeepSeekR1(true);
  ASSERT_TRUE(GiveField(&tgi, "engine", "tgi").ok());
  e = EstimateWorkload(tgi, Gpus("H200", 8));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("attention-dp: tgi", 0), 0u) << e.status().message();
  // Attention DP spreads the requests over a TP group's ranks: one GPU has none.
  Workload one = DeepSeekR1(true);
  one.parallelism.tp.reset();
  e = EstimateWorkload(one, Gpus("H200", 1));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().rfind("attention-dp: runs over the ranks", 0), 0u)
      << e.status().message();
  Workload train = MakeWorkload({{"task", "pretrain"}, {"model", "deepseek-v3"}, {"tokens", "1B"}});
  const Status bound = GiveField(&train, "attention-dp", "true");
  const Status st = bound.ok() ? Validate(train) : bound;
  EXPECT_EQ(st.message().rfind("attention-dp:", 0), 0u) << st.message();
}

}  // namespace
}  // namespace gpuadvisor
