// `gpuadvisor idle --cloudwatch` (idle_cloudwatch.h): the AWS CLI calls, paged with NextToken.
#include "cli/idle_cloudwatch.h"

#include <map>
#include <set>
#include <utility>

#include "cli/aws_cli.h"
#include "gpuadvisor/cloudwatch_source.h"
#include "gpuadvisor/telemetry.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

// Runs a paged call: `call(token)` returns the page's NextToken. A token seen before, or more
// than kCloudWatchMaxPages pages, is an error: no answer can keep the loop going.
template <typename Call>
Status Paged(const std::string& what, Call call) {
  std::set<std::string> seen;
  std::string token;
  for (size_t page = 1;; ++page) {
    if (page > kCloudWatchMaxPages) {
      return Status::IOError(what + ": more than " + std::to_string(kCloudWatchMaxPages) +
                             " pages; name a smaller fleet");
    }
    Result<std::string> next = call(token, page);
    if (!next.ok()) return next.status();
    if (next->empty()) return Status::OK();
    if (!seen.insert(*next).second) {
      return Status::ParseError(what + " page " + std::to_string(page) +
                                ": $.NextToken: expected a token not given before");
    }
    token = std::move(next).value();
  }
}

// The instances of group `asg` now.
Result<std::vector<std::string>> GroupInstances(const AwsCli& aws, const IdleCloudWatch& c,
                                                CloudWatchRunInfo* info) {
  ++info->asg_calls;
  Result<std::string> out =
      aws.Call(c.region, {"autoscaling", "describe-auto-scaling-groups",
                          "--auto-scaling-group-names", c.asg, "--no-paginate"});
  if (!out.ok()) return out.status();
  return ParseAutoScalingGroupInstances(*out, "autoscaling describe-auto-scaling-groups", c.asg);
}

// Every GPU series of the namespace (ListMetrics, paged).
Result<std::vector<CloudWatchGpu>> ListGpus(const AwsCli& aws, const IdleCloudWatch& c,
                                            CloudWatchRunInfo* info) {
  std::vector<CloudWatchGpu> gpus;
  Status st = Paged("cloudwatch list-metrics", [&](const std::string& token, size_t page) {
    std::vector<std::string> args = {"cloudwatch",       "list-metrics",  "--namespace",
                                     c.metric_namespace, "--metric-name", kCloudWatchUtilMetric,
                                     "--no-paginate"};
    if (!token.empty()) args.insert(args.end(), {"--next-token", token});
    ++info->list_calls;
    Result<std::string> out = aws.Call(c.region, args);
    if (!out.ok()) return Result<std::string>(out.status());
    return ParseCloudWatchListMetrics(*out, "cloudwatch list-metrics page " + std::to_string(page),
                                      &gpus);
  });
  if (!st.ok()) return st;
  return gpus;
}

// One batch's pages into the analyzer.
Status ReadBatch(const AwsCli& aws, const IdleCloudWatch& c,
                 const std::vector<CloudWatchGpu>& fleet, const CloudWatchBatch& batch,
                 IdleAnalyzer* analyzer, CloudWatchRunInfo* info) {
  CloudWatchBatchReader reader(fleet, batch, c.start_s, c.end_s);
  const std::string start = FormatUtc(c.start_s), end = FormatUtc(c.end_s);
  Status st = Paged("cloudwatch get-metric-data", [&](const std::string& token, size_t page) {
    std::vector<std::string> args = {"cloudwatch",
                                     "get-metric-data",
                                     "--metric-data-queries",
                                     batch.queries_json,
                                     "--start-time",
                                     start,
                                     "--end-time",
                                     end,
                                     "--scan-by",
                                     "TimestampAscending",
                                     "--no-paginate"};
    if (!token.empty()) args.insert(args.end(), {"--next-token", token});
    ++info->data_calls;
    info->metrics_requested += batch.count * kCloudWatchQueriesPerGpu;
    Result<std::string> out = aws.Call(c.region, args);
    if (!out.ok()) return Result<std::string>(out.status());
    return reader.AddPage(*out, "cloudwatch get-metric-data page " + std::to_string(page));
  });
  GPUADVISOR_RETURN_IF_ERROR(st);
  info->values += reader.values();
  Result<uint64_t> n =
      reader.Emit([analyzer](const TelemetrySample& s) { return analyzer->Add(s); });
  if (!n.ok()) return n.status();
  info->samples += *n;
  return Status::OK();
}

