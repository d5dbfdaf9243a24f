// Streaming readers for AWS's own data formats, used by `catalog import` (ImportCatalog).
// Each reader reports the first problem as ParseError "<origin>:<line>: <what was expected>"
// (CSV) or "<origin>: byte N: ..." / a JSON path (JSON).
#ifndef GPUADVISOR_CATALOG_IMPORT_AWS_FORMATS_H_
#define GPUADVISOR_CATALOG_IMPORT_AWS_FORMATS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "util/byte_stream.h"

namespace gpuadvisor::import {

// Which instance types to keep (the rest are skipped without allocating anything).
using TypeFilter = std::function<bool(std::string_view type)>;

// Reserved-term axes, as indices.
constexpr std::array<int, 2> kRiYears = {1, 3};
constexpr std::array<const char*, 2> kRiClasses = {"standard", "convertible"};
constexpr std::array<const char*, 3> kPayments = {"no-upfront", "partial-upfront", "all-upfront"};
// "No Upfront" -> 0, "Partial Upfront" -> 1, "All Upfront" -> 2, else -1.
int PaymentIndex(std::string_view aws_purchase_option);
// A price list row's `Currency` is its region's partition's: USD, or CNY in AWS China (whose
// price list files have the same format). Other rows are skipped and counted (kSkipCurrency).
bool InRegionCurrency(std::string_view currency, std::string_view region);

// The canonical Linux prices of one (instance type, region) in an EC2 offer file.
struct PriceListEntry {
  std::optional<double> on_demand;
  struct Ri {
    std::optional<double> upfront, hourly;
  };
  Ri ri[2][2][3];  // [1y, 3y][standard, convertible][no, partial, all upfront]
};

// Why a canonical row was skipped (keys of PriceListData::skipped and SavingsPlansData::skipped);
// the policy is in catalog/record_checks.h.
inline constexpr const char* kSkipZeroPrice = "$0 price (a term AWS lists but does not sell)";
inline constexpr const char* kSkipNoTypeOrRegion = "no instance type or region code";
inline constexpr const char* kSkipCurrency =
    "priced in another currency than its region's partition (USD outside AWS China, CNY in it)";

struct PriceListData {
  std::string version, publication_date;          // from the file's metadata ("2025-09-12")
  std::map<std::string, PriceListEntry> entries;  // key: type + '\t' + region
  int64_t rows = 0;                               // price rows (CSV) or terms (JSON) read
  int64_t canonical_rows = 0;              // rows that passed the canonical filter and were taken
  std::map<std::string, int64_t> skipped;  // canonical rows left out, by reason (kSkip*)
};

// Stores a reserved term's recurring hourly charge or (`upfront`) its fee into *ri; false, and
// the row counted in out->skipped, for a $0 figure other than an All Upfront term's hourly
// charge (`payment` as PaymentIndex). REQUIRES: usd passed CheckPrice (not kBad).
bool TakeRiFigure(int payment, bool upfront, double usd, PriceListEntry::Ri* ri,
                  PriceListData* out);

// The EC2 offer file, CSV variant: metadata lines, a header starting with "SKU", one row per
// price dimension. Columns are found by header name. Canonical rows: Product Family "Compute
// Instance*", Operating System Linux, Tenancy Shared, Pre Installed S/W NA, CapacityStatus Used,
// License Model "No License required" (or empty), operation RunInstances (when the column
// exists), Currency USD; TermType OnDemand (Unit Hrs) or Reserved (Hrs = hourly, Quantity =
// upfront fee). Everything else is ignored.
Status ReadPriceListCsv(ByteStream* in, const TypeFilter& keep, PriceListData* out);
// The same prices from the JSON variant, read with a SAX parser (constant memory apart from the
// canonical SKUs). "products" must come before "terms" (as AWS writes it).
Status ReadPriceListJson(ByteStream* in, const TypeFilter& keep, PriceListData* out);

// Savings Plans regional CSV: rates for Linux shared-tenancy usage (DiscountedUsageType
// "*BoxUsage:*", DiscountedOperation RunInstances), USD.
struct SavingsPlansData {
  std::string version, publication_date;
  std::map<std::string, std::vector<SavingsPlanRate>> rates;  // key: type + '\t' + region
  int64_t rows = 0, canonical_rows = 0;
  std::map<std::string, int64_t> skipped;  // canonical rows left out, by reason (kSkip*)
};
Status ReadSavingsPlansCsv(ByteStream* in, const TypeFilter& keep, SavingsPlansData* out);

// DescribeInstanceTypeOfferings (AWS CLI JSON; one response, an array of pages, or a bare array
// of offerings). `region_of` maps a Location (a region, AZ name or AZ ID) to its region ("" if
// unknown).
struct OfferingRecord {
  std::string instance_type, location_type, location;
};
Result<std::vector<OfferingRecord>> ReadInstanceTypeOfferingsJson(std::string_view json,
                                                                  std::string_view origin);

// DescribeSpotPriceHistory (AWS CLI JSON). Linux/UNIX records only.
struct SpotPriceRecord {
  std::string instance_type, availability_zone, timestamp;
  double usd_per_hour = 0;
};
// Refused: an empty type or zone, a price that is not a number, negative or above the cap, a
// Timestamp that does not parse. Records priced $0 are left out and counted in *skipped.
Result<std::vector<SpotPriceRecord>> ReadSpotPriceHistoryJson(
    std::string_view json, std::string_view origin,
    std::map<std::string, int64_t>* skipped = nullptr);

// The answers of the AWS APIs read with credentials (`catalog update --aws`), as the AWS CLI
// prints them (`--output json`; one response, or an array of pages).

// `pricing get-products` (the Price List Query API): {"PriceList": ["<product JSON>", ...]}, each
// item a product with its terms as in the bulk offer file. Read with the bulk JSON reader's
// canonical filter; `out->publication_date` is the newest item's day.
Status ReadPriceListQueryJson(std::string_view json, std::string_view origin,
                              const TypeFilter& keep, PriceListData* out);
// `ec2 describe-reserved-instances-offerings` asked in `region` (the answer names none): the
// regional, non-marketplace, default-tenancy Linux/UNIX offerings of 1 and 3 years, as reserved
// terms of out->entries (upfront fee = FixedPrice; hourly = UsagePrice + the hourly recurring
// charges). Offerings in another currency than the region's are skipped and counted.
Status ReadReservedOfferingsJson(std::string_view json, std::string_view origin,
                                 std::string_view region, const TypeFilter& keep,
                                 PriceListData* out);
// `savingsplans describe-savings-plans-offering-rates`: Compute and EC2 Instance plans' rates
// for Linux/UNIX shared-tenancy usage (BoxUsage, RunInstances). *next_token (when given) is the
// last page's nextToken ("" at the end).
Status ReadSavingsPlanRatesJson(std::string_view json, std::string_view origin,
                                const TypeFilter& keep, SavingsPlansData* out,
                                std::string* next_token = nullptr);
// `ec2 describe-capacity-block-offerings`: each offer of a block of `instance_count` instances
// for `duration_hours`, paid upfront.
struct CapacityBlockOffer {
  std::string instance_type, availability_zone, start, end, currency;
  int instance_count = 0;
  int duration_hours = 0;
  double upfront_fee = 0;
  // The fee per instance-hour, as the catalog prices Capacity Blocks.
  double per_instance_hour() const { return upfront_fee / (instance_count * duration_hours); }
};
Result<std::vector<CapacityBlockOffer>> ReadCapacityBlockOfferingsJson(std::string_view json,
                                                                       std::string_view origin);

// "us-east-1a" -> "us-east-1"; "us-east-1-atl-1a" (Local Zone) -> "us-east-1-atl-1".
std::string RegionOfAzName(std::string_view az);

}  // namespace gpuadvisor::import

#endif  // GPUADVISOR_CATALOG_IMPORT_AWS_FORMATS_H_
