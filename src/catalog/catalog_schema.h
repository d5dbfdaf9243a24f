// The catalog file schema (doc/formats.md): every record's JSON keys, in file order, with their
// units, defaults and checks, listed once. The writer (CatalogToJson) and the reader
// (ParseCatalogJson) both walk these lists with a visitor (catalog_json.cc), so a field added
// here is written and read, and a written catalog reads back to the same records.
//
// A field list is a function object `(V& v, R& record)`; R is the record when reading and a
// const record when writing. V provides:
//   Str(key, s, need)        string; kRequired, kOptional ("" when absent) or kOmitEmpty
//   OptStr(key, opt)         string or null
//   Num / OptNum             number / number or null
//   Int(key, i) / IntIn(key, i, lo, hi) / IntOr(key, i, default) / OptInt(key, opt)
//   ZeroIsNull(key, i)       int written as null when 0 (and read back as 0)
//   Bool(key, b) / BoolOr(key, b) / OptBool(key, opt)   required / false when absent / or null
//   StrList(key, list)       array of strings ([] when absent)
//   MemoryMib(key, opt, hi)  optional MiB figure in (0, hi]
//   Enum(key, e, name_of, parse, expected)
//   Object(key, record, fields, need)        nested object read into `record`
//   OptObject(key, opt, fields, absent)      object or null (kWriteNull) / omitted (kOmit)
//   List(key, vector, fields, need)          array of objects
//   Check(suffix, fn)        reading only: fn() returns "" or what was expected at path+suffix
//   Derive(record, fn)       reading only: fn(record) once the fields are read
// A Key carries the name a field had in schema version 1 when it differs, so version-1 files
// (written before the units rename) still load.
#ifndef GPUADVISOR_CATALOG_CATALOG_SCHEMA_H_
#define GPUADVISOR_CATALOG_CATALOG_SCHEMA_H_

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "catalog/record_checks.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/partition.h"
#include "util/aws_names.h"

