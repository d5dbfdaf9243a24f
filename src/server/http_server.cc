#include "server/http_server.h"

#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "gpuadvisor/query.h"
#include "server/http_reader.h"
#include "server/http_request.h"
#include "server/web_assets.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::server {
namespace {

using Clock = std::chrono::steady_clock;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

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

// After an error answer the connection is read and discarded this long before it is closed,
// so that the client, still sending its body, reads the answer instead of a reset.
constexpr auto kDrainTime = std::chrono::seconds(2);
// Reads start this small (a silent or trickling client costs little) and double while they
// fill the buffer, up to the max.
constexpr size_t kReadChunkMin = 4 << 10;
constexpr size_t kReadChunkMax = 64 << 10;

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
    case 415:
      return "Unsupported Media Type";
    case 417:
      return "Expectation Failed";
    case 421:
      return "Misdirected Request";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
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
  std::shared_ptr<const std::string> shared;  // the body when shared (a cached answer)
  std::string content_type = "application/json";
  void Set(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
  const std::string& text() const { return shared ? *shared : body; }
  void SetApi(ApiResponse r) {
    status = r.status;
    body = std::move(r.body);
    shared = std::move(r.shared);
    content_type = std::move(r.content_type);
  }
  void SetError(int http_status, std::string_view code, std::string_view msg,
                std::string_view field) {
    SetApi(ErrorResponse(http_status, code, msg, field));
  }
};

bool HasBody(const Response& r) { return r.status != 204 && r.status != 304; }

// The status line and headers of a response (Content-Length says the body's size, HEAD too).
std::string SerializeHead(const Response& r, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + Reason(r.status) + "\r\n";
  for (const auto& [k, v] : r.headers) out.append(k).append(": ").append(v).append("\r\n");
  if (HasBody(r)) {
    out += "Content-Type: " + r.content_type + "\r\n";
    out += "Content-Length: " + std::to_string(r.text().size()) + "\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  return out;
}

// The bytes of a small response in one string; no body for HEAD, 204 and 304.
std::string Serialize(const Response& r, bool head_only, bool keep_alive) {
  std::string out = SerializeHead(r, keep_alive);
  if (!head_only && HasBody(r)) out += r.text();
  return out;
}

// The cancellation check of the request a worker runs (see MakeCancelCheck).
thread_local const std::function<bool()>* current_cancel = nullptr;

// A connection's byte stream: plain TCP, or TLS over it (--tls-cert).
class Stream {
 public:
  explicit Stream(tcp::socket s) : plain_(std::move(s)) {}
  Stream(tcp::socket s, asio::ssl::context& tls) : tls_(std::in_place, std::move(s), tls) {}
  tcp::socket& socket() { return tls_ ? tls_->next_layer() : *plain_; }
  bool tls() const { return tls_.has_value(); }
  template <class Handler>
  void Handshake(Handler&& h) {
    tls_->async_handshake(asio::ssl::stream_base::server, std::forward<Handler>(h));
  }
  template <class Buffers, class Handler>
  void ReadSome(const Buffers& b, Handler&& h) {
    if (tls_) {
      tls_->async_read_some(b, std::forward<Handler>(h));
    } else {
      plain_->async_read_some(b, std::forward<Handler>(h));
    }
  }
  template <class Buffers, class Handler>
  void Write(const Buffers& b, Handler&& h) {
    if (tls_) {
      asio::async_write(*tls_, b, std::forward<Handler>(h));
    } else {
      asio::async_write(*plain_, b, std::forward<Handler>(h));
    }
  }
  // Bytes sent now if the socket takes them, without waiting (plain TCP only: over TLS they
  // would corrupt the record stream, so nothing is sent).
  void SendNow(std::string_view bytes) {
    if (tls_) return;
    (void)!::send(plain_->native_handle(), bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  }

 private:
  std::optional<tcp::socket> plain_;
  std::optional<asio::ssl::stream<tcp::socket>> tls_;
};

// A connection: owned by the I/O thread, handed to a worker only as a request plus a pointer.
struct Session {
  enum class State { kIdle, kHead, kBody, kHandler, kWrite, kDrain, kClosed };
  Session(Stream s, const ReaderLimits& limits) : stream(std::move(s)), reader(limits) {}
  Stream stream;
  tcp::socket& sock() { return stream.socket(); }
  std::string peer;               // client address, for the per-client cap and logs
  boost::beast::flat_buffer buf;  // received, not yet parsed
  size_t chunk = kReadChunkMin;   // next read size: grows while reads fill it
  RequestReader reader;
  State state = State::kIdle;
  Clock::time_point deadline;       // of the current state (see Sweep)
  Clock::time_point body_deadline;  // the whole body by then (--body-timeout)
  Clock::time_point since;          // accepted, or the current request's first byte
  Clock::time_point last_byte;      // the last read that brought bytes (eviction: progress)
  int served = 0;                   // responses written
  bool keep = true;                 // after the response being written
  std::string out;                  // the response being written: its head (or all of it)
  // Its body when not in `out`: shared with the response cache and every other connection
  // writing the same answer (one copy however many slow readers ask for it).
  std::shared_ptr<const std::string> out_body;
  bool charged = false;           // out and out_body count against the write ceiling
  Clock::time_point write_since;  // when the answer's write began
  // For the access log: what the response being written answers.
  std::string log_method, log_target;
  int log_status = 0;
  Clock::time_point log_start;
};
using SessionPtr = std::shared_ptr<Session>;

// A complete request for a worker.
struct Job {
  SessionPtr session;
  HttpRequest req;
  std::function<bool()> cancelled;  // installed as ApiContext::cancelled
};

// Complete requests waiting for a worker, one FIFO per client address served in turn
// (round-robin), so that a client with many requests queued delays another by at most one of
// its own. Guarded by HttpServer::Impl::work_mu.
class FairQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t queued(const std::string& client) const {
    auto it = by_client_.find(client);
    return it == by_client_.end() ? 0 : it->second.size();
  }
  void Push(const std::string& client, Job job) {
    std::deque<Job>& q = by_client_[client];
    if (q.empty()) turn_.push_back(client);
    q.push_back(std::move(job));
    ++size_;
  }
  // REQUIRES: !empty().
  Job Pop() {
    const std::string client = std::move(turn_.front());
    turn_.pop_front();
    auto it = by_client_.find(client);
    Job job = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) {
      by_client_.erase(it);
    } else {
      turn_.push_back(client);
    }
    --size_;
    return job;
  }
  void Clear() {
    by_client_.clear();
    turn_.clear();
    size_ = 0;
  }

 private:
  std::unordered_map<std::string, std::deque<Job>> by_client_;
  std::deque<std::string> turn_;  // clients with queued jobs, next first
  size_t size_ = 0;
};

// A connection that read bytes this recently is making progress (eviction ranks it high); a
// writer stuck this long may be closed to make room under the write ceiling.
constexpr auto kProgressWindow = std::chrono::seconds(1);
}  // namespace

