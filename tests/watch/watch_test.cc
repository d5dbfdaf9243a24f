// The watch agent's decisions, nvidia-smi parsing and the action command lines.
#include "gpuadvisor/watch.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>

namespace gpuadvisor {
namespace {

TEST(Watch, ActsAfterTheIdleWindowOnlyOutsideTheBootGrace) {
  WatchOptions o;
  o.idle_s = 600;
  o.boot_grace_s = 900;
  WatchState s(o);
  double idle = 0;
  EXPECT_EQ(s.Observe(0, 100, {0, 1}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(s.Observe(300, 400, {2, 0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(idle, 300);
  EXPECT_EQ(s.Observe(600, 700, {0, 0}, false, &idle), WatchDecision::kGrace);
  EXPECT_EQ(s.Observe(900, 1000, {0, 0}, false, &idle), WatchDecision::kAct);
  EXPECT_EQ(idle, 900);
}

TEST(Watch, BusyKeepAliveAndMissingDataRestartOrHoldTheClock) {
  WatchOptions o;
  o.idle_s = 600;
  o.boot_grace_s = 0;
  WatchState s(o);
  double idle = 0;
  EXPECT_EQ(s.Observe(0, 1e6, {0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(s.Observe(500, 1e6, {}, false, &idle), WatchDecision::kNoData);
  EXPECT_EQ(idle, 500);  // the clock keeps running through a failed read
  EXPECT_EQ(s.Observe(550, 1e6, {40}, false, &idle), WatchDecision::kBusy);
  EXPECT_EQ(s.Observe(600, 1e6, {0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(s.Observe(1300, 1e6, {0}, true, &idle), WatchDecision::kKeepAlive);
  EXPECT_EQ(s.Observe(1400, 1e6, {0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(idle, 0);
  EXPECT_EQ(s.Observe(2000, 1e6, {5}, false, &idle), WatchDecision::kAct);  // 5 % is idle
}

TEST(Watch, ParsesNvidiaSmiAndBuildsCommands) {
  Result<std::vector<double>> u = ParseSmiUtilization("0\n37\n[N/A]\n100 %\n");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(*u, (std::vector<double>{0, 37, 100}));
  EXPECT_FALSE(ParseSmiUtilization("No devices were found\n").ok());
  EXPECT_TRUE(CheckWatchAction("hibernate").ok());
  EXPECT_TRUE(CheckWatchAction("command:shutdown -h now").ok());
  EXPECT_FALSE(CheckWatchAction("reboot").ok());
  EXPECT_FALSE(CheckWatchAction("command:").ok());
  EXPECT_EQ(WatchActionArgv("hibernate", "i-1", "us-east-1", "http://x"),
            (std::vector<std::string>{"aws", "ec2", "stop-instances", "--instance-ids", "i-1",
                                      "--hibernate", "--region", "us-east-1", "--endpoint-url",
                                      "http://x"}));
  EXPECT_EQ(WatchActionArgv("terminate", "i-1", "", "")[2], "terminate-instances");
  EXPECT_EQ(WatchActionArgv("command:echo hi", "", "", "")[2], "echo hi");
  Result<int> rc = RunArgv({"/bin/sh", "-c", "exit 3"});
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(*rc, 3);
  EXPECT_FALSE(RunArgv({"/nonexistent/program"}).ok());
  Result<std::string> out = RunCapture("printf 'a b'");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, "a b");
  EXPECT_FALSE(RunCapture("exit 1").ok());
  EXPECT_EQ(ImdsInstanceId("http://127.0.0.1:1", 0.5).status().code(), StatusCode::kIOError);
}

// Issue 16: a wedged driver (no reading for wedged_after samples) never stops the instance under
// keep-alive and restarts the idle clock; under stop it acts after the boot grace.
TEST(Watch, WedgedDriverKeepsAliveByDefault) {
  WatchOptions o;
  o.idle_s = 600;
  o.boot_grace_s = 0;
  o.wedged_after = 3;
  WatchState s(o);
  double idle = 0;
  EXPECT_EQ(s.Observe(0, 1e6, {0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(s.Observe(100, 1e6, {}, false, &idle), WatchDecision::kNoData);
  EXPECT_EQ(s.Observe(200, 1e6, {}, false, &idle), WatchDecision::kNoData);
  EXPECT_FALSE(s.wedged());
  EXPECT_EQ(idle, 200);  // short failures keep the clock running
  for (double t : {300.0, 5000.0, 9000.0}) {
    EXPECT_EQ(s.Observe(t, 1e6, {}, false, &idle), WatchDecision::kNoData) << t;
    EXPECT_TRUE(s.wedged());
  }
  EXPECT_EQ(s.failed_reads(), 5);
  // Readings come back idle: the clock starts again instead of acting on 9000 s of no data.
  EXPECT_EQ(s.Observe(9100, 1e6, {0}, false, &idle), WatchDecision::kIdle);
  EXPECT_EQ(idle, 0);
  EXPECT_EQ(s.failed_reads(), 0);
}

TEST(Watch, WedgedDriverActsUnderTheStopPolicyAfterTheBootGrace) {
  WatchOptions o;
  o.boot_grace_s = 900;
  o.wedged_after = 2;
  o.on_wedged = WedgedPolicy::kStop;
  WatchState s(o);
  double idle = 0;
  EXPECT_EQ(s.Observe(0, 100, {}, false, &idle), WatchDecision::kNoData);
  EXPECT_EQ(s.Observe(60, 160, {}, false, &idle), WatchDecision::kGrace);
  EXPECT_EQ(s.Observe(120, 220, {}, true, &idle), WatchDecision::kKeepAlive);
  EXPECT_EQ(s.Observe(900, 1000, {}, false, &idle), WatchDecision::kAct);
  EXPECT_STREQ(WedgedPolicyName(WedgedPolicy::kStop), "stop");
  EXPECT_STREQ(WedgedPolicyName(WedgedPolicy::kKeepAlive), "keep-alive");
}

int OpenFds() {
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  while (readdir(d) != nullptr) ++n;
  closedir(d);
  return n;
}

// Issue 16: a hung nvidia-smi used to block watch forever (popen without a deadline).
TEST(Watch, RunCaptureKillsAndReapsACommandPastItsDeadline) {
  const int fds = OpenFds();
  const struct {
    const char* command;
    const char* error;
  } cases[] = {
      {"sleep 1000", "timed out after 0.3 s (killed)"},
      {"printf 'partial'; sleep 1000", "timed out"},
      {"exec >&-; sleep 1000", "timed out"},         // output closed, still running
      {"sleep 1000 & printf 0", "timed out"},        // a child holds the pipe open
      {"yes", "wrote over 1 MiB (killed)"},          // runaway output
      {"kill -9 $$", "failed (killed by signal 9)"}  // died of a signal
  };
  for (const auto& c : cases) {
    const auto start = std::chrono::steady_clock::now();
    Result<std::string> out = RunCapture(c.command, 0.3);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(out.ok()) << c.command;
    EXPECT_EQ(out.status().code(), StatusCode::kIOError);
    EXPECT_NE(out.status().message().find(c.error), std::string::npos)
        << c.command << ": " << out.status().message();
    EXPECT_LT(s, 60) << c.command;  // bounded, not a timing claim: it used to never return
    // No zombie and no running child left behind, no descriptor leaked.
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1) << c.command;
    EXPECT_EQ(errno, ECHILD) << c.command;
    EXPECT_EQ(OpenFds(), fds) << c.command;
  }
  Result<std::string> quick = RunCapture("printf '0\\n37\\n'", 5);
  ASSERT_TRUE(quick.ok()) << quick.status().ToString();
  EXPECT_EQ(*quick, "0\n37\n");
  EXPECT_EQ(OpenFds(), fds);
}

}  // namespace
}  // namespace gpuadvisor
