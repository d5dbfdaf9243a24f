// GPU telemetry from Amazon CloudWatch, summarised per hour by CloudWatch (`gpuadvisor idle
// --cloudwatch`), as AWS Compute Optimizer reads it: the CloudWatch agent's nvidia_gpu metrics
// (namespace CWAgent; nvidia_smi_utilization_gpu, nvidia_smi_memory_used, nvidia_smi_memory_total,
// nvidia_smi_power_draw; dimensions index, name, host, plus InstanceId, InstanceType and
// AutoScalingGroupName when the agent's append_dimensions adds them).
//
// The library never runs a process: it reads the answers of ListMetrics, GetMetricData and
// DescribeAutoScalingGroups (the AWS CLI's JSON, `--output json`) and builds the GetMetricData
// queries; the CLI (cli/idle_cloudwatch.cc) runs the AWS CLI with the user's credentials.
//
// One GPU = one nvidia_smi_utilization_gpu series as ListMetrics lists it (its whole dimension
// set); its other metrics are asked for with the same dimensions (the agent tags them alike).
// Per GPU and hour CloudWatch computes (Period 3600) kCloudWatchStats: utilisation Average,
// Maximum and SampleCount, memory used Average and Maximum, memory total Maximum, power Average.
// Each hour of each GPU becomes one window sample (telemetry.h: `readings` = SampleCount, the
// means, util_max_pct / mem_used_max_mib = the maxima) timed at the hour's start, and goes to
// IdleAnalyzer::Add like a Prometheus window summary: an hour is idle when its busiest reading
// (the Maximum) is at or under the threshold, so only whole idle hours count, and idle time inside
// a busy hour is not seen (doc/cost-control.md, "CloudWatch").
//
// Requests: GetMetricData takes at most 500 queries and returns at most 100,800 values per call;
// a batch holds whole hosts (so each host's GPUs arrive together in time order) and at most
// min(500, 100,800 / hours) queries, and its queries' JSON at most kCloudWatchMaxQueryBytes (it is
// one argument of the AWS CLI, and Linux caps one argument at 128 KiB).
//
// Hostile answers: every answer is parsed with RapidJSON (iterative, duplicate keys refused), and
// nothing an answer says can lift a bound: GPU series listed (kCloudWatchMaxGpus), dimensions per
// series and their lengths, pages per listing and per batch (kCloudWatchMaxPages), values per
// series (the hours asked for; a time off the hour grid or outside the range is a ParseError),
// Ids (only those of the batch). Errors are ParseError "<origin>: <JSON path>: expected ...";
// untrusted text is quoted through TerminalSafe.
#ifndef GPUADVISOR_CLOUDWATCH_SOURCE_H_
#define GPUADVISOR_CLOUDWATCH_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuadvisor/result.h"
#include "gpuadvisor/telemetry.h"

