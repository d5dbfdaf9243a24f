// The watch agent's decisions, nvidia-smi parsing and the action command lines.
#include "gpuadvisor/watch.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpuadvisor
