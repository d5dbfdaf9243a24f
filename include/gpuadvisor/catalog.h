// The catalog: every AWS GPU / ML-accelerator instance type, the accelerator models they carry,
// and dated prices per region, each figure with the source it came from.
//
// A Catalog is a plain value tree owned by one Catalog object; lookups return non-owning const
// pointers that live as long as the Catalog. A loaded Catalog is immutable and safe to share
// between threads (the server holds a std::shared_ptr<const Catalog>).
//
// Unknown facts are std::nullopt, never a guessed number. The on-disk form is the JSON schema
// in doc/formats.md ("gpuadvisor-catalog/2"; version 1 files still load); the binary embeds one
// built by `catalog build`. Units in names: `_gbyte_s` is gigabytes per second (memory, NVLink),
// `_gbit_s` gigabits per second (network), `_mbps` megabits per second (EBS, as AWS reports it).
#ifndef GPUADVISOR_CATALOG_H_
#define GPUADVISOR_CATALOG_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/partition.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Stored in catalog files by name ("gpu", "neuron", ...): do not rename.
enum class AcceleratorKind { kGpu, kNeuron, kInference, kFpga, kMedia };
const char* AcceleratorKindName(AcceleratorKind kind);
std::optional<AcceleratorKind> ParseAcceleratorKind(std::string_view name);

// Where a figure came from. `source` is the id of a Catalog::sources entry.
struct Provenance {
  std::string source;  // e.g. "karpenter-ondemand-2026-07"
  std::string date;    // snapshot date of the figure, ISO "2026-07-20" (or "2026" when undated)
};

// True when the figure `a` is older than `b`: by date, and a figure without a full ISO date
// ("undated", a year alone, "") older than any dated one, as the importer's merge has it; ties by
// source id, so the oldest of a set is one figure whatever the order it is met in.
bool OlderFigure(const Provenance& a, const Provenance& b);

// One price per instance-hour, in the currency of its region's partition (RegionOffer::currency():
// USD, or CNY in AWS China). The member keeps its historical name; the catalog file and JSON
// output spell the key by the currency ("cny_per_hour"), and nothing compares amounts across
// currencies without an ExchangeRate (partition.h).
struct Price {
  double usd_per_hour = 0;
  Provenance from;
  bool estimated = false;  // derived (e.g. spot = on-demand x (1 - spot-advisor savings))
  std::string note;        // how it was derived, when estimated; e.g. "lowest of 4 AZs"
  // A newer source that prints the same figure (rounded to the cent) without replacing it: the
  // 2026-09-14 quick reference confirms most 2026-08-26 on-demand prices. Empty = unconfirmed.
  Provenance confirmed;
  // The zone a source names for the offer when it is not the region itself: the Local Zone a
  // Capacity Block is delivered in ("us-east-1-dfw-2a", the GB200 UltraServers). Empty = the
  // region's own zones.
  std::string zone;
  // The provenance the figure's age is taken from: its confirmation when that is newer, else
  // `from` (the staleness of `catalog info` and of a plan's price figures).
  const Provenance& dated_by() const {
    return !confirmed.date.empty() && OlderFigure(from, confirmed) ? confirmed : from;
  }
};

// Spot interruption frequency bucket from the AWS Spot Instance Advisor.
struct SpotBand {
  int index = 0;        // 0 "<5%", 1 "5-10%", 2 "10-15%", 3 "15-20%", 4 ">20%"
  std::string label;    // as published, e.g. "<5%"
  double max_pct = 0;   // upper edge of the bucket, percent per month (the last bucket: 100)
  int savings_pct = 0;  // average savings vs on-demand the feed reports for that region
  Provenance from;
};

