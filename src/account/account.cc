#include "gpuadvisor/account.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include "util/json_text.h"
#include "util/numbers.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

constexpr const char* kSchema = "gpuadvisor-account/1";

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "2027-03-01T00:00:00+00:00" -> "2027-03-01".
std::string DateOf(std::string_view iso) { return std::string(iso.substr(0, 10)); }

bool StripAffixes(std::string_view* s, std::string_view prefix, std::string_view suffix) {
  if (s->size() < prefix.size() + suffix.size() || s->substr(0, prefix.size()) != prefix ||
      s->substr(s->size() - suffix.size()) != suffix) {
    return false;
  }
  *s = s->substr(prefix.size(), s->size() - prefix.size() - suffix.size());
  return true;
}

// Parses `json` and checks it is an object; the reader then walks it.
Status ParseObject(std::string_view json, std::string_view source, rapidjson::Document* doc) {
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(json, source, doc));
  if (!doc->IsObject()) {
    return Status::ParseError(std::string(source) + ": $: expected an object");
  }
  return Status::OK();
}

// The instance class of a family for quota purposes: its leading letters ("p5en" -> "P",
// "inf2" -> "INF", "trn1n" -> "TRN").
std::string ClassOf(std::string_view family) {
  size_t n = 0;
  while (n < family.size() && std::isalpha(static_cast<unsigned char>(family[n]))) ++n;
  return Upper(family.substr(0, n));
}

}  // namespace

std::vector<std::string> QuotaClasses(std::string_view name, bool* spot) {
  std::string_view middle = Trim(name);
  if (StripAffixes(&middle, "Running On-Demand ", " instances")) {
    *spot = false;
  } else if (StripAffixes(&middle, "All ", " Spot Instance Requests")) {
    *spot = true;
  } else {
    return {};
  }
  std::vector<std::string> out;
  if (const size_t open = middle.find('('); open != std::string_view::npos) {
    const size_t close = middle.find(')', open);
    if (close == std::string_view::npos) return {};
    for (std::string_view t : Split(middle.substr(open + 1, close - open - 1), ',')) {
      if (!Trim(t).empty()) out.push_back(Upper(Trim(t)));
    }
    return out;
  }
  size_t at = 0;
  while (at <= middle.size()) {
    const size_t and_at = middle.find(" and ", at);
    const std::string_view t = Trim(
        middle.substr(at, and_at == std::string_view::npos ? std::string_view::npos : and_at - at));
    if (!t.empty()) out.push_back(Upper(t));
    if (and_at == std::string_view::npos) break;
    at = and_at + 5;
  }
  return out;
}

namespace {

// Parses the AWS CLI's answer, then calls fn(object, path) for each object of its array `key`,
// while no error is recorded; `r` records "<source>: $.key[i]: expected an object" for another
// value. Returns the first error.
template <typename Fn>
Status ForEachRecord(std::string_view json, std::string_view source, const char* key, Fn fn) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseObject(json, source, &doc));
  RjReader r{std::string(source)};
  const JsonPath root("$");
  const rapidjson::Value& list = r.Array(doc, key, root);
  for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
    const JsonPath at(root, key, i);
    if (!list[i].IsObject()) {
      r.Fail(at, "an object");
      break;
    }
    fn(r, list[i], at);
  }
  return r.status();
}

}  // namespace

Status AddServiceQuotas(std::string_view json, std::string_view source, std::string_view region,
                        AccountScan* scan) {
  return ForEachRecord(json, source, "Quotas", [&](RjReader& r, const auto& v, const JsonPath& at) {
    AccountQuota q;
    q.name = r.Str(v, "QuotaName", at);
    q.classes = QuotaClasses(q.name, &q.spot);
    if (q.classes.empty()) return;  // not a vCPU quota of an instance class
    q.code = r.Str(v, "QuotaCode", at);
    q.vcpus = r.Num(v, "Value", at);
    if (r.status().ok() && !(q.vcpus >= 0 && std::isfinite(q.vcpus))) {
      r.Fail(JsonPath(at, "Value"), "a non-negative number");
    }
    q.region = std::string(region);
    scan->quotas.push_back(std::move(q));
  });
}

