// The served OpenAPI document carries every HTTP option of every table, typed and bounded as the
// table says, and openapi.json itself holds no hand-written copy that could drift.
#include "server/openapi.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/options.h"
#include "gpuadvisor/workload.h"
#include "server/web_assets.h"

namespace gpuadvisor::server {
namespace {

using json = nlohmann::json;

const json& Doc() {
  static const json kDoc = json::parse(OpenApiJson());
  return kDoc;
}

const char* ExpectedType(OptionType t) {
  switch (t) {
    case OptionType::kBool:
      return "boolean";
    case OptionType::kNumber:
      return "number";
    case OptionType::kInteger:
      return "integer";
    case OptionType::kList:
    case OptionType::kFiles:
      return "array";
    default:
      return "string";
  }
}

// `schema` describes option `o`: type, bounds, choices, default.
void ExpectSchemaOf(const OptionSpec& o, const json& schema, const std::string& where) {
  SCOPED_TRACE(where + " " + std::string(o.name));
  EXPECT_EQ(schema.value("type", ""), ExpectedType(o.type));
  if (std::isfinite(o.lo) && (o.type == OptionType::kNumber || o.type == OptionType::kInteger)) {
    ASSERT_TRUE(schema.contains("minimum"));
    EXPECT_EQ(schema["minimum"].get<double>(), o.lo);
  }
  if (std::isfinite(o.hi) && (o.type == OptionType::kNumber || o.type == OptionType::kInteger)) {
    ASSERT_TRUE(schema.contains("maximum"));
    EXPECT_EQ(schema["maximum"].get<double>(), o.hi);
  }
  if (o.type == OptionType::kChoice || (o.type == OptionType::kList && !o.choices.empty())) {
    const json& e = o.type == OptionType::kChoice ? schema["enum"] : schema["items"]["enum"];
    ASSERT_EQ(e.size(), o.choices.size());
    for (size_t i = 0; i < o.choices.size(); ++i) EXPECT_EQ(e[i], std::string(o.choices[i]));
  }
  if (o.default_text.empty()) {
    EXPECT_FALSE(schema.contains("default"));
  } else {
    ASSERT_TRUE(schema.contains("default"));
    const json& d = schema["default"];
    if (o.type == OptionType::kNumber || o.type == OptionType::kInteger) {
      EXPECT_EQ(d.get<double>(), std::stod(std::string(o.default_text)));
    } else if (o.type == OptionType::kBool) {
      EXPECT_TRUE(d.is_boolean());
    } else {
      EXPECT_EQ(d, std::string(o.default_text));
    }
  }
}

TEST(OpenApiTest, EveryHttpOptionOfEveryTableIsDocumentedAtItsEndpoint) {
  const json& paths = Doc()["paths"];
  for (const OpenApiBinding& b : OpenApiBindings()) {
    const std::string where = std::string(b.method) + " " + std::string(b.path);
    SCOPED_TRACE(where);
    Result<const CommandSpec*> spec = FindCommandSpec(b.command);
    ASSERT_TRUE(spec.ok()) << b.command;
    ASSERT_TRUE(paths.contains(std::string(b.path)));
    const json& op = paths[std::string(b.path)][std::string(b.method)];
    size_t http_options = 0;
    size_t generated = 0;
    if (b.in_body) {
      const json& schema = op["requestBody"]["content"]["application/json"]["schema"];
      const json& props = schema["properties"];
      std::set<std::string> required;
      const json required_list = schema.value("required", json::array());
      for (const json& r : required_list) required.insert(r);
      for (const OptionSpec& o : (*spec)->options) {
        const std::string name(o.name);
        if ((o.front_ends & kHttp) == 0) {
          EXPECT_FALSE(props.contains(name)) << name << " is not offered over HTTP";
          continue;
        }
        ++http_options;
        ASSERT_TRUE(props.contains(name)) << name;
        ExpectSchemaOf(o, props[name], where);
        EXPECT_EQ(props[name]["description"].get<std::string>().rfind(OptionHelpText(o), 0), 0U)
            << name;
        EXPECT_EQ(required.count(name), o.required ? 1U : 0U) << name;
      }
      for (const auto& [key, value] : props.items()) {
        if ((*spec)->Find(key) != nullptr) ++generated;
      }
      EXPECT_TRUE(schema["additionalProperties"].get<bool>());
      if (b.workload) {
        for (const std::string& field : WorkloadFieldNames()) {
          EXPECT_TRUE(props.contains(field)) << field;
          // x-tasks (the web page's task-specific form) is exactly WorkloadFieldApplies.
          if (FindWorkloadFieldInfo(field) == nullptr) continue;
          std::set<std::string> listed;
          for (const json& t : props[field]["x-tasks"]) listed.insert(t.get<std::string>());
          for (TaskKind task : kAllTaskKinds) {
            EXPECT_EQ(listed.count(TaskKindName(task)), WorkloadFieldApplies(field, task) ? 1U : 0U)
                << field << " " << TaskKindName(task);
          }
        }
      }
    } else {
      std::map<std::string, json> params;
      for (const json& p : op["parameters"]) params[p["name"]] = p;
      generated = params.size();
      for (const OptionSpec& o : (*spec)->options) {
        const std::string name(o.name);
        if ((o.front_ends & kHttp) == 0) {
          EXPECT_EQ(params.count(name), 0U) << name << " is not offered over HTTP";
          continue;
        }
        ++http_options;
        ASSERT_EQ(params.count(name), 1U) << name;
        const json& p = params[name];
        EXPECT_EQ(p["in"], o.positional ? "path" : "query") << name;
        EXPECT_EQ(p["required"].get<bool>(), o.required || o.positional) << name;
        EXPECT_EQ(p["description"].get<std::string>().rfind(OptionHelpText(o), 0), 0U) << name;
        ExpectSchemaOf(o, p["schema"], where);
      }
    }
    // One generated entry per HTTP option: an entry added to a table shows up here.
    EXPECT_GT(http_options, 0U);
    EXPECT_EQ(generated, http_options);
  }
}

TEST(OpenApiTest, ListsAndDurationsSayHowTheyAreWritten) {
  const json& props = Doc()["paths"]["/v1/recommend"]["post"]["requestBody"]["content"]
                           ["application/json"]["schema"]["properties"];
  EXPECT_NE(props["regions"]["description"].get<std::string>().find("comma-separated string"),
            std::string::npos);
  EXPECT_EQ(props["regions"]["items"]["type"], "string");
  EXPECT_NE(props["deadline"]["description"].get<std::string>().find("1m to 3650d"),
            std::string::npos);
  EXPECT_TRUE(props["deadline"].contains("pattern"));
  EXPECT_EQ(props["model"]["oneOf"].size(), 2U);
  // The renamed option under its new name; the old one is an alias, not a second property.
  const json& pricing =
      Doc()["paths"]["/v1/pricing"]["post"]["requestBody"]["content"]["application/json"]["schema"];
  EXPECT_TRUE(pricing["properties"].contains("storage-gbyte-s"));
  EXPECT_FALSE(pricing["properties"].contains("storage-gbps"));
  EXPECT_EQ(pricing["required"], json::array({"type"}));
}

// Issue 42: the web page labelled options by their names ("Gpu", "Itl p95", "Storage gbyte s").
// Every option and workload field carries its label (x-label) from its declaration: a declared
// label, else its name as words with acronyms and units as they are read.
TEST(OpenApiTest, EveryOptionHasTheLabelItsDeclarationGives) {
  const auto body = [](const char* path) -> const json& {
    return Doc()["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
                ["properties"];
  };
  const json& recommend = body("/v1/recommend");
  EXPECT_EQ(recommend["itl-p95"]["x-label"], "ITL p95");
  EXPECT_EQ(recommend["ttft-p95"]["x-label"], "TTFT p95");
  EXPECT_EQ(recommend["kv-heads"]["x-label"], "KV heads");
  EXPECT_EQ(recommend["rps"]["x-label"], "Requests per second");
  EXPECT_EQ(recommend["zero"]["x-label"], "ZeRO stage");
  EXPECT_EQ(recommend["seq-len"]["x-label"], "Sequence length");
  const json& pricing = body("/v1/pricing");
  EXPECT_EQ(pricing["storage-gbyte-s"]["x-label"], "Storage bandwidth");
  EXPECT_EQ(pricing["checkpoint-gib"]["x-label"], "Checkpoint GiB");
  EXPECT_NE(pricing["storage-gbyte-s"]["description"].get<std::string>().find("GB/s"),
            std::string::npos);
  const json& instances = Doc()["paths"]["/v1/instances"]["get"]["parameters"];
  std::map<std::string, std::string> labels;
  for (const json& p : instances) labels[p["name"]] = p["schema"].value("x-label", "");
  EXPECT_EQ(labels["gpu"], "GPU");
  EXPECT_EQ(labels["max-price"], "Max price");
  EXPECT_EQ(labels["min-gpus"], "Min GPUs");
  for (const auto& [path, item] : Doc()["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      const json params = op.value("parameters", json::array());
      for (const json& p : params) {
        EXPECT_FALSE(p["schema"].value("x-label", "").empty())
            << method << " " << path << " " << p["name"];
      }
      if (!op.contains("requestBody")) continue;
      const json& schema = op["requestBody"]["content"].begin().value()["schema"];
      const json props = schema.value("properties", json::object());
      for (const auto& [name, s] : props.items()) {
        if (name == "plan") continue;  // launch's plan: the base document's own
        const std::string label = s.value("x-label", "");
        EXPECT_FALSE(label.empty()) << method << " " << path << " " << name;
        // Never a name with only its first letter raised: "Gpu", "Itl p95".
        EXPECT_EQ(label.find("Gpu"), std::string::npos) << label;
        EXPECT_EQ(label.find("gib"), std::string::npos) << label;
      }
    }
  }
}

// openapi.json holds no parameter or property a table makes: nothing there to drift.
TEST(OpenApiTest, BaseDocumentHasNoHandWrittenOptions) {
  const json base = json::parse(OpenApiDocument());
  for (const OpenApiBinding& b : OpenApiBindings()) {
    SCOPED_TRACE(b.path);
    const json& op = base["paths"][std::string(b.path)][std::string(b.method)];
    EXPECT_FALSE(op.contains("parameters"));
    if (b.in_body) {
      const json& schema = op["requestBody"]["content"]["application/json"]["schema"];
      Result<const CommandSpec*> spec = FindCommandSpec(b.command);
      ASSERT_TRUE(spec.ok());
      const json props = schema.value("properties", json::object());
      for (const auto& [key, value] : props.items()) {
        EXPECT_EQ((*spec)->Find(key), nullptr) << key;
        EXPECT_EQ(FindWorkloadFieldInfo(key), nullptr) << key;
      }
    }
  }
}

// The served document is valid OpenAPI 3.0 by openapi-spec-validator, where Python has it.
TEST(OpenApiTest, DocumentPassesOpenApiSpecValidator) {
  if (std::system("python3 -c 'import openapi_spec_validator' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "python3 with openapi_spec_validator not found; structure checked above";
  }
  const std::string path = ::testing::TempDir() + "gpuadvisor_openapi_test.json";
  {
    std::ofstream out(path);
    out << OpenApiJson();
  }
  const std::string cmd =
      "python3 -c 'import json,sys; from openapi_spec_validator import validate; "
      "validate(json.load(open(sys.argv[1])))' " +
      path;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "openapi-spec-validator refused " << path;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpuadvisor::server
