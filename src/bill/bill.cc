#include "gpuadvisor/bill.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

#include "gpuadvisor/catalog.h"
#include "util/byte_stream.h"
#include "util/csv.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {

const char* BillPurchaseName(BillPurchase p) {
  switch (p) {
    case BillPurchase::kOnDemand:
      return "on-demand";
    case BillPurchase::kReserved:
      return "reserved";
    case BillPurchase::kSavingsPlan:
      return "savings-plan";
    case BillPurchase::kSpot:
      return "spot";
  }
  return "on-demand";
}

double UsageSeries::total_hours() const {
  double sum = 0;
  for (double h : hours) sum += h;
  return sum;
}

std::vector<std::string> AcceleratorFamilies(const Catalog& catalog) {
  std::set<std::string> families;
  for (const InstanceType& t : catalog.instance_types()) families.insert(t.family);
  return {families.begin(), families.end()};
}

namespace {

// Legacy CUR's "lineItem/UsageStartDate" as CUR 2.0 spells it, "line_item_usage_start_date";
// "reservation/ReservationARN" -> "reservation_reservation_a_r_n". CUR 2.0 names are unchanged.
std::string SnakeColumn(std::string_view name) {
  std::string out;
  bool part_start = true;
  for (char c : Trim(name)) {
    if (c == '/') {
      out += '_';
      part_start = true;
      continue;
    }
    if (c >= 'A' && c <= 'Z') {
      if (!part_start) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
    part_start = false;
  }
  return out;
}

// Unix hours of "YYYY-MM-DD[T ]HH[:MM[:SS[.fff]]][Z]" (CUR's ISO 8601, Athena's and
// PostgreSQL's text of a timestamp); nullopt otherwise.
std::optional<int64_t> ParseHour(std::string_view text) {
  const std::optional<int64_t> day = ParseIsoDatePrefix(text);
  if (!day || text.size() < 13 || (text[10] != 'T' && text[10] != ' ')) return std::nullopt;
  const char h1 = text[11], h2 = text[12];
  if (h1 < '0' || h1 > '2' || h2 < '0' || h2 > '9') return std::nullopt;
  const int hour = (h1 - '0') * 10 + (h2 - '0');
  if (hour > 23) return std::nullopt;
  return *day * 24 + hour;
}

// The text between the first and second ':' of a usage type ("USE1-BoxUsage:p4d.24xlarge"),
// as SQL's split_part(x, ':', 2); and what comes before the first.
std::string_view UsageTypePart(std::string_view usage_type, int part) {
  const size_t colon = usage_type.find(':');
  if (part == 1) return usage_type.substr(0, colon);
  if (colon == std::string_view::npos) return {};
  std::string_view rest = usage_type.substr(colon + 1);
  return rest.substr(0, rest.find(':'));
}

std::string_view FamilyPart(std::string_view type) { return type.substr(0, type.find('.')); }

bool Contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

enum class RowKind { kUsage, kReservation, kSavingsPlan };

// The raw CUR columns read (CUR 2.0 names); -1 where a file lacks an optional one.
struct Columns {
  int type = -1, product = -1, usage_type = -1, start = -1, amount = -1;  // required
  int region = -1, public_cost = -1, cost = -1, currency = -1;
  int ri_arn = -1, ri_end = -1, ri_total = -1, ri_unused = -1, ri_upfront = -1;
  int sp_arn = -1, sp_end = -1, sp_offering = -1, sp_region = -1, sp_family = -1, sp_total = -1,
      sp_used = -1;
};

}  // namespace

struct BillReader::Impl {
  const Catalog& catalog;
  BillLimits limits;
  uint64_t cells = 0;
  std::set<std::string, std::less<>> families;
  BillUsage out;
  std::unordered_map<std::string, size_t> series_index;  // region \0 type \0 purchase
  std::map<std::string, HeldReservation, std::less<>> reservations;
  std::map<std::string, HeldSavingsPlan, std::less<>> plans;
  std::string key;  // reused

  Impl(const Catalog& c, BillLimits l) : catalog(c), limits(l) {
    for (std::string& f : AcceleratorFamilies(c)) families.insert(std::move(f));
  }

