#include "catalog/import/importer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "catalog/build/sources.h"
#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "gpuadvisor/catalog_import.h"
#include "util/byte_stream.h"
#include "util/dates.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

using import::PriceListData;
using import::PriceListEntry;

constexpr const char* kOnDemand = "on-demand";
constexpr const char* kSpot = "spot";
constexpr const char* kRi1yStdNo = "reserved-1y-standard-no-upfront";
constexpr const char* kCapacityBlock = "capacity-block";

// True when date `a` is later than `b`; undated ("", "undated") is older than any date.
bool LaterDate(const std::string& a, const std::string& b) {
  auto norm = [](const std::string& d) { return d == "undated" ? std::string() : d; };
  return norm(a) > norm(b);
}

std::pair<std::string_view, std::string_view> SplitKey(const std::string& key) {
  size_t tab = key.find('\t');
  return {std::string_view(key).substr(0, tab), std::string_view(key).substr(tab + 1)};
}

int PaymentRank(const std::string& p) {
  for (size_t i = 0; i < import::kPayments.size(); ++i) {
    if (p == import::kPayments[i]) return static_cast<int>(i);
  }
  return 3;
}
// Display order: term length, then class / plan, then payment (no, partial, all upfront).
std::tuple<int, std::string, int> TermRank(const ReservedPrice& r) {
  return {r.years, r.offering_class == "standard" ? "0" : r.offering_class, PaymentRank(r.payment)};
}
std::tuple<int, std::string, int> TermRank(const SavingsPlanRate& r) {
  return {r.years, r.plan, PaymentRank(r.payment)};
}

class Importer {
 public:
  Importer(Catalog* c, const ImportInputs& in, ImportReport* r, import::StreamOpener open)
      : c_(*c), in_(in), report_(*r), open_(std::move(open)) {}

  // The types are changed in place, then sorted and re-indexed by the catalog.
  Status Run() {
    Status st;
    c_.EditInstanceTypes([&](std::vector<InstanceType>& types) {
      types_ = &types;
      st = RunAll();
      types_ = nullptr;
    });
    return st;
  }

 private:
  Status RunAll() {
    if (!in_.snapshot_date.empty() && !IsIsoTimestamp(in_.snapshot_date)) {
      return Status::InvalidArgument(
                 "snapshot-date: expected an ISO 8601 date (2026-12-02), got \"" +
                 in_.snapshot_date + "\"")
          .WithField("snapshot-date");
    }
    for (const std::string& p : in_.instance_types) GPUADVISOR_RETURN_IF_ERROR(InstanceTypes(p));
    for (const std::string& p : in_.offerings) GPUADVISOR_RETURN_IF_ERROR(Offerings(p));
    for (const std::string& p : in_.price_list) GPUADVISOR_RETURN_IF_ERROR(PriceList(p));
    for (const std::string& p : in_.savings_plans) GPUADVISOR_RETURN_IF_ERROR(SavingsPlans(p));
    for (const std::string& p : in_.spot_history) GPUADVISOR_RETURN_IF_ERROR(SpotHistory(p));
    for (const std::string& p : in_.price_list_query) {
      GPUADVISOR_RETURN_IF_ERROR(PriceListQuery(p));
    }
    for (const std::string& p : in_.reserved_offerings) {
      GPUADVISOR_RETURN_IF_ERROR(ReservedOfferings(p));
    }
    for (const std::string& p : in_.savings_plan_rates) {
      GPUADVISOR_RETURN_IF_ERROR(SavingsPlanRates(p));
    }
    for (const std::string& p : in_.capacity_blocks) GPUADVISOR_RETURN_IF_ERROR(CapacityBlocks(p));
    for (const std::string& p : in_.spot_advisor) GPUADVISOR_RETURN_IF_ERROR(SpotAdvisor(p));
    RefreshEstimatedSpot();
    ChooseReserved1y();
    for (const std::string& t : unknown_) report_.unknown_types.push_back(t);
    report_.types_updated = static_cast<int>(touched_.size());
    return Status::OK();
  }

