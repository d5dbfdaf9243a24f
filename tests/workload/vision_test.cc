// Vision from kernel classes, the new presets, custom vision models, Neuron vision inference and
// HPC on FP64 tensor cores (issue 15; doc/estimation.md, "Vision" and "HPC").
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gpuadvisor/estimate.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::GiveField;

using testing::Gpus;
using testing::MakeWorkload;
using testing::Mentions;

double ImagesPerS(const Workload& w, const Hardware& hw) {
  Result<Estimate> e = EstimateWorkload(w, hw);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  if (!e.ok() || !e->performance.images_per_s) return NAN;
  return *e->performance.images_per_s;
}

Workload Resnet50Inference(const char* precision, const char* batch, const char* engine) {
  Workload w = MakeWorkload({{"task", "infer-vision"},
                             {"model", "resnet50"},
                             {"images", "1M"},
                             {"precision", precision},
                             {"batch", batch}});
  if (engine != nullptr) {
    EXPECT_TRUE(GiveField(&w, "engine", engine).ok());
  }
  return w;
}

TEST(VisionKernelClassTest, FusedEngineMovesLessActivationTraffic) {
  // TensorRT-style fusion removes the normalisation/activation passes: on a bandwidth-bound
  // device (T4) fused inference is much faster than eager PyTorch at the same precision.
  const double eager = ImagesPerS(Resnet50Inference("fp16", "256", "eager"), Gpus("T4", 1));
  const double fused = ImagesPerS(Resnet50Inference("fp16", "256", "fused"), Gpus("T4", 1));
  EXPECT_GT(fused, 1.5 * eager);
  Result<Estimate> e =
      EstimateWorkload(Resnet50Inference("fp16", "256", "tensorrt"), Gpus("T4", 1));
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(Mentions(*e, "engine fused"));
}

