// How the front ends run the AWS CLI for the calls made with the user's credentials (`account
// scan`, `catalog update --aws`): whatever credentials the user's `aws` finds (profiles, SSO, an
// instance role, a credential process) are the ones used, so gpuadvisor holds no secret and signs
// nothing itself. One declaration of the options, nested in each command's arguments.
#ifndef GPUADVISOR_AWS_CLI_OPTIONS_H_
#define GPUADVISOR_AWS_CLI_OPTIONS_H_

#include <string>

#include "gpuadvisor/fields.h"

namespace gpuadvisor {

struct AwsCliOptions {
  std::string profile;          // AWS CLI --profile; "" = its default chain
  std::string endpoint_url;     // AWS CLI --endpoint-url for every call (a local fake in tests)
  std::string program = "aws";  // the AWS CLI program, looked up on PATH
};
template <typename V>
void DeclareOptions(V& v, AwsCliOptions& a) {
  v.Text("profile", a.profile,
         {.help = "AWS CLI profile (default: its usual chain: environment, SSO, instance role)",
          .front_ends = kCli,
          .metavar = "NAME"});
  v.Text("endpoint-url", a.endpoint_url,
         {.help = "Endpoint for every AWS call instead of AWS's (a local fake, a VPC endpoint)",
          .front_ends = kCli,
          .metavar = "URL"});
  v.Text("aws-cli", a.program,
         {.help = "The AWS CLI program", .front_ends = kCli, .metavar = "PROGRAM"});
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_AWS_CLI_OPTIONS_H_
