// The AWS Price List bulk CSV files (EC2 offer file, Savings Plans rate file), streamed.
#include <charconv>
#include <cmath>

#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "util/csv.h"
#include "util/dates.h"

namespace gpuadvisor::import {
namespace {

constexpr int kMaxMetadataLines = 20;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Reads the metadata key/value lines and the header (the first record starting with `first`).
// Leaves *header holding the column names.
Status ReadPreamble(CsvReader& csv, std::string_view first, std::string* version,
                    std::string* published, std::vector<std::string>* header) {
  for (int i = 0; i < kMaxMetadataLines; ++i) {
    if (!csv.Next()) {
      if (!csv.status().ok()) return csv.status();
      return Status::ParseError(csv.Where() + ": expected a header row starting with \"" +
                                std::string(first) + "\", got the end of the file");
    }
    if (csv[0] == first) {
      header->assign(csv.fields().begin(), csv.fields().end());
      return Status::OK();
    }
    if (csv.size() == 2) {
      if (csv[0] == "Version") *version = std::string(csv[1]);
      if (csv[0] == "Publication Date") {
        // The date every figure of the file is recorded with: refuse one that does not parse
        // rather than sort prices by garbage.
        if (!IsIsoTimestamp(csv[1])) {
          csv.Fail(R"("Publication Date": expected an ISO 8601 timestamp, got ")" +
                   std::string(csv[1]) + "\"");
          return csv.status();
        }
        *published = std::string(csv[1].substr(0, 10));
      }
    }
  }
  csv.Fail("expected a header row starting with \"" + std::string(first) + "\" within the first " +
           std::to_string(kMaxMetadataLines) + " lines");
  return csv.status();
}

class Columns {
 public:
  Columns(const std::vector<std::string>& header, CsvReader* csv) : header_(header), csv_(csv) {}
  // Index of a required column; records a ParseError naming it when absent.
  int Need(std::string_view name) {
    int i = Find(name);
    if (i < 0 && status_.ok()) {
      status_ = Status::ParseError(csv_->Where() + ": missing column \"" + std::string(name) +
                                   "\" in the header");
    }
    return i;
  }
  int Find(std::string_view name) const {
    for (size_t i = 0; i < header_.size(); ++i) {
      if (header_[i] == name) return static_cast<int>(i);
    }
    return -1;
  }
  const Status& status() const { return status_; }

 private:
  const std::vector<std::string>& header_;
  CsvReader* csv_;
  Status status_;
};

// Parses a price cell and applies the shared policy (catalog/record_checks.h): false (and a
// ParseError on the line) for a non-number, a negative figure or one above `cap`; true with *out
// = 0 for $0, which the caller skips and counts.
bool ParsePrice(CsvReader& csv, std::string_view column, std::string_view s, double cap,
                double* out) {
  const char* begin = s.begin();
  const char* end = s.end();
  auto [p, ec] = std::from_chars(begin, end, *out);
  if (ec != std::errc() || p != end || s.empty()) {
    csv.Fail("column \"" + std::string(column) + "\": expected a number, got \"" + std::string(s) +
             "\"");
    return false;
  }
  if (CheckPrice(*out, cap) == PriceCheck::kBad) {
    csv.Fail("column \"" + std::string(column) + "\": " + ExpectedPrice(*out, cap));
    return false;
  }
  return true;
}

}  // namespace

bool InRegionCurrency(std::string_view currency, std::string_view region) {
  return currency == CurrencyCode(PartitionOf(region).currency);
}

int PaymentIndex(std::string_view o) {
  if (o == "No Upfront") return 0;
  if (o == "Partial Upfront") return 1;
  if (o == "All Upfront") return 2;
  return -1;
}

Status ReadPriceListCsv(ByteStream* in, const TypeFilter& keep, PriceListData* out) {
  CsvReader csv(in);
  std::vector<std::string> header;
  GPUADVISOR_RETURN_IF_ERROR(
      ReadPreamble(csv, "SKU", &out->version, &out->publication_date, &header));
  Columns cols(header, &csv);
  const int term_type = cols.Need("TermType"), unit = cols.Need("Unit"),
            price = cols.Need("PricePerUnit"), currency = cols.Need("Currency"),
            lease = cols.Need("LeaseContractLength"), purchase = cols.Need("PurchaseOption"),
            offering_class = cols.Need("OfferingClass"), family = cols.Need("Product Family"),
            type_col = cols.Need("Instance Type"), tenancy = cols.Need("Tenancy"),
            os = cols.Need("Operating System"), capacity = cols.Need("CapacityStatus"),
            sw = cols.Need("Pre Installed S/W"), region_col = cols.Need("Region Code");
  const int license = cols.Find("License Model"), operation = cols.Find("operation"),
            market = cols.Find("MarketOption");
  GPUADVISOR_RETURN_IF_ERROR(cols.status());
  const size_t width = header.size();
  std::string key;
  while (csv.Next()) {
    if (csv.size() != width) {
      if (csv.size() == 1 && csv[0].empty()) continue;  // blank line
      csv.Fail("expected " + std::to_string(width) + " fields as in the header, got " +
               std::to_string(csv.size()));
      break;
    }
    ++out->rows;
    const std::string_view tt = csv[term_type];
    const bool on_demand = tt == "OnDemand";
    if ((!on_demand && tt != "Reserved") || csv[os] != "Linux" || csv[tenancy] != "Shared" ||
        csv[capacity] != "Used" || csv[sw] != "NA" ||
        !StartsWith(csv[family], "Compute Instance")) {
      continue;
    }
    if (license >= 0 && !csv[license].empty() && csv[license] != "No License required") continue;
    if (operation >= 0 && csv[operation] != "RunInstances") continue;
    if (market >= 0 && !csv[market].empty() && csv[market] != "OnDemand") continue;
    const std::string_view type = csv[type_col];
    if (type.empty() || csv[region_col].empty()) {
      ++out->skipped[kSkipNoTypeOrRegion];
      continue;
    }
    if (!keep(type)) continue;
    if (!InRegionCurrency(csv[currency], csv[region_col])) {
      ++out->skipped[kSkipCurrency];
      continue;
    }
    const std::string_view u = csv[unit];
    const bool upfront = !on_demand && u == "Quantity";
    if (!(u == "Hrs" || upfront)) continue;
    double usd = 0;
    if (!ParsePrice(csv, "PricePerUnit", csv[price], upfront ? kMaxUpfrontUsd : kMaxUsdPerHour,
                    &usd)) {
      break;
    }
    key.assign(type);
    key += '\t';
    key += csv[region_col];
    if (on_demand) {
      if (usd == 0) {
        ++out->skipped[kSkipZeroPrice];
        continue;
      }
      out->entries[key].on_demand = usd;
      ++out->canonical_rows;
      continue;
    }
    const std::string_view l = csv[lease], c = csv[offering_class];
    const int y = l == "1yr" ? 0 : l == "3yr" ? 1 : -1;
    const int k = c == "standard" ? 0 : c == "convertible" ? 1 : -1;
    const int p = PaymentIndex(csv[purchase]);
    if (y < 0 || k < 0 || p < 0) continue;
    if (!TakeRiFigure(p, upfront, usd, &out->entries[key].ri[y][k][p], out)) continue;
    ++out->canonical_rows;
  }
  return csv.status();
}

