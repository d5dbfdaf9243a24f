// The gpuadvisor-catalog/1 JSON schema (doc/formats.md): writer and reader.
// Keys are written in a fixed order and nulls are written out, so a rebuilt catalog diffs cleanly.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "catalog/record_checks.h"
#include "gpuadvisor/catalog.h"
#include "util/files.h"
#include "util/json_text.h"
#include "util/rj_reader.h"

namespace gpuadvisor {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kSchema = "gpuadvisor-catalog/1";

template <typename T>
ojson Opt(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

ojson PriceJson(const std::optional<Price>& p) {
  if (!p) return nullptr;
  ojson o = {{"usd_per_hour", p->usd_per_hour},
             {"source", p->from.source},
             {"date", p->from.date},
             {"estimated", p->estimated}};
  if (!p->note.empty()) o["note"] = p->note;
  return o;
}

ojson RegionJson(const RegionOffer& r) {
  ojson band = nullptr;
  if (r.spot_band) {
    band = {{"index", r.spot_band->index},        {"label", r.spot_band->label},
            {"max_pct", r.spot_band->max_pct},    {"savings_pct", r.spot_band->savings_pct},
            {"source", r.spot_band->from.source}, {"date", r.spot_band->from.date}};
  }
  ojson o = {
      {"region", r.region},        {"offered", Opt(r.offered)},
      {"az_ids", r.az_ids},        {"on_demand", PriceJson(r.on_demand)},
      {"spot", PriceJson(r.spot)}, {"reserved_1y_no_upfront", PriceJson(r.reserved_1y_no_upfront)},
      {"spot_band", band}};
  // Written only when present, so catalogs without them stay byte-identical.
  if (r.capacity_block) o["capacity_block"] = PriceJson(r.capacity_block);
  if (!r.reserved.empty()) {
    ojson list = ojson::array();
    for (const ReservedPrice& p : r.reserved) {
      list.push_back({{"years", p.years},
                      {"offering_class", p.offering_class},
                      {"payment", p.payment},
                      {"upfront_usd", p.upfront_usd},
                      {"usd_per_hour", p.usd_per_hour},
                      {"source", p.from.source},
                      {"date", p.from.date}});
    }
    o["reserved"] = std::move(list);
  }
  if (!r.savings_plans.empty()) {
    ojson list = ojson::array();
    for (const SavingsPlanRate& p : r.savings_plans) {
      list.push_back({{"plan", p.plan},
                      {"years", p.years},
                      {"payment", p.payment},
                      {"usd_per_hour", p.usd_per_hour},
                      {"source", p.from.source},
                      {"date", p.from.date}});
    }
    o["savings_plans"] = std::move(list);
  }
  if (!r.history.empty()) {
    ojson list = ojson::array();
    for (const PricePoint& p : r.history) {
      list.push_back({{"kind", p.kind},
                      {"usd_per_hour", p.usd_per_hour},
                      {"source", p.from.source},
                      {"date", p.from.date}});
    }
    o["history"] = std::move(list);
  }
  return o;
}

ojson InstanceJson(const InstanceType& t) {
  const Accelerator& a = t.accelerator;
  ojson regions = ojson::array();
  for (const RegionOffer& r : t.regions) regions.push_back(RegionJson(r));
  return {
      {"instance_type", t.name},
      {"family", t.family},
      {"retired", t.retired},
      {"retired_note", t.retired_note},
      {"accelerator",
       {{"kind", AcceleratorKindName(a.kind)},
        {"vendor", a.vendor},
        {"model", a.model},
        {"aws_name", a.aws_name},
        {"count", a.count},
        {"logical_count", a.logical_count},
        {"partition_size", a.partition_size},
        {"memory_mib_each", Opt(a.memory_mib_each)},
        {"memory_mib_total", Opt(a.memory_mib_total)},
        {"neuron_cores_each", Opt(a.neuron_cores_each)}}},
      {"vcpus", t.vcpus},
      {"memory_mib", t.memory_mib},
      {"cpu_architectures", t.cpu_architectures},
      {"cpu_vendor", t.cpu_vendor},
      {"network",
       {{"performance", t.network_performance},
        {"gbps", Opt(t.network_gbps)},
        {"baseline_gbps", Opt(t.network_baseline_gbps)},
        {"peak_gbps", Opt(t.network_peak_gbps)},
        {"cards", t.network_cards},
        {"max_interfaces", t.max_network_interfaces},
        {"efa", t.efa},
        {"max_efa_interfaces", t.max_efa_interfaces},
        {"ena_srd", t.ena_srd}}},
      {"local_storage",
       {{"total_gb", Opt(t.local_storage_gb)},
        {"disk_count", t.local_disk_count},
        {"disk_gb", Opt(t.local_disk_gb)},
        {"type", t.local_disk_type},
        {"nvme", t.local_nvme}}},
      {"ebs", {{"baseline_mbps", Opt(t.ebs_baseline_mbps)}, {"max_mbps", Opt(t.ebs_max_mbps)}}},
      {"usage_classes", t.usage_classes},
      {"placement_strategies", t.placement_strategies},
      {"bare_metal", t.bare_metal},
      {"spec_source", t.spec_from.source},
      {"spec_date", t.spec_from.date},
      {"regions", regions},
  };
}

ojson GpuJson(const GpuSpec& g) {
  return {{"model", g.model},
          {"full_name", g.full_name},
          {"vendor", g.vendor},
          {"architecture", g.architecture},
          {"aliases", g.aliases},
          {"aws_names", g.aws_names},
          {"memory_gib", Opt(g.memory_gib)},
          {"aws_memory_mib", Opt(g.aws_memory_mib)},
          {"memory_bw_gbps", Opt(g.memory_bw_gbps)},
          {"fp64_tflops", Opt(g.fp64_tflops)},
          {"fp32_tflops", Opt(g.fp32_tflops)},
          {"tf32_tflops", Opt(g.tf32_tflops)},
          {"bf16_tflops", Opt(g.bf16_tflops)},
          {"fp16_tflops", Opt(g.fp16_tflops)},
          {"fp8_tflops", Opt(g.fp8_tflops)},
          {"int8_tops", Opt(g.int8_tops)},
          {"fp64_tensor_tflops", Opt(g.fp64_tensor_tflops)},
          {"nvlink_gbps", Opt(g.nvlink_gbps)},
          {"neuron_cores", g.neuron_cores > 0 ? ojson(g.neuron_cores) : ojson(nullptr)},
          {"neuronlink_gbyte_s", Opt(g.neuronlink_gbyte_s)},
          {"neuronlink_topology", g.neuronlink_topology},
          {"tdp_w", Opt(g.tdp_w)},
          {"nvenc", Opt(g.nvenc)},
          {"compute_capability", Opt(g.compute_capability)},
          {"supports_bf16", g.supports_bf16},
          {"supports_fp8", g.supports_fp8},
          {"supports_tf32", g.supports_tf32},
          {"confidence", g.confidence},
          {"derivation", g.derivation},
          {"derived_fields", g.derived_fields},
          {"source", g.from.source},
          {"date", g.from.date},
          {"datasheet", g.source_note},
          {"notes", g.notes}};
}

// ---- reading (RapidJSON: the hot path of every CLI start) ----
// Figures are held to the import policy (catalog/record_checks.h): a catalog is our own file, so
// anything outside it (a $0 or 1e308 price, 10^12 GPUs, negative memory) is refused, never
// skipped.

void CheckUsd(RjReader& r, double usd, const std::string& path, bool zero_ok = false,
              double cap = kMaxUsdPerHour) {
  PriceCheck c = CheckPrice(usd, cap);
  if (c == PriceCheck::kBad || (c == PriceCheck::kZero && !zero_ok)) {
    r.Fail(path, PriceWanted(usd, cap));
  }
}

// An integer field within [lo, hi]; lo - 1 (after recording the error) when outside.
int64_t IntIn(RjReader& r, const rapidjson::Value& obj, const char* key, const std::string& path,
              int64_t lo, int64_t hi) {
  int64_t v = r.Int(obj, key, path);
  std::string bad = CheckCount(v, lo, hi);
  if (!bad.empty() && r.status().ok()) r.Fail(path + "." + key, bad);
  return bad.empty() ? v : lo;
}

std::optional<Price> ReadPrice(RjReader& r, const rapidjson::Value& obj, const char* key,
                               const std::string& path) {
  const rapidjson::Value* p = r.OptObject(obj, key, path);
  if (!p) return std::nullopt;
  std::string pp = path + "." + key;
  Price price;
  price.usd_per_hour = r.Num(*p, "usd_per_hour", pp);
  price.from.source = r.Str(*p, "source", pp);
  price.from.date = r.Str(*p, "date", pp);
  price.estimated = r.OptBool(*p, "estimated", pp).value_or(false);
  price.note = r.OptStr(*p, "note", pp).value_or("");
  CheckUsd(r, price.usd_per_hour, pp + ".usd_per_hour");
  return price;
}

RegionOffer ReadRegion(RjReader& r, const rapidjson::Value& obj, const std::string& path) {
  RegionOffer o;
  o.region = r.Str(obj, "region", path);
  o.offered = r.OptBool(obj, "offered", path);
  o.az_ids = r.StrList(obj, "az_ids", path);
  o.on_demand = ReadPrice(r, obj, "on_demand", path);
  o.spot = ReadPrice(r, obj, "spot", path);
  o.reserved_1y_no_upfront = ReadPrice(r, obj, "reserved_1y_no_upfront", path);
  o.capacity_block = ReadPrice(r, obj, "capacity_block", path);
  if (const rapidjson::Value* b = r.OptObject(obj, "spot_band", path)) {
    std::string bp = path + ".spot_band";
    SpotBand band;
    band.index = static_cast<int>(r.Int(*b, "index", bp));
    band.label = r.Str(*b, "label", bp);
    band.max_pct = r.Num(*b, "max_pct", bp);
    band.savings_pct = static_cast<int>(r.Int(*b, "savings_pct", bp));
    band.from.source = r.Str(*b, "source", bp);
    band.from.date = r.Str(*b, "date", bp);
    o.spot_band = band;
  }
  const rapidjson::Value& reserved = r.Array(obj, "reserved", path, false);
  for (rapidjson::SizeType i = 0; i < reserved.Size() && r.status().ok(); ++i) {
    std::string p = path + ".reserved[" + std::to_string(i) + "]";
    ReservedPrice rp;
    rp.years = static_cast<int>(r.Int(reserved[i], "years", p));
    rp.offering_class = r.Str(reserved[i], "offering_class", p);
    rp.payment = r.Str(reserved[i], "payment", p);
    rp.upfront_usd = r.Num(reserved[i], "upfront_usd", p);
    rp.usd_per_hour = r.Num(reserved[i], "usd_per_hour", p);
    rp.from.source = r.Str(reserved[i], "source", p);
    rp.from.date = r.Str(reserved[i], "date", p);
    if (rp.years != 1 && rp.years != 3) r.Fail(p + ".years", "1 or 3");
    // An All Upfront term has a $0 hourly charge and a no-upfront one a $0 fee; not both.
    CheckUsd(r, rp.upfront_usd, p + ".upfront_usd", true, kMaxUpfrontUsd);
    CheckUsd(r, rp.usd_per_hour, p + ".usd_per_hour", true);
    if (r.status().ok()) CheckUsd(r, rp.effective_usd_per_hour(), p + " (effective hourly)");
    o.reserved.push_back(std::move(rp));
  }
  const rapidjson::Value& plans = r.Array(obj, "savings_plans", path, false);
  for (rapidjson::SizeType i = 0; i < plans.Size() && r.status().ok(); ++i) {
    std::string p = path + ".savings_plans[" + std::to_string(i) + "]";
    SavingsPlanRate sp;
    sp.plan = r.Str(plans[i], "plan", p);
    sp.years = static_cast<int>(r.Int(plans[i], "years", p));
    sp.payment = r.Str(plans[i], "payment", p);
    sp.usd_per_hour = r.Num(plans[i], "usd_per_hour", p);
    sp.from.source = r.Str(plans[i], "source", p);
    sp.from.date = r.Str(plans[i], "date", p);
    CheckUsd(r, sp.usd_per_hour, p + ".usd_per_hour");
    o.savings_plans.push_back(std::move(sp));
  }
  // One 1-year RI price for every command, even in a catalog where the headline figure and the
  // itemised term disagree (written before the choice was made in one place).
  o.reserved_1y_no_upfront = o.Reserved1y();
  const rapidjson::Value& history = r.Array(obj, "history", path, false);
  for (rapidjson::SizeType i = 0; i < history.Size() && r.status().ok(); ++i) {
    std::string p = path + ".history[" + std::to_string(i) + "]";
    PricePoint pt;
    pt.kind = r.Str(history[i], "kind", p);
    pt.usd_per_hour = r.Num(history[i], "usd_per_hour", p);
    pt.from.source = r.Str(history[i], "source", p);
    pt.from.date = r.Str(history[i], "date", p);
    CheckUsd(r, pt.usd_per_hour, p + ".usd_per_hour");
    o.history.push_back(std::move(pt));
  }
  return o;
}

template <typename T>
std::optional<T> OptCast(const std::optional<int64_t>& v) {
  return v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt;
}

InstanceType ReadInstance(RjReader& r, const rapidjson::Value& obj, const std::string& path) {
  InstanceType t;
  t.name = r.Str(obj, "instance_type", path);
  if (t.name.empty() && r.status().ok()) r.Fail(path + ".instance_type", "a non-empty name");
  t.family = r.Str(obj, "family", path);
  t.retired = r.Bool(obj, "retired", path);
  t.retired_note = r.OptStr(obj, "retired_note", path).value_or("");
  static const rapidjson::Value kEmptyObj(rapidjson::kObjectType);
  const rapidjson::Value* a = r.OptObject(obj, "accelerator", path);
  if (!a) {
    r.Fail(path + ".accelerator", "an object");
    a = &kEmptyObj;
  }
  std::string ap = path + ".accelerator";
  Accelerator& acc = t.accelerator;
  std::string kind = r.Str(*a, "kind", ap);
  if (auto k = ParseAcceleratorKind(kind)) {
    acc.kind = *k;
  } else if (r.status().ok()) {
    r.Fail(ap + ".kind", "one of gpu, neuron, inference, fpga, media");
  }
  acc.vendor = r.Str(*a, "vendor", ap);
  acc.model = r.Str(*a, "model", ap);
  acc.aws_name = r.Str(*a, "aws_name", ap, false);
  acc.count = static_cast<int>(IntIn(r, *a, "count", ap, 0, kMaxDevicesPerInstance));
  acc.logical_count =
      static_cast<int>(IntIn(r, *a, "logical_count", ap, 0, kMaxDevicesPerInstance));
  acc.partition_size = r.Num(*a, "partition_size", ap);
  if (!(acc.partition_size > 0 && acc.partition_size <= 1) && r.status().ok()) {
    r.Fail(ap + ".partition_size", "a fraction above 0 and at most 1");
  }
  acc.memory_mib_each =
      OptCast<int>(OptMemoryMib(r, *a, "memory_mib_each", ap, kMaxDeviceMemoryMib));
  acc.memory_mib_total =
      OptMemoryMib(r, *a, "memory_mib_total", ap, kMaxDeviceMemoryMib * kMaxDevicesPerInstance);
  acc.neuron_cores_each = OptCast<int>(r.OptInt(*a, "neuron_cores_each", ap));
  t.vcpus = static_cast<int>(IntIn(r, obj, "vcpus", path, 0, kMaxVcpus));
  t.memory_mib = r.Int(obj, "memory_mib", path);
  if (!CheckMemoryMib(t.memory_mib, kMaxInstanceMemoryMib).empty() && r.status().ok()) {
    r.Fail(path + ".memory_mib", CheckMemoryMib(t.memory_mib, kMaxInstanceMemoryMib));
  }
  t.cpu_architectures = r.StrList(obj, "cpu_architectures", path);
  t.cpu_vendor = r.Str(obj, "cpu_vendor", path, false);
  if (const rapidjson::Value* n = r.OptObject(obj, "network", path)) {
    std::string np = path + ".network";
    t.network_performance = r.Str(*n, "performance", np, false);
    t.network_gbps = r.OptNum(*n, "gbps", np);
    t.network_baseline_gbps = r.OptNum(*n, "baseline_gbps", np);
    t.network_peak_gbps = r.OptNum(*n, "peak_gbps", np);
    t.network_cards = static_cast<int>(r.OptInt(*n, "cards", np).value_or(1));
    t.max_network_interfaces = static_cast<int>(r.OptInt(*n, "max_interfaces", np).value_or(0));
    t.efa = r.OptBool(*n, "efa", np).value_or(false);
    t.max_efa_interfaces = static_cast<int>(r.OptInt(*n, "max_efa_interfaces", np).value_or(0));
    t.ena_srd = r.OptBool(*n, "ena_srd", np).value_or(false);
  }
  if (const rapidjson::Value* s = r.OptObject(obj, "local_storage", path)) {
    std::string sp = path + ".local_storage";
    t.local_storage_gb = OptCast<int>(r.OptInt(*s, "total_gb", sp));
    t.local_disk_count = static_cast<int>(r.OptInt(*s, "disk_count", sp).value_or(0));
    t.local_disk_gb = OptCast<int>(r.OptInt(*s, "disk_gb", sp));
    t.local_disk_type = r.OptStr(*s, "type", sp).value_or("");
    t.local_nvme = r.OptBool(*s, "nvme", sp).value_or(false);
  }
  if (const rapidjson::Value* e = r.OptObject(obj, "ebs", path)) {
    t.ebs_baseline_mbps = OptCast<int>(r.OptInt(*e, "baseline_mbps", path + ".ebs"));
    t.ebs_max_mbps = OptCast<int>(r.OptInt(*e, "max_mbps", path + ".ebs"));
  }
  t.usage_classes = r.StrList(obj, "usage_classes", path);
  t.placement_strategies = r.StrList(obj, "placement_strategies", path);
  t.bare_metal = r.OptBool(obj, "bare_metal", path).value_or(false);
  t.spec_from.source = r.Str(obj, "spec_source", path, false);
  t.spec_from.date = r.Str(obj, "spec_date", path, false);
  const rapidjson::Value& regions = r.Array(obj, "regions", path, false);
  for (size_t i = 0; i < regions.Size() && r.status().ok(); ++i) {
    t.regions.push_back(ReadRegion(r, regions[static_cast<rapidjson::SizeType>(i)],
                                   path + ".regions[" + std::to_string(i) + "]"));
  }
  std::sort(t.regions.begin(), t.regions.end(),
            [](const RegionOffer& x, const RegionOffer& y) { return x.region < y.region; });
  return t;
}

GpuSpec ReadGpu(RjReader& r, const rapidjson::Value& obj, const std::string& path) {
  GpuSpec g;
  g.model = r.Str(obj, "model", path);
  g.full_name = r.Str(obj, "full_name", path, false);
  g.vendor = r.Str(obj, "vendor", path, false);
  g.architecture = r.Str(obj, "architecture", path, false);
  g.aliases = r.StrList(obj, "aliases", path);
  g.aws_names = r.StrList(obj, "aws_names", path);
  g.memory_gib = r.OptNum(obj, "memory_gib", path);
  g.aws_memory_mib = OptCast<int>(r.OptInt(obj, "aws_memory_mib", path));
  g.memory_bw_gbps = r.OptNum(obj, "memory_bw_gbps", path);
  g.fp64_tflops = r.OptNum(obj, "fp64_tflops", path);
  g.fp32_tflops = r.OptNum(obj, "fp32_tflops", path);
  g.tf32_tflops = r.OptNum(obj, "tf32_tflops", path);
  g.bf16_tflops = r.OptNum(obj, "bf16_tflops", path);
  g.fp16_tflops = r.OptNum(obj, "fp16_tflops", path);
  g.fp8_tflops = r.OptNum(obj, "fp8_tflops", path);
  g.int8_tops = r.OptNum(obj, "int8_tops", path);
  g.nvlink_gbps = r.OptNum(obj, "nvlink_gbps", path);
  // Written since the figures grading (issue 15); older catalogs lack them: absent = unknown.
  g.fp64_tensor_tflops = r.OptNum(obj, "fp64_tensor_tflops", path);
  g.neuron_cores = OptCast<int>(r.OptInt(obj, "neuron_cores", path)).value_or(0);
  g.neuronlink_gbyte_s = r.OptNum(obj, "neuronlink_gbyte_s", path);
  g.neuronlink_topology = r.OptStr(obj, "neuronlink_topology", path).value_or("");
  g.confidence = r.OptStr(obj, "confidence", path).value_or("");
  g.derivation = r.OptStr(obj, "derivation", path).value_or("");
  g.derived_fields = r.StrList(obj, "derived_fields", path);
  g.tdp_w = r.OptNum(obj, "tdp_w", path);
  g.nvenc = OptCast<int>(r.OptInt(obj, "nvenc", path));
  g.compute_capability = r.OptStr(obj, "compute_capability", path);
  g.supports_bf16 = r.OptBool(obj, "supports_bf16", path).value_or(false);
  g.supports_fp8 = r.OptBool(obj, "supports_fp8", path).value_or(false);
  g.supports_tf32 = r.OptBool(obj, "supports_tf32", path).value_or(false);
  g.from.source = r.Str(obj, "source", path, false);
  g.from.date = r.Str(obj, "date", path, false);
  g.source_note = r.Str(obj, "datasheet", path, false);
  g.notes = r.Str(obj, "notes", path, false);
  return g;
}

}  // namespace

std::string CatalogToJson(const Catalog& c) {
  ojson sources = ojson::array();
  for (const CatalogSource& s : c.sources) {
    sources.push_back({{"id", s.id},
                       {"name", s.name},
                       {"kind", s.kind},
                       {"snapshot_date", s.snapshot_date},
                       {"origin", s.origin},
                       {"description", s.description}});
  }
  ojson corrections = ojson::array();
  for (const Correction& k : c.corrections) {
    corrections.push_back(
        {{"subject", k.subject}, {"from", k.from}, {"to", k.to}, {"reason", k.reason}});
  }
  ojson gpus = ojson::array();
  for (const GpuSpec& g : c.gpus) gpus.push_back(GpuJson(g));
  ojson types = ojson::array();
  for (const InstanceType& t : c.instance_types) types.push_back(InstanceJson(t));
  ojson doc = {{"schema", kSchema},
               {"generated_at", c.generated_at},
               {"generator", c.generator},
               {"notes", c.notes},
               {"sources", sources},
               {"corrections", corrections},
               {"gpus", gpus},
               {"instance_types", types}};
  return DumpJson(doc, 1) + "\n";
}

namespace {

Result<Catalog> ReadCatalogJson(std::string_view text, std::string_view origin) {
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(text, origin, &doc));
  RjReader r{std::string(origin)};
  const rapidjson::Value& root = doc;
  Catalog c;
  c.schema = r.Str(root, "schema", "$");
  if (r.status().ok() && c.schema != kSchema) {
    return Status::ParseError(std::string(origin) + ": $.schema: expected \"" + kSchema +
                              "\", got \"" + c.schema + "\"");
  }
  c.generated_at = r.Str(root, "generated_at", "$", false);
  c.generator = r.Str(root, "generator", "$", false);
  c.notes = r.StrList(root, "notes", "$");
  const rapidjson::Value& sources = r.Array(root, "sources", "$");
  for (size_t i = 0; i < sources.Size() && r.status().ok(); ++i) {
    std::string p = "$.sources[" + std::to_string(i) + "]";
    CatalogSource s;
    s.id = r.Str(sources[static_cast<rapidjson::SizeType>(i)], "id", p);
    s.name = r.Str(sources[static_cast<rapidjson::SizeType>(i)], "name", p, false);
    s.kind = r.Str(sources[static_cast<rapidjson::SizeType>(i)], "kind", p, false);
    s.snapshot_date =
        r.Str(sources[static_cast<rapidjson::SizeType>(i)], "snapshot_date", p, false);
    s.origin = r.Str(sources[static_cast<rapidjson::SizeType>(i)], "origin", p, false);
    s.description = r.Str(sources[static_cast<rapidjson::SizeType>(i)], "description", p, false);
    c.sources.push_back(std::move(s));
  }
  const rapidjson::Value& corrections = r.Array(root, "corrections", "$", false);
  for (size_t i = 0; i < corrections.Size() && r.status().ok(); ++i) {
    std::string p = "$.corrections[" + std::to_string(i) + "]";
    c.corrections.push_back({r.Str(corrections[static_cast<rapidjson::SizeType>(i)], "subject", p),
                             r.Str(corrections[static_cast<rapidjson::SizeType>(i)], "from", p),
                             r.Str(corrections[static_cast<rapidjson::SizeType>(i)], "to", p),
                             r.Str(corrections[static_cast<rapidjson::SizeType>(i)], "reason", p)});
  }
  const rapidjson::Value& gpus = r.Array(root, "gpus", "$");
  for (size_t i = 0; i < gpus.Size() && r.status().ok(); ++i) {
    c.gpus.push_back(
        ReadGpu(r, gpus[static_cast<rapidjson::SizeType>(i)], "$.gpus[" + std::to_string(i) + "]"));
  }
  const rapidjson::Value& types = r.Array(root, "instance_types", "$");
  for (size_t i = 0; i < types.Size() && r.status().ok(); ++i) {
    c.instance_types.push_back(ReadInstance(r, types[static_cast<rapidjson::SizeType>(i)],
                                            "$.instance_types[" + std::to_string(i) + "]"));
  }
  if (!r.status().ok()) return r.status();
  std::sort(c.gpus.begin(), c.gpus.end(),
            [](const GpuSpec& a, const GpuSpec& b) { return a.model < b.model; });
  std::sort(c.instance_types.begin(), c.instance_types.end(),
            [](const InstanceType& a, const InstanceType& b) { return a.name < b.name; });
  c.Index();
  return c;
}

}  // namespace

Result<Catalog> ParseCatalogJson(std::string_view text, std::string_view origin) {
  Result<Catalog> c = ReadCatalogJson(text, origin);
  if (!c.ok()) return c.status().WithField("catalog");
  return c;
}

Result<Catalog> LoadCatalogFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status().WithField("catalog");
  return ParseCatalogJson(*text, path);
}

Status WriteCatalogFile(const Catalog& catalog, const std::string& path) {
  return WriteFileAtomic(path, CatalogToJson(catalog));
}

}  // namespace gpuadvisor