  Result<std::unique_ptr<ByteStream>> Open(const std::string& path) {
    Result<std::unique_ptr<ByteStream>> s = open_ ? open_(path) : ByteStream::Open(path);
    if (!s.ok()) return s.status();
    if (in_.progress) {
      auto cb = in_.progress;
      (*s)->set_progress([cb, path](int64_t done, int64_t total) { cb(path, done, total); });
    }
    return s;
  }

  Result<std::string> Slurp(const std::string& path, int64_t* bytes) {
    Result<std::unique_ptr<ByteStream>> s = Open(path);
    if (!s.ok()) return s.status();
    Result<std::string> text = ReadAll(s->get());
    if (text.ok()) *bytes = static_cast<int64_t>(text->size());
    return text;
  }

  void CountSkipped(const std::string& path, const std::map<std::string, int64_t>& skipped) {
    for (const auto& [reason, rows] : skipped) report_.skipped.push_back({path, reason, rows});
  }

  std::string Date() const { return in_.snapshot_date.empty() ? "undated" : in_.snapshot_date; }

  // Adds (or replaces, by id) a source and returns its id.
  std::string AddSource(const CatalogSource& s) {
    for (CatalogSource& x : c_.sources) {
      if (x.id == s.id) {
        x = s;
        return s.id;
      }
    }
    c_.sources.push_back(s);
    return s.id;
  }

  InstanceType* Type(std::string_view name) {
    auto it =
        std::lower_bound(types_->begin(), types_->end(), name,
                         [](const InstanceType& t, std::string_view n) { return t.name < n; });
    return it != types_->end() && it->name == name ? &*it : nullptr;
  }

  // The type's offer for a region, created (sorted) when absent. Null for unknown types.
  RegionOffer* Offer(std::string_view type, std::string_view region) {
    InstanceType* t = Type(type);
    if (!t) {
      if (build::LooksLikeAcceleratorType(type)) unknown_.insert(std::string(type));
      return nullptr;
    }
    auto it =
        std::lower_bound(t->regions.begin(), t->regions.end(), region,
                         [](const RegionOffer& r, std::string_view v) { return r.region < v; });
    if (it == t->regions.end() || it->region != region) {
      RegionOffer o;
      o.region = std::string(region);
      it = t->regions.insert(it, std::move(o));
    }
    touched_.insert(t->name);
    return &*it;
  }

  static void AddHistory(RegionOffer* o, const std::string& kind, double usd,
                         const Provenance& from) {
    for (PricePoint& p : o->history) {
      if (p.kind == kind && p.from.source == from.source && p.from.date == from.date) {
        p.usd_per_hour = usd;
        return;
      }
    }
    o->history.push_back({kind, usd, from});
    std::sort(o->history.begin(), o->history.end(), [](const PricePoint& a, const PricePoint& b) {
      return std::tie(a.kind, a.from.date, a.from.source) <
             std::tie(b.kind, b.from.date, b.from.source);
    });
  }

  // Sets a headline price (newest date wins) and records both old and new in the history.
  void SetPrice(RegionOffer* o, std::optional<Price>* slot, const std::string& kind, Price p) {
    if (*slot && !(*slot)->estimated) {
      AddHistory(o, kind, (*slot)->usd_per_hour, (*slot)->from);
      if (LaterDate((*slot)->from.date, p.from.date)) {
        AddHistory(o, kind, p.usd_per_hour, p.from);
        ++report_.prices_kept_newer;
        return;
      }
    }
    AddHistory(o, kind, p.usd_per_hour, p.from);
    *slot = std::move(p);
    ++report_.prices_set;
  }

