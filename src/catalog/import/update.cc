// `catalog update` (gpuadvisor/catalog_update.h): downloads from AWS's public price list and spot
// feed, merged with the importer. A price-list body goes from the HTTP transfer (on its own
// thread) through a bounded BytePipe into the CSV reader, so a multi-GB offer file is never on
// disk or in memory whole; the region is merged into a copy that replaces the catalog only when
// the transfer and the parse both ended well.
#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "catalog/build/sources.h"
#include "catalog/import/aws_formats.h"
#include "catalog/import/importer.h"
#include "gpuadvisor/catalog_update.h"
#include "util/byte_pipe.h"
#include "util/dates.h"
#include "util/http_client.h"
#include "util/json_text.h"
#include "util/numbers.h"
#include "util/rj_reader.h"
#include "util/text.h"
#include "util/url.h"

namespace gpuadvisor {
namespace {

constexpr const char* kEc2Offers = "/offers/v1.0/aws/AmazonEC2/current";
constexpr const char* kEc2OffersCn = "/offers/v1.0/cn/AmazonEC2/current";
constexpr size_t kIndexBytes = size_t{16} << 20;      // region_index.json: ~10 KB
constexpr size_t kSpotFeedBytes = size_t{64} << 20;   // spot-advisor-data.json: ~1 MB
constexpr size_t kOfferFileBytes = size_t{16} << 30;  // us-east-1's CSV: a few hundred MB
constexpr double kMaxBackoffS = 30;
// Pages of one AWS API answer read at most (Savings Plans rates: 1000 a page).
constexpr int kMaxAnswerPages = 20;
// The AWS CLI's own options that the calls below use (another program's flags, not gpuadvisor's).
constexpr const char* kCapacityDurationHours =
    "--capacity-duration-hours";                                // another program's flag (aws CLI)
constexpr const char* kFilters = "--filters";                   // another program's flag (aws CLI)
constexpr const char* kInstanceCount = "--instance-count";      // another program's flag (aws CLI)
constexpr const char* kInstanceTenancy = "--instance-tenancy";  // another program's flag (aws CLI)
constexpr const char* kInstanceType = "--instance-type";        // another program's flag (aws CLI)
constexpr const char* kInstanceTypes = "--instance-types";      // another program's flag (aws CLI)
constexpr const char* kMaxResults = "--max-results";            // another program's flag (aws CLI)
constexpr const char* kNextToken = "--next-token";              // another program's flag (aws CLI)
constexpr const char* kNoIncludeMarketplace =
    "--no-include-marketplace";  // another program's flag (aws CLI)
constexpr const char* kProductDescription =
    "--product-description";  // another program's flag (aws CLI)
constexpr const char* kProductDescriptions =
    "--product-descriptions";                    // another program's flag (aws CLI)
constexpr const char* kProducts = "--products";  // another program's flag (aws CLI)
constexpr const char* kSavingsPlanTypes =
    "--savings-plan-types";                               // another program's flag (aws CLI)
constexpr const char* kServiceCode = "--service-code";    // another program's flag (aws CLI)
constexpr const char* kServiceCodes = "--service-codes";  // another program's flag (aws CLI)
constexpr const char* kStartTime = "--start-time";        // another program's flag (aws CLI)
// The most regions a region index may list (AWS has ~35).
constexpr size_t kMaxIndexRegions = 64;

// One attempt's HTTP result, as the retry loop judges it.
struct Attempt {
  Status transport;  // IOError when no complete answer arrived
  HttpFailure failure = HttpFailure::kNone;
  HttpResponse response;
};

bool Retryable(const Attempt& a) {
  if (!a.transport.ok()) {
    return a.failure == HttpFailure::kConnect || a.failure == HttpFailure::kTimeout ||
           a.failure == HttpFailure::kResolve || a.failure == HttpFailure::kOther;
  }
  const int s = a.response.status;
  return s == 429 || (s >= 500 && s <= 599);
}

// Seconds to wait before retry `n` (0-based): Retry-After when the server gives seconds, else
// 0.5 s doubling; at most kMaxBackoffS either way.
double Backoff(const Attempt& a, int n) {
  const std::string after = a.response.Header("retry-after");
  if (!after.empty()) {
    Result<double> s = ParseDouble(after, "retry-after");
    if (s.ok() && std::isfinite(*s) && *s >= 0) return std::min(*s, kMaxBackoffS);
  }
  return std::min(0.5 * std::pow(2.0, n), kMaxBackoffS);
}

// An AWS CLI call's arguments, each value its own element: the operation's words and flags as
// written here, then `more` as they are (names, filters). Nothing is ever split on spaces, so a
// value cannot become an option (util/aws_names.h).
std::vector<std::string> AwsArgs(std::initializer_list<std::string_view> words,
                                 std::vector<std::string> more = {}) {
  std::vector<std::string> out(words.begin(), words.end());
  out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  return out;
}

std::string HttpError(const HttpResponse& r) {
  std::string text = "HTTP " + std::to_string(r.status);
  std::string body(Trim(std::string_view(r.body).substr(0, 200)));
  if (!body.empty()) text += " (" + TerminalSafe(body) + ")";
  return text;
}

class Updater {
 public:
  Updater(Catalog* c, const UpdateSettings& s, UpdateCache* cache, CatalogUpdateReport* r)
      : catalog_(*c), s_(s), cache_(*cache), report_(*r) {}

