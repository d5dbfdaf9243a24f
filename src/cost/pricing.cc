// PriceUsage: effective cost of each purchase option for a usage pattern.
#include <algorithm>
#include <cmath>
#include <string>

#include "gpuadvisor/cost.h"
#include "gpuadvisor/i18n.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

constexpr double kGp3Gbps = 1.0;  // one gp3 volume at its 1,000 MiB/s ceiling, GB/s
constexpr double kGiBInGB = 1.073741824;
constexpr double kWorstBandPct = 25;  // ">20%" per month: midpoint assumed

// Interruptions per instance per month (percent) at the middle of the spot-advisor band.
double BandMidpointPct(const SpotBand* band) {
  if (band == nullptr) return kWorstBandPct;
  static const double kMid[] = {2.5, 7.5, 12.5, 17.5, kWorstBandPct};
  return kMid[std::clamp(band->index, 0, 4)];
}

double StorageGbps(const InstanceType& t, const UsagePattern& u) {
  if (u.storage_gbyte_s > 0) return u.storage_gbyte_s;
  const double ebs = t.ebs_max_mbps ? *t.ebs_max_mbps / 8000.0 : kGp3Gbps;  // Mbit/s -> GB/s
  return std::min(ebs, kGp3Gbps);
}

Status ValidateUsage(const UsagePattern& u) {
  if (!(u.hours_per_month > 0 && u.hours_per_month <= kHoursPerMonth)) {
    return Status::InvalidArgument("hours-per-month: expected a number in (0, 730]")
        .WithField("hours-per-month");
  }
  if (!(u.months > 0 && u.months <= 600)) {
    return Status::InvalidArgument("months: expected a number in (0, 600]").WithField("months");
  }
  if (u.instances < 1 || u.instances > 100000) {
    return Status::InvalidArgument("count: expected 1 to 100000 instances").WithField("count");
  }
  // The spot model's inputs, bounded so every figure it forms stays finite and readable.
  if (!(u.checkpoint_interval_s >= 0 && u.checkpoint_interval_s <= 30 * 86400)) {
    return Status::InvalidArgument(
               "checkpoint-interval: expected 0 (the Young/Daly optimum) to 30d")
        .WithField("checkpoint-interval");
  }
  if (!(u.checkpoint_gib >= 0 && u.checkpoint_gib <= 1e6)) {
    return Status::InvalidArgument("checkpoint-gib: expected 0 to 1e6 GiB")
        .WithField("checkpoint-gib");
  }
  if (!(u.storage_gbyte_s == 0 || (u.storage_gbyte_s >= 0.001 && u.storage_gbyte_s <= 1000))) {
    return Status::InvalidArgument("storage-gbps: expected 0 (EBS) or 0.001 to 1000 GB/s")
        .WithField("storage-gbyte-s");
  }
  if (!(u.restart_s >= 0 && u.restart_s <= 7 * 86400)) {
    return Status::InvalidArgument("restart: expected 0 to 7d").WithField("restart");
  }
  return Status::OK();
}

double UsedInstanceHours(const UsagePattern& u) {
  return u.hours_per_month * u.months * u.instances;
}

// The partitions' names (partition.h), marked for translation: the notes show each as Tr(name).
[[maybe_unused]] constexpr const char* kPartitionNames[] = {N_("AWS"), N_("AWS China"),
                                                            N_("AWS GovCloud (US)")};

PurchaseOptionCost OnDemand(const RegionOffer& o, const UsagePattern& u) {
  PurchaseOptionCost c;
  c.option = "on-demand";
  if (!o.on_demand) return c;
  c.priced = true;
  c.usd_per_hour = o.on_demand->usd_per_hour;
  c.total_usd = *c.usd_per_hour * UsedInstanceHours(u);
  c.usd_per_used_hour = c.usd_per_hour;
  c.from = o.on_demand->from;
  return c;
}

PurchaseOptionCost Spot(const InstanceType& t, const RegionOffer& o, const UsagePattern& u) {
  PurchaseOptionCost c;
  c.option = "spot";
  if (!o.spot) return c;
  c.priced = true;
  c.usd_per_hour = o.spot->usd_per_hour;
  c.from = o.spot->from;
  c.estimated = o.spot->estimated;
  const SpotOverhead s = SpotInterruptionOverhead(t, o.spot_band ? &*o.spot_band : nullptr, u);
  c.spot = s;
  // Interruptions stretch the run: the same useful hours take (1 + overhead) paid hours.
  c.total_usd = *c.usd_per_hour * UsedInstanceHours(u) * (1 + s.overhead_fraction);
  c.usd_per_used_hour = *c.total_usd / UsedInstanceHours(u);
  c.suitable = u.interruptible;
  c.note = u.interruptible ? Tr("interruptions, checkpoints and restarts included")
                           : Tr("not suitable: the job was not declared interruptible "
                                "(--interruptible)");
  return c;
}