  Status Currency(std::string_view currency, std::string_view where) {
    if (currency.empty()) return Status::OK();
    if (out.currency.empty()) {
      out.currency = std::string(currency);
    } else if (out.currency != currency) {
      return Status::InvalidArgument(std::string(where) + ": a bill in " + TerminalSafe(currency) +
                                     " after one in " + out.currency +
                                     ": give the bills of one currency (one partition) at a time");
    }
    return Status::OK();
  }

  Status AddUsage(std::string_view region, std::string_view type, BillPurchase purchase,
                  int64_t hour, double hours, double public_cost, std::string_view where) {
    if (!catalog.FindInstanceType(type)) {
      if (out.unknown_types.size() < 100)
        out.unknown_types.insert(TerminalSafe(type.substr(0, 64)));
      out.unknown_type_hours += hours;
      return Status::OK();
    }
    key.assign(region);
    key += '\0';
    key += type;
    key += '\0';
    key += static_cast<char>('0' + static_cast<int>(purchase));
    auto it = series_index.find(key);
    if (it == series_index.end()) {
      if (out.series.size() >= limits.max_series) {
        return Status::InvalidArgument(std::string(where) + ": over " +
                                       std::to_string(limits.max_series) +
                                       " series (region, instance type, purchase option) in one "
                                       "bill: is the region column right?");
      }
      UsageSeries s;
      s.region = std::string(region);
      s.instance_type = std::string(type);
      s.purchase = purchase;
      s.first_hour = hour;
      out.series.push_back(std::move(s));
      it = series_index.emplace(key, out.series.size() - 1).first;
    }
    UsageSeries& s = out.series[it->second];
    if (s.hours.empty()) s.first_hour = hour;
    const int64_t first = std::min(s.first_hour, hour);
    const int64_t last = std::max(s.first_hour + static_cast<int64_t>(s.hours.size()) - 1, hour);
    const auto size = static_cast<uint64_t>(last - first + 1);
    if (size > s.hours.size()) {
      const uint64_t more = size - s.hours.size();
      if (cells + more > limits.max_cells) {
        return Status::InvalidArgument(
            std::string(where) + ": the bill spans more hours x series than " +
            std::to_string(limits.max_cells) +
            " hour cells (a few years of a large fleet): read it in parts (a year at a time)");
      }
      cells += more;
    }
    if (hour < s.first_hour) {
      s.hours.insert(s.hours.begin(), static_cast<size_t>(s.first_hour - hour), 0.0);
      s.first_hour = hour;
    }
    const auto at = static_cast<size_t>(hour - s.first_hour);
    if (at >= s.hours.size()) s.hours.resize(at + 1, 0.0);
    s.hours[at] += hours;
    s.public_on_demand_cost += public_cost;
    if (out.last_hour < out.first_hour) {
      out.first_hour = out.last_hour = hour;
    } else {
      out.first_hour = std::min(out.first_hour, hour);
      out.last_hour = std::max(out.last_hour, hour);
    }
    return Status::OK();
  }

  void AddReservation(std::string_view id, std::string_view region, std::string_view type,
                      std::string_view end, double reserved, double used, double cost) {
    auto it = reservations.find(id);
    if (it == reservations.end()) {
      HeldReservation r;
      r.id = std::string(id);
      r.region = std::string(region);
      r.instance_type = std::string(type);
      it = reservations.emplace(r.id, std::move(r)).first;
    }
    HeldReservation& r = it->second;
    if (end > r.end) r.end = std::string(end);
    r.reserved_hours += reserved;
    r.used_hours += used;
    r.cost += cost;
  }

  void AddPlan(std::string_view id, std::string_view offering, std::string_view region,
               std::string_view family, std::string_view end, double lines, double committed,
               double used, double cost) {
    auto it = plans.find(id);
    if (it == plans.end()) {
      HeldSavingsPlan p;
      p.id = std::string(id);
      p.offering = std::string(offering);
      p.region = std::string(region);
      p.family = std::string(family);
      it = plans.emplace(p.id, std::move(p)).first;
    }
    HeldSavingsPlan& p = it->second;
    if (end > p.end) p.end = std::string(end);
    p.hours += lines;
    p.committed += committed;
    p.used += used;
    p.cost += cost;
  }