Status AddInstanceTypeOfferings(std::string_view json, std::string_view source,
                                std::string_view region, AccountScan* scan) {
  auto& by_type = scan->zones[std::string(region)];
  Status st = ForEachRecord(json, source, "InstanceTypeOfferings",
                            [&](RjReader& r, const auto& v, const JsonPath& at) {
                              const std::string type = r.Str(v, "InstanceType", at);
                              const std::string zone = r.Str(v, "Location", at);
                              if (!r.status().ok()) return;
                              std::vector<std::string>& zones = by_type[type];
                              if (std::find(zones.begin(), zones.end(), zone) == zones.end())
                                zones.push_back(zone);
                            });
  for (auto& [type, zones] : by_type) std::sort(zones.begin(), zones.end());
  return st;
}

Status AddReservedInstances(std::string_view json, std::string_view source, std::string_view region,
                            AccountScan* scan) {
  return ForEachRecord(json, source, "ReservedInstances",
                       [&](RjReader& r, const auto& v, const JsonPath& at) {
                         if (r.Str(v, "State", at) != "active") return;
                         ReservedInstances ri;
                         ri.id = r.Str(v, "ReservedInstancesId", at);
                         ri.instance_type = r.Str(v, "InstanceType", at);
                         ri.count = static_cast<int>(r.Int(v, "InstanceCount", at));
                         ri.end = DateOf(r.Str(v, "End", at));
                         ri.zone = r.Str(v, "AvailabilityZone", at, false);
                         ri.offering_class = r.Str(v, "OfferingClass", at, false);
                         ri.region = std::string(region);
                         if (r.status().ok() && ri.count <= 0) {
                           r.Fail(JsonPath(at, "InstanceCount"), "a positive count");
                         }
                         if (r.status().ok()) scan->reserved.push_back(std::move(ri));
                       });
}

Status AddSavingsPlans(std::string_view json, std::string_view source, AccountScan* scan) {
  Status st = ForEachRecord(
      json, source, "savingsPlans", [&](RjReader& r, const auto& v, const JsonPath& at) {
        if (r.Str(v, "state", at) != "active") return;
        SavingsPlan sp;
        sp.id = r.Str(v, "savingsPlanId", at);
        sp.type = r.Str(v, "savingsPlanType", at);
        sp.family = r.Str(v, "ec2InstanceFamily", at, false);
        sp.region = r.Str(v, "region", at, false);
        sp.end = DateOf(r.Str(v, "end", at));
        // The API gives the commitment as a decimal string ("12.5").
        const std::string commitment = r.Str(v, "commitment", at);
        if (!r.status().ok()) return;
        const Result<double> c = ParseDouble(commitment, "commitment");
        if (!c.ok() || !(*c >= 0)) {
          r.Fail(JsonPath(at, "commitment"), "a non-negative decimal in a string");
          return;
        }
        sp.commitment_usd_per_hour = *c;
        scan->savings_plans.push_back(std::move(sp));
      });
  if (st.ok()) scan->savings_plans_scanned = true;
  return st;
}

Status AddCallerIdentity(std::string_view json, std::string_view source, AccountScan* scan) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseObject(json, source, &doc));
  RjReader r{std::string(source)};
  scan->account_id = r.Str(doc, "Account", "$");
  return r.status();
}

std::string AccountScanToJson(const AccountScan& s) {
  using Json = nlohmann::ordered_json;
  Json quotas = Json::array();
  for (const AccountQuota& q : s.quotas) {
    quotas.push_back({{"region", q.region},
                      {"code", q.code},
                      {"name", q.name},
                      {"spot", q.spot},
                      {"classes", q.classes},
                      {"vcpus", q.vcpus}});
  }
  Json zones = Json::object();
  for (const auto& [region, by_type] : s.zones) {
    Json types = Json::object();
    for (const auto& [type, list] : by_type) types[type] = list;
    zones[region] = std::move(types);
  }
  Json reserved = Json::array();
  for (const ReservedInstances& ri : s.reserved) {
    reserved.push_back({{"id", ri.id},
                        {"instance_type", ri.instance_type},
                        {"region", ri.region},
                        {"zone", ri.zone},
                        {"count", ri.count},
                        {"end", ri.end},
                        {"offering_class", ri.offering_class}});
  }
  Json plans = Json::array();
  for (const SavingsPlan& sp : s.savings_plans) {
    plans.push_back({{"id", sp.id},
                     {"type", sp.type},
                     {"family", sp.family},
                     {"region", sp.region},
                     {"commitment_usd_per_hour", sp.commitment_usd_per_hour},
                     {"end", sp.end}});
  }
  const Json j = {{"schema", kSchema},
                  {"account_id", s.account_id},
                  {"scanned_at", s.scanned_at},
                  {"regions", s.regions},
                  {"quotas", quotas},
                  {"zones", zones},
                  {"reserved", reserved},
                  {"savings_plans", plans},
                  {"savings_plans_scanned", s.savings_plans_scanned},
                  {"failures", s.failures}};
  return DumpJson(j, 2) + "\n";
}