struct HttpServer::Impl {
  ServeOptions options;
  CatalogHolder* holder = nullptr;
  std::unique_ptr<ResponseCache> cache;
  ReaderLimits reader_limits;
  std::vector<std::string> hosts;  // the Host allow-list besides IP literals
  OriginPolicy origin_policy;
  int port = 0;
  std::FILE* access_log = nullptr;          // --access-log; null = off
  std::unique_ptr<asio::ssl::context> tls;  // --tls-cert/--tls-key; null = plain HTTP
  mutable std::mutex log_mu;                // one line at a time in either log
  std::atomic<bool> running{false};
  std::atomic<bool> cancel_all{false};  // every request's cancelled() is true (drain is over)

  // Complete requests waiting for a worker.
  std::mutex work_mu;
  std::condition_variable work_cv;
  FairQueue work;          // guarded by work_mu
  bool work_done = false;  // guarded by work_mu
  int workers_done = 0;    // guarded by work_mu
  std::condition_variable workers_cv;

  // The I/O thread's; everything below is touched only on it.
  asio::io_context ioc{1};
  std::vector<tcp::acceptor> acceptors;
  asio::steady_timer sweep_timer{ioc};
  std::unordered_map<Session*, SessionPtr> sessions;
  std::unordered_map<std::string, int> per_client;  // open connections per client address
  bool draining = false;
  Clock::time_point drain_deadline;
  // Bytes held by answers being written (heads, and each body once however many connections
  // write it), against options.max_write_bytes; shared bodies by address, with their writers.
  size_t write_bytes = 0;
  std::unordered_map<const std::string*, int> body_writers;
  std::string oom_bytes;  // the 503 sent when memory runs out, made before it does