  Status Run() {
    started_ = Clock();
    Result<HttpUrl> pricing = ParseHttpUrl(s_.pricing_base, "endpoint");
    if (!pricing.ok()) return pricing.status();
    Result<HttpUrl> spot = ParseHttpUrl(s_.spot_base, "endpoint");
    if (!spot.ok()) return spot.status();
    Result<HttpUrl> pricing_cn = ParseHttpUrl(s_.pricing_base_cn, "endpoint");
    if (!pricing_cn.ok()) return pricing_cn.status();
    // Validators describe the catalog they were kept with; for any other, ask for everything.
    use_validators_ = !cache_.catalog_generated_at.empty() &&
                      cache_.catalog_generated_at == catalog_.generated_at;
    if (!use_validators_) cache_ = UpdateCache{};
    std::vector<std::string> regions = s_.regions;
    if (s_.all_regions) {
      Result<std::vector<std::string>> all = RegionIndex(pricing->ToString());
      if (!all.ok()) return all.status();
      regions = *all;
      // AWS China publishes its own index; its two regions are known by name (partition.h).
      for (const char* cn : {"cn-north-1", "cn-northwest-1"}) {
        if (std::find(regions.begin(), regions.end(), cn) == regions.end())
          regions.emplace_back(cn);
      }
    }
    for (const std::string& r : regions) {
      if (!IsRegionCode(r)) {
        return Status::InvalidArgument("regions: expected " + RegionCodeProblem(r) +
                                       " (or \"all\")")
            .WithField("regions");
      }
    }
    pricing_base_ = pricing->ToString();
    pricing_base_cn_ = pricing_cn->ToString();
    for (const std::string& r : regions) {
      if (OutOfTime(r)) continue;
      if (s_.aws) {
        AwsRegion(r);
      } else {
        Region(r, OfferFileUrl(r));
      }
    }
    if (!OutOfTime("spot-advisor")) {
      SpotAdvisor(spot->ToString() + "/spot-advisor-data.json", regions);
    }
    report_.unknown_types.assign(unknown_.begin(), unknown_.end());
    return Status::OK();
  }

 private:
  HttpRequest Request(const std::string& url, size_t max_bytes) const {
    HttpRequest req;
    req.url = url;
    req.timeout_s = std::max(0.001, std::min(s_.timeout_s, Left()));
    req.connect_timeout_s = std::min(30.0, req.timeout_s);
    req.max_response_bytes = max_bytes;
    req.decompress = true;  // where the CDN compresses (the index, the spot feed)
    // AWS's public price list is the one destination a corporate network may only reach
    // through its proxy: these requests honour the proxy variables the front end read.
    req.proxy = url.starts_with("https:") ? s_.https_proxy : s_.http_proxy;
    req.no_proxy = s_.no_proxy;
    if (use_validators_) {
      auto it = cache_.urls.find(url);
      if (it != cache_.urls.end()) {
        if (!it->second.etag.empty()) req.headers.push_back("If-None-Match: " + it->second.etag);
        if (!it->second.last_modified.empty()) {
          req.headers.push_back("If-Modified-Since: " + it->second.last_modified);
        }
      }
    }
    return req;
  }