  template <typename T>
  void SetTerm(std::vector<T>* list, T v) {
    for (T& x : *list) {
      if (x.term() != v.term()) continue;
      if (LaterDate(x.from.date, v.from.date)) {
        ++report_.prices_kept_newer;
        return;
      }
      x = std::move(v);
      ++report_.prices_set;
      return;
    }
    ++report_.prices_set;
    list->push_back(std::move(v));
    std::sort(list->begin(), list->end(),
              [](const T& a, const T& b) { return TermRank(a) < TermRank(b); });
  }

  bool Keep(std::string_view type) {
    return Type(type) != nullptr || build::LooksLikeAcceleratorType(type);
  }
  // Keep, for the readers.
  import::TypeFilter KeepFilter() {
    return [this](std::string_view t) { return Keep(t); };
  }

  Status PriceList(const std::string& path) {
    Result<std::unique_ptr<ByteStream>> s = Open(path);
    if (!s.ok()) return s.status();
    ByteStream* in = s->get();
    std::string_view head = in->Peek(64);
    size_t i = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    const bool json = i != std::string_view::npos && head[i] == '{';
    if (!in->status().ok()) return in->status();
    // What the file is, where it is neither price-list format: an empty file or a JSON array
    // read as CSV would only say that no "SKU" header came.
    if (i == std::string_view::npos || head[i] == '[') {
      return Status::ParseError(path + ": " +
                                (i == std::string_view::npos ? "empty" : "a JSON array") +
                                "; expected an AWS price-list offer file: the CSV (metadata "
                                "lines, then a header row starting with \"SKU\") or the JSON (an "
                                "object with \"products\" and \"terms\")");
    }
    PriceListData data;
    const import::TypeFilter keep = KeepFilter();
    GPUADVISOR_RETURN_IF_ERROR(json ? import::ReadPriceListJson(in, keep, &data)
                                    : import::ReadPriceListCsv(in, keep, &data));
    const std::string date = data.publication_date.empty() ? Date() : data.publication_date;
    const std::string id =
        AddSource({.id = "aws-price-list-" + (data.version.empty() ? date : data.version),
                   .name = "AWS Price List bulk offer file (AmazonEC2), " +
                           std::string(json ? "JSON" : "CSV"),
                   .kind = "on-demand+reserved",
                   .snapshot_date = date,
                   .origin = path,
                   .description = "Canonical Linux rows (shared tenancy, no pre-installed "
                                  "software, capacity status Used, RunInstances): on-demand and "
                                  "the 12 reserved terms; imported with `gpuadvisor catalog "
                                  "import`."});
    MergePriceList(data, {id, date}, "1-year standard no-upfront RI, AWS Price List");
    report_.inputs.push_back({json ? "price-list-json" : "price-list-csv", path, id, in->position(),
                              data.rows, data.canonical_rows});
    CountSkipped(path, data.skipped);
    return Status::OK();
  }

  // On-demand prices and reserved terms, as the price-list readers give them.
  void MergePriceList(const PriceListData& data, const Provenance& from, const char* ri_note) {
    for (const auto& [key, e] : data.entries) {
      auto [type, region] = SplitKey(key);
      if (!build::IsRegionCode(region)) continue;
      RegionOffer* o = Offer(type, region);
      if (!o) continue;
      if (e.on_demand) SetPrice(o, &o->on_demand, kOnDemand, Price{*e.on_demand, from, false, ""});
      for (size_t y = 0; y < 2; ++y) {
        for (size_t k = 0; k < 2; ++k) {
          for (size_t p = 0; p < 3; ++p) {
            const PriceListEntry::Ri& ri = e.ri[y][k][p];
            if (!ri.hourly && !ri.upfront) continue;
            if (p > 0 && !ri.upfront) continue;  // partial/all upfront without its fee row
            ReservedPrice rp{import::kRiYears[y],    import::kRiClasses[k], import::kPayments[p],
                             ri.upfront.value_or(0), ri.hourly.value_or(0), from};
            if (y == 0 && k == 0 && p == 0) {
              SetPrice(o, &o->reserved_1y_no_upfront, kRi1yStdNo,
                       Price{rp.effective_usd_per_hour(), from, false, ri_note});
            }
            SetTerm(&o->reserved, std::move(rp));
          }
        }
      }
    }
  }

