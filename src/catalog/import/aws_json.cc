// The AWS API answers `catalog import` and `catalog update --aws` read (AWS CLI JSON):
// DescribeInstanceTypeOfferings, DescribeSpotPriceHistory, the Price List Query API,
// DescribeReservedInstancesOfferings, DescribeSavingsPlansOfferingRates and
// DescribeCapacityBlockOfferings. These are small (one record per type and location, per price
// change, per offer), so they are read as a DOM.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <cmath>

#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "util/aws_names.h"
#include "util/dates.h"
#include "util/rj_reader.h"

namespace gpuadvisor::import {
namespace {

// Calls fn(item, path) for every element of `key` in a response, an array of responses (pages),
// or a bare array of items.
template <typename Fn>
void ForEachItem(RjReader& r, const rapidjson::Value& root, const char* key, Fn fn) {
  auto page = [&](const rapidjson::Value& v, const std::string& path) {
    if (v.IsObject()) {
      const rapidjson::Value& list = r.Array(v, key, path);
      for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
        fn(list[i], path + "." + key + "[" + std::to_string(i) + "]");
      }
      return true;
    }
    return false;
  };
  if (page(root, "$")) return;
  if (!root.IsArray()) {
    r.Fail("$", std::string("an object with \"") + key + "\" or an array");
    return;
  }
  for (rapidjson::SizeType i = 0; i < root.Size() && r.status().ok(); ++i) {
    const std::string p = "$[" + std::to_string(i) + "]";
    if (root[i].IsObject() && root[i].HasMember(key)) {
      page(root[i], p);
    } else {
      fn(root[i], p);
    }
  }
}

// A price the AWS APIs write as a string ("55.04"; SpotPrice, rate, UpfrontFee): *out, or false
// with the reader failed. $0 passes (the caller skips and counts it); `cap` as in CheckPrice.
bool PriceText(RjReader& r, const std::string& text, const std::string& path, double* out,
               double cap = kMaxUsdPerHour) {
  const char* end = text.data() + text.size();
  auto [q, ec] = std::from_chars(text.data(), end, *out);
  if (ec != std::errc() || q != end || text.empty()) {
    r.Fail(path, "a number as a string, e.g. \"0.0437\"");
    return false;
  }
  if (CheckPrice(*out, cap) == PriceCheck::kBad) {
    r.Fail(path, PriceWanted(*out, cap));
    return false;
  }
  return true;
}

// A number the AWS CLI prints as a JSON number (FixedPrice, UsagePrice, Amount): *out, or false
// with the reader failed. `cap`: the largest figure expected (an upfront fee runs to millions).
bool PriceNumber(RjReader& r, const rapidjson::Value& obj, const char* key, const std::string& path,
                 double cap, double* out) {
  *out = r.Num(obj, key, path);
  if (!r.status().ok()) return false;
  if (CheckPrice(*out, cap) == PriceCheck::kBad) {
    r.Fail(path + "." + key, PriceWanted(*out, cap));
    return false;
  }
  return true;
}

}  // namespace

Result<std::vector<OfferingRecord>> ReadInstanceTypeOfferingsJson(std::string_view json,
                                                                  std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  std::vector<OfferingRecord> out;
  ForEachItem(r, doc, "InstanceTypeOfferings",
              [&](const rapidjson::Value& v, const std::string& p) {
                if (!v.IsObject()) {
                  r.Fail(p, "an offering object");
                  return;
                }
                OfferingRecord o;
                o.instance_type = r.Str(v, "InstanceType", p);
                o.location = r.Str(v, "Location", p);
                o.location_type = r.OptStr(v, "LocationType", p).value_or("");
                if (std::string bad = InstanceTypeNameProblem(o.instance_type); !bad.empty()) {
                  r.Fail(p + ".InstanceType", bad);
                }
                if (o.location.empty()) r.Fail(p + ".Location", "a non-empty location");
                if (r.status().ok()) out.push_back(std::move(o));
              });
  if (!r.status().ok()) return r.status();
  return out;
}

