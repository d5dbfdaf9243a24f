// nvidia-smi -q -x snapshots: one or more <nvidia_smi_log> documents, one <gpu> element per GPU.
// A small streaming tag scanner: only the leaves we need are kept, nesting is checked.
#include <string>
#include <vector>

#include "telemetry/internal.h"
#include "util/strings.h"

namespace gpuadvisor::telemetry {
namespace {

struct GpuRecord {
  std::string name, uuid;
  int index = -1;
  std::string util, mem_used, mem_total, power, power_module;
  size_t line = 0;
};

}  // namespace

Result<uint64_t> ParseSmiXml(LineSource& src, std::string_view host, const SampleSink& sink) {
  std::vector<std::string> stack;
  std::string text, pending;  // element text; an unfinished tag carried to the next line
  std::optional<double> log_time;
  GpuRecord gpu;
  int gpus_in_log = 0;
  uint64_t n = 0;
  bool saw_root = false;
  std::string_view line;

  auto path_is = [&stack](std::initializer_list<const char*> p) {
    if (stack.size() != p.size()) return false;
    size_t i = 0;
    for (const char* e : p) {
      if (stack[i++] != e) return false;
    }
    return true;
  };
  auto value = [&src](const std::string& field, const std::string& t,
                      std::optional<double>* out) -> Status {
    bool ok = true;
    *out = ParseValue(t, &ok);
    if (!ok) {
      return Status::ParseError(src.Where() + field + ": expected a number or N/A, got \"" + t +
                                "\"");
    }
    return Status::OK();
  };

  auto close = [&](std::string_view name) -> Status {
    if (stack.empty() || stack.back() != name) {
      return Status::ParseError(src.Where() + "expected </" +
                                (stack.empty() ? std::string("(nothing open)") : stack.back()) +
                                ">, got </" + std::string(name) + ">");
    }
    const std::string t(Trim(text));
    if (path_is({"nvidia_smi_log", "timestamp"})) {
      log_time = ParseTelemetryTime(t);
      if (!log_time) {
        return Status::ParseError(src.Where() +
                                  "timestamp: expected a date like \"Mon Apr 24 "
                                  "16:11:51 2023\", got \"" +
                                  t + "\"");
      }
    } else if (path_is({"nvidia_smi_log", "gpu", "product_name"})) {
      gpu.name = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "uuid"})) {
      gpu.uuid = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "minor_number"})) {
      bool ok = true;
      std::optional<double> v = ParseValue(t, &ok);
      if (v) gpu.index = static_cast<int>(*v);
    } else if (path_is({"nvidia_smi_log", "gpu", "fb_memory_usage", "used"})) {
      gpu.mem_used = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "fb_memory_usage", "total"})) {
      gpu.mem_total = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "utilization", "gpu_util"})) {
      gpu.util = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "power_readings", "power_draw"}) ||
               path_is({"nvidia_smi_log", "gpu", "gpu_power_readings", "power_draw"})) {
      gpu.power = t;
    } else if (path_is({"nvidia_smi_log", "gpu", "module_power_readings", "power_draw"})) {
      gpu.power_module = t;
    } else if (path_is({"nvidia_smi_log", "gpu"})) {
      TelemetrySample s;
      s.host = host;
      s.gpu_name = gpu.name;
      s.uuid = gpu.uuid;
      s.gpu_index = gpu.index >= 0 ? gpu.index : gpus_in_log;
      s.time_s = log_time;
      s.line = gpu.line;
      GPUADVISOR_RETURN_IF_ERROR(value("gpu_util", gpu.util, &s.util_pct));
      GPUADVISOR_RETURN_IF_ERROR(value("fb_memory_usage/used", gpu.mem_used, &s.mem_used_mib));
      GPUADVISOR_RETURN_IF_ERROR(value("fb_memory_usage/total", gpu.mem_total, &s.mem_total_mib));
      GPUADVISOR_RETURN_IF_ERROR(value("power_draw", gpu.power, &s.power_w));
      if (!s.power_w) {
        GPUADVISOR_RETURN_IF_ERROR(value("power_draw", gpu.power_module, &s.power_w));
      }
      GPUADVISOR_RETURN_IF_ERROR(sink(s));
      ++n;
      ++gpus_in_log;
    } else if (path_is({"nvidia_smi_log"})) {
      log_time.reset();
      gpus_in_log = 0;
    }
    stack.pop_back();
    text.clear();
    return Status::OK();
  };

  while (src.Next(&line)) {
    std::string joined;
    if (!pending.empty()) {
      joined = pending + "\n" + std::string(line);
      pending.clear();
      line = joined;
    }
    size_t pos = 0;
    while (pos < line.size()) {
      const size_t lt = line.find('<', pos);
      if (lt == std::string_view::npos) {
        text.append(line.substr(pos));
        text.push_back(' ');
        break;
      }
      text.append(line.substr(pos, lt - pos));
      const size_t gt = line.find('>', lt);
      if (gt == std::string_view::npos) {
        pending = std::string(line.substr(lt));
        break;
      }
      std::string_view tag = line.substr(lt + 1, gt - lt - 1);
      pos = gt + 1;
      if (tag.empty()) return Status::ParseError(src.Where() + "empty tag <>");
      if (tag.front() == '?' || tag.front() == '!') continue;  // declaration, DOCTYPE, comment
      if (tag.front() == '/') {
        GPUADVISOR_RETURN_IF_ERROR(close(Trim(tag.substr(1))));
        continue;
      }
      const bool self_closing = tag.back() == '/';
      if (self_closing) tag.remove_suffix(1);
      const size_t sp = tag.find_first_of(" \t");
      std::string name(Trim(tag.substr(0, sp)));
      if (name.empty()) return Status::ParseError(src.Where() + "expected an element name after <");
      if (stack.empty()) {
        if (name != "nvidia_smi_log") {
          return Status::ParseError(src.Where() +
                                    "expected <nvidia_smi_log> (nvidia-smi -q -x "
                                    "output), got <" +
                                    name + ">");
        }
        saw_root = true;
      }
      if (self_closing) continue;
      stack.push_back(std::move(name));
      text.clear();
      if (stack.size() == 2 && stack[1] == "gpu") {
        gpu = GpuRecord();
        gpu.line = src.line();
      }
      if (stack.size() > 64) return Status::ParseError(src.Where() + "elements nested too deeply");
    }
  }
  if (!src.status().ok()) return src.status();
  if (!pending.empty()) return Status::ParseError(src.Where() + "unterminated tag at end of file");
  if (!stack.empty()) {
    return Status::ParseError(src.Where() + "end of file inside <" + stack.back() +
                              "> (truncated XML?)");
  }
  if (!saw_root) return Status::ParseError(src.origin() + ": no <nvidia_smi_log> element");
  return n;
}

}  // namespace gpuadvisor::telemetry