TEST(VisionKernelClassTest, Int8InferenceIsFusedAndFasterButNotTwiceThePeakRatio) {
  const Workload int8 = MakeWorkload({{"task", "infer-vision"},
                                      {"model", "resnet50"},
                                      {"images", "1M"},
                                      {"precision", "int8"},
                                      {"batch", "1024"}});
  Result<Estimate> e = EstimateWorkload(int8, Gpus("H100", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->precision, Precision::kInt8);
  EXPECT_TRUE(Mentions(*e, "engine fused"));  // int8 defaults to a TensorRT-style engine
  const double fp16 = ImagesPerS(Resnet50Inference("fp16", "1024", "fused"), Gpus("H100", 1));
  EXPECT_GT(*e->performance.images_per_s, 1.2 * fp16);
  EXPECT_LT(*e->performance.images_per_s, 2.0 * fp16);  // INT8 kernels: 0.85 of their share
  // int8 belongs to vision inference in a fused engine only.
  Workload eager = int8;
  ASSERT_TRUE(GiveField(&eager, "engine", "eager").ok());
  Status st = Validate(eager);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message().rfind("engine:", 0), 0u) << st.message();
  Workload train =
      MakeWorkload({{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1M"}});
  ASSERT_TRUE(GiveField(&train, "precision", "int8").ok());
  st = Validate(train);
  EXPECT_EQ(st.message().rfind("precision:", 0), 0u) << st.message();
}

TEST(VisionKernelClassTest, Tf32ConvolutionsPayForNchwAndFourByteActivations) {
  // DeepLearningExamples ResNet-50 on 1x A100: AMP 2470 img/s, TF32 938 (2.63x); the model's
  // ratio comes from the 2x peak, 4-byte activations and NCHW transposes, not a fitted factor.
  const Workload amp = MakeWorkload({{"task", "train-vision"},
                                     {"model", "resnet50"},
                                     {"images", "1.28M"},
                                     {"precision", "fp16"}});
  const Workload tf32 = MakeWorkload({{"task", "train-vision"},
                                      {"model", "resnet50"},
                                      {"images", "1.28M"},
                                      {"precision", "tf32"}});
  const double ratio =
      ImagesPerS(amp, Gpus("A100-80GB", 1)) / ImagesPerS(tf32, Gpus("A100-80GB", 1));
  EXPECT_GT(ratio, 2.0);
  EXPECT_LT(ratio, 3.0);
}

TEST(VisionKernelClassTest, SmallBatchesUnderFillTheDevice) {
  double previous = 0;
  for (const char* batch : {"1", "4", "16", "64", "256"}) {
    const double ips = ImagesPerS(Resnet50Inference("fp16", batch, "fused"), Gpus("A100-80GB", 1));
    EXPECT_GE(ips, previous) << batch;
    previous = ips;
  }
  const double b1 = ImagesPerS(Resnet50Inference("fp16", "1", "fused"), Gpus("A100-80GB", 1));
  EXPECT_LT(b1, 0.3 * previous);  // one image per launch leaves most of the GPU idle
  // Eager PyTorch at batch 1 is host-bound: slower still.
  EXPECT_LT(ImagesPerS(Resnet50Inference("fp16", "1", "eager"), Gpus("A100-80GB", 1)), b1);
}

TEST(VisionKernelClassTest, ResolutionScalesFlopByAreaOrVolume) {
  auto flops = [](const char* model, const char* resolution) {
    Workload w = MakeWorkload({{"task", "infer-vision"}, {"model", model}, {"images", "100"}});
    if (resolution != nullptr) {
      EXPECT_TRUE(GiveField(&w, "resolution", resolution).ok());
    }
    Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 1));
    EXPECT_TRUE(e.ok());
    return e.ok() ? e->flops_total.value_or(NAN) : NAN;
  };
  EXPECT_NEAR(flops("resnet50", "448") / flops("resnet50", nullptr), 4.0, 1e-9);
  EXPECT_NEAR(flops("unet3d", "64") / flops("unet3d", nullptr), 1.0 / 8, 1e-9);  // 128^3 -> 64^3
}

TEST(VisionPresetTest, NewPresetsTrainAndInfer) {
  for (const char* model : {"unet3d", "retinanet", "stable-diffusion-2"}) {
    SCOPED_TRACE(model);
    for (const char* task : {"train-vision", "infer-vision"}) {
      const Workload w = MakeWorkload({{"task", task}, {"model", model}, {"images", "10000"}});
      Result<Estimate> e = EstimateWorkload(w, Gpus("H100", 8));
      ASSERT_TRUE(e.ok()) << task << ": " << e.status().ToString();
      EXPECT_GT(*e->performance.images_per_s, 0);
      EXPECT_GT(*e->memory.weights_gib, 0);
      EXPECT_TRUE(e->memory.fits);
    }
  }
  // Diffusion inference runs the guided UNet pair at every step: twice the steps, about half
  // the images per second.
  auto sd = [](const char* steps) {
    return MakeWorkload({{"task", "infer-vision"},
                         {"model", "stable-diffusion-2"},
                         {"images", "100"},
                         {"steps", steps}});
  };
  const double ratio =
      ImagesPerS(sd("25"), Gpus("H100", 1)) / ImagesPerS(sd("50"), Gpus("H100", 1));
  EXPECT_GT(ratio, 1.8);
  EXPECT_LT(ratio, 2.0);
}

TEST(VisionCustomModelTest, FieldsWorkInFilesFlagsAndHelp) {
  for (const char* key :
       {"fwd-gflop-per-sample", "activation-mb-per-sample", "kernel-class", "engine", "hpc-kind"}) {
    EXPECT_NE(FindWorkloadFieldInfo(key), nullptr) << key;
  }
  Result<Workload> w = ParseWorkloadYaml(
      "task: infer-vision\nfwd-gflop-per-sample: 8.18\nactivation-mb-per-sample: 22.2\n"
      "kernel-class: conv\nparams: 25.6M\nimages: 1M\nbatch: 256\nresolution: 224\n",
      "custom.yaml");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE(Validate(*w).ok()) << Validate(*w).ToString();
  EXPECT_DOUBLE_EQ(w->model.fwd_flop_per_image, 8.18e9);
  EXPECT_DOUBLE_EQ(w->model.act_elems_per_image, 11.1e6);
  // The same figures as the resnet50 preset give nearly its throughput (the preset also knows
  // its narrow stage-1 layers, so the custom model is a little faster).
  const double custom = ImagesPerS(*w, Gpus("A100-80GB", 1));
  const double preset = ImagesPerS(Resnet50Inference("bf16", "256", nullptr), Gpus("A100-80GB", 1));
  EXPECT_GE(custom, preset);
  EXPECT_LT(custom, 1.2 * preset);
  Result<Estimate> e = EstimateWorkload(*w, Gpus("A100-80GB", 1));
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(Mentions(*e, "layers per forward pass (custom model)"));
  // H100 vision inference is measured (MLPerf), but a custom description caps the grade.
  Result<Estimate> h100 = EstimateWorkload(*w, Gpus("H100", 1));
  ASSERT_TRUE(h100.ok());
  EXPECT_EQ(h100->confidence, Confidence::kMedium);
  EXPECT_EQ(
      EstimateWorkload(Resnet50Inference("bf16", "256", nullptr), Gpus("H100", 1))->confidence,
      Confidence::kHigh);
  // A GEMM-bound model (a transformer) reads each activation fewer times than a conv-BN-ReLU one.
  Workload gemm = *w;
  ASSERT_TRUE(GiveField(&gemm, "kernel-class", "gemm").ok());
  EXPECT_GT(ImagesPerS(gemm, Gpus("A100-80GB", 1)), custom);
  // Explicit figures survive a preset given after them.
  WorkloadFields given;
  for (const auto& [k, v] : {std::pair{"task", "train-vision"},
                             {"fwd-gflop-per-sample", "8.18"},
                             {"kernel-class", "gemm"},
                             {"model", "vit-b16"}}) {
    ASSERT_TRUE(given.Give(k, {.text = v}).ok());
  }
  Result<Workload> bound = given.Bind();
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_DOUBLE_EQ(bound->model.fwd_flop_per_image, 8.18e9);
  EXPECT_EQ(bound->model.kernel_class, KernelClass::kGemm);
  // On a preset with its own kernel mix, too: all of ResNet-50's FLOP as attention is slower.
  Workload resnet = Resnet50Inference("bf16", "256", nullptr);
  Workload attention = resnet;
  ASSERT_TRUE(GiveField(&attention, "kernel-class", "attention").ok());
  EXPECT_LT(ImagesPerS(attention, Gpus("A100-80GB", 1)), ImagesPerS(resnet, Gpus("A100-80GB", 1)));
}

TEST(VisionCustomModelTest, BadValuesNameTheField) {
  Workload w;
  Status st = GiveField(&w, "kernel-class", "winograd");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message().rfind("kernel-class:", 0), 0u) << st.message();
  st = GiveField(&w, "fwd-gflop-per-sample", "-3");
  EXPECT_EQ(st.message().rfind("fwd-gflop-per-sample:", 0), 0u) << st.message();
  st = GiveField(&w, "engine", "onnx");
  EXPECT_EQ(st.message().rfind("engine:", 0), 0u) << st.message();
  // No preset and no FLOP figure: the model field says what is missing.
  ASSERT_TRUE(GiveField(&w, "task", "infer-vision").ok());
  ASSERT_TRUE(GiveField(&w, "images", "100").ok());
  st = Validate(w);
  EXPECT_EQ(st.message().rfind("model:", 0), 0u) << st.message();
  EXPECT_NE(st.message().find("fwd-gflop-per-sample"), std::string::npos);
}