namespace gpuadvisor::schema {

// A JSON key; `v1` is its name in "gpuadvisor-catalog/1" when it was renamed in version 2.
struct Key {
  Key(const char* n) : name(n) {}  // NOLINT(google-explicit-constructor): keys are written bare
  Key(const char* n, const char* old) : name(n), v1(old) {}
  const char* name;
  const char* v1 = nullptr;
};

enum Need { kRequired, kOptional, kOmitEmpty };
enum Absent { kWriteNull, kOmit };

// "" when `usd` is an acceptable price (a $0 one only when `zero_ok`), else what was expected.
inline std::string UsdProblem(double usd, bool zero_ok = false, double cap = kMaxUsdPerHour) {
  PriceCheck c = CheckPrice(usd, cap);
  return c == PriceCheck::kBad || (c == PriceCheck::kZero && !zero_ok) ? PriceWanted(usd, cap)
                                                                       : std::string();
}

// The price records' amounts are in their region's currency (partition.h), and their keys say
// which: "usd_per_hour" in USD regions, "cny_per_hour" in AWS China. The plausibility bounds
// (record_checks.h) apply to the amount as given; in CNY the cap is ~$1400/h, still 50x the
// dearest China offer.
struct MoneyKeys {
  explicit MoneyKeys(Currency c)
      : per_hour(MoneyKey("usd_per_hour", c)),
        upfront(MoneyKey("upfront_usd", c)),
        check_per_hour("." + per_hour),
        check_upfront("." + upfront) {}
  std::string per_hour, upfront, check_per_hour, check_upfront;
};

struct PriceFields {  // on_demand, spot, reserved_1y_no_upfront, capacity_block: per hour
  Currency currency = Currency::kUsd;
  template <typename V, typename P>
  void operator()(V& v, P& p) const {
    const MoneyKeys k(currency);
    v.Num(k.per_hour.c_str(), p.usd_per_hour);
    v.Str("source", p.from.source);
    v.Str("date", p.from.date);
    v.BoolOr("estimated", p.estimated);
    v.Str("note", p.note, kOmitEmpty);
    // Written only where a newer source confirmed the figure, so older catalogs stay valid.
    v.Str("confirmed_source", p.confirmed.source, kOmitEmpty);
    v.Str("confirmed_date", p.confirmed.date, kOmitEmpty);
    v.Str("zone", p.zone, kOmitEmpty);  // a Local Zone the offer is delivered in
    v.Check(k.check_per_hour.c_str(), [&] { return UsdProblem(p.usd_per_hour); });
  }
};

struct SpotBandFields {
  template <typename V, typename B>
  void operator()(V& v, B& b) const {
    v.Int("index", b.index);
    v.Str("label", b.label);
    v.Num("max_pct", b.max_pct);
    v.Int("savings_pct", b.savings_pct);
    v.Str("source", b.from.source);
    v.Str("date", b.from.date);
  }
};

struct ReservedFields {
  Currency currency = Currency::kUsd;
  template <typename V, typename R>
  void operator()(V& v, R& r) const {
    const MoneyKeys k(currency);
    v.Int("years", r.years);
    v.Str("offering_class", r.offering_class);
    v.Str("payment", r.payment);
    v.Num(k.upfront.c_str(), r.upfront_usd);
    v.Num(k.per_hour.c_str(), r.usd_per_hour);
    v.Str("source", r.from.source);
    v.Str("date", r.from.date);
    v.Check(".years", [&] { return r.years == 1 || r.years == 3 ? "" : "1 or 3"; });
    // An All Upfront term has a $0 hourly charge and a no-upfront one a $0 fee; not both.
    v.Check(k.check_upfront.c_str(),
            [&] { return UsdProblem(r.upfront_usd, true, kMaxUpfrontUsd); });
    v.Check(k.check_per_hour.c_str(), [&] { return UsdProblem(r.usd_per_hour, true); });
    v.Check(" (effective hourly)", [&] { return UsdProblem(r.effective_usd_per_hour()); });
  }
};

struct SavingsPlanFields {
  Currency currency = Currency::kUsd;
  template <typename V, typename S>
  void operator()(V& v, S& s) const {
    const MoneyKeys k(currency);
    v.Str("plan", s.plan);
    v.Int("years", s.years);
    v.Str("payment", s.payment);
    v.Num(k.per_hour.c_str(), s.usd_per_hour);
    v.Str("source", s.from.source);
    v.Str("date", s.from.date);
    v.Check(k.check_per_hour.c_str(), [&] { return UsdProblem(s.usd_per_hour); });
  }
};

struct PricePointFields {
  Currency currency = Currency::kUsd;
  template <typename V, typename P>
  void operator()(V& v, P& p) const {
    const MoneyKeys k(currency);
    v.Str("kind", p.kind);
    v.Num(k.per_hour.c_str(), p.usd_per_hour);
    v.Str("source", p.from.source);
    v.Str("date", p.from.date);
    v.Check(k.check_per_hour.c_str(), [&] { return UsdProblem(p.usd_per_hour); });
  }
};

struct RegionFields {
  template <typename V, typename R>
  void operator()(V& v, R& r) const {
    v.Str("region", r.region);
    v.Check(".region", [&] { return RegionCodeProblem(r.region); });
    // The region's partition fixes the currency; the file says it too where it is not USD (so
    // catalogs of USD regions stay byte-identical), and a reader refuses a file that disagrees.
    const Currency c = r.currency();
    std::string currency = c == Currency::kUsd ? "" : CurrencyCode(c);
    v.Str("currency", currency, kOmitEmpty);
    v.Check(".currency", [&, c] {
      return currency.empty() || currency == CurrencyCode(c)
                 ? std::string()
                 : std::string("\"") + CurrencyCode(c) + "\", the currency of " +
                       PartitionOf(r.region).name + " prices, got \"" + currency + "\"";
    });
    v.OptBool("offered", r.offered);
    // Written only where a source other than the offerings snapshot decided `offered`.
    v.Str("offered_source", r.offered_from.source, kOmitEmpty);
    v.Str("offered_date", r.offered_from.date, kOmitEmpty);
    v.StrList("az_ids", r.az_ids);
    v.Check(".az_ids", [&] {
      for (const std::string& id : r.az_ids) {
        if (std::string p = AzIdProblem(id); !p.empty()) return p;
      }
      return std::string();
    });
    v.OptObject("on_demand", r.on_demand, PriceFields{c}, kWriteNull);
    v.OptObject("spot", r.spot, PriceFields{c}, kWriteNull);
    v.OptObject("reserved_1y_no_upfront", r.reserved_1y_no_upfront, PriceFields{c}, kWriteNull);
    v.OptObject("spot_band", r.spot_band, SpotBandFields(), kWriteNull);
    // Written only when present, so catalogs without them stay byte-identical.
    v.OptObject("capacity_block", r.capacity_block, PriceFields{c}, kOmit);
    v.List("reserved", r.reserved, ReservedFields{c}, kOmitEmpty);
    v.List("savings_plans", r.savings_plans, SavingsPlanFields{c}, kOmitEmpty);
    v.List("history", r.history, PricePointFields{c}, kOmitEmpty);
    // One 1-year RI price for every command, even in a catalog where the headline figure and the
    // itemised term disagree (written before the choice was made in one place).
    v.Derive(r, [](RegionOffer& o) { o.reserved_1y_no_upfront = o.Reserved1y(); });
  }
};

struct AcceleratorFields {
  int64_t max_devices = kMaxDevicesPerInstance;  // kMaxDevicesPerUltraServer for an UltraServer
  template <typename V, typename A>
  void operator()(V& v, A& a) const {
    v.Enum("kind", a.kind, AcceleratorKindName, ParseAcceleratorKind,
           "one of gpu, neuron, inference, fpga, media");
    v.Str("vendor", a.vendor);
    v.Str("model", a.model);
    v.Str("aws_name", a.aws_name, kOptional);
    v.IntIn("count", a.count, 0, max_devices);
    v.IntIn("logical_count", a.logical_count, 0, max_devices);
    v.Num("partition_size", a.partition_size);
    v.Check(".partition_size", [&] {
      return a.partition_size > 0 && a.partition_size <= 1 ? ""
                                                           : "a fraction above 0 and at most 1";
    });
    v.MemoryMib("memory_mib_each", a.memory_mib_each, kMaxDeviceMemoryMib);
    v.MemoryMib("memory_mib_total", a.memory_mib_total,
                kMaxDeviceMemoryMib * kMaxDevicesPerInstance);
    v.OptInt("neuron_cores_each", a.neuron_cores_each);
    v.OptNum("neuronlink_gbyte_s", a.neuronlink_gbyte_s);  // GB/s; null = the model's figure
  }
};

struct NetworkFields {  // InstanceType's network figures, a nested object in the file
  template <typename V, typename T>
  void operator()(V& v, T& t) const {
    v.Str("performance", t.network_performance, kOptional);  // AWS's text, "3200 Gigabit"
    v.OptNum(Key("gbit_s", "gbps"), t.network_gbit_s);       // Gbit/s
    v.OptNum(Key("baseline_gbit_s", "baseline_gbps"), t.network_baseline_gbit_s);
    v.OptNum(Key("peak_gbit_s", "peak_gbps"), t.network_peak_gbit_s);
    v.IntOr("cards", t.network_cards, 1);
    v.IntOr("max_interfaces", t.max_network_interfaces, 0);
    v.BoolOr("efa", t.efa);
    v.IntOr("max_efa_interfaces", t.max_efa_interfaces, 0);
    v.BoolOr("ena_srd", t.ena_srd);
  }
};

struct LocalStorageFields {  // GB as AWS reports them
  template <typename V, typename T>
  void operator()(V& v, T& t) const {
    v.OptInt("total_gb", t.local_storage_gb);
    v.IntOr("disk_count", t.local_disk_count, 0);
    v.OptInt("disk_gb", t.local_disk_gb);
    v.Str("type", t.local_disk_type, kOptional);
    v.BoolOr("nvme", t.local_nvme);
  }
};

struct EbsFields {  // Mbit/s, as AWS reports them
  template <typename V, typename T>
  void operator()(V& v, T& t) const {
    v.OptInt("baseline_mbps", t.ebs_baseline_mbps);
    v.OptInt("max_mbps", t.ebs_max_mbps);
  }
};

struct InstanceFields {
  template <typename V, typename T>
  void operator()(V& v, T& t) const {
    v.Str("instance_type", t.name);
    v.Str("family", t.family);
    v.Check(".family", [&] { return FamilyNameProblem(t.family); });
    v.Bool("retired", t.retired);
    v.Str("retired_note", t.retired_note, kOptional);
    // Written only for a unit other than one instance ("ultraserver"); read before the
    // accelerator, whose device count an UltraServer's larger bound checks.
    v.Str("unit_of_purchase", t.unit_of_purchase, kOmitEmpty);
    v.Check(".unit_of_purchase", [&] {
      return t.unit_of_purchase.empty() || t.unit_of_purchase == "ultraserver"
                 ? std::string()
                 : R"("ultraserver" or absent, got ")" + t.unit_of_purchase + "\"";
    });
    // Names reach the AWS CLI's command lines (util/aws_names.h): AWS's grammar, or refused;
    // checked once unit_of_purchase is read (an UltraServer's name has no '.').
    v.Check(".instance_type", [&] {
      return t.ultraserver() ? UltraServerTypeNameProblem(t.name) : InstanceTypeNameProblem(t.name);
    });
    v.Object(
        "accelerator", t.accelerator,
        AcceleratorFields{t.ultraserver() ? kMaxDevicesPerUltraServer : kMaxDevicesPerInstance},
        kRequired);
    // null = unknown (an UltraServer's hosts), read back as 0.
    v.ZeroIsNull("vcpus", t.vcpus);
    v.Check(".vcpus", [&] { return CheckCount(t.vcpus, 0, kMaxVcpus); });
    v.ZeroIsNull("memory_mib", t.memory_mib);
    v.Check(".memory_mib", [&] {
      return t.memory_mib == 0 ? std::string()
                               : CheckMemoryMib(t.memory_mib, kMaxInstanceMemoryMib);
    });
    v.StrList("cpu_architectures", t.cpu_architectures);
    v.Str("cpu_vendor", t.cpu_vendor, kOptional);
    v.Object("network", t, NetworkFields(), kOptional);
    v.Object("local_storage", t, LocalStorageFields(), kOptional);
    v.Object("ebs", t, EbsFields(), kOptional);
    v.StrList("usage_classes", t.usage_classes);
    v.StrList("placement_strategies", t.placement_strategies);
    v.BoolOr("bare_metal", t.bare_metal);
    v.Str("spec_source", t.spec_from.source, kOptional);
    v.Str("spec_date", t.spec_from.date, kOptional);
    v.List("regions", t.regions, RegionFields(), kOptional);
    v.Derive(t, [](InstanceType& x) {
      std::sort(x.regions.begin(), x.regions.end(),
                [](const RegionOffer& a, const RegionOffer& b) { return a.region < b.region; });
    });
  }
};

