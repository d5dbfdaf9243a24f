#include "catalog/quotas.h"

#include <cctype>
#include <string_view>

namespace gpuadvisor {
namespace {

constexpr VcpuQuota kVcpuQuotas[] = {
    {"p", "Running On-Demand P instances", "L-417A185B", "All P Spot Instance Requests",
     "L-7212CCBC", true},
    {"g", "Running On-Demand G and VT instances", "L-DB2E81BA",
     "All G and VT Spot Instance Requests", "L-3819A6DF", true},
    {"gr", "Running On-Demand G and VT instances", "L-DB2E81BA",
     "All G and VT Spot Instance Requests", "L-3819A6DF", true},
    {"vt", "Running On-Demand G and VT instances", "L-DB2E81BA",
     "All G and VT Spot Instance Requests", "L-3819A6DF", true},
    {"inf", "Running On-Demand Inf instances", "L-1945791B", "All Inf Spot Instance Requests",
     "L-B5D1601B", true},
    {"trn", "Running On-Demand Trn instances", "L-2C3B7624", "All Trn Spot Instance Requests",
     "L-6B0D517C", true},
    {"dl", "Running On-Demand DL instances", "L-6E869C2A", "All DL Spot Instance Requests",
     "L-85EED4F7", true},
    {"f", "Running On-Demand F instances", "L-74FC7D96", "All F Spot Instance Requests",
     "L-88CF9481", true},
};
constexpr VcpuQuota kStandardQuota = {
    "",           "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances",
    "L-1216C47A", "All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests",
    "L-34B43A08", false};

}  // namespace

const VcpuQuota& VcpuQuotaOf(const InstanceType& t) {
  size_t letters = 0;
  while (letters < t.family.size() && std::isalpha(static_cast<unsigned char>(t.family[letters]))) {
    ++letters;
  }
  const std::string_view prefix = std::string_view(t.family).substr(0, letters);
  for (const VcpuQuota& q : kVcpuQuotas) {
    if (prefix == q.family_prefix) return q;
  }
  return kStandardQuota;
}

}  // namespace gpuadvisor
