#include "server/http_server.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "gpuadvisor/query.h"
#include "gpuadvisor/text.h"
#include "server/http_request.h"
#include "server/web_assets.h"

namespace gpuadvisor::server {
namespace {

using Clock = std::chrono::steady_clock;

// A path with a "." or ".." segment, a backslash or a NUL never names anything we serve.
bool SuspiciousPath(std::string_view path) {
  if (path.empty() || path.front() != '/') return true;
  if (path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos) {
    return true;
  }
  for (std::string_view seg : Split(path.substr(1), '/')) {
    if (seg == "." || seg == "..") return true;
  }
  return false;
}

// JSON bodies at least this large are gzipped for clients that accept it.
constexpr size_t kGzipMinBytes = 1400;
// The request line and header lines together may not exceed the header limit plus this.
constexpr size_t kRequestLineSlack = 8 << 10;
// After an error answer the connection is read and discarded this long before it is closed,
// so that the client, still sending its body, reads the answer instead of a reset.
constexpr auto kDrainTime = std::chrono::seconds(2);
constexpr size_t kReadChunk = 64 << 10;

std::string Today() {
  if (const char* today = std::getenv("GPUADVISOR_TODAY")) return today;  // tests
  return TodayUtc();
}

const char* Reason(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 417:
      return "Expectation Failed";
    case 421:
      return "Misdirected Request";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return status < 400 ? "OK" : status < 500 ? "Bad Request" : "Server Error";
  }
}

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string content_type = "application/json";
  void Set(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
  void SetApi(const ApiResponse& r) {
    status = r.status;
    body = r.body;
    content_type = r.content_type;
  }
  void SetError(int http_status, std::string_view code, std::string_view msg,
                std::string_view field) {
    SetApi(ErrorResponse(http_status, code, msg, field));
  }
};

// The bytes of a response; no body for HEAD, 204 and 304 (Content-Length still says its size).
std::string Serialize(const Response& r, bool head_only, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + Reason(r.status) + "\r\n";
  for (const auto& [k, v] : r.headers) out.append(k).append(": ").append(v).append("\r\n");
  const bool no_body = r.status == 204 || r.status == 304;
  if (!no_body) {
    out += "Content-Type: " + r.content_type + "\r\n";
    out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (!head_only && !no_body) out += r.body;
  return out;
}

// Writes all of `data` to the non-blocking `fd`, waiting at most `timeout_s` for each step.
bool WriteAll(int fd, std::string_view data, int timeout_s) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, timeout_s * 1000) <= 0) return false;
      continue;
    }
    return false;
  }
  return true;
}

// A connection the reactor reads, or a worker answers.
struct Conn {
  enum class State { kIdle, kHead, kBody, kDrain };
  int fd = -1;
  State state = State::kIdle;
  std::string in;       // bytes read and not yet consumed (pipelined requests stay here)
  size_t head_end = 0;  // with kBody: where the body starts in `in`
  size_t scanned = 0;   // with kHead: `in` searched for the blank line up to here
  Clock::time_point deadline;
  HttpRequest req;
  int served = 0;
};

}  // namespace

struct HttpServer::Impl {
  ServeOptions options;
  CatalogHolder* holder = nullptr;
  std::unique_ptr<ResponseCache> cache;
  HeadLimits limits;
  std::vector<std::string> hosts;  // the Host allow-list besides IP literals
  OriginPolicy origin_policy;
  int listen_fd = -1;
  int epoll_fd = -1;
  int wake_fd = -1;  // eventfd: Stop() and workers giving connections back
  int port = 0;
  std::atomic<bool> stop{false};
  std::atomic<bool> running{false};
  std::atomic<int> open{0};  // connections open, idle and in workers

  // Complete requests waiting for a worker.
  std::mutex work_mu;
  std::condition_variable work_cv;
  std::deque<std::unique_ptr<Conn>> work;  // guarded by work_mu
  bool work_done = false;                  // guarded by work_mu
  // Keep-alive connections the workers give back to the reactor.
  std::mutex back_mu;
  std::vector<std::unique_ptr<Conn>> back;  // guarded by back_mu

  std::unordered_map<int, std::unique_ptr<Conn>> conns;  // reactor-owned (reactor thread only)
  bool accept_paused = false;                            // reactor thread only

  ~Impl() {
    for (int fd : {listen_fd, epoll_fd, wake_fd}) {
      if (fd >= 0) ::close(fd);
    }
  }

