// Making the catalog current from AWS's public, credential-free data (the `catalog update`
// command): the Price List bulk API's per-region EC2 offer files (CSV, streamed through the
// `catalog import` price-list reader as they download, never held whole) and the Spot Instance
// Advisor feed.
//
// UpdateCatalog downloads, for each region, `<pricing>/offers/v1.0/aws/AmazonEC2/current/
// <region>/index.csv` (the region list for "all" comes from `.../current/region_index.json`)
// and `<spot>/spot-advisor-data.json`, and merges each into the catalog with the import rules
// (doc/import.md): each figure dated by the offer file's Publication Date or the feed's
// Last-Modified day. Each region is merged into a copy that replaces the catalog only once its
// whole file has arrived and parsed, so a region that fails (after bounded retries with backoff
// on 429, 5xx and lost connections) keeps its old prices and is reported. Validators (ETag,
// Last-Modified) per URL are kept in an UpdateCache, so an unchanged region costs one request
// answered 304. The library never writes the catalog or the cache: the caller does (atomically).
//
// With the user's credentials (UpdateSettings::aws set: the front end runs the AWS CLI, so
// profiles, SSO and instance roles work as they do for `aws`), each region is read from the AWS
// APIs instead, for the catalog's accelerator types only:
//   pricing get-products            the Price List Query API (on-demand and reserved terms),
//                                   filtered to the accelerator instance families; replaces the
//                                   bulk offer file for the region
//   ec2 describe-spot-price-history the current spot price in each availability zone (observed,
//                                   not estimated from the spot-advisor band)
//   ec2 describe-reserved-instances-offerings
//                                   the Reserved Instance offerings (1 and 3 years, standard and
//                                   convertible, every payment option) as EC2 sells them now
//   ec2 describe-capacity-block-offerings
//                                   Capacity Block offers for the types sold that way: the real
//                                   upfront fee and start date of the soonest 24-hour block
//   savingsplans describe-savings-plans-offering-rates
//                                   Compute and EC2 Instance Savings Plans rates
// Each answer is merged on its own (the importer's rules, dated the day of the call, or by the
// data's own timestamps); a call that fails keeps its part of the catalog and is reported. The
// spot-advisor feed (public) still gives the interruption bands.
#ifndef GPUADVISOR_CATALOG_UPDATE_H_
#define GPUADVISOR_CATALOG_UPDATE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/catalog_build.h"
#include "gpuadvisor/fields.h"

namespace gpuadvisor {

// One AWS API call of a credentialed update: the region to send it to and the AWS CLI's
// arguments after the global ones ({"ec2", "describe-spot-price-history", "--instance-types",
// ...}). The answer is the CLI's JSON output (`--output json`, pages merged).
struct AwsCall {
  std::string region;
  std::vector<std::string> args;
  double timeout_s = 0;  // the most this call may take (what is left of the run); 0: no bound
  // "aws ec2 describe-spot-price-history --region us-east-1": how reports name the call.
  std::string Name() const;
};
// Runs one call; IOError (the CLI's first line of error) when it fails.
using AwsRunner = std::function<Result<std::string>(const AwsCall& call)>;

// What the front end resolved for UpdateCatalog (environment and options).
struct UpdateSettings {
  std::vector<std::string> regions;  // region codes; ignored when all_regions
  bool all_regions = false;
  std::string pricing_base = "https://pricing.us-east-1.amazonaws.com";
  // AWS China's price list (same formats, prices in CNY, under /offers/v1.0/cn/).
  std::string pricing_base_cn = "https://pricing.cn-north-1.amazonaws.com.cn";
  std::string spot_base = "https://spot-bid-advisor.s3.amazonaws.com";
  // Proxies from the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); "" = direct.
  std::string http_proxy, https_proxy, no_proxy;
  double timeout_s = 1800;
  // The whole run: past it, no download or AWS call starts (each is named "not tried") and the
  // one under way is cut at it.
  double total_timeout_s = 7200;
  // Seconds on a monotonic clock; null: std::chrono::steady_clock (tests pass their own).
  std::function<double()> clock;
  int retries = 3;
  std::string today;  // ISO date for data that carries none
  // (what, bytes so far, total or -1) while a download is merged.
  std::function<void(const std::string& what, int64_t done, int64_t total)> progress;
  // Waits between retries; null: sleeps.
  std::function<void(double seconds)> sleep;
  // Set: the regions are read from the AWS APIs with the user's credentials (the top of the
  // file); the AWS CLI retries throttled calls itself.
  AwsRunner aws;
  std::string now;  // ISO UTC time for the spot history's --start-time; "" = today's midnight
};

// HTTP validators per URL, valid for one catalog (the one generated at catalog_generated_at):
// kept next to that catalog, they are sent only while it is the catalog being updated.
struct UpdateCache {
  std::string catalog_generated_at;
  struct Validators {
    std::string etag, last_modified;
  };
  std::map<std::string, Validators> urls;
  std::vector<std::string> all_regions;  // the region index's list, for a 304 on it
};
// ParseError naming `origin` when the text is not such a file.
Result<UpdateCache> ParseUpdateCache(std::string_view json, std::string_view origin);
std::string UpdateCacheToJson(const UpdateCache& cache);

// One download's outcome.
struct UpdateOutcome {
  // "us-east-1", "spot-advisor", "region-index"; with credentials "us-east-1 spot-price-history",
  // "us-east-1 price-list-query", "us-east-1 reserved-offerings", "us-east-1 capacity-blocks",
  // "us-east-1 savings-plan-rates"
  std::string what;
  std::string url;     // the URL, or the AWS call (AwsCall::Name())
  std::string result;  // "updated", "not-modified", "failed"
  std::string error;   // why it failed ("" otherwise)
  int requests = 0;    // attempts made
  int64_t bytes = 0;   // body bytes received
  std::string date;    // the data's date (publication date, Last-Modified day)
  int64_t rows = 0, rows_taken = 0, prices_set = 0;
  std::vector<std::string> notes;  // rows skipped and why
};
struct CatalogUpdateReport {
  std::vector<UpdateOutcome> outcomes;     // region index (for "all"), each region, the spot feed
  bool changed = false;                    // some download was merged into the catalog
  std::vector<std::string> failed;         // `what` of each failed download
  std::vector<std::string> unknown_types;  // priced accelerator types without specs
};

// Updates `catalog` and `cache` in place (see the top of this file). A download that fails
// leaves its part of the catalog as it was and is listed in report->failed; the Status is then
// still OK. InvalidArgument (field "regions" or "endpoint") for a bad region code or base URL;
// IOError when the region index (needed for "all") cannot be had.
Status UpdateCatalog(Catalog* catalog, const UpdateSettings& settings, UpdateCache* cache,
                     CatalogUpdateReport* report);

// The regions named in an AWS CLI config file (`region = eu-west-1` lines of any profile), in
// order of appearance, each once.
std::vector<std::string> RegionsFromAwsConfig(std::string_view text);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_UPDATE_H_