Result<AccountScan> ParseAccountScan(std::string_view json, std::string_view source) {
  const JsonPath root("$");
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseObject(json, source, &doc));
  RjReader r{std::string(source)};
  if (r.Str(doc, "schema", "$") != kSchema && r.status().ok()) {
    r.Fail(JsonPath(root, "schema"), std::string("\"") + kSchema + "\"");
  }
  AccountScan s;
  s.account_id = r.Str(doc, "account_id", "$");
  s.scanned_at = r.Str(doc, "scanned_at", "$");
  s.regions = r.StrList(doc, "regions", "$");
  const rapidjson::Value& quotas = r.Array(doc, "quotas", "$");
  for (rapidjson::SizeType i = 0; i < quotas.Size() && r.status().ok(); ++i) {
    const JsonPath at(root, "quotas", i);
    if (!quotas[i].IsObject()) {
      r.Fail(at, "an object");
      break;
    }
    AccountQuota q;
    q.region = r.Str(quotas[i], "region", at);
    q.code = r.Str(quotas[i], "code", at);
    q.name = r.Str(quotas[i], "name", at);
    q.spot = r.Bool(quotas[i], "spot", at);
    q.classes = r.StrList(quotas[i], "classes", at);
    q.vcpus = r.Num(quotas[i], "vcpus", at);
    s.quotas.push_back(std::move(q));
  }
  if (const rapidjson::Value* zones = r.OptObject(doc, "zones", "$")) {
    for (auto reg = zones->MemberBegin(); reg != zones->MemberEnd() && r.status().ok(); ++reg) {
      const std::string region(reg->name.GetString(), reg->name.GetStringLength());
      auto& by_type = s.zones[region];
      if (!reg->value.IsObject()) {
        r.Fail("$.zones[\"" + region + "\"]", "an object");
        break;
      }
      for (auto t = reg->value.MemberBegin(); t != reg->value.MemberEnd(); ++t) {
        const std::string type(t->name.GetString(), t->name.GetStringLength());
        by_type[type] = r.StrList(reg->value, type.c_str(), "$.zones[\"" + region + "\"]");
      }
    }
  }
  const rapidjson::Value& reserved = r.Array(doc, "reserved", "$");
  for (rapidjson::SizeType i = 0; i < reserved.Size() && r.status().ok(); ++i) {
    const JsonPath at(root, "reserved", i);
    const rapidjson::Value& v = reserved[i];
    if (!v.IsObject()) {
      r.Fail(at, "an object");
      break;
    }
    ReservedInstances ri;
    ri.id = r.Str(v, "id", at);
    ri.instance_type = r.Str(v, "instance_type", at);
    ri.region = r.Str(v, "region", at);
    ri.zone = r.Str(v, "zone", at, false);
    ri.count = static_cast<int>(r.Int(v, "count", at));
    ri.end = r.Str(v, "end", at);
    ri.offering_class = r.Str(v, "offering_class", at, false);
    s.reserved.push_back(std::move(ri));
  }
  const rapidjson::Value& plans = r.Array(doc, "savings_plans", "$");
  for (rapidjson::SizeType i = 0; i < plans.Size() && r.status().ok(); ++i) {
    const JsonPath at(root, "savings_plans", i);
    const rapidjson::Value& v = plans[i];
    if (!v.IsObject()) {
      r.Fail(at, "an object");
      break;
    }
    SavingsPlan sp;
    sp.id = r.Str(v, "id", at);
    sp.type = r.Str(v, "type", at);
    sp.family = r.Str(v, "family", at, false);
    sp.region = r.Str(v, "region", at, false);
    sp.commitment_usd_per_hour = r.Num(v, "commitment_usd_per_hour", at);
    sp.end = r.Str(v, "end", at);
    s.savings_plans.push_back(std::move(sp));
  }
  s.savings_plans_scanned = r.Bool(doc, "savings_plans_scanned", "$");
  s.failures = r.StrList(doc, "failures", "$");
  if (!r.status().ok()) return r.status();
  return s;
}

