// The OpenAPI document: openapi.json with the option tables' parameters and body properties.
#include "server/openapi.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "app/options.h"
#include "gpuadvisor/workload.h"
#include "server/web_assets.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::server {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::string_view kDurationForm =
    " A duration: 90s, 30m, 36h, 14d, 2w (a plain number is hours).";
constexpr std::string_view kListForm =
    " An array of strings; a comma-separated string is accepted too.";

// The option's default as JSON of its own type ("730" -> 730, "" -> null = none).
ojson DefaultOf(const OptionSpec& o) {
  std::string text(o.default_text);
  if (text.empty()) return nullptr;
  switch (o.type) {
    case OptionType::kBool:
      return text == "true" || text == "1";
    case OptionType::kNumber:
    case OptionType::kInteger: {
      Result<double> v = ParseSiNumber(text, o.name);
      if (!v.ok()) return text;
      if (o.type == OptionType::kInteger) return static_cast<int64_t>(std::llround(*v));
      return *v;
    }
    case OptionType::kList: {
      ojson items = ojson::array();
      for (std::string_view item : Split(text, ',')) items.push_back(std::string(Trim(item)));
      return items;
    }
    default:
      return text;
  }
}

ojson StringEnum(const std::vector<std::string_view>& choices) {
  ojson s = {{"type", "string"}};
  if (!choices.empty()) {
    s["enum"] = ojson::array();
    for (std::string_view c : choices) s["enum"].push_back(std::string(c));
  }
  return s;
}

// The JSON Schema of one option's value; `description` is its --help text.
ojson OptionSchema(const OptionSpec& o) {
  ojson s;
  std::string description = OptionHelpText(o);
  switch (o.type) {
    case OptionType::kBool:
      s["type"] = "boolean";
      break;
    case OptionType::kNumber:
    case OptionType::kInteger:
      s["type"] = o.type == OptionType::kNumber ? "number" : "integer";
      if (std::isfinite(o.lo)) s["minimum"] = o.lo;
      if (std::isfinite(o.hi)) s["maximum"] = o.hi;
      break;
    case OptionType::kDuration:
      // Bounds are in seconds but the value is text, so they are in the description only.
      s["type"] = "string";
      s["pattern"] = R"(^\s*[0-9.][0-9.eE+]*[smhdw]?\s*$)";
      description += kDurationForm;
      break;
    case OptionType::kChoice:
      s = StringEnum(o.choices);
      break;
    case OptionType::kList:
    case OptionType::kFiles:
      s["type"] = "array";
      s["items"] = StringEnum(o.choices);
      description += kListForm;
      break;
    case OptionType::kText:
      s["type"] = "string";
      break;
  }
  if (ojson d = DefaultOf(o); !d.is_null()) s["default"] = d;
  s["description"] = description;
  // How a form labels it (the web page's English label; its unit is in the description).
  s["x-label"] = OptionLabel(o);
  return s;
}

ojson Parameter(const OptionSpec& o, std::string_view in) {
  ojson schema = OptionSchema(o);
  ojson p = {{"name", std::string(o.name)},
             {"in", std::string(in)},
             {"required", o.required || in == "path"},
             {"description", schema["description"]}};
  schema.erase("description");
  if (o.type == OptionType::kList) {
    p["style"] = "form";  // ?gpu=H100&gpu=L4 (or ?gpu=H100,L4)
    p["explode"] = true;
  }
  p["schema"] = schema;
  return p;
}

// A workload field as a body property: booleans are booleans, numbers may be text ("1T", "8k").
ojson WorkloadFieldSchema(const std::string& name) {
  const WorkloadFieldInfo* info = FindWorkloadFieldInfo(name);
  std::string help = info != nullptr ? info->help : "workload field";
  const std::string_view value = info != nullptr ? info->value : "";
  ojson s;
  if (IsFileWorkloadField(name)) {
    s["type"] = "object";
    help += ". Over HTTP the file's content as an inline JSON object; a path is refused (400)";
  } else if (name == "model") {
    s["oneOf"] = {{{"type", "string"}}, {{"type", "object"}}};
    help += ". A preset name (GET /v1/models) or an object of architecture keys";
  } else if (value == "BOOL") {
    s["type"] = "boolean";
  } else {
    s["oneOf"] = {{{"type", "number"}}, {{"type", "string"}}};
  }
  s["description"] = help;
  s["x-label"] =
      info != nullptr && *info->label != '\0' ? std::string(info->label) : OptionNameAsWords(name);
  // The tasks the field applies to (WorkloadFieldApplies, the check behind "does not apply to
  // task") and its value kind (N, DUR, GIB, BOOL, ...): the web page builds its task-specific
  // form from these instead of a list of its own.
  if (info != nullptr) {
    ojson tasks = ojson::array();
    for (TaskKind t : kAllTaskKinds) {
      if (WorkloadFieldApplies(name, t)) tasks.push_back(TaskKindName(t));
    }
    s["x-tasks"] = tasks;
    s["x-value"] = std::string(value);
  }
  return s;
}

