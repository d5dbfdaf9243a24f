// Fleet simulation against hand computation on tiny traces.
#include "gpuadvisor/simulate.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

// Four hourly steps: 10, 30, 30, 10 req/s; 10 req/s per instance at $2/h.
Trace Tiny() {
  Result<Trace> t = ParseTraceCsv(
      "timestamp,requests_per_s\n2026-07-01T00:00:00Z,10\n2026-07-01T01:00:00Z,30\n"
      "2026-07-01T02:00:00Z,30\n2026-07-01T03:00:00Z,10\n",
      "tiny.csv");
  EXPECT_TRUE(t.ok()) << t.status().message();
  return *t;
}

FleetCosts Costs() {
  FleetCosts c;
  c.instance_type = "test.xlarge";
  c.capacity_rps = 10;
  c.on_demand_per_hour = Money(2, Currency::kUsd);
  c.spot_per_hour = Money(0.5, Currency::kUsd);
  return c;
}

ScalingPolicy Instant() {
  ScalingPolicy p;
  p.target_utilization = 1;
  p.scale_out_cooldown_s = p.scale_in_cooldown_s = p.boot_s = 0;
  p.min_instances = 1;
  p.max_instances = 10;
  return p;
}

TEST(Simulate, InstantScalingFollowsTheLoad) {
  const Trace t = Tiny();
  EXPECT_EQ(t.step_s, 3600);
  EXPECT_EQ(t.Duration(), 4 * 3600);
  Result<SimResult> r = SimulateFleet(t, Costs(), Instant());
  ASSERT_TRUE(r.ok()) << r.status().message();
  // 1 + 3 + 3 + 1 instance-hours at $2.
  EXPECT_DOUBLE_EQ(r->instance_hours, 8);
  EXPECT_DOUBLE_EQ(r->cost.amount, 16);
  EXPECT_DOUBLE_EQ(r->violated_requests, 0);
  EXPECT_DOUBLE_EQ(r->requests, (10 + 30 + 30 + 10) * 3600.0);
  EXPECT_EQ(r->peak_instances, 3);
  ASSERT_EQ(r->steps.size(), 4u);
  EXPECT_EQ(r->steps[1].ready, 3);
  EXPECT_DOUBLE_EQ(r->steps[3].cost, 16);
}

TEST(Simulate, BootTimeCostsCapacityAndIsPaid) {
  ScalingPolicy p = Instant();
  p.boot_s = 3600;  // the two launched at 01:00 serve from 02:00
  Result<SimResult> r = SimulateFleet(Tiny(), Costs(), p);
  ASSERT_TRUE(r.ok());
  // Hour 1: 30 req/s against 10 ready: 20 x 3600 requests miss.
  EXPECT_DOUBLE_EQ(r->violated_requests, 72000);
  EXPECT_DOUBLE_EQ(r->violation_fraction, 72000 / (80 * 3600.0));
  EXPECT_DOUBLE_EQ(r->instance_hours, 8);  // booting instances are paid
  EXPECT_EQ(r->steps[1].ready, 1);
  EXPECT_EQ(r->steps[1].booting, 2);
}

TEST(Simulate, CooldownAndTargetUtilisation) {
  ScalingPolicy p = Instant();
  p.scale_in_cooldown_s = 7200;  // the scale-out at 01:00 blocks the scale-in at 03:00? no: 2 h
  Result<SimResult> r = SimulateFleet(Tiny(), Costs(), p);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->instance_hours, 8);  // 03:00 - 01:00 = 2 h: allowed
  p.scale_in_cooldown_s = 7201;
  r = SimulateFleet(Tiny(), Costs(), p);
  EXPECT_DOUBLE_EQ(r->instance_hours, 10);  // 1 + 3 + 3 + 3
  p = Instant();
  p.target_utilization = 0.5;  // 20 req/s wanted per 10: 2, 6, 6, 2
  r = SimulateFleet(Tiny(), Costs(), p);
  EXPECT_DOUBLE_EQ(r->instance_hours, 16);
  p.max_instances = 4;  // capped: 2, 4, 4, 2
  r = SimulateFleet(Tiny(), Costs(), p);
  EXPECT_DOUBLE_EQ(r->instance_hours, 12);
}

