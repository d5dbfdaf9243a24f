#include "catalog/build/sources.h"
#include "util/csv.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::build {
namespace {

// Catalog ids and accepted aliases per datasheet row, keyed by the start of the CSV `model`
// cell. Compute capabilities are from NVIDIA's CUDA GPUs table (developer.nvidia.com/cuda-gpus);
// empty where NVIDIA lists none. Precision support follows the architecture: BF16/TF32 from
// Ampere (CC 8.0), FP8 from Ada/Hopper (CC 8.9); Neuron devices per the AWS Neuron docs.
struct ModelName {
  const char* csv_prefix;
  const char* id;
  std::vector<const char*> aliases;
  const char* compute_capability;
};

const std::vector<ModelName>& ModelNames() {
  static const std::vector<ModelName> kNames = {
      {"K80", "K80", {"Tesla-K80"}, "3.7"},
      {"M60", "M60", {"Tesla-M60"}, "5.2"},
      {"GRID K520", "K520", {"GRID-K520"}, "3.0"},
      {"V100 16GB", "V100-16GB", {"V100", "V100-SXM2-16GB", "Tesla-V100"}, "7.0"},
      {"V100 32GB", "V100-32GB", {"V100-SXM2-32GB"}, "7.0"},
      {"T4G", "T4G", {"T4g"}, "7.5"},
      {"T4", "T4", {"Tesla-T4"}, "7.5"},
      {"A10G", "A10G", {}, "8.6"},
      {"A100 40GB", "A100-40GB", {"A100", "A100-SXM4-40GB", "A100-40G"}, "8.0"},
      {"A100 80GB", "A100-80GB", {"A100-SXM4-80GB", "A100-80G"}, "8.0"},
      {"H100", "H100", {"H100-80GB", "H100-SXM", "H100-SXM5", "H100-SXM5-80GB"}, "9.0"},
      {"H200", "H200", {"H200-141GB", "H200-SXM"}, "9.0"},
      {"B200", "B200", {"HGX-B200"}, "10.0"},
      {"B300", "B300", {"HGX-B300", "Blackwell-Ultra"}, "10.3"},
      {"GB200", "GB200", {}, "10.0"},
      {"L40S", "L40S", {}, "8.9"},
      {"L4", "L4", {}, "8.9"},
      {"RTX PRO 6000", "RTX-PRO-6000", {"RTX PRO Server 6000", "RTX-PRO-6000-Blackwell"}, "12.0"},
      {"RTX PRO 4500", "RTX-PRO-4500", {"RTX-PRO-4500-Blackwell"}, "12.0"},
      {"Radeon Pro V520", "Radeon-Pro-V520", {"V520"}, ""},
      {"Gaudi", "Gaudi", {"Gaudi-HL-205", "HL-205"}, ""},
      {"Qualcomm", "AI100", {"Qualcomm AI100", "Qualcomm-Cloud-AI-100", "Cloud-AI-100"}, ""},
      {"Inferentia2", "Inferentia2", {"Inf2"}, ""},
      {"Inferentia", "Inferentia", {"Inferentia1", "Inf1"}, ""},
      {"Trainium2", "Trainium2", {"Trn2"}, ""},
      {"Trainium", "Trainium", {"Trainium1", "Trn1"}, ""},
      {"Xilinx Virtex UltraScale+ VU9P", "VU9P", {"Virtex UltraScale (VU9P)"}, ""},
      {"Xilinx Virtex UltraScale+ VU47P", "VU47P", {"Virtex UltraScale+ (VU47P)"}, ""},
      {"Xilinx Alveo U30", "U30", {"Alveo-U30"}, ""},
  };
  return kNames;
}

const ModelName* FindName(std::string_view model) {
  for (const ModelName& n : ModelNames()) {
    if (StartsWith(model, n.csv_prefix)) return &n;
  }
  return nullptr;
}

bool Contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

}  // namespace