  // Figures for Stats() (any thread).
  std::atomic<size_t> stat_write_bytes{0}, stat_write_peak{0}, stat_queued{0};
  mutable std::atomic<uint64_t> stat_out_of_memory{0};  // Answer() is const
  std::atomic<uint64_t> stat_write_refused{0}, stat_writers_evicted{0}, stat_jobs_dropped{0},
      stat_jobs_refused{0};

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
    ctx.fresh.today = options.today ? options.today() : TodayUtc();
    ctx.fresh.max_price_age_days = options.max_price_age_days;
    ctx.prometheus_allowed = &options.prometheus_allowed;
    ctx.account = options.account.get();
    if (current_cancel != nullptr) ctx.cancelled = *current_cancel;
    ctx.language =
        LanguageFromAcceptLanguage(req.Header("Accept-Language")).value_or(Language::kEnglish);
    ctx.accept_gzip = gzip;
    ApiRequest api;
    api.method = req.method == "HEAD" ? "GET" : req.method;
    api.path = req.path;
    api.query = req.query;
    api.body = req.body;
    ApiResponse out = Dispatch(ctx, api);
    if (out.from_cache) res.Set("X-Cache", "hit");
    if (out.gzipped) {
      res.Set("Content-Encoding", "gzip");
      res.Set("Vary", "Accept-Encoding");
    }
    // The human text follows Accept-Language (doc/i18n.md): caches must key on it too.
    res.Set("Content-Language", LanguageTag(ctx.language));
    res.Set("Vary", "Accept-Language");
    res.SetApi(std::move(out));
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
      res.Set("Access-Control-Allow-Methods", "GET, POST, PUT, OPTIONS");
      res.Set("Access-Control-Allow-Headers", "Content-Type");
    }
    if (!HostAllowed(req.Header("Host"), hosts, port)) {
      std::string names = "IP addresses";
      for (const std::string& h : hosts) names += ", " + h;
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
    const bool gzip = AcceptsGzip(req.Header("Accept-Encoding"));
    try {
      Route(req, res, gzip);
    } catch (const std::bad_alloc&) {
      // Out of memory in a handler: this request fails, the server goes on.
      ++stat_out_of_memory;
      LogError(req, "out of memory", 503);
      res = Response{};
      res.SetError(503, "unavailable", "server: out of memory for this request; try again", "");
      res.Set("Retry-After", "1");
    } catch (const std::exception& e) {
      LogError(req, e.what());
      res = Response{};
      res.SetError(500, "internal", "internal error while handling the request", "");
    }
    return res;
  }

  // ---- logs ----

  void LogAccess(const Session& s) const {
    if (access_log == nullptr) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s.log_start).count();
    const std::string line = NowUtcIso() + " " + s.peer + " " + TerminalSafe(s.log_method) + " " +
                             TerminalSafe(s.log_target) + " " + std::to_string(s.log_status) + " " +
                             std::to_string(s.out.size() + (s.out_body ? s.out_body->size() : 0)) +
                             " " + FormatMs(ms) + "\n";
    std::lock_guard<std::mutex> lock(log_mu);
    std::fputs(line.c_str(), access_log);
    std::fflush(access_log);
  }

  static std::string FormatMs(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", ms);
    return buf;
  }

  void LogError(const HttpRequest& req, std::string_view what, int status = 500) const {
    const std::string line = "gpuadvisor: " + NowUtcIso() + " " + std::to_string(status) + " " +
                             TerminalSafe(req.method) + " " + TerminalSafe(req.path) + ": " +
                             TerminalSafe(what) + "\n";
    std::lock_guard<std::mutex> lock(log_mu);
    std::fputs(line.c_str(), stderr);
  }

  // ---- workers ----

  void WorkerLoop() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(work_mu);
        work_cv.wait(lock, [this] { return work_done || !work.empty(); });
        if (work_done) break;
        job = work.Pop();
        stat_queued.store(work.size());
      }
      std::shared_ptr<Response> res;
      try {
        if (job.cancelled && job.cancelled()) {
          // Nobody waits for it any more (the client closed, its wall time passed while it
          // queued, or the server drains): dropped, not run. A client still there is told.
          ++stat_jobs_dropped;
          res = std::make_shared<Response>();
          res->SetError(503, "unavailable",
                        "server: the request was not started in time (" +
                            std::to_string(options.request_timeout_s) +
                            " s) or is no longer wanted; try again",
                        "");
          res->Set("Retry-After", "1");
        } else {
          current_cancel = &job.cancelled;
          res = std::make_shared<Response>(Answer(job.req));
          current_cancel = nullptr;
        }
      } catch (const std::bad_alloc&) {
        current_cancel = nullptr;
        ++stat_out_of_memory;
        res = nullptr;  // the I/O thread closes the connection
      }
      job.req = HttpRequest();  // the body goes now, not when the job's slot is reused
      asio::post(ioc, [this, s = std::move(job.session), res] {
        if (res == nullptr) {
          FailOutOfMemory(s);
        } else {
          Write(s, std::move(*res));
        }
      });
    }
    std::lock_guard<std::mutex> lock(work_mu);
    ++workers_done;
    workers_cv.notify_all();
  }

  // ---- connections (I/O thread) ----

  void Accept(tcp::acceptor* a) {
    a->async_accept([this, a](boost::system::error_code ec, tcp::socket sock) {
      if (draining || !a->is_open()) return;
      if (!ec) {
        Admit(std::move(sock));
      } else if (ec != asio::error::connection_aborted) {
        // Out of descriptors (EMFILE) and the like: the pending connection stays queued; try
        // again shortly instead of spinning on the same error.
        auto retry = std::make_shared<asio::steady_timer>(ioc, std::chrono::milliseconds(100));
        retry->async_wait([this, a, retry](boost::system::error_code) { Accept(a); });
        return;
      }
      Accept(a);
    });
  }

  // Rank for eviction, lower goes first; -1 never (a handler runs or its answer is written).
  // A connection that has sent nothing never outranks one making progress: first those
  // draining after an error, then kept-alive ones idle for a while, then silent new ones, then
  // requests that stalled (no byte for kProgressWindow), then kept-alive ones just answered
  // (their next request is likely on its way), and last requests whose bytes are arriving.
  static int EvictionRank(const Session& s, Clock::time_point now) {
    const bool recent = now - s.last_byte < kProgressWindow;
    switch (s.state) {
      case Session::State::kDrain:
        return 0;
      case Session::State::kIdle:
        if (s.served == 0) return 2;
        return now - s.since < kProgressWindow ? 4 : 1;
      case Session::State::kHead:
      case Session::State::kBody:
        return recent ? 5 : 3;
      default:
        return -1;
    }
  }

  // The least valuable connection (of `peer` only, when not empty), or null.
  Session* PickVictim(const std::string& peer) {
    Session* best = nullptr;
    int best_rank = 0;
    const auto now = Clock::now();
    for (auto& [raw, s] : sessions) {
      const int rank = EvictionRank(*s, now);
      if (rank < 0 || (!peer.empty() && s->peer != peer)) continue;
      if (best == nullptr || rank < best_rank || (rank == best_rank && s->since < best->since)) {
        best = s.get();
        best_rank = rank;
      }
    }
    return best;
  }

  std::string BusyBytes() const {
    Response res;
    res.SetError(503, "unavailable",
                 "server: " + std::to_string(options.max_connections) +
                     " connections open and all busy; try again",
                 "");
    res.Set("Retry-After", "1");
    return Serialize(res, false, false);
  }

  void Admit(tcp::socket sock) {
    boost::system::error_code ec;
    const tcp::endpoint remote = sock.remote_endpoint(ec);
    if (ec) return;
    std::string peer = remote.address().to_string();
    const bool client_full = per_client[peer] >= options.max_connections_per_client;
    const bool server_full = sessions.size() >= static_cast<size_t>(options.max_connections);
    if (client_full || server_full) {
      Session* victim = PickVictim(client_full ? peer : std::string());
      if (victim == nullptr) {
        if (!tls) {
          const std::string busy = BusyBytes();
          (void)!::send(sock.native_handle(), busy.data(), busy.size(),
                        MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        sock.shutdown(tcp::socket::shutdown_send, ec);
        sock.close(ec);
        if (per_client[peer] == 0) per_client.erase(peer);
        return;
      }
      if (victim->state != Session::State::kIdle || victim->served == 0) {
        victim->stream.SendNow(BusyBytes());
      }
      Close(FindSession(victim));
    }
    sock.set_option(tcp::no_delay(true), ec);
    auto s = std::make_shared<Session>(
        tls ? Stream(std::move(sock), *tls) : Stream(std::move(sock)), reader_limits);
    s->peer = std::move(peer);
    ++per_client[s->peer];
    s->since = Clock::now();
    s->last_byte = s->since - kProgressWindow;  // nothing received yet
    s->deadline = s->since + std::chrono::seconds(options.keep_alive_timeout_s);
    sessions.emplace(s.get(), s);
    if (!s->stream.tls()) {
      Read(s);
      return;
    }
    // The handshake counts against the keep-alive deadline of the first request (Sweep).
    s->stream.Handshake([this, s](boost::system::error_code hec) {
      if (s->state == Session::State::kClosed) return;
      if (hec) {
        Close(s);
        return;
      }
      Read(s);
    });
  }

  SessionPtr FindSession(Session* raw) {
    auto it = sessions.find(raw);
    return it == sessions.end() ? nullptr : it->second;
  }

  void Close(const SessionPtr& s) {
    if (s == nullptr || s->state == Session::State::kClosed) return;
    Uncharge(*s);
    s->state = Session::State::kClosed;
    boost::system::error_code ec;
    s->sock().close(ec);
    if (--per_client[s->peer] <= 0) per_client.erase(s->peer);
    sessions.erase(s.get());
    if (draining && sessions.empty()) ioc.stop();
  }

  void Read(const SessionPtr& s) {
    s->stream.ReadSome(s->buf.prepare(s->chunk), [this, s](boost::system::error_code ec, size_t n) {
      if (s->state == Session::State::kClosed) return;
      if (ec) {
        Close(s);
        return;
      }
      s->buf.commit(n);
      if (n > 0) s->last_byte = Clock::now();
      if (n == s->chunk) s->chunk = std::min(s->chunk * 2, kReadChunkMax);
      if (s->state == Session::State::kDrain) {
        s->buf.consume(s->buf.size());
        Read(s);
        return;
      }
      try {
        Process(s);
      } catch (const std::bad_alloc&) {
        // Out of memory while parsing or buffering this connection's request: it is told and
        // closed; the server and every other connection go on.
        ++stat_out_of_memory;
        FailOutOfMemory(s);
      }
    });
  }

  void FailOutOfMemory(const SessionPtr& s) {
    if (s->state == Session::State::kClosed) return;
    s->stream.SendNow(oom_bytes);
    Close(s);
  }

  // Feeds the received bytes to the parser and acts on what it framed.
  void Process(const SessionPtr& s) {
    for (;;) {
      const auto data = s->buf.data();
      size_t used = 0;
      const RequestReader::State st = s->reader.Feed(
          std::string_view(static_cast<const char*>(data.data()), data.size()), &used);
      s->buf.consume(used);
      const auto now = Clock::now();
      // The head's clock starts at its first byte, not when the parser first takes a line
      // (Beast takes none before the whole head is here).
      if (s->state == Session::State::kIdle && (s->reader.started() || s->buf.size() > 0)) {
        s->state = Session::State::kHead;
        s->since = now;
        s->deadline = now + std::chrono::seconds(options.header_timeout_s);
      }
      switch (st) {
        case RequestReader::State::kNeedMore:
          if (s->state == Session::State::kBody) {
            s->deadline =
                std::min(now + std::chrono::seconds(options.read_timeout_s), s->body_deadline);
          }
          Read(s);
          return;
        case RequestReader::State::kHead:
          s->state = Session::State::kBody;
          s->body_deadline = now + std::chrono::seconds(options.body_timeout_s);
          s->deadline =
              std::min(now + std::chrono::seconds(options.read_timeout_s), s->body_deadline);
          if (s->reader.request().expect_continue && s->buf.size() == 0) {
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            if (!s->stream.tls()) {
              s->stream.SendNow(kContinue);
            } else {
              // No read or write is pending here: write it, then go on reading the body.
              s->stream.Write(asio::buffer(kContinue.data(), kContinue.size()),
                              [this, s](boost::system::error_code wec, size_t) {
                                if (s->state == Session::State::kClosed) return;
                                if (wec) {
                                  Close(s);
                                } else {
                                  Process(s);
                                }
                              });
              return;
            }
          }
          continue;
        case RequestReader::State::kDone:
          Hand(s);
          return;
        case RequestReader::State::kError: {
          const HeadError& e = s->reader.error();
          Refuse(s, e.status, e.code, e.message, e.field, kDrainTime);
          return;
        }
      }
    }
  }

  // To a worker; the connection reads nothing more until the answer is written.
  void Hand(const SessionPtr& s) {
    s->state = Session::State::kHandler;
    s->log_start = s->since;
    s->log_method = s->reader.request().method;
    s->log_target = s->reader.target();
    Job job;
    job.session = s;
    job.req = std::move(s->reader.request());
    job.cancelled = MakeCancelCheck(s->sock().native_handle(),
                                    Clock::now() + std::chrono::seconds(options.request_timeout_s),
                                    &cancel_all);
    bool queued = false;
    {
      std::lock_guard<std::mutex> lock(work_mu);
      if (work.queued(s->peer) < options.max_queued_per_client) {
        work.Push(s->peer, std::move(job));
        stat_queued.store(work.size());
        queued = true;
      }
    }
    if (queued) {
      work_cv.notify_one();
      return;
    }
    // This client has enough requests waiting already: it is told to come back.
    ++stat_jobs_refused;
    Response busy;
    busy.SetError(503, "unavailable",
                  "server: " + std::to_string(options.max_queued_per_client) +
                      " requests of this client are waiting already; try again",
                  "");
    busy.Set("Retry-After", "1");
    Write(s, std::move(busy));
  }

  // ---- the write ceiling (I/O thread) ----

  // The bytes `s`'s answer would add to write_bytes: its head, and its body unless another
  // connection writing the same shared body counts it already.
  size_t WriteCost(const Session& s) const {
    size_t cost = s.out.size();
    if (s.out_body != nullptr && body_writers.count(s.out_body.get()) == 0) {
      cost += s.out_body->size();
    }
    return cost;
  }

  void Charge(Session& s) {
    write_bytes += WriteCost(s);
    if (s.out_body != nullptr) ++body_writers[s.out_body.get()];
    s.charged = true;
    stat_write_bytes.store(write_bytes);
    if (write_bytes > stat_write_peak.load()) stat_write_peak.store(write_bytes);
  }

  void Uncharge(Session& s) {
    if (!s.charged) return;
    s.charged = false;
    write_bytes -= s.out.size();
    if (s.out_body != nullptr) {
      auto it = body_writers.find(s.out_body.get());
      if (--it->second == 0) {
        write_bytes -= s.out_body->size();
        body_writers.erase(it);
      }
    }
    stat_write_bytes.store(write_bytes);
  }

  // Room for `s`'s answer under max_write_bytes: when it does not fit, the writers stuck longest
  // (writing for at least kProgressWindow: their readers are slow or gone) are closed, oldest
  // first, until it does. False when it still does not fit.
  bool MakeWriteRoom(const Session& s) {
    const auto now = Clock::now();
    while (write_bytes + WriteCost(s) > options.max_write_bytes) {
      Session* victim = nullptr;
      for (auto& [raw, other] : sessions) {
        if (other->state != Session::State::kWrite || !other->charged) continue;
        if (now - other->write_since < kProgressWindow) continue;
        if (victim == nullptr || other->write_since < victim->write_since) victim = other.get();
      }
      if (victim == nullptr) return false;
      ++stat_writers_evicted;
      Close(FindSession(victim));
    }
    return true;
  }

  // s->out and s->out_body for `res`: a shared body is written from where it is, any other
  // moves into a buffer of its own (never copied into the head's string).
  void SetOut(Session& s, Response res) {
    s.out = SerializeHead(res, s.keep);
    s.out_body = nullptr;
    if (s.log_method == "HEAD" || !HasBody(res)) return;
    if (res.shared != nullptr) {
      s.out_body = std::move(res.shared);
    } else if (!res.body.empty()) {
      s.out_body = std::make_shared<const std::string>(std::move(res.body));
    }
  }

  // Writes a handler's answer; then the next request on a kept-alive connection.
  void Write(const SessionPtr& s, Response res) {
    if (s->state != Session::State::kHandler) return;  // closed meanwhile
    ++s->served;
    s->keep = s->reader.request().keep_alive && s->served < options.keep_alive_max && !draining;
    s->log_status = res.status;
    try {
      SetOut(*s, std::move(res));
    } catch (const std::bad_alloc&) {
      ++stat_out_of_memory;
      FailOutOfMemory(s);
      return;
    }
    if (!MakeWriteRoom(*s)) {
      // Answers waiting for slow readers hold the whole budget: this one is refused (small).
      ++stat_write_refused;
      Response busy;
      busy.SetError(503, "unavailable",
                    "server: answers waiting for slow readers fill the write budget; try again",
                    "");
      busy.Set("Retry-After", "1");
      s->keep = false;
      s->log_status = 503;
      SetOut(*s, std::move(busy));
    }
    Charge(*s);
    s->state = Session::State::kWrite;
    s->write_since = Clock::now();
    s->deadline = s->write_since + std::chrono::seconds(options.write_timeout_s);
    std::array<asio::const_buffer, 2> bufs = {
        asio::buffer(s->out), s->out_body ? asio::buffer(*s->out_body) : asio::const_buffer()};
    s->stream.Write(bufs, [this, s](boost::system::error_code ec, size_t) {
      if (s->state == Session::State::kClosed) return;
      LogAccess(*s);
      Uncharge(*s);
      if (ec || !s->keep) {
        if (!ec) s->sock().shutdown(tcp::socket::shutdown_send, ec);
        Close(s);
        return;
      }
      s->out = std::string();
      s->out_body = nullptr;
      s->reader.Next();
      s->state = Session::State::kIdle;
      s->since = Clock::now();
      s->deadline = s->since + std::chrono::seconds(options.keep_alive_timeout_s);
      if (s->buf.size() == 0) {
        s->buf.shrink_to_fit();
        s->chunk = kReadChunkMin;
      }
      Process(s);
    });
  }

  // Answers an error without a handler, then reads and discards for `drain` before closing, so
  // that a client still sending its body reads the answer instead of a reset.
  void Refuse(const SessionPtr& s, int status, std::string_view code, std::string_view msg,
              std::string_view field, Clock::duration drain) {
    Response res;
    res.SetError(status, code, msg, field);
    s->log_status = status;
    s->log_start = s->since;
    s->log_method = s->reader.head_done() ? s->reader.request().method : "-";
    s->log_target = s->reader.head_done() ? s->reader.target() : "-";
    s->out = Serialize(res, false, false);
    s->out_body = nullptr;
    s->state = Session::State::kDrain;
    s->deadline = Clock::now() + drain;
    s->buf.consume(s->buf.size());
    s->stream.Write(asio::buffer(s->out), [this, s](boost::system::error_code ec, size_t) {
      if (s->state == Session::State::kClosed) return;
      LogAccess(*s);
      if (ec) {
        Close(s);
        return;
      }
      s->sock().shutdown(tcp::socket::shutdown_send, ec);
      Read(s);  // discards until EOF or the deadline
    });
  }

  // Every 100 ms: deadlines, and the end of a drain.
  void Sweep() {
    const auto now = Clock::now();
    if (draining && now >= drain_deadline) {
      cancel_all.store(true);
      CloseAll();
      ioc.stop();
      return;
    }
    std::vector<SessionPtr> late;
    for (auto& [raw, s] : sessions) {
      if (s->state != Session::State::kHandler && s->deadline <= now) late.push_back(s);
    }
    for (const SessionPtr& s : late) {
      if (s->state == Session::State::kHead) {
        Refuse(s, 408, "timeout",
               "request: the head did not arrive within " +
                   std::to_string(options.header_timeout_s) + " s",
               "headers", std::chrono::milliseconds(200));
      } else if (s->state == Session::State::kBody) {
        Refuse(s, 408, "timeout",
               now >= s->body_deadline
                   ? "body: not complete within " + std::to_string(options.body_timeout_s) + " s"
                   : "body: stalled for " + std::to_string(options.read_timeout_s) + " s",
               "body", std::chrono::milliseconds(200));
      } else {
        Close(s);
      }
    }
    sweep_timer.expires_after(std::chrono::milliseconds(100));
    sweep_timer.async_wait([this](boost::system::error_code ec) {
      if (!ec) Sweep();
    });
  }

  // Stop(): no new connections; answers being computed or written may finish until the drain
  // deadline; everything else closes now.
  void BeginDrain() {
    if (draining) return;
    draining = true;
    drain_deadline = Clock::now() + std::chrono::seconds(options.drain_timeout_s);
    boost::system::error_code ec;
    for (tcp::acceptor& a : acceptors) a.close(ec);
    std::vector<SessionPtr> idle;
    for (auto& [raw, s] : sessions) {
      if (s->state != Session::State::kHandler && s->state != Session::State::kWrite) {
        idle.push_back(s);
      }
    }
    for (const SessionPtr& s : idle) Close(s);
    if (sessions.empty()) ioc.stop();
  }

  void CloseAll() {
    std::vector<SessionPtr> all;
    all.reserve(sessions.size());
    for (auto& [raw, s] : sessions) all.push_back(s);
    for (const SessionPtr& s : all) Close(s);
  }
};

HttpServer::HttpServer(const ServeOptions& options, CatalogHolder* holder)
    : impl_(std::make_shared<Impl>()) {
  impl_->options = options;
  impl_->holder = holder;
  if (options.cache_entries > 0 && options.cache_bytes > 0) {
    impl_->cache = std::make_unique<ResponseCache>(options.cache_entries, options.cache_bytes);
  }
  impl_->reader_limits.head.max_header_bytes = options.max_header_bytes;
  impl_->reader_limits.head.max_headers = options.max_headers;
  impl_->reader_limits.max_body_bytes = options.max_body_bytes;
  Response oom;
  oom.SetError(503, "unavailable", "server: out of memory for this request; try again", "");
  oom.Set("Retry-After", "1");
  impl_->oom_bytes = Serialize(oom, false, false);
  // Checked on every address, not only loopback: a browser on this machine reaches a server
  // bound to 0.0.0.0 through 127.0.0.1 just as well, so rebinding works against it too.
  impl_->hosts = LoopbackHostNames();
  for (const std::string& h : options.allow_hosts) impl_->hosts.push_back(ToLower(h));
  impl_->origin_policy.cors_origin = options.cors_origin;
  impl_->origin_policy.tls = !options.tls_cert.empty();
}

HttpServer::~HttpServer() {
  Stop();
  if (impl_->access_log != nullptr && impl_->access_log != stdout) std::fclose(impl_->access_log);
}

Result<int> HttpServer::Bind() {
  (void)WebAssets();  // compress the page once, before the first request
  Impl& im = *impl_;
  const ServeOptions& o = im.options;
  // Each open connection is a descriptor: raise the soft limit (often 1024) toward the hard one.
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    const auto want = static_cast<rlim_t>(o.max_connections) + 64;
    if (lim.rlim_cur < want) {
      lim.rlim_cur = std::min(want, lim.rlim_max);
      ::setrlimit(RLIMIT_NOFILE, &lim);
    }
  }
  if (!o.access_log.empty() && im.access_log == nullptr) {
    if (o.access_log == "-") {
      im.access_log = stdout;
    } else {
      // As root in /tmp, another user's link is refused as --out refuses it (issue 43).
      Result<std::FILE*> f = OpenFileForAppend(o.access_log);
      if (!f.ok()) return f.status().WithPrefix("--access-log");
      im.access_log = *f;
    }
  }
  if (!o.tls_cert.empty() && im.tls == nullptr) {
    auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    boost::system::error_code tec;
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use,
                     tec);
    ctx->use_certificate_chain_file(o.tls_cert, tec);
    if (tec) return Status::IOError("--tls-cert: cannot load " + o.tls_cert + ": " + tec.message());
    ctx->use_private_key_file(o.tls_key, asio::ssl::context::pem, tec);
    if (tec) return Status::IOError("--tls-key: cannot load " + o.tls_key + ": " + tec.message());
    im.tls = std::move(ctx);
  }
  const auto fail = [&o] {
    return Status::IOError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                           " (address in use, or not an address of this machine)");
  };
  boost::system::error_code ec;
  tcp::resolver resolver(im.ioc);
  const std::string host = o.host.size() > 2 && o.host.front() == '[' && o.host.back() == ']'
                               ? o.host.substr(1, o.host.size() - 2)
                               : o.host;
  // Every address of the name, on one port; "localhost" is 127.0.0.1 and ::1 whatever
  // /etc/hosts says.
  std::vector<tcp::endpoint> endpoints;
  if (ToLower(host) == "localhost") {
    endpoints = {tcp::endpoint(asio::ip::address_v4::loopback(), 0),
                 tcp::endpoint(asio::ip::address_v6::loopback(), 0)};
  } else {
    const auto found = resolver.resolve(
        host, std::to_string(o.port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) return fail();
    for (const auto& entry : found) endpoints.push_back(entry.endpoint());
  }
  int port = o.port;
  std::vector<tcp::endpoint> bound;
  for (tcp::endpoint ep : endpoints) {
    ep.port(static_cast<unsigned short>(port));
    if (std::find(bound.begin(), bound.end(), ep) != bound.end()) continue;
    tcp::acceptor a(im.ioc);
    a.open(ep.protocol(), ec);
    if (ec) continue;
    a.set_option(asio::socket_base::reuse_address(true), ec);
    if (ep.address().is_v6() && !ep.address().is_unspecified()) {
      a.set_option(asio::ip::v6_only(true), ec);
    }
    a.bind(ep, ec);
    if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      // Another server on this port is an error; a family this machine lacks is not.
      if (ec == asio::error::address_in_use) return fail();
      continue;
    }
    port = a.local_endpoint().port();
    bound.push_back(ep);
    im.acceptors.push_back(std::move(a));
  }
  if (im.acceptors.empty()) return fail();
  im.port = port;
  return port;
}

