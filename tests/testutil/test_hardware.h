// GPU specs and instance types for workload tests, with the vendors' datasheet figures (dense
// tensor throughput) and the memory AWS reports, as the catalog's GPU source has them, so the
// tests do not depend on the embedded catalog.
#ifndef GPUADVISOR_TESTS_TESTUTIL_TEST_HARDWARE_H_
#define GPUADVISOR_TESTS_TESTUTIL_TEST_HARDWARE_H_

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/estimate.h"

namespace gpuadvisor::testing {

// "A100-40GB", "A100-80GB", "H100", "H200", "B200", "V100", "T4", "A10G", "L4", "L40S",
// "Trainium", "Inferentia2", "Trainium2". Aborts the test on an unknown name. Each carries the
// confidence grade (and derivation) the catalog build gives it.
const GpuSpec& TestGpu(std::string_view model);
// "g5.12xlarge" (4x A10G, 40 Gbps), "p4d.24xlarge" (8x A100-40GB, 400 Gbps EFA),
// "p5.48xlarge" (8x H100, 3200 Gbps EFA), each with a us-east-1 offer.
const InstanceType& TestInstance(std::string_view name);

// The catalog linked into the binary (parsed once), for tests that check against real data.
inline const Catalog& EmbeddedForTests() { return **EmbeddedCatalog(); }

// A validated workload from (key, value) pairs; a bad field or failed Validate() fails the test.
Workload MakeWorkload(std::initializer_list<std::pair<const char*, const char*>> fields);
// Binds one field, by its name, over `*w` (WorkloadFields::Bind with *w as the base): for a test
// that changes one field of a workload, or wants the binder's message about a value. `*w` is left
// as it was on an error.
Status GiveField(Workload* w, std::string_view key, std::string_view text);
Status GiveField(Workload* w, std::string_view key, WorkloadValue value);  // typed (JSON, Python)

inline Hardware Gpus(std::string_view model, int count) {
  Hardware hw;
  hw.gpu = &TestGpu(model);
  hw.gpus = count;
  // A Neuron device comes in the node of the largest instance that carries it, as the CLI's
  // `--gpu` assumes from the catalog: 16 Trainium or Trainium2 chips (trn1n/trn2.48xlarge), 12
  // Inferentia2 (inf2.48xlarge). GPUs: 8 per node unless a test says otherwise.
  const std::pair<std::string_view, int> kNeuronNodes[] = {
      {"Trainium", 16}, {"Inferentia2", 12}, {"Trainium2", 16}};
  for (const auto& [name, chips] : kNeuronNodes) {
    if (model == name) hw.gpus_per_node = std::min(count, chips);
  }
  return hw;
}

// True when one of the estimate's assumptions contains `text`.
inline bool Mentions(const Estimate& e, const std::string& text) {
  for (const std::string& a : e.assumptions) {
    if (a.find(text) != std::string::npos) return true;
  }
  return false;
}

// `instances` of the test instance `type` (TestInstance), priced at its us-east-1 offer.
inline Hardware OnInstance(const char* type, int instances) {
  const InstanceType& t = TestInstance(type);
  Hardware hw = Gpus(t.accelerator.model, t.accelerator.count * instances);
  hw.instance = &t;
  hw.instances = instances;
  hw.offer = &t.regions[0];
  return hw;
}

}  // namespace gpuadvisor::testing

#endif  // GPUADVISOR_TESTS_TESTUTIL_TEST_HARDWARE_H_
