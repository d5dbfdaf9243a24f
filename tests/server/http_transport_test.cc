// The Beast/Asio transport (issue: transport-level security findings): framing that does not
// depend on how bytes are split (no desync), chunked bodies, absolute-form targets, slow-body
// floods, the whole-body deadline, cancellation, drain on Stop(), both loopback families, the
// access log and the --cors check.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/guards.h"
#include "server/http_reader.h"
#include "server/http_server.h"
#include "server/sockets.h"
#include "server/transport_fixture.h"

namespace gpuadvisor::server {
namespace {

using Clock = std::chrono::steady_clock;

// ---- RequestReader: the framing, without sockets ----

// What a reader makes of `bytes` fed in the pieces cut at `cuts`: one line per request
// ("POST /v1/x body" or "error 400").
std::string Frame(std::string_view bytes, const std::vector<size_t>& cuts) {
  ReaderLimits limits;
  limits.max_body_bytes = 4096;
  RequestReader reader(limits);
  std::string out, pending;
  size_t from = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(bytes.size());
  for (size_t end : ends) {
    pending.append(bytes.substr(from, end - from));
    from = end;
    for (;;) {
      size_t used = 0;
      const RequestReader::State st = reader.Feed(pending, &used);
      pending.erase(0, used);
      if (st == RequestReader::State::kError) {
        return out + "error " + std::to_string(reader.error().status) + "\n";
      }
      if (st == RequestReader::State::kDone) {
        const HttpRequest& r = reader.request();
        out += r.method + " " + r.path + " [" + r.body + "]\n";
        reader.Next();
        continue;
      }
      if (st == RequestReader::State::kNeedMore) break;
    }
  }
  return out;
}

// The finding: a head ending in a bare "\n\n" followed by a CRLF request in the same segment
// was framed differently from the same bytes in two segments. Now every split frames alike.
TEST(RequestReaderTest, SameBytesAnySplitSameRequests) {
  const std::vector<std::string> cases = {
      "GET /a HTTP/1.1\r\nHost: x\n\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\n"
      "Host: x\r\n\r\n",
      "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n"
      "0\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
      "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n"
      "GET /b HTTP/1.1\r\n\r\n",
  };
  for (const std::string& bytes : cases) {
    const std::string whole = Frame(bytes, {});
    EXPECT_FALSE(whole.empty()) << bytes;
    for (size_t cut = 1; cut < bytes.size(); ++cut) {
      EXPECT_EQ(Frame(bytes, {cut}), whole) << "split at " << cut << " of " << bytes;
    }
    std::vector<size_t> every;  // one byte at a time
    for (size_t i = 1; i < bytes.size(); ++i) every.push_back(i);
    EXPECT_EQ(Frame(bytes, every), whole) << bytes;
  }
  // The bare-LF head is refused, not read as a request with the next one as its body.
  EXPECT_EQ(Frame(cases[0], {}), "error 400\n");
  EXPECT_EQ(Frame(cases[1], {}), "POST /a [hello]\nGET /b []\n");
  EXPECT_EQ(Frame(cases[2], {}), "POST /a [abcde]\nGET /b []\n");
  EXPECT_EQ(Frame(cases[3], {}), "error 400\n");
  EXPECT_EQ(Frame(cases[4], {}), "error 400\n");
}

TEST(RequestReaderTest, LimitsAndForms) {
  EXPECT_EQ(Frame("GET http://127.0.0.1:8080/v1/healthz?x=1 HTTP/1.1\r\n\r\n", {}),
            "GET /v1/healthz []\n");
  // The authority of an absolute-form target is the Host the allow-list checks.
  ReaderLimits limits;
  RequestReader reader(limits);
  size_t used = 0;
  ASSERT_EQ(reader.Feed("GET http://evil.example/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", &used),
            RequestReader::State::kDone);
  EXPECT_EQ(reader.request().Header("Host"), "evil.example");
  EXPECT_EQ(Frame("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\n\r\n", {}), "error 414\n");
  std::string many = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 100; ++i) many += "X-" + std::to_string(i) + ": y\r\n";
  EXPECT_EQ(Frame(many + "\r\n", {}), "error 431\n");
  EXPECT_EQ(Frame("GET / HTTP/1.1\r\nX: " + std::string(30000, 'y') + "\r\n\r\n", {}),
            "error 431\n");
  EXPECT_EQ(Frame("POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", {}), "error 413\n");
  std::string chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 5; ++i) chunked += "3e8\r\n" + std::string(1000, 'z') + "\r\n";
  EXPECT_EQ(Frame(chunked + "0\r\n\r\n", {}), "error 413\n");
  EXPECT_EQ(Frame("GET / HTTP/2.0\r\n\r\n", {}), "error 505\n");
  EXPECT_EQ(Frame("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", {}), "error 501\n");
  EXPECT_EQ(Frame("POST / HTTP/1.1\r\nExpect: nothing\r\n\r\n", {}), "error 417\n");
}