TEST(VisionNeuronTest, InferenceAndTrainiumTrainingAreEstimated) {
  const Workload infer = MakeWorkload(
      {{"task", "infer-vision"}, {"model", "resnet50"}, {"images", "1M"}, {"batch", "8"}});
  for (const char* device : {"Inferentia2", "Trainium", "Trainium2"}) {
    Result<Estimate> e = EstimateWorkload(infer, Gpus(device, 1));
    ASSERT_TRUE(e.ok()) << device << ": " << e.status().ToString();
    EXPECT_EQ(e->precision, Precision::kBf16);
    EXPECT_TRUE(Mentions(*e, "engine fused")) << device;  // the Neuron compiler fuses
  }
  // ResNet-50's narrow stem and stage 1 under-fill the 128-row systolic array: a lower share of
  // the BF16 peak than ViT-B/16, whose layers are all 768 wide (inf2 tables: 19% vs 36%).
  Result<Estimate> resnet = EstimateWorkload(infer, Gpus("Inferentia2", 1));
  const Workload vit = MakeWorkload(
      {{"task", "infer-vision"}, {"model", "vit-b16"}, {"images", "1M"}, {"batch", "8"}});
  Result<Estimate> v = EstimateWorkload(vit, Gpus("Inferentia2", 1));
  ASSERT_TRUE(resnet.ok() && v.ok());
  EXPECT_LT(*resnet->performance.mfu, 0.8 * *v->performance.mfu);
  EXPECT_GT(*resnet->performance.mfu, 0.1);
  const Workload train =
      MakeWorkload({{"task", "train-vision"}, {"model", "resnet50"}, {"images", "1M"}});
  EXPECT_TRUE(EstimateWorkload(train, Gpus("Trainium", 16)).ok());  // issue 23: estimated
  EXPECT_EQ(EstimateWorkload(train, Gpus("Inferentia2", 1)).status().code(),
            StatusCode::kUnsupported);
  Workload eager = infer;
  ASSERT_TRUE(GiveField(&eager, "engine", "eager").ok());
  Status st = EstimateWorkload(eager, Gpus("Inferentia2", 1)).status();
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_EQ(st.message().rfind("engine:", 0), 0u);
  const Workload diffusion =
      MakeWorkload({{"task", "infer-vision"}, {"model", "stable-diffusion-2"}, {"images", "10"}});
  EXPECT_TRUE(EstimateWorkload(diffusion, Gpus("Inferentia2", 1)).ok());
}

