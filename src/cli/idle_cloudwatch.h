// `gpuadvisor idle --cloudwatch`: the CloudWatch agent's GPU metrics, summarised per hour by
// CloudWatch, read through the user's AWS CLI (cli/aws_cli.h) and passed to the idle analysis.
// The answers are read by the library (gpuadvisor/cloudwatch_source.h); this file only runs the
// calls: DescribeAutoScalingGroups (with --asg), ListMetrics and GetMetricData, each paged with
// NextToken up to kCloudWatchMaxPages pages.
#ifndef GPUADVISOR_CLI_IDLE_CLOUDWATCH_H_
#define GPUADVISOR_CLI_IDLE_CLOUDWATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "app/requests.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor::cli {

// What the run did, for the note on standard error (what it cost is billed per metric).
struct CloudWatchRunInfo {
  size_t gpus = 0, hosts = 0, hours = 0;
  uint64_t list_calls = 0, data_calls = 0, asg_calls = 0;
  uint64_t metrics_requested = 0;  // GetMetricData queries sent (the billed unit)
  uint64_t values = 0, samples = 0;
  std::vector<std::string> warnings;  // instances asked for without a GPU series
  // Hosts whose series carry the InstanceType dimension (the agent's append_dimensions) of a
  // type in the catalog, placed in the region read: priced as that type, not a guess. An
  // inventory entry for the host wins (MergeInventory).
  std::vector<InventoryEntry> typed_hosts;
};

// Lists the fleet's GPU series, reads their hourly statistics and adds them to `analyzer`.
// Errors name the field "cloudwatch" unless they name an option (asg, since); IOError when the
// AWS CLI fails, ParseError for an answer that is not the API's, NoResult when no GPU series
// matches the fleet.
Result<CloudWatchRunInfo> AddCloudWatch(const IdleCloudWatch& c, const Catalog& catalog,
                                        IdleAnalyzer* analyzer);
// The inventory with the hosts CloudWatch typed that it does not list.
std::vector<InventoryEntry> MergeInventory(const std::vector<InventoryEntry>& inventory,
                                           const std::vector<InventoryEntry>& typed_hosts);
// The note: "cloudwatch: 3 GPUs on 2 hosts, us-east-1, 168 h from ...: 1 list-metrics and
// 1 get-metric-data calls, 21 metrics requested".
std::string CloudWatchNote(const IdleCloudWatch& c, const CloudWatchRunInfo& info);

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_IDLE_CLOUDWATCH_H_
