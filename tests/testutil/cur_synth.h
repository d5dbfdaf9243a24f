// A synthetic AWS Cost and Usage Report (CUR 2.0 columns, as AWS documents them) for a mixed
// accelerator fleet, one line item per instance per hour as CUR writes them, with the account's
// Reserved Instances and a Savings Plan, taxes, other services and non-accelerated EC2 lines to
// read past, and quoted fields holding commas and quotes (resource tags). Deterministic.
//
//   p4d.24xlarge  us-east-1  2 on under a 2-instance RI (one stops an hour a week); weekday jobs of
//   1-4 more
//                            on demand; a two-week campaign of 6 more each quarter
//   g5.xlarge     us-west-2  a daily serving curve of 3-9 on demand; the first 2 under an EC2
//                            Instance Savings Plan; 2 more on spot at night
//   g6e.12xlarge  us-east-2  one week a month, 4 on demand
// Some instances start half an hour into their first hour (usage 0.5).
//
// Used by tests/bill/ (the brute-force check), tests/bill/cur_synth_main.cc (the push-down test
// and the throughput bench write it to files).
#ifndef GPUADVISOR_TESTS_TESTUTIL_CUR_SYNTH_H_
#define GPUADVISOR_TESTS_TESTUTIL_CUR_SYNTH_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace gpuadvisor::testing {

// What the generator wrote, for tests to check the reader against.
struct CurTruth {
  double ri_reserved_hours = 0, ri_used_hours = 0;
  double sp_committed = 0, sp_used = 0;
  double od_p4d_hours = 0, od_g5_hours = 0, od_g6e_hours = 0, spot_hours = 0;
  uint64_t lines = 0;
};

inline constexpr const char* kCurHeader =
    "bill_billing_period_start_date,line_item_usage_account_id,line_item_line_item_type,"
    "line_item_usage_start_date,line_item_usage_end_date,line_item_product_code,"
    "line_item_usage_type,line_item_operation,line_item_availability_zone,line_item_resource_id,"
    "line_item_usage_amount,line_item_currency_code,line_item_unblended_rate,"
    "line_item_unblended_cost,line_item_line_item_description,product_region_code,"
    "product_instance_type,pricing_term,pricing_unit,pricing_public_on_demand_rate,"
    "pricing_public_on_demand_cost,reservation_reservation_a_r_n,reservation_end_time,"
    "reservation_total_reserved_units,reservation_unused_quantity,"
    "reservation_amortized_upfront_fee_for_billing_period,reservation_effective_cost,"
    "savings_plan_savings_plan_a_r_n,savings_plan_end_time,savings_plan_offering_type,"
    "savings_plan_region,savings_plan_instance_type_family,savings_plan_total_commitment_to_date,"
    "savings_plan_used_commitment,savings_plan_savings_plan_rate,"
    "savings_plan_savings_plan_effective_cost,resource_tags\n";

// Public on-demand rates of the synthetic bill (per instance-hour).
inline constexpr double kP4dRate = 21.957642, kG5Rate = 1.006, kG6eRate = 10.493;
inline constexpr double kRiRate = 13.921094;  // the RI's effective hourly
inline constexpr double kSpRate = 0.684;      // the plan's rate for g5.xlarge
inline constexpr double kSpCommitment = 1.5;  // $/h