// A reserved-instance price for one of the 12 terms (1y/3y x standard/convertible x
// no/partial/all upfront), Linux, shared tenancy, from the AWS Price List.
struct ReservedPrice {
  int years = 1;               // 1 or 3
  std::string offering_class;  // "standard" | "convertible"
  std::string payment;         // "no-upfront" | "partial-upfront" | "all-upfront"
  double upfront_usd = 0;      // one-time fee per instance
  double usd_per_hour = 0;     // recurring hourly charge (0 for all-upfront)
  Provenance from;
  // Hourly charge plus the upfront fee spread over the term (8760 hours a year, as AWS does).
  double effective_usd_per_hour() const { return usd_per_hour + upfront_usd / (years * 8760.0); }
  // "1y-standard-no-upfront"
  std::string term() const { return std::to_string(years) + "y-" + offering_class + "-" + payment; }
};

// A Savings Plans rate for this type in this region (Linux, shared tenancy).
struct SavingsPlanRate {
  std::string plan;     // "compute" | "ec2-instance"
  int years = 1;        // 1 or 3
  std::string payment;  // "no-upfront" | "partial-upfront" | "all-upfront"
  double usd_per_hour = 0;
  Provenance from;
  std::string term() const {
    return plan + "-" + std::to_string(years) + "y-" + payment;  // "compute-3y-all-upfront"
  }
};

// One dated observation of a price, kept per source so a price's movement can be shown.
struct PricePoint {
  std::string kind;  // "on-demand", "spot", "reserved-1y-standard-no-upfront", "capacity-block"
  double usd_per_hour = 0;
  Provenance from;
};

// What a type costs and whether it is sold in one region.
struct RegionOffer {
  std::string region;           // "us-east-1"
  std::optional<bool> offered;  // DescribeInstanceTypeOfferings says so; null = unknown
  // Where another source decided `offered` (a newer price, a retirement record); empty when the
  // offerings snapshot did (or nothing did).
  Provenance offered_from;
  std::vector<std::string> az_ids;  // availability-zone IDs where offered, e.g. "use1-az4"
  std::optional<Price> on_demand;   // Linux, shared tenancy
  std::optional<Price> spot;        // lowest AZ spot price, or estimated from the band
  // 1-year standard no-upfront RI, effective hourly; always what Reserved1y() chooses.
  std::optional<Price> reserved_1y_no_upfront;
  // EC2 Capacity Blocks for ML: the published effective rate per instance-hour (a block is paid
  // upfront for its whole duration); null where the type is not sold that way in the region.
  std::optional<Price> capacity_block;
  std::optional<SpotBand> spot_band;
  std::vector<ReservedPrice> reserved;         // every RI term known, sorted by term()
  std::vector<SavingsPlanRate> savings_plans;  // sorted by term()
  std::vector<PricePoint> history;             // sorted by kind, then date

  // Every amount above is in this currency: the region's partition's (CNY in AWS China).
  Currency currency() const { return PartitionOf(region).currency; }

  // The RI term, or null. `payment` as in ReservedPrice.
  const ReservedPrice* FindReserved(int years, std::string_view offering_class,
                                    std::string_view payment) const;
  // Chooses the one 1-year RI price: the 1-year standard no-upfront offer, which may be known
  // twice, as the itemised Price List term in `reserved` and as the headline
  // `reserved_1y_no_upfront` (from a build source, or an import dated before the catalog's
  // figure). The newer date wins (undated is oldest), the itemised term on a tie. The catalog
  // reader and the importer store the choice in `reserved_1y_no_upfront`, which every command
  // reads (show, instances, pricing, recommend, estimate, idle, catalog diff).
  std::optional<Price> Reserved1y() const;
};

// The offer Reserved1y() prices, as ReservedPrice::term() writes it.
inline constexpr const char* kReserved1yTerm = "1y-standard-no-upfront";

