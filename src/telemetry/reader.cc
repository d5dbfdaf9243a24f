#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "gpuadvisor/telemetry.h"
#include "telemetry/internal.h"
#include "util/dates.h"
#include "util/enum_names.h"
#include "util/text.h"

namespace gpuadvisor {
namespace telemetry {
namespace {

constexpr size_t kBlock = size_t{1} << 20;             // bytes read at a time
constexpr size_t kMaxLine = size_t{64} << 20;          // a longer line is an error
constexpr size_t kMaxWholeDocument = size_t{1} << 30;  // CloudWatch JSON read whole
// zlib's own buffers: reads of twice this or more go straight into ours (a plain file's bytes
// read(2) into the block, a gzip file's inflated into it), not through a copy.
constexpr unsigned kZlibBuffer = 128u << 10;

gzFile Gz(void* p) { return static_cast<gzFile>(p); }

}  // namespace

LineSource::LineSource(std::string_view text, std::string origin)
    : origin_(std::move(origin)), mem_(text), eof_(true), from_memory_(true), size_(text.size()) {}

LineSource::~LineSource() {
  if (gz_ != nullptr) gzclose(Gz(gz_));
}

Result<std::unique_ptr<LineSource>> LineSource::Open(const std::string& path) {
  std::unique_ptr<LineSource> s(new LineSource());
  s->origin_ = path;
  gzFile f = path == "-" ? gzdopen(dup(0), "rb") : gzopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::IOError("cannot open " + path + ": " + std::strerror(errno));
  }
  s->gz_ = f;
  gzbuffer(f, kZlibBuffer);
  if (path != "-") {
    if (FILE* fp = std::fopen(path.c_str(), "rb")) {
      if (std::fseek(fp, 0, SEEK_END) == 0) s->size_ = static_cast<uint64_t>(std::ftell(fp));
      std::fclose(fp);
    }
  }
  s->buf_.resize(kBlock);
  if (!s->Fill() && !s->status_.ok()) return s->status_;
  s->gzip_ = gzdirect(f) == 0;
  return s;
}

uint64_t LineSource::consumed() const {
  if (from_memory_) return pos_;
  const z_off_t off = gzoffset(Gz(gz_));
  return off < 0 ? 0 : static_cast<uint64_t>(off);
}

bool LineSource::Fill() {
  if (eof_ || !status_.ok()) return false;
  // Keep the unread tail at the front, then read after it.
  const size_t keep = mem_.size() - pos_;
  if (keep > 0 && pos_ > 0) std::memmove(buf_.data(), buf_.data() + pos_, keep);
  if (keep + kBlock / 2 > buf_.size()) {
    if (buf_.size() >= kMaxLine) {
      status_ = Status::ParseError(origin_ + ":" + std::to_string(line_ + 1) +
                                   ": line longer than 64 MiB (is this a telemetry file?)");
      return false;
    }
    buf_.resize(buf_.size() * 2);
  }
  size_t have = keep;
  while (have < buf_.size()) {
    const int n = gzread(Gz(gz_), buf_.data() + have, static_cast<unsigned>(buf_.size() - have));
    if (n < 0) {
      int err = 0;
      const char* msg = gzerror(Gz(gz_), &err);
      status_ = Status::IOError("cannot read " + origin_ + ": " +
                                (err == Z_ERRNO ? std::strerror(errno) : msg));
      return false;
    }
    if (n == 0) {
      eof_ = true;
      break;
    }
    have += static_cast<size_t>(n);
    if (have >= kBlock) break;
  }
  mem_ = std::string_view(buf_.data(), have);
  pos_ = 0;
  if (progress_ != nullptr && *progress_ && (++blocks_ % 8) == 0) (*progress_)(consumed(), size_);
  return have > keep;
}

bool LineSource::Next(std::string_view* line) {
  for (;;) {
    if (!status_.ok()) return false;
    const char* b = mem_.data() + pos_;
    const size_t left = mem_.size() - pos_;
    const void* nl = left > 0 ? std::memchr(b, '\n', left) : nullptr;
    if (nl != nullptr || (eof_ && left > 0)) {
      const size_t len =
          nl != nullptr ? static_cast<size_t>(static_cast<const char*>(nl) - b) : left;
      pos_ += nl != nullptr ? len + 1 : len;
      std::string_view l(b, len);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      ++line_;
      *line = l;
      return true;
    }
    if (eof_) return false;
    if (!Fill() && eof_ && mem_.size() == pos_) return false;
  }
}

std::string_view LineSource::Peek() { return mem_.substr(pos_); }

Result<std::string> LineSource::Rest() {
  std::string out(mem_.substr(pos_));
  pos_ = mem_.size();
  while (!eof_) {
    if (!Fill() && !status_.ok()) return status_;
    out.append(mem_.substr(pos_));
    pos_ = mem_.size();
    if (out.size() > kMaxWholeDocument) {
      return Status::ParseError(origin_ + ": JSON document larger than 1 GiB");
    }
  }
  if (!status_.ok()) return status_;
  return out;
}

std::optional<double> ParseValue(std::string_view text, bool* ok) {
  double v = 0;
  const CellValue c = ParseCell(text, &v);
  *ok = c != CellValue::kBad;
  if (c == CellValue::kNumber) return v;
  return std::nullopt;
}

Status ParseGpuIndex(std::string_view text, std::string_view field, const LineSource& src,
                     int* index) {
  double v = 0;
  const CellValue c = ParseCell(text, &v);
  // The range test comes first: casting a double outside int's range is undefined.
  if (c == CellValue::kBad ||
      (c == CellValue::kNumber && !(v >= 0 && v <= 4096 && v == std::floor(v)))) {
    return Status::ParseError(src.Where() + std::string(field) +
                              ": expected a GPU index 0 to 4096, got \"" + std::string(text) +
                              "\"");
  }
  if (c == CellValue::kNumber) *index = static_cast<int>(v);
  return Status::OK();
}

int IndexLabel(const std::string& label) {
  int idx = -1;
  const char* end = label.data() + label.size();
  auto [p, ec] = std::from_chars(label.data(), end, idx);
  return ec == std::errc() && p == end && idx >= 0 && idx <= 4096 ? idx : -1;
}

TelemetryFormat DetectFormat(std::string_view head) {
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  head.remove_prefix(i);
  if (StartsWith(head, "\x1f\x8b")) return TelemetryFormat::kAuto;  // not decompressed: unknown
  if (StartsWith(head, "<")) return TelemetryFormat::kNvidiaSmiXml;
  if (StartsWith(head, "{") || StartsWith(head, "[")) return TelemetryFormat::kCloudWatch;
  // Prometheus: "# HELP", "# TYPE", or a metric line "name{..} value" / "name value".
  if (StartsWith(head, "# HELP") || StartsWith(head, "# TYPE")) return TelemetryFormat::kPrometheus;
  const std::string_view first = head.substr(0, head.find('\n'));
  if (StartsWith(first, "DCGM_FI_") || StartsWith(first, "nvidia_smi_") ||
      (first.find('{') != std::string_view::npos && first.find('}') != std::string_view::npos &&
       first.find(',') > first.find('{'))) {
    return TelemetryFormat::kPrometheus;
  }
  return TelemetryFormat::kNvidiaSmiCsv;
}

}  // namespace telemetry