  // ---- answering (worker threads) ----

  void ServeAsset(const HttpRequest& req, Response& res, const WebAsset& a, bool gzip) const {
    res.Set("ETag", a.etag);
    res.Set("Cache-Control", "no-cache");
    res.Set("Vary", "Accept-Encoding");
    if (req.Header("If-None-Match") == a.etag) {
      res.status = 304;
      return;
    }
    res.content_type = std::string(a.content_type);
    if (gzip && !a.gzip.empty()) {
      res.Set("Content-Encoding", "gzip");
      res.body = a.gzip;
    } else {
      res.body = std::string(a.data);
    }
  }

  void Route(const HttpRequest& req, Response& res, bool gzip) const {
    if (req.method == "GET" || req.method == "HEAD") {
      if (const WebAsset* a = FindWebAsset(req.path)) {
        ServeAsset(req, res, *a, gzip);
        return;
      }
    }
    ApiContext ctx;
    const std::shared_ptr<const CatalogHolder::Version> version = holder->Current();
    ctx.catalog = version->catalog;
    ctx.generation = version->generation;
    ctx.holder = holder;
    ctx.cache = cache.get();
    ctx.fresh.today = Today();
    ctx.fresh.max_price_age_days = options.max_price_age_days;
    ApiRequest api;
    api.method = req.method == "HEAD" ? "GET" : req.method;
    api.path = req.path;
    api.query = req.query;
    api.body = req.body;
    ApiResponse out = Dispatch(ctx, api);
    if (out.from_cache) res.Set("X-Cache", "hit");
    if (out.body.size() >= kGzipMinBytes && gzip) {
      std::string gz = Gzip(out.body, 4);
      if (!gz.empty()) {
        out.body = std::move(gz);
        res.Set("Content-Encoding", "gzip");
        res.Set("Vary", "Accept-Encoding");
      }
    }
    res.SetApi(out);
  }

  // The headers every response carries, the checks before routing, then the route.
  Response Answer(const HttpRequest& req) const {
    Response res;
    res.Set("X-Content-Type-Options", "nosniff");
    res.Set("Referrer-Policy", "no-referrer");
    res.Set("X-Frame-Options", "DENY");
    res.Set("Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    if (!options.cors_origin.empty()) {
      res.Set("Access-Control-Allow-Origin", options.cors_origin);
      res.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.Set("Access-Control-Allow-Headers", "Content-Type");
    }
    if (!HostAllowed(req.Header("Host"), hosts, port)) {
      std::string names;
      for (const std::string& h : hosts) names += (names.empty() ? "" : ", ") + h;
      res.SetError(
          421, "host_not_allowed",
          "host: this server answers to " + names + " (start it with --allow-host NAME to add one)",
          "host");
      return res;
    }
    if (SuspiciousPath(req.path)) {
      res.SetError(400, "invalid_argument",
                   R"(path: "." and ".." segments, backslashes and NUL are not allowed)", "path");
      return res;
    }
    if (HeadError e = CheckCrossSite(req, origin_policy)) {
      res.SetError(e.status, e.code, e.message, e.field);
      return res;
    }
    if (req.method == "OPTIONS" && !options.cors_origin.empty()) {
      res.status = 204;
      return res;
    }
    const bool gzip = req.Header("Accept-Encoding").find("gzip") != std::string_view::npos;
    try {
      Route(req, res, gzip);
    } catch (const std::exception&) {
      res = Response{};
      res.SetError(500, "internal", "internal error while handling the request", "");
    }
    return res;
  }

  void WorkerLoop() {
    for (;;) {
      std::unique_ptr<Conn> c;
      {
        std::unique_lock<std::mutex> lock(work_mu);
        work_cv.wait(lock, [this] { return work_done || !work.empty(); });
        if (work.empty()) return;
        c = std::move(work.front());
        work.pop_front();
      }
      ++c->served;
      const Response res = Answer(c->req);
      const bool keep = c->req.keep_alive && c->served < options.keep_alive_max &&
                        !stop.load(std::memory_order_relaxed);
      const bool written =
          WriteAll(c->fd, Serialize(res, c->req.method == "HEAD", keep), options.write_timeout_s);
      if (!written || !keep) {
        Close(c->fd, true);
        continue;
      }
      c->req = HttpRequest();
      {
        std::lock_guard<std::mutex> lock(back_mu);
        back.push_back(std::move(c));
      }
      Wake();
    }
  }