void ApplyToQuery(const CommandSpec& spec, ojson* op) {
  ojson params = ojson::array();
  for (const OptionSpec& o : spec.options) {
    if ((o.front_ends & kHttp) == 0) continue;
    params.push_back(Parameter(o, o.positional ? "path" : "query"));
  }
  (*op)["parameters"] = params;
}

void ApplyToBody(const CommandSpec& spec, bool workload, ojson* op) {
  ojson& schema = (*op)["requestBody"]["content"]["application/json"]["schema"];
  // What the base document lists itself (launch's "plan") is not in any table: kept, first.
  ojson props = schema.contains("properties") ? schema["properties"] : ojson::object();
  ojson required = ojson::array();
  for (const OptionSpec& o : spec.options) {
    if ((o.front_ends & kHttp) == 0) continue;
    props[std::string(o.name)] = OptionSchema(o);
    if (o.required) required.push_back(std::string(o.name));
  }
  std::string description = "The " + std::string(spec.name) + " options";
  if (workload) {
    for (const std::string& name : WorkloadFieldNames()) {
      if (!props.contains(name)) props[name] = WorkloadFieldSchema(name);
    }
    description +=
        " and the workload fields (the CLI's workload flags without dashes, as in "
        "--workload files)";
  }
  description +=
      ". Keys may also be spelled with underscores (min_gpus); a value may be given "
      "as text (\"1.5k\", \"true\").";
  schema["type"] = "object";
  schema["description"] = description;
  schema["properties"] = props;
  if (required.empty()) {
    schema.erase("required");
  } else {
    schema["required"] = required;
  }
  // Underscore spellings of the keys above are accepted too.
  schema["additionalProperties"] = true;
}

std::string Build() {
  ojson doc = ojson::parse(OpenApiDocument(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return std::string(OpenApiDocument());  // a test catches this
  for (const OpenApiBinding& b : OpenApiBindings()) {
    Result<const CommandSpec*> spec = FindCommandSpec(b.command);
    const std::string path(b.path);
    const std::string method(b.method);
    if (!spec.ok() || !doc["paths"].contains(path) || !doc["paths"][path].contains(method)) {
      continue;  // OpenApiTest checks every binding against the tables and the document
    }
    ojson& op = doc["paths"][path][method];
    if (b.in_body) {
      ApplyToBody(**spec, b.workload, &op);
    } else {
      ApplyToQuery(**spec, &op);
    }
  }
  return doc.dump(1);
}

}  // namespace

const std::vector<OpenApiBinding>& OpenApiBindings() {
  static const std::vector<OpenApiBinding> kBindings = {
      {"/v1/instances", "get", "instances", false, false},
      {"/v1/instances/{type}", "get", "show", false, false},
      {"/v1/gpus", "get", "gpus", false, false},
      {"/v1/idle", "post", "idle", false, false},
      {"/v1/idle", "put", "idle", false, false},
      {"/v1/commitments", "post", "commitments", false, false},
      {"/v1/commitments", "put", "commitments", false, false},
      {"/v1/estimate", "post", "estimate", true, true},
      {"/v1/recommend", "post", "recommend", true, true},
      {"/v1/pricing", "post", "pricing", true, false},
      // The launch handler takes a plan or a type, not a workload.
      {"/v1/launch", "post", "launch", true, false},
  };
  return kBindings;
}

const std::string& OpenApiJson() {
  static const std::string kDocument = Build();
  return kDocument;
}

}  // namespace gpuadvisor::server
