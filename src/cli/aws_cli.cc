// The AWS CLI as the front ends run it (aws_cli.h), through the one process runner (process.h).
#include "cli/aws_cli.h"

#include <algorithm>

#include "cli/process.h"
#include "util/aws_names.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

constexpr size_t kMaxCallOutput = 64 * kMiB;  // a region's offerings are ~0.5 MB
constexpr size_t kMaxCallErrors = size_t{64} * 1024;

}  // namespace

Result<std::string> AwsCli::Call(const std::string& region, const std::vector<std::string>& args,
                                 double timeout_s) const {
  const AwsCliOptions& o = settings_.options;
  if (!region.empty() && !IsRegionCode(region)) {
    return Status::InvalidArgument("aws: refused before running: expected " +
                                   RegionCodeProblem(region));
  }
  if (std::string bad = AwsArgumentsProblem(args); !bad.empty()) {
    return Status::InvalidArgument("aws " + TerminalSafe(args.empty() ? "" : args[0]) +
                                   ": refused before running: " + bad);
  }
  std::vector<std::string> argv = {o.program, "--output", "json"};
  if (!o.profile.empty()) argv.insert(argv.end(), {"--profile", o.profile});
  if (!o.endpoint_url.empty()) argv.insert(argv.end(), {"--endpoint-url", o.endpoint_url});
  if (!region.empty()) argv.insert(argv.end(), {"--region", region});
  const std::string what = TerminalSafe(args[0] + " " + args[1]);
  argv.insert(argv.end(), args.begin(), args.end());
  const double limit =
      timeout_s > 0 ? std::min(timeout_s, settings_.timeout_s) : settings_.timeout_s;
  // The AWS CLI v2 pages long output through `less` on a terminal; never here.
  Result<RunResult> r =
      RunChild(argv, RunOptions{.timeout_s = limit,
                                .max_output = kMaxCallOutput,
                                .capture_errors = true,
                                .max_errors = kMaxCallErrors,
                                .environment = {"AWS_PAGER="},
                                .what = "the AWS CLI",
                                .not_found_hint = "install the AWS CLI, or name it with --aws-cli",
                                .timeout_hint = "--timeout"});
  if (!r.ok()) return Status::IOError(what + ": " + r.status().message());
  if (r->exit_code != 0) {
    std::string line(Trim(r->err));
    if (const size_t nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
    if (line.size() > 300) line = line.substr(0, 300) + "...";
    return Status::IOError(what + ": " +
                           (r->exit_code < 0 ? "killed by signal " + std::to_string(r->signal)
                                             : "exit " + std::to_string(r->exit_code)) +
                           ": " + TerminalSafe(line));
  }
  return std::move(r->out);
}

}  // namespace gpuadvisor::cli
