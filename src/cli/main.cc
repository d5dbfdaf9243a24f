// gpuadvisor and gpuadvisor-serve: the command-line front end (src/cli/run.cc).
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "cli/common.h"

namespace {

// Start-up (doc/design.md, "Start-up"): loading the embedded catalog touches ~3 MB of fresh heap,
// ~750 pages of 4 KiB, and their page faults were most of a short command's CPU time (~10-17 us
// each on a VM). Here the heap grows once by 24 MiB (only the pages used are ever backed), its
// 2 MiB-aligned part is offered to transparent huge pages (taken where the kernel allows them,
// `madvise` mode or `always`), and the next allocations start there: a catalog load faults two
// 2 MiB pages instead. Blocks stay on that heap (no mmap per block below 32 MiB) and the heap
// is not trimmed back while the command runs. Nothing here is needed for correctness: with
// huge pages off, the program runs the same on 4 KiB pages.
void PrepareHeap() {
  constexpr size_t kHeap = size_t{24} << 20;
  constexpr int kMmapThreshold = 32 << 20;  // glibc's largest on 64-bit; above kHeap
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, 2 * kMmapThreshold);
  // volatile: a malloc whose block is not used may be removed by the compiler.
  void* volatile grow = std::malloc(kHeap);  // grows the heap; its pages are not touched
  std::free(grow);
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  // Kept for the life of the process (reachable, not a leak): where the next blocks would start,
  // then the block that skips to the aligned part.
  static void* volatile first = nullptr;
  [[maybe_unused]] static void* volatile skip = nullptr;
  first = std::malloc(64);
  const auto at = reinterpret_cast<uintptr_t>(first);
  const uintptr_t from = (at + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t to = end & ~(kHuge - 1);
  if (first == nullptr || to <= from + kHuge) return;
  void* const aligned = reinterpret_cast<void*>(from);  // NOLINT(performance-no-int-to-ptr)
  if (madvise(aligned, to - from, MADV_HUGEPAGE) != 0) return;
  // Skips to the aligned part: a block up to it, kept and never touched (its one header page
  // aside), so the catalog's blocks land on huge pages.
  if (from - at > 4096) skip = std::malloc(from - at - 4096);
}

#if defined(GPUADVISOR_SERVE_PROGRAM)
constexpr bool kPrepareHeap = false;  // a server runs for days: glibc's own trimming suits it
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kPrepareHeap = false;  // the sanitizer's allocator does not use this heap
#else
constexpr bool kPrepareHeap = true;
#endif

}  // namespace

int main(int argc, char** argv) {
  if (kPrepareHeap) PrepareHeap();
  return gpuadvisor::cli::RunCli(argc, argv);
}
