// Diffusion from its pipeline (issue 23, item 3): the UNet and the VAE decoder counted from their
// layouts, the pipeline around the UNet, and the causes that set its time -- wave quantization at
// small batches, normalisation passes between the GEMMs, eager dispatch, the NeuronCore's
// softmax on its Vector Engine.
#include "workload/diffusion.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::MakeWorkload;
using workload_internal::CountUNet;
using workload_internal::CountVaeDecoder;
using workload_internal::NetworkCounts;
using workload_internal::TileStretch;

const ModelArch& Preset(const char* name) {
  static Workload w;
  if (!GiveField(&w, "model", name).ok()) std::abort();
  return w.model;
}

// Published counts: NVIDIA's TensorRT Stable Diffusion talk gives 1.68e12 FLOP for the SD 1.5
// UNet's guided pair at 64x64 latents (0.84e12 per evaluation, non-GEMM operators included) and
// 2.54e12 for the VAE decoder at 512 px.
TEST(DiffusionCountTest, MatchesPublishedCounts) {
  const NetworkCounts sd15 = CountUNet(Preset("stable-diffusion-1.5").unet, 64);
  EXPECT_NEAR(sd15.Total(), 0.84e12, 0.06e12);
  EXPECT_NEAR(CountVaeDecoder(64).Total(), 2.54e12, 0.05e12);
  // SD 2 keeps SD 1.5's widths: the same GEMM work, different heads (64-wide: fewer scores).
  const NetworkCounts sd2 = CountUNet(Preset("stable-diffusion-2").unet, 64);
  EXPECT_NEAR(sd2.Total() / sd15.Total(), 1.0, 0.01);
  EXPECT_LT(sd2.scores, sd15.scores);
  // SDXL at 1024 px: 6.8 TFLOP per evaluation, mostly transformer GEMMs (70 blocks).
  const NetworkCounts xl = CountUNet(Preset("stable-diffusion-xl").unet, 128);
  EXPECT_NEAR(xl.Total(), 6.76e12, 0.1e12);
  EXPECT_GT(xl.gemm, 2 * xl.conv);
}

TEST(DiffusionCountTest, AttentionGrowsWithTheAreaSquared) {
  const ModelArch::UNetLayout& u = Preset("stable-diffusion-2").unet;
  const NetworkCounts at512 = CountUNet(u, 64), at768 = CountUNet(u, 96);
  EXPECT_NEAR(at768.conv / at512.conv, 2.25, 0.01);   // convolutions: the area
  EXPECT_GT(at768.attention / at512.attention, 4.0);  // self-attention: the area squared
  EXPECT_GT(at768.Total() / at512.Total(), 2.6);
}

// A 128x128 tile per SM: a batch of 2 leaves most SMs idle in the 8x8 level; a large batch fills
// every wave.
TEST(DiffusionCountTest, SmallBatchesUnderfillTheWaves) {
  const NetworkCounts c = CountUNet(Preset("stable-diffusion-1.5").unet, 64);
  const double small = TileStretch(c.gemms, 2, 108), large = TileStretch(c.gemms, 128, 108);
  EXPECT_GT(small, 1.5);
  EXPECT_LT(large, 1.15);
  EXPECT_DOUBLE_EQ(TileStretch(c.gemms, 2, 0), 1);  // unknown SM count: no effect
}

double ImagesPerS(const Workload& w, const Hardware& hw) {
  Result<Estimate> e = EstimateWorkload(w, hw);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return e.ok() ? e->performance.images_per_s.value_or(0) : 0;
}