// ---- the cancellation check the server installs ----

TEST(CancelCheckTest, TrueOnceTheClientCloses) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  std::atomic<bool> all{false};
  const auto far = Clock::now() + std::chrono::hours(1);
  std::function<bool()> cancelled = MakeCancelCheck(fds[0], far, &all);
  EXPECT_FALSE(cancelled());
  (void)!::write(fds[1], "GET", 3);  // a pipelined request is not a goodbye
  EXPECT_FALSE(cancelled());
  char buf[3];
  EXPECT_EQ(::recv(fds[0], buf, 3, 0), 3);  // and it was only peeked at
  ::close(fds[1]);
  EXPECT_TRUE(cancelled());
  ::close(fds[0]);

  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  EXPECT_TRUE(MakeCancelCheck(fds[0], Clock::now() - std::chrono::seconds(1), &all)());
  std::function<bool()> drained = MakeCancelCheck(fds[0], far, &all);
  EXPECT_FALSE(drained());
  all = true;
  EXPECT_TRUE(drained());
  ::close(fds[0]);
  ::close(fds[1]);
}

// ---- over loopback ----

// TransportTest: tests/server/transport_fixture.h.

// The desync finding over a socket: one write or two, the same answers.
TEST_F(TransportTest, OneWriteOrTwoSameAnswers) {
  const std::string a = "GET /healthz HTTP/1.1\r\n" + Host() + "\n";
  const std::string b = "\nGET /v1/regions HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n";
  const std::vector<std::string> one = StatusLines(Raw({a + b}));
  EXPECT_EQ(one, StatusLines(Raw({a, b})));
  EXPECT_EQ(one, std::vector<std::string>{"HTTP/1.1 400"});
  const std::string c = "GET /healthz HTTP/1.1\r\n" + Host() + "\r\n";
  const std::string d = "GET /v1/regions HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n";
  for (size_t cut = 1; cut < c.size() + d.size(); cut += 7) {
    const std::string all = c + d;
    EXPECT_EQ(StatusLines(Raw({all.substr(0, cut), all.substr(cut)})),
              (std::vector<std::string>{"HTTP/1.1 200", "HTTP/1.1 200"}))
        << cut;
  }
}

// `curl -T - URL < telemetry.csv`: a chunked PUT without Content-Type.
TEST_F(TransportTest, ChunkedPutIdle) {
  std::ifstream in(std::string(GPUADVISOR_TESTS_DIR) +
                   "/fixtures/telemetry/smi-nvidia-l40s-idle.csv");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string csv = ss.str();
  ASSERT_FALSE(csv.empty());
  std::string req = "PUT /v1/idle?instance-type=g6e.xlarge&idle-window=1m HTTP/1.1\r\n" + Host() +
                    "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n"
                    "\r\n";
  std::vector<std::string> pieces = {req};
  for (size_t at = 0; at < csv.size(); at += 1000) {
    const std::string part = csv.substr(at, 1000);
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", part.size());
    pieces.push_back(size + part + "\r\n");
  }
  pieces.push_back("0\r\n\r\n");
  const std::string res = Raw(pieces);
  EXPECT_NE(res.find("HTTP/1.1 100 Continue"), std::string::npos) << res.substr(0, 300);
  EXPECT_NE(res.find("HTTP/1.1 200"), std::string::npos) << res.substr(0, 600);
  // The same answer as the body sent with Content-Length: the whole body arrived.
  httplib::Client c("127.0.0.1", port_);
  auto post = c.Post("/v1/idle?instance-type=g6e.xlarge&idle-window=1m", csv, "text/csv");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 200);
  ASSERT_NE(res.find("\r\n\r\n{"), std::string::npos);
  EXPECT_EQ(res.substr(res.find("\r\n\r\n{") + 4), post->body);
  EXPECT_NE(post->body.find("\"instances\""), std::string::npos) << post->body.substr(0, 300);
}