Status HttpServer::Run() {
  Impl& im = *impl_;
  if (im.acceptors.empty()) return Status::IOError("serve: Run() before Bind()");
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(im.options.threads));
  for (int i = 0; i < im.options.threads; ++i) {
    // Each worker holds the server: one still in a handler past the drain deadline is left
    // behind and finishes on its own.
    workers.emplace_back([impl = impl_] { impl->WorkerLoop(); });
  }
  for (tcp::acceptor& a : im.acceptors) im.Accept(&a);
  im.Sweep();
  im.running.store(true);
  for (;;) {
    try {
      im.ioc.run();
      break;
    } catch (const std::bad_alloc&) {
      // Out of memory in a handler not caught nearer (accepting, a timer): that step is lost,
      // the deadlines close what it left; the server keeps serving.
      ++im.stat_out_of_memory;
    }
  }
  im.running.store(false);
  im.cancel_all.store(true);
  {
    std::unique_lock<std::mutex> lock(im.work_mu);
    im.work_done = true;
    im.work.Clear();
    im.work_cv.notify_all();
    // Handlers see cancelled() now; give them a moment to notice, then leave the rest.
    im.workers_cv.wait_for(lock, std::chrono::seconds(1),
                           [&] { return im.workers_done == im.options.threads; });
  }
  for (std::thread& t : workers) {
    bool done = false;
    {
      std::lock_guard<std::mutex> lock(im.work_mu);
      done = im.workers_done == im.options.threads;
    }
    if (done) {
      t.join();
    } else {
      t.detach();
    }
  }
  im.CloseAll();
  return Status::OK();
}