// A commitment of `term` months billed every hour of the term at `hourly` (plus `upfront`).
PurchaseOptionCost Commitment(const char* name, double term, const std::optional<Price>& hourly,
                              double upfront, const std::optional<Price>& on_demand,
                              const UsagePattern& u) {
  PurchaseOptionCost c;
  c.option = name;
  c.commitment = true;
  c.term_months = term;
  if (!hourly) {
    c.note = Tr("no price in the catalog for this option");
    return c;
  }
  c.priced = true;
  c.from = hourly->from;
  c.upfront_usd = upfront;
  c.usd_per_hour = hourly->usd_per_hour + upfront / (term * kHoursPerMonth);
  const double terms = std::ceil(u.months / term - 1e-9);
  c.total_usd = *c.usd_per_hour * term * kHoursPerMonth * terms * u.instances;
  c.usd_per_used_hour = *c.total_usd / UsedInstanceHours(u);
  if (on_demand && on_demand->usd_per_hour > 0) {
    c.break_even_utilization = *c.usd_per_hour / on_demand->usd_per_hour;
  }
  if (u.months < term * terms - 1e-9) {
    c.note = Trf("billed for the whole {0}-month term although the usage lasts less",
                 static_cast<int>(term));
  }
  return c;
}

// One Capacity Block covering the used hours of each instance, rounded up to a duration AWS
// sells, paid upfront at the catalog's instance-hour rate. Part-time use is assumed to be packed
// into consecutive days (a block runs around the clock whether used or not). A usage longer than
// the longest block is not chained into several blocks: only one can be booked today (cost.h),
// so the option is listed as not suitable for the horizon, with the longest block's fee and no
// total, never the cheapest; the commitments price the whole horizon instead.
PurchaseOptionCost CapacityBlock(const InstanceType& t, const RegionOffer& o, const UsagePattern& u,
                                 PricingResult* r) {
  PurchaseOptionCost c;
  c.option = "capacity-block";
  c.commitment = true;
  if (!o.capacity_block) {
    std::string where;
    for (const RegionOffer& other : t.regions) {
      if (other.capacity_block) where += (where.empty() ? "" : ", ") + other.region;
    }
    const Partition& part = PartitionOf(o.region);
    c.note = !part.capacity_blocks ? Trf("{0} sells no EC2 Capacity Blocks for ML", Tr(part.name))
             : !where.empty()      ? Trf("no Capacity Block offer for {0} in {1} (offered in {2})",
                                         t.name, o.region, where)
             : r->capacity_blocks
                 ? Trf("{0} is sold as Capacity Blocks but the catalog has no price for it", t.name)
                 : Trf("{0} is not sold as EC2 Capacity Blocks for ML", t.name);
    r->notes.push_back(Trf("{0}: {1}", Tr("capacity-block"), c.note));
    return c;
  }
  const double hours = u.hours_per_month * u.months;
  const int days = CapacityBlockDays(hours);
  c.priced = true;
  c.from = o.capacity_block->from;
  c.usd_per_hour = o.capacity_block->usd_per_hour;
  const std::string packed =
      u.hours_per_month < kHoursPerMonth
          ? Trf(" (the {0} used hours run back to back)", FormatFixed(hours, 0))
          : std::string();
  if (days > kCapacityBlockMaxDays) {
    const double longest_fee = *c.usd_per_hour * kCapacityBlockMaxDays * 24;
    c.suitable = false;
    c.term_months = kCapacityBlockMaxDays * 24 / kHoursPerMonth;
    c.upfront_usd = longest_fee;
    const int run_days = static_cast<int>(std::ceil(hours / 24 - 1e-9));
    c.note = Trf(
        "not available for this horizon: the usage runs {0} days{1}, but a Capacity Block lasts "
        "at most {2} days and must start within {3} weeks of booking, so blocks cannot be "
        "chained; the longest block (${4} per instance upfront) covers only the first {2} days; "
        "the whole horizon is compared on on-demand, reserved instances and savings plans",
        run_days, packed, kCapacityBlockMaxDays, kCapacityBlockMaxStartDays / 7,
        FormatFixed(longest_fee, 0));
    return c;
  }
  c.term_months = days * 24 / kHoursPerMonth;
  c.upfront_usd = *c.usd_per_hour * days * 24;
  c.total_usd = *c.upfront_usd * u.instances;
  c.usd_per_used_hour = *c.total_usd / UsedInstanceHours(u);
  r->capacity_block_days = days;
  c.note =
      Trf("{0}-day block{1} paid upfront (${2} per instance), booked to start within {3} "
          "weeks",
          days, packed, FormatFixed(*c.upfront_usd, 0), kCapacityBlockMaxStartDays / 7);
  // The offer the price was read from (`catalog update --aws`): when the capacity is there.
  if (!o.capacity_block->note.empty()) c.note += Tr("; ") + o.capacity_block->note;
  if (u.instances > kCapacityBlockMaxInstances) {
    c.suitable = false;
    c.note += Trf("; not suitable: a block holds 1 to {0} instances", kCapacityBlockMaxInstances);
  }
  return c;
}