struct Accelerator {
  AcceleratorKind kind = AcceleratorKind::kGpu;
  std::string vendor;     // "NVIDIA", "AWS", "AMD", ...
  std::string model;      // catalog model id, key into Catalog::gpus, e.g. "H100", "A100-40GB"
  std::string aws_name;   // the name DescribeInstanceTypes reports, e.g. "A100"
  int count = 0;          // physical devices as AWS reports them (0 for fractional GPUs)
  int logical_count = 0;  // devices the OS sees (g6f.large: 1)
  double partition_size = 1.0;  // fraction of a physical device per logical one (g6f.large: 0.125)
  std::optional<int> memory_mib_each;  // per logical device, as AWS reports it (usable memory)
  std::optional<int64_t> memory_mib_total;
  std::optional<int> neuron_cores_each;  // NeuronCores per Inferentia/Trainium device
  // NeuronLink GB/s per device on this instance type when it differs from the model's
  // (GpuSpec::neuronlink_gbyte_s): trn1n.32xlarge's Trainium links run at twice trn1's.
  std::optional<double> neuronlink_gbyte_s;

  bool fractional() const { return count == 0 && logical_count > 0 && partition_size < 1.0; }
  // Devices the OS sees per instance (a g6f.large has one logical GPU), at least 1.
  int devices() const { return logical_count > 0 ? logical_count : (count > 0 ? count : 1); }
  // Whole-device equivalents: count, or logical_count x partition_size for fractional GPUs.
  // The denominator of $/GPU-hour.
  double device_equivalents() const { return count > 0 ? count : logical_count * partition_size; }
};

// Datasheet figures of one accelerator model. Throughputs are dense (no sparsity), per device.
struct GpuSpec {
  std::string model;      // catalog id, e.g. "H100"
  std::string full_name;  // "H100 80GB (SXM5)"
  std::string vendor;
  std::string architecture;                 // "Hopper"
  std::vector<std::string> aliases;         // other accepted names ("H100-80GB", "H100-SXM")
  std::vector<std::string> aws_names;       // DescribeInstanceTypes names ("H100")
  std::optional<double> memory_gib;         // nominal (marketing) capacity
  std::optional<int> aws_memory_mib;        // usable capacity as AWS reports it
  std::optional<double> memory_bw_gbyte_s;  // GB/s (gigabytes per second)
  std::optional<double> fp64_tflops, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, fp8_tflops,
      int8_tops;
  std::optional<double> fp64_tensor_tflops;  // FP64 on tensor cores (DGEMM/HPL); null = none
  // Streaming multiprocessors (the number of tiles a GEMM wave runs at once) and last-level
  // cache, NVIDIA parts; null = unknown (no wave or cache effects are then modelled).
  std::optional<double> sm_count;
  std::optional<double> l2_cache_mib;
  // NVLink GB/s, total bidirectional per GPU; null = PCIe only / unknown.
  std::optional<double> nvlink_gbyte_s;
  // AWS Neuron devices: NeuronCores per device and the NeuronLink device-to-device interconnect
  // (total bidirectional GB/s per device; topology "ring", "2d-torus", ...). Empty elsewhere.
  int neuron_cores = 0;
  std::optional<double> neuronlink_gbyte_s;
  std::string neuronlink_topology;
  // The NeuronCores the Neuron runtime joins into one logical core by default (LNC: 2 on
  // Trainium2, whose frameworks see 4 cores per chip; 1 on earlier devices), and each
  // NeuronCore's on-chip state buffer (SBUF, MiB). 0 / null where unknown or not a Neuron device.
  int neuron_logical_core_size = 0;
  std::optional<double> neuron_sbuf_mib;
  // How far the figures can be trusted: "published" (vendor datasheet or AWS documentation for
  // every figure used), "derived" (some figures computed from clocks x units or a sibling part;
  // `derivation` says which and how). Empty = not graded (catalogs written before this field).
  std::string confidence;
  std::string derivation;
  std::vector<std::string> derived_fields;  // the derived figures' JSON names ("bf16_tflops")
  std::optional<double> tdp_w;
  std::optional<int> nvenc;                       // NVENC engines; 0 = none; null = not verified
  std::optional<std::string> compute_capability;  // "9.0"
  bool supports_bf16 = false, supports_fp8 = false, supports_tf32 = false;
  Provenance from;
  std::string source_note;  // the datasheet or document the figures come from
  std::string notes;
};