Result<std::vector<SpotPriceRecord>> ReadSpotPriceHistoryJson(
    std::string_view json, std::string_view origin, std::map<std::string, int64_t>* skipped) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  std::vector<SpotPriceRecord> out;
  ForEachItem(r, doc, "SpotPriceHistory", [&](const rapidjson::Value& v, const std::string& p) {
    if (!v.IsObject()) {
      r.Fail(p, "a spot price object");
      return;
    }
    SpotPriceRecord s;
    s.instance_type = r.Str(v, "InstanceType", p);
    s.availability_zone = r.Str(v, "AvailabilityZone", p);
    s.timestamp = r.Str(v, "Timestamp", p);
    std::string price = r.Str(v, "SpotPrice", p);
    std::string product = r.OptStr(v, "ProductDescription", p).value_or("Linux/UNIX");
    if (!r.status().ok()) return;
    if (s.instance_type.empty()) return r.Fail(p + ".InstanceType", "a non-empty name");
    if (s.availability_zone.empty()) return r.Fail(p + ".AvailabilityZone", "a non-empty zone");
    if (!PriceText(r, price, p + ".SpotPrice", &s.usd_per_hour)) return;
    // The latest record per AZ and the daily history are ordered by it: refuse, never guess.
    if (!IsIsoTimestamp(s.timestamp)) {
      return r.Fail(p + ".Timestamp", R"(an ISO 8601 timestamp ("2026-11-20T08:15:00Z"), got ")" +
                                          s.timestamp + "\"");
    }
    if (!product.starts_with("Linux/UNIX")) return;
    if (s.usd_per_hour == 0) {
      if (skipped) ++(*skipped)[kSkipZeroPrice];
      return;
    }
    out.push_back(std::move(s));
  });
  if (!r.status().ok()) return r.status();
  return out;
}

Status ReadPriceListQueryJson(std::string_view json, std::string_view origin,
                              const TypeFilter& keep, PriceListData* out) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  // The items as one bulk offer file ({"products": {SKU: product}, "terms": {"OnDemand": {SKU:
  // offers}, "Reserved": {...}}}), so that one reader applies one canonical filter.
  rapidjson::Document bulk(rapidjson::kObjectType);
  auto& alloc = bulk.GetAllocator();
  rapidjson::Value products(rapidjson::kObjectType), on_demand(rapidjson::kObjectType),
      reserved(rapidjson::kObjectType);
  std::string newest;
  ForEachItem(r, doc, "PriceList", [&](const rapidjson::Value& v, const std::string& p) {
    rapidjson::Document item(&alloc);
    if (v.IsString()) {
      const std::string_view text(v.GetString(), v.GetStringLength());
      if (item.Parse(text.data(), text.size()).HasParseError() || !item.IsObject()) {
        return r.Fail(p, "a product as a JSON object in a string");
      }
    } else if (v.IsObject()) {
      item.CopyFrom(v, alloc);
    } else {
      return r.Fail(p, "a product as a JSON object in a string");
    }
    const rapidjson::Value* product = r.OptObject(item, "product", p);
    if (product == nullptr) return r.Fail(p + ".product", "the product and its attributes");
    const std::string sku = r.Str(*product, "sku", p + ".product");
    if (!r.status().ok()) return;
    if (const std::optional<std::string> d = r.OptStr(item, "publicationDate", p)) {
      if (!IsIsoTimestamp(*d)) {
        return r.Fail(p + ".publicationDate", "an ISO 8601 timestamp, got \"" + *d + "\"");
      }
      newest = std::max(newest, d->substr(0, 10));
    }
    rapidjson::Value key(sku.c_str(), static_cast<rapidjson::SizeType>(sku.size()), alloc);
    products.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(*product, alloc), alloc);
    if (const rapidjson::Value* terms = r.OptObject(item, "terms", p)) {
      if (const rapidjson::Value* t = r.OptObject(*terms, "OnDemand", p + ".terms")) {
        on_demand.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(*t, alloc), alloc);
      }
      if (const rapidjson::Value* t = r.OptObject(*terms, "Reserved", p + ".terms")) {
        reserved.AddMember(rapidjson::Value(key, alloc), rapidjson::Value(*t, alloc), alloc);
      }
    }
  });
  if (!r.status().ok()) return r.status();
  rapidjson::Value terms(rapidjson::kObjectType);
  terms.AddMember("OnDemand", on_demand, alloc);
  terms.AddMember("Reserved", reserved, alloc);
  bulk.AddMember("products", products, alloc);
  bulk.AddMember("terms", terms, alloc);
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  bulk.Accept(writer);
  std::unique_ptr<ByteStream> in = ByteStream::FromMemory(
      std::string_view(text.GetString(), text.GetSize()), std::string(origin));
  GPUADVISOR_RETURN_IF_ERROR(ReadPriceListJson(in.get(), keep, out));
  if (!newest.empty()) out->publication_date = newest;
  return Status::OK();
}

