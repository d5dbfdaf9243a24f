// EC2's vCPU quotas: running instances count against a per-region vCPU quota per group of
// families (Service Quotas codes; doc/launch.md). AWS's default for the accelerated groups (P, G
// and VT, Inf, Trn, DL, F) is 0 on a new account: the first launch of such an instance waits for
// a quota increase. `launch` warns with it, `recommend` names it in a plan's obtainability.
#ifndef GPUADVISOR_CATALOG_QUOTAS_H_
#define GPUADVISOR_CATALOG_QUOTAS_H_

#include "gpuadvisor/catalog.h"

namespace gpuadvisor {

struct VcpuQuota {
  const char* family_prefix;  // letters before the generation digit: "p", "g", "inf"; "" standard
  const char* on_demand;      // quota name and code
  const char* on_demand_code;
  const char* spot;
  const char* spot_code;
  bool accelerated;  // an accelerated group: AWS's default on a new account is 0 vCPUs
};

// The quota group `t`'s family draws on (the standard group for families no other group names).
const VcpuQuota& VcpuQuotaOf(const InstanceType& t);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_QUOTAS_H_