// GpuSpec's optional numeric figures by their catalog JSON name ("bf16_tflops"), in catalog order:
// the one list the figures reader and the tools that set figures by name share.
struct GpuFigure {
  const char* name;
  std::optional<double> GpuSpec::* member;
};
const std::vector<GpuFigure>& GpuFigures();
// The figure named `name`; nullptr when GpuSpec has no such numeric figure.
const GpuFigure* FindGpuFigure(std::string_view name);

struct InstanceType {
  std::string name;    // "p5.48xlarge"
  std::string family;  // "p5"
  bool retired = false;
  std::string retired_note;  // e.g. "absent from DescribeInstanceTypes since 2026-04-01"
  Accelerator accelerator;
  // What AWS sells as one unit: "" for an instance; "ultraserver" for an EC2 UltraServer
  // (u-p6e-gb200x72: 72 GB200 GPUs over several hosts joined by NVLink), sold only whole,
  // through a Capacity Block. A plan's "instances" of it are whole UltraServers.
  std::string unit_of_purchase;
  bool ultraserver() const { return unit_of_purchase == "ultraserver"; }
  // Host figures; 0 = unknown (an UltraServer: no source gives its hosts' vCPUs or memory). The
  // catalog file and every command's JSON write an unknown figure as null, never 0.
  int vcpus = 0;
  int64_t memory_mib = 0;
  std::vector<std::string> cpu_architectures;  // "x86_64", "arm64"
  std::string cpu_vendor;
  std::string network_performance;       // AWS's marketing string, e.g. "3200 Gigabit"
  std::optional<double> network_gbit_s;  // Gbit/s, parsed from that string ("Up to 25" -> 25)
  // The instance's baseline and peak Gbit/s: NetworkPerformance when it is a fixed figure (never
  // the sum over network cards, which can exceed it); for "Up to N", the card's baseline and N.
  std::optional<double> network_baseline_gbit_s, network_peak_gbit_s;
  int network_cards = 1;
  int max_network_interfaces = 0;
  bool efa = false;
  int max_efa_interfaces = 0;
  bool ena_srd = false;
  std::optional<int> local_storage_gb;  // instance store total (GB as AWS reports it)
  int local_disk_count = 0;
  std::optional<int> local_disk_gb;  // per disk
  std::string local_disk_type;       // "ssd", "hdd", ""
  bool local_nvme = false;
  std::optional<int> ebs_baseline_mbps, ebs_max_mbps;
  std::vector<std::string> usage_classes;         // "on-demand", "spot", "capacity-block"
  std::vector<std::string> placement_strategies;  // "cluster", "partition", "spread"
  bool bare_metal = false;
  Provenance spec_from;
  std::vector<RegionOffer> regions;  // sorted by region name

  // REQUIRES: nothing. Null when the type is not known in that region.
  const RegionOffer* FindRegion(std::string_view region) const;
  bool HasUsageClass(std::string_view cls) const;
};

struct CatalogSource {
  std::string id;             // "karpenter-ondemand-2026-07"
  std::string name;           // human name
  std::string kind;           // "specs", "on-demand", "reserved", "spot", "spot-advisor", ...
  std::string snapshot_date;  // ISO date, or "" when undated
  std::string origin;         // repository / path / commit it was taken from
  std::string description;
};

// A documented fix applied where a source is known to be wrong.
struct Correction {
  std::string subject;  // "trn2.48xlarge accelerator.memory_mib_each"
  std::string from, to;
  std::string reason;
};

// The schema version CatalogToJson writes. ParseCatalogJson also reads "gpuadvisor-catalog/1"
// (the key names before the units rename, doc/formats.md "Schema versions").
inline constexpr const char* kCatalogSchema = "gpuadvisor-catalog/2";

