// The allow and deny lists of a recommendation (RecommendRequest::only_families ...): resolved
// against the catalog once per Recommend() call, then asked per instance type.
#ifndef GPUADVISOR_RECOMMEND_FILTERS_H_
#define GPUADVISOR_RECOMMEND_FILTERS_H_

#include <set>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor::recommend_internal {

class TypeFilter {
 public:
  // InvalidArgument naming the option ("only-gpu: unknown GPU \"H1000\"; did you mean H100?",
  // field "only-gpu") for a family, GPU or instance type the catalog lacks. The catalog must
  // outlive the filter.
  static Result<TypeFilter> Make(const Catalog& catalog, const RecommendRequest& request);

  // True when every allow list names `type` and no deny list does.
  bool Allows(const InstanceType& type) const;
  // The lists given, with the instance types left after each, and the note when none is left.
  const AppliedFilters& applied() const { return applied_; }

 private:
  struct Step {
    bool allow = true;
    std::set<const InstanceType*> named;  // the types the list names
  };
  std::vector<Step> steps_;
  AppliedFilters applied_;
};

}  // namespace gpuadvisor::recommend_internal

#endif  // GPUADVISOR_RECOMMEND_FILTERS_H_
