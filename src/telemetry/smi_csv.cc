// nvidia-smi --query-gpu=... --format=csv[,nounits][,noheader] logs.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "telemetry/internal.h"
#include "util/csv.h"
#include "util/text.h"

namespace gpuadvisor::telemetry {
namespace {

enum class Role {
  kIgnore,
  kTime,
  kHost,
  kIndex,
  kUuid,
  kName,
  kBusId,
  kUtil,
  kMemUsed,
  kMemTotal,
  kMemFree,
  kPower,
  kPowerAlt
};

Role RoleOf(std::string_view name) {
  struct Entry {
    const char* name;
    Role role;
  };
  static const Entry kRoles[] = {
      {"timestamp", Role::kTime},
      {"hostname", Role::kHost},
      {"host", Role::kHost},
      {"index", Role::kIndex},
      {"uuid", Role::kUuid},
      {"gpu_uuid", Role::kUuid},
      {"name", Role::kName},
      {"gpu_name", Role::kName},
      {"pci.bus_id", Role::kBusId},
      {"gpu_bus_id", Role::kBusId},
      {"utilization.gpu", Role::kUtil},
      {"memory.used", Role::kMemUsed},
      {"memory.total", Role::kMemTotal},
      {"memory.free", Role::kMemFree},
      {"power.draw", Role::kPower},
      {"power.draw.average", Role::kPowerAlt},
      {"power.draw.instant", Role::kPowerAlt},
  };
  for (const Entry& e : kRoles) {
    if (name == e.name) return e.role;
  }
  return Role::kIgnore;
}

// "utilization.gpu [%]" -> "utilization.gpu".
std::string_view ColumnName(std::string_view field) {
  field = Trim(field);
  const size_t br = field.find(" [");
  if (br != std::string_view::npos && field.back() == ']') field = Trim(field.substr(0, br));
  return field;
}

// ColumnName(field) == name, without ColumnName for a data row: a column name begins at the
// field's first byte that is not a space, which for a row is rarely the name's.
bool IsColumn(std::string_view field, const std::string& name) {
  const std::string_view t = cell::TrimSpace(field);
  if (!name.empty() && (t.empty() || t.front() != name.front())) return false;
  return ColumnName(field) == name;
}

struct Layout {
  std::vector<Role> roles;
  std::vector<std::string> names;
  bool has_util = false, has_time = false;
};

Layout MakeLayout(const std::vector<std::string_view>& names) {
  Layout l;
  for (std::string_view n : names) {
    l.names.emplace_back(ColumnName(n));
    l.roles.push_back(RoleOf(l.names.back()));
    l.has_util |= l.roles.back() == Role::kUtil;
    l.has_time |= l.roles.back() == Role::kTime;
  }
  return l;
}

bool LooksLikeHeader(const std::vector<std::string_view>& fields) {
  for (std::string_view f : fields) {
    if (RoleOf(ColumnName(f)) != Role::kIgnore) return true;
  }
  return false;
}

// Trims the spaces nvidia-smi writes around a field (and a tab after it).
inline std::string_view TrimField(std::string_view f) {
  while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
  while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
  return f;
}

// Splits a line into `out` (reused), trimmed. A line without a quote (every line nvidia-smi
// writes) is cut at its commas here; one with a quote goes to the one CSV reader. Both give the
// same fields: unquoted, a field is the text between commas, and the reader drops one '\r'
// ending the line.
Status SplitFields(std::string_view line, const LineSource& src,
                   std::vector<std::string_view>* out) {
  if (std::memchr(line.data(), '"', line.size()) == nullptr) {
    out->clear();
    const char* p = line.data();
    const char* const end = p + line.size();
    for (;;) {
      const auto* comma =
          static_cast<const char*>(std::memchr(p, ',', static_cast<size_t>(end - p)));
      if (comma == nullptr) break;
      out->push_back(TrimField(std::string_view(p, static_cast<size_t>(comma - p))));
      p = comma + 1;
    }
    std::string_view last(p, static_cast<size_t>(end - p));
    if (!last.empty() && last.back() == '\r') last.remove_suffix(1);
    out->push_back(TrimField(last));
    return Status::OK();
  }
  Status st = CsvReader::SplitLine(line, out);
  if (!st.ok()) return Status::ParseError(src.Where() + st.message());
  for (std::string_view& f : *out) f = TrimField(f);
  return Status::OK();
}

// The header, as given with --columns (a header-less log).
Result<Layout> LayoutFromColumns(const std::vector<std::string>& columns) {
  std::vector<std::string_view> names(columns.begin(), columns.end());
  Layout layout = MakeLayout(names);
  if (!layout.has_util) {
    return Status::InvalidArgument("columns: no utilization.gpu column").WithField("columns");
  }
  return layout;
}

// The header line `fields` of `src`.
Result<Layout> LayoutFromHeader(const std::vector<std::string_view>& fields,
                                const LineSource& src) {
  Layout layout = MakeLayout(fields);
  if (!layout.has_util) {
    return Status::ParseError(src.Where() +
                              "no utilization.gpu column (query it with "
                              "nvidia-smi --query-gpu=timestamp,index,utilization.gpu,...)");
  }
  return layout;
}

// Fields of a row that only complete others once the whole row is read.
struct Fallbacks {
  std::optional<double> mem_free, power_alt;
};

// ParseCell of one column, remembering its last text: a column that repeats its text from row to
// row (memory.total, an idle GPU's "0 %") is parsed once. The answer depends on the text alone.
class CellCache {
 public:
  CellValue Parse(std::string_view f, double* v) {
    // An empty view may have a null data(): memcmp/memcpy must not see it, even for 0 bytes.
    if (f.size() == len_ && (len_ == 0 || std::memcmp(f.data(), text_, len_) == 0)) {
      *v = v_;
      return kind_;
    }
    kind_ = ParseCell(f, v);
    v_ = kind_ == CellValue::kNumber ? *v : 0;
    len_ = f.size() <= sizeof text_ ? f.size() : kNone;
    if (len_ != kNone && len_ != 0) std::memcpy(text_, f.data(), len_);
    return kind_;
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;
  char text_[24] = {};
  size_t len_ = kNone;  // kNone: nothing remembered
  CellValue kind_ = CellValue::kUnknown;
  double v_ = 0;
};

// Stores the number in cell `f` (null when it says unknown) in *out; false when it holds
// neither.
inline bool StoreValue(std::string_view f, CellCache& cache, std::optional<double>* out) {
  double v = 0;
  const CellValue c = cache.Parse(f, &v);
  *out = c == CellValue::kNumber ? std::optional<double>(v) : std::nullopt;
  return c != CellValue::kBad;
}

// Stores field `f`, of role `r` in column `column`, in `s` (or `fb`). ParseError naming the
// column and the text when it is not what the role expects.
Status ApplyField(Role r, std::string_view f, const std::string& column, const LineSource& src,
                  TimeParser& times, CellCache& cache, TelemetrySample& s, Fallbacks& fb) {
  bool ok = true;
  switch (r) {
    case Role::kTime:
      s.time_s = times.Parse(f);
      if (!s.time_s) {
        return Status::ParseError(src.Where() +
                                  "timestamp: expected a time like 2026/07/14 08:12:38.696, "
                                  "got \"" +
                                  std::string(f) + "\"");
      }
      break;
    case Role::kHost:
      if (!f.empty() && f.front() != '[' && f != "N/A") s.host = f;
      break;
    case Role::kIndex:
      return ParseGpuIndex(f, "index", src, &s.gpu_index);
    case Role::kUuid:
      s.uuid = f;
      break;
    case Role::kBusId:
      if (s.uuid.empty()) s.uuid = f;
      break;
    case Role::kName:
      s.gpu_name = f;
      break;
    case Role::kUtil:
      ok = StoreValue(f, cache, &s.util_pct);
      if (ok && s.util_pct && (*s.util_pct < 0 || *s.util_pct > 100)) ok = false;
      break;
    case Role::kMemUsed:
      ok = StoreValue(f, cache, &s.mem_used_mib);
      break;
    case Role::kMemTotal:
      ok = StoreValue(f, cache, &s.mem_total_mib);
      break;
    case Role::kMemFree:
      ok = StoreValue(f, cache, &fb.mem_free);
      break;
    case Role::kPower:
      ok = StoreValue(f, cache, &s.power_w);
      break;
    case Role::kPowerAlt:
      ok = StoreValue(f, cache, &fb.power_alt);
      break;
    case Role::kIgnore:
      break;
  }
  if (!ok) {
    return Status::ParseError(src.Where() + column +
                              ": expected a number (with an optional unit) or [N/A], got \"" +
                              std::string(f) + "\"");
  }
  return Status::OK();
}

// The sample of data row `fields` into *sample (reused from row to row); its string_views point
// into the row.
Status ParseRow(const Layout& layout, const std::vector<std::string_view>& fields,
                const LineSource& src, std::string_view host, TimeParser& times,
                std::vector<CellCache>& cells, TelemetrySample* sample) {
  if (fields.size() != layout.roles.size()) {
    return Status::ParseError(src.Where() + "expected " + std::to_string(layout.roles.size()) +
                              " comma-separated fields as in the header, got " +
                              std::to_string(fields.size()));
  }
  // A copy of a sample made once (not a temporary zeroed and copied per row).
  static const TelemetrySample kFresh;
  TelemetrySample& s = *sample;
  s = kFresh;
  s.host = host;
  s.line = src.line();
  Fallbacks fb;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (layout.roles[i] == Role::kIgnore) continue;
    GPUADVISOR_RETURN_IF_ERROR(
        ApplyField(layout.roles[i], fields[i], layout.names[i], src, times, cells[i], s, fb));
  }
  if (!s.power_w) s.power_w = fb.power_alt;
  if (!s.mem_total_mib && s.mem_used_mib && fb.mem_free)
    s.mem_total_mib = *s.mem_used_mib + *fb.mem_free;
  return Status::OK();
}

// Rows without a GPU identity (no index, UUID or bus id): the rows of one tick are GPUs 0, 1,
// ... in order.
class RowIndexer {
 public:
  int Next(const std::optional<double>& time_s) {
    // Rows of one tick are those whose times print alike with std::to_string ("%f"); the same
    // bits print alike without printing them.
    if (time_s.has_value() == last_.has_value() &&
        (!time_s || std::bit_cast<uint64_t>(*time_s) == std::bit_cast<uint64_t>(*last_))) {
      ++row_in_tick_;
      return row_in_tick_;
    }
    last_ = time_s;
    char text[sizeof last_text_];
    size_t n = 0;
    if (time_s) {
      const int w = std::snprintf(text, sizeof text, "%f", *time_s);
      n = w < 0 ? 0 : std::min(static_cast<size_t>(w), sizeof text - 1);
    }
    const bool same = n == last_len_ && std::memcmp(text, last_text_, n) == 0;
    row_in_tick_ = same ? row_in_tick_ + 1 : 0;
    std::memcpy(last_text_, text, n);
    last_len_ = n;
    return row_in_tick_;
  }

