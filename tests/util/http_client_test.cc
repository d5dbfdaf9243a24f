// Issue 24, item 4: the one outbound HTTP client (util/http_client.h) against a loopback fake
// server: every way a request ends names the host and the cause, the ceilings hold (also after
// decompression), redirects and proxies are refused, and bodies are framed by Content-Length or
// chunks (the old IMDS client read to EOF). Deadlines are generous except where the deadline
// itself is tested, and no test asserts a duration.
#include "util/http_client.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>

#include "testutil/fake_http.h"

namespace gpuadvisor {
namespace {

using testing::FakeHttpServer;

FakeHttpServer::Handler Always(FakeHttpServer::Reply reply) {
  return [reply](const FakeHttpServer::Request&) { return reply; };
}

FakeHttpServer::Reply Body(std::string body) {
  return FakeHttpServer::Reply::Body(std::move(body));
}

HttpRequest Get(const std::string& url) {
  HttpRequest req;
  req.url = url;
  req.timeout_s = 60;
  return req;
}

// `text` gzip-compressed.
std::string Gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(text.size() / 500 + 4096, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(HttpClient, RefusedConnectionNamesHostAndCause) {
  HttpClient http;
  HttpRequest req = Get("http://127.0.0.1:1/x");  // port 1: nothing listens
  req.what = "prometheus 127.0.0.1:1";
  HttpFailure failure = HttpFailure::kNone;
  const Result<HttpResponse> r = http.Send(req, &failure);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
  EXPECT_EQ(r.status().message(), "prometheus 127.0.0.1:1: connection refused");
  EXPECT_EQ(failure, HttpFailure::kConnect);
}

TEST(HttpClient, UnresolvableHostIsSaidSo) {
  HttpClient http;
  const Result<HttpResponse> r = http.Send(Get("http://no-such-host.invalid/x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "http://no-such-host.invalid/x: could not resolve host");
}

TEST(HttpClient, SilentServerEndsAtTheDeadline) {
  FakeHttpServer::Reply stall;
  stall.stall = true;
  FakeHttpServer fake(Always(stall));
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/x");
  req.timeout_s = 0.3;
  HttpFailure failure = HttpFailure::kNone;
  const Result<HttpResponse> r = http.Send(req, &failure);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), fake.url() + "/x: no complete answer within 0.3 s");
  EXPECT_EQ(failure, HttpFailure::kTimeout);
}

TEST(HttpClient, DrippedBodyEndsAtTheDeadline) {
  FakeHttpServer::Reply drip = Body(std::string(1000, 'x'));
  drip.drip_s = 0.01;  // 10 s for the whole body
  FakeHttpServer fake(Always(drip));
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/x");
  req.timeout_s = 0.3;
  const Result<HttpResponse> r = http.Send(req);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no complete answer within 0.3 s"), std::string::npos)
      << r.status().message();
}

TEST(HttpClient, CancelledRequestStops) {
  FakeHttpServer::Reply stall;
  stall.stall = true;
  FakeHttpServer fake(Always(stall));
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/x");
  req.cancelled = [] { return true; };
  HttpFailure failure = HttpFailure::kNone;
  const Result<HttpResponse> r = http.Send(req, &failure);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure, HttpFailure::kCancelled) << r.status().message();
}

TEST(HttpClient, RedirectIsRefusedNotFollowed) {
  FakeHttpServer::Reply redirect;
  redirect.status = 302;
  redirect.headers = {"Location: /elsewhere"};
  FakeHttpServer fake(Always(redirect));
  HttpClient http;
  HttpFailure failure = HttpFailure::kNone;
  const Result<HttpResponse> r = http.Send(Get(fake.url() + "/x"), &failure);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), fake.url() + "/x: redirect (HTTP 302) refused");
  EXPECT_EQ(failure, HttpFailure::kRedirect);
  ASSERT_EQ(fake.request_count(), 1u);
  EXPECT_EQ(fake.requests()[0].target, "/x");
}

