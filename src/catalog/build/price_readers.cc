#include <algorithm>
#include <cmath>

#include "catalog/build/sources.h"
#include "catalog/record_checks.h"
#include "util/csv.h"
#include "util/dates.h"
#include "util/numbers.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor::build {
namespace {

Result<CsvHeader> ReadHeader(CsvReader& reader, std::string_view origin,
                             const std::vector<std::string>& required) {
  std::vector<std::string> row;
  if (!reader.Next(&row)) {
    if (!reader.status().ok()) return reader.status();
    return Status::ParseError(std::string(origin) + ":1: empty file, expected a header row");
  }
  for (std::string& h : row) h = std::string(Trim(h));
  CsvHeader header(row);
  GPUADVISOR_RETURN_IF_ERROR(header.Require(required, std::string(origin) + ":1"));
  return header;
}

}  // namespace

PriceCsvColumns InCurrency(PriceCsvColumns cols, Currency c) {
  for (std::string* name : {&cols.on_demand, &cols.spot, &cols.reserved_1y_no_upfront}) {
    *name = MoneyKey(*name, c);
  }
  cols.currency = c;
  return cols;
}

Result<std::vector<PriceRecord>> ReadPriceCsv(std::string_view csv, std::string_view origin,
                                              const PriceCsvColumns& cols) {
  CsvReader reader(csv, std::string(origin));
  std::vector<std::string> required = {cols.instance_type, cols.region};
  for (const std::string* c : {&cols.az_id, &cols.on_demand, &cols.spot,
                               &cols.reserved_1y_no_upfront, &cols.currency_column, &cols.date}) {
    if (!c->empty()) required.push_back(*c);
  }
  Result<CsvHeader> header = ReadHeader(reader, origin, required);
  if (!header.ok()) return header.status();
  auto col = [&](const std::string& name) { return name.empty() ? -1 : header->Find(name); };
  const int type_col = col(cols.instance_type), region_col = col(cols.region),
            az_col = col(cols.az_id), currency_col = col(cols.currency_column),
            date_col = col(cols.date);
  const char* const code = CurrencyCode(cols.currency);
  const std::pair<int, PriceRecord::Kind> price_cols[] = {
      {col(cols.on_demand), PriceRecord::kOnDemand},
      {col(cols.spot), PriceRecord::kSpot},
      {col(cols.reserved_1y_no_upfront), PriceRecord::kReserved1yNoUpfront}};
  std::vector<PriceRecord> out;
  std::vector<std::string> row;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;  // blank line
    if (row.size() < required.size()) {
      return Status::ParseError(reader.Where() + ": expected " + std::to_string(required.size()) +
                                " or more columns, got " + std::to_string(row.size()));
    }
    auto at = [&](int c) -> std::string_view {
      return c >= 0 && static_cast<size_t>(c) < row.size() ? Trim(row[c]) : std::string_view();
    };
    if (currency_col >= 0 && at(currency_col) != code) {
      return Status::ParseError(reader.Where() + ": column \"" + cols.currency_column +
                                "\": expected " + code + ", got \"" +
                                std::string(at(currency_col)) + "\"");
    }
    const std::string_view region = at(region_col);
    if (const Partition& p = PartitionOf(region); p.currency != cols.currency) {
      return Status::ParseError(reader.Where() + ": a " + code + " price for " +
                                std::string(region) + ", whose partition (" + p.id +
                                ") prices in " + CurrencyCode(p.currency) + "; expected rows of " +
                                code + " regions only");
    }
    if (date_col >= 0 && !ParseIsoDate(at(date_col))) {
      return Status::ParseError(reader.Where() + ": column \"" + cols.date +
                                "\": expected a date YYYY-MM-DD, got \"" +
                                std::string(at(date_col)) + "\"");
    }
    for (const auto& [c, kind] : price_cols) {
      if (c < 0 || at(c).empty()) continue;
      const std::string& name = kind == PriceRecord::kOnDemand ? cols.on_demand
                                : kind == PriceRecord::kSpot   ? cols.spot
                                                               : cols.reserved_1y_no_upfront;
      Result<double> v = ParseDouble(at(c), "column \"" + name + "\"");
      if (!v.ok() || CheckPrice(*v) == PriceCheck::kBad) {
        std::string message = reader.Where();
        message += ": column \"" + name + "\": expected ";
        if (v.ok()) {
          message += PriceWanted(*v);
        } else {
          message += "a price in USD per hour from $0 to $";
          message += std::to_string(static_cast<int>(kMaxUsdPerHour));
          message += ", got \"";
          message += at(c);
          message += '"';
        }
        return Status::ParseError(message);
      }
      if (*v == 0) continue;  // $0: no price (record_checks.h), as an empty cell
      if (at(type_col).empty()) {
        return Status::ParseError(reader.Where() + ": column \"" + cols.instance_type +
                                  "\": expected a non-empty instance type");
      }
      out.push_back({std::string(at(type_col)), std::string(region), std::string(at(az_col)), kind,
                     *v, std::string(at(date_col))});
    }
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

Result<std::vector<ReservedTermRecord>> ReadVantageTermsCsv(std::string_view csv,
                                                            std::string_view origin,
                                                            Currency currency) {
  const std::string price_col = MoneyKey("usd_per_hour_linux", currency);
  CsvReader reader(csv, std::string(origin));
  Result<CsvHeader> header =
      ReadHeader(reader, origin, {"instance_type", "region", "vantage_term_key", price_col});
  if (!header.ok()) return header.status();
  const int type_col = header->Find("instance_type"), region_col = header->Find("region"),
            key_col = header->Find("vantage_term_key"), price = header->Find(price_col);
  const size_t need = static_cast<size_t>(std::max({type_col, region_col, key_col, price})) + 1;
  const char* const code = CurrencyCode(currency);
  std::vector<ReservedTermRecord> out;
  std::vector<std::string> row;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;  // blank line
    if (row.size() < need) {
      return Status::ParseError(reader.Where() + ": expected " + std::to_string(need) +
                                " or more columns, got " + std::to_string(row.size()));
    }
    auto at = [&](int c) { return std::string(Trim(row[static_cast<size_t>(c)])); };
    const std::string key = at(key_col);
    if (key == "ondemand") continue;
    // yrTerm<years><Class>.<payment>
    const size_t dot = key.find('.');
    const std::string head = key.substr(0, dot);
    const std::string pay = dot == std::string::npos ? "" : key.substr(dot + 1);
    ReservedTermRecord rec;
    ReservedPrice& t = rec.term;
    bool known =
        head.size() > 7 && StartsWith(head, "yrTerm") && (head[6] == '1' || head[6] == '3');
    const std::string cls = known ? head.substr(7) : "";
    known = known && (cls == "Standard" || cls == "Convertible" || cls == "Savings") &&
            (pay == "noUpfront" || pay == "partialUpfront" || pay == "allUpfront");
    if (!known) {
      return Status::ParseError(reader.Where() +
                                ": column \"vantage_term_key\": expected "
                                "ondemand or yrTerm{1,3}{Standard,Convertible,Savings}."
                                "{noUpfront,partialUpfront,allUpfront}, got \"" +
                                key + "\"");
    }
    if (cls == "Savings" || pay == "partialUpfront") continue;
    const std::string_view region = Trim(row[static_cast<size_t>(region_col)]);
    if (const Partition& p = PartitionOf(region); p.currency != currency) {
      return Status::ParseError(reader.Where() + ": a " + code + " price for " +
                                std::string(region) + ", whose partition (" + p.id +
                                ") prices in " + CurrencyCode(p.currency) + "; expected rows of " +
                                code + " regions only");
    }
    Result<double> v = ParseDouble(at(price), "column \"" + price_col + "\"");
    if (!v.ok() || CheckPrice(*v) != PriceCheck::kOk) {
      return Status::ParseError(
          reader.Where() + ": column \"" + price_col + "\": expected " +
          (v.ok() ? PriceWanted(*v) : "a price per hour, got \"" + at(price) + "\""));
    }
    if (at(type_col).empty()) {
      return Status::ParseError(reader.Where() +
                                ": column \"instance_type\": expected a non-empty instance type");
    }
    t.years = head[6] - '0';
    t.offering_class = cls == "Standard" ? "standard" : "convertible";
    if (pay == "noUpfront") {
      t.payment = "no-upfront";
      t.usd_per_hour = *v;
    } else {
      t.payment = "all-upfront";
      t.upfront_usd = std::round(*v * t.years * 8760.0 * 100) / 100;  // to the fen/cent
    }
    rec.instance_type = at(type_col);
    rec.region = std::string(region);
    out.push_back(std::move(rec));
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

namespace {

// One rate per row from `rate_col`; dated by `date_col` (ISO timestamp or date), or "" (the
// source's date) when the file has none.
Result<std::vector<CapacityBlockRate>> ReadBlockRates(std::string_view csv, std::string_view origin,
                                                      const char* rate_col, const char* unit,
                                                      const char* date_col) {
  CsvReader reader(csv, std::string(origin));
  std::vector<std::string> required = {"instance_type", "region", rate_col};
  if (date_col != nullptr) required.emplace_back(date_col);
  Result<CsvHeader> header = ReadHeader(reader, origin, required);
  if (!header.ok()) return header.status();
  const int type_col = header->Find("instance_type"), region_col = header->Find("region"),
            rate = header->Find(rate_col), date = date_col != nullptr ? header->Find(date_col) : -1,
            acc_col = header->Find("accelerator_type"),
            count_col = header->Find("accelerator_count"),
            per_acc_col =
                date_col != nullptr ? header->Find("capacity_block_usd_per_accelerator_hour") : -1;
  const size_t need = static_cast<size_t>(std::max({type_col, region_col, rate, date})) + 1;
  std::vector<CapacityBlockRate> out;
  std::vector<std::string> row;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;  // blank line
    if (row.size() < need) {
      return Status::ParseError(reader.Where() + ": expected " + std::to_string(need) +
                                " or more columns, got " + std::to_string(row.size()));
    }
    const std::string_view cell = Trim(row[static_cast<size_t>(rate)]);
    if (cell.empty()) continue;
    Result<double> v = ParseDouble(cell, rate_col);
    if (!v.ok() || *v < 0) {
      return Status::ParseError(reader.Where() + ": column \"" + rate_col +
                                "\": expected a non-negative price in USD per " + unit +
                                ", got \"" + std::string(cell) + "\"");
    }
    std::string day;
    if (date >= 0) {
      const std::string_view stamp = Trim(row[static_cast<size_t>(date)]);
      day = std::string(stamp.substr(0, 10));
      if (day.size() != 10 || day[4] != '-' || day[7] != '-') {
        return Status::ParseError(reader.Where() + ": column \"" + date_col +
                                  "\": expected an ISO date or timestamp, got \"" +
                                  std::string(stamp) + "\"");
      }
    }
    CapacityBlockRate out_row{std::string(Trim(row[static_cast<size_t>(type_col)])),
                              std::string(Trim(row[static_cast<size_t>(region_col)])), day, *v};
    auto cell_of = [&](int c) {
      return c >= 0 && static_cast<size_t>(c) < row.size() ? Trim(row[static_cast<size_t>(c)])
                                                           : std::string_view();
    };
    out_row.accelerator = std::string(cell_of(acc_col));
    if (const std::string_view n = cell_of(count_col); !n.empty()) {
      Result<double> count = ParseDouble(n, "accelerator_count");
      if (!count.ok() || *count < 0 || *count > 4096 || *count != std::floor(*count)) {
        return Status::ParseError(reader.Where() +
                                  ": column \"accelerator_count\": expected a whole number of "
                                  "accelerators, got \"" +
                                  std::string(n) + "\"");
      }
      out_row.accelerator_count = static_cast<int>(*count);
    }
    if (const std::string_view a = cell_of(per_acc_col); !a.empty()) {
      Result<double> per = ParseDouble(a, "capacity_block_usd_per_accelerator_hour");
      if (per.ok() && *per >= 0) out_row.per_accelerator = *per;
    }
    out.push_back(std::move(out_row));
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

}  // namespace

Result<std::vector<CapacityBlockRate>> ReadCapacityBlockCsv(std::string_view csv,
                                                            std::string_view origin) {
  return ReadBlockRates(csv, origin, "capacity_block_usd_per_hour_instance", "instance-hour",
                        "last_updated");
}

Result<std::vector<CapacityBlockRate>> ReadCapacityBlockPerAcceleratorCsv(std::string_view csv,
                                                                          std::string_view origin) {
  return ReadBlockRates(csv, origin, "capacity_block_usd_per_accelerator_hour_rounded",
                        "accelerator-hour", nullptr);
}

Result<std::vector<SpotAdvice>> ReadSpotAdvisorJson(std::string_view text,
                                                    std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  RjReader r{std::string(origin)};
  const rapidjson::Value& root = doc;
  struct Range {
    std::string label;
    double max = 0;
  };
  std::vector<Range> ranges;
  const rapidjson::Value& rj = r.Array(root, "ranges", "$");
  for (rapidjson::SizeType i = 0; i < rj.Size(); ++i) {
    std::string p = "$.ranges[" + std::to_string(i) + "]";
    size_t index = static_cast<size_t>(r.Int(rj[i], "index", p));
    if (index >= 16) r.Fail(p + ".index", "an index below 16");
    if (!r.status().ok()) return r.status();
    if (ranges.size() <= index) ranges.resize(index + 1);
    ranges[index] = {r.Str(rj[i], "label", p), r.Num(rj[i], "max", p)};
  }
  std::vector<SpotAdvice> out;
  const rapidjson::Value* regions = r.OptObject(root, "spot_advisor", "$");
  if (!regions) r.Fail("$.spot_advisor", "an object keyed by region");
  if (!r.status().ok()) return r.status();
  for (auto reg = regions->MemberBegin(); reg != regions->MemberEnd(); ++reg) {
    const std::string region(reg->name.GetString(), reg->name.GetStringLength());
    std::string rp = "$.spot_advisor." + region;
    const rapidjson::Value* linux_types = r.OptObject(reg->value, "Linux", rp);
    if (!linux_types) continue;
    for (auto t = linux_types->MemberBegin(); t != linux_types->MemberEnd(); ++t) {
      const std::string type(t->name.GetString(), t->name.GetStringLength());
      std::string tp = rp + ".Linux." + type;
      SpotAdvice a;
      a.instance_type = type;
      a.region = region;
      const int64_t savings = r.Int(t->value, "s", tp);
      if (savings < -100 || savings > 100) {
        r.Fail(tp + ".s", "a savings percentage from -100 to 100");
      }
      a.savings_pct = static_cast<int>(savings);
      a.range_index = static_cast<int>(r.Int(t->value, "r", tp));
      if (a.range_index < 0 || static_cast<size_t>(a.range_index) >= ranges.size()) {
        r.Fail(tp + ".r", "an index into $.ranges");
      }
      if (!r.status().ok()) return r.status();
      a.label = ranges[a.range_index].label;
      a.max_pct = ranges[a.range_index].max;
      out.push_back(std::move(a));
    }
  }
  return out;
}

std::optional<Price> EstimatedSpot(const Price& on_demand, const SpotBand& band) {
  if (band.savings_pct < 0 || band.savings_pct >= 100) return std::nullopt;
  Price est;
  est.usd_per_hour = on_demand.usd_per_hour * (1.0 - band.savings_pct / 100.0);
  est.from = band.from;
  est.estimated = true;
  est.note = "on-demand (" + on_demand.from.source + ") x (1 - " +
             std::to_string(band.savings_pct) + "% spot-advisor savings)";
  return est;
}

Result<std::vector<Offering>> ReadOfferingsCsv(std::string_view csv, std::string_view origin) {
  CsvReader reader(csv, std::string(origin));
  Result<CsvHeader> header = ReadHeader(reader, origin, {"instance_type", "region"});
  if (!header.ok()) return header.status();
  int t = header->Find("instance_type"), g = header->Find("region"),
      az = header->Find("availability_zone_id");
  std::vector<Offering> out;
  std::vector<std::string> row;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;
    size_t need = static_cast<size_t>(std::max({t, g, az})) + 1;
    if (row.size() < need) {
      return Status::ParseError(reader.Where() + ": expected " + std::to_string(need) +
                                " columns, got " + std::to_string(row.size()));
    }
    if (std::string p = InstanceTypeNameProblem(row[t]); !p.empty()) {
      return Status::ParseError(reader.Where() + ": column \"instance_type\": expected " + p);
    }
    if (az >= 0 && !row[az].empty()) {
      if (std::string p = AzIdProblem(row[az]); !p.empty()) {
        return Status::ParseError(reader.Where() + ": column \"availability_zone_id\": expected " +
                                  p);
      }
    }
    out.push_back({row[t], row[g], az >= 0 ? row[az] : ""});
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

}  // namespace gpuadvisor::build