PurchaseOptionCost Unpriced(const char* name, double term, const char* note) {
  PurchaseOptionCost c;
  c.option = name;
  c.commitment = true;
  c.term_months = term;
  c.note = note;
  return c;
}

}  // namespace

int CapacityBlockDays(double hours) {
  // A hair under a whole day (float noise in hours-per-month x months) stays that day.
  const int days = std::max(1, static_cast<int>(std::ceil(hours / 24 - 1e-9)));
  if (days <= kCapacityBlockDailyStepMaxDays) return days;
  return (days + 6) / 7 * 7;  // 7-day steps above 14 days: 15 days is a 21-day block
}

SpotOverhead SpotInterruptionOverhead(const InstanceType& t, const SpotBand* band,
                                      const UsagePattern& u) {
  SpotOverhead s;
  s.interruptions_per_month = BandMidpointPct(band) / 100;
  const double rate_per_s = s.interruptions_per_month / (kHoursPerMonth * 3600) * u.instances;
  const double mtbi_s = 1 / rate_per_s;
  s.mtbi_hours = mtbi_s / 3600;
  const double gbps = StorageGbps(t, u);
  s.checkpoint_write_s = u.checkpoint_gib * kGiBInGB / gbps;
  s.checkpoint_read_s = s.checkpoint_write_s;
  // Young/Daly; without checkpoints (size 0) there is nothing to write, so checkpoint often.
  s.optimal_interval_s = std::sqrt(2 * std::max(s.checkpoint_write_s, 1.0) * mtbi_s);
  s.interval_s = u.checkpoint_interval_s > 0 ? u.checkpoint_interval_s : s.optimal_interval_s;
  s.overhead_fraction = s.checkpoint_write_s / s.interval_s +
                        (s.interval_s / 2 + u.restart_s + s.checkpoint_read_s) / mtbi_s;
  s.restart_s = u.restart_s;
  return s;
}

double SpotDeadlineMissProbability(const SpotOverhead& s, double useful_hours,
                                   double deadline_hours) {
  const double base_h = useful_hours * (1 + s.checkpoint_write_s / std::max(1.0, s.interval_s));
  if (base_h > deadline_hours) return 1;
  if (!(s.mtbi_hours > 0) || std::isinf(s.mtbi_hours)) return 0;
  const double loss_s = s.interval_s / 2 + s.restart_s + s.checkpoint_read_s;
  // Interruptions the deadline absorbs, and those expected over the run.
  const double spare = std::floor((deadline_hours - base_h) * 3600 / std::max(1.0, loss_s));
  const double mean = base_h / s.mtbi_hours;
  if (spare > mean + 12 * std::sqrt(mean) + 30) return 0;  // far in the tail
  if (mean > 500) {  // a normal approximation where exp(-mean) underflows
    return 0.5 * std::erfc((spare + 0.5 - mean) / std::sqrt(2 * mean));
  }
  double term = std::exp(-mean), cdf = term;  // P(N <= spare), Poisson
  for (int k = 1; k <= static_cast<int>(spare); ++k) {
    term *= mean / k;
    cdf += term;
  }
  return std::clamp(1 - cdf, 0.0, 1.0);
}

