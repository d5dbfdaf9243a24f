// nvidia-smi -q -x snapshots: one or more <nvidia_smi_log> documents, one <gpu> element per GPU.
// A small streaming tag scanner: only the leaves we need are kept, nesting is checked.
#include <string>
#include <vector>

#include "telemetry/internal.h"
#include "util/text.h"

namespace gpuadvisor::telemetry {
namespace {

struct GpuRecord {
  std::string name, uuid;
  int index = -1;
  std::string util, mem_used, mem_total, power, power_module;
  size_t line = 0;
};

// One pass over `src`: ScanLine splits each line into text and tags, Open and Close keep the
// element stack, Close stores the leaves of interest and emits a sample at each </gpu>.
class SmiXmlParser {
 public:
  SmiXmlParser(LineSource& src, std::string_view host, const SampleSink& sink)
      : src_(src), host_(host), sink_(sink) {}

  Result<uint64_t> Run() {
    std::string_view line;
    while (src_.Next(&line)) {
      std::string joined;
      if (!pending_.empty()) {
        joined = pending_ + "\n" + std::string(line);
        pending_.clear();
        line = joined;
      }
      GPUADVISOR_RETURN_IF_ERROR(ScanLine(line));
    }
    if (!src_.status().ok()) return src_.status();
    if (!pending_.empty()) {
      return Status::ParseError(src_.Where() + "unterminated tag at end of file");
    }
    if (!stack_.empty()) {
      return Status::ParseError(src_.Where() + "end of file inside <" + stack_.back() +
                                "> (truncated XML?)");
    }
    if (!saw_root_) return Status::ParseError(src_.origin() + ": no <nvidia_smi_log> element");
    return n_;
  }

 private:
  // Text goes to text_; a tag not closed on this line is kept in pending_.
  Status ScanLine(std::string_view line) {
    size_t pos = 0;
    while (pos < line.size()) {
      const size_t lt = line.find('<', pos);
      if (lt == std::string_view::npos) {
        text_.append(line.substr(pos));
        text_.push_back(' ');
        break;
      }
      text_.append(line.substr(pos, lt - pos));
      const size_t gt = line.find('>', lt);
      if (gt == std::string_view::npos) {
        pending_ = std::string(line.substr(lt));
        break;
      }
      std::string_view tag = line.substr(lt + 1, gt - lt - 1);
      pos = gt + 1;
      if (tag.empty()) return Status::ParseError(src_.Where() + "empty tag <>");
      if (tag.front() == '?' || tag.front() == '!') continue;  // declaration, DOCTYPE, comment
      if (tag.front() == '/') {
        GPUADVISOR_RETURN_IF_ERROR(Close(Trim(tag.substr(1))));
        continue;
      }
      GPUADVISOR_RETURN_IF_ERROR(Open(tag));
    }
    return Status::OK();
  }

  // `tag`: the text between < and >, attributes and a trailing / included.
  Status Open(std::string_view tag) {
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.remove_suffix(1);
    const size_t sp = tag.find_first_of(" \t");
    std::string name(Trim(tag.substr(0, sp)));
    if (name.empty()) return Status::ParseError(src_.Where() + "expected an element name after <");
    if (stack_.empty()) {
      if (name != "nvidia_smi_log") {
        return Status::ParseError(src_.Where() +
                                  "expected <nvidia_smi_log> (nvidia-smi -q -x "
                                  "output), got <" +
                                  name + ">");
      }
      saw_root_ = true;
    }
    if (self_closing) return Status::OK();
    stack_.push_back(std::move(name));
    text_.clear();
    if (stack_.size() == 2 && stack_[1] == "gpu") {
      gpu_ = GpuRecord();
      gpu_.line = src_.line();
    }
    if (stack_.size() > 64) return Status::ParseError(src_.Where() + "elements nested too deeply");
    return Status::OK();
  }

  Status Close(std::string_view name) {
    if (stack_.empty() || stack_.back() != name) {
      return Status::ParseError(src_.Where() + "expected </" +
                                (stack_.empty() ? std::string("(nothing open)") : stack_.back()) +
                                ">, got </" + std::string(name) + ">");
    }
    GPUADVISOR_RETURN_IF_ERROR(Store(std::string(Trim(text_))));
    stack_.pop_back();
    text_.clear();
    return Status::OK();
  }