TEST(DiffusionPipelineTest, GuidanceStepsAndDecoderAreCounted) {
  Workload w = MakeWorkload({{"task", "infer-vision"},
                             {"model", "stable-diffusion-xl"},
                             {"images", "100"},
                             {"steps", "20"},
                             {"batch", "8"},
                             {"engine", "fused"}});
  Result<Estimate> e = EstimateWorkload(w, testing::Gpus("H100", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  const double unet = CountUNet(w.model.unet, 128).Total();
  const double decoder = CountVaeDecoder(128).Total();
  const double text = 2 * w.model.text_encoder_params * 77 * 2;  // prompt and negative prompt
  EXPECT_NEAR(*e->flops_total / 100, 2 * 20 * unet + decoder + text, 1e9);
  Workload unguided = w;
  ASSERT_TRUE(GiveField(&unguided, "guidance", "false").ok());
  EXPECT_GT(
      ImagesPerS(unguided, testing::Gpus("H100", 1)) / ImagesPerS(w, testing::Gpus("H100", 1)),
      1.8);
}

// Training updates the UNet alone: its weights, gradients and Adam states, not the text encoders'
// or the autoencoder's (they made the precomputed embeddings and latents).
TEST(DiffusionPipelineTest, TrainingMemoryCountsTheUnetOnly) {
  Workload w = MakeWorkload({{"task", "train-vision"},
                             {"model", "stable-diffusion-2"},
                             {"images", "1M"},
                             {"batch", "8"}});
  Result<Estimate> e = EstimateWorkload(w, testing::Gpus("A100-80GB", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  const double unet = w.model.params - w.model.text_encoder_params - workload_internal::kVaeParams;
  ASSERT_TRUE(e->memory.weights_gib.has_value());
  EXPECT_NEAR(*e->memory.weights_gib * 1073741824.0, unet * 4, 1e6);
}

// Activations as autograd keeps them, each tensor once. The runs NVIDIA published in MLPerf
// Training fit: SD 2 at batch 64 per H100 (v4.0, config_DGXH100_01x08x64.sh) and at batch 32
// per B200 (v4.1). Eager autocast keeps the norms' FP32 copies on top of the fused engine's.
TEST(DiffusionPipelineTest, TrainingActivationsAreTheTensorsAutogradKeeps) {
  const NetworkCounts c = CountUNet(Preset("stable-diffusion-2").unet, 64);
  // Per transformer block and token: 24 widths kept (not the 2 per output of a conv net: 42).
  EXPECT_GT(c.saved, 0.5 * c.outputs);
  EXPECT_LT(c.saved, 1.5 * c.outputs);
  EXPECT_GT(c.saved_fp32_eager, 0);
  const auto estimate = [](const char* batch, const char* engine, const char* gpu) {
    Workload w = MakeWorkload({{"task", "train-vision"},
                               {"model", "stable-diffusion-2"},
                               {"images", "1M"},
                               {"precision", "fp16"},
                               {"engine", engine},
                               {"batch", batch}});
    Result<Estimate> e = EstimateWorkload(w, testing::Gpus(gpu, 8));
    if (!e.ok()) std::abort();
    return *e;
  };
  const Estimate h100 = estimate("64", "fused", "H100");
  EXPECT_TRUE(h100.memory.fits) << h100.memory.total_gib;
  EXPECT_GT(h100.memory.total_gib, 40);  // still most of the device
  EXPECT_TRUE(estimate("32", "fused", "B200").memory.fits);
  const Estimate eager = estimate("32", "eager", "H100");
  const Estimate fused = estimate("32", "fused", "H100");
  ASSERT_TRUE(eager.memory.activations_gib && fused.memory.activations_gib);
  EXPECT_GT(*eager.memory.activations_gib, 1.3 * *fused.memory.activations_gib);
}

// Each optimizer step streams the UNet's FP32 states; a global batch beyond batch x devices
// accumulates gradients and pays it once per step. A global batch below it is an error.
TEST(DiffusionPipelineTest, OptimizerStepPerGlobalBatch) {
  const auto images_per_s = [](const char* global) -> Result<Estimate> {
    Workload w = MakeWorkload({{"task", "train-vision"},
                               {"model", "stable-diffusion-2"},
                               {"images", "1M"},
                               {"batch", "16"}});
    if (global != nullptr) w.global_batch = std::atoi(global);
    return EstimateWorkload(w, testing::Gpus("A100-40GB", 8));
  };
  const Result<Estimate> per_batch = images_per_s(nullptr), accumulated = images_per_s("2048");
  ASSERT_TRUE(per_batch.ok() && accumulated.ok());
  EXPECT_GT(*accumulated->performance.images_per_s, 1.03 * *per_batch->performance.images_per_s);
  const Result<Estimate> small = images_per_s("64");
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().field(), "global-batch");
}

// Eager PyTorch dispatches every operator from the host: at batch 1 the UNet is bound by it,
// and a fusing engine (TensorRT, CUDA graphs) is not.
TEST(DiffusionPipelineTest, EagerSmallBatchesAreHostBound) {
  Workload eager = MakeWorkload({{"task", "infer-vision"},
                                 {"model", "stable-diffusion-1.5"},
                                 {"images", "100"},
                                 {"batch", "1"},
                                 {"precision", "fp16"},
                                 {"engine", "eager"}});
  Workload fused = eager;
  ASSERT_TRUE(GiveField(&fused, "engine", "fused").ok());
  const Hardware a100 = testing::Gpus("A100-80GB", 1);
  const double e = ImagesPerS(eager, a100), f = ImagesPerS(fused, a100);
  EXPECT_GT(f / e, 1.5);
  // ~1,000 operators per UNet call at 30 us: 50 steps take ~1.4 s however little the GPU does,
  // so two images per call cost hardly more than one.
  EXPECT_LT(e, 0.75);
  Workload two = eager;
  ASSERT_TRUE(GiveField(&two, "batch", "2").ok());
  EXPECT_GT(ImagesPerS(two, a100) / e, 1.5);
}

// The NeuronCore's softmax runs on its Vector Engine: SD at 768 px (5x the scores of 512 px)
// slows down more than its GEMM work grows.
TEST(DiffusionPipelineTest, NeuronSoftmaxOnTheVectorEngine) {
  Workload w512 = MakeWorkload({{"task", "infer-vision"},
                                {"model", "stable-diffusion-2"},
                                {"images", "100"},
                                {"precision", "bf16"}});
  Workload w768 = w512;
  ASSERT_TRUE(GiveField(&w768, "resolution", "768").ok());
  const Hardware inf2 = testing::Gpus("Inferentia2", 1);
  const double ratio = ImagesPerS(w512, inf2) / ImagesPerS(w768, inf2);
  const ModelArch::UNetLayout& u = w512.model.unet;
  const double gemm_ratio = CountUNet(u, 96).Total() / CountUNet(u, 64).Total();
  EXPECT_GT(ratio, gemm_ratio * 1.1);
}

// A quantised diffusion UNet keeps 16-bit activations and quantises every GEMM's input: FP8 buys
// far less than its doubled peak (MLPerf SDXL: H100 FP8 16.3 images/s where FP16 estimates ~15).
TEST(DiffusionPipelineTest, QuantisedUnetKeeps16BitActivations) {
  Workload fp16 = MakeWorkload({{"task", "infer-vision"},
                                {"model", "stable-diffusion-xl"},
                                {"images", "100"},
                                {"steps", "20"},
                                {"batch", "32"},
                                {"engine", "fused"},
                                {"precision", "fp16"}});
  Workload fp8 = fp16;
  ASSERT_TRUE(GiveField(&fp8, "precision", "fp8").ok());
  const Hardware h100 = testing::Gpus("H100", 8);
  const double gain = ImagesPerS(fp8, h100) / ImagesPerS(fp16, h100);
  EXPECT_GT(gain, 1.0);
  EXPECT_LT(gain, 1.3);
}

// A small batch of a CNN keeps its layer outputs in the L4's 48 MB L2: faster than the same part
// without the cache; a batch in the hundreds does not fit and gains nothing.
TEST(VisionCacheTest, SmallBatchesReuseTheL2) {
  GpuSpec no_cache = testing::TestGpu("L4");
  no_cache.l2_cache_mib = std::nullopt;
  Hardware cached = testing::Gpus("L4", 1), uncached = cached;
  uncached.gpu = &no_cache;
  Workload w = MakeWorkload({{"task", "infer-vision"},
                             {"model", "resnet50"},
                             {"images", "1M"},
                             {"precision", "int8"},
                             {"engine", "fused"},
                             {"batch", "16"}});
  EXPECT_GT(ImagesPerS(w, cached) / ImagesPerS(w, uncached), 1.3);
  ASSERT_TRUE(GiveField(&w, "batch", "512").ok());
  EXPECT_NEAR(ImagesPerS(w, cached) / ImagesPerS(w, uncached), 1.0, 0.05);
}

}  // namespace
}  // namespace gpuadvisor