 private:
  int row_in_tick_ = 0;
  std::optional<double> last_;  // the time last printed into last_text_ (null: none, "")
  char last_text_[512] = {};    // std::to_string of a double has at most 317 + 7 characters
  size_t last_len_ = 0;
};

}  // namespace

Result<uint64_t> ParseSmiCsv(LineSource& src, const TelemetryOptions& o, std::string_view host,
                             const SampleSink& sink) {
  std::optional<Layout> layout;
  if (!o.columns.empty()) {
    Result<Layout> l = LayoutFromColumns(o.columns);
    if (!l.ok()) return l.status();
    layout = std::move(*l);
  }
  std::vector<std::string_view> fields;
  std::string_view line;
  uint64_t n = 0;
  RowIndexer indexer;
  TimeParser times;
  std::vector<CellCache> cells;  // one per column of the layout
  TelemetrySample sample;
  while (src.Next(&line)) {
    if (line.empty() || line.front() == '#') continue;
    GPUADVISOR_RETURN_IF_ERROR(SplitFields(line, src, &fields));
    // A header (first line, or repeated when logs are appended) sets the columns.
    const bool maybe_header = !layout || IsColumn(fields[0], layout->names[0]);
    if (maybe_header && LooksLikeHeader(fields)) {
      Result<Layout> l = LayoutFromHeader(fields, src);
      if (!l.ok()) return l.status();
      layout = std::move(*l);
      continue;
    }
    if (!layout) {
      return Status::ParseError(
          src.Where() +
          "expected an nvidia-smi CSV header (timestamp, index, utilization.gpu, ...); for logs "
          "written with nvidia-smi's --format=csv,noheader, give columns: the --query-gpu list");
    }
    if (cells.size() != layout->roles.size()) cells.assign(layout->roles.size(), CellCache());
    GPUADVISOR_RETURN_IF_ERROR(ParseRow(*layout, fields, src, host, times, cells, &sample));
    if (sample.gpu_index < 0 && sample.uuid.empty()) {
      sample.gpu_index = indexer.Next(sample.time_s);
    }
    GPUADVISOR_RETURN_IF_ERROR(sink(sample));
    ++n;
  }
  if (!src.status().ok()) return src.status();
  if (!layout) return Status::ParseError(src.origin() + ": no nvidia-smi CSV header or rows");
  return n;
}

}  // namespace gpuadvisor::telemetry
