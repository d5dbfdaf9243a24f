// AWS name grammar and the AWS CLI argument check (aws_names.h).
#include "util/aws_names.h"

#include <algorithm>
#include <array>

#include "util/text.h"

namespace gpuadvisor {
namespace {

constexpr size_t kMaxTypeName = 64;
constexpr size_t kMaxPart = 48;
constexpr size_t kMaxPageToken = 8192;

bool Lower(char c) { return c >= 'a' && c <= 'z'; }
bool Digit(char c) { return c >= '0' && c <= '9'; }
bool LowerOrDigit(char c) { return Lower(c) || Digit(c); }

// Lower-case letters, digits and '-', beginning with a letter (or, where `digit_first`, a
// digit too), not ending with '-', no "--".
bool Part(std::string_view s, bool digit_first) {
  if (s.empty() || s.size() > kMaxPart) return false;
  if (!(Lower(s.front()) || (digit_first && Digit(s.front())))) return false;
  if (s.back() == '-') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '-') {
      if (s[i - 1] == '-') return false;
    } else if (!LowerOrDigit(c)) {
      return false;
    }
  }
  return true;
}

bool All(std::string_view s, bool (*pred)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}

// `what`, then the offending text quoted and made safe to print (at most 80 bytes of it).
std::string Wanted(std::string_view what, std::string_view got) {
  std::string shown = TerminalSafe(got.substr(0, 80));
  if (got.size() > 80) shown += "...";
  return std::string(what) + ", got \"" + shown + "\"";
}

}  // namespace

bool IsInstanceTypeName(std::string_view name) {
  if (name.size() > kMaxTypeName) return false;
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  return Part(name.substr(0, dot), false) && Part(name.substr(dot + 1), true);
}

bool IsInstanceFamilyName(std::string_view family) { return Part(family, false); }

bool IsUltraServerTypeName(std::string_view name) {
  if (name.size() > kMaxTypeName || !StartsWith(name, "u-")) return false;
  const size_t x = name.rfind('x');
  if (x == std::string_view::npos || x + 1 == name.size() || x < 3) return false;
  return Part(name.substr(0, x), false) && All(name.substr(x + 1), Digit);
}

bool IsRegionCode(std::string_view r) {
  if (r.size() > 32) return false;
  std::vector<std::string_view> parts = Split(r, '-');
  if (parts.size() == 4 && parts[1] == "gov") parts.erase(parts.begin() + 1);
  if (parts.size() != 3 || parts[0].size() != 2) return false;
  return All(parts[0], Lower) && All(parts[1], Lower) && All(parts[2], Digit);
}

bool IsAzId(std::string_view id) {
  const size_t at = id.find("-az");
  if (at == std::string_view::npos || id.size() > 32) return false;
  return Part(id.substr(0, at), false) && All(id.substr(at + 3), Digit);
}

bool IsInstanceId(std::string_view id) {
  if (!StartsWith(id, "i-") || (id.size() != 10 && id.size() != 19)) return false;
  return std::all_of(id.begin() + 2, id.end(),
                     [](char c) { return Digit(c) || (c >= 'a' && c <= 'f'); });
}

bool IsPageToken(std::string_view t) {
  if (t.empty() || t.size() > kMaxPageToken || t.front() == '-') return false;
  return std::all_of(t.begin(), t.end(), [](char c) {
    return Lower(c) || Digit(c) || (c >= 'A' && c <= 'Z') ||
           std::string_view("+/=_.~-").find(c) != std::string_view::npos;
  });
}

std::string InstanceTypeNameProblem(std::string_view name) {
  if (IsInstanceTypeName(name)) return "";
  return Wanted(
      "an EC2 instance type such as p5.48xlarge (a family and a size of lower-case letters, "
      "digits and '-', joined by one '.')",
      name);
}

std::string UltraServerTypeNameProblem(std::string_view name) {
  if (IsUltraServerTypeName(name)) return "";
  return Wanted(
      "an EC2 UltraServer type such as u-p6e-gb200x72 (\"u-\", lower-case letters, "
      "digits and '-', then 'x' and the GPU count)",
      name);
}

std::string FamilyNameProblem(std::string_view family) {
  if (IsInstanceFamilyName(family)) return "";
  return Wanted("an instance family such as p5 or p6-b200 (lower-case letters, digits and '-')",
                family);
}

std::string RegionCodeProblem(std::string_view region) {
  if (IsRegionCode(region)) return "";
  return Wanted("an AWS region code such as us-east-1, us-gov-west-1 or cn-north-1", region);
}

std::string AzIdProblem(std::string_view id) {
  if (IsAzId(id)) return "";
  return Wanted("an availability-zone id such as use1-az1", id);
}

std::string AwsArgumentProblem(std::string_view arg) {
  if (!ValidUtf8(arg)) return Wanted("UTF-8 text", arg);
  for (const char c : arg) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return Wanted("no control characters", arg);
    }
  }
  // "scheme://": the AWS CLI reads file:// and fileb:// values from disk, and v1 (or v2 with
  // cli_follow_urlparam) fetches http(s):// ones; no argument of ours is a URL.
  if (const size_t sep = arg.find("://"); sep != std::string_view::npos && sep > 0) {
    const std::string_view scheme = arg.substr(0, sep);
    const bool scheme_like = std::all_of(scheme.begin(), scheme.end(), [](char c) {
      return Lower(c) || Digit(c) || (c >= 'A' && c <= 'Z') || c == '+' || c == '.' || c == '-';
    });
    if (scheme_like) return Wanted("a value, not a file or URL for the AWS CLI to read", arg);
  }
  if (arg.empty() || arg.front() != '-') return "";
  // An option: "--" and lower-case letters, digits and '-' only (not "-x", "--a=b" or "--").
  const std::string_view name = arg.substr(std::min<size_t>(2, arg.size()));
  if (arg.size() < 3 || arg[1] != '-' || !Part(name, false)) {
    return Wanted("a value that does not begin with '-', or an AWS CLI option name", arg);
  }
  // The options that say where a call goes, whose credentials sign it, or make the CLI read a
  // file: set by the runner, once, from the user's own options.
  static constexpr std::array<std::string_view, 9> kRunnerOnly = {
      "--endpoint-url",     // another program's flag (aws CLI)
      "--profile",          // another program's flag (aws CLI)
      "--region",           // another program's flag (aws CLI)
      "--output",           // another program's flag (aws CLI)
      "--ca-bundle",        // another program's flag (aws CLI)
      "--no-verify-ssl",    // another program's flag (aws CLI)
      "--no-sign-request",  // another program's flag (aws CLI)
      "--debug",            // another program's flag (aws CLI)
      "--cli-"};            // another program's flag (aws CLI): --cli-input-json, ...
  for (std::string_view o : kRunnerOnly) {
    if (o.back() == '-' ? StartsWith(arg, o) : arg == o) {
      return Wanted("no AWS CLI option that only the runner sets", arg);
    }
  }
  return "";
}

std::string AwsArgumentsProblem(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (std::string p = AwsArgumentProblem(args[i]); !p.empty()) {
      return "argument " + std::to_string(i + 1) + ": expected " + p;
    }
  }
  return "";
}

}  // namespace gpuadvisor