  bool PathIs(std::initializer_list<const char*> p) const {
    if (stack_.size() != p.size()) return false;
    size_t i = 0;
    for (const char* e : p) {
      if (stack_[i++] != e) return false;
    }
    return true;
  }

  // The element on top of the stack closes with text `t`: keep it if it is a leaf we read,
  // emit the sample at </gpu>, reset the document's state at </nvidia_smi_log>.
  Status Store(const std::string& t) {
    if (PathIs({"nvidia_smi_log", "timestamp"})) {
      log_time_ = ParseTelemetryTime(t);
      if (!log_time_) {
        return Status::ParseError(src_.Where() +
                                  "timestamp: expected a date like \"Mon Apr 24 "
                                  "16:11:51 2023\", got \"" +
                                  t + "\"");
      }
    } else if (PathIs({"nvidia_smi_log", "gpu", "product_name"})) {
      gpu_.name = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "uuid"})) {
      gpu_.uuid = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "minor_number"})) {
      return ParseGpuIndex(t, "minor_number", src_, &gpu_.index);
    } else if (PathIs({"nvidia_smi_log", "gpu", "fb_memory_usage", "used"})) {
      gpu_.mem_used = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "fb_memory_usage", "total"})) {
      gpu_.mem_total = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "utilization", "gpu_util"})) {
      gpu_.util = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "power_readings", "power_draw"}) ||
               PathIs({"nvidia_smi_log", "gpu", "gpu_power_readings", "power_draw"})) {
      gpu_.power = t;
    } else if (PathIs({"nvidia_smi_log", "gpu", "module_power_readings", "power_draw"})) {
      gpu_.power_module = t;
    } else if (PathIs({"nvidia_smi_log", "gpu"})) {
      return EmitGpu();
    } else if (PathIs({"nvidia_smi_log"})) {
      log_time_.reset();
      gpus_in_log_ = 0;
    }
    return Status::OK();
  }

  Status Value(const std::string& field, const std::string& t, std::optional<double>* out) const {
    bool ok = true;
    *out = ParseValue(t, &ok);
    if (!ok) {
      return Status::ParseError(src_.Where() + field + ": expected a number or N/A, got \"" + t +
                                "\"");
    }
    return Status::OK();
  }

  // The sample of the <gpu> element just closed.
  Status EmitGpu() {
    TelemetrySample s;
    s.host = host_;
    s.gpu_name = gpu_.name;
    s.uuid = gpu_.uuid;
    s.gpu_index = gpu_.index >= 0 ? gpu_.index : gpus_in_log_;
    s.time_s = log_time_;
    s.line = gpu_.line;
    GPUADVISOR_RETURN_IF_ERROR(Value("gpu_util", gpu_.util, &s.util_pct));
    GPUADVISOR_RETURN_IF_ERROR(Value("fb_memory_usage/used", gpu_.mem_used, &s.mem_used_mib));
    GPUADVISOR_RETURN_IF_ERROR(Value("fb_memory_usage/total", gpu_.mem_total, &s.mem_total_mib));
    GPUADVISOR_RETURN_IF_ERROR(Value("power_draw", gpu_.power, &s.power_w));
    if (!s.power_w) {
      GPUADVISOR_RETURN_IF_ERROR(Value("power_draw", gpu_.power_module, &s.power_w));
    }
    GPUADVISOR_RETURN_IF_ERROR(sink_(s));
    ++n_;
    ++gpus_in_log_;
    return Status::OK();
  }

  LineSource& src_;
  std::string_view host_;
  const SampleSink& sink_;
  std::vector<std::string> stack_;
  std::string text_, pending_;  // element text; an unfinished tag carried to the next line
  std::optional<double> log_time_;
  GpuRecord gpu_;
  int gpus_in_log_ = 0;
  uint64_t n_ = 0;
  bool saw_root_ = false;
};

}  // namespace

Result<uint64_t> ParseSmiXml(LineSource& src, std::string_view host, const SampleSink& sink) {
  return SmiXmlParser(src, host, sink).Run();
}

}  // namespace gpuadvisor::telemetry