namespace {

// Reads `n` digits at s[*i]; false when they are not all digits.
bool Digits(std::string_view s, size_t* i, size_t n, int* out) {
  if (*i + n > s.size()) return false;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    const char c = s[*i + k];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *i += n;
  *out = v;
  return true;
}

std::optional<double> ParseCtimeStyle(std::string_view s) {
  // "Mon Apr 24 16:11:51 2023" (nvidia-smi -q -x)
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::vector<std::string_view> parts;
  for (std::string_view p : Split(s, ' ')) {
    if (!p.empty()) parts.push_back(p);
  }
  if (parts.size() != 5) return std::nullopt;
  int mon = -1;
  for (int m = 0; m < 12; ++m) {
    if (parts[1] == kMonths[m]) mon = m + 1;
  }
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  size_t i = 0;
  if (mon < 0) return std::nullopt;
  auto [p1, e1] = std::from_chars(parts[2].data(), parts[2].data() + parts[2].size(), day);
  auto [p2, e2] = std::from_chars(parts[4].data(), parts[4].data() + parts[4].size(), year);
  if (e1 != std::errc() || e2 != std::errc() || parts[3].size() != 8) return std::nullopt;
  if (!Digits(parts[3], &i, 2, &hh) || parts[3][2] != ':') return std::nullopt;
  i = 3;
  if (!Digits(parts[3], &i, 2, &mm) || parts[3][5] != ':') return std::nullopt;
  i = 6;
  if (!Digits(parts[3], &i, 2, &ss)) return std::nullopt;
  return static_cast<double>(
      DaysFromCivil(year, static_cast<unsigned>(mon), static_cast<unsigned>(day)) * 86400 +
      int64_t{hh} * 3600 + int64_t{mm} * 60 + ss);
}

}  // namespace