// Owns the records and the lookup indices over them. The records are read-only from outside;
// every method that changes them keeps them sorted and the indices right, so no caller has to
// re-index.
class Catalog {
 public:
  std::string schema;        // the version read ("gpuadvisor-catalog/1"), or kCatalogSchema
  std::string generated_at;  // ISO timestamp of the build
  std::string generator;     // command that built it
  std::vector<CatalogSource> sources;
  std::vector<Correction> corrections;
  std::vector<std::string> notes;  // precedence rules and other build decisions

  const std::vector<GpuSpec>& gpus() const { return gpus_; }                           // by model
  const std::vector<InstanceType>& instance_types() const { return instance_types_; }  // by name

  // Replace every record (sorted here).
  void SetGpus(std::vector<GpuSpec> gpus);
  void SetInstanceTypes(std::vector<InstanceType> types);
  // Adds a type, or replaces the one with the same name.
  void PutInstanceType(InstanceType type);
  // Removes the type named `name`; false when there is none.
  bool RemoveInstanceType(std::string_view name);
  // Adds an accelerator model, or replaces the one with the same model id.
  void PutGpu(GpuSpec gpu);
  // Changes records in place: `edit` gets the vector (it may add, remove, reorder or change
  // records, names included); afterwards the records are sorted and the indices rebuilt.
  // REQUIRES: `edit` keeps no reference to the vector.
  template <typename Edit>
  void EditInstanceTypes(Edit&& edit) {
    edit(instance_types_);
    SortAndIndex();
  }
  template <typename Edit>
  void EditGpus(Edit&& edit) {
    edit(gpus_);
    SortAndIndex();
  }

  const InstanceType* FindInstanceType(std::string_view name) const;
  // Accepts model ids, full names, AWS names and aliases, case- and punctuation-insensitive.
  const GpuSpec* FindGpu(std::string_view name) const;
  const GpuSpec* GpuOf(const InstanceType& type) const;
  const CatalogSource* FindSource(std::string_view id) const;
  // Every region any type is offered or priced in, sorted.
  const std::vector<std::string>& regions() const { return regions_; }
  bool HasRegion(std::string_view region) const;
  // Names usable for "did you mean" hints.
  std::vector<std::string> InstanceTypeNames() const;
  std::vector<std::string> GpuNames() const;
  // Newest snapshot date among price sources ("" if none).
  std::string NewestPriceDate() const;

 private:
  void SortAndIndex();

  std::vector<GpuSpec> gpus_;                 // sorted by model
  std::vector<InstanceType> instance_types_;  // sorted by name
  std::map<std::string, size_t, std::less<>> type_index_;
  std::map<std::string, size_t, std::less<>> gpu_index_;  // normalized name -> gpus_ index
  std::vector<std::string> regions_;
};

// Parses a catalog in the gpuadvisor-catalog/2 (or /1) JSON schema. `origin` names the input in
// errors. Errors: ParseError naming the field or byte offset; field() is "catalog".
Result<Catalog> ParseCatalogJson(std::string_view json, std::string_view origin);
// Serialises a catalog in kCatalogSchema (stable key order, 1 figure per key, so diffs are
// readable). ParseCatalogJson(CatalogToJson(c)) gives back every field of c.
std::string CatalogToJson(const Catalog& catalog);
// Reads PATH; IOError if unreadable, ParseError if malformed (field "catalog" either way).
Result<Catalog> LoadCatalogFile(const std::string& path);
// The catalog embedded in the binary at build time. Parsed once, shared afterwards.
Result<std::shared_ptr<const Catalog>> EmbeddedCatalog();
// Writes atomically: a temporary file beside PATH, fsync, rename. PATH is untouched on failure.
Status WriteCatalogFile(const Catalog& catalog, const std::string& path);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_H_