Status ReadReservedOfferingsJson(std::string_view json, std::string_view origin,
                                 std::string_view region, const TypeFilter& keep,
                                 PriceListData* out) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  ForEachItem(
      r, doc, "ReservedInstancesOfferings", [&](const rapidjson::Value& v, const std::string& p) {
        if (!v.IsObject()) return r.Fail(p, "a Reserved Instances offering object");
        const std::string type = r.Str(v, "InstanceType", p);
        const int64_t duration = r.Int(v, "Duration", p);
        const std::string klass = r.Str(v, "OfferingClass", p);
        const std::string option = r.Str(v, "OfferingType", p);
        const std::string product = r.OptStr(v, "ProductDescription", p).value_or("Linux/UNIX");
        const std::string tenancy = r.OptStr(v, "InstanceTenancy", p).value_or("default");
        const std::string scope = r.OptStr(v, "Scope", p).value_or("Region");
        const std::string currency = r.OptStr(v, "CurrencyCode", p).value_or("USD");
        const bool marketplace = r.OptBool(v, "Marketplace", p).value_or(false);
        if (!r.status().ok()) return;
        ++out->rows;
        if (type.empty()) return r.Fail(p + ".InstanceType", "a non-empty name");
        // The canonical offering: AWS's own (not a resale), regional, shared tenancy, Linux.
        if (marketplace || scope != "Region" || tenancy != "default" || product != "Linux/UNIX" ||
            !keep(type)) {
          return;
        }
        const int years = duration == 31536000 ? 1 : duration == 94608000 ? 3 : 0;
        const int k = klass == "standard" ? 0 : klass == "convertible" ? 1 : -1;
        const int pay = PaymentIndex(option);
        if (years == 0 || k < 0 || pay < 0) return;
        if (!InRegionCurrency(currency, region)) {
          ++out->skipped[kSkipCurrency];
          return;
        }
        double upfront = 0, hourly = 0;
        if (!PriceNumber(r, v, "FixedPrice", p, kMaxUpfrontUsd, &upfront) ||
            !PriceNumber(r, v, "UsagePrice", p, kMaxUsdPerHour, &hourly)) {
          return;
        }
        const rapidjson::Value& charges = r.Array(v, "RecurringCharges", p, /*required=*/false);
        for (rapidjson::SizeType i = 0; i < charges.Size() && r.status().ok(); ++i) {
          const std::string cp = p + ".RecurringCharges[" + std::to_string(i) + "]";
          if (!charges[i].IsObject()) return r.Fail(cp, "a recurring charge object");
          if (r.OptStr(charges[i], "Frequency", cp).value_or("Hourly") != "Hourly") continue;
          double amount = 0;
          if (!PriceNumber(r, charges[i], "Amount", cp, kMaxUsdPerHour, &amount)) return;
          hourly += amount;
        }
        if (!r.status().ok()) return;
        PriceListEntry::Ri& ri =
            out->entries[type + "\t" + std::string(region)].ri[years == 1 ? 0 : 1][k][pay];
        // The fee of a no-upfront term is $0 by definition; the hourly charge of an all-upfront
        // one.
        if (pay > 0 && !TakeRiFigure(pay, /*upfront=*/true, upfront, &ri, out)) return;
        if (!TakeRiFigure(pay, /*upfront=*/false, hourly, &ri, out)) return;
        ++out->canonical_rows;
      });
  return r.status();
}

