// What the engine doubts about a candidate plan, and the chance of getting its capacity
// (doc/recommend.md, "Doubts" and "Obtainability"). Recommend() ranks a plan with a demoting
// doubt after every plan without one (Risk::kSound), folds the count sweep of one option under
// one row, and names the picks a buyer compares.
#ifndef GPUADVISOR_RECOMMEND_DOUBTS_H_
#define GPUADVISOR_RECOMMEND_DOUBTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpuadvisor/recommend.h"
#include "recommend/explain.h"
#include "workload/neuron_support.h"

namespace gpuadvisor::recommend_internal {

// Candidate::doubts bits.
enum DoubtBit : uint16_t {
  kDoubtCapacity = 1 << 0,         // a cluster this size is rarely granted on spot / on demand
  kDoubtSpotGang = 1 << 1,         // several spot instances exchanging traffic for more than a day
  kDoubtNeuronPort = 1 << 2,       // a Neuron device and a model the SDK's list does not cover
  kDoubtNeuronLowConf = 1 << 3,    // a Neuron device and a low-confidence estimate
  kDoubtPriceEstimated = 1 << 4,   // spot price derived from a feed's savings figure
  kDoubtPriceUndated = 1 << 5,     // the purchase price carries no full date
  kDoubtArmTraining = 1 << 6,      // a training run on an Arm64 (Graviton) GPU host
  kDoubtSpanningReplica = 1 << 7,  // a served model split over instances (pipeline over EFA)
  kDoubtWideGangNoEfa = 1 << 8,    // a training gang of kWideGang+ instances without EFA
  kDoubtNoSpotPrice = 1 << 9,      // spot was searched, but the type has no spot price here
  kDoubtNoBf16 = 1 << 10,          // an LLM in 16 bits on a GPU without bf16 (fp16 instead)
};
inline constexpr uint16_t kDemotingDoubts =
    kDoubtCapacity | kDoubtSpotGang | kDoubtNeuronPort | kDoubtNeuronLowConf | kDoubtArmTraining |
    kDoubtSpanningReplica | kDoubtWideGangNoEfa | kDoubtNoBf16;

// Clusters this large are rarely granted at once on spot or on demand for the families AWS
// sells as Capacity Blocks or as 8-accelerator hosts (explain.cc's LargeClusterNote says so).
inline constexpr int kLargeCluster = 8;
// A training or HPC gang this wide on instances without EFA is doubted: AWS's guidance for
// distributed training is EFA in a cluster placement group; over ENA, collectives this wide are
// bound by a network the estimate models least well (no published multi-node figure without EFA).
inline constexpr int kWideGang = 4;
// A spot gang longer than this is doubted: each interruption stops every instance of it.
inline constexpr double kSpotGangHours = 24;
// Below this chance of getting the capacity, a plan is doubted ("capacity").
inline constexpr double kLikelyObtainable = 0.5;

// Sets c->doubts and c->obtain from the candidate's type, count, purchase option, estimate and
// price, and from what the Neuron SDK's list says of the model (`neuron`). `spot_searched`: spot
// is one of the purchase options searched (a plan on another option in a region where the type
// has no spot price says so).
void AssessDoubts(const Workload& w, const workload_internal::NeuronSupport& neuron,
                  bool spot_searched, Candidate* c);

// The account scan's spot placement score (1-10) for the candidate replaces the spot prior.
void UseSpotScore(int score, Candidate* c);

// The expected wait for the capacity before the run starts (issue 38, item 2), from the chance
// of being granted it per attempt (Candidate::obtain): the failed attempts a geometric count
// expects, (1 - p) / p, each `retry_hours` apart, after `lead_hours` that any grant takes. Priors
// stated by hand, as the probabilities are (doc/recommend.md, "Obtainability"): a launch on
// demand or on spot retried hourly; a Capacity Block starts on a date AWS offers, at the
// earliest the next day (half a day's wait on average), and a refused date costs a day.
struct CapacityWait {
  double hours = 0;        // expected, lead included
  double retry_hours = 0;  // between attempts
  double lead_hours = 0;   // before the first attempt can start the run
};
CapacityWait ExpectedWait(const Candidate& c);
// "retried every 1 h at 95% per attempt" / "a Capacity Block's start date (12 h on average),
// then a day per date refused at 90% per date", for the plan.
std::string WaitBasis(const Candidate& c);

// 0: no demoting doubt (or Risk::kAny); 1: a demoting doubt; 2: the account cannot launch it.
int Tier(const Candidate& c, Risk risk);

// The plan's doubts and obtainability basis as text (MakeBarePlan's figures already hold the
// probability).
std::vector<Plan::Doubt> DoubtTexts(const Candidate& c);
std::string ObtainBasis(const Candidate& c);

// `ranked` with each option (family, purchase, accelerators per instance, region kept apart only
// by rank) folded into its best-ranked candidate: `rows` holds those, `folded[i]` the other
// candidates of rows[i] in rank order.
struct Shortlist {
  std::vector<Candidate> rows;
  std::vector<std::vector<Candidate>> folded;
};
// `unfold`: every candidate its own row (RecommendRequest::all_sizes).
Shortlist FoldOptions(const std::vector<Candidate>& ranked, bool unfold = false);

}  // namespace gpuadvisor::recommend_internal

#endif  // GPUADVISOR_RECOMMEND_DOUBTS_H_
