// Per-family facts no catalog source carries, from data/family-facts.json (project-owned, one
// citation per entry, linked into the binary as the catalog is): the EC2 vCPU quota group an
// instance family draws on, and the machine image it launches with. A new family is an entry
// in that file, never a code table (CONTRIBUTING.md, "A new instance family").
//
// vCPU quotas: running instances count against a per-region vCPU quota per group of families
// (Service Quotas codes; doc/launch.md). AWS's default for the accelerated groups (P, G and VT,
// Inf, Trn, DL, F) is 0 on a new account: the first launch of such an instance waits for a quota
// increase. `launch` warns with it, `recommend` names it in a plan's obtainability.
#ifndef GPUADVISOR_CATALOG_FAMILY_FACTS_H_
#define GPUADVISOR_CATALOG_FAMILY_FACTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct VcpuQuota {
  std::string id;                         // "p", "g", "inf", ... "standard"
  std::string on_demand, on_demand_code;  // quota name and code: "Running On-Demand P instances"
  std::string spot, spot_code;
  bool accelerated = false;  // an accelerated group: AWS's default on a new account is 0 vCPUs
};

// A public machine image, by its SSM parameter (resolved at launch, so a spec never goes stale).
struct MachineImage {
  std::string id;                // "nvidia-dlami", "neuron-dlami", "ubuntu"
  std::string name, arm64_name;  // arm64_name: the arm64 build's, when it is named otherwise
  std::string ssm_parameter;     // with {arch} (x86_64, arm64) or {deb_arch} (amd64, arm64)
  std::string provides;          // "NVIDIA driver, CUDA, NCCL, ... preinstalled"; "" none
  // GPU architectures (GpuSpec::architecture) its driver does not run, and why.
  std::vector<std::string> unsupported_gpu_architectures;
  std::string unsupported_why;
  // The parameter and name for one CPU architecture ("x86_64" or "arm64").
  std::string ParameterFor(std::string_view arch) const;
  const std::string& NameFor(std::string_view arch) const;
};

struct FamilyFacts {
  std::string family;               // "p5", "u-p6e-gb200"
  size_t quota_group = 0;           // index into FamilyFactsTable::quota_groups
  size_t image = 0;                 // index into FamilyFactsTable::images
  bool image_lists_family = false;  // the image's release notes name the family as supported
  std::string cpu_architecture;     // where the catalog has none (an UltraServer's hosts); ""
  std::string note;                 // a warning every launch of the family carries; ""
};

struct FamilyFactsTable {
  std::string snapshot_date;
  std::vector<VcpuQuota> quota_groups;
  std::vector<MachineImage> images;
  std::vector<FamilyFacts> families;
  // Null for a family without an entry (a catalog file newer than this binary).
  const FamilyFacts* Find(std::string_view family) const;
  const VcpuQuota& QuotaOf(const FamilyFacts& f) const { return quota_groups[f.quota_group]; }
  const MachineImage& ImageOf(const FamilyFacts& f) const { return images[f.image]; }
  const MachineImage* FindImage(std::string_view id) const;
};

// Parses a family-facts file; ParseError naming `origin` and the JSON path of the first fault
// (a missing field, a family naming an unknown group or image, a family listed twice).
Result<FamilyFactsTable> ParseFamilyFacts(std::string_view text, std::string_view origin);

// The table linked into the binary (parsed once; thread-safe).
Result<const FamilyFactsTable*> EmbeddedFamilyFacts();

// The quota group `t` draws on; null when its family has no entry (or the table is unreadable).
const VcpuQuota* VcpuQuotaOf(const InstanceType& t);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_FAMILY_FACTS_H_