TEST(HpcKindTest, DenseLinearAlgebraRunsOnFp64TensorCores) {
  Workload dense = MakeWorkload({{"task", "hpc"}, {"hpc-kind", "dense-la"}, {"fp64-flop", "1e18"}});
  EXPECT_EQ(dense.hpc_kind, HpcKind::kDenseLa);
  Result<Estimate> e = EstimateWorkload(dense, Gpus("H100", 8));
  ASSERT_TRUE(e.ok());
  // TOP500 Hopper median Rmax/Rpeak 0.663 of the 67 TFLOP/s FP64 tensor peak.
  EXPECT_NEAR(*e->performance.sustained_tflops, 8 * 67 * 0.663, 1e-6);
  const Workload general = MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e18"}});
  Result<Estimate> g = EstimateWorkload(general, Gpus("H100", 8));
  ASSERT_TRUE(g.ok());
  EXPECT_NEAR(*g->performance.sustained_tflops, 8 * 34 * 0.6, 1e-6);  // vector FP64 stays
  EXPECT_TRUE(Mentions(*g, "hpc-kind dense-la"));
  // No FP64 tensor cores: dense LA on the vector peak at the generation's HPL efficiency.
  Result<Estimate> v = EstimateWorkload(dense, Gpus("V100", 8));
  ASSERT_TRUE(v.ok());
  EXPECT_NEAR(*v->performance.sustained_tflops, 8 * 7.8 * 0.747, 1e-6);
  // The TOP500 ratios are whole-system runs: no extra multi-node loss for dense LA.
  Result<Estimate> two_nodes = EstimateWorkload(dense, Gpus("H100", 16));
  ASSERT_TRUE(two_nodes.ok());
  EXPECT_NEAR(*two_nodes->performance.sustained_tflops, 2 * *e->performance.sustained_tflops, 1e-6);
  Workload bad;
  Status st = GiveField(&bad, "hpc-kind", "stencils");
  EXPECT_EQ(st.message().rfind("hpc-kind:", 0), 0u) << st.message();
}