namespace gpuadvisor {

inline constexpr size_t kCloudWatchMaxQueriesPerCall = 500;    // GetMetricData's limit
inline constexpr size_t kCloudWatchMaxValuesPerCall = 100800;  // GetMetricData's limit
// One AWS CLI argument: Linux caps one at 128 KiB (MAX_ARG_STRLEN); a GPU's 7 queries are about
// 2-3 KiB with the agent's dimensions, so this, not the 500 queries, usually sizes a call.
inline constexpr size_t kCloudWatchMaxQueryBytes = size_t{120} << 10;
inline constexpr size_t kCloudWatchMaxGpus = 10000;  // GPU series listed, whatever the answers
inline constexpr size_t kCloudWatchMaxPages = 200;   // pages per listing and per batch
inline constexpr double kCloudWatchMaxRangeS = 455 * 86400.0;  // CloudWatch keeps 1 h data 455 d
inline constexpr const char* kCloudWatchUtilMetric = "nvidia_smi_utilization_gpu";

// The statistics asked for per GPU and hour, in query order (Id suffix = position).
struct CloudWatchStat {
  const char* metric;
  const char* stat;
};
inline constexpr CloudWatchStat kCloudWatchStats[] = {
    {"nvidia_smi_utilization_gpu", "Average"},     {"nvidia_smi_utilization_gpu", "Maximum"},
    {"nvidia_smi_utilization_gpu", "SampleCount"}, {"nvidia_smi_memory_used", "Average"},
    {"nvidia_smi_memory_used", "Maximum"},         {"nvidia_smi_memory_total", "Maximum"},
    {"nvidia_smi_power_draw", "Average"}};
inline constexpr size_t kCloudWatchQueriesPerGpu = std::size(kCloudWatchStats);

// One GPU: a nvidia_smi_utilization_gpu series of ListMetrics. Every text is from the answer
// (untrusted: shown only through TerminalSafe).
struct CloudWatchGpu {
  std::vector<std::pair<std::string, std::string>> dimensions;  // as listed, Name -> Value
  std::string host;                // dimension host, else InstanceId, else "unknown"
  int index = -1;                  // dimension index (-1 when absent or not a number)
  std::string name, uuid;          // dimensions name; uuid, else pci_bus_id
  std::string instance_id;         // InstanceId ("" when the agent does not append it)
  std::string instance_type;       // InstanceType
  std::string auto_scaling_group;  // AutoScalingGroupName
};

// Reads one ListMetrics page: appends its nvidia_smi_utilization_gpu series not listed yet to
// *gpus and returns its NextToken ("" on the last page). ParseError naming origin and the JSON
// path; InvalidArgument when the series would pass `max_gpus`; a series with over 30 dimensions,
// a name over 255 bytes or a value over 1024 (CloudWatch's own limits) is a ParseError.
Result<std::string> ParseCloudWatchListMetrics(std::string_view json, const std::string& origin,
                                               std::vector<CloudWatchGpu>* gpus,
                                               size_t max_gpus = kCloudWatchMaxGpus);

// Reads a DescribeAutoScalingGroups answer: the instance ids of group `group` (an error naming
// the group when the answer has no such group).
Result<std::vector<std::string>> ParseAutoScalingGroupInstances(std::string_view json,
                                                                const std::string& origin,
                                                                const std::string& group);

// The fleet's GPUs among `gpus`: those of an instance in `instance_ids` or (when `group` is not
// empty) with AutoScalingGroupName `group`; all of them when both are empty. Sorted by host,
// then index.
std::vector<CloudWatchGpu> SelectCloudWatchFleet(std::vector<CloudWatchGpu> gpus,
                                                 const std::vector<std::string>& instance_ids,
                                                 const std::string& group);

// One GetMetricData call's worth of GPUs: gpus[first, first + count) of the fleet, and the
// MetricDataQueries JSON array for them (Ids "q<k>_<s>": GPU k of the batch, statistic s).
struct CloudWatchBatch {
  size_t first = 0, count = 0;
  std::string queries_json;
};
// The hours in [start_s, end_s) (whole hours, end > start).
size_t CloudWatchHours(double start_s, double end_s);
// Splits the fleet (sorted by host, SelectCloudWatchFleet) into batches of whole hosts as the
// header says; a host too large for one call is split. InvalidArgument when one GPU's queries
// alone pass kCloudWatchMaxQueryBytes (dimensions too long) or the range has no hour.
Result<std::vector<CloudWatchBatch>> CloudWatchBatches(const std::vector<CloudWatchGpu>& fleet,
                                                       const std::string& metric_namespace,
                                                       double start_s, double end_s);

// Collects one batch's GetMetricData pages (in any order of Ids, times and pages) into a fixed
// grid of hours x statistics per GPU, then passes them on as window samples. Timestamps may be
// ISO 8601 text or Unix seconds (the AWS CLI v1 prints CloudWatch's as numbers).
// REQUIRES: `fleet` and `batch` outlive the reader.
class CloudWatchBatchReader {
 public:
  CloudWatchBatchReader(const std::vector<CloudWatchGpu>& fleet, const CloudWatchBatch& batch,
                        double start_s, double end_s);
  // Reads one page; returns its NextToken ("" on the last page). ParseError naming origin and
  // the JSON path for anything but the GetMetricData answer asked for; IOError when a result's
  // StatusCode is Forbidden or InternalError.
  Result<std::string> AddPage(std::string_view json, const std::string& origin);
  // Every (GPU, hour) with a utilisation Average, in time order (by host and index within an
  // hour), to `sink`; returns how many. A non-OK Status from the sink stops it.
  Result<uint64_t> Emit(const SampleSink& sink) const;
  uint64_t values() const { return values_; }  // values read from the pages

 private:
  const std::vector<CloudWatchGpu>& fleet_;
  CloudWatchBatch batch_;
  double start_s_;
  size_t hours_;
  std::vector<double> grid_;  // [gpu][hour][stat], NaN = no value
  uint64_t values_ = 0;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CLOUDWATCH_SOURCE_H_
