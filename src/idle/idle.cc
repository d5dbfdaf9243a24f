#include "gpuadvisor/idle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "gpuadvisor/cost.h"
#include "gpuadvisor/query.h"
#include "idle/week_profile.h"
#include "util/csv.h"
#include "util/enum_names.h"
#include "util/text.h"
#include "util/timezone.h"

namespace gpuadvisor {
namespace {

constexpr int kBins = 1001;  // utilisation histogram: 0.1 % per bin
// Bins kept as (bin, count) pairs until there are this many; then 4 KiB of counts. Integer
// percentages (nvidia-smi, DCGM GPU_UTIL) use at most 101 bins, so most GPUs stay sparse.
constexpr size_t kSparseMax = 128;
// An analyzer that held more series than this hands freed memory back to the system when it is
// destroyed (glibc keeps freed chunks of a long-lived server otherwise).
constexpr size_t kTrimAfterSeries = 1024;

// Utilisation histogram with 0.1 %-wide bins: the memory of a GPU does not grow with samples.
class Histogram {
 public:
  void Add(double pct, uint32_t weight = 1) {
    if (std::isnan(pct)) return;
    // std::lround of 0 to 1000 without its call: the whole part, plus one from a half up (the
    // fraction y - whole is exact).
    const double y = std::clamp(pct, 0.0, 100.0) * 10;
    auto bin = static_cast<uint16_t>(y);
    if (y - bin >= 0.5) ++bin;
    AddBin(bin, weight);
  }
  void Merge(const Histogram& o) {
    o.ForEach([this](size_t bin, uint64_t n) {
      AddBin(static_cast<uint16_t>(bin), static_cast<uint32_t>(n));
    });
  }
  uint64_t count() const { return count_; }
  // Calls f(bin, count) for every non-empty bin in increasing order.
  template <typename F>
  void ForEach(F f) const {
    if (dense_) {
      for (size_t i = 0; i < dense_->size(); ++i) {
        if ((*dense_)[i] != 0) f(i, (*dense_)[i]);
      }
      return;
    }
    for (const Bin& x : sparse_) f(x.bin, x.n);
  }
  std::optional<double> Percentile(double p) const {
    if (count_ == 0) return std::nullopt;
    const auto rank =
        std::max<uint64_t>(static_cast<uint64_t>(std::ceil(p * static_cast<double>(count_))), 1);
    uint64_t seen = 0;
    std::optional<double> out;
    ForEach([&](size_t bin, uint64_t n) {
      seen += n;
      if (!out && seen >= rank) out = static_cast<double>(bin) / 10.0;
    });
    return out.value_or(100.0);
  }
  double Mean() const {
    double sum = 0;
    ForEach([&sum](size_t bin, uint64_t n) { sum += static_cast<double>(n * bin) / 10.0; });
    return count_ == 0 ? 0 : sum / static_cast<double>(count_);
  }

 private:
  struct Bin {
    uint16_t bin;
    uint32_t n;
  };
  void MakeDense() {
    dense_ = std::make_unique<std::array<uint32_t, kBins>>();
    for (const Bin& x : sparse_) (*dense_)[x.bin] = x.n;
    sparse_.clear();
    sparse_.shrink_to_fit();
  }
  void AddBin(uint16_t b, uint32_t n) {
    count_ += n;
    if (dense_) {
      (*dense_)[b] += n;
      return;
    }
    auto it = std::lower_bound(sparse_.begin(), sparse_.end(), b,
                               [](const Bin& x, uint16_t v) { return x.bin < v; });
    if (it != sparse_.end() && it->bin == b) {
      it->n += n;
    } else if (sparse_.size() < kSparseMax) {
      sparse_.insert(it, Bin{b, n});
    } else {
      MakeDense();
      (*dense_)[b] += n;
    }
  }
  std::vector<Bin> sparse_;  // sorted by bin
  std::unique_ptr<std::array<uint32_t, kBins>> dense_;
  uint64_t count_ = 0;
};

// Sampling intervals: one at most this long is never a gap, whatever came before it.
constexpr double kNeverAGapS = 600;
// A longer interval is always missing data: no source samples more sparsely (a Prometheus window,
// --step, is at most a day), and two readings a month apart say nothing about the month between.
constexpr double kMaxIntervalS = 24 * 3600;
// A gap: over ten sampling intervals and over kNeverAGapS.
constexpr double kGapIntervals = 10;

// Idle stretches of one time series of (time, idle?) points. Each point stands for the time to
// the next one, its sampling interval; a gap stands for nothing, so the time covered is at most
// last - first + one sampling interval (the last point's own).
class IdleTracker {
 public:
  IdleTracker(double window_s, size_t max_periods) : window_(window_s), max_(max_periods) {}

  void Add(double t, bool idle) {
    if (prev_t_) {
      const double dt = t - *prev_t_;
      if (dt <= 0) return;  // the same instant again
      Step(dt);
    }
    prev_t_ = t;
    prev_idle_ = idle;
  }
  void Finish() {
    // A held first interval nothing confirmed: no sampling interval is known, so neither its
    // points nor the time between them count.
    held_.reset();
    if (prev_t_) Account(*prev_t_, prev_idle_, interval_);
    prev_t_.reset();
    EndRun();
  }

  double covered_s = 0, idle_s = 0, longest_s = 0;
  size_t count = 0;
  std::vector<IdlePeriod> periods;
  // A host's tracker also files its covered time and idle stretches by hour of the week.
  idle_internal::WeekSlots* week = nullptr;

 private:
  // The first interval over kNeverAGapS, held until the next interval shows whether it was the
  // sampling interval or a gap (two samples a day apart then an hour of minutes: a gap).
  struct Held {
    double start_t, dt;
    bool idle;
  };