TEST(Simulate, SpotShareIsPricedAtSpot) {
  ScalingPolicy p = Instant();
  p.spot_share = 1;
  FleetCosts c = Costs();
  c.spot_interruptions_per_hour = 0;
  Result<SimResult> r = SimulateFleet(Tiny(), c, p);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->cost.amount, 8 * 0.5);
  EXPECT_DOUBLE_EQ(r->spot_instance_hours, 8);
  // Certain interruptions every step: capacity lost is relaunched by the autoscaler.
  c.spot_interruptions_per_hour = 1e6;
  r = SimulateFleet(Tiny(), c, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->interruptions, 8);
  EXPECT_DOUBLE_EQ(r->violated_requests, 0);  // boot 0: replaced at once
}

TEST(Simulate, SearchBeatsStaticPeakOnADiurnalTrace) {
  Result<Trace> t = DiurnalTrace(100, 10, 2, 300);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->points.size(), 576u);
  EXPECT_NEAR(t->Peak(), 100, 1e-9);
  ScalingPolicy p;
  p.boot_s = 600;
  PolicySearch s;
  Result<SimulationReport> r = SimulateAndSearch(*t, Costs(), p, s, true);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // Static peak: 10 instances x 48 h x $2.
  EXPECT_EQ(r->static_peak.peak_instances, 10);
  EXPECT_NEAR(r->static_peak.cost.amount, 960, 1e-6);
  EXPECT_DOUBLE_EQ(r->static_peak.violated_requests, 0);
  ASSERT_TRUE(r->best.has_value());
  EXPECT_DOUBLE_EQ(r->best->violated_requests, 0);
  EXPECT_LT(r->best->cost.amount, 0.8 * r->static_peak.cost.amount);
  EXPECT_GT(r->policies_searched, 100);
}

TEST(Simulate, BadInput) {
  EXPECT_EQ(ParseTraceCsv("t,r\n1,2\n", "x.csv").status().code(), StatusCode::kParseError);
  Result<Trace> bad = ParseTraceCsv("timestamp,requests_per_s\n0,1\n60,-3\n", "x.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("x.csv:3"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(ParseTraceCsv("timestamp,requests_per_s\n60,1\n0,1\n", "x.csv").ok());
  ScalingPolicy p = Instant();
  p.target_utilization = 0;
  EXPECT_EQ(SimulateFleet(Tiny(), Costs(), p).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(DiurnalTrace(10, 20, 1, 60).ok());
}

// Issue 16: rates, spans and fleets have bounds, so no figure overflows (a static fleet of
// 1e301 instances was cast to int and printed as 1).
TEST(Simulate, MagnitudesBeyondTheBoundsAreRefused) {
  Result<Trace> huge = ParseTraceCsv("timestamp,requests_per_s\n0,1\n60,1e300\n", "x.csv");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("x.csv:3: requests_per_s: expected a rate 0 to 1e9"),
            std::string::npos)
      << huge.status().message();
  Result<Trace> long_span = ParseTraceCsv("timestamp,requests_per_s\n0,1\n1e300,1\n", "x.csv");
  ASSERT_FALSE(long_span.ok());
  EXPECT_NE(long_span.status().message().find("x.csv:3: timestamp: the trace spans over 366"),
            std::string::npos);
  EXPECT_FALSE(DiurnalTrace(1e300, 1, 1, 60).ok());
  EXPECT_TRUE(DiurnalTrace(kMaxTraceRps, 1, 1, 3600).ok());
  FleetCosts tiny = Costs();
  tiny.capacity_rps = 1e-300;
  Result<SimulationReport> r = SimulateAndSearch(Tiny(), tiny, Instant(), {}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("capacity-rps: the trace's peak of 30 req/s needs over "
                                      "100000 instances"),
            std::string::npos)
      << r.status().message();
  ScalingPolicy slow = Instant();
  slow.boot_s = 1e300;
  EXPECT_NE(SimulateFleet(Tiny(), Costs(), slow).status().message().find("boot-time: 0 to 1d"),
            std::string::npos);
}

}  // namespace
}  // namespace gpuadvisor
