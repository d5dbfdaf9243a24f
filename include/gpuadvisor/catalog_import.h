// Refreshing a catalog from AWS's own data formats (the `catalog import` command), and comparing
// two catalogs (`catalog diff`).
//
// ImportIntoCatalog merges, into an existing catalog:
//  - AWS Price List bulk EC2 offer files (CSV or JSON, global or per region, gzip or plain):
//    the canonical Linux on-demand price and the 12 reserved terms (1y/3y x standard/convertible
//    x no/partial/all upfront; upfront fee + hourly);
//  - Savings Plans regional rate files (CSV): compute and EC2-instance savings plans;
//  - DescribeInstanceTypes (specs; new types are added), DescribeInstanceTypeOfferings (where
//    offered), DescribeSpotPriceHistory (latest price per AZ + history), the spot-advisor feed;
//  - the answers of the AWS APIs read with credentials (`catalog update --aws`, or saved AWS CLI
//    output): the Price List Query API (`pricing get-products`), Reserved Instance offerings,
//    Savings Plans offering rates and Capacity Block offerings.
// Every figure keeps its provenance; a figure from a source dated before the catalog's own stays
// as it is and is only added to the history. Inputs are streamed (constant memory for the
// multi-GB offer files). The library never writes the catalog: the caller does (atomically).
#ifndef GPUADVISOR_CATALOG_IMPORT_H_
#define GPUADVISOR_CATALOG_IMPORT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/money.h"

namespace gpuadvisor {

struct ImportInputs {
  // Paths; "-" is standard input; gzip is detected from the content.
  std::vector<std::string> price_list;  // EC2 offer file, CSV or JSON (detected)
  std::vector<std::string> savings_plans;
  std::vector<std::string> instance_types;
  std::vector<std::string> offerings;
  std::vector<std::string> spot_advisor;
  std::vector<std::string> spot_history;
  std::vector<std::string> price_list_query;  // `aws pricing get-products` output
  // "REGION=FILE": `aws ec2 describe-reserved-instances-offerings` output, which names no region
  std::vector<std::string> reserved_offerings;
  std::vector<std::string>
      savings_plan_rates;                    // `savingsplans describe-savings-plans-offering-rates`
  std::vector<std::string> capacity_blocks;  // `aws ec2 describe-capacity-block-offerings`
  // Date recorded for inputs that carry none (DescribeInstanceTypes, offerings, spot advisor);
  // ISO "2026-12-02".
  std::string snapshot_date;
  // Called while reading: (input path, raw bytes read, total bytes or -1 when unknown).
  std::function<void(const std::string& path, int64_t done, int64_t total)> progress;
  // The regions taken from the spot-advisor feed, which covers them all; empty = every one
  // (`catalog update` keeps to the regions it refreshes).
  std::vector<std::string> spot_advisor_regions;
  // The spot history was asked "as of now" on snapshot_date (`catalog update --aws`): each AZ's
  // latest price is the one in effect that day, however long ago it was set, and is dated so.
  bool spot_history_current = false;
};

// The inputs of `catalog import` (fields.h); each file option is repeatable.
template <typename V>
void DeclareOptions(V& v, ImportInputs& in) {
  auto input = [](std::string_view help) {
    return FieldInfo{.help = help, .local = true, .metavar = "FILE"};
  };
  v.Files("price-list", in.price_list,
          input("AWS Price List EC2 offer file, CSV or JSON (gzip ok; - = stdin)"));
  v.Files("savings-plans", in.savings_plans, input("Savings Plans regional rate file (CSV)"));
  v.Files("instance-types", in.instance_types,
          input("aws ec2 describe-instance-types output (JSON)"));
  v.Files("offerings", in.offerings,
          input("aws ec2 describe-instance-type-offerings output (JSON)"));
  v.Files("spot-advisor", in.spot_advisor, input("spot-advisor-data.json feed"));
  v.Files("spot-history", in.spot_history,
          input("aws ec2 describe-spot-price-history output (JSON)"));
  v.Files("price-list-query", in.price_list_query,
          input("aws pricing get-products output (JSON): on-demand and reserved terms"));
  v.Files("reserved-offerings", in.reserved_offerings,
          {.help = "aws ec2 describe-reserved-instances-offerings output (JSON), with the region "
                   "it was asked in",
           .local = true,
           .metavar = "REGION=FILE"});
  v.Files("savings-plan-rates", in.savings_plan_rates,
          input("aws savingsplans describe-savings-plans-offering-rates output (JSON)"));
  v.Files("capacity-blocks", in.capacity_blocks,
          input("aws ec2 describe-capacity-block-offerings output (JSON)"));
  v.Text(
      "snapshot-date", in.snapshot_date,
      {.help = "Date recorded for inputs that carry none (default today, UTC)", .metavar = "DATE"});
  v.NotAnOption(in.progress);
  v.NotAnOption(in.spot_advisor_regions);
  v.NotAnOption(in.spot_history_current);
}

struct ImportReport {
  struct Input {
    std::string format;  // "price-list-csv", "price-list-json", "savings-plans-csv", ...
    std::string path;
    std::string source_id;  // the Catalog::sources entry it became
    int64_t bytes = 0;      // decompressed bytes read
    int64_t rows = 0;       // records read (CSV rows, JSON terms or items)
    int64_t taken = 0;      // records that passed the filters and were used
  };
  std::vector<Input> inputs;
  int types_added = 0;
  int types_updated = 0;      // existing types with a spec or price set by an input
  int prices_set = 0;         // figures written (on-demand, spot, RI terms, savings plans)
  int prices_kept_newer = 0;  // figures left as they were because the catalog's were newer
  // How many figures changed is not counted here: DiffCatalogs(before, after) is the one source
  // of that number (the summary and the diff table both read it).
  // Records left out under the validation policy (src/catalog/record_checks.h): $0 prices, rows
  // without a type or region. Malformed figures are errors instead.
  struct Skipped {
    std::string path;    // the input
    std::string reason;  // "$0 price (a term AWS lists but does not sell)"
    int64_t rows = 0;
  };
  std::vector<Skipped> skipped;
  std::vector<std::string> unknown_types;  // priced accelerator types without specs (skipped)
  std::vector<std::string> notes;          // other things the user should know
};

// Errors: IOError when an input cannot be read, ParseError "<file>:<line>: ..." (JSON:
// "<file>:<line>: byte N: ..." or a JSON path) when one is malformed or holds a figure outside
// the validation policy (a negative, non-finite or over-$10,000/h price, 10^12 GPUs, ...);
// InvalidArgument for a snapshot_date that is not an ISO date. The catalog is then in an
// unspecified state: discard it.
Status ImportIntoCatalog(Catalog* catalog, const ImportInputs& inputs, ImportReport* report);

// What changed between two catalogs.
struct CatalogDiff {
  std::vector<std::string> added_types, removed_types;
  struct PriceChange {
    std::string instance_type, region;
    std::string price;  // "on-demand", "spot", "reserved-1y-standard-no-upfront", "sp-..."
    // Per instance-hour in the region's currency (CNY in AWS China); null: absent on that side.
    std::optional<Money> old_per_hour, new_per_hour;
    std::string old_source, new_source;
  };
  std::vector<PriceChange> price_changes;  // sorted by type, region, price
};
CatalogDiff DiffCatalogs(const Catalog& old_catalog, const Catalog& new_catalog);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_IMPORT_H_
