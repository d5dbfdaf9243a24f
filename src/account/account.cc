#include "gpuadvisor/account.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "util/aws_names.h"
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

// Calls fn(r, record, path) for each object of the array obj[key]; the first non-object fails `r`
// ("an object") and ends the walk, as does a failure fn records. An absent array is an error
// unless `required` is false.
template <typename Fn>
void ForEachObject(RjReader& r, const rapidjson::Value& obj, const char* key, const JsonPath& root,
                   bool required, Fn fn) {
  const rapidjson::Value& list = r.Array(obj, key, root, required);
  for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
    const JsonPath at(root, key, i);
    if (!list[i].IsObject()) {
      r.Fail(at, "an object");
      break;
    }
    fn(r, list[i], at);
  }
}

// Parses the AWS CLI's answer, then walks the objects of its array `key` (ForEachObject); `r`
// records "<source>: $.key[i]: expected an object" for another value. Returns the first error.
template <typename Fn>
Status ForEachRecord(std::string_view json, std::string_view source, const char* key, Fn fn) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseObject(json, source, &doc));
  RjReader r{std::string(source)};
  ForEachObject(r, doc, key, JsonPath("$"), /*required=*/true, fn);
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

Status AddRunningInstances(std::string_view json, std::string_view source, std::string_view region,
                           const Catalog* catalog, AccountScan* scan) {
  std::map<std::tuple<std::string, bool, std::string>, RunningInstances> by_type;
  Status st = ForEachRecord(
      json, source, "Reservations", [&](RjReader& r, const auto& res, const JsonPath& at) {
        const rapidjson::Value& list = r.Array(res, "Instances", at);
        for (rapidjson::SizeType i = 0; i < list.Size() && r.status().ok(); ++i) {
          const JsonPath in(at, "Instances", i);
          const rapidjson::Value& v = list[i];
          const std::string type = r.Str(v, "InstanceType", in);
          const std::string lifecycle = r.Str(v, "InstanceLifecycle", in, false);
          std::string zone;
          if (const rapidjson::Value* at_zone = r.OptObject(v, "Placement", in)) {
            zone = r.Str(*at_zone, "AvailabilityZone", JsonPath(in, "Placement"), false);
          }
          double vcpus = 0;
          if (const InstanceType* t = catalog ? catalog->FindInstanceType(type) : nullptr) {
            vcpus = t->vcpus;
          } else if (const rapidjson::Value* cpu = r.OptObject(v, "CpuOptions", in)) {
            const JsonPath c(in, "CpuOptions");
            vcpus = static_cast<double>(r.OptInt(*cpu, "CoreCount", c).value_or(0) *
                                        r.OptInt(*cpu, "ThreadsPerCore", c).value_or(1));
          }
          if (!r.status().ok() || lifecycle == "capacity-block") continue;
          RunningInstances& ri = by_type[{type, lifecycle == "spot", zone}];
          ri.region = std::string(region);
          ri.zone = zone;
          ri.instance_type = type;
          ri.spot = lifecycle == "spot";
          ri.count += 1;
          ri.vcpus += vcpus;
        }
      });
  if (!st.ok()) return st;
  for (auto& [key, ri] : by_type) scan->running.push_back(std::move(ri));
  scan->running_scanned.emplace_back(region);
  return st;
}

Status AddSpotPlacementScores(std::string_view json, std::string_view source, std::string_view type,
                              int count, std::string_view scored_at, AccountScan* scan) {
  return ForEachRecord(json, source, "SpotPlacementScores",
                       [&](RjReader& r, const auto& v, const JsonPath& at) {
                         SpotScore sc;
                         sc.instance_type = std::string(type);
                         sc.count = count;
                         sc.region = r.Str(v, "Region", at);
                         sc.zone_id = r.Str(v, "AvailabilityZoneId", at, false);
                         sc.score = static_cast<int>(r.Int(v, "Score", at));
                         sc.scored_at = std::string(scored_at);
                         if (r.status().ok() && (sc.score < 1 || sc.score > 10)) {
                           r.Fail(JsonPath(at, "Score"), "a score from 1 to 10");
                         }
                         if (r.status().ok()) scan->spot_scores.push_back(std::move(sc));
                       });
}

