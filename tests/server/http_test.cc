// The HTTP layer over loopback: limits, timeouts, compression, and that the server keeps
// serving after each abuse.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/http_server.h"

namespace gpuadvisor::server {
namespace {

using json = nlohmann::json;

class HttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
    ASSERT_TRUE(c.ok());
    holder_ = std::make_unique<CatalogHolder>(*c, [] { return EmbeddedCatalog(); });
    ServeOptions o;
    o.port = 0;
    o.threads = 4;
    o.read_timeout_s = 1;
    o.keep_alive_timeout_s = 1;
    o.max_body_bytes = 64 * 1024;
    server_ = std::make_unique<HttpServer>(o, holder_.get());
    Result<int> port = server_->Bind();
    ASSERT_TRUE(port.ok()) << port.status().message();
    port_ = *port;
    thread_ = std::thread([this] { (void)server_->Run(); });
    for (int i = 0; i < 200 && !server_->running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  void TearDown() override {
    if (server_) server_->Stop();
    if (thread_.joinable()) thread_.join();
  }

  httplib::Client Client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(10, 0);
    return c;
  }

  // Sends raw bytes on a fresh connection and returns everything read until the server closes
  // (or `wait_s` passes).
  std::string Raw(const std::string& bytes, int wait_s = 5) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      return "";
    }
    timeval tv{wait_s, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (!bytes.empty()) (void)!::send(fd, bytes.data(), bytes.size(), 0);
    std::string out;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
  }

  void ExpectStillServing() {
    httplib::Client c = Client();
    auto res = c.Get("/healthz");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
  }

  std::unique_ptr<CatalogHolder> holder_;
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  int port_ = 0;
};

TEST_F(HttpTest, ServesApiAndPage) {
  httplib::Client c = Client();
  auto res = c.Get("/v1/instances?gpu=H100&region=us-east-1");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
  EXPECT_TRUE(json::parse(res->body).is_array());
  EXPECT_FALSE(res->has_header("Access-Control-Allow-Origin"));  // CORS off by default
  auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<html"), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'self'"),
            std::string::npos);
  auto post =
      c.Post("/v1/estimate", R"({"task":"serve","model":"llama-3.1-8b","instance":"g6e.xlarge"})",
             "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 200) << post->body;
}

TEST_F(HttpTest, GzipAndEtag) {
  // Raw request so that no client decompresses behind our back.
  std::string res =
      Raw("GET /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, deflate, br\r\n"
          "Connection: close\r\n\r\n");
  EXPECT_NE(res.find("Content-Encoding: gzip"), std::string::npos) << res.substr(0, 400);
  EXPECT_EQ(res.find("Content-Encoding: br"), std::string::npos);  // not compressed twice
  const size_t etag_at = res.find("ETag: ");
  ASSERT_NE(etag_at, std::string::npos);
  const std::string etag = res.substr(etag_at + 6, res.find("\r\n", etag_at) - etag_at - 6);
  httplib::Client c = Client();
  auto again = c.Get("/app.js", {{"If-None-Match", etag}});
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 304);
  std::string big =
      Raw("GET /v1/instances?region=all HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\n"
          "Connection: close\r\n\r\n");
  EXPECT_NE(big.find("Content-Encoding: gzip"), std::string::npos) << big.substr(0, 400);
}