  // `aws pricing get-products` output: the Price List Query API's products and terms.
  Status PriceListQuery(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    PriceListData data;
    GPUADVISOR_RETURN_IF_ERROR(import::ReadPriceListQueryJson(*text, path, KeepFilter(), &data));
    const std::string date = data.publication_date.empty() ? Date() : data.publication_date;
    const std::string id = AddSource(
        {.id = "aws-price-list-query-" + date,
         .name = "AWS Price List Query API (GetProducts, AmazonEC2)",
         .kind = "on-demand+reserved",
         .snapshot_date = date,
         .origin = path,
         .description = "Canonical Linux products of the accelerator instance families: "
                        "on-demand and the 12 reserved terms; read with the user's credentials "
                        "(`gpuadvisor catalog update --aws`)."});
    MergePriceList(data, {id, date}, "1-year standard no-upfront RI, AWS Price List Query API");
    report_.inputs.push_back(
        {"price-list-query-json", path, id, bytes, data.rows, data.canonical_rows});
    CountSkipped(path, data.skipped);
    return Status::OK();
  }

  // "REGION=FILE": `aws ec2 describe-reserved-instances-offerings` output asked in REGION.
  Status ReservedOfferings(const std::string& spec) {
    const size_t eq = spec.find('=');
    const std::string region = eq == std::string::npos ? "" : spec.substr(0, eq);
    if (!build::IsRegionCode(region)) {
      return Status::InvalidArgument(
                 "reserved-offerings: expected REGION=FILE (the region the offerings were asked "
                 "in, e.g. us-east-1=ri.json), got \"" +
                 spec + "\"")
          .WithField("reserved-offerings");
    }
    const std::string path = spec.substr(eq + 1);
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    PriceListData data;
    GPUADVISOR_RETURN_IF_ERROR(
        import::ReadReservedOfferingsJson(*text, path, region, KeepFilter(), &data));
    const std::string id = AddSource(
        {.id = "ec2-reserved-offerings-" + Date(),
         .name = "EC2 DescribeReservedInstancesOfferings",
         .kind = "reserved",
         .snapshot_date = in_.snapshot_date,
         .origin = path,
         .description = "Reserved Instance offerings as EC2 sells them (regional, Linux/UNIX, "
                        "default tenancy, not the Marketplace): 1 and 3 years, standard and "
                        "convertible, every payment option."});
    MergePriceList(data, {id, Date()}, "1-year standard no-upfront RI, EC2 offerings");
    report_.inputs.push_back(
        {"reserved-offerings-json", path, id, bytes, data.rows, data.canonical_rows});
    CountSkipped(path, data.skipped);
    return Status::OK();
  }

  // Compute and EC2 Instance Savings Plans rates, as the readers give them.
  void MergeSavingsPlans(const import::SavingsPlansData& data, const Provenance& from) {
    for (const auto& [key, rates] : data.rates) {
      auto [type, region] = SplitKey(key);
      if (!build::IsRegionCode(region)) continue;
      RegionOffer* o = Offer(type, region);
      if (!o) continue;
      for (SavingsPlanRate r : rates) {
        r.from = from;
        SetTerm(&o->savings_plans, std::move(r));
      }
    }
  }

  // `aws savingsplans describe-savings-plans-offering-rates` output.
  Status SavingsPlanRates(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    import::SavingsPlansData data;
    GPUADVISOR_RETURN_IF_ERROR(import::ReadSavingsPlanRatesJson(*text, path, KeepFilter(), &data));
    const std::string id = AddSource(
        {.id = "savings-plans-offering-rates-" + Date(),
         .name = "Savings Plans DescribeSavingsPlansOfferingRates",
         .kind = "savings-plans",
         .snapshot_date = in_.snapshot_date,
         .origin = path,
         .description = "Compute and EC2 Instance Savings Plans rates for Linux shared-tenancy "
                        "usage, as the Savings Plans API offers them."});
    MergeSavingsPlans(data, {id, Date()});
    report_.inputs.push_back(
        {"savings-plan-rates-json", path, id, bytes, data.rows, data.canonical_rows});
    CountSkipped(path, data.skipped);
    return Status::OK();
  }

