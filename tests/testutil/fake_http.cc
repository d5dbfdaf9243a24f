#include "testutil/fake_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gpuadvisor::testing {
namespace {

// Waits up to 50 ms for `fd` to be readable; -1 on error or hang-up.
int WaitReadable(int fd) {
  pollfd p{fd, POLLIN, 0};
  const int r = ::poll(&p, 1, 50);
  if (r < 0) return -1;
  if (r > 0 && (p.revents & (POLLERR | POLLNVAL)) != 0) return -1;
  return r;
}

bool SendAll(int fd, const char* d, size_t n) {
  while (n > 0) {
    const ssize_t w = ::send(fd, d, n, MSG_NOSIGNAL);
    if (w <= 0) return false;
    d += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 302:
      return "Found";
    case 400:
      return "Bad Request";
    default:
      return "Status";
  }
}

}  // namespace

FakeHttpServer::FakeHttpServer(Handler handler) : handler_(std::move(handler)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), len) != 0 ||
      ::listen(listen_fd_, 16) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    throw std::runtime_error("FakeHttpServer: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(a.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

FakeHttpServer::~FakeHttpServer() {
  stop_ = true;
  thread_.join();
  ::close(listen_fd_);
}

std::vector<FakeHttpServer::Request> FakeHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

size_t FakeHttpServer::request_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_.size();
}

void FakeHttpServer::Serve() {
  while (!stop_) {
    if (WaitReadable(listen_fd_) <= 0) continue;
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    Connection(fd);
    ::close(fd);
  }
}

// Reads requests (head, then a Content-Length body) and answers them until the peer closes.
void FakeHttpServer::Connection(int fd) {
  std::string buf;
  while (!stop_) {
    const size_t head_end = buf.find("\r\n\r\n");
    if (head_end == std::string::npos) {
      const int r = WaitReadable(fd);
      if (r < 0) return;
      if (r == 0) continue;
      char tmp[65536];
      const ssize_t n = ::recv(fd, tmp, sizeof(tmp), 0);
      if (n <= 0) return;
      buf.append(tmp, static_cast<size_t>(n));
      continue;
    }
    Request req;
    const std::string head = buf.substr(0, head_end);
    const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    req.method = head.substr(0, sp1);
    req.target = head.substr(sp1 + 1, sp2 - sp1 - 1);
    size_t length = 0;
    for (size_t at = head.find("\r\n"); at != std::string::npos; at = head.find("\r\n", at + 2)) {
      const std::string line = head.substr(at + 2, head.find("\r\n", at + 2) - at - 2);
      req.headers.push_back(line);
      if (strncasecmp(line.c_str(), "Content-Length:", 15) == 0) {
        length = std::strtoul(line.c_str() + 15, nullptr, 10);
      }
    }
    while (buf.size() < head_end + 4 + length) {
      if (stop_ || WaitReadable(fd) < 0) return;
      char tmp[65536];
      const ssize_t n = ::recv(fd, tmp, sizeof(tmp), MSG_DONTWAIT);
      if (n == 0) return;
      if (n > 0) buf.append(tmp, static_cast<size_t>(n));
    }
    req.body = buf.substr(head_end + 4, length);
    buf.erase(0, head_end + 4 + length);
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(req);
    }
    if (!Answer(fd, handler_(req))) return;
  }
}

bool FakeHttpServer::Answer(int fd, const Reply& reply) {
  if (reply.stall) {
    while (!stop_ && WaitReadable(fd) == 0) {
    }
    return false;
  }
  if (reply.chunked) return AnswerChunked(fd, reply);
  const uint64_t length = reply.content_length.value_or(reply.body.size() * reply.repeat);
  std::string head =
      "HTTP/1.1 " + std::to_string(reply.status) + " " + Reason(reply.status) +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(length) + "\r\n";
  for (const std::string& h : reply.headers) head += h + "\r\n";
  head += "\r\n";
  if (reply.drip_s <= 0 && reply.repeat == 1) {  // one write: no delayed-ACK wait per answer
    head += reply.body;
    sent_ += reply.body.size();
    return SendAll(fd, head.data(), head.size()) && !stop_;
  }
  if (reply.drip_s > 0 && reply.drip_head) {
    for (const char c : head) {
      if (stop_ || !SendAll(fd, &c, 1)) return false;
      std::this_thread::sleep_for(std::chrono::duration<double>(reply.drip_s));
    }
  } else if (!SendAll(fd, head.data(), head.size())) {
    return false;
  }
  for (size_t i = 0; i < reply.repeat && !stop_; ++i) {
    if (reply.drip_s <= 0) {
      if (!SendAll(fd, reply.body.data(), reply.body.size())) return false;
      sent_ += reply.body.size();
      continue;
    }
    for (const char c : reply.body) {
      if (stop_ || !SendAll(fd, &c, 1)) return false;
      ++sent_;
      std::this_thread::sleep_for(std::chrono::duration<double>(reply.drip_s));
    }
  }
  return !stop_;
}

bool FakeHttpServer::AnswerChunked(int fd, const Reply& reply) {
  std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + Reason(reply.status) +
                    "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n";
  for (const std::string& h : reply.headers) out += h + "\r\n";
  out += "\r\n";
  const size_t third = reply.body.size() / 3 + 1;
  for (size_t at = 0; at < reply.body.size(); at += third) {
    const std::string piece = reply.body.substr(at, third);
    char size[32];
    std::snprintf(size, sizeof(size), "%zx\r\n", piece.size());
    out += size + piece + "\r\n";
  }
  out += "0\r\n\r\n";
  sent_ += reply.body.size();
  return SendAll(fd, out.data(), out.size()) && !stop_;
}

}  // namespace gpuadvisor::testing
