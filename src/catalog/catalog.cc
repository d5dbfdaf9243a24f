#include "gpuadvisor/catalog.h"

#include <algorithm>

#include "util/dates.h"
#include "util/enum_names.h"
#include "util/text.h"

namespace gpuadvisor {

const std::vector<GpuFigure>& GpuFigures() {
  static const std::vector<GpuFigure> kFigures = {
      {"memory_gib", &GpuSpec::memory_gib},
      {"memory_bw_gbyte_s", &GpuSpec::memory_bw_gbyte_s},
      {"fp64_tflops", &GpuSpec::fp64_tflops},
      {"fp64_tensor_tflops", &GpuSpec::fp64_tensor_tflops},
      {"sm_count", &GpuSpec::sm_count},
      {"l2_cache_mib", &GpuSpec::l2_cache_mib},
      {"fp32_tflops", &GpuSpec::fp32_tflops},
      {"tf32_tflops", &GpuSpec::tf32_tflops},
      {"bf16_tflops", &GpuSpec::bf16_tflops},
      {"fp16_tflops", &GpuSpec::fp16_tflops},
      {"fp8_tflops", &GpuSpec::fp8_tflops},
      {"int8_tops", &GpuSpec::int8_tops},
      {"nvlink_gbyte_s", &GpuSpec::nvlink_gbyte_s},
      {"neuronlink_gbyte_s", &GpuSpec::neuronlink_gbyte_s},
      {"neuron_sbuf_mib", &GpuSpec::neuron_sbuf_mib},
      {"tdp_w", &GpuSpec::tdp_w},
  };
  return kFigures;
}

const GpuFigure* FindGpuFigure(std::string_view name) {
  for (const GpuFigure& f : GpuFigures()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

template <>
struct EnumNames<AcceleratorKind> {
  static constexpr EnumName<AcceleratorKind> kTable[] = {{AcceleratorKind::kGpu, "gpu"},
                                                         {AcceleratorKind::kNeuron, "neuron"},
                                                         {AcceleratorKind::kInference, "inference"},
                                                         {AcceleratorKind::kFpga, "fpga"},
                                                         {AcceleratorKind::kMedia, "media"}};
};

const char* AcceleratorKindName(AcceleratorKind kind) { return NameOf(kind); }

std::optional<AcceleratorKind> ParseAcceleratorKind(std::string_view name) {
  return ParseName<AcceleratorKind>(name);
}

const RegionOffer* InstanceType::FindRegion(std::string_view region) const {
  auto it = std::lower_bound(regions.begin(), regions.end(), region,
                             [](const RegionOffer& r, std::string_view v) { return r.region < v; });
  return it != regions.end() && it->region == region ? &*it : nullptr;
}

const ReservedPrice* RegionOffer::FindReserved(int years, std::string_view offering_class,
                                               std::string_view payment) const {
  for (const ReservedPrice& r : reserved) {
    if (r.years == years && r.offering_class == offering_class && r.payment == payment) return &r;
  }
  return nullptr;
}

std::optional<Price> RegionOffer::Reserved1y() const {
  const ReservedPrice* term = FindReserved(1, "standard", "no-upfront");
  auto date = [](const std::string& d) { return d == "undated" ? std::string() : d; };
  if (reserved_1y_no_upfront &&
      (!term || date(reserved_1y_no_upfront->from.date) > date(term->from.date))) {
    return reserved_1y_no_upfront;
  }
  if (!term) return std::nullopt;
  return Price{term->effective_usd_per_hour(), term->from, false,
               "1-year standard no-upfront RI, AWS Price List"};
}

bool InstanceType::HasUsageClass(std::string_view cls) const {
  return std::find(usage_classes.begin(), usage_classes.end(), cls) != usage_classes.end();
}

void Catalog::SetGpus(std::vector<GpuSpec> gpus) {
  gpus_ = std::move(gpus);
  SortAndIndex();
}

void Catalog::SetInstanceTypes(std::vector<InstanceType> types) {
  instance_types_ = std::move(types);
  SortAndIndex();
}

void Catalog::PutInstanceType(InstanceType type) {
  EditInstanceTypes([&](std::vector<InstanceType>& types) {
    auto same = [&](const InstanceType& t) { return t.name == type.name; };
    auto it = std::find_if(types.begin(), types.end(), same);
    if (it != types.end()) {
      *it = std::move(type);
    } else {
      types.push_back(std::move(type));
    }
  });
}

bool Catalog::RemoveInstanceType(std::string_view name) {
  size_t removed = 0;
  EditInstanceTypes([&](std::vector<InstanceType>& types) {
    removed = std::erase_if(types, [&](const InstanceType& t) { return t.name == name; });
  });
  return removed > 0;
}

void Catalog::PutGpu(GpuSpec gpu) {
  EditGpus([&](std::vector<GpuSpec>& gpus) {
    auto it = std::find_if(gpus.begin(), gpus.end(),
                           [&](const GpuSpec& g) { return g.model == gpu.model; });
    if (it != gpus.end()) {
      *it = std::move(gpu);
    } else {
      gpus.push_back(std::move(gpu));
    }
  });
}

void Catalog::SortAndIndex() {
  // Stable: records with equal keys keep the order they were given in.
  std::stable_sort(gpus_.begin(), gpus_.end(),
                   [](const GpuSpec& a, const GpuSpec& b) { return a.model < b.model; });
  std::stable_sort(instance_types_.begin(), instance_types_.end(),
                   [](const InstanceType& a, const InstanceType& b) { return a.name < b.name; });
  type_index_.clear();
  gpu_index_.clear();
  for (size_t i = 0; i < instance_types_.size(); ++i) type_index_[instance_types_[i].name] = i;
  for (size_t i = 0; i < gpus_.size(); ++i) {
    const GpuSpec& g = gpus_[i];
    gpu_index_.emplace(NormalizeName(g.model), i);
    gpu_index_.emplace(NormalizeName(g.full_name), i);
    for (const std::string& a : g.aliases) gpu_index_.emplace(NormalizeName(a), i);
  }
  // AWS names last: "A100" maps to whichever spec claims it first as an alias, else first spec.
  for (size_t i = 0; i < gpus_.size(); ++i) {
    for (const std::string& a : gpus_[i].aws_names) gpu_index_.emplace(NormalizeName(a), i);
  }
  regions_.clear();
  for (const InstanceType& t : instance_types_) {
    for (const RegionOffer& r : t.regions) regions_.push_back(r.region);
  }
  std::sort(regions_.begin(), regions_.end());
  regions_.erase(std::unique(regions_.begin(), regions_.end()), regions_.end());
}

const InstanceType* Catalog::FindInstanceType(std::string_view name) const {
  auto it = type_index_.find(ToLower(Trim(name)));
  return it == type_index_.end() ? nullptr : &instance_types_[it->second];
}

const GpuSpec* Catalog::FindGpu(std::string_view name) const {
  auto it = gpu_index_.find(NormalizeName(name));
  return it == gpu_index_.end() ? nullptr : &gpus_[it->second];
}

const GpuSpec* Catalog::GpuOf(const InstanceType& type) const {
  auto it = gpu_index_.find(NormalizeName(type.accelerator.model));
  return it == gpu_index_.end() ? nullptr : &gpus_[it->second];
}

const CatalogSource* Catalog::FindSource(std::string_view id) const {
  for (const CatalogSource& s : sources) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

bool Catalog::HasRegion(std::string_view region) const {
  return std::binary_search(regions_.begin(), regions_.end(), region);
}

std::vector<std::string> Catalog::InstanceTypeNames() const {
  std::vector<std::string> out;
  out.reserve(instance_types_.size());
  for (const InstanceType& t : instance_types_) out.push_back(t.name);
  return out;
}

std::vector<std::string> Catalog::GpuNames() const {
  std::vector<std::string> out;
  for (const GpuSpec& g : gpus_) {
    out.push_back(g.model);
    for (const std::string& a : g.aliases) out.push_back(a);
  }
  return out;
}

bool OlderFigure(const Provenance& a, const Provenance& b) {
  const std::optional<int64_t> da = ParseIsoDate(a.date), db = ParseIsoDate(b.date);
  if (da.has_value() != db.has_value()) return !da.has_value();  // undated is the oldest
  if (da && *da != *db) return *da < *db;
  return a.source < b.source;
}

std::string Catalog::NewestPriceDate() const {
  std::string newest;
  for (const CatalogSource& s : sources) {
    if (s.kind != "specs" && s.kind != "availability" && s.snapshot_date > newest) {
      newest = s.snapshot_date;
    }
  }
  return newest;
}

}  // namespace gpuadvisor