  void Wake() const {
    const uint64_t one = 1;
    (void)!::write(wake_fd, &one, sizeof one);
  }

  void Close(int fd, bool graceful) {
    if (graceful) ::shutdown(fd, SHUT_WR);
    ::close(fd);
    open.fetch_sub(1, std::memory_order_relaxed);
  }

  // ---- reading (reactor thread) ----

  void Forget(Conn* c) {
    ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, nullptr);
    conns.erase(c->fd);
  }

  void CloseConn(Conn* c) {
    const int fd = c->fd;
    Forget(c);  // destroys *c
    Close(fd, false);
  }

  // Answers an error from the reactor (the request never reaches a worker), then drains.
  void Refuse(Conn* c, int status, std::string_view code, std::string_view msg,
              std::string_view field) {
    Response res;
    res.SetError(status, code, msg, field);
    const std::string bytes = Serialize(res, false, false);
    (void)!::send(c->fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(c->fd, SHUT_WR);
    c->state = Conn::State::kDrain;
    c->in.clear();
    c->deadline = Clock::now() + kDrainTime;
  }

  void StartRequest(Conn* c) {
    c->state = Conn::State::kIdle;
    c->head_end = c->scanned = 0;
    c->deadline = Clock::now() + std::chrono::seconds(options.keep_alive_timeout_s);
  }

  // Moves `c` on with the bytes it has: parses a complete head, hands a complete request to
  // the workers. Returns false when `c` is gone (handed over).
  bool Advance(Conn* c) {
    const auto now = Clock::now();
    if (c->state == Conn::State::kIdle && !c->in.empty()) {
      c->state = Conn::State::kHead;
      c->deadline = now + std::chrono::seconds(options.header_timeout_s);
    }
    if (c->state == Conn::State::kHead) {
      const size_t from = c->scanned >= 3 ? c->scanned - 3 : 0;
      size_t end = c->in.find("\r\n\r\n", from);
      size_t blank = 4;
      if (end == std::string::npos) {
        end = c->in.find("\n\n", from);
        blank = 2;
      }
      if (end == std::string::npos) {
        c->scanned = c->in.size();
        if (c->in.size() > options.max_header_bytes + kRequestLineSlack) {
          Refuse(c, 431, "headers_too_large", "request headers: too large", "headers");
        }
        return true;
      }
      if (HeadError e = ParseRequestHead(std::string_view(c->in).substr(0, end), limits, &c->req)) {
        Refuse(c, e.status, e.code, e.message, e.field);
        return true;
      }
      if (c->req.content_length > options.max_body_bytes) {
        Refuse(c, 413, "payload_too_large",
               "body: larger than the server accepts (" + std::to_string(options.max_body_bytes) +
                   " bytes)",
               "body");
        return true;
      }
      c->head_end = end + blank;
      c->state = Conn::State::kBody;
      c->deadline = now + std::chrono::seconds(options.read_timeout_s);
      if (c->req.expect_continue && c->in.size() == c->head_end && c->req.content_length > 0) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)!::send(c->fd, kContinue.data(), kContinue.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
    }
    if (c->state == Conn::State::kBody && c->in.size() - c->head_end >= c->req.content_length) {
      c->req.body = c->in.substr(c->head_end, c->req.content_length);
      c->in.erase(0, c->head_end + c->req.content_length);
      const int fd = c->fd;
      ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
      std::unique_ptr<Conn> owned = std::move(conns[fd]);
      conns.erase(fd);
      {
        std::lock_guard<std::mutex> lock(work_mu);
        work.push_back(std::move(owned));
      }
      work_cv.notify_one();
      return false;
    }
    return true;
  }

  void OnReadable(Conn* c) {
    char buf[kReadChunk];
    bool progressed = false;
    for (;;) {
      const ssize_t n = ::recv(c->fd, buf, sizeof buf, 0);
      if (n > 0) {
        progressed = true;
        if (c->state != Conn::State::kDrain) c->in.append(buf, static_cast<size_t>(n));
        // A request larger than the limits is refused by Advance before the buffer grows
        // further; stop reading once a whole request is here (pipelined rest stays queued).
        if (c->state == Conn::State::kBody && c->in.size() - c->head_end >= c->req.content_length) {
          break;
        }
        if (c->state == Conn::State::kHead || c->state == Conn::State::kIdle) {
          if (!Advance(c)) return;
        }
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      CloseConn(c);  // EOF or error
      return;
    }
    if (c->state == Conn::State::kDrain) return;
    if (progressed && c->state == Conn::State::kBody) {
      c->deadline = Clock::now() + std::chrono::seconds(options.read_timeout_s);
    }
    (void)Advance(c);
  }

  void Accept() {
    for (;;) {
      const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        // Out of descriptors: stop watching the listener until the next sweep, or the
        // level-triggered event would spin.
        if (errno == EMFILE || errno == ENFILE) PauseAccept(true);
        return;
      }
      if (open.load(std::memory_order_relaxed) >= options.max_connections) {
        Response res;
        res.SetError(
            503, "unavailable",
            "server: " + std::to_string(options.max_connections) + " connections open; try again",
            "");
        res.Set("Retry-After", "1");
        const std::string bytes = Serialize(res, false, false);
        (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        ::shutdown(fd, SHUT_WR);
        ::close(fd);
        continue;
      }
      open.fetch_add(1, std::memory_order_relaxed);
      int yes = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
      auto c = std::make_unique<Conn>();
      c->fd = fd;
      StartRequest(c.get());
      Watch(std::move(c));
    }
  }

  void Watch(std::unique_ptr<Conn> c) {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = c->fd;
    const int fd = c->fd;
    conns[fd] = std::move(c);
    if (::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0) CloseConn(conns[fd].get());
  }

  void TakeBack() {
    std::vector<std::unique_ptr<Conn>> returned;
    {
      std::lock_guard<std::mutex> lock(back_mu);
      returned.swap(back);
    }
    for (std::unique_ptr<Conn>& c : returned) {
      const int fd = c->fd;
      StartRequest(c.get());
      Watch(std::move(c));
      auto it = conns.find(fd);
      if (it != conns.end() && !it->second->in.empty()) (void)Advance(it->second.get());
    }
  }

  void PauseAccept(bool pause) {
    if (pause == accept_paused) return;
    accept_paused = pause;
    epoll_event ev{};
    ev.events = pause ? 0u : static_cast<uint32_t>(EPOLLIN);
    ev.data.fd = listen_fd;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_MOD, listen_fd, &ev);
  }

  // Closes connections past their deadline; a head or body cut short gets 408 first.
  void Sweep() {
    PauseAccept(false);
    const auto now = Clock::now();
    std::vector<Conn*> late;
    for (auto& [fd, c] : conns) {
      if (c->deadline <= now) late.push_back(c.get());
    }
    for (Conn* c : late) {
      if (c->state == Conn::State::kHead || c->state == Conn::State::kBody) {
        Refuse(c, 408, "timeout",
               c->state == Conn::State::kHead
                   ? "request: the head did not arrive within " +
                         std::to_string(options.header_timeout_s) + " s"
                   : "body: stalled for " + std::to_string(options.read_timeout_s) + " s",
               c->state == Conn::State::kHead ? "headers" : "body");
        c->deadline = now + std::chrono::milliseconds(200);  // a short drain: it was slow
      } else {
        CloseConn(c);
      }
    }
  }

  void Reactor() {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listen_fd, &ev);
    ev.data.fd = wake_fd;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, wake_fd, &ev);
    running.store(true);
    std::vector<epoll_event> events(256);
    auto next_sweep = Clock::now();
    while (!stop.load()) {
      const int n = ::epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()), 100);
      for (int i = 0; i < n; ++i) {
        const int fd = events[static_cast<size_t>(i)].data.fd;
        if (fd == listen_fd) {
          Accept();
        } else if (fd == wake_fd) {
          uint64_t count = 0;
          (void)!::read(wake_fd, &count, sizeof count);
          TakeBack();
        } else if (auto it = conns.find(fd); it != conns.end()) {
          OnReadable(it->second.get());
        }
      }
      if (Clock::now() >= next_sweep) {
        Sweep();
        next_sweep = Clock::now() + std::chrono::milliseconds(100);
      }
    }
    running.store(false);
  }

  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(work_mu);
      work_done = true;
    }
    work_cv.notify_all();
  }

  void CloseAll() {
    std::vector<int> fds;
    fds.reserve(conns.size());
    for (auto& [fd, c] : conns) fds.push_back(fd);
    for (int fd : fds) CloseConn(conns[fd].get());
    std::lock_guard<std::mutex> lock(back_mu);
    for (std::unique_ptr<Conn>& c : back) Close(c->fd, false);
    back.clear();
  }
};

