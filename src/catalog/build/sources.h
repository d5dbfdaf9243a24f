// Readers for the public-format sources the catalog is built from. Every reader parses from
// memory (origin names the input in errors), returns plain records, and reports the first
// problem as ParseError "<origin>:<line>: <what was expected>" (or a JSON path/byte offset).
#ifndef GPUADVISOR_CATALOG_BUILD_SOURCES_H_
#define GPUADVISOR_CATALOG_BUILD_SOURCES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "util/aws_names.h"

namespace gpuadvisor::build {

// EC2 DescribeInstanceTypes records. Accepted shapes:
//   {"InstanceTypes": [ {InstanceTypeInfo}, ... ]}         (AWS CLI / boto3, one or merged pages)
//   [ {"InstanceTypes": [...]}, ... ]                       (several pages in an array)
//   {"p5.48xlarge": {InstanceTypeInfo}, ...}                (moto's instance_types.json)
//   {"p3.2xlarge": {"last_seen_commit_date": "...", "record": {InstanceTypeInfo}}, ...}
// InstanceTypeInfo fields read: InstanceType, GpuInfo.Gpus[]{Name, Manufacturer, Count,
// LogicalGpuCount, GpuPartitionSize, MemoryInfo.SizeInMiB}, NeuronInfo.NeuronDevices[],
// InferenceAcceleratorInfo.Accelerators[], FpgaInfo.Fpgas[], MediaAcceleratorInfo.Accelerators[],
// VCpuInfo.DefaultVCpus, MemoryInfo.SizeInMiB, ProcessorInfo, NetworkInfo{NetworkPerformance,
// NetworkCards[], MaximumNetworkCards, MaximumNetworkInterfaces, EfaSupported, EfaInfo,
// EnaSrdSupported}, InstanceStorageInfo, EbsInfo.EbsOptimizedInfo, SupportedUsageClasses,
// PlacementGroupInfo, BareMetal.
// Types without any accelerator are skipped. `accelerator.model` is left as the AWS name; the
// builder maps it to a GpuSpec id. Retired-wrapper records come back with retired = true.
Result<std::vector<InstanceType>> ReadDescribeInstanceTypes(std::string_view json,
                                                            std::string_view origin);

// gpu-specs CSV (header: model,vendor,architecture,memory_gib,memory_bw_gbps,fp64_tflops,
// fp32_tflops,tf32_tflops_dense,fp16_bf16_tflops_dense,fp8_tflops_dense,int8_tops_dense,
// nvlink_gbps,tdp_w,nvenc,source,aws_api_name,aws_reported_memory_mib,aws_instance_families,notes)
// Models are given catalog ids and aliases ("A100 80GB (SXM4)" -> "A100-80GB").
Result<std::vector<GpuSpec>> ReadGpuSpecsCsv(std::string_view csv, std::string_view origin);

// One row of the project's accelerator-figures CSV (data/accelerator-figures.csv; header:
// model,field,value,basis,source,derivation). It fills a figure the datasheet CSV lacks, with
// the document it comes from and, for basis "derived", how it was computed.
struct AcceleratorFigure {
  std::string model;            // catalog id or alias ("A10G", "T4G", "Trainium2")
  std::string field;            // a GpuSpec field name, e.g. "bf16_tflops", "neuronlink_topology"
  std::optional<double> value;  // numeric fields
  std::string text;             // text fields (neuronlink_topology)
  bool derived = false;         // basis "derived" (else "published")
  std::string source;           // citation
  std::string derivation;       // required when derived
  std::string where;            // "file:line", for error messages and corrections
  // "Trainium@trn1n": the figure holds for that instance family only (neuronlink_gbyte_s).
  std::string family;
  // The value as the document prints it when it carried a unit ("768 GiB/s"); `value` is then
  // converted to the catalog's GB/s.
  std::string as_printed;
};
// A `_gbyte_s` value may carry its document's unit, "820 GiB/s" (GB/s, GiB/s, TB/s): it is
// converted to GB/s. A model "MODEL@FAMILY" sets neuronlink_gbyte_s on that family's instance
// types only (trn1n's Trainium links run at twice trn1's).
// Fields a figure row may set (GpuSpec names).
const std::vector<std::string>& AcceleratorFigureFields();
// Errors: ParseError "<origin>:<line>: ..." for a missing column, an unknown field or basis, a
// non-numeric or negative value, a derived row without a derivation, a repeated model+field.
Result<std::vector<AcceleratorFigure>> ReadAcceleratorFiguresCsv(std::string_view csv,
                                                                 std::string_view origin);
// Sets the MODEL@FAMILY figures on the instance types of that family with more than one device
// (Accelerator::neuronlink_gbyte_s), each recorded in *corrections with its citation.
void ApplyFamilyFigures(const std::vector<AcceleratorFigure>& figures,
                        std::vector<InstanceType>* types, std::vector<Correction>* corrections);
// Merges figures into the datasheet specs (MODEL@FAMILY rows aside): a figure fills an empty field;
// one equal to the datasheet value changes nothing; one that contradicts it replaces it and is
// recorded in *corrections (never silently). Then grades every spec: confidence "derived" with the
// derivation of each derived figure it uses, else "published". Error: InvalidArgument naming
// the row of a figure whose model is in no datasheet row.
Status ApplyAcceleratorFigures(const std::vector<AcceleratorFigure>& figures,
                               std::vector<GpuSpec>* gpus, std::vector<Correction>* corrections);

// One price observation.
struct PriceRecord {
  enum Kind { kOnDemand, kSpot, kReserved1yNoUpfront };
  std::string instance_type;
  std::string region;
  std::string az_id;  // spot per AZ only
  Kind kind = kOnDemand;
  double usd_per_hour = 0;  // in `currency`, which is the region's partition's
  std::string date;         // the row's own snapshot date; "" = the source's
};

// Column mapping for a CSV price file; an empty column name means "not in this file".
struct PriceCsvColumns {
  std::string instance_type = "instance_type";
  std::string region = "region";
  std::string az_id;
  std::string on_demand = "ondemand_usd_per_hour_linux";
  std::string spot;
  std::string reserved_1y_no_upfront;
  std::string currency_column;  // a per-row currency code ("CNY"), checked against `currency`
  std::string date;             // a per-row snapshot date (YYYY-MM-DD)
  Currency currency = Currency::kUsd;  // what the file's prices are in (the manifest says)
};
// The columns spelled for a currency: "ondemand_usd_per_hour_linux" ->
// "ondemand_cny_per_hour_linux".
PriceCsvColumns InCurrency(PriceCsvColumns cols, Currency c);
// Rows whose price cell is empty or $0 are skipped (the source has no price). Non-numeric,
// negative or over-cap prices and priced rows without a type are errors (record_checks.h), and
// so is a row whose region's partition prices in another currency than the file's (a CNY figure
// for us-east-1, a USD one for cn-north-1): prices are never taken in the wrong currency.
Result<std::vector<PriceRecord>> ReadPriceCsv(std::string_view csv, std::string_view origin,
                                              const PriceCsvColumns& columns);

// Vantage's reserved terms in long form (header: instance_type, region, vantage_term_key,
// <cur>_per_hour_linux, <cur> by the manifest's currency: "cny_per_hour_linux"). Keys
// "yrTerm{1,3}{Standard,Convertible}.{noUpfront,allUpfront}" become ReservedPrice terms: the value
// is Vantage's effective hourly rate, so a no-upfront term is that hourly charge and an
// all-upfront term a fee of rate x years x 8760 with no hourly charge. Skipped: "ondemand" (the
// on-demand files carry it), "*.partialUpfront" (the split between fee and hourly charge is not
// in the file) and "yrTerm*Savings.*" (in the 2026-01 feed they repeat the Standard RI figures:
// not Savings Plans rates). Any other key, a bad price or a region of another currency is an
// error naming the line.
struct ReservedTermRecord {
  std::string instance_type, region;
  ReservedPrice term;  // `from` left for the caller
};
Result<std::vector<ReservedTermRecord>> ReadVantageTermsCsv(std::string_view csv,
                                                            std::string_view origin,
                                                            Currency currency);

// EC2 Capacity Blocks for ML rates (header: instance_type, region,
// capacity_block_usd_per_hour_instance, last_updated; other columns ignored). One dated rate per
// row, dated by last_updated (ISO timestamp or date), so a history file of several versions
// reads the same way. Rows with an empty rate are skipped.
// Where the file has them, the optional columns accelerator_type, accelerator_count and
// capacity_block_usd_per_accelerator_hour are read too (an UltraServer has no DescribeInstanceTypes
// record: they are all the source says of it).
struct CapacityBlockRate {
  std::string instance_type, region;
  std::string date;  // "2026-07-22"
  double usd_per_hour = 0;
  std::string accelerator;                // "GB200"; "" when the file has no such column
  int accelerator_count = 0;              // 0 when not given
  std::optional<double> per_accelerator;  // the file's own per-accelerator rate
};
Result<std::vector<CapacityBlockRate>> ReadCapacityBlockCsv(std::string_view csv,
                                                            std::string_view origin);
// Capacity Block rates per accelerator-hour rounded to the cent (the AWS GPU quick reference's
// capacity_block_per_gpu_by_region.csv; header: instance_type, region,
// capacity_block_usd_per_accelerator_hour_rounded; other columns ignored). `usd_per_hour` is the
// per-accelerator rate and `date` is "" (the source's snapshot date); the builder multiplies by
// the type's accelerator count.
Result<std::vector<CapacityBlockRate>> ReadCapacityBlockPerAcceleratorCsv(std::string_view csv,
                                                                          std::string_view origin);

// AWS Spot Instance Advisor feed (spot-advisor-data.json): {"ranges":[{index,label,max}],
// "spot_advisor":{region:{"Linux":{type:{"s":savings_pct,"r":range_index}}}}}. Linux only.
struct SpotAdvice {
  std::string instance_type, region;
  int savings_pct = 0;
  int range_index = 0;
  std::string label;
  double max_pct = 0;
};
// Savings run from -100 to 100: the feed publishes a premium as negative savings (2026-12:
// p5.48xlarge in ca-central-1 at -62).
Result<std::vector<SpotAdvice>> ReadSpotAdvisorJson(std::string_view json, std::string_view origin);

// The spot price the advisor's average savings imply, on-demand x (1 - savings), marked
// estimated and citing both; none where the band shows a premium (negative savings: a spot
// price above on-demand is no estimate a plan should rest on) or no price (100%).
std::optional<Price> EstimatedSpot(const Price& on_demand, const SpotBand& band);

// DescribeInstanceTypeOfferings-derived CSV: instance_type,region[,availability_zone_id].
struct Offering {
  std::string instance_type, region, az_id;
};
Result<std::vector<Offering>> ReadOfferingsCsv(std::string_view csv, std::string_view origin);

// Region codes of every partition (util/aws_names.h).
using ::gpuadvisor::IsRegionCode;
// Accelerator families by name (p5, g6e, gr6, inf2, trn1, dl1, vt1, f2, u-p6e...).
bool LooksLikeAcceleratorType(std::string_view type);
// The datasheet row for an accelerator as DescribeInstanceTypes reports it (by AWS name, then
// reported memory), or null.
const GpuSpec* MatchGpuSpec(const std::vector<GpuSpec>& gpus, const Accelerator& a);
// Fixes a per-device memory figure that contradicts the datasheet (an AWS data error) and says
// what was changed; nullopt when the figure is plausible.
std::optional<Correction> CorrectAcceleratorMemory(InstanceType* t, const GpuSpec& g);

// "3200 Gigabit" -> 3200, "Up to 25 Gigabit" -> 25, "4x 100 Gigabit" -> 400, "High" -> null.
std::optional<double> ParseNetworkPerformanceGbps(std::string_view text);

}  // namespace gpuadvisor::build

#endif  // GPUADVISOR_CATALOG_BUILD_SOURCES_H_