struct GpuFields {  // datasheet figures, dense, per device; unknown = null
  template <typename V, typename G>
  void operator()(V& v, G& g) const {
    v.Str("model", g.model);
    v.Str("full_name", g.full_name, kOptional);
    v.Str("vendor", g.vendor, kOptional);
    v.Str("architecture", g.architecture, kOptional);
    v.StrList("aliases", g.aliases);
    v.StrList("aws_names", g.aws_names);
    v.OptNum("memory_gib", g.memory_gib);  // nominal GiB
    v.OptInt("aws_memory_mib", g.aws_memory_mib);
    v.OptNum(Key("memory_bw_gbyte_s", "memory_bw_gbps"), g.memory_bw_gbyte_s);  // GB/s
    v.OptNum("fp64_tflops", g.fp64_tflops);
    v.OptNum("fp32_tflops", g.fp32_tflops);
    v.OptNum("tf32_tflops", g.tf32_tflops);
    v.OptNum("bf16_tflops", g.bf16_tflops);
    v.OptNum("fp16_tflops", g.fp16_tflops);
    v.OptNum("fp8_tflops", g.fp8_tflops);
    v.OptNum("int8_tops", g.int8_tops);
    // Since the figures grading (issue 15); older catalogs lack these: absent = unknown.
    v.OptNum("fp64_tensor_tflops", g.fp64_tensor_tflops);
    // Since issue 23 (wave quantization, cache reuse); absent = unknown.
    v.OptNum("sm_count", g.sm_count);
    v.OptNum("l2_cache_mib", g.l2_cache_mib);
    v.OptNum(Key("nvlink_gbyte_s", "nvlink_gbps"), g.nvlink_gbyte_s);  // GB/s bidirectional
    v.ZeroIsNull("neuron_cores", g.neuron_cores);
    v.OptNum("neuronlink_gbyte_s", g.neuronlink_gbyte_s);  // GB/s bidirectional
    v.Str("neuronlink_topology", g.neuronlink_topology, kOptional);
    // Since issue 40 (Neuron chip facts as data); absent = unknown.
    v.ZeroIsNull("neuron_logical_core_size", g.neuron_logical_core_size);
    v.OptNum("neuron_sbuf_mib", g.neuron_sbuf_mib);
    v.OptNum("tdp_w", g.tdp_w);
    v.OptInt("nvenc", g.nvenc);
    v.OptStr("compute_capability", g.compute_capability);
    v.BoolOr("supports_bf16", g.supports_bf16);
    v.BoolOr("supports_fp8", g.supports_fp8);
    v.BoolOr("supports_tf32", g.supports_tf32);
    v.Str("confidence", g.confidence, kOptional);
    v.Str("derivation", g.derivation, kOptional);
    v.StrList("derived_fields", g.derived_fields);
    v.Str("source", g.from.source, kOptional);
    v.Str("date", g.from.date, kOptional);
    v.Str("datasheet", g.source_note, kOptional);
    v.Str("notes", g.notes, kOptional);
  }
};