AccountFit CheckPlanAgainstAccount(const AccountScan& scan, const InstanceType& type, int instances,
                                   std::string_view region, PurchaseKind purchase) {
  AccountFit fit;
  fit.needed_vcpus = static_cast<double>(type.vcpus) * instances;
  // Capacity Blocks and Reserved Instances are capacity of their own; on-demand and spot
  // launches count against the class's vCPU quota.
  const bool limited = purchase == PurchaseKind::kOnDemand || purchase == PurchaseKind::kSpot;
  if (limited) {
    const bool spot = purchase == PurchaseKind::kSpot;
    const std::string cls = ClassOf(type.family);
    const AccountQuota* exact = nullptr;
    const AccountQuota* by_letter = nullptr;  // "GR" -> "G" when no quota names "GR"
    for (const AccountQuota& q : scan.quotas) {
      if (q.region != region || q.spot != spot) continue;
      for (const std::string& c : q.classes) {
        if (c == cls) exact = &q;
        if (c.size() == 1 && !cls.empty() && c[0] == cls[0]) by_letter = &q;
      }
    }
    if (const AccountQuota* q = exact != nullptr ? exact : by_letter) {
      fit.quota = *q;
      fit.fits_quota = fit.needed_vcpus <= q->vcpus;
    }
  }
  if (const auto reg = scan.zones.find(std::string(region)); reg != scan.zones.end()) {
    const auto t = reg->second.find(type.name);
    fit.zones = t != reg->second.end() ? t->second : std::vector<std::string>{};
  }
  for (const ReservedInstances& ri : scan.reserved) {
    if (ri.instance_type != type.name || ri.region != region) continue;
    fit.reserved_instances += ri.count;
    fit.reserved_until = std::max(fit.reserved_until, ri.end);
  }
  fit.on_demand = purchase == PurchaseKind::kOnDemand;
  if (purchase == PurchaseKind::kOnDemand) {
    for (const SavingsPlan& sp : scan.savings_plans) {
      const bool covers = sp.type == "Compute" || (sp.type == "EC2Instance" &&
                                                   sp.family == type.family && sp.region == region);
      if (covers) fit.savings_plans.push_back(sp.id);
    }
  }
  return fit;
}

double AccountFit::paid_fraction(int instances) const {
  if (!on_demand || instances <= 0) return 0;
  return static_cast<double>(std::min(reserved_instances, instances)) / instances;
}

std::vector<std::string> AccountFitAdvice(const AccountFit& fit, const InstanceType& type,
                                          int instances, double cost_usd, std::string_view region) {
  std::vector<std::string> out;
  if (const double paid = fit.paid_fraction(instances); paid > 0) {
    const int covered = std::min(fit.reserved_instances, instances);
    out.push_back(std::to_string(covered) + " of the " + std::to_string(instances) + " " +
                  type.name + " are Reserved Instances this account already pays for in " +
                  std::string(region) + " (until " + fit.reserved_until + "): the plan adds $" +
                  FormatFixed(cost_usd * (1 - paid), 2) + " to the bill, not $" +
                  FormatFixed(cost_usd, 2));
  }
  if (!fit.savings_plans.empty()) {
    std::string ids;
    for (const std::string& id : fit.savings_plans) ids += (ids.empty() ? "" : ", ") + id;
    out.push_back("Savings Plan " + ids + " covers on-demand use of " + type.name +
                  ": its rate applies up to the plan's hourly commitment (how much of it is "
                  "already used is not in the scan)");
  }
  return out;
}

std::string AccountFitWarning(const AccountFit& fit, const InstanceType& type,
                              std::string_view region) {
  const std::string where(region);
  if (fit.zones && fit.zones->empty()) {
    return type.name + " is not offered to this account in any availability zone of " + where +
           " (account scan)";
  }
  if (fit.fits_quota || !fit.quota) return "";
  const AccountQuota& q = *fit.quota;
  const std::string need = FormatFixed(fit.needed_vcpus, 0);
  return "needs " + need + " vCPUs of the " + q.name + " quota in " + where + "; the account has " +
         FormatFixed(q.vcpus, 0) + " (" + q.code +
         "; running instances of the class count too): aws service-quotas "
         "request-service-quota-increase --service-code ec2 --quota-code " +
         q.code + " --desired-value " + need + " --region " + where;
}

}  // namespace gpuadvisor
