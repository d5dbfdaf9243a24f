// A real HttpServer on a loopback port for one test, and raw-socket helpers to talk to it: the
// fixture of the transport and security tests (both executables of tests/server/tests.cmake).
#ifndef GPUADVISOR_TESTS_SERVER_TRANSPORT_FIXTURE_H_
#define GPUADVISOR_TESTS_SERVER_TRANSPORT_FIXTURE_H_

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "server/http_server.h"

namespace gpuadvisor::server {

// Started in SetUp with options_ as Configure() leaves them; stopped in TearDown.
class TransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
    ASSERT_TRUE(c.ok());
    holder_ = std::make_unique<CatalogHolder>(*c, [] { return EmbeddedCatalog(); });
    options_.port = 0;
    options_.threads = 4;
    options_.read_timeout_s = 5;
    options_.keep_alive_timeout_s = 5;
    options_.header_timeout_s = 5;
    Configure(&options_);
    Start();
  }
  virtual void Configure(ServeOptions*) {}
  void Start() {
    server_ = std::make_unique<HttpServer>(options_, holder_.get());
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

  int Connect(const char* address = "127.0.0.1") const {
    const bool v6 = std::string_view(address).find(':') != std::string_view::npos;
    const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    sockaddr_storage ss{};
    socklen_t len = 0;
    if (v6) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
      a->sin6_family = AF_INET6;
      a->sin6_port = htons(static_cast<uint16_t>(port_));
      ::inet_pton(AF_INET6, address, &a->sin6_addr);
      len = sizeof *a;
    } else {
      auto* a = reinterpret_cast<sockaddr_in*>(&ss);
      a->sin_family = AF_INET;
      a->sin_port = htons(static_cast<uint16_t>(port_));
      ::inet_pton(AF_INET, address, &a->sin_addr);
      len = sizeof *a;
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }

  // A socket from `source` (any 127/8 address is this machine's) to the server.
  int ConnectFrom(const char* source) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<uint16_t>(port_));
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
        ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }

  static std::string ReadAll(int fd, int wait_s) {
    timeval tv{wait_s, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string out;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }

  // Sends `pieces` one write each (a pause between them) and reads until the server closes.
  std::string Raw(const std::vector<std::string>& pieces, const char* address = "127.0.0.1") {
    const int fd = Connect(address);
    if (fd < 0) return "";
    for (const std::string& p : pieces) {
      (void)!::send(fd, p.data(), p.size(), MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::string out = ReadAll(fd, 5);
    ::close(fd);
    return out;
  }

  static std::vector<std::string> StatusLines(const std::string& res) {
    std::vector<std::string> out;
    for (size_t at = res.find("HTTP/1.1 "); at != std::string::npos;
         at = res.find("HTTP/1.1 ", at + 1)) {
      out.push_back(res.substr(at, 12));
    }
    return out;
  }

  std::string Host() const { return "Host: 127.0.0.1:" + std::to_string(port_) + "\r\n"; }

  ServeOptions options_;
  std::unique_ptr<CatalogHolder> holder_;
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_TESTS_SERVER_TRANSPORT_FIXTURE_H_