// The hosts' InstanceType dimensions: types in the catalog as inventory entries, the others
// named in a warning (their type is then guessed from the GPUs, as without the dimension).
void TypeHosts(const std::vector<CloudWatchGpu>& fleet, const IdleCloudWatch& c,
               const Catalog& catalog, CloudWatchRunInfo* info) {
  std::map<std::string, std::string> types;  // host -> its first series' InstanceType
  for (const CloudWatchGpu& g : fleet) {
    if (!g.instance_type.empty()) types.emplace(g.host, g.instance_type);
  }
  for (const auto& [host, type] : types) {
    if (catalog.FindInstanceType(type) == nullptr) {
      info->warnings.push_back("cloudwatch: " + TerminalSafe(host) + ": InstanceType " +
                               TerminalSafe(type) +
                               " is not in the catalog: its type is guessed from its GPUs");
      continue;
    }
    InventoryEntry e;
    e.host = host;
    e.instance_type = type;
    e.region = c.region;
    e.from = "InstanceType dimension of its CloudWatch series";
    info->typed_hosts.push_back(std::move(e));
  }
}

Result<CloudWatchRunInfo> Run(const IdleCloudWatch& c, const Catalog& catalog,
                              IdleAnalyzer* analyzer) {
  const AwsCli aws(AwsCliSettings{.options = c.aws_cli, .timeout_s = 120});
  CloudWatchRunInfo info;
  std::vector<std::string> ids = c.instance_ids;
  if (!c.asg.empty()) {
    Result<std::vector<std::string>> members = GroupInstances(aws, c, &info);
    if (!members.ok()) return members.status();
    ids.insert(ids.end(), members->begin(), members->end());
  }
  Result<std::vector<CloudWatchGpu>> listed = ListGpus(aws, c, &info);
  if (!listed.ok()) return listed.status();
  std::vector<CloudWatchGpu> fleet = SelectCloudWatchFleet(std::move(listed).value(), ids, c.asg);
  std::set<std::string> hosts, found;
  for (const CloudWatchGpu& g : fleet) {
    hosts.insert(g.host);
    found.insert(g.instance_id);
  }
  for (const std::string& id : c.instance_ids) {
    if (found.count(id) == 0) {
      info.warnings.push_back("cloudwatch: no " + std::string(kCloudWatchUtilMetric) +
                              " series with InstanceId " + TerminalSafe(id) + " in " +
                              c.metric_namespace + " (does the agent append InstanceId?)");
    }
  }
  if (fleet.empty()) {
    return Status::NoResult("cloudwatch: no " + std::string(kCloudWatchUtilMetric) +
                            " series in namespace " + c.metric_namespace + ", region " + c.region +
                            (ids.empty() && c.asg.empty() ? "" : " for the fleet named") +
                            " (is the CloudWatch agent's nvidia_gpu section on?)");
  }
  TypeHosts(fleet, c, catalog, &info);
  info.gpus = fleet.size();
  info.hosts = hosts.size();
  info.hours = CloudWatchHours(c.start_s, c.end_s);
  Result<std::vector<CloudWatchBatch>> batches =
      CloudWatchBatches(fleet, c.metric_namespace, c.start_s, c.end_s);
  if (!batches.ok()) return batches.status();
  analyzer->set_origin("cloudwatch");
  for (const CloudWatchBatch& b : *batches) {
    GPUADVISOR_RETURN_IF_ERROR(ReadBatch(aws, c, fleet, b, analyzer, &info));
  }
  return info;
}

}  // namespace

Result<CloudWatchRunInfo> AddCloudWatch(const IdleCloudWatch& c, const Catalog& catalog,
                                        IdleAnalyzer* analyzer) {
  Result<CloudWatchRunInfo> info = Run(c, catalog, analyzer);
  if (!info.ok() && info.status().field().empty()) return info.status().WithField("cloudwatch");
  return info;
}

std::vector<InventoryEntry> MergeInventory(const std::vector<InventoryEntry>& inventory,
                                           const std::vector<InventoryEntry>& typed_hosts) {
  std::set<std::string> listed;
  for (const InventoryEntry& e : inventory) listed.insert(ToLower(e.host));
  std::vector<InventoryEntry> out = inventory;
  for (const InventoryEntry& e : typed_hosts) {
    if (listed.count(ToLower(e.host)) == 0) out.push_back(e);
  }
  return out;
}

std::string CloudWatchNote(const IdleCloudWatch& c, const CloudWatchRunInfo& info) {
  return "cloudwatch: " + std::to_string(info.gpus) + " GPUs on " + std::to_string(info.hosts) +
         " hosts, " + c.region + ", " + std::to_string(info.hours) + " h from " +
         FormatUtc(c.start_s) + ": " + std::to_string(info.list_calls) + " list-metrics and " +
         std::to_string(info.data_calls) + " get-metric-data calls, " +
         std::to_string(info.metrics_requested) + " metrics requested";
}

}  // namespace gpuadvisor::cli
