// Prometheus text exposition from dcgm-exporter and nvidia_gpu_exporter: one metric per line,
// merged into one sample per GPU and scrape (a scrape ends when a GPU's metric repeats or the
// timestamp changes).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "telemetry/internal.h"
#include "util/text.h"

namespace gpuadvisor::telemetry {
namespace {

enum class Metric {
  kNone,
  kUtilPct,
  kUtilRatio,
  kEngineRatio,
  kUsedMib,
  kUsedBytes,
  kFreeMib,
  kTotalBytes,
  kPowerW,
  kInfo
};

Metric MetricOf(std::string_view name) {
  if (StartsWith(name, "DCGM_FI_")) {
    if (name == "DCGM_FI_DEV_GPU_UTIL") return Metric::kUtilPct;
    if (name == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") return Metric::kEngineRatio;
    if (name == "DCGM_FI_DEV_FB_USED") return Metric::kUsedMib;
    if (name == "DCGM_FI_DEV_FB_FREE") return Metric::kFreeMib;
    if (name == "DCGM_FI_DEV_POWER_USAGE") return Metric::kPowerW;
    return Metric::kNone;
  }
  if (StartsWith(name, "nvidia_smi_")) {
    if (name == "nvidia_smi_utilization_gpu_ratio") return Metric::kUtilRatio;
    if (name == "nvidia_smi_memory_used_bytes") return Metric::kUsedBytes;
    if (name == "nvidia_smi_memory_total_bytes") return Metric::kTotalBytes;
    if (name == "nvidia_smi_power_draw_watts") return Metric::kPowerW;
    if (name == "nvidia_smi_gpu_info") return Metric::kInfo;
  }
  return Metric::kNone;
}

struct Pending {
  std::string host, uuid, name;
  int index = -1;
  std::optional<double> time;
  std::optional<double> util, engine, used, free, total, power;
  size_t line = 0;
  uint64_t order = 0;
};

struct Info {
  std::string name;
  int index = -1;
};

// Parses `{k="v",...}` starting at s[*i] == '{'. False on malformed labels.
bool ParseLabels(std::string_view s, size_t* i, std::map<std::string, std::string>* labels) {
  ++*i;
  for (;;) {
    while (*i < s.size() && (s[*i] == ' ' || s[*i] == ',')) ++*i;
    if (*i >= s.size()) return false;
    if (s[*i] == '}') {
      ++*i;
      return true;
    }
    const size_t eq = s.find('=', *i);
    if (eq == std::string_view::npos || eq + 1 >= s.size() || s[eq + 1] != '"') return false;
    std::string key(Trim(s.substr(*i, eq - *i)));
    std::string val;
    size_t j = eq + 2;
    for (; j < s.size() && s[j] != '"'; ++j) {
      if (s[j] == '\\' && j + 1 < s.size()) {
        ++j;
        val.push_back(s[j] == 'n' ? '\n' : s[j]);
      } else {
        val.push_back(s[j]);
      }
    }
    if (j >= s.size()) return false;
    *i = j + 1;
    (*labels)[std::move(key)] = std::move(val);
  }
}

std::string LabelOr(const std::map<std::string, std::string>& l,
                    std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = l.find(k);
    if (it != l.end() && !it->second.empty()) return it->second;
  }
  return {};
}

using Labels = std::map<std::string, std::string>;

// The host of a series: its host label, a scrape target "10.0.0.5:9400" without the port, else
// `fallback` (the file's host).
std::string HostOf(const Labels& labels, std::string_view fallback) {
  std::string h = LabelOr(labels, {"Hostname", "hostname", "host", "instance"});
  if (h.empty()) return std::string(fallback);
  auto instance = labels.find("instance");
  if (h.find(':') != std::string::npos && instance != labels.end() && h == instance->second) {
    h = h.substr(0, h.rfind(':'));
  }
  return h;
}

// The field of `p` that metric `m` fills, with `*v` scaled to its unit (%, MiB, W).
std::optional<double>* SlotOf(Pending& p, Metric m, double* v) {
  switch (m) {
    case Metric::kUtilPct:
      return &p.util;
    case Metric::kUtilRatio:
      *v *= 100;
      return &p.util;
    case Metric::kEngineRatio:
      return &p.engine;
    case Metric::kUsedMib:
      return &p.used;
    case Metric::kUsedBytes:
      *v /= 1048576.0;
      return &p.used;
    case Metric::kFreeMib:
      return &p.free;
    case Metric::kTotalBytes:
      *v /= 1048576.0;
      return &p.total;
    case Metric::kPowerW:
      return &p.power;
    case Metric::kInfo:
    case Metric::kNone:
      break;
  }
  return nullptr;
}

// The value and optional millisecond timestamp after a metric's labels. `*reading` is false for
// NaN and infinities (no reading, not an error).
Status ParseValueAndTime(std::string_view rest, std::string_view name, const LineSource& src,
                         double* v, std::optional<double>* t, bool* reading) {
  const size_t sp = rest.find_first_of(" \t");
  const std::string_view vtext = rest.substr(0, sp);
  *reading = false;
  auto [ptr, ec] = std::from_chars(vtext.data(), vtext.data() + vtext.size(), *v);
  if (vtext.empty() || ec != std::errc() || ptr != vtext.data() + vtext.size()) {
    if (vtext == "NaN" || vtext == "+Inf" || vtext == "-Inf") return Status::OK();
    return Status::ParseError(src.Where() + std::string(name) + ": expected a number, got \"" +
                              std::string(vtext) + "\"");
  }
  if (!std::isfinite(*v)) return Status::OK();  // NaN / Inf: no reading
  if (sp != std::string_view::npos) {
    const std::string_view ttext = Trim(rest.substr(sp));
    int64_t ms = 0;
    auto [p2, e2] = std::from_chars(ttext.data(), ttext.data() + ttext.size(), ms);
    if (!ttext.empty() && (e2 != std::errc() || p2 != ttext.data() + ttext.size())) {
      return Status::ParseError(src.Where() +
                                "expected a millisecond timestamp after the value, "
                                "got \"" +
                                std::string(ttext) + "\"");
    }
    if (!ttext.empty()) *t = static_cast<double>(ms) / 1000.0;
  }
  *reading = true;
  return Status::OK();
}

// The sample of one GPU's scrape; name and index fall back to nvidia_smi_gpu_info.
TelemetrySample ToSample(Pending& p, const std::map<std::string, Info>& info) {
  TelemetrySample s;
  auto it = info.find(p.uuid);
  if (it != info.end()) {
    if (p.name.empty()) p.name = it->second.name;
    if (p.index < 0) p.index = it->second.index;
  }
  s.host = p.host;
  s.uuid = p.uuid;
  s.gpu_name = p.name;
  s.gpu_index = p.index;
  s.time_s = p.time;
  s.line = p.line;
  s.util_pct = p.util ? p.util : (p.engine ? std::optional<double>(*p.engine * 100) : std::nullopt);
  s.mem_used_mib = p.used;
  s.mem_total_mib =
      p.total ? p.total
              : (p.used && p.free ? std::optional<double>(*p.used + *p.free) : std::nullopt);
  s.power_w = p.power;
  return s;
}

// Lines are merged per GPU into pending_ until that GPU's next scrape starts; the rest are
// flushed in order of first appearance at the end.
class PrometheusParser {
 public:
  PrometheusParser(LineSource& src, std::string_view host, const SampleSink& sink)
      : src_(src), host_(host), sink_(sink) {}