  // `aws ec2 describe-capacity-block-offerings` output: per type and region, the soonest offer
  // (the cheapest per instance-hour among those starting then) prices the Capacity Block.
  Status CapacityBlocks(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    Result<std::vector<import::CapacityBlockOffer>> offers =
        import::ReadCapacityBlockOfferingsJson(*text, path);
    if (!offers.ok()) return offers.status();
    const std::string id = AddSource(
        {.id = "capacity-block-offerings-" + Date(),
         .name = "EC2 DescribeCapacityBlockOfferings",
         .kind = "capacity-block",
         .snapshot_date = in_.snapshot_date,
         .origin = path,
         .description = "Capacity Block offers: the upfront fee of a block per instance-hour, "
                        "for the soonest block offered."});
    std::map<std::pair<std::string, std::string>, const import::CapacityBlockOffer*> soonest;
    int64_t skipped_currency = 0;
    for (const import::CapacityBlockOffer& b : *offers) {
      const std::string region = import::RegionOfAzName(b.availability_zone);
      if (!build::IsRegionCode(region) || !Keep(b.instance_type)) continue;
      if (!import::InRegionCurrency(b.currency, region)) {
        ++skipped_currency;
        continue;
      }
      const import::CapacityBlockOffer*& s = soonest[{b.instance_type, region}];
      if (s == nullptr || std::tie(b.start, b.upfront_fee) < std::tie(s->start, s->upfront_fee)) {
        s = &b;
      }
    }
    int64_t taken = 0;
    for (const auto& [key, b] : soonest) {
      RegionOffer* o = Offer(key.first, key.second);
      if (!o) continue;
      ++taken;
      SetPrice(o, &o->capacity_block, kCapacityBlock,
               Price{b->per_instance_hour(),
                     {id, Date()},
                     false,
                     "soonest offer: " + std::to_string(b->instance_count) + " x " +
                         b->instance_type + " for " + std::to_string(b->duration_hours) +
                         " h from " + b->start + " in " + b->availability_zone + ", " +
                         FormatFixed(b->upfront_fee, 2) + " " + b->currency + " upfront"});
    }
    report_.inputs.push_back({"capacity-block-offerings-json", path, id, bytes,
                              static_cast<int64_t>(offers->size()), taken});
    if (skipped_currency > 0) CountSkipped(path, {{import::kSkipCurrency, skipped_currency}});
    return Status::OK();
  }

  Status SavingsPlans(const std::string& path) {
    Result<std::unique_ptr<ByteStream>> s = Open(path);
    if (!s.ok()) return s.status();
    import::SavingsPlansData data;
    const import::TypeFilter keep = KeepFilter();
    GPUADVISOR_RETURN_IF_ERROR(import::ReadSavingsPlansCsv(s->get(), keep, &data));
    const std::string date = data.publication_date.empty() ? Date() : data.publication_date;
    const std::string id = AddSource(
        {.id = "aws-savings-plans-" + (data.version.empty() ? date : data.version),
         .name = "AWS Price List Savings Plans rate file",
         .kind = "savings-plans",
         .snapshot_date = date,
         .origin = path,
         .description =
             "Compute and EC2 Instance Savings Plans rates for Linux shared-tenancy usage."});
    MergeSavingsPlans(data, {id, date});
    report_.inputs.push_back(
        {"savings-plans-csv", path, id, (*s)->position(), data.rows, data.canonical_rows});
    CountSkipped(path, data.skipped);
    return Status::OK();
  }

