// Allow and deny lists: each list is resolved to the set of instance types it names, so asking
// about a type is a set lookup per list, and the counts after each list say which one emptied
// the field.
#include "recommend/filters.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "gpuadvisor/query.h"
#include "util/text.h"

namespace gpuadvisor::recommend_internal {
namespace {

struct List;
// The instance types a list names; `canonical` gets each value as the catalog spells it.
using Namer = Result<std::set<const InstanceType*>> (*)(const Catalog&, const List&,
                                                        std::vector<std::string>* canonical);

// One list as given: its option name, whether it allows or denies, its values, and how its
// values name instance types.
struct List {
  const char* option;
  bool allow;
  const std::vector<std::string>* values;
  Namer name;
};

Status Unknown(std::string_view option, std::string_view what, std::string_view value,
               const std::string& hint) {
  return Status::InvalidArgument(std::string(option) + ": unknown " + std::string(what) + " \"" +
                                 std::string(value) + "\"" + (hint.empty() ? "" : "; " + hint))
      .WithField(option);
}

std::vector<std::string> Families(const Catalog& c) {
  std::vector<std::string> out;
  for (const InstanceType& t : c.instance_types()) out.push_back(t.family);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<std::set<const InstanceType*>> NameFamilies(const Catalog& c, const List& list,
                                                   std::vector<std::string>* canonical) {
  const std::vector<std::string> families = Families(c);
  for (const std::string& value : *list.values) {
    const std::string f = ToLower(Trim(value));
    if (!std::binary_search(families.begin(), families.end(), f)) {
      return Unknown(list.option, "instance family", value, DidYouMean(f, families));
    }
    canonical->push_back(f);
  }
  std::set<const InstanceType*> named;
  for (const InstanceType& t : c.instance_types()) {
    if (std::find(canonical->begin(), canonical->end(), t.family) != canonical->end()) {
      named.insert(&t);
    }
  }
  return named;
}

// The types whose accelerator a GPU list names (a model family names all its memory variants,
// as `instances` reads its GPU filter).
Result<std::set<const InstanceType*>> NameGpus(const Catalog& c, const List& list,
                                               std::vector<std::string>* canonical) {
  std::set<const GpuSpec*> specs;
  for (const std::string& value : *list.values) {
    Result<std::vector<const GpuSpec*>> found = ResolveGpuFamily(c, Trim(value));
    if (!found.ok()) return found.status().WithPrefix(list.option).WithField(list.option);
    for (const GpuSpec* g : *found) {
      if (specs.insert(g).second) canonical->push_back(g->model);
    }
  }
  std::set<const InstanceType*> named;
  for (const InstanceType& t : c.instance_types()) {
    if (specs.count(c.GpuOf(t))) named.insert(&t);
  }
  return named;
}

Result<std::set<const InstanceType*>> NameInstances(const Catalog& c, const List& list,
                                                    std::vector<std::string>* canonical) {
  std::set<const InstanceType*> named;
  for (const std::string& value : *list.values) {
    const InstanceType* t = c.FindInstanceType(ToLower(Trim(value)));
    if (t == nullptr) {
      return Unknown(list.option, "instance type", value,
                     DidYouMean(ToLower(Trim(value)), c.InstanceTypeNames()));
    }
    if (named.insert(t).second) canonical->push_back(t->name);
  }
  return named;
}

std::string Join(const std::vector<std::string>& values) {
  constexpr size_t kShown = 6;
  std::string out;
  for (size_t i = 0; i < values.size() && i < kShown; ++i) out += (i ? "," : "") + values[i];
  if (values.size() > kShown) out += " and " + std::to_string(values.size() - kShown) + " more";
  return out;
}

// "no instance type is left to search: only-family p5 leaves 6 of the 106 instance types, then
// exclude-gpu H100 leaves none of them".
std::string EmptiedNote(const std::vector<FilterStep>& steps) {
  std::string note = "no instance type is left to search: ";
  for (size_t i = 0; i < steps.size(); ++i) {
    const FilterStep& s = steps[i];
    note += (i ? ", then " : "") + s.option + " " + Join(s.values) + " leaves ";
    if (s.after > 0) {
      note += std::to_string(s.after) + " of " + (i ? "" : "the ") + std::to_string(s.before) +
              (i ? "" : " instance types");
    } else {
      note += i ? "none of them" : "none of the " + std::to_string(s.before) + " instance types";
    }
  }
  return note;
}

}  // namespace

Result<TypeFilter> TypeFilter::Make(const Catalog& c, const RecommendRequest& r) {
  const List lists[] = {{"only-family", true, &r.only_families, NameFamilies},
                        {"only-gpu", true, &r.only_gpus, NameGpus},
                        {"only-instance", true, &r.only_instances, NameInstances},
                        {"exclude-family", false, &r.exclude_families, NameFamilies},
                        {"exclude-gpu", false, &r.exclude_gpus, NameGpus},
                        {"exclude-instance", false, &r.exclude_instances, NameInstances}};
  TypeFilter f;
  std::vector<const InstanceType*> left;
  for (const InstanceType& t : c.instance_types()) left.push_back(&t);
  f.applied_.types_in_catalog = static_cast<int>(left.size());
  for (const List& list : lists) {
    if (list.values->empty()) continue;
    FilterStep step;
    step.option = list.option;
    Result<std::set<const InstanceType*>> named = list.name(c, list, &step.values);
    if (!named.ok()) return named.status();
    Step s{list.allow, std::move(named).value()};
    step.before = static_cast<int>(left.size());
    std::erase_if(left, [&](const InstanceType* t) { return (s.named.count(t) > 0) != s.allow; });
    step.after = static_cast<int>(left.size());
    f.applied_.steps.push_back(std::move(step));
    f.steps_.push_back(std::move(s));
    if (left.empty() && f.applied_.emptied_by.empty()) {
      f.applied_.emptied_by = list.option;
      f.applied_.note = EmptiedNote(f.applied_.steps);
    }
  }
  f.applied_.types_left = static_cast<int>(left.size());
  return f;
}

bool TypeFilter::Allows(const InstanceType& t) const {
  return std::all_of(steps_.begin(), steps_.end(),
                     [&](const Step& s) { return (s.named.count(&t) > 0) == s.allow; });
}

}  // namespace gpuadvisor::recommend_internal