Result<std::vector<std::pair<std::string, int>>> ParseSpotScoreRequests(
    const std::vector<std::string>& given) {
  std::vector<std::pair<std::string, int>> out;
  for (const std::string& item : given) {
    const std::string_view text = Trim(item);
    if (text.empty()) continue;
    const size_t colon = text.find(':');
    const std::string type(text.substr(0, colon));
    int count = 1;
    if (colon != std::string_view::npos) {
      const Result<double> n = ParseDouble(text.substr(colon + 1), "spot-scores");
      if (!n.ok() || !(*n >= 1 && *n <= 1000) || *n != std::floor(*n)) {
        return Status::InvalidArgument(
                   "spot-scores: expected TYPE or TYPE:N with N a whole "
                   "number from 1 to 1000, got \"" +
                   TerminalSafe(item) + "\"")
            .WithField("spot-scores");
      }
      count = static_cast<int>(*n);
    }
    // The type becomes an argument of the AWS CLI: AWS's grammar only (util/aws_names.h).
    if (std::string bad = InstanceTypeNameProblem(type); !bad.empty()) {
      return Status::InvalidArgument("spot-scores: expected " + bad).WithField("spot-scores");
    }
    out.emplace_back(type, count);
  }
  if (out.size() > kMaxSpotScoreRequests) {
    return Status::InvalidArgument("spot-scores: at most " + std::to_string(kMaxSpotScoreRequests) +
                                   " types per scan (AWS limits the configurations an account "
                                   "may score a day), got " +
                                   std::to_string(out.size()))
        .WithField("spot-scores");
  }
  return out;
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
  Json running = Json::array();
  for (const RunningInstances& ri : s.running) {
    Json r = {{"region", ri.region},
              {"instance_type", ri.instance_type},
              {"spot", ri.spot},
              {"count", ri.count},
              {"vcpus", ri.vcpus}};
    if (!ri.zone.empty()) r["zone"] = ri.zone;  // known since the scan reads Placement
    running.push_back(std::move(r));
  }
  Json scores = Json::array();
  for (const SpotScore& sc : s.spot_scores) {
    scores.push_back({{"instance_type", sc.instance_type},
                      {"count", sc.count},
                      {"region", sc.region},
                      {"zone_id", sc.zone_id},
                      {"score", sc.score},
                      {"scored_at", sc.scored_at}});
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
                  {"running", running},
                  {"running_scanned", s.running_scanned},
                  {"spot_scores", scores},
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
  ForEachObject(r, doc, "quotas", root, /*required=*/true,
                [&](RjReader& /*r*/, const rapidjson::Value& v, const JsonPath& at) {
                  AccountQuota q;
                  q.region = r.Str(v, "region", at);
                  q.code = r.Str(v, "code", at);
                  q.name = r.Str(v, "name", at);
                  q.spot = r.Bool(v, "spot", at);
                  q.classes = r.StrList(v, "classes", at);
                  q.vcpus = r.Num(v, "vcpus", at);
                  s.quotas.push_back(std::move(q));
                });
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
  ForEachObject(r, doc, "reserved", root, /*required=*/true,
                [&](RjReader& /*r*/, const rapidjson::Value& v, const JsonPath& at) {
                  ReservedInstances ri;
                  ri.id = r.Str(v, "id", at);
                  ri.instance_type = r.Str(v, "instance_type", at);
                  ri.region = r.Str(v, "region", at);
                  ri.zone = r.Str(v, "zone", at, false);
                  ri.count = static_cast<int>(r.Int(v, "count", at));
                  ri.end = r.Str(v, "end", at);
                  ri.offering_class = r.Str(v, "offering_class", at, false);
                  s.reserved.push_back(std::move(ri));
                });
  ForEachObject(r, doc, "savings_plans", root, /*required=*/true,
                [&](RjReader& /*r*/, const rapidjson::Value& v, const JsonPath& at) {
                  SavingsPlan sp;
                  sp.id = r.Str(v, "id", at);
                  sp.type = r.Str(v, "type", at);
                  sp.family = r.Str(v, "family", at, false);
                  sp.region = r.Str(v, "region", at, false);
                  sp.commitment_usd_per_hour = r.Num(v, "commitment_usd_per_hour", at);
                  sp.end = r.Str(v, "end", at);
                  s.savings_plans.push_back(std::move(sp));
                });
  s.savings_plans_scanned = r.Bool(doc, "savings_plans_scanned", "$");
  // Added to gpuadvisor-account/1 later: absent from older scans (usage unknown).
  ForEachObject(r, doc, "running", root, /*required=*/false,
                [&](RjReader& /*r*/, const rapidjson::Value& v, const JsonPath& at) {
                  RunningInstances ri;
                  ri.region = r.Str(v, "region", at);
                  ri.instance_type = r.Str(v, "instance_type", at);
                  ri.spot = r.Bool(v, "spot", at);
                  ri.zone = r.Str(v, "zone", at, false);  // added later: absent from older scans
                  ri.count = static_cast<int>(r.Int(v, "count", at));
                  ri.vcpus = r.Num(v, "vcpus", at);
                  s.running.push_back(std::move(ri));
                });
  if (doc.HasMember("running_scanned")) {
    s.running_scanned = r.StrList(doc, "running_scanned", "$");
  }
  ForEachObject(r, doc, "spot_scores", root, /*required=*/false,
                [&](RjReader& /*r*/, const rapidjson::Value& v, const JsonPath& at) {
                  SpotScore sc;
                  sc.instance_type = r.Str(v, "instance_type", at);
                  sc.count = static_cast<int>(r.Int(v, "count", at));
                  sc.region = r.Str(v, "region", at);
                  sc.zone_id = r.Str(v, "zone_id", at, false);
                  sc.score = static_cast<int>(r.Int(v, "score", at));
                  sc.scored_at = r.Str(v, "scored_at", at);
                  s.spot_scores.push_back(std::move(sc));
                });
  s.failures = r.StrList(doc, "failures", "$");
  if (!r.status().ok()) return r.status();
  return s;
}

namespace {

// The vCPU quota of `cls` in `region` (on demand or spot): the one naming the class, else one
// naming its first letter ("GR" -> "G"); null when the scan has none.
const AccountQuota* QuotaFor(const AccountScan& scan, const std::string& cls,
                             std::string_view region, bool spot) {
  const AccountQuota* exact = nullptr;
  const AccountQuota* by_letter = nullptr;
  for (const AccountQuota& q : scan.quotas) {
    if (q.region != region || q.spot != spot) continue;
    for (const std::string& c : q.classes) {
      if (c == cls) exact = &q;
      if (c.size() == 1 && !cls.empty() && c[0] == cls[0]) by_letter = &q;
    }
  }
  return exact != nullptr ? exact : by_letter;
}

// The score that speaks for `instances` x `type` in `region` (AccountFit::spot_score).
std::optional<SpotScore> BestSpotScore(const AccountScan& scan, const InstanceType& type,
                                       int instances, std::string_view region) {
  // Per count: the region's own score, else its best zone's.
  std::map<int, SpotScore> by_count;
  for (const SpotScore& sc : scan.spot_scores) {
    if (sc.instance_type != type.name || sc.region != region) continue;
    auto [it, added] = by_count.emplace(sc.count, sc);
    SpotScore& held = it->second;
    if (added) continue;
    const bool region_level = sc.zone_id.empty(), held_region_level = held.zone_id.empty();
    if (region_level != held_region_level ? region_level : sc.score > held.score) held = sc;
  }
  if (by_count.empty()) return std::nullopt;
  // The smallest scored count that covers the plan, else the largest (a lower bound at best).
  const auto covering = by_count.lower_bound(instances);
  return covering != by_count.end() ? covering->second : by_count.rbegin()->second;
}

}  // namespace

std::optional<double> QuotaUsedVcpus(const AccountScan& scan, const AccountQuota& quota,
                                     int* instances) {
  *instances = 0;
  if (std::find(scan.running_scanned.begin(), scan.running_scanned.end(), quota.region) ==
      scan.running_scanned.end()) {
    return std::nullopt;
  }
  // Running instances of every class this same quota governs take from it.
  double used = 0;
  for (const RunningInstances& ri : scan.running) {
    if (ri.region != quota.region || ri.spot != quota.spot) continue;
    const AccountQuota* q = QuotaFor(scan, ClassOf(ri.instance_type), ri.region, ri.spot);
    if (q == nullptr || q->code != quota.code) continue;
    used += ri.vcpus;
    *instances += ri.count;
  }
  return used;
}

AccountFit CheckPlanAgainstAccount(const AccountScan& scan, const Commitments& left,
                                   const InstanceType& type, int instances, std::string_view region,
                                   PurchaseKind purchase) {
  AccountFit fit;
  fit.needed_vcpus = static_cast<double>(type.vcpus) * instances;
  // Capacity Blocks and Reserved Instances are capacity of their own; on-demand and spot
  // launches count against the class's vCPU quota.
  const bool limited = purchase == PurchaseKind::kOnDemand || purchase == PurchaseKind::kSpot;
  if (limited) {
    const bool spot = purchase == PurchaseKind::kSpot;
    if (const AccountQuota* q = QuotaFor(scan, ClassOf(type.family), region, spot)) {
      fit.quota = *q;
      if (std::optional<double> used = QuotaUsedVcpus(scan, *q, &fit.running_instances)) {
        fit.usage_known = true;
        fit.used_vcpus = *used;
      }
      fit.fits_quota = fit.needed_vcpus <= fit.free_vcpus();
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
  if (purchase == PurchaseKind::kSpot)
    fit.spot_score = BestSpotScore(scan, type, instances, region);
  fit.on_demand = purchase == PurchaseKind::kOnDemand;
  if (purchase == PurchaseKind::kOnDemand) {
    for (const SavingsPlan& sp : scan.savings_plans) {
      const bool covers = sp.type == "Compute" || (sp.type == "EC2Instance" &&
                                                   sp.family == type.family && sp.region == region);
      if (covers) fit.savings_plans.push_back(sp.id);
    }
    // RIs and Savings Plans discount on-demand use only; what running instances left of them.
    fit.coverage = CoverPlan(left, type, instances, region);
  }
  return fit;
}

bool AccountFit::spot_unlikely() const { return spot_score && spot_score->score <= kLowSpotScore; }

double AccountFit::paid_fraction(int instances) const {
  if (!on_demand || instances <= 0) return 0;
  const double paid = coverage.reserved_instances + coverage.savings_plan_instances;
  return std::min(paid, static_cast<double>(instances)) / instances;
}

std::vector<std::string> AccountFitWhy(const AccountFit& fit, int instances, double cost_usd) {
  std::vector<std::string> out = fit.coverage.lines;
  if (out.empty()) return out;
  out.back() += ": the plan adds $" +
                FormatFixed(cost_usd * (1 - fit.paid_fraction(instances)), 2) +
                " to the bill, not $" + FormatFixed(cost_usd, 2);
  return out;
}

std::vector<std::string> AccountFitAdvice(const AccountFit& fit, const InstanceType& type,
                                          int instances, std::string_view region) {
  std::vector<std::string> out;
  if (fit.spot_score && !fit.spot_unlikely()) {
    const SpotScore& sc = *fit.spot_score;
    out.push_back("spot placement score " + std::to_string(sc.score) + "/10 in " +
                  (sc.zone_id.empty() ? std::string(region) : sc.zone_id) + " for " +
                  std::to_string(sc.count) + " x " + type.name + " (scored " +
                  DateOf(sc.scored_at) + ")" +
                  (sc.count < instances ? ", fewer than the plan's " + std::to_string(instances)
                                        : std::string()));
  }
  return out;
}

namespace {

// "a Capacity Block (offered for p5.48xlarge in us-east-1; soonest offer: 1 x p5.48xlarge for
// 24 h from 2026-12-08T11:30:00Z in us-east-1b, 802.56 USD upfront)", the offer as `catalog
// update --aws` read it; "" where the type is not sold that way in the region.
std::string CapacityBlockAlternative(const InstanceType& type, std::string_view region) {
  const RegionOffer* offer = type.FindRegion(region);
  if (offer == nullptr || !offer->capacity_block) return "";
  const std::string& note = offer->capacity_block->note;
  return "a Capacity Block (offered for " + type.name + " in " + std::string(region) +
         (note.empty() ? "" : "; " + note) + ")";
}

// "spot placement score 2/10 in us-east-1: spot capacity for 2 x p5.48xlarge is unlikely ...",
// with what to buy instead; "" when the score is not low (or not known).
std::string SpotScoreWarning(const AccountFit& fit, const InstanceType& type,
                             std::string_view region) {
  if (!fit.spot_unlikely()) return "";
  const SpotScore& sc = *fit.spot_score;
  const std::string block = CapacityBlockAlternative(type, region);
  return "spot placement score " + std::to_string(sc.score) + "/10 in " +
         (sc.zone_id.empty() ? std::string(region) : sc.zone_id) + ": spot capacity for " +
         std::to_string(sc.count) + " x " + type.name + " is unlikely (scored " +
         DateOf(sc.scored_at) + "); " +
         (block.empty() ? "on-demand instead" : "on-demand or " + block + " instead");
}

}  // namespace

std::string AccountFitWarning(const AccountFit& fit, const InstanceType& type,
                              std::string_view region) {
  const std::string where(region);
  if (fit.zones && fit.zones->empty()) {
    return type.name + " is not offered to this account in any availability zone of " + where +
           " (account scan)";
  }
  if (fit.fits_quota || !fit.quota) return SpotScoreWarning(fit, type, region);
  const AccountQuota& q = *fit.quota;
  const std::string need = FormatFixed(fit.needed_vcpus, 0);
  std::string has;
  if (!fit.usage_known) {
    has = "the account has " + FormatFixed(q.vcpus, 0) + " (" + q.code +
          "; running instances were not scanned and take from it too)";
  } else if (fit.running_instances == 0) {
    has = "the account has " + FormatFixed(q.vcpus, 0) + ", none in use (" + q.code + ")";
  } else {
    has = "quota " + FormatFixed(q.vcpus, 0) + ", " + FormatFixed(fit.used_vcpus, 0) +
          " in use by " + std::to_string(fit.running_instances) + " running instance" +
          (fit.running_instances == 1 ? "" : "s") + ", so " + FormatFixed(fit.free_vcpus(), 0) +
          " free (" + q.code + ")";
  }
  // The increase to ask for leaves room for the plan beside what already runs.
  const std::string desired = FormatFixed(fit.used_vcpus + fit.needed_vcpus, 0);
  std::string line =
      "needs " + need + " vCPUs of the " + q.name + " quota in " + where + "; " + has +
      ": aws service-quotas request-service-quota-increase --service-code ec2 --quota-code " +
      q.code + " --desired-value " + desired + " --region " + where;
  // Capacity Blocks take no vCPU quota: the way to run now where the increase takes days.
  if (const std::string block = CapacityBlockAlternative(type, region); !block.empty()) {
    line += "; or buy " + block + ", which takes no vCPU quota";
  }
  return line;
}

std::string AccountWarningFor(const AccountScan& scan, const Catalog& catalog,
                              std::string_view type, int instances, std::string_view region,
                              PurchaseKind purchase) {
  const InstanceType* t = catalog.FindInstanceType(type);
  if (t == nullptr) return "";
  const Commitments left = ApplyCommitmentsToRunning(scan, catalog);
  return AccountFitWarning(CheckPlanAgainstAccount(scan, left, *t, instances, region, purchase), *t,
                           region);
}

}  // namespace gpuadvisor