  Status ReadCsv(ByteStream* in, const std::string& origin);
  Status ReadFocus(CsvReader& csv, const std::vector<std::string>& header,
                   const std::string& origin, const ByteStream& in);
  // FOCUS bills a Savings Plan's hours by its rows, not by a fee line: the span they cover.
  std::map<std::string, std::pair<int64_t, int64_t>, std::less<>> plan_span;
  Status ReadRaw(CsvReader& csv, const std::vector<std::string>& header, const std::string& origin,
                 const ByteStream& in);
  // Checked every few thousand rows: the input's decompressed bytes against max_bytes.
  Status CheckBytes(const ByteStream& in, const std::string& origin) const {
    if (static_cast<uint64_t>(in.position()) <= limits.max_bytes) return Status::OK();
    return Status::InvalidArgument(origin + ": over " + std::to_string(limits.max_bytes) +
                                   " bytes decompressed: the limit for one bill here");
  }
  Status ReadAggregate(CsvReader& csv, const std::vector<std::string>& header);
  Status Aggregate(const std::vector<std::string_view>& f, std::string_view where);
};

namespace {

// A number column: empty is 0 (CUR leaves columns of other line item types empty).
Status Number(std::string_view text, std::string_view column, std::string_view where,
              double* value) {
  text = Trim(text);
  if (text.empty()) {
    *value = 0;
    return Status::OK();
  }
  const char* begin = &text.front();  // a view of the CSV buffer, not a C string
  const char* end = begin + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, *value);
  if (ec != std::errc() || ptr != end || !std::isfinite(*value)) {
    return Status::ParseError(std::string(where) + ": column " + std::string(column) +
                              ": expected a number, got \"" + TerminalSafe(text.substr(0, 40)) +
                              "\"");
  }
  return Status::OK();
}

std::string_view Field(const CsvReader& csv, int column) {
  return column >= 0 && static_cast<size_t>(column) < csv.size() ? csv[column] : std::string_view();
}

}  // namespace

Status BillReader::Impl::ReadCsv(ByteStream* in, const std::string& origin) {
  CsvReader csv(in);
  std::vector<std::string> header;
  if (!csv.Next(&header)) {
    if (!csv.status().ok()) return csv.status();
    return Status::ParseError(origin + ": empty: expected a Cost and Usage Report CSV");
  }
  for (std::string& h : header) h = SnakeColumn(h);
  out.sources.push_back(origin);
  const bool focus = std::find(header.begin(), header.end(), "charge_category") != header.end() &&
                     std::find(header.begin(), header.end(), "charge_period_start") != header.end();
  Status st = !header.empty() && header[0] == "kind" ? ReadAggregate(csv, header)
              : focus                                ? ReadFocus(csv, header, origin, *in)
                                                     : ReadRaw(csv, header, origin, *in);
  out.bytes_read += static_cast<uint64_t>(in->position());
  GPUADVISOR_RETURN_IF_ERROR(st);
  if (!in->status().ok()) return in->status();
  return csv.status();
}