TEST_F(HttpTest, BodyTooLargeIs413) {
  httplib::Client c = Client();
  const std::string body(10 * 1024 * 1024, 'x');  // 10 MB
  auto res = c.Post("/v1/recommend", body, "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 413);
  json j = json::parse(res->body);
  EXPECT_EQ(j["error"]["code"], "payload_too_large");
  EXPECT_EQ(j["error"]["field"], "body");
  ExpectStillServing();
}

TEST_F(HttpTest, MalformedJsonAndWrongTypes) {
  httplib::Client c = Client();
  auto bad = c.Post("/v1/recommend", "{\"task\": ", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(json::parse(bad->body)["error"]["field"], "body");
  auto wrong = c.Post("/v1/recommend", R"({"task":"serve","model":"llama-3.1-8b","rps":{}})",
                      "application/json");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 400);
  EXPECT_EQ(json::parse(wrong->body)["error"]["field"], "rps");
  ExpectStillServing();
}

TEST_F(HttpTest, PathTraversalIsRefused) {
  for (const char* target : {"/../../etc/passwd", "/v1/../../etc/passwd",
                             "/%2e%2e/%2e%2e/etc/passwd", "/vendor/uplot/../../../etc/passwd"}) {
    std::string res =
        Raw(std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_NE(res.find("HTTP/1.1 400"), std::string::npos) << target << ": " << res.substr(0, 200);
    EXPECT_EQ(res.find("root:"), std::string::npos);
  }
  httplib::Client c = Client();
  auto res = c.Get("/etc/passwd");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
  ExpectStillServing();
}

// Issue 16: a query string that is not UTF-8 (percent-encoded or raw) is a 400 with a JSON body,
// not a 500 from nlohmann's type_error 316 while serialising the error.
TEST_F(HttpTest, NonUtf8QueryIs400NotA500) {
  for (const char* target : {"/v1/instances?gpu%FF=H100", "/v1/instances?region=us-east-1%FE%FF",
                             "/v1/gpus?\xff\xfe=1", "/v1/instances/p5.48xlarge?region=%C3%28"}) {
    const std::string res = Raw(std::string("GET ") + target +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_NE(res.find("HTTP/1.1 400"), std::string::npos) << target << ": " << res.substr(0, 300);
    const size_t body = res.find("\r\n\r\n");
    ASSERT_NE(body, std::string::npos) << target;
    EXPECT_TRUE(nlohmann::json::accept(res.substr(body + 4))) << target << ": " << res;
  }
  ExpectStillServing();
}

TEST_F(HttpTest, TooManyHeadersIs431) {
  std::string req = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
  for (int i = 0; i < 100; ++i) req += "X-Pad-" + std::to_string(i) + ": y\r\n";
  std::string res = Raw(req + "\r\n");
  EXPECT_NE(res.find("HTTP/1.1 431"), std::string::npos) << res.substr(0, 200);
  ExpectStillServing();
}

TEST_F(HttpTest, SlowlorisIsCutOffWhileOthersAreServed) {
  // Half a request line, then silence: the read timeout (1 s here) closes the connection.
  const auto start = std::chrono::steady_clock::now();
  std::thread idle([&] {
    std::string res = Raw("GET /healthz HTTP/1.1\r\nHost:", 10);
    EXPECT_EQ(res.find("200 OK"), std::string::npos);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ExpectStillServing();  // served while the idle connection holds a worker
  idle.join();
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(waited, 8.0);  // closed by the server, not by the client's 10 s give-up
  ExpectStillServing();
}

TEST_F(HttpTest, ReloadWhileServing) {
  std::atomic<int> failures{0};
  std::thread load([&] {
    httplib::Client c = Client();
    for (int i = 0; i < 50; ++i) {
      auto res = c.Get("/v1/instances?gpu=L4");
      if (!res || res->status != 200) ++failures;
    }
  });
  httplib::Client c = Client();
  for (int i = 0; i < 5; ++i) {
    auto res = c.Post("/v1/catalog/reload", "", "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
  }
  load.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(holder_->generation(), 6u);
}

TEST(ServeOptionsTest, Checks) {
  ServeOptions o;
  EXPECT_TRUE(CheckServeOptions(o).ok());
  o.threads = 0;
  EXPECT_NE(CheckServeOptions(o).status().message().find("--threads"), std::string::npos);
  o.threads = 4;
  o.port = 70000;
  EXPECT_NE(CheckServeOptions(o).status().message().find("--port"), std::string::npos);
  o.port = 1;
  o.read_timeout_s = 0;
  EXPECT_FALSE(CheckServeOptions(o).ok());
  o.read_timeout_s = 5;
  o.max_body_bytes = 10;
  EXPECT_FALSE(CheckServeOptions(o).ok());
  o.max_body_bytes = 4096;
  o.host = "";
  EXPECT_FALSE(CheckServeOptions(o).ok());
}

TEST(HttpBindTest, BusyPortIsAnError) {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  ASSERT_TRUE(c.ok());
  CatalogHolder holder(*c, nullptr);
  ServeOptions o;
  o.port = 0;
  HttpServer first(o, &holder);
  Result<int> port = first.Bind();
  ASSERT_TRUE(port.ok());
  o.port = *port;
  o.host = "127.0.0.1";
  HttpServer second(o, &holder);
  // SO_REUSEADDR does not let two sockets listen on one port.
  EXPECT_FALSE(second.Bind().ok());
  o.host = "256.1.1.1";
  HttpServer third(o, &holder);
  EXPECT_FALSE(third.Bind().ok());
}

}  // namespace
}  // namespace gpuadvisor::server