// Memory-bound codes: arithmetic intensity x 90% of peak bandwidth (STREAM), capped by the
// general-code share of the vector peak; bytes moved give the same intensity.
TEST(HpcKindTest, MemoryBoundRunsAtSustainedBandwidth) {
  const Workload hpcg = MakeWorkload({{"task", "hpc"},
                                      {"hpc-kind", "memory-bound"},
                                      {"fp64-flop", "1e15"},
                                      {"arithmetic-intensity", "0.1667"}});
  Result<Estimate> e = EstimateWorkload(hpcg, Gpus("H100", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_NEAR(*e->performance.sustained_tflops, 0.1667 * 3350 * 0.9 / 1000, 1e-6);
  const Workload bytes = MakeWorkload(
      {{"task", "hpc"}, {"hpc-kind", "hpcg"}, {"fp64-flop", "1e15"}, {"bytes-moved", "6e15"}});
  Result<Estimate> b = EstimateWorkload(bytes, Gpus("H100", 1));
  ASSERT_TRUE(b.ok());
  EXPECT_NEAR(*b->performance.sustained_tflops, 3350 * 0.9 / 6 / 1000, 1e-6);
  // A high intensity is capped by the vector peak (general-code efficiency 0.6).
  const Workload dense = MakeWorkload({{"task", "hpc"},
                                       {"hpc-kind", "memory-bound"},
                                       {"fp64-flop", "1e15"},
                                       {"arithmetic-intensity", "1000"}});
  Result<Estimate> d = EstimateWorkload(dense, Gpus("H100", 1));
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(*d->performance.sustained_tflops, 34 * 0.6, 1e-6);
}

TEST(HpcKindTest, MixedPrecisionFactorisesOnTensorCores) {
  auto mxp = [](const char* precision) {
    return MakeWorkload({{"task", "hpc"},
                         {"hpc-kind", "mixed-precision"},
                         {"fp64-flop", "1e16"},
                         {"precision", precision}});
  };
  Result<Estimate> fp16 = EstimateWorkload(mxp("fp16"), Gpus("H100", 8));
  Result<Estimate> fp8 = EstimateWorkload(mxp("fp8"), Gpus("H100", 8));
  ASSERT_TRUE(fp16.ok() && fp8.ok());
  EXPECT_EQ(fp8->precision, Precision::kFp8);
  // The trailing-matrix traffic does not shrink with the format: FP8 gains less than 2x.
  const double gain = *fp8->performance.sustained_tflops / *fp16->performance.sustained_tflops;
  EXPECT_GT(gain, 1.2);
  EXPECT_LT(gain, 2.0);
  // Well above the FP64 tensor rate, well below the FP16 dense peak.
  EXPECT_GT(*fp16->performance.sustained_tflops, 8 * 67);
  EXPECT_LT(*fp16->performance.sustained_tflops, 8 * 989 * 0.65);
  EXPECT_EQ(EstimateWorkload(mxp("fp8"), Gpus("A100-80GB", 8)).status().code(),
            StatusCode::kUnsupported);
  Workload fp32 = mxp("fp16");
  fp32.precision = Precision::kFp32;
  Status st = Validate(fp32);
  EXPECT_EQ(st.message().rfind("precision:", 0), 0u) << st.message();
}

TEST(HpcKindTest, InputsOfOneKindAreRefusedElsewhere) {
  Workload w = MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e15"}});
  w.arithmetic_intensity = 0.2;
  EXPECT_EQ(Validate(w).message().rfind("arithmetic-intensity:", 0), 0u);
  w.arithmetic_intensity = 0;
  w.hpc_kind = HpcKind::kMemoryBound;
  EXPECT_EQ(Validate(w).message().rfind("arithmetic-intensity:", 0), 0u);
  Workload vision =
      MakeWorkload({{"task", "infer-vision"}, {"model", "resnet50"}, {"images", "10"}});
  vision.bytes_moved = 1e12;
  EXPECT_EQ(Validate(vision).message().rfind("bytes-moved:", 0), 0u);
}

// Nothing priced far too fast silently: FP64 on a part with weak FP64 warns.
TEST(HpcKindTest, WeakFp64Warns) {
  const Workload w = MakeWorkload({{"task", "hpc"}, {"fp64-flop", "1e15"}});
  Result<Estimate> e = EstimateWorkload(w, Gpus("L4", 1));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_TRUE(Mentions(*e, "weak FP64"));
  Result<Estimate> h = EstimateWorkload(w, Gpus("H100", 1));
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(Mentions(*h, "weak FP64"));
  EXPECT_TRUE(Mentions(*h, "hpc-kind memory-bound"));
}

// Diffusion from its pipeline: guidance doubles the UNet evaluations, self-attention grows with
// the latent area squared, FP8 speeds up the GEMMs and convolutions but not the attention.
TEST(DiffusionPipelineTest, GuidanceAttentionAndFp8) {
  auto sd = [](const char* key = "images", const char* value = "100") {
    // Fused (TensorRT-style): eager PyTorch at batch 1 is bound by the host's kernel dispatch,
    // which the guided pair (one batch-2 forward) does not change.
    Workload w = MakeWorkload({{"task", "infer-vision"},
                               {"model", "stable-diffusion-2"},
                               {"images", "100"},
                               {"engine", "fused"}});
    EXPECT_TRUE(GiveField(&w, key, value).ok());
    return w;
  };
  const double guided = ImagesPerS(sd(), Gpus("H100", 1));
  const double unguided = ImagesPerS(sd("guidance", "false"), Gpus("H100", 1));
  // Half the UNet work; the per-layer fill cost of a batch and the VAE decoder stay.
  EXPECT_GT(unguided / guided, 1.3);
  EXPECT_LT(unguided / guided, 2.0);
  // 768 px has 2.25x the latent area: more than 2.25x the time (attention grows as area^2).
  const Workload w512 = sd();
  const Workload w768 = sd("resolution", "768");
  Result<Estimate> e512 = EstimateWorkload(w512, Gpus("H100", 1));
  Result<Estimate> e768 = EstimateWorkload(w768, Gpus("H100", 1));
  ASSERT_TRUE(e512.ok() && e768.ok());
  EXPECT_GT(*e768->flops_total / *e512->flops_total, 2.25 * 1.1);
  EXPECT_GT(ImagesPerS(w512, Gpus("Inferentia2", 1)) / ImagesPerS(w768, Gpus("Inferentia2", 1)),
            2.25 * 1.1);
  // FP8: faster than BF16, but less than 2x (attention and the VAE stay 16-bit).
  const double fp8 = ImagesPerS(sd("precision", "fp8"), Gpus("H100", 1));
  const double bf16 = ImagesPerS(sd(), Gpus("H100", 1));
  EXPECT_GT(fp8 / bf16, 1.1);
  EXPECT_LT(fp8 / bf16, 1.9);
  // Guidance is a diffusion-inference input only.
  Workload vit = MakeWorkload({{"task", "infer-vision"}, {"model", "vit-b16"}, {"images", "10"}});
  vit.guidance = false;
  EXPECT_EQ(Validate(vit).message().rfind("guidance:", 0), 0u);
}

// Vision training on Trainium is estimated (AWS publishes ViT fine-tuning throughput).
TEST(DiffusionPipelineTest, VisionTrainingOnTrainiumIsEstimated) {
  const Workload vit = MakeWorkload({{"task", "train-vision"},
                                     {"model", "vit-b16"},
                                     {"images", "1M"},
                                     {"batch", "64"},
                                     {"precision", "bf16"}});
  Result<Estimate> e = EstimateWorkload(vit, Gpus("Trainium", 16));
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_GT(*e->performance.images_per_s, 0);
  EXPECT_EQ(EstimateWorkload(vit, Gpus("Inferentia2", 1)).status().code(),
            StatusCode::kUnsupported);
}

}  // namespace
}  // namespace gpuadvisor