Result<PricingResult> PriceUsage(const InstanceType& t, const std::string& region,
                                 const UsagePattern& u) {
  GPUADVISOR_RETURN_IF_ERROR(ValidateUsage(u));
  const RegionOffer* o = t.FindRegion(region);
  if (o == nullptr) {
    return Status::NotFound(t.name + " has no catalog entry in " + region).WithField("region");
  }
  PricingResult r;
  r.instance_type = t.name;
  r.region = region;
  r.usage = u;
  r.options.push_back(OnDemand(*o, u));
  r.options.push_back(Spot(t, *o, u));
  r.options.push_back(
      Commitment("reserved-1y-no-upfront", 12, o->reserved_1y_no_upfront, 0, o->on_demand, u));
  r.capacity_blocks = t.HasUsageClass("capacity-block");
  r.options.push_back(CapacityBlock(t, *o, u, &r));
  const bool block_priced = r.options.back().priced;
  if (t.ultraserver()) {
    // An UltraServer has no other purchase option: the unpriced ones below say "not in the
    // catalog", this says why.
    r.notes.push_back(Trf(
        "{0} is one whole UltraServer ({1} {2} GPUs), sold only as a Capacity Block: there is no "
        "on-demand, spot, reserved or savings-plan price, and `instances` counts whole "
        "UltraServers",
        t.name, t.accelerator.count, t.accelerator.aws_name));
  }
  const char* kNoSource =
      Tr("not in the catalog (no public source); import an AWS price list "
         "with `catalog import` to price it");
  // Standard RI terms and no-upfront savings plans, where an imported price list has them.
  auto reserved = [&](const char* name, int years, const char* payment) {
    const ReservedPrice* p = o->FindReserved(years, "standard", payment);
    if (!p) return Unpriced(name, years * 12, kNoSource);
    return Commitment(name, years * 12, Price{p->usd_per_hour, p->from, false, ""}, p->upfront_usd,
                      o->on_demand, u);
  };
  auto plan = [&](const char* name, const char* kind, int years) {
    for (const SavingsPlanRate& s : o->savings_plans) {
      if (s.plan == kind && s.years == years && s.payment == "no-upfront") {
        return Commitment(name, years * 12, Price{s.usd_per_hour, s.from, false, ""}, 0,
                          o->on_demand, u);
      }
    }
    return Unpriced(name, years * 12, kNoSource);
  };
  r.options.push_back(reserved("reserved-1y-partial-upfront", 1, "partial-upfront"));
  r.options.push_back(reserved("reserved-1y-all-upfront", 1, "all-upfront"));
  r.options.push_back(reserved("reserved-3y-no-upfront", 3, "no-upfront"));
  r.options.push_back(reserved("reserved-3y-partial-upfront", 3, "partial-upfront"));
  r.options.push_back(reserved("reserved-3y-all-upfront", 3, "all-upfront"));
  r.options.push_back(plan("savings-plan-compute-1y", "compute", 1));
  r.options.push_back(plan("savings-plan-ec2-instance-1y", "ec2-instance", 1));
  r.options.push_back(plan("savings-plan-compute-3y", "compute", 3));
  r.options.push_back(plan("savings-plan-ec2-instance-3y", "ec2-instance", 3));
  if (block_priced) {
    r.notes.push_back(Trf("{0}: {1}", Tr("capacity-block"),
                          Tr("one block per job, booked to start within 8 weeks, for 1-14 days "
                             "or 3-26 weeks (at most 182 days), paid upfront; blocks are never "
                             "chained, a longer usage is compared on the other options; the "
                             "catalog's rate is the published one, the real price is quoted at "
                             "purchase (describe-capacity-block-offerings)")));
  }
  // A year or more is where commitments pay: say so when the catalog prices none for this type
  // and region, rather than let on-demand look like the answer.
  const bool commitment_priced = std::any_of(r.options.begin(), r.options.end(), [](const auto& c) {
    return c.priced && c.commitment && c.option != "capacity-block";
  });
  if (u.months >= 12 - 1e-9 && !commitment_priced && !t.ultraserver()) {
    r.notes.push_back(
        Trf("no reserved instance or savings plan is priced in the catalog for {0} in {1}, though "
            "over {2} months one would likely cost less than on-demand; import the AWS price list "
            "(`catalog update --aws`, or `catalog import`) before committing",
            t.name, region, FormatFixed(u.months, 0)));
  }
  for (size_t i = 0; i < r.options.size(); ++i) {
    const PurchaseOptionCost& c = r.options[i];
    if (!c.priced || !c.suitable || !c.total_usd) continue;
    if (r.cheapest < 0 || *c.total_usd < *r.options[r.cheapest].total_usd) {
      r.cheapest = static_cast<int>(i);
    }
  }
  return r;
}

}  // namespace gpuadvisor