  // True when a request for `url` carries validators (If-None-Match, If-Modified-Since): only
  // then is a 304 an answer (to a request without them it is a server's error).
  bool Validated(const std::string& url) const {
    if (!use_validators_) return false;
    auto it = cache_.urls.find(url);
    return it != cache_.urls.end() &&
           (!it->second.etag.empty() || !it->second.last_modified.empty());
  }

  void Remember(const std::string& url, const HttpResponse& r) {
    UpdateCache::Validators v{r.Header("etag"), r.Header("last-modified")};
    // Only header text that is safe to send back (no CR/LF or other controls).
    auto clean = [](const std::string& t) {
      return std::all_of(t.begin(), t.end(), [](char c) { return c >= 0x20 && c != 0x7f; });
    };
    if (!clean(v.etag) || v.etag.size() > 512) v.etag.clear();
    if (!clean(v.last_modified) || v.last_modified.size() > 64) v.last_modified.clear();
    if (v.etag.empty() && v.last_modified.empty()) {
      cache_.urls.erase(url);
    } else {
      cache_.urls[url] = v;
    }
  }

  double Clock() const {
    if (s_.clock) return s_.clock();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  // Seconds left of the run (--total-timeout); <= 0 once it has passed.
  double Left() const { return s_.total_timeout_s - (Clock() - started_); }
  // True, with `what` named as not tried, once the run has no time left.
  bool OutOfTime(const std::string& what) {
    if (Left() > 0) return false;
    UpdateOutcome o{.what = what, .url = ""};
    Fail(&o, "not tried: the update passed its total timeout of " +
                 FormatFixed(s_.total_timeout_s, 0) + " s");
    report_.outcomes.push_back(std::move(o));
    return true;
  }

  void Wait(double seconds) const {
    if (s_.sleep) {
      s_.sleep(seconds);
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    }
  }

  // Sends `req` until it gets an answer that is not worth retrying, or the retries run out.
  // `attempt` runs one try and says whether its answer was a data error (no retry).
  Attempt WithRetries(UpdateOutcome* o, const std::function<Attempt()>& attempt) {
    Attempt a;
    for (int n = 0;; ++n) {
      a = attempt();
      ++o->requests;
      o->bytes += a.response.body_bytes;
      if (!Retryable(a) || n >= s_.retries) return a;
      const double wait = Backoff(a, n);
      if (wait >= Left()) return a;  // no time left for another try
      Wait(wait);
    }
  }

  void Fail(UpdateOutcome* o, std::string error) {
    o->result = "failed";
    o->error = std::move(error);
    report_.failed.push_back(o->what);
  }

  // The answer's failure in words, "" when it is a 200 (or 304 where `not_modified_ok`).
  static std::string Problem(const Attempt& a, bool not_modified_ok) {
    if (!a.transport.ok()) return a.transport.message();
    if (a.response.status == 200 || (not_modified_ok && a.response.status == 304)) return "";
    if (a.response.status == 304) {
      return "HTTP 304 (not modified) to a request that sent no validators (If-None-Match, "
             "If-Modified-Since)";
    }
    return HttpError(a.response);
  }

  Result<std::vector<std::string>> RegionIndex(const std::string& base) {
    const std::string url = base + kEc2Offers + "/region_index.json";
    UpdateOutcome o{.what = "region-index", .url = url};
    HttpClient& http = http_;
    const bool have_list = !cache_.all_regions.empty() && Validated(url);
    Attempt a = WithRetries(&o, [&] {
      HttpRequest req = Request(url, kIndexBytes);
      if (!have_list) req.headers.clear();
      Attempt t;
      Result<HttpResponse> r = http.Send(req, &t.failure);
      if (r.ok())
        t.response = std::move(r).value();
      else
        t.transport = r.status();
      return t;
    });
    const std::string problem = Problem(a, have_list);
    if (!problem.empty()) {
      Fail(&o, problem);
      report_.outcomes.push_back(o);
      return Status::IOError("region index " + url + ": " + problem);
    }
    if (a.response.status == 304) {
      o.result = "not-modified";
      report_.outcomes.push_back(o);
      return cache_.all_regions;
    }
    Result<std::vector<std::string>> regions = ParseRegionIndex(a.response.body, url);
    if (!regions.ok()) {
      Fail(&o, regions.status().message());
      report_.outcomes.push_back(o);
      return regions.status();
    }
    o.result = "updated";
    report_.outcomes.push_back(o);
    cache_.all_regions = *regions;
    Remember(url, a.response);
    return regions;
  }

  // {"regions": {"us-east-1": {"regionCode": ..., "currentVersionUrl": ...}, ...}}: the codes
  // of the commercial and GovCloud regions, sorted.
  static Result<std::vector<std::string>> ParseRegionIndex(std::string_view text,
                                                           const std::string& origin) {
    rapidjson::Document doc;
    GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
    RjReader r(origin);
    const rapidjson::Value* regions = doc.IsObject() ? r.OptObject(doc, "regions", "$") : nullptr;
    if (regions == nullptr) r.Fail("$.regions", "an object keyed by region code");
    if (!r.status().ok()) return r.status();
    std::vector<std::string> out;
    for (auto m = regions->MemberBegin(); m != regions->MemberEnd(); ++m) {
      std::string code(m->name.GetString(), m->name.GetStringLength());
      if (IsRegionCode(code)) out.push_back(std::move(code));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    // AWS has ~35 regions; a mirror's index that lists thousands would make thousands of
    // downloads.
    if (out.size() > kMaxIndexRegions) {
      return Status::ParseError(origin + ": $.regions: expected at most " +
                                std::to_string(kMaxIndexRegions) + " region codes, got " +
                                std::to_string(out.size()));
    }
    return out;
  }

  // One region's offer file, streamed into the importer on a copy of the catalog.
  void Region(const std::string& region, const std::string& url) {
    UpdateOutcome o{.what = region, .url = url};
    Catalog merged;
    ImportReport imported;
    Status import_status;
    bool parse_failed = false;
    Attempt a = WithRetries(&o, [&] {
      merged = catalog_;
      imported = ImportReport{};
      Attempt t = StreamInto(&merged, url, &imported, &import_status);
      // The transfer was fine and the file was not: a data error, not worth retrying.
      parse_failed = t.transport.ok() && t.response.status == 200 && !import_status.ok();
      if (parse_failed) t.failure = HttpFailure::kNone;
      return t;
    });
    if (parse_failed) {
      Fail(&o, import_status.message());
    } else if (std::string problem = Problem(a, Validated(url)); !problem.empty()) {
      Fail(&o, problem);
    } else if (a.response.status == 304) {
      o.result = "not-modified";
    } else {
      catalog_ = std::move(merged);
      Took(&o, imported);
      Remember(url, a.response);
    }
    report_.outcomes.push_back(std::move(o));
  }

  // Downloads `url` on a thread of its own, its 2xx body piped into ImportIntoCatalogFrom.
  Attempt StreamInto(Catalog* into, const std::string& url, ImportReport* imported,
                     Status* import_status) {
    BytePipe pipe;
    Attempt t;
    HttpRequest req = Request(url, kOfferFileBytes);
    bool started = false;
    req.on_body = [&](std::string_view piece, int64_t total) {
      if (!started) {
        started = true;
        pipe.SetTotal(total);
      }
      return pipe.Write(piece);
    };
    std::thread transfer([&] {
      Result<HttpResponse> r = http_.Send(req, &t.failure);
      if (r.ok()) {
        t.response = std::move(r).value();
        pipe.Finish(t.response.status == 200 ? Status::OK()
                                             : Status::IOError(HttpError(t.response)));
      } else {
        t.transport = r.status();
        pipe.Finish(r.status());
      }
    });
    ImportInputs in;
    in.price_list = {url};
    in.snapshot_date = s_.today;
    in.progress = s_.progress;
    import::StreamOpener open = [&](const std::string& name) {
      const int64_t total = pipe.WaitStart();
      return Result<std::unique_ptr<ByteStream>>(ByteStream::FromReader(
          [&pipe](char* buf, size_t n, Status* st) { return pipe.Read(buf, n, st); }, name, total));
    };
    *import_status = import::ImportIntoCatalogFrom(into, in, imported, open);
    pipe.CloseReader();  // a parse error stops the transfer
    transfer.join();
    return t;
  }

  void Took(UpdateOutcome* o, const ImportReport& r) {
    o->result = "updated";
    report_.changed = true;
    for (const ImportReport::Input& i : r.inputs) {
      o->rows += i.rows;
      o->rows_taken += i.taken;
      for (const CatalogSource& s : catalog_.sources) {
        if (s.id == i.source_id) o->date = s.snapshot_date;
      }
    }
    o->prices_set = r.prices_set;
    for (const ImportReport::Skipped& k : r.skipped) {
      o->notes.push_back("skipped " + std::to_string(k.rows) + " rows: " + k.reason);
    }
    unknown_.insert(r.unknown_types.begin(), r.unknown_types.end());
  }

  // The spot-advisor feed (about 1 MB, read whole), dated by its Last-Modified day, taken for
  // `regions` only.
  void SpotAdvisor(const std::string& url, const std::vector<std::string>& regions) {
    UpdateOutcome o{.what = "spot-advisor", .url = url};
    Attempt a = WithRetries(&o, [&] {
      Attempt t;
      Result<HttpResponse> r = http_.Send(Request(url, kSpotFeedBytes), &t.failure);
      if (r.ok())
        t.response = std::move(r).value();
      else
        t.transport = r.status();
      return t;
    });
    if (std::string problem = Problem(a, Validated(url)); !problem.empty()) {
      Fail(&o, problem);
      report_.outcomes.push_back(std::move(o));
      return;
    }
    if (a.response.status == 304) {
      o.result = "not-modified";
      report_.outcomes.push_back(std::move(o));
      return;
    }
    const std::optional<int64_t> day = ParseHttpDate(a.response.Header("last-modified"));
    Catalog merged = catalog_;
    ImportInputs in;
    in.spot_advisor = {url};
    in.spot_advisor_regions = regions;  // the feed covers every region; keep to the chosen ones
    in.snapshot_date = day ? FormatIsoDate(*day) : s_.today;
    ImportReport imported;
    const std::string& body = a.response.body;
    Status st = import::ImportIntoCatalogFrom(&merged, in, &imported, [&](const std::string& name) {
      return Result<std::unique_ptr<ByteStream>>(ByteStream::FromMemory(body, name));
    });
    if (!st.ok()) {
      Fail(&o, st.message());
    } else {
      catalog_ = std::move(merged);
      Took(&o, imported);
      o.date = in.snapshot_date;
      o.prices_set = o.rows_taken;  // interruption bands (and the spot estimates they imply)
      Remember(url, a.response);
    }
    report_.outcomes.push_back(std::move(o));
  }

  // The region's public offer file (AWS China's under its own host, in CNY).
  std::string OfferFileUrl(const std::string& region) const {
    const bool china = PartitionOf(region).currency == Currency::kCny;
    return (china ? pricing_base_cn_ + kEc2OffersCn : pricing_base_ + kEc2Offers) + "/" + region +
           "/index.csv";
  }

  // --- With credentials: the AWS APIs, through the front end's runner (s_.aws).

  // The catalog's types in `region` that are not known to be unsold there, by name.
  std::vector<const InstanceType*> TypesIn(const std::string& region) const {
    std::vector<const InstanceType*> out;
    for (const InstanceType& t : catalog_.instance_types()) {
      const RegionOffer* o = t.FindRegion(region);
      if (o != nullptr && o->offered.value_or(true)) out.push_back(&t);
    }
    return out;
  }

  void AwsRegion(const std::string& region) {
    const std::vector<const InstanceType*> types = TypesIn(region);
    if (types.empty()) {
      UpdateOutcome o{.what = region, .url = ""};
      Fail(&o, "the catalog knows no accelerated instance type offered in " + region +
                   " (nothing to ask AWS for)");
      report_.outcomes.push_back(std::move(o));
      return;
    }
    // What the calls need, copied: each merged answer replaces the catalog `types` point into.
    std::vector<std::string> names, block_types;
    std::set<AcceleratorKind> kinds;
    for (const InstanceType* t : types) {
      names.push_back(t->name);
      kinds.insert(t->accelerator.kind);
      // Capacity Blocks: the types the catalog prices that way in some region.
      if (std::any_of(t->regions.begin(), t->regions.end(),
                      [](const RegionOffer& o) { return o.capacity_block.has_value(); })) {
        block_types.push_back(t->name);
      }
    }
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ",") + n;
    const Partition& partition = PartitionOf(region);
    // The Price List and Savings Plans APIs answer from one region of each partition.
    const std::string api_region =
        partition.currency == Currency::kCny ? "cn-northwest-1" : "us-east-1";
    // The Price List Query API, one call per accelerator instance family the region's types
    // belong to (its filters match one value each).
    static constexpr std::pair<AcceleratorKind, const char*> kFamilies[] = {
        {AcceleratorKind::kGpu, "GPU instance"},
        {AcceleratorKind::kNeuron, "Machine Learning ASIC Instances"},
        {AcceleratorKind::kFpga, "FPGA Instances"},
        {AcceleratorKind::kMedia, "Media Accelerator Instances"}};
    bool queried = false, listed = false;
    for (const auto& [kind, family] : kFamilies) {
      if (kinds.count(kind) == 0) continue;
      queried = true;
      listed |= AwsAnswer(
          region + " price-list-query (" + family + ")",
          {api_region,
           AwsArgs({"pricing", "get-products", kServiceCode, "AmazonEC2", kFilters},
                   {"Type=TERM_MATCH,Field=regionCode,Value=" + region,
                    "Type=TERM_MATCH,Field=operatingSystem,Value=Linux",
                    "Type=TERM_MATCH,Field=tenancy,Value=Shared",
                    "Type=TERM_MATCH,Field=preInstalledSw,Value=NA",
                    "Type=TERM_MATCH,Field=capacitystatus,Value=Used",
                    std::string("Type=TERM_MATCH,Field=instanceFamily,Value=") + family})},
          &ImportInputs::price_list_query);
    }
    // No Price List Query API answer (no pricing:GetProducts permission, still throttled): the
    // region's on-demand and RI prices from its public offer file instead, which needs none.
    if (queried && !listed) {
      Region(region, OfferFileUrl(region));
      report_.outcomes.back().notes.emplace_back(
          "read instead of the Price List Query API, which failed");
    }
    // The AWS CLI's own command lines (its flags, not gpuadvisor's), a value per element.
    AwsAnswer(region + " spot-price-history",
              {region, AwsArgs({"ec2", "describe-spot-price-history", kStartTime, Now(),
                                kProductDescriptions, "Linux/UNIX", kInstanceTypes},
                               names)},
              &ImportInputs::spot_history);
    AwsAnswer(region + " reserved-offerings",
              {region, AwsArgs({"ec2", "describe-reserved-instances-offerings", kProductDescription,
                                "Linux/UNIX", kInstanceTenancy, "default", kNoIncludeMarketplace,
                                kFilters, "Name=scope,Values=Region"},
                               {"Name=instance-type,Values=" + joined})},
              &ImportInputs::reserved_offerings, region + "=");
    // Capacity Blocks: one call per type (the API takes one), for the shortest block of one
    // instance.
    if (partition.capacity_blocks) {
      for (const std::string& type : block_types) {
        std::string what = region;
        what += " capacity-blocks ";
        what += type;
        AwsAnswer(what,
                  {region, AwsArgs({"ec2", "describe-capacity-block-offerings", kInstanceType, type,
                                    kInstanceCount, "1", kCapacityDurationHours, "24"})},
                  &ImportInputs::capacity_blocks);
      }
    }
    SavingsPlanRates(region, joined, api_region);
  }

  std::string Now() const { return s_.now.empty() ? s_.today + "T00:00:00Z" : s_.now; }

  // Runs one AWS call and merges its answer as the importer's input `field` (a list of names,
  // `prefix` before the name); one outcome, named `what`. A `paged` call is asked again with
  // --next-token while its answer has one, and its pages are merged together. True when the
  // answer was merged.
  bool AwsAnswer(const std::string& what, const AwsCall& call,
                 std::vector<std::string> ImportInputs::* field, const std::string& prefix = "",
                 bool paged = false) {
    if (OutOfTime(what)) return false;
    UpdateOutcome o{.what = what, .url = call.Name()};
    if (s_.progress) s_.progress(what, 0, -1);
    Result<std::string> answer = paged ? Pages(call, &o) : Ask(call, &o);
    if (!answer.ok()) {
      Fail(&o, answer.status().message());
      report_.outcomes.push_back(std::move(o));
      return false;
    }
    o.bytes += static_cast<int64_t>(answer->size());
    Catalog merged = catalog_;
    ImportInputs in;
    (in.*field).push_back(prefix + o.url);
    in.snapshot_date = s_.today;
    in.spot_history_current = true;  // asked with --start-time now
    ImportReport imported;
    Status st = import::ImportIntoCatalogFrom(&merged, in, &imported, [&](const std::string& name) {
      return Result<std::unique_ptr<ByteStream>>(ByteStream::FromMemory(*answer, name));
    });
    if (!st.ok()) {
      Fail(&o, st.message());
    } else {
      catalog_ = std::move(merged);
      Took(&o, imported);
    }
    report_.outcomes.push_back(std::move(o));
    return st.ok();
  }

  Result<std::string> Ask(const AwsCall& call, UpdateOutcome* o) const {
    // Whoever built the call, nothing the AWS CLI would read as a file, a URL or an option
    // that redirects it reaches the runner (the runner checks again).
    if (std::string bad = AwsArgumentsProblem(call.args); !bad.empty()) {
      return Status::InvalidArgument(call.Name() + ": refused before running: " + bad);
    }
    if (!IsRegionCode(call.region)) {
      return Status::InvalidArgument(call.Name() + ": expected " + RegionCodeProblem(call.region));
    }
    const double left = Left();
    if (left <= 0) {
      return Status::IOError(call.Name() + ": not tried: the update passed its total timeout");
    }
    ++o->requests;
    AwsCall bounded = call;
    bounded.timeout_s = left;
    return s_.aws(bounded);
  }

  // Every page of a Savings Plans answer (1000 rates a page), as a JSON array of the pages, which
  // the reader takes as one answer; at most kMaxAnswerPages.
  Result<std::string> Pages(const AwsCall& call, UpdateOutcome* o) const {
    std::string pages = "[", token;
    for (int page = 0; page < kMaxAnswerPages; ++page) {
      AwsCall c = call;
      if (!token.empty()) {
        // A token from the answer goes back as one argument, and only of a token's shape: an
        // answer is an attacker too (util/aws_names.h).
        if (!IsPageToken(token)) {
          return Status::ParseError(o->url + ": page " + std::to_string(page) +
                                    ": nextToken: expected a pagination token (letters, digits "
                                    "and +/=_.~-, not beginning with '-'), got \"" +
                                    TerminalSafe(token.substr(0, 80)) + "\"");
        }
        c.args.emplace_back(kNextToken);
        c.args.push_back(token);
      }
      Result<std::string> answer = Ask(c, o);
      if (!answer.ok()) return answer.status();
      pages += (page == 0 ? "" : ",") + *answer;
      // The token only: the rates are read once, when the pages are merged.
      import::SavingsPlansData none;
      if (!import::ReadSavingsPlanRatesJson(
               *answer, o->url, [](std::string_view) { return false; }, &none, &token)
               .ok() ||
          token.empty()) {
        break;  // the last page (a malformed one is named when merged)
      }
    }
    return pages + "]";
  }

  // Savings Plans rates for the region's types (Compute and EC2 Instance plans, Linux, shared).
  void SavingsPlanRates(const std::string& region, const std::string& types,
                        const std::string& api_region) {
    AwsAnswer(
        region + " savings-plan-rates",
        {api_region,
         AwsArgs({"savingsplans", "describe-savings-plans-offering-rates", kServiceCodes,
                  "AmazonEC2", kProducts, "EC2", kSavingsPlanTypes, "Compute", "EC2Instance",
                  kMaxResults, "1000", kFilters},
                 {"name=region,values=" + region, "name=instanceType,values=" + types,
                  "name=productDescription,values=Linux/UNIX", "name=tenancy,values=shared"})},
        &ImportInputs::savings_plan_rates, "", /*paged=*/true);
  }

  Catalog& catalog_;
  const UpdateSettings& s_;
  UpdateCache& cache_;
  CatalogUpdateReport& report_;
  HttpClient http_;  // one transfer at a time (on the transfer thread while streaming)
  std::string pricing_base_, pricing_base_cn_;  // the public price lists' base URLs
  bool use_validators_ = false;
  std::set<std::string> unknown_;
  double started_ = 0;  // Clock() when Run began
};

}  // namespace

std::string AwsCall::Name() const {
  std::string name = "aws";
  for (size_t i = 0; i < args.size() && i < 2; ++i) name += " " + args[i];
  return name + " --region " + region;  // a call's name, shown, not run
}

Status UpdateCatalog(Catalog* catalog, const UpdateSettings& settings, UpdateCache* cache,
                     CatalogUpdateReport* report) {
  return Updater(catalog, settings, cache, report).Run();
}

Result<UpdateCache> ParseUpdateCache(std::string_view json, std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  UpdateCache c;
  if (!doc.IsObject()) r.Fail("$", "an object");
  if (!r.status().ok()) return r.status();
  c.catalog_generated_at = r.Str(doc, "catalog_generated_at", "$");
  c.all_regions = r.StrList(doc, "all_regions", "$");
  if (const rapidjson::Value* urls = r.OptObject(doc, "urls", "$")) {
    for (auto m = urls->MemberBegin(); m != urls->MemberEnd(); ++m) {
      const std::string url(m->name.GetString(), m->name.GetStringLength());
      const std::string path = "$.urls[\"" + url + "\"]";
      c.urls[url] = {r.Str(m->value, "etag", path, false),
                     r.Str(m->value, "last_modified", path, false)};
    }
  }
  if (!r.status().ok()) return r.status();
  return c;
}

std::string UpdateCacheToJson(const UpdateCache& c) {
  nlohmann::ordered_json urls = nlohmann::ordered_json::object();
  for (const auto& [url, v] : c.urls) {
    urls[url] = {{"etag", v.etag}, {"last_modified", v.last_modified}};
  }
  nlohmann::ordered_json j = {{"schema", "gpuadvisor-update-cache/1"},
                              {"catalog_generated_at", c.catalog_generated_at},
                              {"all_regions", c.all_regions},
                              {"urls", urls}};
  return DumpJson(j, 2) + "\n";
}

std::vector<std::string> RegionsFromAwsConfig(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : Split(text, '\n')) {
    line = Trim(line);
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos || Trim(line.substr(0, eq)) != "region") continue;
    std::string value(Trim(line.substr(eq + 1)));
    if (!value.empty() && std::find(out.begin(), out.end(), value) == out.end()) {
      out.push_back(std::move(value));
    }
  }
  return out;
}

}  // namespace gpuadvisor
