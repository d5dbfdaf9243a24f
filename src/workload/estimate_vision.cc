// Vision training and inference from kernel classes (doc/estimation.md, "Vision").
//
// A model's forward FLOP are spread over convolution, GEMM and attention kernels, each at its
// own share of the dense peak of the compute precision; the activations the layers write are
// read back a number of times that depends on the framework (eager PyTorch vs a fusing engine
// such as TensorRT or the Neuron compiler). Per sample the two terms meet in a roofline with
// partial overlap; per batch every layer takes at least a launch's worth of time, so small
// batches under-fill the device.
#include <algorithm>
#include <cmath>

#include "util/text.h"
#include "workload/diffusion.h"
#include "workload/estimate_internal.h"

namespace gpuadvisor::workload_internal {
namespace {

// Share of the smaller roofline term left exposed. Eager: the normalisation/activation kernels
// run between the convolutions and cuDNN hides part of them in its epilogues (0.5, set on the
// DeepLearningExamples ResNet-50 rows). Fused: the elementwise work runs inside the conv/GEMM
// epilogues and only the layer-boundary traffic the next layer waits for stays exposed (0.25;
// checked on the seven CNN rows of the AWS Neuron inf2 table and MLPerf ResNet-50 on H100).
constexpr double kUnhiddenEager = 0.5;
constexpr double kUnhiddenFused = 0.25;
// INT8/FP8 kernels reach 0.85 of the 16-bit kernels' share of their (doubled) peak, as the FP8
// GEMMs of the training model (TransformerEngine; NeMo's FP8/BF16 speed-ups of 1.3-1.6x).
constexpr double kLowPrecisionEfficiency = 0.85;
// Fused attention relative to a large GEMM: FlashAttention-2 reaches 50-73% of the A100 peak
// (Dao 2023, Fig. 5) where cuBLAS GEMMs reach ~80%.
constexpr double kAttentionVsGemm = 0.8;
// Hopper reaches its dense peak only through warpgroup MMA (wgmma); kernels built on the older
// mma.sync instruction reach about 2/3 of it (Shah et al. 2024, FlashAttention-3, sec. 2.2).
// cuBLAS GEMMs use wgmma (the Hopper matmul efficiency is measured on them); the convolutions
// of cuDNN/TensorRT and FlashAttention-2-class attention kernels that vision models run do not.
constexpr double kHopperLegacyKernelShare = 2.0 / 3;
// Width of the compute tile a narrow layer under-fills: the 128-wide CTA tiles of cuDNN/CUTLASS
// tensor-core kernels (output channels), the 128x128 systolic TensorEngine of a NeuronCore-v2
// (input channels: a convolution is lowered to per-tap matmuls contracting over them; AWS
// Neuron architecture guide). It explains the Neuron inf2 CNN table: ResNet-18 runs at 13% of
// the BF16 peak, VGG-16 at 34%.
constexpr double kTileWidth = 128;
// PyTorch eager on NVIDIA: cuDNN's tensor-core convolutions want NHWC; PyTorch's default NCHW
// layout (which TF32/FP32 runs keep; AMP recipes such as DeepLearningExamples switch to
// channels_last) costs a transpose of every convolution input: one more read and write per
// element and pass (cuDNN "Convolutional Layers User's Guide", tensor layouts).
constexpr double kNchwTransposeAccesses = 2;
// Latent-diffusion code run eagerly (diffusers pipelines, the MosaicML and diffusers training
// scripts) keeps PyTorch's NCHW tensors in 16-bit too, and cuDNN's tensor-core convolutions then
// run through layout transforms and slower kernels. fal.ai's A100 Stable Diffusion 1.5 benchmark
// (github.com/fal-ai/stable-diffusion-benchmarks) measures the switch alone: torch.compile
// 37.01 it/s in NCHW, 46.95 it/s channels_last, 1.27x for the whole step with convolutions ~55%
// of it, so NCHW convolutions take ~1.5x their NHWC time.
constexpr double kNchwConvSlowdown = 1.5;
// Under-fill: a convolution/GEMM kernel cuts its output into 128x128 tiles, one per SM (or per
// NeuronCore pass); a layer with too few tiles for a full wave still takes a wave's time. Modelled
// as a fixed cost per layer and pass on top of the batch's work, t = n x t_sample + layers x
// 5 us, i.e. throughput n / (n + n_half). 5 us sits inside the range the inf2 batch-1 latencies
// give (2-15 us per layer: 0.6 ms for ResNet-18 .. 1.2 ms for ResNet-152); ResNet-50 at batch 1
// with TensorRT on a V100 (~1.1 ms where its FLOP need 0.13 ms: ~18 us per layer) is the slow end.
constexpr double kLayerFillS = 5e-6;
// Eager PyTorch dispatches ~3 operators per layer (conv, norm, activation) from the host at
// ~30 us each (module call, autograd and autocast bookkeeping): ResNet-50 at batch 1 is
// host-bound at 5-13 ms (DeepLearningExamples inference tables on V100 and T4).
constexpr double kEagerOpsPerLayer = 3;
constexpr double kEagerHostPerOpS = 30e-6;
// Host JPEG decode + resize at 224 px per vCPU (PyTorch DataLoader with PIL).
constexpr double kDecodeImagesPerVcpu = 150;
constexpr double kMultiNodeScaling = 0.9;  // data-parallel efficiency across nodes
// Activations kept for the backward pass: each conv/linear output and its normalised copy.
constexpr double kStoredPerElement = 2;
// Inference keeps the largest layers' inputs and outputs alive (ResNet-50: the stem and stage
// 1 hold ~20% of the activation elements).
constexpr double kLiveInferenceShare = 0.2;
// GroupNorm and LayerNorm need each sample's statistics before they can normalise, so no engine
// folds them into the preceding conv as inference folds BatchNorm: a pass of their own that reads
// its input twice (statistics, then normalise) and writes once. Under PyTorch autocast they run
// in FP32 (the autocast op list), so eager frameworks write, and the next kernel reads, 4-byte
// elements: one more access's worth.
constexpr double kNormAccessesFused = 3;
constexpr double kNormAccessesEager = 11;
// FlashAttention's backward pass recomputes the scores: five matmuls of the attention core
// against two forward (Dao 2023, sec. 3.1), 2.5x the forward FLOP where other layers take 2x.
constexpr double kFlashBackwardFactor = 2.5;
// On a NeuronCore the softmax of unfused attention runs on the Vector Engine, 128 elements per
// cycle at 1.12 GHz (NeuronCore-v2; NKI "Trainium/Inferentia2 Architecture Guide", engine
// data-path table): a max pass and a normalising pass per score, the exponent and its sum on the
// Scalar Engine alongside. Diffusion's 4096-token rows make this a term of its own (SD 2 at
// 512 px: 0.49 G scores per UNet evaluation, 6.9 ms of Vector Engine time per NeuronCore).
constexpr double kNeuronVectorElementsPerS = 128 * 1.12e9;
constexpr double kSoftmaxVectorPasses = 2;
// A layer's output is read back by the next layer from the L2 cache instead of HBM when the
// batch's working set (input and output of a layer) fits in the half of the L2 that weights and
// workspaces leave; the largest layers of a CNN hold ~4x the mean (ResNet-50: the stem's and stage
// 1's 0.8 M elements per image against 11.1 M over 54 layers). L4 (48 MB) runs ResNet-50 INT8 at
// small batches from cache; a 4-6 MB L2 (T4, V100) or batches in the hundreds do not fit.
constexpr double kL2UsableShare = 0.5;
constexpr double kLargestLayerVsMean = 4;
// Text encoders read the prompt's 77 CLIP tokens (the negative prompt's as well under guidance).
constexpr double kPromptTokens = 77;
constexpr int kCustomLayers = 50;  // custom model without a layer count
constexpr int kCustomBatch = 32;

// The kernel-class mix of a custom model: all its FLOP in the named class.
struct Mix {
  double conv, attention, gemm;
};

Mix MixOf(const Workload& w) {
  const ModelArch& m = w.model;
  if (!m.kernel_class && (m.conv_share > 0 || m.attention_share > 0)) {
    return {m.conv_share, m.attention_share, std::max(0.0, 1 - m.conv_share - m.attention_share)};
  }
  switch (m.kernel_class.value_or(m.dominant_kernel)) {
    case KernelClass::kConv:
      return {1, 0, 0};
    case KernelClass::kAttention:
      return {0, 1, 0};
    case KernelClass::kGemm:
      break;
  }
  return {0, 0, 1};
}

// Access counts per activation element; a custom model gets its kernel class's defaults (a
// conv-BN-ReLU network with residuals like ResNet-50, or a transformer block like ViT).
struct Accesses {
  double eager_train, eager_infer, fused;
};

Accesses AccessesOf(const ModelArch& m, const Mix& mix) {
  const bool conv = mix.conv >= 0.5;
  Accesses a{conv ? 9.5 : 3.25, conv ? 8.5 : 3.25, conv ? 2.5 : 2.1};
  if (m.eager_accesses_train > 0) a.eager_train = m.eager_accesses_train;
  if (m.eager_accesses_infer > 0) a.eager_infer = m.eager_accesses_infer;
  if (m.fused_accesses > 0) a.fused = m.fused_accesses;
  return a;
}

// Time multiplier of the narrow layers: 1 / (FLOP-weighted fill of the compute tile).
double NarrowPenalty(const std::array<ModelArch::NarrowLayers, 3>& narrow, bool neuron) {
  double wide = 1, time = 0;
  for (const ModelArch::NarrowLayers& n : narrow) {
    if (n.share <= 0) continue;
    const double channels = neuron ? n.c_in : n.c_out;
    wide -= n.share;
    time += n.share / std::min(1.0, std::max(1.0, channels) / kTileWidth);
  }
  return std::max(0.0, wide) + time;
}

double ActivationBytes(Precision p) {
  switch (p) {
    case Precision::kFp32:
    case Precision::kTf32:
      return 4;
    case Precision::kInt8:
    case Precision::kFp8:
      return 1;
    default:
      return 2;
  }
}

// What one sample's forward pass does at the plan's resolution: from a preset's reference
// figures scaled by area, or counted layer by layer (diffusion: src/workload/diffusion.cc).
struct Work {
  double flop = 0;              // forward FLOP
  Mix mix{};                    // shares of `flop` by kernel class, at this resolution
  double outputs = 0;           // elements the conv/linear layers write
  double norm_inputs = 0;       // elements read by a normalisation pass of its own (0: in accesses)
  double scores = 0;            // attention scores (written only by unfused attention)
  double saved = 0;             // counted networks: elements kept for the backward pass
  double saved_fp32_eager = 0;  // counted networks: FP32 elements eager autocast keeps on top
  std::array<ModelArch::NarrowLayers, 3> narrow{};
  Accesses accesses{};
  int layers = 0;
  int host_ops = 0;              // counted networks: operators an eager framework dispatches
  std::vector<GemmShape> gemms;  // counted networks: every GEMM's shape (wave quantization)
};

// Everything the per-sample and per-batch times need, resolved once.
struct VisionPlan {
  Precision precision = Precision::kBf16;
  Engine engine = Engine::kEager;
  bool neuron = false, train = false, custom = false, unfused_attention = false;
  double peak = 0;   // FLOP/s of the compute precision
  double bw = 0;     // achieved HBM bytes/s
  double scale = 1;  // resolution scaling of FLOP and activations
  double res = 0;
  int batch = 0;
  int sms = 0;          // streaming multiprocessors (0: unknown or not a GPU)
  int cores = 1;        // NeuronCores per device
  double l2_bytes = 0;  // last-level cache (0: unknown)
  double passes = 1;
};

// Seconds of one sample through the network, roofline with partial overlap; `flop` and
// `elems` at the plan's resolution.
struct SampleTime {
  double compute, memory, total;
  double unhidden;  // share of the smaller term left exposed
  double serial;    // normalisation passes, between the GEMMs
};

SampleTime PerSample(const EstimateContext& ctx, const VisionPlan& p, const Work& work) {
  const double base =
      EfficiencyFor(ctx.gpu).matmul *
      (p.precision == Precision::kInt8 || p.precision == Precision::kFp8 ? kLowPrecisionEfficiency
                                                                         : 1);
  // FP8/INT8 engines quantise the GEMMs and convolutions only: attention (and the norms) stay in
  // 16-bit (TensorRT's SDXL FP8 recipe, ModelOpt; MLPerf SDXL keeps the attention in FP16).
  double attention_eff = EfficiencyFor(ctx.gpu).matmul * (p.neuron ? 1 : kAttentionVsGemm);
  if (p.precision == Precision::kInt8 || p.precision == Precision::kFp8) {
    attention_eff *= PeakFlops(ctx.gpu, Default16Bit(ctx.gpu)).value_or(p.peak) / p.peak;
  }
  const bool legacy_kernels = StartsWith(ctx.gpu.architecture, "Hopper");
  if (legacy_kernels) attention_eff *= kHopperLegacyKernelShare;
  const bool tile_math = p.neuron || p.precision != Precision::kFp32;  // tensor cores / array
  const double narrow = tile_math ? NarrowPenalty(work.narrow, p.neuron) : 1;
  // Training: backward takes twice the forward, FlashAttention's 2.5 times (it recomputes).
  const double attention_passes =
      p.train && !p.unfused_attention ? 1 + kFlashBackwardFactor : p.passes;
  const Mix& mix = work.mix;
  const bool nchw = p.engine == Engine::kEager && !work.gemms.empty();  // counted (diffusion)
  const double conv_time = nchw ? kNchwConvSlowdown : 1;
  const double compute = work.flop *
                         (p.passes * (mix.conv * conv_time + mix.gemm) / base +
                          attention_passes * mix.attention / attention_eff) *
                         narrow / p.peak;
  const Accesses& a = work.accesses;
  double accesses =
      p.engine == Engine::kFused ? a.fused : (p.train ? a.eager_train : a.eager_infer);
  if (p.engine == Engine::kEager && p.precision == Precision::kTf32 && mix.conv > 0) {
    accesses += kNchwTransposeAccesses * mix.conv;
  }
  // Quantised diffusion engines (TensorRT's FP8/INT8 SDXL, ModelOpt) keep the activations 16-bit
  // between layers (norms, attention and residuals run there) and quantise each GEMM's input in
  // a pass of its own: 2 bytes read, 1 written, per element a GEMM reads.
  const bool quantised = p.precision == Precision::kInt8 || p.precision == Precision::kFp8;
  const bool keeps_16bit = quantised && !work.gemms.empty();
  const double act = keeps_16bit ? 2 : ActivationBytes(p.precision);
  double bytes = work.outputs * accesses * act;
  const double quantise_bytes = keeps_16bit ? work.outputs * (2 + 1) : 0;
  if (p.l2_bytes > 0 && work.layers > 0 && !p.neuron) {
    const double working_set = p.batch * 2 * act * work.outputs * kLargestLayerVsMean / work.layers;
    bytes *= 1 - std::min(1.0, kL2UsableShare * p.l2_bytes / working_set);
  }
  if (p.unfused_attention) {  // scores written and read back (eager softmax: 4 accesses)
    bytes += work.scores * (p.engine == Engine::kEager ? 4 : 2) * act;
  }
  // Normalisation passes are kernels of their own: they run between the GEMMs, not under them.
  const double norm_bytes = work.norm_inputs *
                            (p.engine == Engine::kFused ? kNormAccessesFused : kNormAccessesEager) *
                            act;
  const double memory = p.bw > 0 ? p.passes * bytes / p.bw : 0;
  double serial = p.bw > 0 ? p.passes * (norm_bytes + quantise_bytes) / p.bw : 0;
  if (p.neuron && p.unfused_attention && !work.gemms.empty()) {  // counted networks' scores
    serial += p.passes * work.scores * kSoftmaxVectorPasses /
              (kNeuronVectorElementsPerS * std::max(1, p.cores));
  }
  const double unhidden = p.engine == Engine::kFused ? kUnhiddenFused : kUnhiddenEager;
  return {compute, memory,
          std::max(compute, memory) + unhidden * std::min(compute, memory) + serial, unhidden,
          serial};
}

// Seconds of one batch of `n` samples: the batch's work plus every layer's under-filled wave,
// and an eager framework cannot issue the kernels faster than the host dispatches them.
// A network counted layer by layer (diffusion) on a part with a known SM count gets its
// under-fill from the waves and reductions of each GEMM at this batch (TileStretch) instead of the
// fixed per-layer cost.
double PerBatch(const VisionPlan& p, const Work& work, const SampleTime& t, double n) {
  const int layers = work.layers;
  double device = n * t.total + layers * p.passes * kLayerFillS;
  if (!work.gemms.empty() && p.sms > 0) {
    const double compute = t.compute * TileStretch(work.gemms, n, p.sms);
    device =
        n * (std::max(compute, t.memory) + t.unhidden * std::min(compute, t.memory) + t.serial);
  }
  // Counted networks know their operators; others assume conv/linear + norm + activation.
  const double ops = work.host_ops > 0 ? work.host_ops : layers * kEagerOpsPerLayer;
  const double host = p.engine == Engine::kEager ? ops * p.passes * kEagerHostPerOpS : 0;
  return std::max(device, host);
}

Status CheckVisionDevice(const EstimateContext& ctx, bool train) {
  const GpuSpec& g = ctx.gpu;
  switch (ClassOf(g)) {
    case DeviceClass::kNvidia:
      return Status::OK();
    case DeviceClass::kNeuron:
      // Trainium trains (AWS publishes ViT fine-tuning throughput on trn1); Inferentia2 serves.
      if (train && g.model.find("Inferentia") != std::string::npos) {
        return Status::Unsupported("task: " + g.model +
                                   " is an inference device; train vision models on Trainium")
            .WithField("task");
      }
      return Status::OK();
    default:
      return Status::Unsupported(std::string("task: ") + TaskKindName(ctx.w.task) + " on " +
                                 g.model + " is not modelled (NVIDIA GPUs, Trainium, Inferentia2)")
          .WithField("task");
  }
}

Status ResolvePlan(const EstimateContext& ctx, VisionPlan* p) {
  const Workload& w = ctx.w;
  const ModelArch& m = w.model;
  p->train = w.task == TaskKind::kTrainVision;
  p->neuron = ClassOf(ctx.gpu) == DeviceClass::kNeuron;
  GPUADVISOR_RETURN_IF_ERROR(CheckVisionDevice(ctx, p->train));
  p->precision = w.precision.value_or(Default16Bit(ctx.gpu));
  GPUADVISOR_RETURN_IF_ERROR(CheckPrecisionSupported(ctx.gpu, p->precision, "precision"));
  const bool low = p->precision == Precision::kInt8 || p->precision == Precision::kFp8;
  if (p->neuron) {
    if (low) {
      return Status::Unsupported("precision: " + std::string(PrecisionName(p->precision)) +
                                 " vision on " + ctx.gpu.model + " is not modelled; use bf16")
          .WithField("precision");
    }
    if (w.engine == Engine::kEager) {
      return Status::Unsupported("engine: " + ctx.gpu.model +
                                 " runs compiled graphs only (torch-neuronx); use fused")
          .WithField("engine");
    }
    p->engine = Engine::kFused;
  } else {
    p->engine = w.engine.value_or(low ? Engine::kFused : Engine::kEager);
    if (p->engine == Engine::kNeuron) p->engine = Engine::kFused;  // the Neuron compiler fuses
  }
  p->custom = w.model_name.empty();
  p->res = w.resolution > 0 ? w.resolution : (m.resolution_px > 0 ? m.resolution_px : 224);
  const double ref = p->custom || m.resolution_px <= 0 ? p->res : m.resolution_px;
  p->scale = std::pow(p->res / ref, m.spatial_dims == 3 ? 3 : 2);
  p->batch = w.batch > 0
                 ? w.batch
                 : (m.default_batch > 0 ? m.default_batch
                                        : (m.family == ModelFamily::kConvNet ? 256 : kCustomBatch));
  if (m.family == ModelFamily::kDiffusion && !p->train && w.batch <= 0) p->batch = 1;
  // Neuron runs a compiled batch on every NeuronCore of the device (torch-neuronx DataParallel,
  // as in the Neuron benchmark tables): the device holds batch x cores samples at once.
  if (p->neuron && ctx.gpu.neuron_cores > 1) p->batch *= ctx.gpu.neuron_cores;
  p->passes = p->train ? 3 : 1;
  p->unfused_attention = p->neuron || !w.flash_attention;
  p->bw = ctx.gpu.memory_bw_gbyte_s.value_or(0) * 1e9 * EfficiencyFor(ctx.gpu).bandwidth;
  if (!p->neuron) p->sms = static_cast<int>(ctx.gpu.sm_count.value_or(0));
  if (p->neuron) p->cores = std::max(1, ctx.gpu.neuron_cores);
  if (!p->neuron) p->l2_bytes = ctx.gpu.l2_cache_mib.value_or(0) * 1048576.0;
  return Status::OK();
}

// A preset's (or custom model's) reference figures scaled to the plan's resolution: FLOP and
// activations grow with the area (the volume for 3D models), self-attention's once more.
Work ScaledWork(const Workload& w, const VisionPlan& p) {
  const ModelArch& m = w.model;
  const Mix mix = MixOf(w);
  const double growth = 1 + mix.attention * (p.scale - 1);
  Work k;
  k.flop = m.fwd_flop_per_image * p.scale * growth;
  k.mix = {mix.conv / growth, mix.attention * p.scale / growth, mix.gemm / growth};
  k.outputs = m.act_elems_per_image * p.scale;
  k.scores = m.attention_score_elems * p.scale * p.scale;
  k.narrow = m.narrow;
  k.accesses = AccessesOf(m, mix);
  k.layers = m.vision_layers > 0 ? m.vision_layers : kCustomLayers;
  return k;
}

// A network counted layer by layer at the plan's resolution (diffusion.cc).
Work CountedWork(const ModelArch& m, const NetworkCounts& c) {
  Work k;
  k.flop = c.Total();
  if (k.flop > 0) k.mix = {c.conv / k.flop, c.attention / k.flop, c.gemm / k.flop};
  k.outputs = c.outputs;
  k.norm_inputs = c.norm_inputs;
  k.scores = c.scores;
  k.saved = c.saved;
  k.saved_fp32_eager = c.saved_fp32_eager;
  k.narrow = c.narrow;
  k.accesses = AccessesOf(m, k.mix);
  k.layers = c.layers;
  k.host_ops = c.host_ops;
  k.gemms = c.gemms;
  return k;
}

// The latent side of a diffusion model's UNet: the autoencoder downsamples 8x.
int LatentSide(const VisionPlan& p) {
  return std::max(1, static_cast<int>(std::lround(p.res / 8)));
}

bool CountsLayers(const ModelArch& m) {
  return m.family == ModelFamily::kDiffusion && m.unet.channels[0] > 0;
}

// Parameters a training run updates. Diffusion training updates the UNet alone: the text
// encoders and the autoencoder made the precomputed embeddings and latents.
double TrainedParams(const ModelArch& m) {
  return CountsLayers(m) ? std::max(0.0, m.params - m.text_encoder_params - kVaeParams) : m.params;
}

void SetVisionMemory(const EstimateContext& ctx, const VisionPlan& p, const Work& work) {
  const ModelArch& m = ctx.w.model;
  const double act = ActivationBytes(p.precision);
  const bool diffusion_infer = m.family == ModelFamily::kDiffusion && !p.train;
  // The guided pair per image (one sample with --guidance false).
  const double samples = diffusion_infer && ctx.w.guidance ? 2.0 * p.batch : p.batch;
  const double trained = TrainedParams(m);
  MemoryBytes mem;
  mem.weights = p.train ? trained * 4 : m.params * act;  // AMP keeps fp32 master weights
  mem.gradients = p.train ? trained * 4 : 0;
  mem.optimizer = p.train ? trained * OptimizerBytesPerParam(ctx.w.optimizer, Precision::kFp32) : 0;
  const double elems = work.outputs * samples * act;
  mem.activations = p.train ? kStoredPerElement * elems : kLiveInferenceShare * elems;
  if (p.train && work.saved > 0) {  // counted: the tensors autograd keeps, each once
    const bool autocast = p.engine == Engine::kEager && act < 4;
    mem.activations = samples * (work.saved * act + (autocast ? work.saved_fp32_eager * 4 : 0));
  }
  mem.overhead = 1.0 * kGiB;
  SetMemory(ctx, mem, p.train, false);
  if (!p.train) ctx.out->memory.gradients_gib = ctx.out->memory.optimizer_gib = std::nullopt;
}

// The host decodes and resizes the images (PyTorch DataLoader + PIL): ~150 images/s per vCPU at
// 224 px, fewer for larger images. Diffusion generates images and volumetric models read
// preprocessed arrays: neither decodes JPEGs.
double CapByInputPipeline(const EstimateContext& ctx, const VisionPlan& p, double ips) {
  const InstanceType* inst = ctx.hw.instance;
  const ModelArch& m = ctx.w.model;
  if (inst == nullptr || inst->vcpus <= 0 || m.family == ModelFamily::kDiffusion ||
      m.spatial_dims == 3) {
    return ips;
  }
  const double decode = kDecodeImagesPerVcpu / std::max(1.0, p.res * p.res / (224.0 * 224.0)) *
                        inst->vcpus * ctx.out->instances;
  if (decode >= ips) return ips;
  ctx.Warn("input pipeline bound: " + std::to_string(inst->vcpus) + " vCPUs per instance decode ~" +
           Num(decode, 0) +
           " images/s; decode on the GPU (NVIDIA DALI) or pick an instance with more vCPUs");
  return decode;
}

void DescribeVision(const EstimateContext& ctx, const VisionPlan& p, const SampleTime& t,
                    const Work& work) {
  const ModelArch& m = ctx.w.model;
  const bool diffusion = m.family == ModelFamily::kDiffusion;
  ctx.Assume(std::string(diffusion ? "per UNet evaluation: " : "per sample: ") +
             Num(p.passes * work.flop / 1e9, 1) + " GFLOP (conv " + Num(100 * work.mix.conv, 0) +
             "%, attention " + Num(100 * work.mix.attention, 0) + "%, GEMM " +
             Num(100 * work.mix.gemm, 0) + "%) at " + Num(p.res, 0) + " px" +
             (CountsLayers(m)
                  ? " (counted from the UNet's layout at " + std::to_string(LatentSide(p)) + "x" +
                        std::to_string(LatentSide(p)) + " latents)"
                  : "") +
             ", " + PrecisionName(p.precision) + " on the " + (p.neuron ? "NeuronCore" : "GPU") +
             ": compute " + Num(t.compute * 1e6, 1) + " us, activation traffic " +
             Num(t.memory * 1e6, 1) + " us; batch " + std::to_string(p.batch) + " per device");
  ctx.Assume(std::string("engine ") + EngineName(p.engine) +
             (p.engine == Engine::kFused
                  ? " (normalisation and activations fused into the conv/GEMM epilogues)"
                  : " (one kernel per operator, as PyTorch eager)") +
             (ctx.w.engine ? "" : "; --engine eager|fused to change"));
  if (p.custom) {
    if (m.act_elems_per_image <= 0) {
      ctx.Warn(
          "no --activation-mb-per-sample: activation traffic is not modelled (optimistic for "
          "convolutional networks)");
    }
    if (m.params <= 0) ctx.Warn("no --params: weights and optimizer memory are not counted");
    if (m.vision_layers <= 0) {
      ctx.Assume(std::to_string(kCustomLayers) + " layers per forward pass (custom model)");
    }
  }
  if (diffusion && p.train) {
    ctx.Assume(
        "diffusion training runs the UNet on precomputed latents and text embeddings (as the "
        "MLPerf and MosaicML recipes do); encoding them on the fly costs ~1.4x");
  }
}

// Real-time inference (--rps): the batch a dynamic batcher settles at, its latency, and the
// devices that hold the rate within the p95 target (vision_realtime.cc).
void ReportRealTime(const EstimateContext& ctx, const VisionPlan& p,
                    const std::function<double(double)>& batch_seconds, double sample_flop) {
  const Workload& w = ctx.w;
  Estimate& e = *ctx.out;
  const RealTimeServing r =
      ServeRealTime({w.rps, ctx.topo.gpus, p.batch, w.e2e_p95_s}, batch_seconds);
  const double full = ctx.topo.gpus * p.batch / batch_seconds(p.batch);  // at the largest batch
  const double served = r.saturated ? full : w.rps;
  e.service = true;
  e.demand_met = !r.saturated;
  e.slo_met = w.e2e_p95_s <= 0 || r.p95_s <= w.e2e_p95_s;
  PerformanceEstimate& perf = e.performance;
  perf.images_per_s = served;
  perf.requests_per_s = served;
  perf.e2e_latency_ms = r.mean_s * 1e3;
  perf.e2e_p95_ms = r.p95_s * 1e3;
  perf.tflops_per_gpu = sample_flop * served / ctx.topo.gpus / 1e12;
  perf.mfu = *perf.tflops_per_gpu * 1e12 / p.peak;
  if (r.devices_needed > 0) {
    e.devices_needed = r.devices_needed;
    const int per_instance = e.instances > 0 ? ctx.topo.gpus / e.instances : 0;
    if (per_instance > 0) e.instances_needed = (r.devices_needed + per_instance - 1) / per_instance;
  }
  const double hours = w.hours > 0 ? w.hours : 1;
  e.hours = hours;
  e.gpu_hours = hours * ctx.topo.gpus;
  e.flops_total = sample_flop * served * hours * 3600;
  SetMeasuredBand(ctx, "performance.images_per_s", served,
                  p.custom || EfficiencyFor(ctx.gpu).low_confidence);
  if (!ctx.detailed()) return;
  ctx.Assume("real time: " + Num(w.rps, 0) + " images/s over " + std::to_string(ctx.topo.gpus) +
             " device(s); a dynamic batcher (at most " + std::to_string(p.batch) +
             ") settles at batch " + Num(r.batch, 1) + ", devices " +
             Num(100 * std::min(1.0, r.utilisation), 0) +
             "% busy; latency: the batch in flight, then its own (mean " + Num(r.mean_s * 1e3, 1) +
             " ms, p95 " + Num(r.p95_s * 1e3, 1) + " ms), network and image decode excluded");
  ctx.Assume("costed for " + Num(hours, 1) + " hour(s) of service (--hours)");
  std::string hold = "no batch size meets the p95 target: one image alone takes " +
                     Num(batch_seconds(1) * 1e3, 1) + " ms";
  if (r.devices_needed > 0) {
    hold =
        std::to_string(r.devices_needed) + " device(s)" +
        (e.instances_needed
             ? " (" + std::to_string(*e.instances_needed) + " x " + e.instance_type + ")"
             : "") +
        " hold " + Num(w.rps, 0) + " images/s" +
        (w.e2e_p95_s > 0 ? " within the p95 target of " + Num(w.e2e_p95_s * 1e3, 0) + " ms" : "") +
        " (" + Num(r.capacity_per_device, 0) + " images/s each)";
  }
  if (e.demand_met && e.slo_met) {
    ctx.Assume(hold);
  } else {
    ctx.Warn(
        std::string(e.demand_met ? "p95 latency target NOT met" : "the rate outruns the devices") +
        ": " + hold);
  }
}

// The rest of a text-to-image pipeline around the UNet, per image: the prompt (and, under
// classifier-free guidance, the negative prompt) through the text encoders once, the VAE
// decoder once at full resolution. The decoder stays in 16-bit where the UNet runs FP8 or INT8
// (MLPerf SDXL quantises the UNet only).
struct PipelineEnds {
  VisionPlan decoder_plan;
  Work decoder;
  SampleTime decoder_time{};
  double text_flop = 0, text_s = 0;
  double Flop() const { return decoder.flop + text_flop; }
  double Seconds(double n) const {
    return PerBatch(decoder_plan, decoder, decoder_time, n) + n * text_s;
  }
};

PipelineEnds DiffusionEnds(const EstimateContext& ctx, const VisionPlan& p, double prompts) {
  const ModelArch& m = ctx.w.model;
  PipelineEnds e;
  e.decoder_plan = p;
  const bool low = p.precision == Precision::kInt8 || p.precision == Precision::kFp8;
  if (low) e.decoder_plan.precision = Default16Bit(ctx.gpu);
  e.decoder_plan.peak = PeakFlops(ctx.gpu, e.decoder_plan.precision).value_or(p.peak);
  if (CountsLayers(m)) {
    e.decoder = CountedWork(m, CountVaeDecoder(LatentSide(p)));
  } else {
    e.decoder.flop = m.decoder_flop_per_image * p.scale;
    e.decoder.mix = {1, 0, 0};
  }
  e.decoder_time = PerSample(ctx, e.decoder_plan, e.decoder);
  e.text_flop = 2 * m.text_encoder_params * kPromptTokens * prompts;
  e.text_s = e.text_flop / (e.decoder_plan.peak * EfficiencyFor(ctx.gpu).matmul);
  return e;
}

}  // namespace

Status EstimateVision(const EstimateContext& ctx) {
  const Workload& w = ctx.w;
  const ModelArch& m = w.model;
  VisionPlan p;
  GPUADVISOR_RETURN_IF_ERROR(ResolvePlan(ctx, &p));
  if (p.train && w.global_batch > 0 && w.global_batch < p.batch * ctx.topo.gpus) {
    return Status::InvalidArgument("global-batch: expected at least batch x devices (" +
                                   std::to_string(p.batch * ctx.topo.gpus) + "), got " +
                                   std::to_string(w.global_batch))
        .WithField("global-batch");
  }
  ctx.out->precision = p.precision;
  ctx.out->params_total = ctx.out->params_active = m.params;
  // Diffusion counts its UNet at the latent size; other models scale their reference figures.
  const Work work =
      CountsLayers(m) ? CountedWork(m, CountUNet(m.unet, LatentSide(p))) : ScaledWork(w, p);
  SetVisionMemory(ctx, p, work);
  const bool diffusion_infer = m.family == ModelFamily::kDiffusion && !p.train;
  const double steps = w.steps > 0 ? w.steps : std::max(1, m.diffusion_steps);
  // Diffusion runs the UNet on the guided pair at every step (once with --guidance false).
  const double evals = w.guidance ? 2 : 1;
  const std::optional<double> peak = PeakFlops(ctx.gpu, p.precision);
  if (!peak) {
    ctx.Warn("no published " + std::string(PrecisionName(p.precision)) + " peak for " +
             ctx.gpu.model + ": time is not estimated");
    ctx.out->flops_total = p.passes * work.flop * w.images * (p.train ? w.epochs : 1);
    return Status::OK();
  }
  p.peak = *peak;
  const SampleTime t = PerSample(ctx, p, work);
  std::optional<PipelineEnds> ends;
  if (diffusion_infer) ends = DiffusionEnds(ctx, p, evals);
  // FLOP per output sample (image).
  const double sample_flop =
      diffusion_infer ? evals * steps * work.flop + ends->Flop() : p.passes * work.flop;
  const double samples = w.images * (p.train ? w.epochs : 1);
  ctx.out->flops_total = sample_flop * samples;
  // Seconds of a batch of n samples on one device; diffusion: the UNet at batch evals x n per
  // step, then the decoder and text encoders at batch n.
  const auto batch_seconds = [&](double n) {
    return diffusion_infer ? steps * PerBatch(p, work, t, evals * n) + ends->Seconds(n)
                           : PerBatch(p, work, t, n);
  };
  if (diffusion_infer && ctx.detailed()) {
    ctx.Assume("per image: " + Num(steps, 0) + " steps x " + Num(evals, 0) +
               " UNet evaluation(s), the VAE decoder (" + Num(ends->decoder.flop / 1e12, 2) +
               " TFLOP at " + Num(p.res, 0) + " px, " +
               PrecisionName(ends->decoder_plan.precision) + ") and the text encoders (" +
               Num(ends->text_flop / 1e9, 0) + " GFLOP)");
  }
  if (IsService(w)) {
    ReportRealTime(ctx, p, batch_seconds, sample_flop);
    if (ctx.detailed()) DescribeVision(ctx, p, t, work);
    return Status::OK();
  }
  // Training ends each step with the optimizer, which streams the FP32 weights, gradients and
  // Adam states once (as the LLM model's step: 2 x 16 bytes per parameter); a global batch
  // beyond batch x devices accumulates gradients over several batches per step.
  const double optimizer_s = p.train && p.bw > 0 ? 2 * 16 * TrainedParams(m) / p.bw : 0;
  const double step_samples =
      w.global_batch > 0 ? static_cast<double>(w.global_batch) / ctx.topo.gpus : p.batch;
  const double per_sample = batch_seconds(p.batch) / p.batch + optimizer_s / step_samples;
  const double scaling = ctx.topo.nodes > 1 ? kMultiNodeScaling : 1;
  double ips = ctx.topo.gpus * scaling / per_sample;
  ips = CapByInputPipeline(ctx, p, ips);
  ctx.out->performance.images_per_s = ips;
  ctx.out->performance.tflops_per_gpu = sample_flop * ips / ctx.topo.gpus / 1e12;
  ctx.out->performance.mfu = *ctx.out->performance.tflops_per_gpu * 1e12 / p.peak;
  const double goodput = w.goodput > 0 ? w.goodput : (p.train ? 0.95 : 1.0);
  ctx.out->hours = samples / ips / goodput / 3600;
  ctx.out->gpu_hours = *ctx.out->hours * ctx.topo.gpus;
  SetMeasuredBand(ctx, "time.hours", *ctx.out->hours,
                  p.custom || EfficiencyFor(ctx.gpu).low_confidence);
  if (ctx.detailed()) DescribeVision(ctx, p, t, work);
  return Status::OK();
}

}  // namespace gpuadvisor::workload_internal