bool TakeRiFigure(int payment, bool upfront, double usd, PriceListEntry::Ri* ri,
                  PriceListData* out) {
  // All Upfront terms carry a $0 recurring charge by definition; any other $0 is a term AWS
  // lists without selling it.
  const bool all_upfront_hourly = payment == 2 && !upfront;
  if (usd == 0 && !all_upfront_hourly) {
    ++out->skipped[kSkipZeroPrice];
    return false;
  }
  (upfront ? ri->upfront : ri->hourly) = usd;
  return true;
}

Status ReadSavingsPlansCsv(ByteStream* in, const TypeFilter& keep, SavingsPlansData* out) {
  CsvReader csv(in);
  std::vector<std::string> header;
  GPUADVISOR_RETURN_IF_ERROR(
      ReadPreamble(csv, "SKU", &out->version, &out->publication_date, &header));
  Columns cols(header, &csv);
  const int rate = cols.Need("DiscountedRate"), currency = cols.Need("Currency"),
            usage = cols.Need("DiscountedUsageType"), op = cols.Need("DiscountedOperation"),
            purchase = cols.Need("PurchaseOption"), lease = cols.Need("LeaseContractLength"),
            family = cols.Need("Product Family"), region_col = cols.Need("DiscountedRegionCode"),
            type_col = cols.Need("DiscountedInstanceType");
  const int lease_unit = cols.Find("LeaseContractLengthUnit");
  GPUADVISOR_RETURN_IF_ERROR(cols.status());
  const size_t width = header.size();
  const std::string date = out->publication_date.empty() ? "undated" : out->publication_date;
  std::string key;
  while (csv.Next()) {
    if (csv.size() != width) {
      if (csv.size() == 1 && csv[0].empty()) continue;
      csv.Fail("expected " + std::to_string(width) + " fields as in the header, got " +
               std::to_string(csv.size()));
      break;
    }
    ++out->rows;
    if (csv[op] != "RunInstances" || csv[usage].find("BoxUsage:") == std::string_view::npos) {
      continue;
    }
    const std::string_view fam = csv[family];
    const char* plan = fam == "ComputeSavingsPlans"       ? "compute"
                       : fam == "EC2InstanceSavingsPlans" ? "ec2-instance"
                                                          : nullptr;
    const std::string_view type = csv[type_col];
    if (!plan) continue;
    if (type.empty()) {
      ++out->skipped[kSkipNoTypeOrRegion];
      continue;
    }
    if (!keep(type)) continue;
    const std::string_view l = csv[lease];
    if (lease_unit >= 0 && !csv[lease_unit].empty() && csv[lease_unit] != "year") continue;
    const int years = l == "1" ? 1 : l == "3" ? 3 : 0;
    const int p = PaymentIndex(csv[purchase]);
    if (years == 0 || p < 0) continue;
    if (csv[region_col].empty()) {
      ++out->skipped[kSkipNoTypeOrRegion];
      continue;
    }
    if (!InRegionCurrency(csv[currency], csv[region_col])) {
      ++out->skipped[kSkipCurrency];
      continue;
    }
    double usd = 0;
    if (!ParsePrice(csv, "DiscountedRate", csv[rate], kMaxUsdPerHour, &usd)) break;
    if (usd == 0) {
      ++out->skipped[kSkipZeroPrice];
      continue;
    }
    key.assign(type);
    key += '\t';
    key += csv[region_col];
    std::vector<SavingsPlanRate>& list = out->rates[key];
    SavingsPlanRate r{plan, years, kPayments[static_cast<size_t>(p)], usd, {"", date}};
    bool replaced = false;
    for (SavingsPlanRate& x : list) {
      if (x.term() == r.term()) {
        x = r;
        replaced = true;
      }
    }
    if (!replaced) list.push_back(std::move(r));
    ++out->canonical_rows;
  }
  return csv.status();
}

std::string RegionOfAzName(std::string_view az) {
  size_t n = az.size();
  while (n > 0 && az[n - 1] >= 'a' && az[n - 1] <= 'z') --n;
  return std::string(az.substr(0, n));
}

}  // namespace gpuadvisor::import