HttpServer::HttpServer(const ServeOptions& options, CatalogHolder* holder)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->holder = holder;
  if (options.cache_entries > 0 && options.cache_bytes > 0) {
    impl_->cache = std::make_unique<ResponseCache>(options.cache_entries, options.cache_bytes);
  }
  impl_->limits.max_header_bytes = options.max_header_bytes;
  impl_->limits.max_headers = options.max_headers;
  // Checked on every address, not only loopback: a browser on this machine reaches a server
  // bound to 0.0.0.0 through 127.0.0.1 just as well, so rebinding works against it too.
  impl_->hosts = LoopbackHostNames();
  for (const std::string& h : options.allow_hosts) impl_->hosts.push_back(ToLower(h));
  impl_->origin_policy.cors_origin = options.cors_origin;
}

HttpServer::~HttpServer() { Stop(); }

Result<int> HttpServer::Bind() {
  (void)WebAssets();  // compress the page once, before the first request
  const ServeOptions& o = impl_->options;
  // Each open connection is a descriptor: raise the soft limit (often 1024) toward the hard one.
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    const auto want = static_cast<rlim_t>(o.max_connections) + 64;
    if (lim.rlim_cur < want) {
      lim.rlim_cur = std::min(want, lim.rlim_max);
      ::setrlimit(RLIMIT_NOFILE, &lim);
    }
  }
  const auto fail = [&o] {
    return Status::IOError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                           " (address in use, or not an address of this machine)");
  };
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(o.host.c_str(), std::to_string(o.port).c_str(), &hints, &found) != 0) {
    return fail();
  }
  int fd = -1;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return fail();
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  impl_->port = addr.ss_family == AF_INET6
                    ? ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port)
                    : ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  impl_->listen_fd = fd;
  impl_->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  impl_->wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (impl_->epoll_fd < 0 || impl_->wake_fd < 0) return Status::IOError("serve: epoll failed");
  return impl_->port;
}