TEST(HttpClient, BodyOverTheCeilingIsRefused) {
  // Sent (Content-Length true), announced (false Content-Length), and chunked (no length).
  FakeHttpServer::Reply sent = Body(std::string(65536, 'x'));
  sent.repeat = 64;
  FakeHttpServer::Reply announced = Body("{}");
  announced.content_length = uint64_t{10} << 30;
  FakeHttpServer::Reply chunked = Body(std::string(200000, 'x'));
  chunked.chunked = true;
  for (const FakeHttpServer::Reply& reply : {sent, announced, chunked}) {
    FakeHttpServer fake(Always(reply));
    HttpClient http;
    HttpRequest req = Get(fake.url() + "/x");
    req.max_response_bytes = 100000;
    HttpFailure failure = HttpFailure::kNone;
    const Result<HttpResponse> r = http.Send(req, &failure);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(), fake.url() + "/x: answer larger than 100000 bytes");
    EXPECT_EQ(failure, HttpFailure::kTooLarge);
  }
}

TEST(HttpClient, GzipIsDecodedAndCappedAfterDecoding) {
  FakeHttpServer::Reply small = Body(Gzip("hello, world"));
  small.headers = {"Content-Encoding: gzip"};
  FakeHttpServer::Reply bomb = Body(Gzip(std::string(size_t{64} << 20, ' ')));  // ~64 KB
  bomb.headers = {"Content-Encoding: gzip"};
  FakeHttpServer fake(
      [&](const FakeHttpServer::Request& r) { return r.target == "/small" ? small : bomb; });
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/small");
  req.decompress = true;
  req.max_response_bytes = 1 << 20;
  Result<HttpResponse> r = http.Send(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->body, "hello, world");
  req.url = fake.url() + "/bomb";
  r = http.Send(req);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("answer larger than 1048576 bytes"), std::string::npos)
      << r.status().message();
}

// The old IMDS client read to EOF: a kept-alive answer with a Content-Length, or a chunked one,
// hung until its timeout or kept the chunk sizes in the body.
TEST(HttpClient, ContentLengthAndChunkedBodiesAreReadExactly) {
  const std::string text = "i-0123456789abcdef0 and some more text to split in chunks";
  FakeHttpServer::Reply chunked = Body(text);
  chunked.chunked = true;
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    return r.target == "/chunked" ? chunked : Body(text);
  });
  HttpClient http;
  for (const char* path : {"/length", "/chunked", "/length", "/chunked"}) {
    const Result<HttpResponse> r = http.Send(Get(fake.url() + path));
    ASSERT_TRUE(r.ok()) << path << ": " << r.status().message();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, text) << path;
  }
  EXPECT_EQ(fake.request_count(), 4u);
}

TEST(HttpClient, SendsMethodHeadersAndBodyAndNoExpect) {
  FakeHttpServer fake(Always(Body("ok")));
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/p");
  req.method = "PUT";
  req.headers = {"X-Token: abc", "Host: evil.example"};
  req.body = std::string(size_t{2} << 20, 'b');  // over 1 MiB: no "Expect: 100-continue"
  ASSERT_TRUE(http.Send(req).ok());
  req.method = "DELETE";
  EXPECT_EQ(http.Send(req).status().code(), StatusCode::kInvalidArgument);
  ASSERT_EQ(fake.request_count(), 1u);
  const FakeHttpServer::Request got = fake.requests()[0];
  EXPECT_EQ(got.method, "PUT");
  EXPECT_EQ(got.body, req.body);
  bool token = false;
  for (const std::string& h : got.headers) {
    token = token || h == "X-Token: abc";
    EXPECT_EQ(h.find("evil"), std::string::npos) << h;
    EXPECT_NE(h.rfind("Expect", 0), 0u) << h;
    EXPECT_NE(h.rfind("Content-Type", 0), 0u) << h;
  }
  EXPECT_TRUE(token);
}