TEST_F(TransportTest, AbsoluteFormTarget) {
  const std::string ok = Raw({"GET http://127.0.0.1:" + std::to_string(port_) +
                              "/healthz HTTP/1.1\r\nConnection: close\r\n\r\n"});
  EXPECT_NE(ok.find("HTTP/1.1 200"), std::string::npos) << ok.substr(0, 300);
  // The authority is checked as Host is (DNS rebinding): whatever the Host header says.
  const std::string evil =
      Raw({"GET http://evil.example/healthz HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  EXPECT_NE(evil.find("HTTP/1.1 421"), std::string::npos) << evil.substr(0, 300);
}

// The finding: 1,024 sockets each sending a body a byte at a time locked everyone out (503).
// From the same address as the victim, they now leave /healthz answering.
class SlowBodyFloodTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->max_connections = 1024;
    o->read_timeout_s = 30;
    o->body_timeout_s = 60;
  }
};

TEST_F(SlowBodyFloodTest, HealthzAnswersThroughAFlood) {
  const auto start = Clock::now();
  const std::string head = "POST /v1/recommend HTTP/1.1\r\n" + Host() +
                           "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
  std::vector<int> flood;
  for (int i = 0; i < 1024; ++i) {
    const int fd = Connect();
    if (fd < 0) break;
    (void)!::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    flood.push_back(fd);
  }
  EXPECT_EQ(flood.size(), 1024u);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (int fd : flood) (void)!::send(fd, " ", 1, MSG_NOSIGNAL | MSG_DONTWAIT);  // the trickle
  const auto asked = Clock::now();
  httplib::Client c("127.0.0.1", port_);
  c.set_read_timeout(2, 0);
  c.set_connection_timeout(2, 0);
  auto res = c.Get("/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - asked).count(), 5.0);  // sanitizers
  for (int fd : flood) ::close(fd);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 20.0);
}

// A body dripped steadily, each byte well within the read timeout, is cut at the whole-body
// deadline with 408.
class BodyTimeoutTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->read_timeout_s = 5;
    o->body_timeout_s = 1;
  }
};

TEST_F(BodyTimeoutTest, DripIsCutAtTheBodyDeadline) {
  const int fd = Connect();
  ASSERT_GE(fd, 0);
  const std::string head = "POST /v1/recommend HTTP/1.1\r\n" + Host() +
                           "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
  (void)!::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
  const auto start = Clock::now();
  while (Clock::now() - start < std::chrono::seconds(6)) {
    if (::send(fd, " ", 1, MSG_NOSIGNAL) != 1) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 200) > 0) break;  // answered
  }
  const std::string res = ReadAll(fd, 3);
  ::close(fd);
  EXPECT_NE(res.find("HTTP/1.1 408"), std::string::npos) << res.substr(0, 300);
  EXPECT_NE(res.find("not complete within 1 s"), std::string::npos) << res;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5.5);
}

// Stop() with a response in flight (a client that does not read a 1 MB answer, pipelined
// several times) returns within the drain deadline, not the write timeout.
class DrainTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->write_timeout_s = 60;
    o->drain_timeout_s = 1;
  }
};

TEST_F(DrainTest, StopReturnsWithinTheDrainDeadline) {
  const int fd = Connect();
  ASSERT_GE(fd, 0);
  int small = 4096;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  std::string req;
  for (int i = 0; i < 30; ++i) req += "GET /v1/instances?region=all HTTP/1.1\r\n" + Host() + "\r\n";
  (void)!::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  // Stuck writing: an answer's bytes are held by its write (the kernel's buffers are full), and
  // still after half a second (a slow build computes each answer slowly: up to 2 minutes).
  for (int i = 0; i < 1200; ++i) {
    if (server_->stats().write_bytes > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      if (server_->stats().write_bytes > 0) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(server_->stats().write_bytes, 0u) << "no answer got stuck writing";
  const auto start = Clock::now();
  server_->Stop();
  thread_.join();
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_GT(took, 0.5);  // the in-flight answer was given its drain time
  EXPECT_LT(took, 3.5);
  ::close(fd);
}

// A connection whose answer is being written is never closed to make room: with every slot
// taken by one, the next connection gets 503 with Retry-After.
class BusyTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->max_connections = 1;
    o->write_timeout_s = 30;
  }
};