Status BillReader::Impl::ReadRaw(CsvReader& csv, const std::vector<std::string>& header,
                                 const std::string& origin, const ByteStream& in) {
  const CsvHeader h(header);
  Columns c;
  c.type = h.Find("line_item_line_item_type");
  c.product = h.Find("line_item_product_code");
  c.usage_type = h.Find("line_item_usage_type");
  c.start = h.Find("line_item_usage_start_date");
  c.amount = h.Find("line_item_usage_amount");
  if (c.type < 0 || c.product < 0 || c.usage_type < 0 || c.start < 0 || c.amount < 0) {
    GPUADVISOR_RETURN_IF_ERROR(h.Require(
        {"line_item_line_item_type", "line_item_product_code", "line_item_usage_type",
         "line_item_usage_start_date", "line_item_usage_amount"},
        origin + ":1 (a Cost and Usage Report, CUR 2.0 or legacy, or the push-down's result)"));
  }
  c.region = h.Find("product_region_code");
  if (c.region < 0) c.region = h.Find("product_region");
  c.public_cost = h.Find("pricing_public_on_demand_cost");
  c.cost = h.Find("line_item_unblended_cost");
  c.currency = h.Find("line_item_currency_code");
  c.ri_arn = h.Find("reservation_reservation_a_r_n");
  c.ri_end = h.Find("reservation_end_time");
  c.ri_total = h.Find("reservation_total_reserved_units");
  c.ri_unused = h.Find("reservation_unused_quantity");
  c.ri_upfront = h.Find("reservation_amortized_upfront_fee_for_billing_period");
  c.sp_arn = h.Find("savings_plan_savings_plan_a_r_n");
  c.sp_end = h.Find("savings_plan_end_time");
  c.sp_offering = h.Find("savings_plan_offering_type");
  c.sp_region = h.Find("savings_plan_region");
  c.sp_family = h.Find("savings_plan_instance_type_family");
  c.sp_total = h.Find("savings_plan_total_commitment_to_date");
  c.sp_used = h.Find("savings_plan_used_commitment");

  while (csv.Next()) {
    if ((++out.rows_read & 4095) == 0) GPUADVISOR_RETURN_IF_ERROR(CheckBytes(in, origin));
    const std::string_view type = Field(csv, c.type);
    RowKind kind;
    BillPurchase purchase = BillPurchase::kOnDemand;
    if (type == "Usage" || type == "DiscountedUsage" || type == "SavingsPlanCoveredUsage") {
      kind = RowKind::kUsage;
    } else if (type == "RIFee") {
      kind = RowKind::kReservation;
    } else if (type == "SavingsPlanRecurringFee") {
      kind = RowKind::kSavingsPlan;
    } else {
      continue;
    }
    const std::string_view usage_type = Field(csv, c.usage_type);
    const std::string_view itype = UsageTypePart(usage_type, 2);
    if (kind != RowKind::kSavingsPlan) {
      if (Field(csv, c.product) != "AmazonEC2") continue;
      if (families.find(FamilyPart(itype)) == families.end()) continue;
    }
    if (kind == RowKind::kUsage) {
      const std::string_view prefix = UsageTypePart(usage_type, 1);
      const bool spot = Contains(prefix, "SpotUsage");
      if (!spot && !Contains(prefix, "BoxUsage")) continue;
      purchase = type == "DiscountedUsage"           ? BillPurchase::kReserved
                 : type == "SavingsPlanCoveredUsage" ? BillPurchase::kSavingsPlan
                 : spot                              ? BillPurchase::kSpot
                                                     : BillPurchase::kOnDemand;
    }
    const std::string where = csv.Where();
    const std::optional<int64_t> hour = ParseHour(Field(csv, c.start));
    if (!hour) {
      return Status::ParseError(where +
                                ": column line_item_usage_start_date: expected an ISO "
                                "8601 time (2026-01-01T00:00:00Z), got \"" +
                                TerminalSafe(Field(csv, c.start).substr(0, 40)) + "\"");
    }
    GPUADVISOR_RETURN_IF_ERROR(Currency(Trim(Field(csv, c.currency)), where));
    double cost = 0;
    GPUADVISOR_RETURN_IF_ERROR(
        Number(Field(csv, c.cost), "line_item_unblended_cost", where, &cost));
    ++out.rows_used;
    if (kind == RowKind::kUsage) {
      double amount = 0, public_cost = 0;
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.amount), "line_item_usage_amount", where, &amount));
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.public_cost), "pricing_public_on_demand_cost", where, &public_cost));
      GPUADVISOR_RETURN_IF_ERROR(
          AddUsage(Field(csv, c.region), itype, purchase, *hour, amount, public_cost, where));
    } else if (kind == RowKind::kReservation) {
      double total = 0, unused = 0, upfront = 0;
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.ri_total), "reservation_total_reserved_units", where, &total));
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.ri_unused), "reservation_unused_quantity", where, &unused));
      GPUADVISOR_RETURN_IF_ERROR(Number(Field(csv, c.ri_upfront),
                                        "reservation_amortized_upfront_fee_for_billing_period",
                                        where, &upfront));
      AddReservation(Field(csv, c.ri_arn), Field(csv, c.region), itype, Field(csv, c.ri_end), total,
                     total - unused, cost + upfront);
    } else {
      double total = 0, used = 0;
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.sp_total), "savings_plan_total_commitment_to_date", where, &total));
      GPUADVISOR_RETURN_IF_ERROR(
          Number(Field(csv, c.sp_used), "savings_plan_used_commitment", where, &used));
      AddPlan(Field(csv, c.sp_arn), Field(csv, c.sp_offering), Field(csv, c.sp_region),
              Field(csv, c.sp_family), Field(csv, c.sp_end), 1, total, used, cost);
    }
  }
  return Status::OK();
}

