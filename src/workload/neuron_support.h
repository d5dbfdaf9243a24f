// What the AWS Neuron SDK's published, dated model lists say of a workload's model
// (data/neuron-support.json, linked into the binary): whether the architecture is on the list for
// training on Trainium (the training tasks) or for inference on Inferentia2 / Trainium (the
// others). Recommend() doubts a Neuron plan for a model that is not on it (a port, not a
// deployment; doc/recommend.md, "Doubts").
#ifndef GPUADVISOR_WORKLOAD_NEURON_SUPPORT_H_
#define GPUADVISOR_WORKLOAD_NEURON_SUPPORT_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/result.h"
#include "gpuadvisor/workload.h"

namespace gpuadvisor::workload_internal {

struct NeuronSupport {
  enum class Level { kSupported, kUnsupported, kUnknown };
  Level level = Level::kUnknown;
  std::string architecture;  // "llama", "3D U-Net"; "" when the model is no preset
  std::string detail;        // one line for the plan: what the list says, and its source
  Provenance source;         // the list (its title) and its date; empty when none applies
  // The Neuron devices the list places the support on ("Trainium2"); empty = any. A supported
  // model on another device is still a port (SupportedOn).
  std::vector<std::string> chips;
  bool SupportedOn(std::string_view device) const;
};

// The embedded list's verdict for `w` (its preset and task). A model that is no preset (an
// explicit architecture, a config.json) is kUnknown.
NeuronSupport NeuronSupportFor(const Workload& w);

// A support list: the lists it cites and, per model preset, the list (by id) that covers it for
// training and for inference ("" = none does).
struct NeuronSupportList {
  struct List {
    std::string id, title, url, date;
  };
  struct Entry {
    std::string preset, architecture, train, infer, note;
    std::vector<std::string> train_chips, infer_chips;  // empty = any Neuron device
  };
  std::vector<List> lists;
  std::vector<Entry> presets;  // sorted by preset
  const List* FindList(std::string_view id) const;
};

// Parses a support list (the embedded one, or a test's); ParseError naming origin and the path.
Result<NeuronSupportList> ParseNeuronSupportList(std::string_view text, std::string_view origin);
// The verdict of `list` for preset `preset` ("" = no preset) and task `t`.
NeuronSupport LookUpNeuronSupport(const NeuronSupportList& list, std::string_view preset,
                                  TaskKind t);
// The embedded list, parsed once (a test checks it parses).
Result<const NeuronSupportList*> EmbeddedNeuronSupportList();

}  // namespace gpuadvisor::workload_internal

#endif  // GPUADVISOR_WORKLOAD_NEURON_SUPPORT_H_