namespace telemetry {
namespace {

// 0.1 divided by 10 k times, as a loop dividing by 10 per digit computes it (the same doubles:
// the table is made with the same operations, at compile time).
constexpr size_t kScales = 24;
constexpr std::array<double, kScales> kFractionScales = [] {
  std::array<double, kScales> a{};
  double scale = 0.1;
  for (double& x : a) {
    x = scale;
    scale /= 10;
  }
  return a;
}();

// The rest of a date-and-time after its clock s[0, i) (read as `t`): a fraction of a second,
// then nothing, "Z", " UTC" or a UTC offset.
std::optional<double> ParseTimeTail(std::string_view s, size_t i, double t) {
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    ++i;
    // The weight of a digit: 0.1, then divided by 10 once per digit (from the table while it
    // lasts).
    double scale = 0.1;
    for (size_t k = 0; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++k) {
      if (k < kScales) scale = kFractionScales[k];
      t += (s[i] - '0') * scale;
      if (k + 1 >= kScales) scale /= 10;
    }
  }
  if (i == s.size() || s.substr(i) == "Z" || s.substr(i) == " UTC") return t;
  if (s[i] == '+' || s[i] == '-') {
    const int sign = s[i] == '+' ? 1 : -1;
    ++i;
    int oh = 0, om = 0;
    if (!Digits(s, &i, 2, &oh)) return std::nullopt;
    if (i < s.size() && s[i] == ':') ++i;
    if (i < s.size() && !Digits(s, &i, 2, &om)) return std::nullopt;
    if (i != s.size()) return std::nullopt;
    return t - sign * (oh * 3600 + om * 60);
  }
  return std::nullopt;
}

// ParseTelemetryTime of trimmed `s`. A date with a clock to the second, "2026/07/14 08:12:38"
// (kClockChars, read from those bytes alone), sets *clock to its time.
std::optional<double> ParseTrimmedTime(std::string_view s, std::optional<double>* clock) {
  if (s.empty()) return std::nullopt;
  int y = 0, mo = 0, d = 0, hh = 0, mi = 0, ss = 0;
  size_t i = 0;
  if (Digits(s, &i, 4, &y) && i < s.size() && (s[i] == '/' || s[i] == '-')) {
    const char sep = s[i];
    ++i;
    if (!Digits(s, &i, 2, &mo) || i >= s.size() || s[i] != sep) return std::nullopt;
    ++i;
    if (!Digits(s, &i, 2, &d)) return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
    auto t = static_cast<double>(
        DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400);
    if (i == s.size()) return t;
    if (s[i] != ' ' && s[i] != 'T') return std::nullopt;
    ++i;
    if (!Digits(s, &i, 2, &hh) || i >= s.size() || s[i] != ':') return std::nullopt;
    ++i;
    if (!Digits(s, &i, 2, &mi)) return std::nullopt;
    bool seconds = false;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!Digits(s, &i, 2, &ss)) return std::nullopt;
      seconds = true;
    }
    if (hh > 23 || mi > 59 || ss > 60) return std::nullopt;
    t += hh * 3600 + mi * 60 + ss;
    if (seconds && clock != nullptr) *clock = t;  // i == kClockChars here
    return ParseTimeTail(s, i, t);
  }
  // Unix seconds (CloudWatch and Prometheus tools also write these).
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && ptr == s.data() + s.size() && v > 1e8 && v < 1e11) return v;
  return ParseCtimeStyle(s);
}

}  // namespace

std::optional<double> TimeParser::Parse(std::string_view text) {
  const std::string_view s = cell::TrimSpace(text);
  if (clock_ && s.size() >= kClockChars &&
      s.compare(0, kClockChars, clock_text_, kClockChars) == 0) {
    return ParseTimeTail(s, kClockChars, *clock_);
  }
  std::optional<double> clock;
  std::optional<double> t = ParseTrimmedTime(s, &clock);
  if (clock) {
    std::memcpy(clock_text_, s.data(), kClockChars);
    clock_ = clock;
  }
  return t;
}

}  // namespace telemetry

