// The hour-of-week profile of an idle analysis (IdleReport::week_profile): host-hours observed
// and host-hours inside idle stretches, by the hour of the week they fell in.
//
// Both are gathered fleet-wide while samples stream in, in UTC quarter hours of the week (672
// slots, Monday 00:00 UTC first; about 11 KB per analysis, whatever the number of hosts), and
// read out in one time zone when the report is made: quarter hours make every zone offset in use
// (whole, half and three-quarter hours) an exact shift.
#ifndef GPUADVISOR_IDLE_WEEK_PROFILE_H_
#define GPUADVISOR_IDLE_WEEK_PROFILE_H_

#include <array>

#include "gpuadvisor/idle.h"
#include "util/timezone.h"

namespace gpuadvisor::idle_internal {

class WeekSlots {
 public:
  static constexpr int kSlotsPerHour = 4;
  static constexpr int kSlots = 7 * 24 * kSlotsPerHour;
  static constexpr double kSlotS = 3600.0 / kSlotsPerHour;

  // [start_s, start_s + len_s) in Unix seconds, split at quarter hours.
  void AddCovered(double start_s, double len_s) { Spread(&covered_, start_s, len_s); }
  void AddIdle(double start_s, double len_s) { Spread(&idle_, start_s, len_s); }
  // `covered_s` of host time in the UTC hour starting at `hour_start_s`, when only the hour is
  // known (push-down): shared evenly by its quarters.
  void AddCoveredHour(double hour_start_s, double covered_s);
  bool empty() const { return total_covered_ <= 0; }

  // Read out in `zone` (its offset applied: local hour = UTC + offset).
  WeekProfile Profile(const TimeZone& zone) const;

 private:
  void Spread(std::array<double, kSlots>* a, double start_s, double len_s);
  std::array<double, kSlots> covered_{}, idle_{};
  double total_covered_ = 0;
};

}  // namespace gpuadvisor::idle_internal

#endif  // GPUADVISOR_IDLE_WEEK_PROFILE_H_
