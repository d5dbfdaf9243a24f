// The watch agent's decisions, nvidia-smi parsing and the action command lines.
#include "gpuadvisor/watch.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <thread>

#include "cli/process.h"
#include "testutil/fake_http.h"

namespace gpuadvisor {
namespace {

// Watch samples nvidia-smi and runs its actions through the CLI's process runner.
using cli::RunArgv;
using cli::RunCapture;

TEST(Watch, ActsAfterTheIdleWindowOnlyOutsideTheBootGrace) {
  WatchOptions o;
  o.idle_minutes = 10;
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
  o.idle_minutes = 10;
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
  o.idle_minutes = 10;
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
      {"sleep 1000 & sleep 1000", "timed out"},      // a child holds the pipe open
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

// Issue 43: a command that exits but leaves a background child holding its output (the pipe)
// used to be read until the deadline ("timed out"), or for ever without one. Reading stops
// shortly after the command's exit, with its output, and the child is killed.
TEST(Watch, RunCaptureStopsAtTheCommandsExitWhenABackgroundChildHoldsTheOutput) {
  const int fds = OpenFds();
  {
    // (Without a timeout the old reader never returned; with one it timed out.)
    const double timeout_s = 20;
    const auto start = std::chrono::steady_clock::now();
    Result<std::string> out = RunCapture("sleep 1000 & echo $!; printf '0\\n37\\n'", timeout_s);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    const size_t nl = out->find('\n');
    ASSERT_NE(nl, std::string::npos) << *out;
    EXPECT_EQ(out->substr(nl + 1), "0\n37\n");
    EXPECT_LT(s, 10) << "timeout " << timeout_s;
    // The background sleep is killed: gone, or a zombie for whoever reaps orphans.
    const std::string stat = "/proc/" + out->substr(0, nl) + "/stat";
    bool dead = false;
    for (int i = 0; i < 100 && !dead; ++i) {
      std::ifstream f(stat);
      std::string pid, comm, state;
      dead = !(f >> pid >> comm >> state) || state == "Z" || state == "X";
      if (!dead) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(dead) << "the background child is still running";
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
    EXPECT_EQ(OpenFds(), fds);
  }
}

// Issue 24, item 4: IMDSv2 over the one HTTP client. A fake IMDS gives a token to PUT
// /latest/api/token (with a TTL header) and the instance id, chunked and kept alive, only to a GET
// carrying that token; anything else is HTTP 401.
testing::FakeHttpServer::Handler FakeImds(bool chunked) {
  return [chunked](const testing::FakeHttpServer::Request& r) {
    auto has = [&](const std::string& line) {
      return std::find(r.headers.begin(), r.headers.end(), line) != r.headers.end();
    };
    testing::FakeHttpServer::Reply reply;
    if (r.method == "PUT" && r.target == "/latest/api/token" &&
        has("X-aws-ec2-metadata-token-ttl-seconds: 60")) {
      reply.body = "tok-123";
    } else if (r.method == "GET" && r.target == "/latest/meta-data/instance-id" &&
               has("X-aws-ec2-metadata-token: tok-123")) {
      reply.body = "i-0123456789abcdef0";
      reply.chunked = chunked;
    } else {
      reply.status = 401;
    }
    return reply;
  };
}

TEST(Imds, TokenThenInstanceId) {
  for (const bool chunked : {false, true}) {
    testing::FakeHttpServer imds(FakeImds(chunked));
    const Result<std::string> id = ImdsInstanceId(imds.url(), 30);
    ASSERT_TRUE(id.ok()) << id.status().message();
    EXPECT_EQ(*id, "i-0123456789abcdef0");
    ASSERT_EQ(imds.request_count(), 2u);
    EXPECT_EQ(imds.requests()[0].method, "PUT");
    EXPECT_EQ(imds.requests()[1].method, "GET");
  }
}

// Issue 43: the instance id becomes an argument of the AWS CLI; an IMDS answer is an attacker
// too, so only an instance id's shape is taken.
TEST(Imds, AnAnswerThatIsNotAnInstanceIdIsRefused) {
  for (const std::string body : {"i-1 --endpoint-url http://attacker", "i-file:///etc/passwd",
                                 "i-0123456789ABCDEF0", "i-12", "x-0123456789abcdef0"}) {
    testing::FakeHttpServer imds([&](const testing::FakeHttpServer::Request& r) {
      testing::FakeHttpServer::Reply reply;
      reply.body = r.method == "PUT" ? "tok-123" : body;
      return reply;
    });
    const Result<std::string> id = ImdsInstanceId(imds.url(), 30);
    EXPECT_FALSE(id.ok()) << body;
  }
}

// A program and its arguments run as an argument vector: no shell reads them.
TEST(Watch, RunCaptureOfAnArgvInvolvesNoShell) {
  Result<std::string> out = RunCapture(std::vector<std::string>{"printf", "%s", "a b; echo $HOME"});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, "a b; echo $HOME");
  EXPECT_FALSE(RunCapture(std::vector<std::string>{"no-such-program-43"}).ok());
}

TEST(Imds, ErrorsNameTheEndpointAndTheCause) {
  testing::FakeHttpServer::Reply refused;
  refused.status = 401;
  testing::FakeHttpServer imds([&](const testing::FakeHttpServer::Request&) { return refused; });
  const std::string host = "127.0.0.1:" + std::to_string(imds.port());
  EXPECT_EQ(ImdsInstanceId(imds.url(), 30).status().message(),
            "IMDS " + host + ": HTTP 401 to PUT /latest/api/token");
  EXPECT_EQ(ImdsInstanceId("http://127.0.0.1:1", 30).status().message(),
            "IMDS 127.0.0.1:1: connection refused");
  refused.status = 200;
  refused.body = "\x1b[2Jnot-an-id";
  const Status odd = ImdsInstanceId(host, 30).status();  // no scheme: http
  EXPECT_EQ(odd.code(), StatusCode::kIOError);
  EXPECT_EQ(odd.message().find('\x1b'), std::string::npos) << odd.message();
  EXPECT_EQ(ImdsInstanceId("ftp://x", 30).status().code(), StatusCode::kInvalidArgument);
}

TEST(Imds, SilentEndpointEndsAtTheDeadline) {
  testing::FakeHttpServer::Reply stall;
  stall.stall = true;
  testing::FakeHttpServer imds([&](const testing::FakeHttpServer::Request&) { return stall; });
  const Status st = ImdsInstanceId(imds.url(), 0.3).status();
  EXPECT_NE(st.message().find(": no complete answer within 0.3 s"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace gpuadvisor
