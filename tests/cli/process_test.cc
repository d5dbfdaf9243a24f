// The front ends' process runner (cli/process.h) as the AWS CLI calls use it: standard error
// captured up to its ceiling, the environment overridden, a missing program named with its hint,
// output past its ceiling killed. (Watch's uses, deadlines and background children: watch_test.)
#include "cli/process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace gpuadvisor::cli {
namespace {

TEST(ProcessTest, ErrorsAreCapturedUpToTheirCeilingAndTheExitCodeIsTheCallers) {
  RunOptions o;
  o.capture_errors = true;
  o.max_errors = 10;
  Result<RunResult> r =
      RunChild({"/bin/sh", "-c", "printf out; printf 0123456789abcdef >&2; exit 3"}, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "out");
  EXPECT_EQ(r->err, "0123456789");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(RunCapture(std::vector<std::string>{"/bin/sh", "-c", "exit 3"}).ok());
}

TEST(ProcessTest, TheEnvironmentIsOverriddenNotDropped) {
  ::setenv("GPUADVISOR_PROCESS_TEST", "kept", 1);
  ::setenv("AWS_PAGER", "less", 1);
  RunOptions o;
  o.environment = {"AWS_PAGER="};
  Result<RunResult> r = RunChild({"/bin/sh", "-c",
                                  "printf '%s|%s|%s' \"$GPUADVISOR_PROCESS_TEST\" \"$AWS_PAGER\" "
                                  "\"${AWS_PAGER+set}\""},
                                 o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "kept||set");
}

TEST(ProcessTest, AMissingProgramIsNamedWithTheHintAndTooMuchOutputIsKilled) {
  RunOptions o;
  o.not_found_hint = "install it";
  Result<RunResult> missing = RunChild({"no-such-program-40"}, o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot run no-such-program-40"), std::string::npos);
  EXPECT_NE(missing.status().message().find("(install it)"), std::string::npos);
  RunOptions small;
  small.max_output = 1024;
  small.timeout_s = 10;
  small.what = "yes";
  Result<RunResult> runaway = RunChild({"yes"}, small);
  ASSERT_FALSE(runaway.ok());
  EXPECT_EQ(runaway.status().message(), "yes wrote over 1 KiB (killed)");
  RunOptions slow;
  slow.timeout_s = 0.2;
  slow.timeout_hint = "--timeout";
  Result<RunResult> late = RunChild({"sleep", "10"}, slow);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().message(), "sleep 10 timed out after 0.2 s (killed) (--timeout)");
}

}  // namespace
}  // namespace gpuadvisor::cli