Status HttpServer::Run() {
  if (impl_->listen_fd < 0) return Status::IOError("serve: Run() before Bind()");
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(impl_->options.threads));
  for (int i = 0; i < impl_->options.threads; ++i) {
    workers.emplace_back([impl = impl_.get()] { impl->WorkerLoop(); });
  }
  impl_->Reactor();
  impl_->Shutdown();
  for (std::thread& t : workers) t.join();
  impl_->CloseAll();
  return Status::OK();
}

void HttpServer::Stop() {
  impl_->stop.store(true);
  if (impl_->wake_fd >= 0) impl_->Wake();
}

bool HttpServer::running() const { return impl_->running.load(); }

Result<ServeOptions> CheckServeOptions(const ServeOptions& o) {
  if (o.port < 0 || o.port > 65535) {
    return Status::InvalidArgument("--port: expected 0 to 65535, got " + std::to_string(o.port));
  }
  if (o.threads < 1 || o.threads > 1024) {
    return Status::InvalidArgument("--threads: expected 1 to 1024, got " +
                                   std::to_string(o.threads));
  }
  if (o.read_timeout_s < 1 || o.write_timeout_s < 1 || o.keep_alive_timeout_s < 1) {
    return Status::InvalidArgument("--timeout: expected at least 1 second");
  }
  if (o.header_timeout_s < 1 || o.header_timeout_s > 3600) {
    return Status::InvalidArgument("--header-timeout: expected 1s to 1h");
  }
  if (o.max_connections < 1 || o.max_connections > 100000) {
    return Status::InvalidArgument("--max-connections: expected 1 to 100000, got " +
                                   std::to_string(o.max_connections));
  }
  if (o.max_body_bytes < 1024) {
    return Status::InvalidArgument("--max-body: expected at least 1024 bytes");
  }
  if (o.host.empty()) return Status::InvalidArgument("--host: expected an address");
  ServeOptions out = o;
  for (std::string& h : out.allow_hosts) {
    h = ToLower(Trim(h));
    const bool bracketed = !h.empty() && h.front() == '[' && h.back() == ']';
    if (h.empty() || h.find_first_of(" /@") != std::string::npos ||
        (!bracketed && h.find(':') != std::string::npos)) {
      return Status::InvalidArgument("--allow-host: expected a host name without port, got \"" + h +
                                     "\"");
    }
  }
  return out;
}

}  // namespace gpuadvisor::server
