// What the account ran on accelerator instances, hour by hour, and what its commitments did,
// from its bill: the AWS Cost and Usage Report (CUR 2.0 Data Exports, or legacy CUR, whose
// `lineItem/UsageType` headers name the same columns), read locally as CSV (gzip or not,
// streamed: memory does not grow with the file), or already aggregated by the push-down query
// (CurPushdownSql) that Amazon Athena, Trino or PostgreSQL runs over the CUR table
// (doc/commitments.md).
//
// The local reader and the SQL make the same aggregate rows, so both paths give one report:
//   kind "usage"        per hour, region, instance type, purchase (on-demand, reserved,
//                       savings-plan, spot): instance-hours used and their public on-demand cost
//                       (line items Usage, DiscountedUsage, SavingsPlanCoveredUsage of AmazonEC2
//                       whose usage type is ...BoxUsage:TYPE or ...SpotUsage:TYPE)
//   kind "reservation"  per month and Reserved Instance lease (RIFee): hours reserved, hours
//                       used, what it cost (recurring fee plus amortised upfront)
//   kind "savings-plan" per month and Savings Plan (SavingsPlanRecurringFee): dollars committed,
//                       dollars used, hours
// Only accelerator families the catalog knows count as usage (the SQL filters on the same list,
// so only those rows leave Athena); every Savings Plan counts, since a Compute plan covers any
// family. Rows of other kinds (Tax, Credit, other services) are read past.
//
// Errors: ParseError naming "file:line" and the column for a value that is not what the column
// holds (a number, a timestamp); ParseError naming the file for a header that is neither CUR
// nor the push-down's; InvalidArgument for a bill in two currencies.
#ifndef GPUADVISOR_BILL_H_
#define GPUADVISOR_BILL_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

class Catalog;

enum class BillPurchase { kOnDemand, kReserved, kSavingsPlan, kSpot };
// "on-demand", "reserved", "savings-plan", "spot".
const char* BillPurchaseName(BillPurchase p);

// Instance-hours of one instance type in one region under one purchase option, per hour.
struct UsageSeries {
  std::string region, instance_type;
  BillPurchase purchase = BillPurchase::kOnDemand;
  int64_t first_hour = 0;            // Unix hours (seconds / 3600) of hours[0]
  std::vector<double> hours;         // instance-hours in each hour from first_hour (0 where none)
  double public_on_demand_cost = 0;  // the bill's public on-demand cost of these hours
  double total_hours() const;
};

// A Reserved Instance lease, over the months of the bill.
struct HeldReservation {
  std::string id;  // the lease's ARN
  std::string region, instance_type, end;
  double reserved_hours = 0;  // instance-hours paid for
  double used_hours = 0;      // of them, used
  double cost = 0;            // recurring fees plus amortised upfront
};

// A Savings Plan, over the months of the bill.
struct HeldSavingsPlan {
  std::string id;        // the plan's ARN
  std::string offering;  // "ComputeSavingsPlans", "EC2InstanceSavingsPlans", ...
  std::string region;    // EC2 Instance plans
  std::string family;    // EC2 Instance plans: "p4d"
  std::string end;
  double hours = 0;      // hours billed
  double committed = 0;  // dollars committed over those hours
  double used = 0;       // of them, used by covered usage
  double cost = 0;
};

struct BillUsage {
  std::vector<UsageSeries> series;  // sorted by region, type, purchase
  std::vector<HeldReservation> reservations;
  std::vector<HeldSavingsPlan> savings_plans;
  std::string currency;                    // "USD", "CNY" ("" when no row said)
  int64_t first_hour = 0, last_hour = -1;  // the usage's range, Unix hours (inclusive)
  std::vector<std::string> sources;        // files read, or the Athena query's id
  uint64_t rows_read = 0;                  // line items (or aggregate rows) read
  uint64_t rows_used = 0;                  // of them, counted
  uint64_t bytes_read = 0;                 // decompressed
  // Usage of accelerator families' types the catalog does not know: not sized; the first 100
  // names, and their instance-hours.
  std::set<std::string> unknown_types;
  double unknown_type_hours = 0;
  int64_t hours() const { return last_hour >= first_hour ? last_hour - first_hour + 1 : 0; }
};

// The columns of the push-down's result, in order.
inline constexpr const char* kBillAggregateColumns[] = {
    "kind",           "period",   "region",     "instance_type", "purchase", "commitment_id",
    "commitment_end", "currency", "line_items", "quantity",      "used",     "cost"};

// The accelerator families of `catalog` ("p4d", "g5", "trn1", ...), sorted.
std::vector<std::string> AcceleratorFamilies(const Catalog& catalog);

// What one BillReader may hold: hour cells (one double per hour of each series, from its first
// hour to its last) and series. A bill is a few hundred series over a year or two (8,760 hours a
// year); a file naming more, or hours decades apart, is refused before memory follows it. The
// HTTP API lowers them (server/api.h).
struct BillLimits {
  uint64_t max_cells = 50'000'000;  // 400 MB of hour cells
  size_t max_series = 20'000;
  uint64_t max_bytes = UINT64_MAX;  // decompressed bytes per input (an upload's gzip bomb)
};

// Reads bills and aggregates them; call Add* for each input, then Finish().
class BillReader {
 public:
  explicit BillReader(const Catalog& catalog, BillLimits limits = {});
  ~BillReader();
  BillReader(const BillReader&) = delete;
  BillReader& operator=(const BillReader&) = delete;

  // A CUR CSV file (gzip or not; "-" = standard input) or a push-down result CSV, told apart by
  // the header.
  Status AddFile(const std::string& path);
  // The same, from text in memory named `origin` in errors.
  Status AddText(std::string_view text, const std::string& origin);
  // One row of the push-down's result, fields in kBillAggregateColumns order (an Athena
  // GetQueryResults row); `where` names it in errors.
  Status AddAggregateRow(const std::vector<std::string_view>& fields, std::string_view where);
  // Names a source in the report (an Athena query).
  void AddSource(std::string source);

  // NoResult when no accelerator usage and no commitment was read.
  Result<BillUsage> Finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The push-down query over a CUR 2.0 table `table` ("cur.cur2" or "cur2"; letters, digits,
// '_' and one '.'), with usage starting in [start_day, end_day) (days since 1970-01-01; both 0:
// every row). Its result's columns are kBillAggregateColumns. Written in the SQL that Athena
// (Trino) and PostgreSQL share. InvalidArgument for a table name that is not a plain
// identifier, or families that are not (the catalog's, which a file could replace).
Result<std::string> CurPushdownSql(std::string_view table, const std::vector<std::string>& families,
                                   int64_t start_day = 0, int64_t end_day = 0);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_BILL_H_
