#include "idle/week_profile.h"

#include <algorithm>
#include <cmath>

namespace gpuadvisor::idle_internal {
namespace {

// 1970-01-01 (Unix time 0) was a Thursday: Monday-first slots start 3 days in.
constexpr int64_t kEpochSlot = int64_t{3} * 24 * WeekSlots::kSlotsPerHour;

int Wrap(int64_t slot) {
  return static_cast<int>((slot % WeekSlots::kSlots + WeekSlots::kSlots) % WeekSlots::kSlots);
}
// The Monday-first slot of the Unix quarter hour `quarter`.
int SlotOf(int64_t quarter) { return Wrap(quarter + kEpochSlot); }

}  // namespace

void WeekSlots::Spread(std::array<double, kSlots>* a, double start_s, double len_s) {
  if (!(len_s > 0) || !std::isfinite(start_s) || !std::isfinite(len_s)) return;
  if (a == &covered_) total_covered_ += len_s;
  // Whole weeks add to every slot alike: the loop below then runs at most a week of slots.
  constexpr double kWeekS = kSlots * kSlotS;
  if (len_s >= kWeekS) {
    const double weeks = std::floor(len_s / kWeekS);
    for (double& v : *a) v += weeks * kSlotS;
    len_s -= weeks * kWeekS;
  }
  double t = start_s;
  const double end = start_s + len_s;
  while (t < end) {
    const auto q = static_cast<int64_t>(std::floor(t / kSlotS));
    const double next = static_cast<double>(q + 1) * kSlotS;
    const double piece = std::min(end, next) - t;
    (*a)[SlotOf(q)] += piece;
    t = next;
  }
}

void WeekSlots::AddCoveredHour(double hour_start_s, double covered_s) {
  if (!(covered_s > 0) || !std::isfinite(hour_start_s)) return;
  total_covered_ += covered_s;
  const auto q = static_cast<int64_t>(std::floor(hour_start_s / kSlotS));
  for (int i = 0; i < kSlotsPerHour; ++i) covered_[SlotOf(q + i)] += covered_s / kSlotsPerHour;
}

WeekProfile WeekSlots::Profile(const TimeZone& zone) const {
  WeekProfile p;
  p.timezone = zone.name;
  // A local slot is the UTC slot `shift` quarters before it; an offset that is no whole number
  // of quarters (none is in use) shares each UTC slot between the two local ones it overlaps.
  const double quarters = zone.offset_minutes / 15.0;
  const auto whole = static_cast<int64_t>(std::floor(quarters));
  const double frac = quarters - static_cast<double>(whole);
  for (int s = 0; s < kSlots; ++s) {
    const int hour_a = Wrap(s + whole) / kSlotsPerHour;
    const int hour_b = Wrap(s + whole + 1) / kSlotsPerHour;
    p.covered_hours[hour_a] += covered_[s] * (1 - frac) / 3600;
    p.idle_hours[hour_a] += idle_[s] * (1 - frac) / 3600;
    if (frac > 0) {
      p.covered_hours[hour_b] += covered_[s] * frac / 3600;
      p.idle_hours[hour_b] += idle_[s] * frac / 3600;
    }
  }
  // Push-down spreads an hour's coverage evenly over its quarters while idle stretches are
  // exact, so a zone that shifts by part of an hour could show idle over covered by a hair.
  for (int h = 0; h < 168; ++h) p.idle_hours[h] = std::min(p.idle_hours[h], p.covered_hours[h]);
  return p;
}

}  // namespace gpuadvisor::idle_internal