// FOCUS 1.x with AWS's columns (Data Exports): ChargeCategory, ChargePeriodStart, ConsumedQuantity,
// RegionId, ListCost, EffectiveCost, BillingCurrency, PricingCategory, CommitmentDiscountId and
// CommitmentDiscountStatus from the specification, x_UsageType and x_ServiceCode from AWS's own.
// Usage rows are CUR's usage line items: the instance type is x_UsageType's, the purchase option
// the commitment's ARN (":reserved-instances/", ":savingsplan/"), else "Dynamic" pricing or a
// SpotUsage type for spot, else on demand. A commitment's unused part is a row of its own
// (CommitmentDiscountStatus "Unused"): unused RI hours (ConsumedQuantity) and unused plan dollars
// (EffectiveCost). FOCUS names no term end.
Status BillReader::Impl::ReadFocus(CsvReader& csv, const std::vector<std::string>& header,
                                   const std::string& origin, const ByteStream& in) {
  const CsvHeader h(header);
  GPUADVISOR_RETURN_IF_ERROR(h.Require(
      {"charge_category", "charge_period_start", "consumed_quantity", "x__usage_type"},
      origin + ":1 (a FOCUS export with AWS's columns: ChargeCategory, ChargePeriodStart, "
               "ConsumedQuantity, x_UsageType)"));
  const int category = h.Find("charge_category"), start = h.Find("charge_period_start"),
            quantity = h.Find("consumed_quantity"), usage_type = h.Find("x__usage_type"),
            service = h.Find("x__service_code"), region = h.Find("region_id"),
            list_cost = h.Find("list_cost"), effective = h.Find("effective_cost"),
            currency = h.Find("billing_currency"), pricing = h.Find("pricing_category"),
            id_col = h.Find("commitment_discount_id"),
            status_col = h.Find("commitment_discount_status");
  while (csv.Next()) {
    if ((++out.rows_read & 4095) == 0) GPUADVISOR_RETURN_IF_ERROR(CheckBytes(in, origin));
    if (Field(csv, category) != "Usage") continue;
    const std::string_view id = Field(csv, id_col);
    const bool plan = Contains(id, ":savingsplan/");
    const bool reservation = Contains(id, ":reserved-instances/");
    const bool unused = Field(csv, status_col) == "Unused";
    if (service >= 0 && Field(csv, service) != "AmazonEC2" && !(plan && unused)) continue;
    const std::string_view ut = Field(csv, usage_type);
    const std::string_view itype = UsageTypePart(ut, 2);
    if (!(plan && unused) && families.find(FamilyPart(itype)) == families.end()) continue;
    const std::string where = csv.Where();
    const std::optional<int64_t> hour = ParseHour(Field(csv, start));
    if (!hour) {
      return Status::ParseError(where +
                                ": column ChargePeriodStart: expected an ISO 8601 time, got \"" +
                                TerminalSafe(Field(csv, start).substr(0, 40)) + "\"");
    }
    GPUADVISOR_RETURN_IF_ERROR(Currency(Trim(Field(csv, currency)), where));
    double q = 0, listed = 0, cost = 0;
    GPUADVISOR_RETURN_IF_ERROR(Number(Field(csv, quantity), "ConsumedQuantity", where, &q));
    GPUADVISOR_RETURN_IF_ERROR(Number(Field(csv, list_cost), "ListCost", where, &listed));
    GPUADVISOR_RETURN_IF_ERROR(Number(Field(csv, effective), "EffectiveCost", where, &cost));
    ++out.rows_used;
    if (plan) {
      auto [it, added] = plan_span.try_emplace(std::string(id), *hour, *hour);
      it->second.first = std::min(it->second.first, *hour);
      it->second.second = std::max(it->second.second, *hour);
      AddPlan(id, "", "", "", "", 0, cost, unused ? 0 : cost, cost);
      if (unused) continue;
    } else if (reservation) {
      AddReservation(id, Field(csv, region), itype, "", q, unused ? 0 : q, cost);
      if (unused) continue;
    } else if (unused) {
      continue;
    }
    const std::string_view prefix = UsageTypePart(ut, 1);
    const bool spot = Contains(prefix, "SpotUsage") || Field(csv, pricing) == "Dynamic";
    if (!spot && !Contains(prefix, "BoxUsage")) continue;
    const BillPurchase purchase = reservation ? BillPurchase::kReserved
                                  : plan      ? BillPurchase::kSavingsPlan
                                  : spot      ? BillPurchase::kSpot
                                              : BillPurchase::kOnDemand;
    GPUADVISOR_RETURN_IF_ERROR(
        AddUsage(Field(csv, region), itype, purchase, *hour, q, listed, where));
  }
  return Status::OK();
}