  Status InstanceTypes(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    Result<std::vector<InstanceType>> recs = build::ReadDescribeInstanceTypes(*text, path);
    if (!recs.ok()) return recs.status();
    const std::string id = AddSource(
        {.id = "describe-instance-types-" + Date(),
         .name = "EC2 DescribeInstanceTypes",
         .kind = "specs",
         .snapshot_date = in_.snapshot_date,
         .origin = path,
         .description = "Instance specs as the EC2 API reports them (accelerated types)."});
    int64_t taken = 0;
    for (InstanceType& t : *recs) {
      ++taken;
      t.spec_from = {id, Date()};
      if (const GpuSpec* g = build::MatchGpuSpec(c_.gpus(), t.accelerator)) {
        t.accelerator.model = g->model;
        if (auto fix = build::CorrectAcceleratorMemory(&t, *g)) {
          bool known = std::any_of(c_.corrections.begin(), c_.corrections.end(),
                                   [&](const Correction& k) { return k.subject == fix->subject; });
          if (!known) c_.corrections.push_back(*fix);
        }
      }
      if (InstanceType* old = Type(t.name)) {
        t.regions = std::move(old->regions);
        // DescribeInstanceTypes carries no NeuronLink figure: the catalog's per-type one stays.
        if (!t.accelerator.neuronlink_gbyte_s) {
          t.accelerator.neuronlink_gbyte_s = old->accelerator.neuronlink_gbyte_s;
        }
        *old = std::move(t);
        touched_.insert(old->name);
      } else {
        ++report_.types_added;
        unknown_.erase(t.name);
        auto it = std::lower_bound(
            types_->begin(), types_->end(), t.name,
            [](const InstanceType& x, const std::string& n) { return x.name < n; });
        types_->insert(it, std::move(t));
      }
    }
    report_.inputs.push_back({"describe-instance-types-json", path, id, bytes,
                              static_cast<int64_t>(recs->size()), taken});
    return Status::OK();
  }

  // AZ-ID prefix ("use1") -> region, learnt from the catalog's own AZ IDs.
  std::map<std::string, std::string> AzIdRegions() const {
    std::map<std::string, std::string> m;
    for (const InstanceType& t : *types_) {
      for (const RegionOffer& o : t.regions) {
        for (const std::string& az : o.az_ids) m[az.substr(0, az.find('-'))] = o.region;
      }
    }
    return m;
  }

  Status Offerings(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    Result<std::vector<import::OfferingRecord>> recs =
        import::ReadInstanceTypeOfferingsJson(*text, path);
    if (!recs.ok()) return recs.status();
    const std::map<std::string, std::string> az_regions = AzIdRegions();
    const std::string id =
        AddSource({.id = "instance-type-offerings-" + Date(),
                   .name = "EC2 DescribeInstanceTypeOfferings",
                   .kind = "availability",
                   .snapshot_date = in_.snapshot_date,
                   .origin = path,
                   .description = "Where each type is offered (regions, availability-zone IDs)."});
    std::set<std::string> covered;                         // regions listed region-wide
    std::set<std::pair<std::string, std::string>> listed;  // (type, region)
    std::set<std::string> unmapped;
    int64_t taken = 0;
    for (const import::OfferingRecord& r : *recs) {
      std::string region, az_id;
      const std::string& lt = r.location_type;
      if (lt == "availability-zone-id" ||
          (lt.empty() && r.location.find("-az") != std::string::npos)) {
        auto it = az_regions.find(r.location.substr(0, r.location.find('-')));
        if (it == az_regions.end()) {
          unmapped.insert(r.location);
          continue;
        }
        region = it->second;
        az_id = r.location;
      } else if (lt == "availability-zone") {
        region = import::RegionOfAzName(r.location);
      } else {
        region = r.location;
        covered.insert(region);
      }
      if (!build::IsRegionCode(region) || !Type(r.instance_type)) continue;
      RegionOffer* o = Offer(r.instance_type, region);
      o->offered = true;
      if (!az_id.empty() &&
          std::find(o->az_ids.begin(), o->az_ids.end(), az_id) == o->az_ids.end()) {
        o->az_ids.push_back(az_id);
        std::sort(o->az_ids.begin(), o->az_ids.end());
      }
      listed.insert({r.instance_type, region});
      ++taken;
    }
    for (InstanceType& t : *types_) {
      for (RegionOffer& o : t.regions) {
        if (covered.count(o.region) && !listed.count({t.name, o.region})) o.offered = false;
      }
    }
    if (!unmapped.empty()) {
      report_.notes.push_back(path + ": " + std::to_string(unmapped.size()) +
                              " AZ IDs with no known region (e.g. " + *unmapped.begin() +
                              ") were skipped");
    }
    report_.inputs.push_back({"instance-type-offerings-json", path, id, bytes,
                              static_cast<int64_t>(recs->size()), taken});
    return Status::OK();
  }