  Result<uint64_t> Run() {
    std::string_view line;
    while (src_.Next(&line)) GPUADVISOR_RETURN_IF_ERROR(ParseLine(line));
    if (!src_.status().ok()) return src_.status();
    std::vector<Pending*> rest;
    rest.reserve(pending_.size());
    for (auto& [k, p] : pending_) rest.push_back(&p);
    std::sort(rest.begin(), rest.end(),
              [](const Pending* a, const Pending* b) { return a->order < b->order; });
    for (Pending* p : rest) GPUADVISOR_RETURN_IF_ERROR(Flush(*p));
    if (n_ == 0) {
      return Status::ParseError(
          src_.origin() +
          ": no GPU metrics (expected DCGM_FI_DEV_GPU_UTIL, "
          "DCGM_FI_PROF_GR_ENGINE_ACTIVE or nvidia_smi_utilization_gpu_ratio)");
    }
    return n_;
  }

 private:
  Status ParseLine(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size() || line[i] == '#') return Status::OK();
    size_t e = i;
    while (e < line.size() && line[e] != '{' && line[e] != ' ' && line[e] != '\t') ++e;
    const std::string_view name = line.substr(i, e - i);
    const Metric m = MetricOf(name);
    if (m == Metric::kNone) return Status::OK();
    labels_.clear();
    i = e;
    if (i < line.size() && line[i] == '{' && !ParseLabels(line, &i, &labels_)) {
      return Status::ParseError(src_.Where() + "malformed labels: expected {name=\"value\",...}");
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    double v = 0;
    std::optional<double> t;
    bool reading = false;
    GPUADVISOR_RETURN_IF_ERROR(ParseValueAndTime(line.substr(i), name, src_, &v, &t, &reading));
    if (!reading) return Status::OK();
    std::string uuid = LabelOr(labels_, {"UUID", "uuid"});
    std::string index = LabelOr(labels_, {"gpu", "index", "minor_number"});
    const int idx = IndexLabel(index);
    if (m == Metric::kInfo) {
      info_[uuid] = Info{LabelOr(labels_, {"name", "modelName"}), idx};
      return Status::OK();
    }
    std::string h = HostOf(labels_, host_);
    const std::string key = h + "|" + (uuid.empty() ? index : uuid);
    auto [it, fresh] = pending_.try_emplace(key);
    Pending* p = &it->second;
    std::optional<double>* slot = SlotOf(*p, m, &v);
    if (!fresh && (slot->has_value() || p->time != t)) {  // the next scrape of this GPU
      GPUADVISOR_RETURN_IF_ERROR(Flush(*p));
      *p = Pending();
      fresh = true;
    }
    if (fresh) {
      p->host = std::move(h);
      p->uuid = std::move(uuid);
      p->index = idx;
      p->name = LabelOr(labels_, {"modelName", "name"});
      p->time = t;
      p->line = src_.line();
      p->order = order_++;
    }
    *slot = v;
    return Status::OK();
  }

  Status Flush(Pending& p) {
    GPUADVISOR_RETURN_IF_ERROR(sink_(ToSample(p, info_)));
    ++n_;
    return Status::OK();
  }

  LineSource& src_;
  std::string_view host_;
  const SampleSink& sink_;
  std::map<std::string, Pending> pending_;  // by host|gpu
  std::map<std::string, Info> info_;        // nvidia_smi_gpu_info by uuid
  uint64_t n_ = 0, order_ = 0;
  Labels labels_;  // of the current line, reused
};

}  // namespace

Result<uint64_t> ParsePrometheus(LineSource& src, std::string_view host, const SampleSink& sink) {
  return PrometheusParser(src, host, sink).Run();
}

}  // namespace gpuadvisor::telemetry