// Writes `days` days from 2025-12-01T00:00:00Z (Unix hour 490,152) in chunks to `out`.
inline CurTruth WriteSyntheticCur(int days, const std::function<void(const std::string&)>& out) {
  CurTruth t;
  uint64_t seed = 88172645463325252ull;
  auto rnd = [&seed]() {  // xorshift64, in [0, 1)
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return static_cast<double>(seed >> 11) / 9007199254740992.0;
  };
  const int64_t first_hour = 490152;  // 2025-12-01T00:00:00Z
  char ts[48], te[48], month_start[48];
  auto iso = [](int64_t hour, char* buf) {
    const int64_t z = hour / 24 + 719468;
    const int64_t era = z / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
    std::snprintf(buf, 48, "%04u-%02u-%02uT%02u:00:00Z", static_cast<unsigned>(y % 10000), m % 100,
                  d % 100, static_cast<unsigned>(hour % 24));
  };
  std::string buf = kCurHeader;
  char line[2048];
  auto usage = [&](const char* type, const char* ut, const char* region, const char* az, int id,
                   double amount, double od_rate, double cost, const char* term, const char* ri_arn,
                   const char* sp_arn, double sp_rate) {
    std::snprintf(
        line, sizeof line,
        "%s,123456789012,%s,%s,%s,AmazonEC2,%s,RunInstances,%s,i-%017x,%.6g,USD,%.6g,%.8g,"
        "\"%s per On Demand Linux %s Instance Hour\",%s,%s,%s,Hrs,%.6g,%.8g,%s,%s,,,,%.8g,%s,%s,"
        "%s,%s,%s,,,%.6g,%.8g,\"{\"\"user:team\"\":\"\"ml, research\"\"}\"\n",
        month_start,
        ri_arn[0]   ? "DiscountedUsage"
        : sp_arn[0] ? "SavingsPlanCoveredUsage"
                    : "Usage",
        ts, te, ut, az, id, amount, od_rate, cost, "$", type, region, type, term, od_rate,
        od_rate * amount, ri_arn, ri_arn[0] ? "2026-11-30T23:59:59.000Z" : "",
        ri_arn[0] ? kRiRate * amount : 0.0, sp_arn, sp_arn[0] ? "2027-06-30T23:59:59.000Z" : "",
        sp_arn[0] ? "EC2InstanceSavingsPlans" : "", sp_arn[0] ? "us-west-2" : "",
        sp_arn[0] ? "g5" : "", sp_rate, sp_rate * amount);
    buf += line;
    ++t.lines;
  };
  const char* kRi = "arn:aws:ec2:us-east-1:123456789012:reserved-instances/0a1b2c3d-ri";
  const char* kSp = "arn:aws:savingsplans::123456789012:savingsplan/5e6f-sp";
  double month_used = 0, month_hours = 0;
  int64_t month_first = first_hour;
  iso(first_hour, month_start);
  auto flush_month = [&](int64_t end_hour) {
    // One RIFee line per lease and month: 2 instances x the month's hours.
    char start[48];
    iso(month_first, start);
    const double reserved = 2 * month_hours;
    std::snprintf(line, sizeof line,
                  "%s,123456789012,RIFee,%s,%s,AmazonEC2,USE1-HeavyUsage:p4d.24xlarge,RunInstances,"
                  ",,%.6g,USD,%.6g,%.8g,\"USD 13.921 hourly fee per Linux p4d.24xlarge, 2 RIs\","
                  "us-east-1,p4d.24xlarge,Reserved,Hrs,,0,%s,2026-11-30T23:59:59.000Z,%.6g,%.6g,0,"
                  "0,,,,,,,,,,\n",
                  start, start, start, reserved, kRiRate, kRiRate * reserved, kRi, reserved,
                  reserved - month_used);
    buf += line;
    ++t.lines;
    t.ri_reserved_hours += reserved;
    t.ri_used_hours += month_used;
    month_used = month_hours = 0;
    month_first = end_hour;
  };
  int campaign_left = 0;
  for (int64_t h = first_hour; h < first_hour + 24 * days; ++h) {
    iso(h, ts);
    iso(h + 1, te);
    const int64_t day = h / 24;
    const int hour_of_day = static_cast<int>(h % 24);
    const int weekday = static_cast<int>((day + 3) % 7);  // 0 = Monday
    // A new month: the RIFee of the last one.
    if (std::string(ts).substr(8, 2) == "01" && hour_of_day == 0 && h != first_hour) {
      flush_month(h);
      iso(h, month_start);
    }
    month_hours += 1;
    // p4d: 2 under the RI, but one of them stops for maintenance on Sundays at 03:00 (the RI's
    // unused hour).
    const int reserved_running = weekday == 6 && hour_of_day == 3 ? 1 : 2;
    for (int i = 0; i < reserved_running; ++i) {
      usage("p4d.24xlarge", "USE1-BoxUsage:p4d.24xlarge", "us-east-1", "us-east-1a", i, 1, kP4dRate,
            0, "Reserved", kRi, "", 0);
      month_used += 1;
    }
    // Weekday training jobs, and a campaign each quarter.
    int jobs =
        weekday < 5 && hour_of_day >= 8 && hour_of_day < 20 ? 1 + static_cast<int>(rnd() * 4) : 0;
    if ((day - first_hour / 24) % 91 == 20 && hour_of_day == 0) campaign_left = 14 * 24;
    if (campaign_left > 0) {
      jobs += 6;
      --campaign_left;
    }
    for (int i = 0; i < jobs; ++i) {
      const double amount = (hour_of_day == 8 && i == 0) ? 0.5 : 1;
      usage("p4d.24xlarge", "USE1-BoxUsage:p4d.24xlarge", "us-east-1", "us-east-1b", 100 + i,
            amount, kP4dRate, kP4dRate * amount, "OnDemand", "", "", 0);
      t.od_p4d_hours += amount;
    }
    // g5 serving: a daily curve; the plan covers the first 2 while its dollars last.
    const int serving = 6 + static_cast<int>(std::lround(3 * std::sin((hour_of_day - 9) * 0.2618)));
    double sp_used = 0;
    for (int i = 0; i < serving; ++i) {
      if (sp_used + kSpRate <= kSpCommitment + 1e-9) {
        usage("g5.xlarge", "USW2-BoxUsage:g5.xlarge", "us-west-2", "us-west-2a", 200 + i, 1,
              kG5Rate, 0, "OnDemand", "", kSp, kSpRate);
        sp_used += kSpRate;
      } else {
        usage("g5.xlarge", "USW2-BoxUsage:g5.xlarge", "us-west-2", "us-west-2a", 200 + i, 1,
              kG5Rate, kG5Rate, "OnDemand", "", "", 0);
        t.od_g5_hours += 1;
      }
    }
    std::snprintf(line, sizeof line,
                  "%s,123456789012,SavingsPlanRecurringFee,%s,%s,ComputeSavingsPlans,"
                  "ComputeSP:1yrNoUpfront,,,,1,USD,%.6g,%.8g,\"1 year No Upfront EC2 Instance "
                  "Savings Plan\",,,,,,,,,,,,,%s,2027-06-30T23:59:59.000Z,"
                  "EC2InstanceSavingsPlans,us-west-2,g5,%.6g,%.6g,,,\n",
                  month_start, ts, te, kSpCommitment, kSpCommitment, kSp, kSpCommitment, sp_used);
    buf += line;
    ++t.lines;
    t.sp_committed += kSpCommitment;
    t.sp_used += sp_used;
    // Spot at night.
    if (hour_of_day < 6) {
      for (int i = 0; i < 2; ++i) {
        usage("g5.xlarge", "USW2-SpotUsage:g5.xlarge", "us-west-2", "us-west-2b", 300 + i, 1,
              kG5Rate, 0.41, "Spot", "", "", 0);
        t.spot_hours += 1;
      }
    }
    // g6e: the second week of each month.
    const int dom = std::atoi(std::string(ts).substr(8, 2).c_str());
    if (dom >= 8 && dom < 15) {
      for (int i = 0; i < 4; ++i) {
        usage("g6e.12xlarge", "USE2-BoxUsage:g6e.12xlarge", "us-east-2", "us-east-2a", 400 + i, 1,
              kG6eRate, kG6eRate, "OnDemand", "", "", 0);
        t.od_g6e_hours += 1;
      }
    }
    // Lines to read past: a CPU instance, S3, tax.
    std::snprintf(line, sizeof line,
                  "%s,123456789012,Usage,%s,%s,AmazonEC2,USE1-BoxUsage:m5.large,RunInstances,"
                  "us-east-1a,i-0000000000000aaaa,1,USD,0.096,0.096,\"m5.large\",us-east-1,"
                  "m5.large,OnDemand,Hrs,0.096,0.096,,,,,,,,,,,,,,,,\n"
                  "%s,123456789012,Usage,%s,%s,AmazonS3,USE1-TimedStorage-ByteHrs,StandardStorage,"
                  ",bucket-a,12.5,USD,0.023,0.2875,\"storage\",us-east-1,,OnDemand,GB-Mo,0.023,"
                  "0.2875,,,,,,,,,,,,,,,,\n",
                  month_start, ts, te, month_start, ts, te);
    buf += line;
    t.lines += 2;
    if (buf.size() > (1u << 20)) {
      out(buf);
      buf.clear();
    }
  }
  flush_month(first_hour + 24 * days);
  std::snprintf(
      line, sizeof line,
      "%s,123456789012,Tax,%s,%s,AmazonEC2,,,,,1,USD,,1234.5,\"Tax\",,,,,,,,,,,,,,,,,,,,,,\n",
      month_start, ts, te);
  buf += line;
  ++t.lines;
  out(buf);
  return t;
}

}  // namespace gpuadvisor::testing

#endif  // GPUADVISOR_TESTS_TESTUTIL_CUR_SYNTH_H_