Status ReadSavingsPlanRatesJson(std::string_view json, std::string_view origin,
                                const TypeFilter& keep, SavingsPlansData* out,
                                std::string* next_token) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  if (next_token != nullptr) {
    next_token->clear();
    const rapidjson::Value& last = doc.IsArray() && !doc.Empty() ? doc[doc.Size() - 1] : doc;
    if (last.IsObject()) *next_token = r.OptStr(last, "nextToken", "$").value_or("");
  }
  ForEachItem(r, doc, "searchResults", [&](const rapidjson::Value& v, const std::string& p) {
    if (!v.IsObject()) return r.Fail(p, "a Savings Plans rate object");
    const rapidjson::Value* offering = r.OptObject(v, "savingsPlanOffering", p);
    if (offering == nullptr) return r.Fail(p + ".savingsPlanOffering", "the plan offered");
    const std::string op = p + ".savingsPlanOffering";
    const std::string plan_type = r.Str(*offering, "planType", op);
    const std::string payment = r.Str(*offering, "paymentOption", op);
    const int64_t duration = r.Int(*offering, "durationSeconds", op);
    const std::string rate = r.Str(v, "rate", p);
    const std::string currency = r.OptStr(v, "currency", p).value_or("USD");
    const std::string usage = r.OptStr(v, "usageType", p).value_or("");
    const std::string operation = r.OptStr(v, "operation", p).value_or("");
    std::map<std::string, std::string, std::less<>> props;
    const rapidjson::Value& list = r.Array(v, "properties", p);
    for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
      const std::string pp = p + ".properties[" + std::to_string(i) + "]";
      if (!list[i].IsObject()) return r.Fail(pp, "a {name, value} object");
      std::string name = r.Str(list[i], "name", pp);
      props[std::move(name)] = r.Str(list[i], "value", pp, /*required=*/false);
    }
    if (!r.status().ok()) return;
    ++out->rows;
    const char* plan = plan_type == "Compute"       ? "compute"
                       : plan_type == "EC2Instance" ? "ec2-instance"
                                                    : nullptr;
    if (plan == nullptr || operation != "RunInstances" ||
        usage.find("BoxUsage:") == std::string::npos ||
        props["productDescription"] != "Linux/UNIX" || props["tenancy"] != "shared") {
      return;
    }
    const std::string& type = props["instanceType"];
    const std::string& region = props["region"];
    if (type.empty() || region.empty()) {
      ++out->skipped[kSkipNoTypeOrRegion];
      return;
    }
    if (!keep(type)) return;
    const int years = duration == 31536000 ? 1 : duration == 94608000 ? 3 : 0;
    const int pay = PaymentIndex(payment);
    if (years == 0 || pay < 0) return;
    if (!InRegionCurrency(currency, region)) {
      ++out->skipped[kSkipCurrency];
      return;
    }
    double usd = 0;
    if (!PriceText(r, rate, p + ".rate", &usd)) return;
    if (usd == 0) {
      ++out->skipped[kSkipZeroPrice];
      return;
    }
    std::vector<SavingsPlanRate>& rates = out->rates[type + "\t" + region];
    SavingsPlanRate sp{plan, years, kPayments[static_cast<size_t>(pay)], usd, {}};
    auto same = std::find_if(rates.begin(), rates.end(),
                             [&](const SavingsPlanRate& x) { return x.term() == sp.term(); });
    if (same != rates.end()) {
      *same = std::move(sp);
    } else {
      rates.push_back(std::move(sp));
    }
    ++out->canonical_rows;
  });
  return r.status();
}

Result<std::vector<CapacityBlockOffer>> ReadCapacityBlockOfferingsJson(std::string_view json,
                                                                       std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, origin, &doc));
  RjReader r{std::string(origin)};
  std::vector<CapacityBlockOffer> out;
  ForEachItem(
      r, doc, "CapacityBlockOfferings", [&](const rapidjson::Value& v, const std::string& p) {
        if (!v.IsObject()) return r.Fail(p, "a Capacity Block offering object");
        CapacityBlockOffer o;
        o.instance_type = r.Str(v, "InstanceType", p);
        o.availability_zone = r.Str(v, "AvailabilityZone", p);
        o.start = r.Str(v, "StartDate", p);
        o.end = r.Str(v, "EndDate", p);
        o.currency = r.OptStr(v, "CurrencyCode", p).value_or("USD");
        const int64_t count = r.Int(v, "InstanceCount", p);
        const int64_t hours = r.Int(v, "CapacityBlockDurationHours", p);
        const std::string fee = r.Str(v, "UpfrontFee", p);
        if (!r.status().ok()) return;
        if (o.instance_type.empty()) return r.Fail(p + ".InstanceType", "a non-empty name");
        if (o.availability_zone.empty()) return r.Fail(p + ".AvailabilityZone", "a non-empty zone");
        for (const auto& [key, value] : {std::pair{"StartDate", &o.start}, {"EndDate", &o.end}}) {
          if (!IsIsoTimestamp(*value)) {
            return r.Fail(p + "." + key, "an ISO 8601 timestamp, got \"" + *value + "\"");
          }
        }
        if (std::string why = CheckCount(count, 1, 512); !why.empty()) {
          return r.Fail(p + ".InstanceCount", why);
        }
        if (std::string why = CheckCount(hours, 1, int64_t{24} * 366); !why.empty()) {
          return r.Fail(p + ".CapacityBlockDurationHours", why);
        }
        o.instance_count = static_cast<int>(count);
        o.duration_hours = static_cast<int>(hours);
        if (!PriceText(r, fee, p + ".UpfrontFee", &o.upfront_fee, kMaxUpfrontUsd)) return;
        // A free block, or one dearer per instance-hour than any instance, is no real offer.
        if (o.upfront_fee == 0 || CheckPrice(o.per_instance_hour()) != PriceCheck::kOk) {
          return r.Fail(p + ".UpfrontFee", PriceWanted(o.upfront_fee, kMaxUpfrontUsd));
        }
        out.push_back(std::move(o));
      });
  if (!r.status().ok()) return r.status();
  return out;
}

}  // namespace gpuadvisor::import
