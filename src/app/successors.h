// What takes a retired type's place (issue 29: "p3 is retired" named no successor), derived from
// the catalog by three uses, so it follows the catalog rather than a hand-kept list.
#ifndef GPUADVISOR_APP_SUCCESSORS_H_
#define GPUADVISOR_APP_SUCCESSORS_H_

#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/query.h"

namespace gpuadvisor {

struct Successor {
  const char* use;  // "same GPU", "single node", "multi-node"; do not rename (JSON)
  const InstanceType* type;
};

// For a retired type, current types of the same accelerator kind (GPU for GPU), one per use:
//   same GPU     the smallest current type carrying the same accelerator line (V100 -> p3dn);
//   single node  the cheapest with at least as many devices, each with at least the memory and
//                the dense 16-bit tensor TFLOP/s of the retired one's;
//   multi-node   the same with EFA and at least 8 devices (a full training node).
// "Cheapest" is the on-demand price in `region`; types not priced there are skipped. A type
// picked for one use is not repeated for a later one. Empty for a current type.
std::vector<Successor> RetiredSuccessors(const Catalog& c, const InstanceType& t,
                                         const std::string& region);
// "p3dn.24xlarge (same GPU), g6e.xlarge (single node), ..." or "" when there is none.
std::string SuccessorsText(const std::vector<Successor>& successors);
// What to tell someone who estimates, prices or launches `t` in `region`, one line each: not
// offered (or not priced) there, naming the regions that price it (RegionHint); retired, naming
// what takes its place there (RetiredSuccessors). Empty for a current type offered in `region`.
std::vector<std::string> InstanceTypeWarnings(const Catalog& c, const InstanceType& t,
                                              const std::string& region);
// One line per retired type among the rows (once per type), "p3.2xlarge is retired; in its
// place: ...", priced in the row's region; empty when no row is retired.
std::vector<std::string> RetiredNotes(const Catalog& c, const std::vector<InstanceRow>& rows);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_SUCCESSORS_H_