struct SourceFields {
  template <typename V, typename S>
  void operator()(V& v, S& s) const {
    v.Str("id", s.id);
    v.Str("name", s.name, kOptional);
    v.Str("kind", s.kind, kOptional);
    v.Str("snapshot_date", s.snapshot_date, kOptional);
    v.Str("origin", s.origin, kOptional);
    v.Str("description", s.description, kOptional);
  }
};

struct CorrectionFields {
  template <typename V, typename K>
  void operator()(V& v, K& k) const {
    v.Str("subject", k.subject);
    v.Str("from", k.from);
    v.Str("to", k.to);
    v.Str("reason", k.reason);
  }
};

// The top level after "schema". The record lists are passed separately: the reader fills vectors
// it then hands to Catalog::SetGpus / SetInstanceTypes, the writer reads Catalog's own.
template <typename V, typename C, typename Gpus, typename Types>
void CatalogFields(V& v, C& c, Gpus& gpus, Types& types) {
  v.Str("generated_at", c.generated_at, kOptional);
  v.Str("generator", c.generator, kOptional);
  v.StrList("notes", c.notes);
  v.List("sources", c.sources, SourceFields(), kRequired);
  v.List("corrections", c.corrections, CorrectionFields(), kOptional);
  v.List("gpus", gpus, GpuFields(), kRequired);
  v.List("instance_types", types, InstanceFields(), kRequired);
}

}  // namespace gpuadvisor::schema

namespace gpuadvisor {

// One accelerator model as the catalog file writes it (GpuFields); the command JSON of `gpus`
// and `show` starts from it.
nlohmann::ordered_json GpuSpecToJson(const GpuSpec& g);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_CATALOG_SCHEMA_H_
