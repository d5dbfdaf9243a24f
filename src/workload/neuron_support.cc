// The Neuron SDK's model lists (neuron_support.h), from data/neuron-support.json linked into the
// binary with .incbin, as the catalog is.
#include "workload/neuron_support.h"

#include <algorithm>
#include <mutex>

#include "gpuadvisor/i18n.h"
#include "util/embed.h"
#include "util/rj_reader.h"

#ifndef GPUADVISOR_NEURON_SUPPORT_JSON_PATH
#error "GPUADVISOR_NEURON_SUPPORT_JSON_PATH must name data/neuron-support.json"
#endif

GPUADVISOR_EMBED(neuron_support, GPUADVISOR_NEURON_SUPPORT_JSON_PATH);

namespace gpuadvisor::workload_internal {

bool NeuronSupport::SupportedOn(std::string_view device) const {
  return level == Level::kSupported &&
         (chips.empty() || std::find(chips.begin(), chips.end(), device) != chips.end());
}

const NeuronSupportList::List* NeuronSupportList::FindList(std::string_view id) const {
  for (const List& l : lists) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

Result<NeuronSupportList> ParseNeuronSupportList(std::string_view text, std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  RjReader r{std::string(origin)};
  const JsonPath root("$");
  if (!doc.IsObject()) return Status::ParseError(std::string(origin) + ": $: expected an object");
  NeuronSupportList out;
  const rapidjson::Value& lists = r.Array(doc, "lists", root);
  for (rapidjson::SizeType i = 0; i < lists.Size(); ++i) {
    const JsonPath at(root, "lists", i);
    if (!lists[i].IsObject()) {
      return Status::ParseError(std::string(origin) + ": " + at.str() + ": expected an object");
    }
    out.lists.push_back({r.Str(lists[i], "id", at), r.Str(lists[i], "title", at),
                         r.Str(lists[i], "url", at), r.Str(lists[i], "date", at)});
  }
  const rapidjson::Value& presets = r.Array(doc, "presets", root);
  for (rapidjson::SizeType i = 0; i < presets.Size(); ++i) {
    const JsonPath at(root, "presets", i);
    const rapidjson::Value& e = presets[i];
    if (!e.IsObject()) {
      return Status::ParseError(std::string(origin) + ": " + at.str() + ": expected an object");
    }
    NeuronSupportList::Entry entry{r.Str(e, "preset", at), r.Str(e, "architecture", at),
                                   r.OptStr(e, "train", at).value_or(""),
                                   r.OptStr(e, "infer", at).value_or(""), r.Str(e, "note", at)};
    if (e.HasMember("train_chips")) entry.train_chips = r.StrList(e, "train_chips", at);
    if (e.HasMember("infer_chips")) entry.infer_chips = r.StrList(e, "infer_chips", at);
    if (!r.status().ok()) return r.status();
    for (const std::string* id : {&entry.train, &entry.infer}) {
      if (!id->empty() && out.FindList(*id) == nullptr) {
        return Status::ParseError(std::string(origin) + ": " + at.str() + ": list \"" + *id +
                                  "\" is not one of $.lists");
      }
    }
    out.presets.push_back(std::move(entry));
  }
  if (!r.status().ok()) return r.status();
  std::sort(out.presets.begin(), out.presets.end(),
            [](const auto& a, const auto& b) { return a.preset < b.preset; });
  for (size_t i = 1; i < out.presets.size(); ++i) {
    if (out.presets[i].preset == out.presets[i - 1].preset) {
      return Status::ParseError(std::string(origin) + ": $.presets: \"" + out.presets[i].preset +
                                "\" given twice");
    }
  }
  return out;
}

NeuronSupport LookUpNeuronSupport(const NeuronSupportList& list, std::string_view preset,
                                  TaskKind t) {
  NeuronSupport s;
  const bool training = IsTrainingTask(t) || t == TaskKind::kTrainVision;
  const char* use = training ? Tr("training on Trainium") : Tr("inference on AWS Neuron");
  auto it = std::lower_bound(list.presets.begin(), list.presets.end(), preset,
                             [](const auto& e, std::string_view p) { return e.preset < p; });
  if (preset.empty() || it == list.presets.end() || it->preset != preset) {
    s.detail = preset.empty()
                   ? Trf("a model given by its architecture: whether the Neuron SDK supports it "
                         "for {0} is not known here (check its model lists before porting)",
                         use)
                   : Trf("{0}: not in gpuadvisor's Neuron support list for {1} (check the SDK's "
                         "model lists before porting)",
                         preset, use);
    return s;
  }
  s.architecture = it->architecture;
  const std::string& id = training ? it->train : it->infer;
  const NeuronSupportList::List* l = list.FindList(id.empty() ? it->train + it->infer : id);
  if (!id.empty()) {
    s.level = NeuronSupport::Level::kSupported;
    s.source = {l->title, l->date};
    s.chips = training ? it->train_chips : it->infer_chips;
    std::string on;
    for (const std::string& c : s.chips) on += (on.empty() ? "" : ", ") + c;
    // TRANSLATORS: {0} a preset, {1} its architecture, {2} "training on Trainium", {3} a list's
    // title, {4} its date, {5} device names ("Trainium2, Trainium3").
    s.detail = on.empty() ? Trf("{0} ({1}) is on the Neuron SDK's list for {2} ({3}, {4})", preset,
                                it->architecture, use, l->title, l->date)
                          : Trf("{0} ({1}) is on the Neuron SDK's list for {2} on {5} only ({3}, "
                                "{4}): elsewhere a port",
                                preset, it->architecture, use, l->title, l->date, on);
    return s;
  }
  s.level = NeuronSupport::Level::kUnsupported;
  // TRANSLATORS: {0} a preset, {1} its architecture, {2} "training on Trainium", {3} a note.
  s.detail =
      Trf("{0} ({1}) is not on the Neuron SDK's lists for {2}: a port, not a deployment "
          "({3})",
          preset, it->architecture, use, it->note);
  if (!list.lists.empty()) s.source = {list.lists.front().title, list.lists.front().date};
  return s;
}

Result<const NeuronSupportList*> EmbeddedNeuronSupportList() {
  static std::once_flag once;
  static Result<NeuronSupportList>* parsed = nullptr;
  std::call_once(once, [] {
    const std::string_view text = GPUADVISOR_EMBEDDED(neuron_support);
    parsed = new Result<NeuronSupportList>(
        ParseNeuronSupportList(text, "<embedded data/neuron-support.json>"));
  });
  if (!parsed->ok()) return parsed->status();
  return &parsed->value();
}

NeuronSupport NeuronSupportFor(const Workload& w) {
  Result<const NeuronSupportList*> list = EmbeddedNeuronSupportList();
  if (!list.ok()) {
    NeuronSupport s;
    s.detail = list.status().message();
    return s;
  }
  return LookUpNeuronSupport(**list, w.model_name, w.task);
}

}  // namespace gpuadvisor::workload_internal
