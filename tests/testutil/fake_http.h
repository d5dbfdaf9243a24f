// A loopback HTTP/1.1 server for tests of outbound requests (the Prometheus source). It records
// every request it receives (method, target, body) and answers each with what the test's handler
// returns, misbehaviour included: a body dripped a byte at a time, a stall, a huge body sent
// without holding it, a false Content-Length, a redirect, a chunked body. POSIX sockets, one
// connection at a time (keep-alive honoured), on its own thread; the destructor stops it.
#ifndef GPUADVISOR_TESTS_TESTUTIL_FAKE_HTTP_H_
#define GPUADVISOR_TESTS_TESTUTIL_FAKE_HTTP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gpuadvisor::testing {

class FakeHttpServer {
 public:
  struct Request {
    std::string method, target, body;
    std::vector<std::string> headers;  // "Name: value" lines as received
  };
  struct Reply {
    int status = 200;
    std::string body;
    std::vector<std::string> headers;        // extra "Name: value" lines
    size_t repeat = 1;                       // the body is sent this many times
    double drip_s = 0;                       // > 0: one byte of the body every drip_s seconds
    bool drip_head = false;                  // with drip_s: the status line and headers too
    bool stall = false;                      // send nothing, hold the connection until it closes
    std::optional<uint64_t> content_length;  // claimed instead of the true length
    bool chunked = false;  // Transfer-Encoding: chunked, the body in three chunks (repeat 1)
    // A 200 answer with this body and nothing else set.
    static Reply Body(std::string body) {
      Reply r;
      r.body = std::move(body);
      return r;
    }
  };
  using Handler = std::function<Reply(const Request&)>;

  explicit FakeHttpServer(Handler handler);
  ~FakeHttpServer();
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<Request> requests() const;
  size_t request_count() const;
  // Bytes of response bodies written so far.
  uint64_t body_bytes_sent() const { return sent_.load(); }

 private:
  void Serve();
  void Connection(int fd);
  bool Answer(int fd, const Reply& reply);
  bool AnswerChunked(int fd, const Reply& reply);

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> sent_{0};
  mutable std::mutex mu_;
  std::vector<Request> requests_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace gpuadvisor::testing

#endif  // GPUADVISOR_TESTS_TESTUTIL_FAKE_HTTP_H_