  // The interval `dt` from the previous point (*prev_t_) to the next.
  void Step(double dt) {
    if (held_) {
      const Held h = *held_;
      held_.reset();
      const bool gap = h.dt > kGapIntervals * dt;
      Account(h.start_t, h.idle, gap ? dt : h.dt);
      if (gap) EndRun();
      interval_ = gap ? dt : h.dt;
    }
    if (dt > kMaxIntervalS) {
      Account(*prev_t_, prev_idle_, interval_);  // 0 when no interval is known yet
      EndRun();
      return;
    }
    if (interval_ == 0) {
      if (dt > kNeverAGapS) {
        held_ = Held{*prev_t_, dt, prev_idle_};
        return;
      }
      interval_ = dt;
    }
    const bool gap = dt > kGapIntervals * interval_ && dt > kNeverAGapS;
    Account(*prev_t_, prev_idle_, gap ? interval_ : dt);
    if (gap) {
      EndRun();
    } else {
      interval_ = dt;
    }
  }
  // The point at `t` (idle or not) stands for `dt` seconds.
  void Account(double t, bool idle, double dt) {
    if (dt <= 0) return;
    covered_s += dt;
    if (week != nullptr) week->AddCovered(t, dt);
    if (idle) {
      if (run_len_ == 0) run_start_ = t;
      run_len_ += dt;
    } else {
      EndRun();
    }
  }
  void EndRun() {
    if (run_len_ > 0 && run_len_ >= window_) {
      idle_s += run_len_;
      longest_s = std::max(longest_s, run_len_);
      ++count;
      if (periods.size() < max_) periods.push_back({run_start_, run_start_ + run_len_});
      if (week != nullptr) week->AddIdle(run_start_, run_len_);
    }
    run_len_ = 0;
  }
  double window_;
  size_t max_;
  std::optional<double> prev_t_;
  bool prev_idle_ = false;
  std::optional<Held> held_;
  double interval_ = 0;  // the sampling interval: the last interval that was no gap
  double run_start_ = 0, run_len_ = 0;
};

struct GpuState {
  int index = -1;
  std::string uuid, name;
  uint64_t samples = 0;
  Histogram util;
  double util_sum = 0;
  double mem_sum = 0, mem_max = -1, mem_total = -1, power_sum = 0;
  uint64_t mem_n = 0, power_n = 0;
  std::optional<double> last_t;
  IdleTracker tracker;
  // Push-down (AddAggregate): the utilisation figures the server computed over the readings.
  bool pushed = false;
  std::optional<double> pushed_avg, pushed_p95;
  GpuState(double window, size_t max) : tracker(window, max) {}
};

// Where a host's figures come from: samples (Add) or a server's aggregates (AddAggregate).
enum class HostSource { kNone, kSamples, kAggregates };

struct HostState {
  std::string host;
  std::vector<GpuState> gpus;
  uint64_t samples = 0;
  std::optional<double> first_t, last_t;
  // The current tick: samples of the host's GPUs taken together.
  std::optional<double> tick_t;
  std::vector<bool> tick_seen;
  double tick_util_sum = 0;
  int tick_util_n = 0, tick_busy = 0;
  uint32_t tick_readings = 1;  // readings each GPU's sample of the tick summarises
  bool tick_all_idle = true;
  Histogram tick_util;              // mean over GPUs per tick
  std::vector<uint64_t> busy_hist;  // ticks by number of busy GPUs
  IdleTracker tracker;
  HostSource source = HostSource::kNone;
  // Push-down (AddAggregate): the tick figures the server computed.
  bool pushed = false;
  std::optional<double> pushed_avg, pushed_p95;
  int pushed_busy = 0;
  HostState(double window, size_t max) : tracker(window, max) {}
};

std::string Lower(std::string_view s) { return ToLower(s); }

// Host names are looked up by string_view (no copy per sample).
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

Status LimitError(size_t limit, const char* what, const char* name) {
  return Status::InvalidArgument("telemetry: more than " + std::to_string(limit) + " " + what +
                                 " in one analysis (limit " + name +
                                 "); split the telemetry into smaller inputs or raise the limit");
}

// What every sample must hold, whatever its source (security issue, finding 2): the file readers
// refuse malformed text, but a Prometheus or CloudWatch API, DCGM or a caller of Add() may pass
// NaN, infinities, 1e308 or dates in year 33000, which would otherwise price trillions of idle
// dollars. Refused like the CSV reader refuses a bad cell: a ParseError naming where and the field.
constexpr double kMinTimeS = 946684800;        // 2000-01-01T00:00:00Z
constexpr double kMaxTimeS = 4102444800;       // 2100-01-01T00:00:00Z
constexpr double kMaxMemoryMib = 4 * 1048576;  // 4 TiB per GPU; the largest today have 288 GB
constexpr double kMaxPowerW = 10000;           // per GPU; the largest draw about 1.2 kW

std::string Num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// "file.csv:12: ", else "ORIGIN (host GPU 3): " for samples of an API (no line).
std::string SampleWhere(const std::string& origin, const TelemetrySample& s) {
  const std::string o = origin.empty() ? "telemetry" : origin;
  if (s.line > 0) return o + ":" + std::to_string(s.line) + ": ";
  return o + " (" + std::string(s.host) + " GPU " + std::to_string(s.gpu_index) + "): ";
}

Status CheckRange(const std::optional<double>& v, double lo, double hi, const char* field,
                  const char* expected, const std::string& where) {
  if (!v || (*v >= lo && *v <= hi)) return Status::OK();  // false for NaN
  return Status::ParseError(where + field + ": expected " + expected + ", got " + Num(*v));
}

// True when `v` is null or in [lo, hi] (false for NaN).
inline bool InRange(const std::optional<double>& v, double lo, double hi) {
  return !v || (*v >= lo && *v <= hi);
}

// CheckSample's tests without the message: every sample passes them, so the place is only
// formatted (an allocation) for one that fails.
inline bool SampleOk(const TelemetrySample& s) {
  if (!InRange(s.time_s, kMinTimeS, kMaxTimeS) || !InRange(s.util_pct, 0, 100) ||
      !InRange(s.util_max_pct, 0, 100) || !InRange(s.mem_used_mib, 0, kMaxMemoryMib) ||
      !InRange(s.mem_used_max_mib, 0, kMaxMemoryMib) ||
      !InRange(s.mem_total_mib, 0, kMaxMemoryMib) || !InRange(s.power_w, 0, kMaxPowerW)) {
    return false;
  }
  return !s.mem_total_mib ||
         !(std::max(s.mem_used_mib.value_or(0), s.mem_used_max_mib.value_or(0)) > *s.mem_total_mib);
}

Status CheckSample(const TelemetrySample& s, const std::string& origin) {
  if (SampleOk(s)) return Status::OK();
  const std::string where = SampleWhere(origin, s);
  GPUADVISOR_RETURN_IF_ERROR(
      CheckRange(s.time_s, kMinTimeS, kMaxTimeS, "timestamp", "a time in 2000-2099", where));
  for (const auto* u : {&s.util_pct, &s.util_max_pct}) {
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(*u, 0, 100, "utilization.gpu", "a percentage 0 to 100", where));
  }
  for (const auto* m : {&s.mem_used_mib, &s.mem_used_max_mib}) {
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(*m, 0, kMaxMemoryMib, "memory.used", "0 to 4 TiB in MiB", where));
  }
  GPUADVISOR_RETURN_IF_ERROR(
      CheckRange(s.mem_total_mib, 0, kMaxMemoryMib, "memory.total", "0 to 4 TiB in MiB", where));
  GPUADVISOR_RETURN_IF_ERROR(
      CheckRange(s.power_w, 0, kMaxPowerW, "power.draw", "0 to 10000 W", where));
  if (s.mem_total_mib) {
    const double used = std::max(s.mem_used_mib.value_or(0), s.mem_used_max_mib.value_or(0));
    if (used > *s.mem_total_mib) {
      return Status::ParseError(where + "memory.used: " + Num(used) +
                                " MiB is above memory.total (" + Num(*s.mem_total_mib) + " MiB)");
    }
  }
  return Status::OK();
}

// What the options' declarations cannot check alone: the schedule zone.
Status CheckIdleOptions(const IdleOptions& o) {
  if (o.timezone.empty()) return Status::OK();
  return ParseTimeZone(o.timezone, "timezone").status();
}

}  // namespace

struct IdleAnalyzer::Impl {
  std::shared_ptr<const Catalog> catalog;
  IdleOptions o;
  std::vector<HostState> hosts;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> host_index;
  size_t last_host = SIZE_MAX;
  size_t series = 0;  // (host, GPU) pairs in all
  std::string origin;
  std::vector<TelemetryFileInfo> files;
  uint64_t samples = 0;
  idle_internal::WeekSlots week;  // the hour-of-week profile, fleet-wide
  bool pushed_hosts = false, pushed_coverage = false;

  ~Impl() {
#ifdef __GLIBC__
    if (series > kTrimAfterSeries) {
      std::vector<HostState>().swap(hosts);
      decltype(host_index)().swap(host_index);
      malloc_trim(0);
    }
#endif
  }

  // The state of host `name`; null with *st set past IdleOptions::max_hosts.
  HostState* HostFor(std::string_view name, Status* st) {
    if (last_host != SIZE_MAX && hosts[last_host].host == name) return &hosts[last_host];
    auto it = host_index.find(name);
    if (it == host_index.end()) {
      if (hosts.size() >= o.max_hosts) {
        *st = LimitError(o.max_hosts, "hosts", "max_hosts, --max-hosts").WithField("max-hosts");
        return nullptr;
      }
      it = host_index.emplace(std::string(name), hosts.size()).first;
      hosts.emplace_back(o.idle_window_s, o.max_periods);
      hosts.back().host = std::string(name);
      hosts.back().tracker.week = &week;
    }
    last_host = it->second;
    return &hosts[it->second];
  }