Status BillReader::Impl::ReadAggregate(CsvReader& csv, const std::vector<std::string>& header) {
  constexpr size_t kColumns = std::size(kBillAggregateColumns);
  bool same = header.size() == kColumns;
  for (size_t i = 0; same && i < kColumns; ++i) same = header[i] == kBillAggregateColumns[i];
  if (!same) {
    std::string expected;
    for (const char* name : kBillAggregateColumns)
      expected += (expected.empty() ? "" : ",") + std::string(name);
    return Status::ParseError(csv.Where() + ": expected the push-down's columns " + expected);
  }
  while (csv.Next()) GPUADVISOR_RETURN_IF_ERROR(Aggregate(csv.fields(), csv.Where()));
  return Status::OK();
}

Status BillReader::Impl::Aggregate(const std::vector<std::string_view>& f, std::string_view where) {
  constexpr size_t kColumns = std::size(kBillAggregateColumns);
  if (f.size() != kColumns) {
    return Status::ParseError(std::string(where) + ": expected " + std::to_string(kColumns) +
                              " fields (the push-down's columns), got " + std::to_string(f.size()));
  }
  ++out.rows_read;
  double lines = 0, quantity = 0, used = 0, cost = 0;
  GPUADVISOR_RETURN_IF_ERROR(Number(f[8], "line_items", where, &lines));
  GPUADVISOR_RETURN_IF_ERROR(Number(f[9], "quantity", where, &quantity));
  GPUADVISOR_RETURN_IF_ERROR(Number(f[10], "used", where, &used));
  GPUADVISOR_RETURN_IF_ERROR(Number(f[11], "cost", where, &cost));
  GPUADVISOR_RETURN_IF_ERROR(Currency(Trim(f[7]), where));
  const std::string_view kind = f[0];
  if (kind == "usage") {
    const std::optional<int64_t> hour = ParseHour(f[1]);
    if (!hour) {
      return Status::ParseError(std::string(where) + ": column period: expected an hour " +
                                "(2026-01-01 00:00:00), got \"" + TerminalSafe(f[1].substr(0, 40)) +
                                "\"");
    }
    BillPurchase purchase;
    if (f[4] == "on-demand") {
      purchase = BillPurchase::kOnDemand;
    } else if (f[4] == "reserved") {
      purchase = BillPurchase::kReserved;
    } else if (f[4] == "savings-plan") {
      purchase = BillPurchase::kSavingsPlan;
    } else if (f[4] == "spot") {
      purchase = BillPurchase::kSpot;
    } else {
      return Status::ParseError(std::string(where) +
                                ": column purchase: expected on-demand, reserved, savings-plan or "
                                "spot, got \"" +
                                TerminalSafe(f[4].substr(0, 40)) + "\"");
    }
    GPUADVISOR_RETURN_IF_ERROR(AddUsage(f[2], f[3], purchase, *hour, quantity, used, where));
  } else if (kind == "reservation") {
    AddReservation(f[5], f[2], f[3], f[6], quantity, used, cost);
  } else if (kind == "savings-plan") {
    AddPlan(f[5], f[4], f[2], f[3], f[6], lines, quantity, used, cost);
  } else {
    return Status::ParseError(std::string(where) +
                              ": column kind: expected usage, reservation or savings-plan, got \"" +
                              TerminalSafe(kind.substr(0, 40)) + "\"");
  }
  ++out.rows_used;
  return Status::OK();
}

