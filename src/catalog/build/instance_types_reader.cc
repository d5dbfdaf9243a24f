#include <algorithm>
#include <cmath>

#include "catalog/build/sources.h"
#include "catalog/record_checks.h"
#include "util/aws_names.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor::build {
namespace {

using json = rapidjson::Value;

// The first accelerator group of one of the *Info blocks, normalised.
struct DeviceGroup {
  AcceleratorKind kind;
  std::string name, vendor;
  int count = 0, logical_count = 0;
  double partition_size = 1.0;
  std::optional<int> memory_mib;
  std::optional<int64_t> total_mib;
  std::optional<int> cores;
};

// An integer field within [lo, hi] (catalog/record_checks.h); records an error naming the path
// otherwise, so a count of 10^12 never wraps into a negative int.
std::optional<int64_t> IntIn(RjReader& r, const json& obj, const char* key, const std::string& path,
                             int64_t lo, int64_t hi) {
  std::optional<int64_t> v = r.OptInt(obj, key, path);
  if (!v) return v;
  std::string bad = CheckCount(*v, lo, hi);
  if (!bad.empty()) {
    r.Fail(path + "." + key, bad);  // RjReader adds "expected "
    return std::nullopt;
  }
  return v;
}

std::optional<DeviceGroup> ReadDevices(RjReader& r, const json& info, const std::string& path) {
  struct Block {
    const char* info;
    const char* list;
    AcceleratorKind kind;
  };
  static const Block kBlocks[] = {
      {"GpuInfo", "Gpus", AcceleratorKind::kGpu},
      {"NeuronInfo", "NeuronDevices", AcceleratorKind::kNeuron},
      {"InferenceAcceleratorInfo", "Accelerators", AcceleratorKind::kInference},
      {"FpgaInfo", "Fpgas", AcceleratorKind::kFpga},
      {"MediaAcceleratorInfo", "Accelerators", AcceleratorKind::kMedia},
  };
  for (const Block& b : kBlocks) {
    const json* block = r.OptObject(info, b.info, path);
    if (!block) continue;
    std::string bp = path + "." + b.info;
    const json& list = r.Array(*block, b.list, bp);
    if (list.Empty()) continue;
    std::string lp = bp + "." + b.list + "[0]";
    const json& d = list[0u];
    DeviceGroup g;
    g.kind = b.kind;
    // dl2q reports its Qualcomm devices as InferenceAcceleratorInfo; Inferentia (inf1) is
    // reported there too by older API versions: those are Neuron devices.
    g.name = r.Str(d, "Name", lp);
    g.vendor = r.Str(d, "Manufacturer", lp, false);
    if (g.kind == AcceleratorKind::kInference && StartsWith(g.name, "Inferentia")) {
      g.kind = AcceleratorKind::kNeuron;
    }
    g.count = static_cast<int>(IntIn(r, d, "Count", lp, 0, kMaxDevicesPerInstance).value_or(0));
    g.logical_count = static_cast<int>(
        IntIn(r, d, "LogicalGpuCount", lp, 0, kMaxDevicesPerInstance).value_or(g.count));
    g.partition_size = r.OptNum(d, "GpuPartitionSize", lp).value_or(1.0);
    if (!(g.partition_size > 0 && g.partition_size <= 1)) {
      r.Fail(lp + ".GpuPartitionSize", "a fraction above 0 and at most 1");
    }
    if (const json* mem = r.OptObject(d, "MemoryInfo", lp)) {
      if (auto m = OptMemoryMib(r, *mem, "SizeInMiB", lp + ".MemoryInfo", kMaxDeviceMemoryMib)) {
        g.memory_mib = static_cast<int>(*m);
      }
    }
    if (const json* core = r.OptObject(d, "CoreInfo", lp)) {
      g.cores = static_cast<int>(IntIn(r, *core, "Count", lp + ".CoreInfo", 0, 1024).value_or(0));
    }
    for (const char* key :
         {"TotalGpuMemoryInMiB", "TotalNeuronDeviceMemoryInMiB", "TotalInferenceMemoryInMiB",
          "TotalFpgaMemoryInMiB", "TotalMediaMemoryInMiB"}) {
      if (auto t = OptMemoryMib(r, *block, key, bp, kMaxDeviceMemoryMib * kMaxDevicesPerInstance)) {
        g.total_mib = *t;
      }
    }
    if (!g.total_mib && g.memory_mib) {
      g.total_mib = static_cast<int64_t>(*g.memory_mib) * std::max(g.logical_count, g.count);
    }
    return g;
  }
  return std::nullopt;
}

void ReadNetwork(RjReader& r, const json& info, const std::string& path, InstanceType* t) {
  const json* net = r.OptObject(info, "NetworkInfo", path);
  if (!net) return;
  std::string np = path + ".NetworkInfo";
  t->network_performance = r.Str(*net, "NetworkPerformance", np, false);
  t->network_gbit_s = ParseNetworkPerformanceGbps(t->network_performance);
  t->network_cards = static_cast<int>(r.OptInt(*net, "MaximumNetworkCards", np).value_or(1));
  t->max_network_interfaces =
      static_cast<int>(r.OptInt(*net, "MaximumNetworkInterfaces", np).value_or(0));
  t->efa = r.OptBool(*net, "EfaSupported", np).value_or(false);
  t->ena_srd = r.OptBool(*net, "EnaSrdSupported", np).value_or(false);
  if (const json* efa = r.OptObject(*net, "EfaInfo", np)) {
    t->max_efa_interfaces =
        static_cast<int>(r.OptInt(*efa, "MaximumEfaInterfaces", np + ".EfaInfo").value_or(0));
  }
  // The instance's bandwidth is its NetworkPerformance ("400 Gigabit", "16x 200 Gigabit"): a
  // per-instance figure. NetworkCards[] list each card's own BaselineBandwidthInGbps, and
  // their sum is not the instance's (g6e.48xlarge: 4 cards of 400, "400 Gigabit"; p6-b200: 8 of
  // 200, "3200 Gigabit"; p6-b300: 17 cards summing to 6750, "6400 Gigabit"; trn2.3xlarge: one
  // card of 50, "200 Gigabit"). So a fixed NetworkPerformance is both the baseline and the peak;
  // a burstable one ("Up to 25 Gigabit", always one card) is the peak, and the card's baseline
  // is the baseline. Only when NetworkPerformance says no number do the cards' sums stand in.
  const json& cards = r.Array(*net, "NetworkCards", np, false);
  double base = 0, peak = 0;
  for (rapidjson::SizeType i = 0; i < cards.Size(); ++i) {
    std::string cp = np + ".NetworkCards[" + std::to_string(i) + "]";
    base += r.OptNum(cards[i], "BaselineBandwidthInGbps", cp).value_or(0);
    peak += r.OptNum(cards[i], "PeakBandwidthInGbps", cp).value_or(0);
  }
  const bool burstable = StartsWith(ToLower(Trim(t->network_performance)), "up to ");
  if (t->network_gbit_s && !burstable) {
    t->network_baseline_gbit_s = t->network_gbit_s;
    t->network_peak_gbit_s = t->network_gbit_s;
    return;
  }
  if (base > 0)
    t->network_baseline_gbit_s = t->network_gbit_s ? std::min(base, *t->network_gbit_s) : base;
  if (t->network_gbit_s) {
    t->network_peak_gbit_s = t->network_gbit_s;
  } else if (peak > 0) {
    t->network_peak_gbit_s = peak;
  }
}

void ReadStorage(RjReader& r, const json& info, const std::string& path, InstanceType* t) {
  if (const json* st = r.OptObject(info, "InstanceStorageInfo", path)) {
    std::string sp = path + ".InstanceStorageInfo";
    if (auto total = r.OptInt(*st, "TotalSizeInGB", sp))
      t->local_storage_gb = static_cast<int>(*total);
    std::string nvme = r.Str(*st, "NvmeSupport", sp, false);
    t->local_nvme = nvme == "required" || nvme == "supported";
    const json& disks = r.Array(*st, "Disks", sp, false);
    if (!disks.Empty()) {
      std::string dp = sp + ".Disks[0]";
      t->local_disk_count = static_cast<int>(r.OptInt(disks[0u], "Count", dp).value_or(0));
      if (auto gb = r.OptInt(disks[0u], "SizeInGB", dp)) t->local_disk_gb = static_cast<int>(*gb);
      t->local_disk_type = r.Str(disks[0u], "Type", dp, false);
    }
  }
  if (const json* ebs = r.OptObject(info, "EbsInfo", path)) {
    if (const json* opt = r.OptObject(*ebs, "EbsOptimizedInfo", path + ".EbsInfo")) {
      std::string op = path + ".EbsInfo.EbsOptimizedInfo";
      if (auto b = r.OptInt(*opt, "BaselineBandwidthInMbps", op))
        t->ebs_baseline_mbps = static_cast<int>(*b);
      if (auto m = r.OptInt(*opt, "MaximumBandwidthInMbps", op))
        t->ebs_max_mbps = static_cast<int>(*m);
    }
  }
}

// One InstanceTypeInfo; nullopt (and no error) when it carries no accelerator.
std::optional<InstanceType> ReadInfo(RjReader& r, const json& info, const std::string& path) {
  std::optional<DeviceGroup> dev = ReadDevices(r, info, path);
  if (!dev) return std::nullopt;
  InstanceType t;
  t.name = r.Str(info, "InstanceType", path);
  // A name reaches the AWS CLI's command lines later (util/aws_names.h): AWS's grammar only.
  if (std::string p = InstanceTypeNameProblem(t.name); !p.empty() && r.status().ok()) {
    r.Fail(path + ".InstanceType", p);
  }
  t.family = t.name.substr(0, t.name.find('.'));
  Accelerator& a = t.accelerator;
  a.kind = dev->kind;
  a.vendor = dev->vendor;
  a.aws_name = dev->name;
  a.model = dev->name;
  a.count = dev->count;
  a.logical_count = dev->logical_count;
  a.partition_size = dev->partition_size;
  a.memory_mib_each = dev->memory_mib;
  a.memory_mib_total = dev->total_mib;
  a.neuron_cores_each = dev->cores;
  if (const json* cpu = r.OptObject(info, "VCpuInfo", path)) {
    const std::string cp = path + ".VCpuInfo";
    r.Int(*cpu, "DefaultVCpus", cp);  // required: records the error when missing
    t.vcpus = static_cast<int>(IntIn(r, *cpu, "DefaultVCpus", cp, 1, kMaxVcpus).value_or(0));
  }
  if (const json* mem = r.OptObject(info, "MemoryInfo", path)) {
    const std::string mp = path + ".MemoryInfo";
    r.Int(*mem, "SizeInMiB", mp);
    t.memory_mib = OptMemoryMib(r, *mem, "SizeInMiB", mp, kMaxInstanceMemoryMib).value_or(0);
  }
  if (const json* proc = r.OptObject(info, "ProcessorInfo", path)) {
    t.cpu_architectures = r.StrList(*proc, "SupportedArchitectures", path + ".ProcessorInfo");
    t.cpu_vendor = r.Str(*proc, "Manufacturer", path + ".ProcessorInfo", false);
  }
  ReadNetwork(r, info, path, &t);
  ReadStorage(r, info, path, &t);
  t.usage_classes = r.StrList(info, "SupportedUsageClasses", path);
  if (const json* pg = r.OptObject(info, "PlacementGroupInfo", path)) {
    t.placement_strategies = r.StrList(*pg, "SupportedStrategies", path + ".PlacementGroupInfo");
  }
  t.bare_metal = r.OptBool(info, "BareMetal", path).value_or(false);
  return t;
}

}  // namespace