  // The slot of the sample's GPU in `h`; SIZE_MAX with *st set past a GPU cap.
  size_t GpuSlot(HostState& h, const TelemetrySample& s, Status* st) {
    for (size_t i = 0; i < h.gpus.size(); ++i) {
      GpuState& g = h.gpus[i];
      // By index, else by UUID; a sample with neither is the host's one unnamed GPU (not a new
      // series per sample).
      const bool same = s.gpu_index >= 0 ? g.index == s.gpu_index : g.index < 0 && g.uuid == s.uuid;
      if (same) return i;
    }
    if (h.gpus.size() >= o.max_gpus_per_host) {
      *st = LimitError(o.max_gpus_per_host, "GPUs of one host", "max_gpus_per_host");
      return SIZE_MAX;
    }
    if (series >= o.max_series) {
      *st = LimitError(o.max_series, "GPU series", "max_series");
      return SIZE_MAX;
    }
    ++series;
    h.gpus.emplace_back(o.idle_window_s, o.max_periods);
    GpuState& g = h.gpus.back();
    g.index = s.gpu_index;
    g.uuid = std::string(s.uuid);
    g.name = std::string(s.gpu_name);
    h.tick_seen.push_back(false);
    return h.gpus.size() - 1;
  }

  void CloseTick(HostState& h) {
    if (!h.tick_t) return;
    if (h.tick_util_n > 0) {
      h.tick_util.Add(h.tick_util_sum / h.tick_util_n, h.tick_readings);
      h.tracker.Add(*h.tick_t, h.tick_all_idle);
      if (h.busy_hist.size() <= static_cast<size_t>(h.tick_busy))
        h.busy_hist.resize(h.tick_busy + 1);
      h.busy_hist[static_cast<size_t>(h.tick_busy)] += h.tick_readings;
    }
    h.tick_t.reset();
    std::fill(h.tick_seen.begin(), h.tick_seen.end(), false);
    h.tick_util_sum = 0;
    h.tick_util_n = 0;
    h.tick_busy = 0;
    h.tick_readings = 1;
    h.tick_all_idle = true;
  }

  Status Add(const TelemetrySample& s) {
    GPUADVISOR_RETURN_IF_ERROR(CheckSample(s, origin));
    Status st;
    HostState* hp = HostFor(s.host.empty() ? std::string_view("unknown") : s.host, &st);
    if (hp == nullptr) return st;
    HostState& h = *hp;
    if (h.source == HostSource::kAggregates) return MixedSources(h.host);
    h.source = HostSource::kSamples;
    const size_t slot = GpuSlot(h, s, &st);
    if (slot == SIZE_MAX) return st;
    GpuState& g = h.gpus[slot];
    // A window summary (prometheus_source.h) weighs as the readings it stands for.
    const uint32_t n = std::max<uint32_t>(s.readings, 1);
    const auto w = static_cast<double>(n);
    g.samples += n;
    h.samples += n;
    samples += n;
    if (g.name.empty() && !s.gpu_name.empty()) g.name = std::string(s.gpu_name);
    if (s.mem_used_mib) {
      g.mem_sum += *s.mem_used_mib * w;
      g.mem_max = std::max(g.mem_max, s.mem_used_max_mib.value_or(*s.mem_used_mib));
      g.mem_n += n;
    }
    if (s.mem_total_mib) g.mem_total = std::max(g.mem_total, *s.mem_total_mib);
    if (s.power_w) {
      g.power_sum += *s.power_w * w;
      g.power_n += n;
    }
    if (s.util_pct) {
      g.util.Add(*s.util_pct, n);
      g.util_sum += *s.util_pct * w;
    }
    if (!s.time_s) return Status::OK();
    const double t = *s.time_s;
    if (g.last_t && t < *g.last_t) {
      return Status::ParseError(origin + ":" + std::to_string(s.line) +
                                ": time goes backwards for " + h.host + " GPU " +
                                std::to_string(g.index) + " (" + FormatUtc(t) + " after " +
                                FormatUtc(*g.last_t) + "); give each host's files in time order");
    }
    g.last_t = t;
    if (!h.first_t || t < *h.first_t) h.first_t = t;
    if (!h.last_t || t > *h.last_t) h.last_t = t;
    // A window is idle only when its busiest reading is.
    const bool idle = !s.util_pct || s.util_max_pct.value_or(*s.util_pct) <= o.idle_threshold_pct;
    if (s.util_pct) g.tracker.Add(t, idle);
    // Host tick: a GPU reporting twice, or a sample 2 s after the tick began, starts a new one.
    if (h.tick_t && (h.tick_seen[slot] || t - *h.tick_t >= 2.0)) CloseTick(h);
    if (!h.tick_t) h.tick_t = t;
    h.tick_seen[slot] = true;
    h.tick_readings = std::max(h.tick_readings, n);
    if (s.util_pct) {
      h.tick_util_sum += *s.util_pct;
      ++h.tick_util_n;
      if (!idle) {
        ++h.tick_busy;
        h.tick_all_idle = false;
      }
    }
    return Status::OK();
  }

  static Status MixedSources(const std::string& host) {
    return Status::InvalidArgument("telemetry: " + host +
                                   " has both samples and a server's aggregates; give one")
        .WithField("pushdown");
  }

  // The host of an aggregate, which must not have samples; null with *st set otherwise.
  HostState* AggregateHost(const std::string& name, Status* st) {
    HostState* h = HostFor(name.empty() ? std::string_view("unknown") : name, st);
    if (h == nullptr) return nullptr;
    if (h->source == HostSource::kSamples) {
      *st = MixedSources(h->host);
      return nullptr;
    }
    h->source = HostSource::kAggregates;
    return h;
  }

  Status AddAggregate(const GpuAggregate& a) {
    TelemetrySample s;  // what Add() checks and keys a GPU by
    s.host = a.host;
    s.gpu_index = a.gpu_index;
    s.uuid = a.uuid;
    s.gpu_name = a.gpu_name;
    s.util_pct = a.util_avg_pct;
    s.util_max_pct = a.util_p95_pct;
    s.mem_used_mib = a.mem_used_avg_mib;
    s.mem_used_max_mib = a.mem_used_max_mib;
    s.mem_total_mib = a.mem_total_mib;
    s.power_w = a.power_avg_w;
    GPUADVISOR_RETURN_IF_ERROR(CheckSample(s, origin));
    GPUADVISOR_RETURN_IF_ERROR(CheckSpan(a.covered_s, a.idle_s, SampleWhere(origin, s)));
    Status st;
    HostState* hp = AggregateHost(a.host, &st);
    if (hp == nullptr) return st;
    const size_t slot = GpuSlot(*hp, s, &st);
    if (slot == SIZE_MAX) return st;
    GpuState& g = hp->gpus[slot];
    const auto n = static_cast<double>(a.readings);
    g.samples += a.readings;
    hp->samples += a.readings;
    samples += a.readings;
    g.pushed = true;
    g.pushed_avg = a.util_avg_pct;
    g.pushed_p95 = a.util_p95_pct;
    if (a.mem_used_avg_mib) {
      g.mem_sum += *a.mem_used_avg_mib * n;
      g.mem_max = std::max(g.mem_max, a.mem_used_max_mib.value_or(*a.mem_used_avg_mib));
      g.mem_n += a.readings;
    }
    if (a.mem_total_mib) g.mem_total = std::max(g.mem_total, *a.mem_total_mib);
    if (a.power_avg_w) {
      g.power_sum += *a.power_avg_w * n;
      g.power_n += a.readings;
    }
    g.tracker.covered_s += a.covered_s;
    g.tracker.idle_s += a.idle_s;
    return Status::OK();
  }

