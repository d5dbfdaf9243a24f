// Outbound URLs: strict parsing and the allow-list rule (util/url.h). The attack strings
// are those of the security report against `POST /v1/idle?prometheus=URL`.
#include "util/url.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

TEST(UrlTest, ParsesAndNormalises) {
  const struct {
    const char* in;
    const char* scheme;
    const char* host;
    int port;
    const char* path;
    const char* text;
  } kCases[] = {
      {"http://prometheus:9090", "http", "prometheus", 9090, "", "http://prometheus:9090"},
      {"HTTP://Prom.Example.COM", "http", "prom.example.com", 80, "", "http://prom.example.com"},
      {"https://h/", "https", "h", 443, "", "https://h"},
      {"https://h:443/ws/", "https", "h", 443, "/ws", "https://h/ws"},
      {"http://10.0.0.1:80//a//b/", "http", "10.0.0.1", 80, "/a/b", "http://10.0.0.1/a/b"},
      {"http://[::1]:9090/p", "http", "::1", 9090, "/p", "http://[::1]:9090/p"},
      {"http://[FE80::A:1]", "http", "fe80::a:1", 80, "", "http://[fe80::a:1]"},
      {"http://h/%41b%7e", "http", "h", 80, "/Ab~", "http://h/Ab~"},
      {"http://my_prom-1.svc:1/workspaces/ws-ID", "http", "my_prom-1.svc", 1, "/workspaces/ws-ID",
       "http://my_prom-1.svc:1/workspaces/ws-ID"},
  };
  for (const auto& c : kCases) {
    Result<HttpUrl> u = ParseHttpUrl(c.in);
    ASSERT_TRUE(u.ok()) << c.in << ": " << u.status().message();
    EXPECT_EQ(u->scheme, c.scheme) << c.in;
    EXPECT_EQ(u->host, c.host) << c.in;
    EXPECT_EQ(u->port, c.port) << c.in;
    EXPECT_EQ(u->path, c.path) << c.in;
    EXPECT_EQ(u->ToString(), c.text) << c.in;
  }
}

TEST(UrlTest, RefusesEverythingElseNamingTheField) {
  const char* kBad[] = {
      "",
      "localhost:9090",
      "ftp://h",
      "http://",
      "http:///x",
      "http://h:",
      "http://h:0",
      "http://h:65536",
      "http://h:+80",
      "http://h:80x",
      "http://user@h",
      "http://allowed:9090@evil:9090",
      "http://h/api/v1/admin/tsdb/delete_series?x=",
      "http://h/-/quit#",
      "http://h/a/../b",
      "http://h/..",
      "http://h/./a",
      "http://h/a/%2e%2e/b",
      "http://h/a/%2E./b",
      "http://h/a%2fb",
      "http://h/a%5cb",
      "http://h/a%25",
      "http://h/a%",
      "http://h/a%4",
      "http://h/a%zz",
      "http://h\\@evil",
      "http://h/a\\..\\b",
      "http://h/a b",
      "http://h/a\tb",
      "http://h/caf\xc3\xa9",
      "http://h/a;b",
      "http://h/..;/admin",
      "http://[::1",
      "http://[::1]x",
      "http://[::1%eth0]",
      "http://[g::1]",
      "http://127.1",
      "http://0x7f.0.0.1",
      "http://2130706433",
      "http://256.0.0.1",
      "http://h..x",
      "http://.h",
      "http://h/\x7f",
  };
  for (const char* bad : kBad) {
    Result<HttpUrl> u = ParseHttpUrl(bad, "--prometheus");
    ASSERT_FALSE(u.ok()) << bad << " -> " << u->ToString();
    EXPECT_EQ(u.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(u.status().field(), "prometheus") << bad;
    EXPECT_EQ(u.status().message().rfind("--prometheus: expected", 0), 0u) << u.status().message();
  }
  // The NUL inside a string_view is refused too (not cut off at it).
  EXPECT_FALSE(ParseHttpUrl(std::string_view("http://h/a\0b", 12)).ok());
  EXPECT_FALSE(ParseHttpUrl(std::string_view("http://h\0.evil", 14)).ok());
}

// Query strings and request paths (the server's target decoding): "+" is a space only in a
// query; a malformed escape stays as it was sent.
TEST(UrlTest, PercentDecodeKeepsMalformedEscapes) {
  EXPECT_EQ(PercentDecode("%41+b%2f", true), "A b/");
  EXPECT_EQ(PercentDecode("%41+b", false), "A+b");
  EXPECT_EQ(PercentDecode("100%", true), "100%");
  EXPECT_EQ(PercentDecode("%zz%4", true), "%zz%4");
  EXPECT_EQ(PercentDecode("%e4%B8%AD", false), "\xe4\xb8\xad");
}

TEST(UrlTest, AllowListComparesParsedPartsAtSegmentBoundaries) {
  Result<std::vector<HttpUrl>> allowed =
      ParseUrlList(" http://Prom:9090/tenant-a/ , ,https://aps.example/ws-1", "allow");
  ASSERT_TRUE(allowed.ok()) << allowed.status().message();
  ASSERT_EQ(allowed->size(), 2u);
  auto ok = [&](const char* text) {
    Result<HttpUrl> u = ParseHttpUrl(text);
    return u.ok() && UrlAllowed(*u, *allowed);
  };
  EXPECT_TRUE(ok("http://prom:9090/tenant-a"));
  EXPECT_TRUE(ok("http://PROM:9090/tenant-a/"));
  EXPECT_TRUE(ok("http://prom:9090//tenant-a//x"));
  EXPECT_TRUE(ok("https://aps.example:443/ws-1"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-ab"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-b"));
  EXPECT_FALSE(ok("http://prom:9090"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-a/../tenant-b"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-a/%2e%2e/tenant-b"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-a/..%2ftenant-b"));
  EXPECT_FALSE(ok("http://prom:9091/tenant-a"));
  EXPECT_FALSE(ok("https://prom:9090/tenant-a"));
  EXPECT_FALSE(ok("http://prom.evil:9090/tenant-a"));
  EXPECT_FALSE(ok("http://prom:9090/tenant-a@evil"));
  EXPECT_FALSE(ok("http://aps.example/ws-1"));  // http, not https
  // An allow-list entry is parsed as strictly as a request.
  Result<std::vector<HttpUrl>> bad = ParseUrlList("http://ok, http://h/?", "allow");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().field(), "allow");
  // A whole server: every path on it.
  Result<std::vector<HttpUrl>> root = ParseUrlList("http://prom:9090/", "allow");
  ASSERT_TRUE(root.ok());
  EXPECT_TRUE(UrlAllowed(*ParseHttpUrl("http://prom:9090/x/y"), *root));
}

}  // namespace
}  // namespace gpuadvisor