  Status SpotHistory(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    std::map<std::string, int64_t> skipped;
    Result<std::vector<import::SpotPriceRecord>> recs =
        import::ReadSpotPriceHistoryJson(*text, path, &skipped);
    if (!recs.ok()) return recs.status();
    // Latest record per (type, AZ); lowest price per (type, region, day) for the history.
    std::map<std::pair<std::string, std::string>, const import::SpotPriceRecord*> latest;
    std::map<std::tuple<std::string, std::string, std::string>, double> daily;
    std::string newest;
    for (const import::SpotPriceRecord& r : *recs) {
      const std::string region = import::RegionOfAzName(r.availability_zone);
      if (!build::IsRegionCode(region)) continue;
      auto& l = latest[{r.instance_type, r.availability_zone}];
      if (!l || l->timestamp < r.timestamp) l = &r;
      auto key = std::make_tuple(r.instance_type, region, r.timestamp.substr(0, 10));
      auto d = daily.find(key);
      if (d == daily.end() || r.usd_per_hour < d->second) daily[key] = r.usd_per_hour;
      newest = std::max(newest, r.timestamp.substr(0, 10));
    }
    // Asked as of the snapshot day, the latest prices are those in effect that day.
    const bool current = in_.spot_history_current && !in_.snapshot_date.empty();
    if (current) newest = std::max(newest, in_.snapshot_date);
    const std::string id = AddSource(
        {.id = "spot-price-history-" + (newest.empty() ? Date() : newest),
         .name = "EC2 DescribeSpotPriceHistory (Linux/UNIX)",
         .kind = "spot",
         .snapshot_date = newest,
         .origin = path,
         .description = "Spot price: the lowest of the latest price in each AZ; history per day."});
    struct Agg {
      double usd = 0;
      int azs = 0;
      std::string date;
    };
    std::map<std::pair<std::string, std::string>, Agg> regional;
    for (const auto& [k, r] : latest) {
      Agg& a = regional[{k.first, import::RegionOfAzName(k.second)}];
      a.usd = a.azs == 0 ? r->usd_per_hour : std::min(a.usd, r->usd_per_hour);
      ++a.azs;
      a.date = std::max(a.date, r->timestamp.substr(0, 10));
    }
    int64_t taken = 0;
    for (const auto& [k, a] : regional) {
      RegionOffer* o = Offer(k.first, k.second);
      if (!o) continue;
      ++taken;
      std::string note =
          "lowest of the latest price in " + std::to_string(a.azs) + " AZ" + (a.azs > 1 ? "s" : "");
      if (current) note += ", in effect on " + in_.snapshot_date + " (set " + a.date + ")";
      SetPrice(o, &o->spot, kSpot,
               Price{a.usd,
                     {id, current ? std::max(a.date, in_.snapshot_date) : a.date},
                     false,
                     std::move(note)});
    }
    for (const auto& [k, usd] : daily) {
      InstanceType* t = Type(std::get<0>(k));
      if (!t) continue;
      RegionOffer* o = Offer(std::get<0>(k), std::get<1>(k));
      AddHistory(o, kSpot, usd, {id, std::get<2>(k)});
    }
    report_.inputs.push_back(
        {"spot-price-history-json", path, id, bytes, static_cast<int64_t>(recs->size()), taken});
    CountSkipped(path, skipped);
    return Status::OK();
  }