TEST_F(BusyTest, AnswerInFlightIsNotEvicted) {
  const int fd = Connect();
  ASSERT_GE(fd, 0);
  int small = 4096;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  std::string req;
  for (int i = 0; i < 30; ++i) req += "GET /v1/instances?region=all HTTP/1.1\r\n" + Host() + "\r\n";
  (void)!::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  // Stuck writing once answers arrive (a sanitized build takes seconds for the first) and the
  // small buffers have filled.
  for (int i = 0; i < 2400; ++i) {
    int queued = 0;
    if (::ioctl(fd, FIONREAD, &queued) == 0 && queued > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const std::string res = Raw({"GET /healthz HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  EXPECT_NE(res.find("HTTP/1.1 503"), std::string::npos) << res.substr(0, 200);
  EXPECT_NE(res.find("Retry-After: 1"), std::string::npos);
  char c;
  EXPECT_GT(::recv(fd, &c, 1, MSG_DONTWAIT), 0);  // the stuck answer is still there to read
  ::close(fd);
}

// Past --max-connections-per-client, the client's own least valuable connection makes room.
class PerClientTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->max_connections_per_client = 2;
    o->keep_alive_timeout_s = 30;
  }
};

TEST_F(PerClientTest, OwnIdleConnectionMakesRoom) {
  const int first = Connect();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const int second = Connect();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const std::string res = Raw({"GET /healthz HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  EXPECT_NE(res.find("HTTP/1.1 200"), std::string::npos) << res.substr(0, 200);
  // The oldest was told (it had sent nothing yet, so it may have been a slow client) and closed.
  EXPECT_NE(ReadAll(first, 2).find("HTTP/1.1 503"), std::string::npos);
  char c;
  EXPECT_LT(::recv(second, &c, 1, MSG_DONTWAIT), 0);  // the newer one is still open
  EXPECT_EQ(errno, EAGAIN);
  ::close(first);
  ::close(second);
}

TEST_F(TransportTest, StopWithNothingInFlightIsImmediate) {
  const auto start = Clock::now();
  server_->Stop();
  thread_.join();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 3.0);  // drain: 10 s
}

// --host localhost: both 127.0.0.1 and ::1 answer.
class LocalhostTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override { o->host = "localhost"; }
};

TEST_F(LocalhostTest, BothFamiliesAnswer) {
  const std::string v4 =
      Raw({"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"});
  EXPECT_NE(v4.find("HTTP/1.1 200"), std::string::npos) << v4.substr(0, 200);
  const int probe = ::socket(AF_INET6, SOCK_STREAM, 0);
  sockaddr_in6 any{};
  any.sin6_family = AF_INET6;
  any.sin6_addr = in6addr_loopback;
  const bool have_v6 =
      probe >= 0 && ::bind(probe, reinterpret_cast<sockaddr*>(&any), sizeof any) == 0;
  if (probe >= 0) ::close(probe);
  if (!have_v6) GTEST_SKIP() << "no ::1 on this machine";
  const std::string v6 =
      Raw({"GET /healthz HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n"}, "::1");
  EXPECT_NE(v6.find("HTTP/1.1 200"), std::string::npos) << v6.substr(0, 200);
}

class AccessLogTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    path_ = ::testing::TempDir() + "access-" + std::to_string(::getpid()) + ".log";
    std::remove(path_.c_str());
    o->access_log = path_;
  }
  std::string path_;
};