void HttpServer::Stop() {
  asio::post(impl_->ioc, [impl = impl_.get()] { impl->BeginDrain(); });
}

bool HttpServer::running() const { return impl_->running.load(); }

HttpServer::Stats HttpServer::stats() const {
  const Impl& im = *impl_;
  Stats out;
  out.write_bytes = im.stat_write_bytes.load();
  out.write_bytes_peak = im.stat_write_peak.load();
  out.write_refused = im.stat_write_refused.load();
  out.writers_evicted = im.stat_writers_evicted.load();
  out.jobs_queued = im.stat_queued.load();
  out.jobs_dropped = im.stat_jobs_dropped.load();
  out.jobs_refused = im.stat_jobs_refused.load();
  out.out_of_memory = im.stat_out_of_memory.load();
  return out;
}

std::function<bool()> MakeCancelCheck(int fd, std::chrono::steady_clock::time_point deadline,
                                      const std::atomic<bool>* cancel_all) {
  return [fd, deadline, cancel_all] {
    if (cancel_all != nullptr && cancel_all->load()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return true;
    // The client's half of the connection: EOF or an error means nobody waits for the answer.
    // MSG_PEEK leaves pipelined bytes for the I/O thread.
    char c;
    const ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0) return false;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return false;
    return true;
  };
}

