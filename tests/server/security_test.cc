// The security suite's cross-site part (issue 28): a page on another site, open in the user's
// browser, must not drive state-changing or upstream-calling requests; DNS rebinding is refused
// on every spelling of every bound address. Pure checks first, then the same over loopback.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "server/guards.h"
#include "server/http_server.h"
#include "server/responder.h"
#include "server/transport_fixture.h"

namespace gpuadvisor::server {
namespace {

HttpRequest Post(std::string path, std::vector<std::pair<std::string, std::string>> headers,
                 std::string body = "{}") {
  HttpRequest r;
  r.method = "POST";
  r.path = std::move(path);
  r.headers = std::move(headers);
  r.body = std::move(body);
  return r;
}

// The answer to a request, without a socket: the headers every answer carries and the guards
// before any route.
TEST(ResponderTest, GuardsAndHeadersWithoutSockets) {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  ASSERT_TRUE(c.ok());
  CatalogHolder holder(*c, [] { return EmbeddedCatalog(); });
  const Responder responder(ServeOptions{}, &holder, nullptr, 8080);
  HttpRequest get;
  get.method = "GET";
  get.path = "/healthz";
  get.headers = {{"Host", "127.0.0.1:8080"}};
  const Response ok = responder.Answer(get, nullptr);
  EXPECT_EQ(ok.result_int(), 200);
  EXPECT_EQ(ok[boost::beast::http::field::x_frame_options], "DENY");
  EXPECT_EQ(ok["X-Content-Type-Options"], "nosniff");
  get.headers = {{"Host", "rebind.example:8080"}};
  EXPECT_EQ(responder.Answer(get, nullptr).result_int(), 421);
  get.headers = {{"Host", "127.0.0.1:8080"}};
  get.path = "/../etc/passwd";
  EXPECT_EQ(responder.Answer(get, nullptr).result_int(), 400);
  HttpRequest post = Post("/v1/estimate", {{"Host", "127.0.0.1:8080"},
                                           {"Origin", "https://evil.example"},
                                           {"Content-Type", "application/json"}});
  EXPECT_EQ(responder.Answer(post, nullptr).result_int(), 403);
  // A handler stopped by its cancellation (past the request timeout) is a 503 that says so,
  // not an internal error.
  HttpRequest rec =
      Post("/v1/recommend", {{"Host", "127.0.0.1:8080"}, {"Content-Type", "application/json"}},
           R"({"task":"serve","model":"llama-3.1-8b","rps":1})");
  const std::function<bool()> stop = [] { return true; };
  const Response stopped = responder.Answer(rec, &stop);
  EXPECT_EQ(stopped.result_int(), 503);
  EXPECT_NE(stopped.body()->find("took longer than this server's 60 s limit"), std::string::npos)
      << *stopped.body();
  const std::function<bool()> go_on = [] { return false; };
  EXPECT_EQ(responder.Answer(rec, &go_on).result_int(), 200);
}

TEST(SecurityLoopbackTest, EverySpellingOfLoopbackIsLoopback) {
  for (const char* host : {"localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]",
                           "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]", "0000::0001", "::ffff:127.0.0.1",
                           "[::ffff:127.0.0.1]", "::FFFF:7f00:1"}) {
    EXPECT_TRUE(IsLoopbackAddress(host)) << host;
  }
  for (const char* host : {"0.0.0.0", "::", "10.0.0.1", "::ffff:10.0.0.1", "128.0.0.1",
                           "localhost.evil.example", "", "::2", "[::1", "127.0.0.1.evil"}) {
    EXPECT_FALSE(IsLoopbackAddress(host)) << host;
  }
}

TEST(SecurityHostTest, RebindingNamesAreRefusedLiteralsAreNot) {
  const std::vector<std::string> allowed = LoopbackHostNames();
  EXPECT_FALSE(HostAllowed("evil.example", allowed, 8080));
  EXPECT_FALSE(HostAllowed("evil.example:8080", allowed, 8080));
  EXPECT_FALSE(HostAllowed("localhost.evil.example", allowed, 8080));
  EXPECT_FALSE(HostAllowed("127.0.0.1:8081", allowed, 8080));  // another port
  EXPECT_FALSE(HostAllowed("[::1", allowed, 8080));
  for (const char* host : {"localhost:8080", "127.0.0.1", "[::1]:8080", "[0:0:0:0:0:0:0:1]",
                           "[::ffff:127.0.0.1]:8080", "10.1.2.3:8080", ""}) {
    EXPECT_TRUE(HostAllowed(host, allowed, 8080)) << host;
  }
}

TEST(SecurityCrossSiteTest, ForeignOriginIsRefusedOnEveryStateChangingMethod) {
  const OriginPolicy none;
  for (const char* path : {"/v1/idle", "/v1/catalog/reload", "/v1/estimate"}) {
    HttpRequest r = Post(path, {{"Host", "127.0.0.1:8080"},
                                {"Origin", "https://evil.example"},
                                {"Content-Type", "application/json"}});
    HeadError e = CheckCrossSite(r, none);
    EXPECT_EQ(e.status, 403) << path;
    EXPECT_EQ(e.field, "origin");
    r.method = "PUT";
    EXPECT_EQ(CheckCrossSite(r, none).status, 403) << path;
  }
  // "null" (sandboxed frames, file: pages) and a look-alike port are foreign too.
  for (const char* origin : {"null", "http://127.0.0.1:8081", "http://127.0.0.1",
                             "https://127.0.0.1:8080", "http://localhost:8080", "127.0.0.1:8080"}) {
    const HttpRequest r = Post(
        "/v1/estimate",
        {{"Host", "127.0.0.1:8080"}, {"Origin", origin}, {"Content-Type", "application/json"}});
    EXPECT_EQ(CheckCrossSite(r, none).status, 403) << origin;
  }
}

TEST(SecurityCrossSiteTest, OwnOriginCorsOriginAndNonBrowserClientsPass) {
  const OriginPolicy none;
  HttpRequest r = Post("/v1/estimate", {{"Host", "127.0.0.1:8080"},
                                        {"Origin", "http://127.0.0.1:8080"},
                                        {"Content-Type", "application/json; charset=utf-8"}});
  EXPECT_FALSE(CheckCrossSite(r, none));
  EXPECT_EQ(CheckCrossSite(r, OriginPolicy{"", true}).status, 403);  // served over TLS
  r = Post("/v1/estimate", {{"Host", "127.0.0.1:8080"},
                            {"Origin", "https://127.0.0.1:8080"},
                            {"Content-Type", "application/json"}});
  EXPECT_FALSE(CheckCrossSite(r, OriginPolicy{"", true}));
  r = Post("/v1/estimate", {{"Host", "LocalHost"},
                            {"Origin", "http://localhost:80"},
                            {"Content-Type", "application/json"}});
  EXPECT_FALSE(CheckCrossSite(r, none));
  r = Post("/v1/estimate", {{"Host", "127.0.0.1:8080"},
                            {"Origin", "https://dash.example"},
                            {"Content-Type", "application/json"}});
  EXPECT_FALSE(CheckCrossSite(r, OriginPolicy{"https://dash.example"}));
  EXPECT_EQ(CheckCrossSite(r, OriginPolicy{"https://other.example"}).status, 403);
  // curl: no Origin, no Sec-Fetch-*.
  r = Post("/v1/recommend", {{"Content-Type", "application/json"}});
  EXPECT_FALSE(CheckCrossSite(r, none));
  r = Post("/v1/catalog/reload", {}, "");  // curl -X POST: no body, no type
  EXPECT_FALSE(CheckCrossSite(r, none));
  r = Post("/v1/idle", {{"Transfer-Encoding", "chunked"}}, "gpu,util\n");  // curl -T -: a PUT
  r.method = "PUT";
  EXPECT_FALSE(CheckCrossSite(r, none));
  r.method = "GET";  // reads pass: a foreign page cannot read the answer without CORS
  r.headers = {{"Origin", "https://evil.example"}};
  EXPECT_FALSE(CheckCrossSite(r, none));
}

TEST(SecurityCrossSiteTest, FetchMetadataWithoutOriginIsChecked) {
  for (const char* site : {"cross-site", "same-site"}) {
    const HttpRequest r =
        Post("/v1/estimate", {{"Sec-Fetch-Site", site}, {"Content-Type", "application/json"}});
    EXPECT_EQ(CheckCrossSite(r, OriginPolicy{}).status, 403) << site;
  }
  for (const char* site : {"same-origin", "none"}) {
    const HttpRequest r =
        Post("/v1/estimate", {{"Sec-Fetch-Site", site}, {"Content-Type", "application/json"}});
    EXPECT_FALSE(CheckCrossSite(r, OriginPolicy{})) << site;
  }
}

// The types a page may POST cross-site without a preflight are never bodies of this API.
TEST(SecurityCrossSiteTest, SimpleContentTypesAre415) {
  for (const char* type :
       {"application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
        "text/plain;charset=UTF-8", "TEXT/PLAIN", "", "application/jsonx", "text/json"}) {
    const HttpRequest r = Post("/v1/recommend", {{"Content-Type", type}});
    const HeadError e = CheckCrossSite(r, OriginPolicy{});
    EXPECT_EQ(e.status, 415) << type;
    EXPECT_EQ(e.field, "content-type");
    EXPECT_NE(e.message.find("application/json"), std::string::npos) << e.message;
  }
  // A POST with a body and no type at all: a no-cors fetch of a Blob sends exactly that.
  EXPECT_EQ(CheckCrossSite(Post("/v1/recommend", {}), OriginPolicy{}).status, 415);
  // Telemetry types only where telemetry goes.
  for (const char* type : {"text/csv", "application/xml", "text/xml", "application/octet-stream"}) {
    EXPECT_FALSE(CheckCrossSite(Post("/v1/idle", {{"Content-Type", type}}), OriginPolicy{}))
        << type;
    EXPECT_EQ(
        CheckCrossSite(Post("/v1/recommend", {{"Content-Type", type}}), OriginPolicy{}).status, 415)
        << type;
  }
  EXPECT_FALSE(CheckCrossSite(Post("/v1/launch", {{"Content-Type", "application/problem+json"}}),
                              OriginPolicy{}));
}

// The same over loopback, on the transport tests' fixture (TransportTest).
class SecurityHttpTest : public TransportTest {
 protected:
  // The status code of the answer to `bytes` on a fresh connection to `address`, or 0.
  int Status(const std::string& bytes, const char* address = "127.0.0.1") {
    const std::string out = Raw({bytes}, address);
    return out.size() > 12 && out.compare(0, 9, "HTTP/1.1 ") == 0 ? std::stoi(out.substr(9, 3)) : 0;
  }
  static std::string Get(const std::string& host) {
    return "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  }
  std::string PostBytes(const std::string& path, const std::string& extra,
                        const std::string& body = "{}") const {
    return "POST " + path + " HTTP/1.1\r\n" + Host() + "Connection: close\r\n" + extra +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
};

// Bound to an IPv6 spelling of loopback (skipped where the machine has no IPv6 loopback).
class SecurityV6Test : public SecurityHttpTest {
 protected:
  void SetUp() override {
    const int fd = ::socket(AF_INET6, SOCK_STREAM, 0);
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    ::inet_pton(AF_INET6, "::1", &a.sin6_addr);
    const bool v6 = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    if (fd >= 0) ::close(fd);
    if (!v6) GTEST_SKIP() << "no IPv6 loopback on this machine";
    SecurityHttpTest::SetUp();
  }
  void Configure(ServeOptions* o) override { o->host = "0:0:0:0:0:0:0:1"; }
};

// Bound to every address, with a name of its own.
class SecurityWildcardTest : public SecurityHttpTest {
 protected:
  void Configure(ServeOptions* o) override {
    o->host = "0.0.0.0";
    o->allow_hosts = {"gpu.internal"};
  }
};

// The attack of the finding: a foreign page's no-cors fetch reloading the catalog and asking
// for an idle report (which makes the server call Prometheus).
TEST_F(SecurityHttpTest, CrossOriginPostIsRefused) {
  const std::string foreign = "Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n";
  EXPECT_EQ(Status(PostBytes("/v1/catalog/reload", foreign, "")), 403);
  EXPECT_EQ(Status(PostBytes("/v1/idle?prometheus=http://127.0.0.1:9090",
                             foreign + "Content-Type: text/plain\r\n", "")),
            403);
  EXPECT_EQ(Status(PostBytes("/v1/estimate", "Content-Type: text/plain;charset=UTF-8\r\n",
                             R"({"task":"serve","model":"llama-3.1-8b","instance":"g6e.xlarge"})")),
            415);
  // The page's own requests and curl's still work.
  const std::string own = "Origin: http://127.0.0.1:" + std::to_string(port_) +
                          "\r\nContent-Type: application/json\r\n";
  EXPECT_EQ(Status(PostBytes("/v1/catalog/reload", own, "")), 200);
  EXPECT_EQ(Status(PostBytes("/v1/catalog/reload", "", "")), 200);
  EXPECT_EQ(Status(PostBytes("/v1/estimate", "Content-Type: application/json\r\n",
                             R"({"task":"serve","model":"llama-3.1-8b","instance":"g6e.xlarge"})")),
            200);
}

// The finding: bound to another spelling of loopback, the rebinding guard was off.
TEST_F(SecurityV6Test, RebindingGuardOnForEveryLoopbackSpelling) {
  EXPECT_EQ(Status(Get("evil.example:" + std::to_string(port_)), "::1"), 421);
  EXPECT_EQ(Status(Get("[::1]:" + std::to_string(port_)), "::1"), 200);
  EXPECT_EQ(Status(Get("localhost"), "::1"), 200);
}

TEST_F(SecurityWildcardTest, RebindingGuardOnForWildcardBinds) {
  EXPECT_EQ(Status(Get("evil.example")), 421);
  EXPECT_EQ(Status(Get("gpu.internal:" + std::to_string(port_))), 200);
  EXPECT_EQ(Status(Get("127.0.0.1:" + std::to_string(port_))), 200);
}

}  // namespace
}  // namespace gpuadvisor::server