TEST_F(AccessLogTest, OneLinePerRequest) {
  (void)Raw({"GET /healthz?probe=1 HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  (void)Raw({"GET /nope%1b[31m HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  (void)Raw({"GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"});
  server_->Stop();
  thread_.join();
  std::ifstream in(path_);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::remove(path_.c_str());
  ASSERT_EQ(lines.size(), 3u);
  // time client method target status bytes ms
  std::istringstream first(lines[0]);
  std::string time, client, method, target, status, bytes, ms;
  first >> time >> client >> method >> target >> status >> bytes >> ms;
  EXPECT_EQ(time.size(), 20u) << lines[0];  // 2026-01-02T03:04:05Z
  EXPECT_EQ(client, "127.0.0.1");
  EXPECT_EQ(method, "GET");
  EXPECT_EQ(target, "/healthz?probe=1");
  EXPECT_EQ(status, "200");
  EXPECT_GT(std::stoi(bytes), 100);
  EXPECT_GE(std::stod(ms), 0.0);
  EXPECT_NE(lines[1].find(" 404 "), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].find('\x1b'), std::string::npos) << "escape reached the log";
  EXPECT_NE(lines[2].find(" 421 "), std::string::npos) << lines[2];
}

// --tls-cert/--tls-key: HTTPS with a self-signed certificate made by openssl at test time.
class TlsTest : public TransportTest {
 protected:
  void Configure(ServeOptions* o) override {
    const std::string dir = ::testing::TempDir() + "tls-" + std::to_string(::getpid());
    cert_ = dir + "-cert.pem";
    key_ = dir + "-key.pem";
    const std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
        " -keyout " +
        key_ + " -out " + cert_ + " >/dev/null 2>&1";
    have_openssl_ = std::system(cmd.c_str()) == 0;
    if (have_openssl_) {
      o->tls_cert = cert_;
      o->tls_key = key_;
    }
  }
  void TearDown() override {
    TransportTest::TearDown();
    std::remove(cert_.c_str());
    std::remove(key_.c_str());
  }
  std::string cert_, key_;
  bool have_openssl_ = false;
};

TEST_F(TlsTest, ServesHttps) {
  if (!have_openssl_) GTEST_SKIP() << "openssl (the command) is not installed: no certificate";
  httplib::SSLClient c("127.0.0.1", port_);
  c.enable_server_certificate_verification(false);
  c.set_read_timeout(5, 0);
  for (int i = 0; i < 3; ++i) {  // keep-alive over one TLS connection
    auto res = c.Get("/healthz");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
  }
  auto post =
      c.Post("/v1/estimate", R"({"task":"serve","model":"llama-3.1-8b","instance":"g6e.xlarge"})",
             "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 200) << post->body;
  // Plain HTTP to the TLS port is not answered as HTTP.
  const std::string plain =
      Raw({"GET /healthz HTTP/1.1\r\n" + Host() + "Connection: close\r\n\r\n"});
  EXPECT_EQ(plain.find("HTTP/1.1 200"), std::string::npos);
  httplib::SSLClient after("127.0.0.1", port_);
  after.enable_server_certificate_verification(false);
  auto again = after.Get("/healthz");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
}

// The cause of a 500 (an exception out of a handler: here the catalog loader throws during a
// reload) goes to standard error; the client gets the generic JSON error.
class ErrorLogTest : public TransportTest {
 protected:
  void Configure(ServeOptions*) override {
    Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
    ASSERT_TRUE(c.ok());
    holder_ = std::make_unique<CatalogHolder>(*c, []() -> Result<std::shared_ptr<const Catalog>> {
      throw std::runtime_error("catalog loader exploded");
    });
  }
};

TEST_F(ErrorLogTest, CauseOfA500IsLogged) {
  ::testing::internal::CaptureStderr();
  const std::string res = Raw({"POST /v1/catalog/reload HTTP/1.1\r\n" + Host() +
                               "Content-Length: 0\r\nConnection: close\r\n\r\n"});
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(res.find("HTTP/1.1 500"), std::string::npos) << res.substr(0, 300);
  EXPECT_NE(res.find(R"("code":"internal")"), std::string::npos) << res;
  EXPECT_EQ(res.find("exploded"), std::string::npos);  // the cause is not told to the client
  EXPECT_NE(err.find("500 POST /v1/catalog/reload: catalog loader exploded"), std::string::npos)
      << err;
}

TEST(ServeOptionsTest, CorsAndTransportOptions) {
  ServeOptions o;
  for (const char* good : {"", "*", "http://localhost:3000", "https://app.example.com",
                           "http://[::1]:8080", "http://10.0.0.1"}) {
    o.cors_origin = good;
    EXPECT_TRUE(CheckServeOptions(o).ok()) << good;
  }
  for (const char* bad :
       {"https://a.example\r\nSet-Cookie: x=1", "http://a.example/path", "a.example",
        "http://a.example:99999", "http://a b", "javascript:alert(1)", "http://", "null",
        "http://user@a.example", "*\n"}) {
    o.cors_origin = bad;
    Result<ServeOptions> r = CheckServeOptions(o);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("--cors"), std::string::npos);
    EXPECT_EQ(r.status().message().find('\r'), std::string::npos);
  }
  o.cors_origin = "";
  o.tls_cert = "cert.pem";
  EXPECT_NE(CheckServeOptions(o).status().message().find("--tls-key"), std::string::npos);
}

}  // namespace
}  // namespace gpuadvisor::server