bool CorsOriginValid(std::string_view origin) {
  if (origin.empty() || origin == "*") return true;
  std::string_view rest;
  if (StartsWith(origin, "http://")) {
    rest = origin.substr(7);
  } else if (StartsWith(origin, "https://")) {
    rest = origin.substr(8);
  } else {
    return false;
  }
  std::string_view host = rest;
  std::string_view allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-";
  if (!rest.empty() && rest.front() == '[') {  // [::1]:8080
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) return false;
    host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    allowed = "0123456789abcdefABCDEF:.";
  } else {
    host = rest.substr(0, rest.find(':'));
    rest = rest.substr(host.size());
  }
  if (host.empty() || host.find_first_not_of(allowed) != std::string_view::npos) return false;
  if (rest.empty()) return true;
  const std::string_view port = rest.substr(1);
  return rest.front() == ':' && !port.empty() && port.size() <= 5 &&
         port.find_first_not_of("0123456789") == std::string_view::npos &&
         std::stoi(std::string(port)) <= 65535;
}

Result<ServeOptions> CheckServeOptions(const ServeOptions& o) {
  if (o.host.empty()) return Status::InvalidArgument("--host: expected an address");
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    return Status::InvalidArgument(o.tls_cert.empty() ? "--tls-cert: required with --tls-key"
                                                      : "--tls-key: required with --tls-cert");
  }
  if (!CorsOriginValid(o.cors_origin)) {
    return Status::InvalidArgument(
        "--cors: expected * or one origin scheme://host[:port] (http or https, no path), got \"" +
        TerminalSafe(o.cors_origin) + "\"");
  }
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
