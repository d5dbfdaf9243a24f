// The AWS CLI as the front ends run it (`account scan`, `catalog update --aws`): whatever
// credentials the user's `aws` finds (profiles, SSO, an instance role, a credential process) are
// the ones used, so gpuadvisor holds no secret and no request signer of its own. Each call is a
// child process with an argument vector (no shell), a time limit and a ceiling on what it may
// print.
#ifndef GPUADVISOR_CLI_AWS_CLI_H_
#define GPUADVISOR_CLI_AWS_CLI_H_

#include <string>
#include <utility>
#include <vector>

#include "app/command_args.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor::cli {

// How to run the AWS CLI.
struct AwsCliSettings {
  AwsCliOptions options;   // program, profile, endpoint
  double timeout_s = 120;  // per call
};

// The AWS CLI, as the settings say. Copyable; Call is const and keeps no state between calls.
class AwsCli {
 public:
  explicit AwsCli(AwsCliSettings settings) : settings_(std::move(settings)) {}

  // Runs `program --output json [--profile P] [--endpoint-url U] [--region REGION] ARGS...`
  // (no --region when `region` is empty) and returns its standard output. IOError naming the
  // service and operation (ARGS[0] and ARGS[1]) with the first line of what the CLI said, its
  // exit code, or why it did not run to the end. `timeout_s` > 0 shortens the settings' limit
  // for this call (what is left of a whole run).
  // Nothing runs, and the answer is InvalidArgument naming the argument, when `region` is not a
  // region code or an argument is one the AWS CLI would read as a file or URL, or an option that
  // redirects the call (AwsArgumentProblem, util/aws_names.h): each value is one argv element,
  // and the runner sets --endpoint-url, --profile and --region itself.
  // REQUIRES: args.size() >= 2.
  Result<std::string> Call(const std::string& region, const std::vector<std::string>& args,
                           double timeout_s = 0) const;

 private:
  AwsCliSettings settings_;
};

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_AWS_CLI_H_