Result<std::vector<GpuSpec>> ReadGpuSpecsCsv(std::string_view csv, std::string_view origin) {
  CsvReader reader(csv, std::string(origin));
  std::vector<std::string> row;
  if (!reader.Next(&row)) {
    return reader.status().ok() ? Status::ParseError(std::string(origin) + ":1: empty file")
                                : reader.status();
  }
  CsvHeader header(row);
  GPUADVISOR_RETURN_IF_ERROR(
      header.Require({"model", "vendor", "architecture", "memory_gib", "memory_bw_gbps",
                      "fp64_tflops", "fp32_tflops", "tf32_tflops_dense", "fp16_bf16_tflops_dense",
                      "fp8_tflops_dense", "int8_tops_dense", "nvlink_gbps", "tdp_w", "nvenc",
                      "source", "aws_api_name", "aws_reported_memory_mib"},
                     std::string(origin) + ":1"));
  std::vector<GpuSpec> out;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;
    if (row.size() < 17) {
      return Status::ParseError(reader.Where() + ": expected at least 17 columns, got " +
                                std::to_string(row.size()));
    }
    auto cell = [&](const char* name) -> const std::string& { return row[header.Find(name)]; };
    Status st;
    auto num = [&](const char* name) -> std::optional<double> {
      const std::string& v = cell(name);
      if (Trim(v).empty() || !st.ok()) return std::nullopt;
      Result<double> d = ParseDouble(v, std::string("column \"") + name + "\"");
      if (!d.ok()) {
        st = d.status().WithPrefix(reader.Where());
        return std::nullopt;
      }
      return *d;
    };
    GpuSpec g;
    g.full_name = cell("model");
    const ModelName* name = FindName(g.full_name);
    if (!name) {
      return Status::ParseError(reader.Where() + ": model \"" + g.full_name +
                                "\" has no catalog id; add it to the model-name table");
    }
    g.model = name->id;
    for (const char* a : name->aliases) g.aliases.push_back(a);
    if (*name->compute_capability) g.compute_capability = name->compute_capability;
    g.vendor = cell("vendor");
    g.architecture = cell("architecture");
    g.memory_gib = num("memory_gib");
    g.memory_bw_gbyte_s = num("memory_bw_gbps");
    g.fp64_tflops = num("fp64_tflops");
    g.fp32_tflops = num("fp32_tflops");
    g.tf32_tflops = num("tf32_tflops_dense");
    std::optional<double> half = num("fp16_bf16_tflops_dense");
    g.fp8_tflops = num("fp8_tflops_dense");
    g.int8_tops = num("int8_tops_dense");
    g.nvlink_gbyte_s = num("nvlink_gbps");
    g.tdp_w = num("tdp_w");
    if (auto n = num("nvenc")) g.nvenc = static_cast<int>(*n);
    if (auto m = num("aws_reported_memory_mib")) g.aws_memory_mib = static_cast<int>(*m);
    if (!st.ok()) return st;
    if (!cell("aws_api_name").empty() && !Contains(cell("aws_api_name"), "not in")) {
      g.aws_names.push_back(cell("aws_api_name"));
    }
    const std::string& arch = g.architecture;
    bool neuron = g.vendor == "AWS";
    bool pre_ampere = Contains(arch, "Kepler") || Contains(arch, "Maxwell") ||
                      Contains(arch, "Volta") || Contains(arch, "Turing");
    bool nvidia = g.vendor == "NVIDIA";
    g.supports_bf16 = (nvidia && !pre_ampere) || (neuron && g.model != "Inferentia");
    g.supports_tf32 = g.supports_bf16;
    g.supports_fp8 = (nvidia && (Contains(arch, "Ada") || Contains(arch, "Hopper") ||
                                 Contains(arch, "Blackwell"))) ||
                     (neuron && g.model != "Inferentia");
    g.fp16_tflops = half;
    if (g.supports_bf16) g.bf16_tflops = half;  // V100/T4: FP16 tensor only, no BF16
    g.source_note = cell("source");
    int notes = header.Find("notes");
    if (notes >= 0 && static_cast<size_t>(notes) < row.size()) g.notes = row[notes];
    out.push_back(std::move(g));
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

}  // namespace gpuadvisor::build
