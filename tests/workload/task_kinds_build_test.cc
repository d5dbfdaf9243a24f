// Compiled by ctest, never linked (tests/workload/tests.cmake): the task kind registry
// (workload/task_kinds.h) must not build one kind short. `task_kinds_registry_complete` compiles
// this file as it is, a registry of every kind re-registered, which builds;
// `task_kinds_registry_missing_kind` compiles it with GPUADVISOR_DROP_LAST_KIND, the same
// registry less its last entry (a kind added to TaskKind but not to the registry), and passes only
// when the compiler refuses it with RegisterTaskKinds's message.
#include <cstddef>
#include <utility>

#include "workload/task_kinds.h"

namespace gpuadvisor::workload_internal {
namespace {

template <size_t... I>
consteval auto Reregister(std::index_sequence<I...>) {
  const TaskKindDef defs[] = {kTaskKinds[I]...};
  return RegisterTaskKinds(defs);
}

#ifdef GPUADVISOR_DROP_LAST_KIND
constexpr auto kShort = Reregister(std::make_index_sequence<kTaskKindCount - 1>());
#else
constexpr auto kEvery = Reregister(std::make_index_sequence<kTaskKindCount>());
static_assert(kEvery.size() == kTaskKindCount);
static_assert(kEvery.back().kind == kAllTaskKinds.back());
#endif

}  // namespace
}  // namespace gpuadvisor::workload_internal