BillReader::BillReader(const Catalog& catalog, BillLimits limits)
    : impl_(std::make_unique<Impl>(catalog, limits)) {}
BillReader::~BillReader() = default;

Status BillReader::AddFile(const std::string& path) {
  Result<std::unique_ptr<ByteStream>> in = ByteStream::Open(path);
  if (!in.ok()) return in.status();
  return impl_->ReadCsv(in->get(), path);
}

Status BillReader::AddText(std::string_view text, const std::string& origin) {
  std::unique_ptr<ByteStream> in = ByteStream::FromMemory(text, origin);
  return impl_->ReadCsv(in.get(), origin);
}

Status BillReader::AddAggregateRow(const std::vector<std::string_view>& fields,
                                   std::string_view where) {
  return impl_->Aggregate(fields, where);
}

void BillReader::AddSource(std::string source) { impl_->out.sources.push_back(std::move(source)); }

Result<BillUsage> BillReader::Finish() {
  BillUsage out = std::move(impl_->out);
  for (auto& [id, r] : impl_->reservations) out.reservations.push_back(std::move(r));
  for (auto& [id, p] : impl_->plans) {
    if (auto span = impl_->plan_span.find(id); span != impl_->plan_span.end()) {
      p.hours = static_cast<double>(span->second.second - span->second.first + 1);
    }
    out.savings_plans.push_back(std::move(p));
  }
  if (out.series.empty() && out.reservations.empty() && out.savings_plans.empty()) {
    return Status::NoResult("no accelerator instance usage, Reserved Instance or Savings Plan in " +
                            std::to_string(out.rows_read) +
                            " line items read (usage of AmazonEC2 BoxUsage/SpotUsage of the "
                            "catalog's accelerator families, RIFee, SavingsPlanRecurringFee)");
  }
  std::sort(out.series.begin(), out.series.end(), [](const UsageSeries& a, const UsageSeries& b) {
    return std::tie(a.region, a.instance_type, a.purchase) <
           std::tie(b.region, b.instance_type, b.purchase);
  });
  impl_ = std::make_unique<Impl>(impl_->catalog, impl_->limits);
  return out;
}

namespace {

// Letters, digits and '_' (a family: '-' too; a table: one '.' between database and table).
bool PlainIdentifier(std::string_view s, bool allow_dot, bool allow_dash = false) {
  if (s.empty() || s.size() > 128) return false;
  int dots = 0;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || (allow_dash && c == '-') || (allow_dot && c == '.' && ++dots == 1);
    if (!ok) return false;
  }
  return s.front() != '.' && s.back() != '.';
}

}  // namespace