  // Time covered and idle: finite, idle within covered, at most a century.
  static Status CheckSpan(double covered_s, double idle_s, const std::string& where) {
    constexpr double kCentury = 100 * 366 * 86400.0;
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(covered_s, 0, kCentury, "covered", "0 to 100 years of s", where));
    return CheckRange(idle_s, 0, covered_s + 1e-6, "idle", "0 to the time covered, in s", where);
  }

  Status AddAggregate(const HostAggregate& a) {
    const std::string where = (origin.empty() ? "telemetry" : origin) + " (" + a.host + "): ";
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(a.util_avg_pct, 0, 100, "utilization.gpu", "a percentage 0 to 100", where));
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(a.util_p95_pct, 0, 100, "utilization.gpu", "a percentage 0 to 100", where));
    double idle_s = 0, last_end = -1;
    for (const auto& [start, end] : a.idle_pieces) {
      GPUADVISOR_RETURN_IF_ERROR(
          CheckRange(start, kMinTimeS, kMaxTimeS, "timestamp", "a time in 2000-2099", where));
      if (!(end >= start && end <= kMaxTimeS && start >= last_end - 1e-3)) {
        return Status::ParseError(where + "idle: expected stretches in time order");
      }
      idle_s += end - start;
      last_end = end;
    }
    GPUADVISOR_RETURN_IF_ERROR(CheckSpan(a.covered_s, idle_s, where));
    if (a.covered_s > 0) {
      for (const double t : {a.first_s, a.last_s}) {
        GPUADVISOR_RETURN_IF_ERROR(
            CheckRange(t, kMinTimeS, kMaxTimeS, "timestamp", "a time in 2000-2099", where));
      }
    }
    Status st;
    HostState* hp = AggregateHost(a.host, &st);
    if (hp == nullptr) return st;
    HostState& h = *hp;
    if (h.pushed) {
      return Status::InvalidArgument("telemetry: " + h.host + ": a second host aggregate")
          .WithField("pushdown");
    }
    h.pushed = true;
    pushed_hosts = true;
    h.pushed_avg = a.util_avg_pct;
    h.pushed_p95 = a.util_p95_pct;
    h.pushed_busy = a.gpus_busy;
    if (a.covered_s > 0) {
      h.first_t = a.first_s;
      h.last_t = a.last_s;
    }
    IdleTracker& t = h.tracker;
    t.covered_s = a.covered_s;
    // Pieces that touch are one stretch (the server cut them at hours).
    std::optional<IdlePeriod> run;
    auto close = [&] {
      if (!run) return;
      const double len = run->end_s - run->start_s;
      t.idle_s += len;
      t.longest_s = std::max(t.longest_s, len);
      ++t.count;
      if (t.periods.size() < o.max_periods) t.periods.push_back(*run);
      week.AddIdle(run->start_s, len);
      run.reset();
    };
    for (const auto& [start, end] : a.idle_pieces) {
      if (run && start <= run->end_s + 1e-3) {
        run->end_s = std::max(run->end_s, end);
        continue;
      }
      close();
      run = IdlePeriod{start, end};
    }
    close();
    return Status::OK();
  }

  // Candidate types with a GPU matching `spec`, priced for `purchase` in `region`.
  std::optional<Price> PriceOf(const InstanceType& t, const std::string& region,
                               PurchaseKind purchase) const {
    const RegionOffer* r = t.FindRegion(region);
    if (r == nullptr) return std::nullopt;
    const Price* p = PurchasePrice(*r, purchase);
    return p != nullptr ? std::optional<Price>(*p) : std::nullopt;
  }

  const GpuSpec* MatchGpu(const std::string& name) const {
    std::string rest = name;
    for (const char* prefix : {"NVIDIA ", "Tesla ", "Quadro "}) {
      if (StartsWith(rest, prefix)) rest = rest.substr(std::string_view(prefix).size());
    }
    if (const GpuSpec* g = catalog->FindGpu(rest)) return g;
    std::vector<std::string_view> words;
    for (std::string_view w : Split(rest, ' ')) {
      if (!w.empty()) words.push_back(w);
    }
    if (words.empty()) return nullptr;
    // "A100-SXM4-80GB" -> "A100-80GB"; "H100 80GB HBM3" -> "H100-80GB", then "H100".
    std::vector<std::string_view> parts = Split(words[0], '-');
    std::string base(parts[0]);
    std::string mem;
    for (std::string_view w : words) {
      for (std::string_view p : Split(w, '-')) {
        if (p.size() > 2 && p.substr(p.size() - 2) == "GB") mem = std::string(p);
      }
    }
    if (!mem.empty()) {
      if (const GpuSpec* g = catalog->FindGpu(base + "-" + mem)) return g;
    }
    return catalog->FindGpu(base);
  }

  // The cheapest current type carrying `spec` with exactly (else at least) `count` devices.
  const InstanceType* GuessType(const GpuSpec& spec, int count, const std::string& region,
                                PurchaseKind purchase, bool exact) const {
    const InstanceType* best = nullptr;
    double best_price = 0;
    int best_devices = 0;
    for (const InstanceType& t : catalog->instance_types()) {
      if (t.retired || t.accelerator.fractional()) continue;
      const GpuSpec* g = catalog->GpuOf(t);
      if (g == nullptr || g->model != spec.model) continue;
      const int d = t.accelerator.devices();
      if (exact ? d != count : d < count) continue;
      std::optional<Price> p = PriceOf(t, region, purchase);
      if (!p) continue;
      if (best == nullptr || d < best_devices ||
          (d == best_devices && p->usd_per_hour < best_price)) {
        best = &t;
        best_price = p->usd_per_hour;
        best_devices = d;
      }
    }
    return best;
  }

  static bool SharesArchitecture(const InstanceType& a, const InstanceType& b) {
    for (const std::string& x : a.cpu_architectures) {
      if (std::find(b.cpu_architectures.begin(), b.cpu_architectures.end(), x) !=
          b.cpu_architectures.end()) {
        return true;
      }
    }
    return a.cpu_architectures.empty() || b.cpu_architectures.empty();
  }

  // An amount of the catalog in the currency of `like` (both from the host's region).
  static Money Same(const Money& like, double amount) { return {amount, like.currency}; }
  // The saving of a lever, 0 when none; only compared within one host's currency.
  static double SavingAmount(const IdleRecommendation& r) {
    return r.savings_per_month ? r.savings_per_month->amount : 0;
  }

  static double Tflops(const GpuSpec& g) {
    return g.bf16_tflops.value_or(g.fp16_tflops.value_or(g.fp32_tflops.value_or(0)));
  }

  static Money Monthly(const Money& per_hour, double share) {
    return per_hour * (kHoursPerMonth * share);
  }
  // The saving per month of moving from `from` to `to` (both per hour, the host's currency) for
  // the share of time the host works.
  static std::optional<Money> MonthlySaving(const Money& from, const Money& to, double share) {
    Result<Money> d = Minus(from, to);
    if (!d.ok()) return std::nullopt;  // not reached: one host, one region, one currency
    return Monthly(*d, share);
  }

  // Whether the host was observed long enough for an idle verdict and for rightsizing.
  void SetDataStatus(HostUsage& u) const {
    const double span_s = u.hours_covered * 3600;
    if (span_s <= 0) {
      u.status = DataStatus::kInsufficientData;
      const bool apart = u.first_s && u.last_s && *u.last_s > *u.first_s;
      u.status_reason =
          std::string("insufficient data: no time covered (") +
          (apart ? "samples " + Span(*u.last_s - *u.first_s) +
                       " apart with no sampling interval between them are a gap, not observed "
                       "time"
                 : std::string("a single snapshot")) +
          "); log utilisation over days, "
          "e.g. nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,memory.used,"
          "memory.total --format=csv -l 60";
    } else if (span_s < o.idle_window_s) {
      u.status = DataStatus::kInsufficientData;
      u.status_reason = "insufficient data: observed " + Span(span_s) +
                        ", need at least the idle window (" + Span(o.idle_window_s) + ")";
    } else if (span_s < o.min_rightsizing_span_s) {
      u.status = DataStatus::kCollectMore;
      u.status_reason =
          "collect more data: " + FormatFixed(u.hours_covered, 1) +
          " h observed, rightsizing needs >= " + FormatFixed(o.min_rightsizing_span_s / 3600, 0) +
          " h";
    }
    if (u.status == DataStatus::kInsufficientData) {
      u.idle_fraction.reset();  // no verdict, not "never idle"
      for (GpuUsage& g : u.gpu_usage) g.idle_fraction.reset();
    }
  }

  static std::string Span(double s) {
    return s < 2 * 3600 ? FormatFixed(s / 60, 0) + " min" : FormatFixed(s / 3600, 1) + " h";
  }

  // The hours of the day (UTC) in which a host idles on most days: [start, end), end may wrap.
  struct DailyWindow {
    int start_hour = 0, end_hour = 0;
  };

  // From the host's listed idle periods (the first IdleOptions::max_periods): the longest run of
  // hours of the day (circular) that were idle on at least 75 % of the days that observed them,
  // each hour observed on two days (1.5 h of it). Nullopt under two days observed, for a run under
  // two hours, or when every hour qualifies (no daily pattern: the host is simply idle).
  // `offset_s` shifts the clock from UTC to the schedule's zone.
  static std::optional<DailyWindow> DailyIdleWindow(const HostUsage& u, double offset_s) {
    if (!u.first_s || !u.last_s || u.idle_periods.empty()) return std::nullopt;
    const double begin = *u.first_s;
    // Past the listed periods nothing is known about idleness: observe up to their end.
    const double end =
        u.idle_period_count > u.idle_periods.size() ? u.idle_periods.back().end_s : *u.last_s;
    if (u.hours_covered < 48 || end - begin < 47 * 3600) return std::nullopt;
    double observed[24] = {}, idle[24] = {};
    // Adds the seconds of [a, b) to `bins` by hour of the day.
    auto spread = [](double a, double b, double* bins) {
      for (double t = a; t < b;) {
        const double hour_end = (std::floor(t / 3600) + 1) * 3600;
        const double to = std::min(b, hour_end);
        bins[static_cast<int>(std::fmod(std::floor(t / 3600), 24))] += to - t;
        t = to;
      }
    };
    spread(begin + offset_s, end + offset_s, observed);
    for (const IdlePeriod& p : u.idle_periods) {
      spread(std::max(p.start_s, begin) + offset_s, std::min(p.end_s, end) + offset_s, idle);
    }
    bool on[24];
    int count = 0;
    for (int h = 0; h < 24; ++h) {
      on[h] = observed[h] >= 1.5 * 3600 && idle[h] >= 0.75 * observed[h];  // seen on 2 days
      count += on[h];
    }
    if (count == 24) return std::nullopt;
    int best_len = 0, best_start = 0;
    for (int h = 0; h < 24; ++h) {
      if (!on[h] || on[(h + 23) % 24]) continue;  // runs start after a busy hour
      int len = 0;
      while (len < 24 && on[(h + len) % 24]) ++len;
      if (len > best_len) best_len = len, best_start = h;
    }
    if (best_len < 2) return std::nullopt;
    return DailyWindow{best_start, (best_start + best_len) % 24};
  }

  static std::string Clock(int hour) {
    return (hour < 10 ? "0" : "") + std::to_string(hour) + ":00";
  }

  // The zone of a host's schedule: the option's, else its region's (util/timezone.h).
  TimeZone ScheduleZone(const HostUsage& u) const {
    if (o.timezone.empty()) return RegionTimeZone(u.region);
    Result<TimeZone> z = ParseTimeZone(o.timezone, "timezone");  // checked in Finish
    return z.ok() ? *z : RegionTimeZone(u.region);
  }

  // The schedule advice: the daily window, in the host's schedule zone, with the AWS services
  // that stop and start on it (both take the zone: EventBridge Scheduler's
  // ScheduleExpressionTimezone, an Instance Scheduler schedule's timezone). An offset no IANA
  // zone names gets its cron in UTC.
  std::string ScheduleAdvice(const HostUsage& u) const {
    const TimeZone z = ScheduleZone(u);
    const std::optional<DailyWindow> d = DailyIdleWindow(u, z.offset_minutes * 60.0);
    if (!d) {
      return "stop it when idle (gpuadvisor watch); no daily pattern to schedule on (a fixed "
             "schedule needs the same idle hours on most of at least 2 days observed)";
    }
    const std::string from = Clock(d->start_hour), to = Clock(d->end_hour);
    std::string window = "idle " + from + "-" + to + " " + z.name;
    if (z.offset_minutes != 0) {
      const int shift = -z.offset_minutes / 60;  // whole hours; a :30 zone's UTC is approximate
      window += " (" + Clock((d->start_hour + shift + 24) % 24) + "-" +
                Clock((d->end_hour + shift + 24) % 24) + " UTC)";
    }
    const bool named = !z.iana.empty();
    const int start = named ? d->start_hour : (d->start_hour - z.offset_minutes / 60 + 24) % 24;
    const int end = named ? d->end_hour : (d->end_hour - z.offset_minutes / 60 + 24) % 24;
    const std::string zone = named ? z.iana : "UTC";
    const std::string period = named ? from + "-" + to : Clock(start) + "-" + Clock(end);
    return window + " on most days: stop it then with AWS Instance Scheduler (a period " + period +
           " in a schedule with timezone " + zone +
           ") or two EventBridge Scheduler rules (stop cron(0 " + std::to_string(start) +
           " * * ? *), start cron(0 " + std::to_string(end) +
           " * * ? *), schedule-expression-timezone " + zone + "), or when idle (gpuadvisor watch)";
  }

  // Stop (mostly idle) or schedule (idle in stretches); none for a host in use.
  std::optional<IdleRecommendation> IdleLever(const HostUsage& u) const {
    const double f = u.idle_fraction.value_or(0);
    std::optional<Money> savings;
    if (std::optional<Money> price = u.price_per_hour()) savings = Monthly(*price, f);
    const std::string idle_pct = FormatFixed(f * 100, 0) + "%";
    if (f >= 0.9) {
      return IdleRecommendation{"stop",
                                "idle " + idle_pct + " of " + FormatFixed(u.hours_covered, 1) +
                                    " h observed: stop or terminate it",
                                "", std::nullopt, savings};
    }
    if (f >= 0.1 && u.idle_period_count > 0) {
      return IdleRecommendation{"schedule",
                                "idle " + idle_pct + " in " + std::to_string(u.idle_period_count) +
                                    " stretch(es), longest " +
                                    FormatFixed(u.longest_idle_hours, 1) + " h; " +
                                    ScheduleAdvice(u),
                                "", std::nullopt, savings};
    }
    return std::nullopt;
  }

  // The same GPU on a type with fewer of them, when fewer are ever busy at once.
  // `price`: the host's price per hour.
  std::optional<IdleRecommendation> FewerGpus(const HostUsage& u, const InstanceType& type,
                                              const GpuSpec& spec, const Money& price) const {
    const int devices = type.accelerator.devices();
    const int need = std::max(1, u.gpus_busy);
    if (need >= devices) return std::nullopt;
    const InstanceType* t = GuessType(spec, need, u.region, u.purchase, false);
    if (t == nullptr) return std::nullopt;
    std::optional<Price> p = PriceOf(*t, u.region, u.purchase);
    if (t == &type || !p || p->usd_per_hour >= price.amount) return std::nullopt;
    return IdleRecommendation{
        "fewer-gpus",
        std::to_string(need) + " of " + std::to_string(devices) +
            " GPUs busy at once: " + type.name + " -> " + t->name + " (" +
            FormatMoney(Same(price, p->usd_per_hour), 2) + "/h)",
        t->name, Same(price, p->usd_per_hour),
        MonthlySaving(price, Same(price, p->usd_per_hour), 1 - u.idle_fraction.value_or(0))};
  }

  // A smaller or cheaper GPU: memory of the busiest GPU + 20 %, compute of the busy GPUs at
  // their p95 utilisation + 25 % (utilisation counts time a kernel ran, so this is generous).
  std::optional<IdleRecommendation> SmallerGpu(const HostUsage& u, const InstanceType& type,
                                               const GpuSpec& spec, const Money& price) const {
    if (!u.mem_used_max_mib || !(Tflops(spec) > 0)) return std::nullopt;
    const int need = std::max(1, u.gpus_busy);
    double compute = 0;
    for (const GpuUsage& g : u.gpu_usage) {
      compute += Tflops(spec) * g.p95_util_pct.value_or(100) / 100.0;
    }
    compute *= 1.25;
    // Memory bandwidth as compute: utilisation counts the time kernels ran, and a memory-bound
    // kernel on a part with half the bandwidth runs twice as long (A10G -> L4 at 85 % p95).
    const double bandwidth = spec.memory_bw_gbyte_s.value_or(0) * compute / Tflops(spec);
    const double mem_need = *u.mem_used_max_mib * 1.2;
    const InstanceType* best = nullptr;
    double best_price = price.amount;  // in the host's currency
    for (const InstanceType& t : catalog->instance_types()) {
      if (t.retired || t.accelerator.fractional()) continue;
      const GpuSpec* g = catalog->GpuOf(t);
      if (g == nullptr || g->model == spec.model || g->vendor != "NVIDIA") continue;
      if (!SharesArchitecture(t, type)) continue;  // no x86 -> Graviton surprises
      const int d = t.accelerator.devices();
      if (d < need || !t.accelerator.memory_mib_each || *t.accelerator.memory_mib_each < mem_need ||
          d * Tflops(*g) < compute || d * g->memory_bw_gbyte_s.value_or(0) < bandwidth) {
        continue;
      }
      std::optional<Price> p = PriceOf(t, u.region, u.purchase);
      if (p && p->usd_per_hour < best_price * 0.95) {
        best = &t;
        best_price = p->usd_per_hour;
      }
    }
    if (best == nullptr) return std::nullopt;
    const GpuSpec* g = catalog->GpuOf(*best);
    return IdleRecommendation{
        "smaller-gpu",
        "peak " + FormatFixed(*u.mem_used_max_mib / 1024, 1) + " GiB and p95 " +
            FormatFixed(u.p95_util_pct.value_or(0), 0) + "% fit " +
            std::to_string(best->accelerator.devices()) + "x " + g->model + ": " + type.name +
            " -> " + best->name + " (" + FormatMoney(Same(price, best_price), 2) + "/h)",
        best->name, Same(price, best_price),
        MonthlySaving(price, Same(price, best_price), 1 - u.idle_fraction.value_or(0))};
  }

  // Spot for an on-demand host whose type has a cheaper spot price in its region.
  static std::optional<IdleRecommendation> SpotOption(const HostUsage& u, const InstanceType& type,
                                                      const Money& price) {
    if (u.purchase != PurchaseKind::kOnDemand) return std::nullopt;
    const RegionOffer* r = type.FindRegion(u.region);
    if (r == nullptr || !r->spot || r->spot->usd_per_hour >= price.amount) return std::nullopt;
    const Money spot = Same(price, r->spot->usd_per_hour);
    std::string band = r->spot_band ? " (interruptions " + r->spot_band->label + "/month)" : "";
    return IdleRecommendation{
        "spot",
        "if the work tolerates interruptions: spot at " + FormatMoney(spot, 2) + "/h" + band,
        type.name, spot, MonthlySaving(price, spot, 1 - u.idle_fraction.value_or(0))};
  }

  // Sets u.recommendation (the first lever) and u.alternatives (the others).
  void Recommend(HostUsage& u, const InstanceType* type) const {
    if (u.status == DataStatus::kInsufficientData) {
      u.recommendation = {"collect-more", u.status_reason, "", std::nullopt, std::nullopt};
      return;
    }
    const double f = u.idle_fraction.value_or(0);
    std::vector<IdleRecommendation> recs;
    if (std::optional<IdleRecommendation> r = IdleLever(u)) recs.push_back(std::move(*r));
    if (u.status == DataStatus::kCollectMore) {
      // Hours of data say nothing about next week's peak: idleness only, no other type.
      if (recs.empty()) {
        recs.push_back({"collect-more", u.status_reason, "", std::nullopt, std::nullopt});
      }
      u.recommendation = recs.front();
      return;
    }
    if (type == nullptr || !u.price) {
      if (recs.empty()) {
        recs.push_back({"keep", "in use " + FormatFixed((1 - f) * 100, 0) + "% of the time", "",
                        std::nullopt, std::nullopt});
      }
      u.recommendation = recs.front();
      u.alternatives.assign(recs.begin() + 1, recs.end());
      return;
    }
    const Money price = *u.price_per_hour();
    if (const GpuSpec* spec = catalog->GpuOf(*type)) {
      if (auto r = FewerGpus(u, *type, *spec, price)) recs.push_back(std::move(*r));
      if (auto r = SmallerGpu(u, *type, *spec, price)) recs.push_back(std::move(*r));
    }
    // One host's levers are all in its currency.
    std::sort(recs.begin(), recs.end(),
              [](const IdleRecommendation& a, const IdleRecommendation& b) {
                return SavingAmount(a) > SavingAmount(b);
              });
    if (auto r = SpotOption(u, *type, price)) recs.push_back(std::move(*r));
    if (recs.empty()) {
      recs.push_back({"keep", "busy " + FormatFixed((1 - f) * 100, 0) + "% of the time", "",
                      std::nullopt, std::nullopt});
    }
    u.recommendation = recs.front();
    for (size_t i = 1; i < recs.size(); ++i) {
      if (SavingAmount(recs[i]) >= 1) u.alternatives.push_back(recs[i]);
    }
  }

  Status ValidateOptions() const {
    if (!(o.idle_threshold_pct >= 0 && o.idle_threshold_pct <= 100)) {
      return Status::InvalidArgument("idle-threshold: expected a percentage, 0 to 100")
          .WithField("idle-threshold");
    }
    if (!(o.idle_window_s >= 0)) {
      return Status::InvalidArgument("idle-window: expected a non-negative duration")
          .WithField("idle-window");
    }
    if (!(o.min_rightsizing_span_s >= 0)) {
      return Status::InvalidArgument("min-rightsizing-span: expected a non-negative duration")
          .WithField("min-rightsizing-span");
    }
    return Status::OK();
  }

  // One GPU's figures; closes its idle tracker.
  static GpuUsage SummarizeGpu(GpuState& g) {
    g.tracker.Finish();
    GpuUsage gu;
    gu.index = g.index;
    gu.uuid = g.uuid;
    gu.name = g.name;
    gu.samples = g.samples;
    gu.hours_covered = g.tracker.covered_s / 3600;
    if (g.util.count() > 0) {
      gu.avg_util_pct = g.util_sum / static_cast<double>(g.util.count());
      gu.p95_util_pct = g.util.Percentile(0.95);
    }
    if (g.mem_n > 0) {
      gu.mem_used_avg_mib = g.mem_sum / static_cast<double>(g.mem_n);
      gu.mem_used_max_mib = g.mem_max;
    }
    if (g.mem_total >= 0) gu.mem_total_mib = g.mem_total;
    if (g.power_n > 0) gu.avg_power_w = g.power_sum / static_cast<double>(g.power_n);
    if (g.pushed) {
      gu.avg_util_pct = g.pushed_avg;
      gu.p95_util_pct = g.pushed_p95;
    }
    gu.idle_hours = g.tracker.idle_s / 3600;
    if (g.tracker.covered_s > 0) gu.idle_fraction = g.tracker.idle_s / g.tracker.covered_s;
    return gu;
  }

  // The smallest number of busy GPUs that covers 99 % of the ticks (`busy_hist`: ticks by
  // number of busy GPUs).
  static int BusyGpusP99(const std::vector<uint64_t>& busy_hist) {
    uint64_t ticks = 0, seen = 0;
    for (uint64_t c : busy_hist) ticks += c;
    for (size_t k = 0; k < busy_hist.size(); ++k) {
      seen += busy_hist[k];
      if (static_cast<double>(seen) >= 0.99 * static_cast<double>(ticks)) {
        return static_cast<int>(k);
      }
    }
    return 0;
  }

  // Host utilisation from its ticks; without timed samples, from the GPUs' pooled histogram
  // `all` (every GPU counted busy).
  static void SetHostUtilisation(const HostState& h, const Histogram& all, HostUsage& u) {
    if (h.pushed) {
      u.avg_util_pct = h.pushed_avg;
      u.p95_util_pct = h.pushed_p95;
      u.gpus_busy = std::min(h.pushed_busy, u.gpus);
    } else if (h.tick_util.count() > 0) {
      u.avg_util_pct = h.tick_util.Mean();
      u.p95_util_pct = h.tick_util.Percentile(0.95);
      u.gpus_busy = BusyGpusP99(h.busy_hist);
    } else if (all.count() > 0) {
      double sum = 0;
      for (const GpuUsage& g : u.gpu_usage) sum += g.avg_util_pct.value_or(0);
      u.avg_util_pct = sum / u.gpus;
      u.p95_util_pct = all.Percentile(0.95);
      u.gpus_busy = u.gpus;
    }
  }

  // The host's usage figures (no type, price, verdict yet); closes its trackers and sorts its
  // GPUs by index.
  HostUsage SummarizeHost(HostState& h) {
    CloseTick(h);
    h.tracker.Finish();
    HostUsage u;
    u.host = h.host;
    u.samples = h.samples;
    u.first_s = h.first_t;
    u.last_s = h.last_t;
    u.gpus = static_cast<int>(h.gpus.size());
    std::sort(h.gpus.begin(), h.gpus.end(),
              [](const GpuState& a, const GpuState& b) { return a.index < b.index; });
    Histogram all;
    double gpu_idle_s = 0;
    for (GpuState& g : h.gpus) {
      GpuUsage gu = SummarizeGpu(g);
      gpu_idle_s += g.tracker.idle_s;
      all.Merge(g.util);
      if (u.gpu_name.empty()) u.gpu_name = g.name;
      if (gu.mem_used_max_mib) {
        u.mem_used_max_mib = std::max(u.mem_used_max_mib.value_or(0), *gu.mem_used_max_mib);
      }
      if (gu.mem_total_mib) u.mem_total_mib = gu.mem_total_mib;
      u.gpu_usage.push_back(std::move(gu));
    }
    u.hours_covered = h.tracker.covered_s / 3600;
    u.idle_hours = h.tracker.idle_s / 3600;
    if (h.tracker.covered_s > 0) u.idle_fraction = h.tracker.idle_s / h.tracker.covered_s;
    u.idle_periods = h.tracker.periods;
    u.idle_period_count = h.tracker.count;
    u.longest_idle_hours = h.tracker.longest_s / 3600;
    u.gpu_idle_hours = std::max(0.0, gpu_idle_s - u.gpus * h.tracker.idle_s) / 3600;
    SetHostUtilisation(h, all, u);
    return u;
  }

  // Instance type from the inventory entry `inv` (may be null); sets u.region and u.purchase.
  const InstanceType* InventoryType(const InventoryEntry& inv, HostUsage& u,
                                    std::vector<std::string>& warnings) const {
    const InstanceType* type = catalog->FindInstanceType(inv.instance_type);
    if (!inv.region.empty()) u.region = inv.region;
    if (inv.purchase) u.purchase = *inv.purchase;
    if (!inv.from.empty()) u.type_note = inv.from;
    if (type != nullptr && type->accelerator.devices() != u.gpus) {
      warnings.push_back(u.host + ": the inventory says " + type->name + " (" +
                         std::to_string(type->accelerator.devices()) +
                         " GPUs) but the telemetry shows " + std::to_string(u.gpus));
    }
    return type;
  }

  // Without an inventory entry: the cheapest type with the host's GPU model and count (else at
  // least that count); sets u.type_guessed and u.type_note.
  const InstanceType* GuessHostType(HostUsage& u) const {
    const GpuSpec* spec = MatchGpu(u.gpu_name);
    if (spec == nullptr) {
      u.type_note = u.gpu_name.empty() ? "no GPU name in the telemetry; name the type in an "
                                         "inventory"
                                       : "GPU \"" + u.gpu_name +
                                             "\" is not in the catalog; name the type in an "
                                             "inventory";
      return nullptr;
    }
    const InstanceType* type = GuessType(*spec, u.gpus, u.region, u.purchase, true);
    if (type == nullptr) type = GuessType(*spec, u.gpus, u.region, u.purchase, false);
    u.type_guessed = type != nullptr;
    u.type_note = type != nullptr
                      ? "guessed from " + std::to_string(u.gpus) + "x " + u.gpu_name +
                            ": the cheapest type with that GPU and count; name it in an "
                            "inventory"
                      : "no priced type with " + std::to_string(u.gpus) + "x " + spec->model +
                            " in " + u.region;
    return type;
  }

  // Sets u.instance_type and u.price for `type` (null: unknown), warning when either is missing.
  void PriceHost(const InstanceType* type, HostUsage& u, std::vector<std::string>& warnings) const {
    if (type == nullptr) {
      warnings.push_back(u.host + ": instance type unknown (" + u.type_note + ")");
      return;
    }
    u.instance_type = type->name;
    u.price = PriceOf(*type, u.region, u.purchase);
    if (!u.price) {
      warnings.push_back(u.host + ": no " + PurchaseKindName(u.purchase) + " price for " +
                         type->name + " in " + u.region + "; the money wasted is unknown");
    }
  }

  // Dollars spent while idle: the whole host's idle hours, plus single GPUs idling while the
  // host worked at a per-GPU share of the price.
  static std::optional<Money> Wasted(const HostUsage& u, const InstanceType* type) {
    const std::optional<Money> price = u.price_per_hour();
    if (!price || !u.idle_fraction) return std::nullopt;
    const double per_gpu_hours = u.gpu_idle_hours / std::max(1, type->accelerator.devices());
    return *price * (u.idle_hours + per_gpu_hours);
  }

  void WarnInventoryWithoutTelemetry(const std::vector<InventoryEntry>& inventory,
                                     std::vector<std::string>& warnings) const {
    for (const InventoryEntry& e : inventory) {
      if (host_index.count(e.host) == 0) {
        bool found = false;
        for (const HostState& h : hosts) found |= Lower(h.host) == Lower(e.host);
        if (!found) warnings.push_back("inventory host " + e.host + " has no telemetry");
      }
    }
  }

  // By currency (amounts in two currencies have no order without a rate), then largest
  // monthly saving first, then most money wasted, then by name.
  static void SortHosts(std::vector<HostUsage>& hosts) {
    std::stable_sort(hosts.begin(), hosts.end(), [](const HostUsage& a, const HostUsage& b) {
      if (a.currency() != b.currency()) return a.currency() < b.currency();
      const double sa = SavingAmount(a.recommendation);
      const double sb = SavingAmount(b.recommendation);
      if (sa != sb) return sa > sb;
      const double wa = a.wasted ? a.wasted->amount : 0, wb = b.wasted ? b.wasted->amount : 0;
      if (wa != wb) return wa > wb;
      return a.host < b.host;
    });
  }

  Result<IdleReport> Finish(const std::vector<InventoryEntry>& inventory) {
    GPUADVISOR_RETURN_IF_ERROR(CheckIdleOptions(o));
    GPUADVISOR_RETURN_IF_ERROR(ValidateOptions());
    if (samples == 0) return Status::NoResult("no GPU samples in the telemetry");
    IdleReport rep;
    rep.options = o;
    rep.files = files;
    std::unordered_map<std::string, const InventoryEntry*> inv;
    for (const InventoryEntry& e : inventory) inv[Lower(e.host)] = &e;
    for (HostState& h : hosts) {
      HostUsage u = SummarizeHost(h);
      u.region = o.region;
      u.purchase = o.purchase;
      // Instance type: the inventory, else a guess from the GPU model and count.
      auto it = inv.find(Lower(h.host));
      const InstanceType* type =
          it != inv.end() ? InventoryType(*it->second, u, rep.warnings) : GuessHostType(u);
      PriceHost(type, u, rep.warnings);
      SetDataStatus(u);
      u.wasted = Wasted(u, type);
      rep.total_wasted.Add(u.wasted);
      Recommend(u, type);
      rep.total_savings_per_month.Add(u.recommendation.savings_per_month);
      rep.hours_covered = std::max(rep.hours_covered, u.hours_covered);
      rep.hosts.push_back(std::move(u));
    }
    WarnInventoryWithoutTelemetry(inventory, rep.warnings);
    rep.week_profile = WeekProfileOf(rep.hosts);
    SortHosts(rep.hosts);
    return rep;
  }

  // The profile in the option's zone, else the zone every host's region has (Asia/Shanghai for a
  // fleet in AWS China), else UTC. Null when nothing was covered, or when hosts came from a
  // push-down whose caller passed no hourly coverage (the profile would be all idle).
  std::optional<WeekProfile> WeekProfileOf(const std::vector<HostUsage>& hs) const {
    if (week.empty() || (pushed_hosts && !pushed_coverage)) return std::nullopt;
    // The zone each host's schedule is read in (ScheduleZone: the option's, else its region's).
    std::optional<TimeZone> shared;
    bool mixed = false;
    for (const HostUsage& u : hs) {
      const TimeZone z = ScheduleZone(u);
      if (!shared) {
        shared = z;
      } else if (shared->offset_minutes != z.offset_minutes) {
        mixed = true;
      }
    }
    if (!shared || mixed) shared = RegionTimeZone("");
    WeekProfile p = week.Profile(*shared);
    p.basis = !o.timezone.empty() ? "option" : mixed ? "mixed-regions" : "regions";
    return p;
  }

  Status AddCoverage(double hour_start_s, double covered_s) {
    const std::string where = (origin.empty() ? "telemetry" : origin) + " (coverage): ";
    GPUADVISOR_RETURN_IF_ERROR(
        CheckRange(hour_start_s, kMinTimeS, kMaxTimeS, "timestamp", "a time in 2000-2099", where));
    // A batch's hosts, each at most the hour.
    GPUADVISOR_RETURN_IF_ERROR(CheckRange(covered_s, 0, 3600.0 * static_cast<double>(o.max_hosts),
                                          "covered", "0 to an hour per host, in s", where));
    pushed_coverage = true;
    week.AddCoveredHour(hour_start_s, covered_s);
    return Status::OK();
  }
};

