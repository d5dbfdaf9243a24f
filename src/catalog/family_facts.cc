#include "catalog/family_facts.h"

#include <mutex>

#include "util/embed.h"
#include "util/rj_reader.h"

#ifndef GPUADVISOR_FAMILY_FACTS_JSON_PATH
#error "GPUADVISOR_FAMILY_FACTS_JSON_PATH must name data/family-facts.json"
#endif

GPUADVISOR_EMBED(family_facts, GPUADVISOR_FAMILY_FACTS_JSON_PATH);

namespace gpuadvisor {
namespace {

std::string Replace(std::string s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// The index of the entry of `items` whose id is `id`, or items.size().
template <class T>
size_t IndexOf(const std::vector<T>& items, std::string_view id) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].id == id) return i;
  }
  return items.size();
}

}  // namespace

std::string MachineImage::ParameterFor(std::string_view arch) const {
  const bool arm = arch == "arm64";
  return Replace(Replace(ssm_parameter, "{arch}", arm ? "arm64" : "x86_64"), "{deb_arch}",
                 arm ? "arm64" : "amd64");
}

const std::string& MachineImage::NameFor(std::string_view arch) const {
  return arch == "arm64" && !arm64_name.empty() ? arm64_name : name;
}

const FamilyFacts* FamilyFactsTable::Find(std::string_view family) const {
  for (const FamilyFacts& f : families) {
    if (f.family == family) return &f;
  }
  return nullptr;
}

const MachineImage* FamilyFactsTable::FindImage(std::string_view id) const {
  const size_t i = IndexOf(images, id);
  return i < images.size() ? &images[i] : nullptr;
}

Result<FamilyFactsTable> ParseFamilyFacts(std::string_view text, std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  const auto fail = [&origin](const JsonPath& at, std::string_view what) {
    return Status::ParseError(std::string(origin) + ": " + at.str() + ": " + std::string(what));
  };
  const JsonPath root("$");
  if (!doc.IsObject()) return fail(root, "expected an object");
  RjReader r{std::string(origin)};
  FamilyFactsTable out;
  out.snapshot_date = r.Str(doc, "snapshot_date", root);
  const rapidjson::Value& groups = r.Array(doc, "quota_groups", root);
  for (rapidjson::SizeType i = 0; i < groups.Size(); ++i) {
    const JsonPath at(root, "quota_groups", i);
    if (!groups[i].IsObject()) return fail(at, "expected an object");
    const rapidjson::Value& g = groups[i];
    out.quota_groups.push_back({r.Str(g, "id", at), r.Str(g, "on_demand", at),
                                r.Str(g, "on_demand_code", at), r.Str(g, "spot", at),
                                r.Str(g, "spot_code", at), r.Bool(g, "accelerated", at)});
  }
  const rapidjson::Value& images = r.Array(doc, "images", root);
  for (rapidjson::SizeType i = 0; i < images.Size(); ++i) {
    const JsonPath at(root, "images", i);
    if (!images[i].IsObject()) return fail(at, "expected an object");
    const rapidjson::Value& m = images[i];
    MachineImage image{r.Str(m, "id", at), r.Str(m, "name", at),
                       r.OptStr(m, "arm64_name", at).value_or(""), r.Str(m, "ssm_parameter", at),
                       r.Str(m, "provides", at)};
    if (m.HasMember("unsupported_gpu_architectures")) {
      image.unsupported_gpu_architectures = r.StrList(m, "unsupported_gpu_architectures", at);
      image.unsupported_why = r.Str(m, "unsupported_why", at);
    }
    out.images.push_back(std::move(image));
  }
  const rapidjson::Value& families = r.Array(doc, "families", root);
  for (rapidjson::SizeType i = 0; i < families.Size(); ++i) {
    const JsonPath at(root, "families", i);
    if (!families[i].IsObject()) return fail(at, "expected an object");
    const rapidjson::Value& e = families[i];
    FamilyFacts f;
    f.family = r.Str(e, "family", at);
    const std::string group = r.Str(e, "quota_group", at), image = r.Str(e, "image", at);
    f.image_lists_family = r.Bool(e, "image_lists_family", at);
    f.cpu_architecture = r.OptStr(e, "cpu_architecture", at).value_or("");
    f.note = r.OptStr(e, "note", at).value_or("");
    if (!r.status().ok()) return r.status();
    f.quota_group = IndexOf(out.quota_groups, group);
    f.image = IndexOf(out.images, image);
    if (f.quota_group == out.quota_groups.size()) {
      return fail(JsonPath(at, "quota_group"),
                  "expected the id of a quota_groups entry, got \"" + group + "\"");
    }
    if (f.image == out.images.size()) {
      return fail(JsonPath(at, "image"),
                  "expected the id of an images entry, got \"" + image + "\"");
    }
    if (out.Find(f.family) != nullptr) return fail(at, "family \"" + f.family + "\" listed twice");
    out.families.push_back(std::move(f));
  }
  if (!r.status().ok()) return r.status();
  return out;
}

Result<const FamilyFactsTable*> EmbeddedFamilyFacts() {
  static std::once_flag once;
  static Result<FamilyFactsTable>* parsed = nullptr;
  std::call_once(once, [] {
    parsed = new Result<FamilyFactsTable>(
        ParseFamilyFacts(GPUADVISOR_EMBEDDED(family_facts), "<embedded data/family-facts.json>"));
  });
  if (!parsed->ok()) return parsed->status();
  return &parsed->value();
}

const VcpuQuota* VcpuQuotaOf(const InstanceType& t) {
  Result<const FamilyFactsTable*> table = EmbeddedFamilyFacts();
  if (!table.ok()) return nullptr;
  const FamilyFacts* f = (*table)->Find(t.family);
  return f == nullptr ? nullptr : &(*table)->QuotaOf(*f);
}

}  // namespace gpuadvisor