  Status SpotAdvisor(const std::string& path) {
    int64_t bytes = 0;
    Result<std::string> text = Slurp(path, &bytes);
    if (!text.ok()) return text.status();
    Result<std::vector<build::SpotAdvice>> recs = build::ReadSpotAdvisorJson(*text, path);
    if (!recs.ok()) return recs.status();
    const std::string id = AddSource(
        {.id = "spot-advisor-" + Date(),
         .name = "AWS Spot Instance Advisor feed",
         .kind = "spot-advisor",
         .snapshot_date = in_.snapshot_date,
         .origin = path,
         .description =
             "Interruption-frequency band and average savings per type and region (Linux)."});
    int64_t taken = 0, premium = 0;
    for (const build::SpotAdvice& a : *recs) {
      if (!build::IsRegionCode(a.region) || !Type(a.instance_type)) continue;
      const std::vector<std::string>& only = in_.spot_advisor_regions;
      if (!only.empty() && std::find(only.begin(), only.end(), a.region) == only.end()) continue;
      // A negative saving is a spot price above on-demand (p5.48xlarge in ca-central-1 at -62):
      // the interruption band is kept, but no spot price is estimated from it (EstimatedSpot).
      if (a.savings_pct < 0) ++premium;
      RegionOffer* o = Offer(a.instance_type, a.region);
      if (o->spot_band && LaterDate(o->spot_band->from.date, Date())) {
        ++report_.prices_kept_newer;
        continue;
      }
      o->spot_band = SpotBand{a.range_index, a.label, a.max_pct, a.savings_pct, {id, Date()}};
      ++taken;
    }
    report_.inputs.push_back(
        {"spot-advisor-json", path, id, bytes, static_cast<int64_t>(recs->size()), taken});
    if (premium > 0) {
      CountSkipped(path, {{"spot estimate: negative savings (spot above on-demand)", premium}});
    }
    return Status::OK();
  }

  // The headline 1-year RI price is the one RegionOffer::Reserved1y() chooses, so an itemised
  // term newer than the headline (or a headline newer than the term) shows one price everywhere.
  void ChooseReserved1y() {
    for (const std::string& name : touched_) {
      for (RegionOffer& o : Type(name)->regions) o.reserved_1y_no_upfront = o.Reserved1y();
    }
  }

  // Estimated spot prices follow the current on-demand price and band.
  void RefreshEstimatedSpot() {
    for (const std::string& name : touched_) {
      InstanceType* t = Type(name);
      for (RegionOffer& o : t->regions) {
        if (!o.spot_band || !o.on_demand || (o.spot && !o.spot->estimated)) continue;
        o.spot = build::EstimatedSpot(*o.on_demand, *o.spot_band);
      }
    }
  }

  Catalog& c_;
  std::vector<InstanceType>* types_ = nullptr;  // c_'s types while Run() edits them
  const ImportInputs& in_;
  ImportReport& report_;
  import::StreamOpener open_;  // null: files
  std::set<std::string> touched_;
  std::set<std::string> unknown_;
};

}  // namespace

Status ImportIntoCatalog(Catalog* catalog, const ImportInputs& inputs, ImportReport* report) {
  return Importer(catalog, inputs, report, nullptr).Run();
}

namespace import {
Status ImportIntoCatalogFrom(Catalog* catalog, const ImportInputs& inputs, ImportReport* report,
                             const StreamOpener& open) {
  return Importer(catalog, inputs, report, open).Run();
}
}  // namespace import

}  // namespace gpuadvisor