Result<std::string> CurPushdownSql(std::string_view table, const std::vector<std::string>& families,
                                   int64_t start_day, int64_t end_day) {
  if (!PlainIdentifier(table, true)) {
    return Status::InvalidArgument(
        "athena-table: expected a table name (letters, digits, '_', "
        "one '.' between database and table), got \"" +
        TerminalSafe(table.substr(0, 60)) + "\"");
  }
  std::string in_list;
  for (const std::string& f : families) {
    if (!PlainIdentifier(f, false, true)) {
      return Status::InvalidArgument("catalog family \"" + TerminalSafe(f.substr(0, 40)) +
                                     "\" is not a plain name: refused in SQL");
    }
    in_list += (in_list.empty() ? "'" : ", '") + f + "'";
  }
  if (in_list.empty()) in_list = "''";
  std::string range;
  if (start_day != 0 || end_day != 0) {
    range = "\n    AND line_item_usage_start_date >= TIMESTAMP '" + FormatIsoDate(start_day) +
            " 00:00:00'\n    AND line_item_usage_start_date < TIMESTAMP '" +
            FormatIsoDate(end_day) + " 00:00:00'";
  }
  // One pass over the table; the CASEs and split_parts are what BillReader's local reader does
  // line by line (bill.cc, ReadRaw), so both paths aggregate the same rows the same way.
  return "/* gpuadvisor: hourly accelerator usage and commitments from a CUR 2.0 table */\n"
         "WITH li AS (\n"
         "  SELECT line_item_line_item_type AS t,\n"
         "         split_part(line_item_usage_type, ':', 1) AS ut_prefix,\n"
         "         split_part(line_item_usage_type, ':', 2) AS itype,\n"
         "         line_item_usage_start_date AS start_time,\n"
         "         COALESCE(product_region_code, '') AS region,\n"
         "         COALESCE(line_item_currency_code, '') AS currency,\n"
         "         COALESCE(line_item_usage_amount, 0) AS amount,\n"
         "         COALESCE(pricing_public_on_demand_cost, 0) AS public_cost,\n"
         "         COALESCE(line_item_unblended_cost, 0) AS cost,\n"
         "         COALESCE(reservation_reservation_a_r_n, '') AS ri_arn,\n"
         "         COALESCE(reservation_end_time, '') AS ri_end,\n"
         "         COALESCE(reservation_total_reserved_units, 0) AS ri_total,\n"
         "         COALESCE(reservation_unused_quantity, 0) AS ri_unused,\n"
         "         COALESCE(reservation_amortized_upfront_fee_for_billing_period, 0) AS "
         "ri_upfront,\n"
         "         COALESCE(savings_plan_savings_plan_a_r_n, '') AS sp_arn,\n"
         "         COALESCE(savings_plan_end_time, '') AS sp_end,\n"
         "         COALESCE(savings_plan_offering_type, '') AS sp_offering,\n"
         "         COALESCE(savings_plan_region, '') AS sp_region,\n"
         "         COALESCE(savings_plan_instance_type_family, '') AS sp_family,\n"
         "         COALESCE(savings_plan_total_commitment_to_date, 0) AS sp_total,\n"
         "         COALESCE(savings_plan_used_commitment, 0) AS sp_used\n"
         "  FROM " +
         std::string(table) +
         "\n  WHERE (line_item_line_item_type = 'SavingsPlanRecurringFee'\n"
         "         OR (line_item_product_code = 'AmazonEC2'\n"
         "             AND line_item_line_item_type IN ('Usage', 'DiscountedUsage',\n"
         "                                              'SavingsPlanCoveredUsage', 'RIFee')\n"
         "             AND split_part(split_part(line_item_usage_type, ':', 2), '.', 1) IN (" +
         in_list + ")))" + range +
         "\n)\n"
         "SELECT 'usage' AS kind, CAST(date_trunc('hour', start_time) AS varchar) AS period,\n"
         "       region, itype AS instance_type,\n"
         "       CASE WHEN t = 'DiscountedUsage' THEN 'reserved'\n"
         "            WHEN t = 'SavingsPlanCoveredUsage' THEN 'savings-plan'\n"
         "            WHEN ut_prefix LIKE '%SpotUsage%' THEN 'spot'\n"
         "            ELSE 'on-demand' END AS purchase,\n"
         "       '' AS commitment_id, '' AS commitment_end, currency,\n"
         "       COUNT(*) AS line_items, SUM(amount) AS quantity, SUM(public_cost) AS used,\n"
         "       SUM(cost) AS cost\n"
         "FROM li\n"
         "WHERE t IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage')\n"
         "  AND (ut_prefix LIKE '%BoxUsage%' OR ut_prefix LIKE '%SpotUsage%')\n"
         "GROUP BY 1, 2, 3, 4, 5, 6, 7, 8\n"
         "UNION ALL\n"
         "SELECT 'reservation', CAST(date_trunc('month', start_time) AS varchar), region, itype,\n"
         "       '', ri_arn, ri_end, currency, COUNT(*), SUM(ri_total), SUM(ri_total - "
         "ri_unused),\n"
         "       SUM(cost + ri_upfront)\n"
         "FROM li WHERE t = 'RIFee'\n"
         "GROUP BY 1, 2, 3, 4, 5, 6, 7, 8\n"
         "UNION ALL\n"
         "SELECT 'savings-plan', CAST(date_trunc('month', start_time) AS varchar), sp_region,\n"
         "       sp_family, sp_offering, sp_arn, sp_end, currency, COUNT(*), SUM(sp_total),\n"
         "       SUM(sp_used), SUM(cost)\n"
         "FROM li WHERE t = 'SavingsPlanRecurringFee'\n"
         "GROUP BY 1, 2, 3, 4, 5, 6, 7, 8\n";
}

}  // namespace gpuadvisor