std::optional<double> ParseTelemetryTime(std::string_view s) {
  return telemetry::ParseTrimmedTime(Trim(s), nullptr);
}

std::string FormatUtc(double unix_s) {
  return FormatIsoUtc(static_cast<int64_t>(std::floor(unix_s)));
}

template <>
struct EnumNames<TelemetryFormat> {
  static constexpr EnumName<TelemetryFormat> kTable[] = {
      {TelemetryFormat::kAuto, "auto"},
      {TelemetryFormat::kNvidiaSmiCsv, "nvidia-smi-csv"},
      {TelemetryFormat::kNvidiaSmiXml, "nvidia-smi-xml"},
      {TelemetryFormat::kPrometheus, "prometheus"},
      {TelemetryFormat::kCloudWatch, "cloudwatch"}};
};

const char* TelemetryFormatName(TelemetryFormat f) { return NameOf(f); }

std::optional<TelemetryFormat> ParseTelemetryFormat(std::string_view name) {
  return ParseName<TelemetryFormat>(name);
}

Result<TelemetryFormat> ParseTelemetryFormatOption(std::string_view text) {
  const std::optional<TelemetryFormat> f = ParseName<TelemetryFormat>(ToLower(Trim(text)));
  if (f) return *f;
  return Status::InvalidArgument("telemetry-format: expected one of " +
                                 JoinNames<TelemetryFormat>(", ") + ", got \"" + std::string(text) +
                                 "\"")
      .WithField("telemetry-format");
}

namespace {

// "logs/host-a.csv.gz" -> "host-a".
std::string Stem(const std::string& path) {
  std::string s =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  for (const char* ext : {".gz", ".csv", ".log", ".txt", ".xml", ".json", ".metrics", ".prom"}) {
    const size_t n = std::strlen(ext);
    if (s.size() > n && s.compare(s.size() - n, n, ext) == 0) s.resize(s.size() - n);
  }
  return s;
}

Result<TelemetryFileInfo> ReadFrom(telemetry::LineSource& src, const TelemetryOptions& o,
                                   const SampleSink& sink) {
  TelemetryFileInfo info;
  info.path = src.origin();
  info.gzip = src.gzip();
  const std::string host = o.host.empty() ? Stem(src.origin()) : o.host;
  info.format = o.format == TelemetryFormat::kAuto ? telemetry::DetectFormat(src.Peek()) : o.format;
  if (info.format == TelemetryFormat::kAuto) {
    return Status::ParseError(src.origin() + ": not a telemetry file (unreadable gzip data)");
  }
  if (src.Peek().empty() && src.status().ok()) {
    return Status::ParseError(src.origin() + ": empty file (expected GPU telemetry)");
  }
  src.set_progress(o.progress ? &o.progress : nullptr);
  Result<uint64_t> n = uint64_t{0};
  switch (info.format) {
    case TelemetryFormat::kNvidiaSmiCsv:
      n = telemetry::ParseSmiCsv(src, o, host, sink);
      break;
    case TelemetryFormat::kNvidiaSmiXml:
      n = telemetry::ParseSmiXml(src, host, sink);
      break;
    case TelemetryFormat::kPrometheus:
      n = telemetry::ParsePrometheus(src, host, sink);
      break;
    case TelemetryFormat::kCloudWatch: {
      Result<std::string> text = src.Rest();
      if (!text.ok()) return text.status();
      n = telemetry::ParseCloudWatch(*text, src.origin(), host, sink);
      break;
    }
    case TelemetryFormat::kAuto:
      break;
  }
  if (!n.ok()) return n.status();
  if (!src.status().ok()) return src.status();
  info.samples = *n;
  info.bytes = src.size() > 0 ? src.size() : src.consumed();
  if (o.progress) o.progress(info.bytes, info.bytes);
  return info;
}

}  // namespace

Result<TelemetryFileInfo> ReadTelemetryFile(const std::string& path, const TelemetryOptions& o,
                                            const SampleSink& sink) {
  Result<std::unique_ptr<telemetry::LineSource>> src = telemetry::LineSource::Open(path);
  if (!src.ok()) return src.status();
  return ReadFrom(**src, o, sink);
}

Result<TelemetryFileInfo> ReadTelemetryText(std::string_view text, const std::string& origin,
                                            const TelemetryOptions& o, const SampleSink& sink) {
  telemetry::LineSource src(text, origin);
  return ReadFrom(src, o, sink);
}

}  // namespace gpuadvisor