IdleAnalyzer::IdleAnalyzer(std::shared_ptr<const Catalog> catalog, IdleOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->catalog = std::move(catalog);
  impl_->o = std::move(options);
}

IdleAnalyzer::~IdleAnalyzer() = default;

void IdleAnalyzer::set_origin(std::string origin) { impl_->origin = std::move(origin); }

template <>
struct EnumNames<DataStatus> {
  static constexpr EnumName<DataStatus> kTable[] = {
      {DataStatus::kOk, "ok"},
      {DataStatus::kCollectMore, "collect-more"},
      {DataStatus::kInsufficientData, "insufficient-data"}};
};

const char* DataStatusName(DataStatus s) { return NameOf(s); }

Status IdleAnalyzer::Add(const TelemetrySample& s) { return impl_->Add(s); }

Status IdleAnalyzer::AddAggregate(const GpuAggregate& g) { return impl_->AddAggregate(g); }

Status IdleAnalyzer::AddAggregate(const HostAggregate& h) { return impl_->AddAggregate(h); }

Status IdleAnalyzer::AddCoverage(double hour_start_s, double covered_s) {
  return impl_->AddCoverage(hour_start_s, covered_s);
}

Status IdleAnalyzer::AddFile(const std::string& path, const TelemetryOptions& options) {
  impl_->origin = path;
  Result<TelemetryFileInfo> info =
      ReadTelemetryFile(path, options, [this](const TelemetrySample& s) { return impl_->Add(s); });
  if (!info.ok()) return info.status();
  impl_->files.push_back(*info);
  return Status::OK();
}

