// Shared by the launch planner and the four renderers.
#ifndef GPUADVISOR_LAUNCH_INTERNAL_H_
#define GPUADVISOR_LAUNCH_INTERNAL_H_

#include <string>
#include <string_view>

#include "gpuadvisor/launch.h"

namespace gpuadvisor::launch_internal {

// The boot script and the CloudWatch agent configuration for a plan (user_data.cc).
std::string CloudWatchConfig(const LaunchPlan& plan);
std::string UserData(const LaunchPlan& plan);

// "p5.48xlarge" -> "p5-48xlarge": a name usable in CloudFormation logical ids / HCL labels
// (letters and digits only when `alnum_only`).
std::string Slug(std::string_view text, bool alnum_only = false);

// `text` as one double-quoted JSON/HCL/YAML string literal.
std::string Quoted(std::string_view text);

// Prefixes every line of `text` with `prefix` (e.g. "# ").
std::string Commented(std::string_view text, std::string_view prefix);

std::string RenderAwsCli(const LaunchPlan& plan, std::string* cli_input_json);
std::string RenderCloudFormation(const LaunchPlan& plan);
std::string RenderTerraform(const LaunchPlan& plan);
std::string RenderSkyPilot(const LaunchPlan& plan);

}  // namespace gpuadvisor::launch_internal

#endif  // GPUADVISOR_LAUNCH_INTERNAL_H_
