// WorkloadFields (the binder of given workload fields) and the help of the workload's fields,
// read from their one declaration (workload_options.h).
#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpuadvisor/workload.h"
#include "util/files.h"
#include "util/numbers.h"
#include "util/text.h"
#include "workload/enum_tables.h"
#include "workload/model_internal.h"
#include "workload/task_kinds.h"
#include "workload/value_parse.h"
#include "workload/workload_options.h"

namespace gpuadvisor {

using namespace workload_internal;  // NOLINT: the value parsers
using workload_internal::task_bits::Bit;
using workload_internal::task_bits::kAllTasks;

namespace {

// Hands every declared option, whatever its type, to f(name, field, info): for the walks that
// treat all fields alike (the help index, the merge of a preset with the fields given).
template <typename F>
class EachField {
 public:
  explicit EachField(F f) : f_(std::move(f)) {}
  template <typename T>
  void Text(std::string_view n, T& x, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename T>
  void Bool(std::string_view n, T& x, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename T>
  void Number(std::string_view n, T& x, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename T>
  void Integer(std::string_view n, T& x, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename T>
  void Duration(std::string_view n, T& x, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename E, typename NameOf, typename Parse>
  void Enum(std::string_view n, E& x, NameOf&&, Parse&&, const FieldInfo& i) {
    f_(n, x, i);
  }
  template <typename S>
  void Nested(S& s) {
    DeclareOptions(*this, s);
  }
  template <typename T>
  void NotAnOption(const T&) {}

 private:
  F f_;
};

template <typename S, typename F>
void ForEachField(S& s, F f) {
  EachField<F> v(std::move(f));
  DeclareOptions(v, s);
}

// Sets the declared field `field` from a value received for it (workload_options.h says how
// each type parses): a typed number or bool where the field takes one, as it is; else its text.
// Either way the same checks and messages, which name `key`, the spelling given ("num-layers:
// expected a positive integer, got \"-1\""), and show the value as given.
class ValueSetter {
 public:
  ValueSetter(std::string_view field, std::string_view key, const WorkloadValue& value)
      : field_(field), key_(key), v_(value) {}
  Status status;

  void Text(std::string_view n, std::string& f, const FieldInfo&) {
    if (Mine(n)) f = std::string(Trim(v_.text));
  }
  template <typename T>
  void Bool(std::string_view n, T& f, const FieldInfo&) {
    if (!Mine(n)) return;
    if (v_.boolean) {
      // T is bool or std::optional<bool>: the value, not the optional, either way.
      f = *v_.boolean;  // NOLINT(bugprone-optional-value-conversion)
    } else if (v_.number && (*v_.number == 0 || *v_.number == 1)) {
      f = *v_.number == 1;  // as the text "1" or "0"
    } else if (Result<bool> b = workload_internal::Bool(key_, v_.text); Took(b)) {
      f = *b;
    }
  }
  template <typename T>
  void Number(std::string_view n, T& f, const FieldInfo& i) {
    if (!Mine(n)) return;
    const bool fraction = i.hi == 1;
    std::optional<double> x = v_.number;
    if (!x) {
      Result<double> parsed = fraction ? ParseDouble(v_.text, key_) : ParseSiNumber(v_.text, key_);
      if (parsed.ok()) x = *parsed;
    }
    const bool in_range = x && (i.lo_exclusive ? *x > i.lo : *x >= i.lo) && *x <= i.hi;
    if (!in_range) {
      return Refuse(fraction         ? "a fraction in (0, 1]"
                    : i.lo_exclusive ? "a positive number"
                                     : "a non-negative number");
    }
    f = static_cast<T>(*x * i.scale);
  }
  template <typename T>
  void Integer(std::string_view n, T& f, const FieldInfo& i) {
    if (!Mine(n)) return;
    std::optional<double> x = v_.number;
    if (!x) {
      Result<double> parsed = ParseSiNumber(v_.text, key_);
      if (parsed.ok()) x = *parsed;
    }
    if (!x || std::floor(*x) != *x || *x < i.lo || *x > std::min(i.hi, 2e9)) {
      return Refuse(IntegerWanted(i));
    }
    f = static_cast<int>(*x);
  }
  template <typename T>
  void Duration(std::string_view n, T& f, const FieldInfo& i) {
    if (!Mine(n)) return;
    // A bare number counts seconds (a latency) or hours (a run length), typed or not.
    Result<double> s = v_.number        ? Result<double>(*v_.number * (i.bare_seconds ? 1 : 3600))
                       : i.bare_seconds ? LatencySeconds(key_, v_.text)
                                        : DurationSeconds(key_, v_.text);
    if (s.ok() && !(*s > 0)) {
      return Refuse(i.bare_seconds ? "a latency such as 200ms or 1.5s"
                                   : "a duration such as 90m, 36h or 14d");
    }
    if (Took(s)) f = *s / i.seconds_per_unit;
  }
  template <typename E, typename NameOf, typename Parse>
  void Enum(std::string_view n, E& f, NameOf&&, Parse&& parse, const FieldInfo&) {
    if (!Mine(n)) return;
    auto e = parse(key_, v_.text);
    if (Took(e)) f = *e;
  }
  template <typename S>
  void Nested(S& s) {
    DeclareOptions(*this, s);
  }
  template <typename T>
  void NotAnOption(const T&) {}

 private:
  bool Mine(std::string_view n) const { return status.ok() && n == field_; }
  template <typename R>
  bool Took(const R& r) {
    if (!r.ok()) status = r.status();
    return r.ok();
  }
  void Refuse(const std::string& what) {
    status = Status::InvalidArgument(std::string(key_) + ": expected " + what + ", got \"" +
                                     std::string(v_.text) + "\"");
  }
  // "a positive integer", "an integer >= 8"; a short range in full: "0, 1, 2 or 3".
  static std::string IntegerWanted(const FieldInfo& i) {
    const int lo = static_cast<int>(i.lo);
    if (std::isfinite(i.hi)) {
      std::string what;
      for (int k = lo; k <= static_cast<int>(i.hi); ++k) {
        what += (what.empty()                  ? ""
                 : k == static_cast<int>(i.hi) ? " or "
                                               : ", ") +
                std::to_string(k);
      }
      return what;
    }
    return lo == 0   ? "a non-negative integer"
           : lo == 1 ? "a positive integer"
                     : "an integer >= " + std::to_string(lo);
  }
  std::string_view field_, key_;
  const WorkloadValue& v_;
};

// The declared fields by name: their help (sorted by name) and the other spellings accepted.
struct FieldIndex {
  std::deque<std::string> text;                             // what `infos` point into
  std::vector<WorkloadFieldInfo> infos;                     // in name order
  std::vector<std::string> names;                           // in name order
  std::map<std::string, std::string, std::less<>> aliases;  // other spelling -> name
};

const FieldIndex& Index() {
  static const FieldIndex kIndex = [] {
    FieldIndex x;
    Workload w = Workload();
    ForEachField(w, [&x](std::string_view n, auto&, const FieldInfo& i) {
      const char* name = x.text.emplace_back(n).c_str();
      const char* value = x.text.emplace_back(i.metavar).c_str();
      const char* help = x.text.emplace_back(i.help).c_str();
      const char* label = x.text.emplace_back(i.label).c_str();
      x.infos.push_back({name, value, help, i.tasks, label});
      for (std::string_view a : i.aliases) x.aliases.emplace(a, n);
    });
    std::sort(x.infos.begin(), x.infos.end(), [](const auto& a, const auto& b) {
      return std::string_view(a.name) < std::string_view(b.name);
    });
    for (const WorkloadFieldInfo& f : x.infos) x.names.emplace_back(f.name);
    return x;
  }();
  return kIndex;
}

// The declared field `name` (canonical spelling) sets, aliases resolved; "" for none.
std::string_view FindField(std::string_view name) {
  const FieldIndex& x = Index();
  if (auto a = x.aliases.find(name); a != x.aliases.end()) name = a->second;
  auto it = std::lower_bound(x.names.begin(), x.names.end(), name);
  return it != x.names.end() && *it == name ? std::string_view(*it) : std::string_view();
}

}  // namespace

namespace workload_internal {

RequestShape ServeRequestShape(const Workload& w) {
  const int window = w.model.context_length;
  RequestShape r{w.input_tokens > 0 ? w.input_tokens : kDefaultInputTokens,
                 w.output_tokens > 0 ? w.output_tokens : kDefaultOutputTokens};
  if (window <= 0) return r;
  if (w.output_tokens <= 0) {
    r.output = std::max(1, std::min(r.output, w.input_tokens > 0 ? window - r.input : window / 3));
  }
  if (w.input_tokens <= 0) r.input = std::max(1, std::min(r.input, window - r.output));
  return r;
}

}  // namespace workload_internal

namespace {

// A preset by name, or by the Hugging Face id of a repository with the same architecture
// (said among the assumptions, so that a fine-tune's name is never silently reinterpreted).
Status SetModel(Workload* w, std::string_view key, std::string_view v) {
  const std::string_view name = Trim(v);
  Result<const ModelPreset*> p = FindModelPreset(name);
  if (!p.ok()) return p.status();
  w->model = (*p)->arch;
  w->model_name = (*p)->name;
  w->model_notes.clear();
  if (LooksLikeHfId(name)) {
    w->model_notes.push_back(std::string(key) + " " + std::string(name) +
                             ": Hugging Face id read as preset " + (*p)->name + " (" +
                             (*p)->source + ")");
  }
  return Status::OK();
}

// A config.json file; a name that is no file but an "org/name" Hugging Face id selects the
// preset with that architecture (as --model does).
Status SetModelConfig(Workload* w, std::string_view key, std::string_view v) {
  const std::string path(Trim(v));
  Result<std::string> text = ReadFile(path, kModelConfigFile);
  if (!text.ok()) {
    const bool unreadable = text.status().code() == StatusCode::kIOError;
    if (unreadable && path != "-" && LooksLikeHfId(path)) return SetModel(w, key, path);
    return text.status().WithPrefix(key);
  }
  GPUADVISOR_RETURN_IF_ERROR(ApplyHfConfigJson(w, *text, path));
  w->model_config = path;
  return Status::OK();
}

}  // namespace

const std::vector<std::string>& WorkloadFieldNames() { return Index().names; }

const WorkloadFieldInfo* FindWorkloadFieldInfo(std::string_view name) {
  const std::vector<WorkloadFieldInfo>& infos = Index().infos;
  auto it = std::lower_bound(
      infos.begin(), infos.end(), name,
      [](const auto& f, std::string_view n) { return std::string_view(f.name) < n; });
  return it != infos.end() && name == it->name ? &*it : nullptr;
}

std::string workload_internal::WorkloadFieldOf(std::string_view key) {
  return std::string(FindField(CanonicalKey(key)));
}

bool IsFileWorkloadField(std::string_view key) {
  return FindField(CanonicalKey(key)) == "model-config";
}

namespace {

// Binds one given value onto `w`: "model" and "model-config" replace the architecture (a
// config.json `inline_config` is the file's content, not its path); every other field is its
// declaration's. Every error is about this key, whatever the value parser or a config.json
// reader named.
Status BindOne(Workload* w, std::string_view field, std::string_view key,
               const WorkloadValue& value, bool inline_config) {
  Status st;
  if (inline_config) {
    st = ApplyHfConfigJson(w, value.text, key);
  } else if (field == "model") {
    st = SetModel(w, key, value.text);
  } else if (field == "model-config") {
    st = SetModelConfig(w, key, value.text);
  } else {
    ValueSetter set(field, key, value);
    DeclareOptions(set, *w);
    st = set.status;
  }
  return st.ok() ? st : st.WithField(key);
}

// The order Bind applies fields in: the task, then the architecture, then the rest as given.
int BindRank(std::string_view field) {
  if (field == "task") return 0;
  if (field == "model-config" || field == "model") return 1;
  return 2;
}

}  // namespace

Status WorkloadFields::Give(std::string_view key, WorkloadValue value, std::string where) {
  if (value.number && !std::isfinite(*value.number)) value.number.reset();  // "inf" as text
  const std::string name = CanonicalKey(key);
  const std::string field(FindField(name));
  if (field.empty()) {
    std::string hint = DidYouMean(name, WorkloadFieldNames());
    return Status::InvalidArgument("unknown workload field \"" + std::string(key) + "\"" +
                                   (hint.empty() ? "" : "; " + hint))
        .WithField(name);
  }
  Record(Entry{field, name, std::move(where), std::move(value), false});
  return Status::OK();
}

void WorkloadFields::Record(Entry e) {
  auto same = std::find_if(given_.begin(), given_.end(),
                           [&](const Entry& g) { return g.field == e.field; });
  if (same != given_.end()) {
    *same = std::move(e);  // a later source wins (flags over a file)
  } else {
    given_.push_back(std::move(e));
  }
}

void WorkloadFields::GiveInlineConfig(std::string_view key, std::string json, std::string where) {
  Record(Entry{"model-config", CanonicalKey(key), std::move(where),
               WorkloadValue{.text = std::move(json)}, true});
}

bool WorkloadFields::Given(std::string_view field) const {
  return std::any_of(given_.begin(), given_.end(),
                     [&](const Entry& g) { return g.field == field; });
}

Result<Workload> WorkloadFields::Bind(Workload w) const {
  if (Given("model") && Given("model-config")) {
    return Status::InvalidArgument(
               "model-config: give a preset (model) or a config.json, not both: each names the "
               "whole architecture")
        .WithField("model-config");
  }
  std::vector<const Entry*> order;
  order.reserve(given_.size());
  for (const Entry& e : given_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return BindRank(a->field) < BindRank(b->field);
  });
  for (const Entry* e : order) {
    Status st = BindOne(&w, e->field, e->key, e->value, e->inline_config);
    if (!st.ok()) return e->where.empty() ? st : st.WithPrefix(e->where);
  }
  // A field given for a task it means nothing to is an error, never silently ignored.
  for (const Entry& e : given_) {
    if (WorkloadFieldApplies(e.field, w.task)) continue;
    Status st =
        Status::InvalidArgument(e.field + ": does not apply to task " + TaskKindName(w.task) +
                                " (it applies to " + WorkloadFieldTasks(e.field) + ")")
            .WithField(e.field);
    return e.where.empty() ? st : st.WithPrefix(e.where);
  }
  return w;
}

bool WorkloadFieldApplies(std::string_view name, TaskKind t) {
  const WorkloadFieldInfo* f = FindWorkloadFieldInfo(name);
  return f != nullptr && (f->tasks & Bit(t)) != 0;
}

std::string WorkloadFieldTasks(std::string_view name) {
  const WorkloadFieldInfo* f = FindWorkloadFieldInfo(name);
  std::string out;
  for (TaskKind t : kAllTaskKinds) {
    if (f == nullptr || (f->tasks & Bit(t)) == 0) continue;
    out += (out.empty() ? "" : ", ") + std::string(TaskKindName(t));
  }
  return out;
}

const char* TaskKindFamily(TaskKind t) {
  switch (TaskKindDefOf(t).family) {
    case TaskFamily::kLlm:
      return "LLM";
    case TaskFamily::kVision:
      return "vision";
    case TaskFamily::kOwn:
      break;
  }
  return TaskKindName(t);
}

namespace {

// The bits of the tasks of `t`'s kind.
uint32_t KindBits(TaskKind t) {
  uint32_t bits = 0;
  for (TaskKind u : AllOf<TaskKind>()) {
    if (std::string_view(TaskKindFamily(u)) == TaskKindFamily(t)) bits |= Bit(u);
  }
  return bits;
}

std::string TaskList(uint32_t bits) {
  std::string out;
  for (TaskKind t : AllOf<TaskKind>()) {
    if (bits & Bit(t)) out += (out.empty() ? "" : ", ") + std::string(TaskKindName(t));
  }
  return out;
}

// The kinds of more than one task ("llm", "vision"), lower case, for help topics.
std::vector<std::string> KindTopics() {
  std::vector<std::string> out;
  for (TaskKind t : AllOf<TaskKind>()) {
    const std::string kind = ToLower(TaskKindFamily(t));
    if (kind != TaskKindName(t) && std::find(out.begin(), out.end(), kind) == out.end()) {
      out.push_back(kind);
    }
  }
  return out;
}

}  // namespace

Result<std::vector<TaskKind>> TasksOfHelpTopic(std::string_view topic) {
  const std::string want = ToLower(Trim(topic));
  std::vector<TaskKind> out;
  for (TaskKind t : AllOf<TaskKind>()) {
    if (want == TaskKindName(t) || want == ToLower(TaskKindFamily(t))) out.push_back(t);
  }
  if (!out.empty()) return out;
  std::string kinds;
  for (const std::string& k : KindTopics()) kinds += (kinds.empty() ? "" : "|") + k;
  return Status::InvalidArgument("task: expected a task (" + JoinNames<TaskKind>("|") +
                                 ") or a kind of task (" + kinds + "), got \"" +
                                 std::string(topic) + "\"")
      .WithField("task");
}

std::vector<WorkloadFieldGroup> GroupWorkloadFields(std::span<const TaskKind> tasks) {
  uint32_t wanted = 0;
  for (TaskKind t : tasks) wanted |= Bit(t);
  // Sort key: 0 every task, 1 several kinds, then (2, the kind's first task, a part of the
  // kind after the whole of it, the part's first task, its bits).
  using Key = std::tuple<int, unsigned, bool, unsigned, uint32_t>;
  std::map<Key, WorkloadFieldGroup> groups;
  for (const WorkloadFieldInfo& f : Index().infos) {
    if (wanted != 0 && (f.tasks & wanted) == 0) continue;
    const auto first = static_cast<TaskKind>(std::countr_zero(f.tasks));
    const uint32_t kind = KindBits(first);
    Key key{1, 0, false, 0, 0};
    std::string title = "several kinds of task";
    if (f.tasks == kAllTasks) {
      key = {0, 0, false, 0, 0};
      title = "all tasks";
    } else if ((f.tasks & ~kind) == 0) {
      key = {2, static_cast<unsigned>(std::countr_zero(kind)), f.tasks != kind,
             static_cast<unsigned>(first), f.tasks};
      title = TaskKindFamily(first);
      if (f.tasks != kind) {
        title += ": " + TaskList(f.tasks);
      } else if (title != TaskKindName(first)) {
        title += " (" + TaskList(kind) + ")";
      }
    }
    WorkloadFieldGroup& g = groups[key];
    g.title = title;
    g.several_kinds = std::get<0>(key) == 1;
    g.fields.push_back(&f);
  }
  std::vector<WorkloadFieldGroup> out;
  out.reserve(groups.size());
  for (auto& [key, g] : groups) out.push_back(std::move(g));
  return out;
}

std::string WorkloadFieldScope(const WorkloadFieldInfo& f) {
  std::string out;
  uint32_t done = 0;
  for (TaskKind t : AllOf<TaskKind>()) {
    if ((f.tasks & Bit(t)) == 0 || (done & Bit(t)) != 0) continue;
    const uint32_t kind = KindBits(t);
    const bool whole = (f.tasks & kind) == kind;
    out += (out.empty() ? "" : ", ") + std::string(whole ? TaskKindFamily(t) : TaskKindName(t));
    done |= whole ? kind : Bit(t);
  }
  return out;
}

bool IsService(const Workload& w) { return TaskKindDefOf(w.task).is_service(w); }

std::optional<double> WorkloadDeadlineHours(const Workload& w) {
  if (w.runtime_target_s <= 0 || IsService(w)) return std::nullopt;
  if (w.task == TaskKind::kHpc && w.fp64_flop <= 0 && w.fp32_flop <= 0) return std::nullopt;
  return w.runtime_target_s / 3600;
}

}  // namespace gpuadvisor
