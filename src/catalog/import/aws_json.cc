// DescribeInstanceTypeOfferings and DescribeSpotPriceHistory responses (AWS CLI JSON). These are
// small (one record per type and location / per price change), so they are read as a DOM.
#include <charconv>
#include <cmath>

#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
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
                if (o.instance_type.empty()) r.Fail(p + ".InstanceType", "a non-empty name");
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
    const char* end = price.data() + price.size();
    auto [q, ec] = std::from_chars(price.data(), end, s.usd_per_hour);
    if (ec != std::errc() || q != end || price.empty()) {
      return r.Fail(p + ".SpotPrice", "a number as a string, e.g. \"0.0437\"");
    }
    const PriceCheck check = CheckPrice(s.usd_per_hour);
    if (check == PriceCheck::kBad) return r.Fail(p + ".SpotPrice", PriceWanted(s.usd_per_hour));
    // The latest record per AZ and the daily history are ordered by it: refuse, never guess.
    if (!IsIsoTimestamp(s.timestamp)) {
      return r.Fail(p + ".Timestamp", R"(an ISO 8601 timestamp ("2026-11-20T08:15:00Z"), got ")" +
                                          s.timestamp + "\"");
    }
    if (!product.starts_with("Linux/UNIX")) return;
    if (check == PriceCheck::kZero) {
      if (skipped) ++(*skipped)[kSkipZeroPrice];
      return;
    }
    out.push_back(std::move(s));
  });
  if (!r.status().ok()) return r.status();
  return out;
}

}  // namespace gpuadvisor::import
