#include "app/successors.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "gpuadvisor/query.h"

namespace gpuadvisor {
namespace {

// Dense 16-bit tensor TFLOP/s: FP16 where published (V100, T4 have no BF16), else BF16.
double Tensor16(const GpuSpec* g) {
  if (g == nullptr) return 0;
  return g->fp16_tflops.value_or(g->bf16_tflops.value_or(0));
}

double MemoryGib(const InstanceType& t) {
  return t.accelerator.memory_mib_each ? *t.accelerator.memory_mib_each / 1024.0 : 0;
}

// The accelerator line of a model, as `--gpu` reads it: "V100" covers V100-16GB and V100-32GB.
std::vector<const GpuSpec*> LineOf(const Catalog& c, const GpuSpec* g) {
  if (g == nullptr) return {};
  for (const std::string& name : g->aws_names) {
    Result<std::vector<const GpuSpec*>> line = ResolveGpuFamily(c, name);
    if (line.ok() && !line->empty()) return *line;
  }
  return {g};
}

std::optional<double> OnDemand(const InstanceType& t, const std::string& region) {
  const RegionOffer* o = t.FindRegion(region);
  if (o == nullptr || !o->on_demand || !o->offered.value_or(true)) return std::nullopt;
  return o->on_demand->usd_per_hour;
}

bool Taken(const std::vector<Successor>& out, const InstanceType* t) {
  return std::any_of(out.begin(), out.end(), [&](const Successor& s) { return s.type == t; });
}

}  // namespace

std::vector<Successor> RetiredSuccessors(const Catalog& c, const InstanceType& t,
                                         const std::string& region) {
  std::vector<Successor> out;
  if (!t.retired) return out;
  const GpuSpec* gpu = c.GpuOf(t);
  const std::vector<const GpuSpec*> line = LineOf(c, gpu);
  const double devices = t.accelerator.device_equivalents();
  const double memory = MemoryGib(t), tensor = Tensor16(gpu);
  const InstanceType* same = nullptr;
  const InstanceType* single = nullptr;
  const InstanceType* multi = nullptr;
  double single_usd = 0, multi_usd = 0;
  for (const InstanceType& u : c.instance_types()) {
    if (u.retired || u.accelerator.kind != t.accelerator.kind) continue;
    const std::optional<double> usd = OnDemand(u, region);
    if (!usd) continue;
    const GpuSpec* g = c.GpuOf(u);
    const double n = u.accelerator.device_equivalents();
    if (g != nullptr && g != gpu && std::find(line.begin(), line.end(), g) != line.end() &&
        (same == nullptr || n < same->accelerator.device_equivalents())) {
      same = &u;
    }
    if (n < devices || MemoryGib(u) < memory || Tensor16(g) < tensor) continue;
    if (single == nullptr || *usd < single_usd) {
      single = &u;
      single_usd = *usd;
    }
    if (u.efa && n >= std::max(devices, 8.0) && (multi == nullptr || *usd < multi_usd)) {
      multi = &u;
      multi_usd = *usd;
    }
  }
  for (const auto& [use, type] : {std::pair<const char*, const InstanceType*>{"same GPU", same},
                                  {"single node", single},
                                  {"multi-node", multi}}) {
    if (type != nullptr && !Taken(out, type)) out.push_back({use, type});
  }
  return out;
}

std::string SuccessorsText(const std::vector<Successor>& successors) {
  std::string out;
  for (const Successor& s : successors) {
    out += (out.empty() ? "" : ", ") + s.type->name + " (" + s.use + ")";
  }
  return out;
}

std::vector<std::string> InstanceTypeWarnings(const Catalog& c, const InstanceType& t,
                                              const std::string& region) {
  std::vector<std::string> out;
  if (std::string hint = RegionHint(t, region); !hint.empty()) out.push_back(std::move(hint));
  if (t.retired) {
    const std::string next = SuccessorsText(RetiredSuccessors(c, t, region));
    out.push_back(t.name + " is retired" +
                  (t.retired_note.empty() ? "" : " (" + t.retired_note + ")") +
                  ": AWS no longer launches it; " +
                  (next.empty() ? "no current type of its kind is priced in " + region
                                : "in its place (" + region + "): " + next));
  }
  return out;
}

std::vector<std::string> RetiredNotes(const Catalog& c, const std::vector<InstanceRow>& rows) {
  std::vector<std::string> out;
  std::vector<const InstanceType*> seen;
  for (const InstanceRow& r : rows) {
    if (!r.type->retired || std::find(seen.begin(), seen.end(), r.type) != seen.end()) continue;
    seen.push_back(r.type);
    const std::string next = SuccessorsText(RetiredSuccessors(c, *r.type, r.region));
    out.push_back(r.type->name + " is retired" +
                  (next.empty() ? "; no current type of its kind is priced in " + r.region
                                : "; in its place (" + r.region + "): " + next));
  }
  return out;
}

}  // namespace gpuadvisor