Result<IdleReport> IdleAnalyzer::Finish(const std::vector<InventoryEntry>& inventory) {
  return impl_->Finish(inventory);
}

Result<IdleReport> AnalyzeIdle(std::shared_ptr<const Catalog> catalog,
                               const std::vector<std::string>& paths,
                               const TelemetryOptions& telemetry, const IdleOptions& options,
                               const std::vector<InventoryEntry>& inventory) {
  GPUADVISOR_RETURN_IF_ERROR(CheckIdleOptions(options));  // before reading any file
  IdleAnalyzer a(std::move(catalog), options);
  for (const std::string& p : paths) GPUADVISOR_RETURN_IF_ERROR(a.AddFile(p, telemetry));
  return a.Finish(inventory);
}

namespace {

Result<std::vector<InventoryEntry>> ReadInventoryCsv(const Catalog& catalog, std::string_view text,
                                                     const std::string& origin) {
  CsvReader r(text, origin);
  std::vector<std::string> row;
  if (!r.Next(&row)) {
    if (!r.status().ok()) return r.status();
    return Status::ParseError(origin + ": empty (expected hostname,instance_type,region,purchase)");
  }
  std::vector<std::string> names;
  names.reserve(row.size());
  for (const std::string& h : row) names.push_back(ToLower(Trim(h)));
  CsvHeader header(names);
  GPUADVISOR_RETURN_IF_ERROR(header.Require({"hostname", "instance_type"}, r.Where()));
  const int hc = header.Find("hostname"), tc = header.Find("instance_type");
  const int rc = header.Find("region"), pc = header.Find("purchase");
  std::vector<InventoryEntry> out;
  while (r.Next(&row)) {
    if (row.size() == 1 && Trim(row[0]).empty()) continue;
    if (row.size() != names.size()) {
      return Status::ParseError(r.Where() + ": expected " + std::to_string(names.size()) +
                                " fields as in the header, got " + std::to_string(row.size()));
    }
    InventoryEntry e;
    e.line = r.line();
    e.host = std::string(Trim(row[static_cast<size_t>(hc)]));
    e.instance_type = ToLower(Trim(row[static_cast<size_t>(tc)]));
    if (rc >= 0) e.region = std::string(Trim(row[static_cast<size_t>(rc)]));
    std::string_view purchase = pc >= 0 ? Trim(row[static_cast<size_t>(pc)]) : "";
    if (e.host.empty()) return Status::ParseError(r.Where() + ": hostname: expected a host name");
    Result<const InstanceType*> t = ResolveInstanceType(catalog, e.instance_type);
    if (!t.ok()) return Status::ParseError(r.Where() + ": " + t.status().message());
    if (!e.region.empty()) {
      Status st = CheckRegion(catalog, e.region, "region");
      if (!st.ok()) return Status::ParseError(r.Where() + ": " + st.message());
    }
    if (!purchase.empty()) {
      Result<PurchaseKind> p = ParsePurchaseKind(purchase, "purchase", AllPurchaseKinds());
      if (!p.ok()) return Status::ParseError(r.Where() + ": " + p.status().message());
      e.purchase = *p;
    }
    out.push_back(std::move(e));
  }
  if (!r.status().ok()) return r.status();
  return out;
}

}  // namespace

Result<std::vector<InventoryEntry>> ParseInventoryCsv(const Catalog& catalog, std::string_view text,
                                                      const std::string& origin) {
  Result<std::vector<InventoryEntry>> entries = ReadInventoryCsv(catalog, text, origin);
  if (!entries.ok()) return entries.status().WithField("inventory");
  return entries;
}

}  // namespace gpuadvisor
