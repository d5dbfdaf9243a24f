// ReadPlanJson: a plan as `recommend --json` writes it (doc/formats.md, "recommend").
#include <nlohmann/json.hpp>
#include <string>

#include "gpuadvisor/launch.h"
#include "util/aws_names.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

using json = nlohmann::json;

constexpr double kMaxCheckpointGib = 1e7;
constexpr double kMaxPlanHours = 1e6;  // over a century

Status Bad(std::string_view origin, const std::string& field, const std::string& expected) {
  return Status::ParseError(std::string(origin) + ": " + field + ": expected " + expected)
      .WithField("plan");
}

Status ReadPlan(const json& plan, const std::string& at, std::string_view origin, LaunchRequest* r,
                double* hours) {
  if (!plan.is_object()) return Bad(origin, at, "a plan object");
  const auto type = plan.find("instance_type");
  if (type == plan.end() || !type->is_string()) {
    return Bad(origin, at + ".instance_type", "an instance type name");
  }
  // Names end up in the launch spec's command lines and templates (util/aws_names.h).
  if (std::string bad = InstanceTypeNameProblem(type->get<std::string>()); !bad.empty()) {
    return Bad(origin, at + ".instance_type", bad);
  }
  r->instance_type = type->get<std::string>();
  if (const auto n = plan.find("instances"); n != plan.end()) {
    if (!n->is_number_integer() || n->get<int64_t>() < 1 || n->get<int64_t>() > 1000) {
      return Bad(origin, at + ".instances", "an integer 1..1000");
    }
    r->count = static_cast<int>(n->get<int64_t>());
  }
  if (const auto region = plan.find("region"); region != plan.end()) {
    if (!region->is_string()) return Bad(origin, at + ".region", "a region name");
    if (std::string bad = RegionCodeProblem(region->get<std::string>()); !bad.empty()) {
      return Bad(origin, at + ".region", bad);
    }
    r->region = region->get<std::string>();
  }
  if (const auto p = plan.find("purchase"); p != plan.end()) {
    // recommend writes PurchaseKindName; the parser also takes the short forms.
    Result<PurchaseKind> kind = ParsePurchaseKind(p->is_string() ? p->get<std::string>() : "",
                                                  at + ".purchase", AllPurchaseKinds());
    if (!kind.ok()) {
      return Status::ParseError(std::string(origin) + ": " + kind.status().message())
          .WithField("plan");
    }
    r->purchase = *kind;
  }
  if (const auto e = plan.find("estimate"); e != plan.end() && e->is_object()) {
    const auto c = e->find("checkpoint_gib");
    if (c != e->end() && !c->is_null()) {
      // Bounded as --dataset-gib is: the data volume is sized from it (an int of GiB).
      if (!c->is_number() || !(c->get<double>() >= 0 && c->get<double>() <= kMaxCheckpointGib)) {
        return Bad(origin, at + ".estimate.checkpoint_gib", "a size in GiB (0 to 1e7) or null");
      }
      r->checkpoint_gib = c->get<double>();
    }
  }
  if (const auto t = plan.find("inter_node_traffic"); t != plan.end() && !t->is_null()) {
    if (!t->is_boolean()) return Bad(origin, at + ".inter_node_traffic", "true, false or null");
    r->inter_node_traffic = t->get<bool>();
  }
  if (hours != nullptr) {
    const auto t = plan.find("time_hours");
    if (t == plan.end() || !t->is_number() ||
        !(t->get<double>() > 0 && t->get<double>() <= kMaxPlanHours)) {
      return Bad(origin, at + ".time_hours",
                 "how long the plan runs, hours (above 0, at most 1e6)");
    }
    *hours = t->get<double>();
  }
  r->plan_note = "plan";
  if (const auto rank = plan.find("rank"); rank != plan.end() && rank->is_number_integer()) {
    r->plan_note = "recommend rank " + std::to_string(rank->get<int64_t>());
  }
  return Status::OK();
}

}  // namespace

Status ReadPlanJson(std::string_view text, std::string_view origin, int rank,
                    LaunchRequest* request, double* hours) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    return Status::ParseError(std::string(origin) + ": byte " + std::to_string(e.byte) +
                              ": not valid JSON")
        .WithField("plan");
  } catch (const json::out_of_range&) {  // "1e400": the parser refuses, it does not give inf
    return Status::ParseError(std::string(origin) + ": a number out of range (over 1.8e308)")
        .WithField("plan");
  }
  GPUADVISOR_RETURN_IF_ERROR(CheckUniqueJsonKeys(text, origin).WithField("plan"));
  if (doc.is_object() && doc.contains("plans")) {
    const json& plans = doc["plans"];
    if (!plans.is_array()) return Bad(origin, "plans", "an array");
    if (plans.empty()) return Bad(origin, "plans", "at least one plan (the search found none)");
    if (rank < 1 || static_cast<size_t>(rank) > plans.size()) {
      return Status::InvalidArgument("rank: the plan file has " + std::to_string(plans.size()) +
                                     " plan(s), got " + std::to_string(rank))
          .WithField("rank");
    }
    const auto i = static_cast<size_t>(rank - 1);
    return ReadPlan(plans[i], "plans[" + std::to_string(i) + "]", origin, request, hours);
  }
  return ReadPlan(doc, "plan", origin, request, hours);
}

}  // namespace gpuadvisor