TEST(HttpClient, ProxyVariablesAreIgnored) {
  FakeHttpServer fake(Always(Body("direct")));
  ::setenv("http_proxy", "http://127.0.0.1:1", 1);
  ::setenv("HTTP_PROXY", "http://127.0.0.1:1", 1);
  HttpClient http;
  const Result<HttpResponse> r = http.Send(Get(fake.url() + "/x"));
  ::unsetenv("http_proxy");
  ::unsetenv("HTTP_PROXY");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->body, "direct");
}

// `catalog update`: a 2xx body goes to on_body piece by piece and is not kept; the answer's
// headers are there for the validators; a 304 is an answer, not a refused redirect; an error
// page is kept (bounded) instead of being streamed; on_body returning false stops the transfer.
TEST(HttpClient, StreamsBodiesAndKeepsHeaders) {
  const std::string text(size_t{3} << 20, 'x');
  FakeHttpServer fake([&](const FakeHttpServer::Request& r) {
    FakeHttpServer::Reply reply = Body(text);
    reply.headers = {"ETag: \"abc\"", "Last-Modified: Tue, 01 Dec 2026 00:00:00 GMT"};
    if (r.target == "/same") {
      reply = FakeHttpServer::Reply{};
      reply.status = 304;
      reply.headers = {"ETag: \"abc\""};
    }
    if (r.target == "/error") {
      reply = Body("<Error>SlowDown</Error>");
      reply.status = 503;
    }
    return reply;
  });
  HttpClient http;
  HttpRequest req = Get(fake.url() + "/file");
  req.max_response_bytes = size_t{8} << 20;
  size_t streamed = 0, pieces = 0;
  int64_t announced = 0;
  req.on_body = [&](std::string_view piece, int64_t total) {
    streamed += piece.size();
    ++pieces;
    announced = total;
    return true;
  };
  Result<HttpResponse> r = http.Send(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(streamed, text.size());
  EXPECT_GT(pieces, 1u);
  EXPECT_EQ(announced, static_cast<int64_t>(text.size()));
  EXPECT_TRUE(r->body.empty());
  EXPECT_EQ(r->body_bytes, static_cast<int64_t>(text.size()));
  EXPECT_EQ(r->Header("etag"), "\"abc\"");
  EXPECT_EQ(r->Header("last-modified"), "Tue, 01 Dec 2026 00:00:00 GMT");

  req.url = fake.url() + "/same";
  r = http.Send(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 304);

  req.url = fake.url() + "/error";
  streamed = 0;
  r = http.Send(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 503);
  EXPECT_EQ(streamed, 0u);
  EXPECT_EQ(r->body, "<Error>SlowDown</Error>");

  req.url = fake.url() + "/file";
  req.on_body = [](std::string_view, int64_t) { return false; };
  HttpFailure failure = HttpFailure::kNone;
  r = http.Send(req, &failure);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure, HttpFailure::kCancelled);
}

// The proxy is a per-request opt-in: with `proxy` set the request goes to the proxy in absolute
// form (the fake plays the proxy); a host in `no_proxy` goes direct.
TEST(HttpClient, ProxyWhenTheRequestOptsIn) {
  FakeHttpServer proxy(Always(Body("via proxy")));
  HttpClient http;
  HttpRequest req = Get("http://pricing.example.invalid/offers/index.csv");
  req.proxy = proxy.url();
  const Result<HttpResponse> r = http.Send(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->body, "via proxy");
  ASSERT_EQ(proxy.request_count(), 1u);
  EXPECT_EQ(proxy.requests()[0].target, "http://pricing.example.invalid/offers/index.csv");

  FakeHttpServer direct(Always(Body("direct")));
  req.url = direct.url() + "/x";
  req.no_proxy = "127.0.0.1";
  const Result<HttpResponse> d = http.Send(req);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->body, "direct");
  EXPECT_EQ(proxy.request_count(), 1u);
}

TEST(HttpClient, OnlyHttpAndHttps) {
  HttpClient http;
  const Result<HttpResponse> r = http.Send(Get("file:///etc/passwd"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
}

}  // namespace
}  // namespace gpuadvisor