std::optional<double> ParseNetworkPerformanceGbps(std::string_view text) {
  std::string s = ToLower(Trim(text));
  if (StartsWith(s, "up to ")) s = s.substr(6);
  double mult = 1;
  size_t x = s.find("x ");
  if (x != std::string::npos && x > 0) {
    mult = std::atof(s.substr(0, x).c_str());
    s = s.substr(x + 2);
  }
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || v <= 0 || mult <= 0) return std::nullopt;
  std::string unit = std::string(Trim(end));
  if (StartsWith(unit, "megabit"))
    v /= 1000;
  else if (!StartsWith(unit, "gigabit"))
    return std::nullopt;
  return v * mult;
}

Result<std::vector<InstanceType>> ReadDescribeInstanceTypes(std::string_view text,
                                                            std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  RjReader r{std::string(origin)};
  std::vector<InstanceType> out;
  auto take = [&](const json& info, const std::string& path, bool retired,
                  const std::string& last_seen) {
    if (!info.IsObject()) return r.Fail(path, "an InstanceTypeInfo object");
    std::optional<InstanceType> t = ReadInfo(r, info, path);
    if (!t) return;
    t->retired = retired;
    if (retired) t->retired_note = "absent from DescribeInstanceTypes; last seen " + last_seen;
    out.push_back(std::move(*t));
  };
  auto take_page = [&](const json& page, const std::string& path) {
    const json& list = r.Array(page, "InstanceTypes", path);
    for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
      take(list[i], path + ".InstanceTypes[" + std::to_string(i) + "]", false, "");
    }
  };
  const json& root = doc;
  if (root.IsArray()) {
    for (rapidjson::SizeType i = 0; i < root.Size() && r.status().ok(); ++i) {
      take_page(root[i], "$[" + std::to_string(i) + "]");
    }
  } else if (root.IsObject() && root.HasMember("InstanceTypes")) {
    take_page(root, "$");
  } else if (root.IsObject()) {
    for (auto it = root.MemberBegin(); it != root.MemberEnd() && r.status().ok(); ++it) {
      std::string key(it->name.GetString(), it->name.GetStringLength());
      std::string path = "$[\"" + key + "\"]";
      const json& v = it->value;
      if (v.IsObject() && v.HasMember("record")) {
        take(v["record"], path + ".record", true, r.Str(v, "last_seen_commit_date", path, false));
      } else {
        take(v, path, false, "");
      }
    }
  } else {
    r.Fail("$", "a DescribeInstanceTypes response object");
  }
  if (!r.status().ok()) return r.status();
  return out;
}

}  // namespace gpuadvisor::build
