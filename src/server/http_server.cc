#include "server/http_server.h"

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/write.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "gpuadvisor/query.h"
#include "server/access_log.h"
#include "server/admission.h"
#include "server/http_reader.h"
#include "server/responder.h"
#include "server/sockets.h"
#include "server/web_assets.h"
#include "server/worker_pool.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::server {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

// After an error answer the connection is read and discarded this long before it is closed,
// so that the client, still sending its body, reads the answer instead of a reset.
constexpr auto kDrainTime = std::chrono::seconds(2);
// Reads start this small (a silent or trickling client costs little) and double while they
// fill the buffer, up to the max.
constexpr size_t kReadChunkMin = 4 << 10;
constexpr size_t kReadChunkMax = 64 << 10;

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
  // op(stream) on whichever stream this is: an Asio or Beast async operation.
  template <class Op>
  void Do(Op&& op) {
    if (tls_) {
      op(*tls_);
    } else {
      op(*plain_);
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
  using State = ConnectionState;
  Session(Stream s, const ReaderLimits& limits, asio::io_context& ioc)
      : stream(std::move(s)), reader(limits), timer(ioc) {}
  Stream stream;
  tcp::socket& sock() { return stream.socket(); }
  std::string peer;               // client address, for the per-client cap and logs
  boost::beast::flat_buffer buf;  // received, not yet parsed
  size_t chunk = kReadChunkMin;   // next read size: grows while reads fill it
  RequestReader reader;
  State state = State::kIdle;
  // The current state's deadline, and the timer that enforces it (see SetDeadline).
  Clock::time_point deadline;
  asio::steady_timer timer;
  bool armed = false;               // a wait on `timer` is pending
  Clock::time_point body_deadline;  // the whole body by then (--body-timeout)
  Clock::time_point since;          // accepted, or the current request's first byte
  Clock::time_point last_byte;      // the last read that brought bytes (eviction: progress)
  int served = 0;                   // responses written
  bool head_only = false;           // the request being answered is a HEAD
  // The response being written. Its body may be shared with the response cache and every
  // other connection writing the same answer.
  Response out;
  size_t out_head = 0;            // HeadBytes(out)
  bool charged = false;           // out counts against the write ceiling
  Clock::time_point write_since;  // when the answer's write began
  // For the access log: what the response being written answers.
  std::string log_method, log_target;
  Clock::time_point log_start;
};
using SessionPtr = std::shared_ptr<Session>;

}  // namespace

struct HttpServer::Impl {
  ServeOptions options;
  CatalogHolder* holder = nullptr;
  std::unique_ptr<ResponseCache> cache;
  ReaderLimits reader_limits;
  std::optional<Responder> responder;       // made by Bind(), once the port is known
  AccessLog access_log;                     // --access-log
  std::unique_ptr<asio::ssl::context> tls;  // --tls-cert/--tls-key; null = plain HTTP
  std::atomic<bool> running{false};
  std::atomic<bool> cancel_all{false};  // every request's cancelled() is true (drain is over)

  // Complete requests waiting for a worker, and the workers (made by the constructor).
  std::unique_ptr<WorkerPool> pool;

  // The I/O thread's; everything below is touched only on it.
  asio::io_context ioc{1};
  std::vector<tcp::acceptor> acceptors;
  asio::steady_timer drain_timer{ioc};
  std::unordered_map<Session*, SessionPtr> sessions;
  std::unordered_map<std::string, int> per_client;  // open connections per client address
  bool draining = false;
  // Bytes held by answers being written, against options.max_write_bytes.
  WriteBudget budget{0};
  // The 503s sent without a handler, made once: when memory runs out (before it does), and to
  // a connection past the bounds when every open one is busy (a flood of them costs no JSON).
  std::string oom_bytes, busy_bytes;

  // Figures for Stats() (any thread).
  std::atomic<size_t> stat_write_bytes{0}, stat_write_peak{0};
  std::atomic<uint64_t> stat_out_of_memory{0};  // the transport's; the responder counts its own
  std::atomic<uint64_t> stat_write_refused{0}, stat_writers_evicted{0}, stat_jobs_dropped{0},
      stat_jobs_refused{0};

  void LogAccess(const Session& s, size_t bytes) {
    if (!access_log.open()) return;
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - s.log_start).count();
    access_log.Write(s.peer, s.log_method, s.log_target, s.out.result_int(), bytes, ms);
  }

  // ---- workers ----

  // On a worker: answers `req`, then posts the answer to the I/O thread to write.
  void Work(const SessionPtr& s, HttpRequest req, const std::function<bool()>& cancelled) {
    std::shared_ptr<Response> res;
    try {
      if (cancelled()) {
        // Nobody waits for it any more (the client closed, its wall time passed while it
        // queued, or the server drains): dropped, not run. A client still there is told.
        ++stat_jobs_dropped;
        res = std::make_shared<Response>(ErrorAnswer(
            503, "unavailable",
            "server: the request was not started in time (" +
                std::to_string(options.request_timeout_s) + " s) or is no longer wanted; try again",
            "", true));
      } else {
        res = std::make_shared<Response>(responder->Answer(req, &cancelled));
      }
    } catch (const std::bad_alloc&) {
      ++stat_out_of_memory;
      res = nullptr;  // the I/O thread closes the connection
    }
    req = HttpRequest();  // the body goes now, not when the answer is written
    asio::post(ioc, [this, s, res] {
      if (res == nullptr) {
        FailOutOfMemory(s);
      } else {
        Write(s, std::move(*res));
      }
    });
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

  // The least valuable connection (of `peer` only, when not empty), or null. One that looks
  // silent or stalled but whose bytes wait in the kernel, unread while this thread accepted
  // others, is speaking: it is passed over (its last byte is now), a few times at most.
  Session* PickVictim(const std::string& peer) {
    const auto now = Clock::now();
    for (int peeks = 0; peeks < 4; ++peeks) {
      Session* s = LeastValuable(peer, now);
      int waiting = 0;
      if (s == nullptr || s->state == Session::State::kDrain ||
          ::ioctl(s->sock().native_handle(), FIONREAD, &waiting) != 0 || waiting == 0) {
        return s;
      }
      s->last_byte = now;
    }
    return LeastValuable(peer, now);
  }

  Session* LeastValuable(const std::string& peer, Clock::time_point now) {
    Session* best = nullptr;
    int best_rank = 0;
    for (auto& [raw, s] : sessions) {
      const int rank = EvictionRank(s->state, s->served, s->since, s->last_byte, now);
      if (rank < 0 || (!peer.empty() && s->peer != peer)) continue;
      if (best == nullptr || rank < best_rank || (rank == best_rank && s->since < best->since)) {
        best = s.get();
        best_rank = rank;
      }
    }
    return best;
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
          (void)!::send(sock.native_handle(), busy_bytes.data(), busy_bytes.size(),
                        MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        sock.shutdown(tcp::socket::shutdown_send, ec);
        sock.close(ec);
        if (per_client[peer] == 0) per_client.erase(peer);
        return;
      }
      if (victim->state != Session::State::kIdle || victim->served == 0) {
        victim->stream.SendNow(busy_bytes);
      }
      Close(FindSession(victim));
    }
    sock.set_option(tcp::no_delay(true), ec);
    auto s = std::make_shared<Session>(
        tls ? Stream(std::move(sock), *tls) : Stream(std::move(sock)), reader_limits, ioc);
    s->peer = std::move(peer);
    ++per_client[s->peer];
    s->since = Clock::now();
    s->last_byte = s->since - kProgressWindow;  // nothing received yet
    sessions.emplace(s.get(), s);
    SetDeadline(s, s->since + std::chrono::seconds(options.keep_alive_timeout_s));
    if (!s->stream.tls()) {
      Read(s);
      return;
    }
    // The handshake counts against the keep-alive deadline of the first request.
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
    s->timer.cancel();
    boost::system::error_code ec;
    s->sock().close(ec);
    if (--per_client[s->peer] <= 0) per_client.erase(s->peer);
    sessions.erase(s.get());
    if (draining && sessions.empty()) ioc.stop();
  }

  // ---- deadlines (I/O thread) ----

  // `s` must reach its next step by `deadline`, or Expire() ends it. One timer per connection,
  // armed only when the deadline comes sooner than its wait: a deadline pushed later (a body's
  // bytes arriving) costs no timer operation; the wait, when it ends, looks again.
  void SetDeadline(const SessionPtr& s, Clock::time_point deadline) {
    s->deadline = deadline;
    if (s->armed && s->timer.expiry() <= deadline) return;
    s->armed = true;
    s->timer.expires_at(deadline);
    s->timer.async_wait([this, s](boost::system::error_code ec) {
      if (ec || s->state == Session::State::kClosed) return;  // re-armed, or closed
      s->armed = false;
      // A worker's request has no deadline here: ApiContext::cancelled ends it.
      if (s->state == Session::State::kHandler) return;
      if (Clock::now() < s->deadline) {
        SetDeadline(s, s->deadline);
      } else {
        Expire(s);
      }
    });
  }

  void Expire(const SessionPtr& s) {
    if (s->state == Session::State::kHead) {
      Refuse(s, 408, "timeout",
             "request: the head did not arrive within " + std::to_string(options.header_timeout_s) +
                 " s",
             "headers", std::chrono::milliseconds(200));
    } else if (s->state == Session::State::kBody) {
      Refuse(s, 408, "timeout",
             Clock::now() >= s->body_deadline
                 ? "body: not complete within " + std::to_string(options.body_timeout_s) + " s"
                 : "body: stalled for " + std::to_string(options.read_timeout_s) + " s",
             "body", std::chrono::milliseconds(200));
    } else {
      Close(s);
    }
  }

  // ---- reading (I/O thread) ----

  void Read(const SessionPtr& s) {
    s->stream.Do([&](auto& stream) {
      stream.async_read_some(s->buf.prepare(s->chunk),
                             [this, s](boost::system::error_code ec, size_t n) {
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
                                 // Out of memory while parsing or buffering this connection's
                                 // request: it is told and closed; the server and every other
                                 // connection go on.
                                 ++stat_out_of_memory;
                                 FailOutOfMemory(s);
                               }
                             });
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
        SetDeadline(s, now + std::chrono::seconds(options.header_timeout_s));
      }
      switch (st) {
        case RequestReader::State::kNeedMore:
          if (s->state == Session::State::kBody) {
            SetDeadline(
                s, std::min(now + std::chrono::seconds(options.read_timeout_s), s->body_deadline));
          }
          Read(s);
          return;
        case RequestReader::State::kHead:
          s->state = Session::State::kBody;
          s->body_deadline = now + std::chrono::seconds(options.body_timeout_s);
          SetDeadline(
              s, std::min(now + std::chrono::seconds(options.read_timeout_s), s->body_deadline));
          if (s->reader.request().expect_continue && s->buf.size() == 0) {
            // No read or write is pending here: write it, then go on reading the body.
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            s->stream.Do([&](auto& stream) {
              asio::async_write(stream, asio::buffer(kContinue.data(), kContinue.size()),
                                [this, s](boost::system::error_code ec, size_t) {
                                  if (s->state == Session::State::kClosed) return;
                                  if (ec) {
                                    Close(s);
                                  } else {
                                    Process(s);
                                  }
                                });
            });
            return;
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
    s->head_only = s->log_method == "HEAD";
    auto cancelled = MakeCancelCheck(s->sock().native_handle(),
                                     Clock::now() + std::chrono::seconds(options.request_timeout_s),
                                     &cancel_all);
    if (pool->Submit(s->peer, [this, s, req = std::move(s->reader.request()),
                               cancelled = std::move(cancelled)]() mutable {
          Work(s, std::move(req), cancelled);
        })) {
      return;
    }
    // This client has enough requests waiting already: it is told to come back.
    ++stat_jobs_refused;
    Write(s, ErrorAnswer(503, "unavailable",
                         "server: " + std::to_string(options.max_queued_per_client) +
                             " requests of this client are waiting already; try again",
                         "", true));
  }

  // ---- the write ceiling (I/O thread) ----

  void Charge(Session& s) {
    budget.Charge(s.out_head, s.out.body().get());
    s.charged = true;
    stat_write_bytes.store(budget.bytes());
    if (budget.bytes() > stat_write_peak.load()) stat_write_peak.store(budget.bytes());
  }

  void Uncharge(Session& s) {
    if (!s.charged) return;
    s.charged = false;
    budget.Uncharge(s.out_head, s.out.body().get());
    stat_write_bytes.store(budget.bytes());
  }

  // Room for `s`'s answer under max_write_bytes: when it does not fit, the writers stuck longest
  // (writing for at least kProgressWindow: their readers are slow or gone) are closed, oldest
  // first, until it does. False when it still does not fit.
  bool MakeWriteRoom(const Session& s) {
    const auto now = Clock::now();
    while (!budget.Fits(s.out_head, s.out.body().get())) {
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

  // s->out is `res`, finished for this connection; its body is written from where it is (a
  // cached answer's bytes shared, never copied).
  void SetOut(Session& s, Response res, bool keep_alive) {
    Finish(res, keep_alive, s.head_only);
    s.out = std::move(res);
    s.out_head = HeadBytes(s.out);
  }

  // Writes a handler's answer; then the next request on a kept-alive connection.
  void Write(const SessionPtr& s, Response res) {
    if (s->state != Session::State::kHandler) return;  // closed meanwhile
    ++s->served;
    const bool keep =
        s->reader.request().keep_alive && s->served < options.keep_alive_max && !draining;
    try {
      SetOut(*s, std::move(res), keep);
    } catch (const std::bad_alloc&) {
      ++stat_out_of_memory;
      FailOutOfMemory(s);
      return;
    }
    if (!MakeWriteRoom(*s)) {
      // Answers waiting for slow readers hold the whole budget: this one is refused (small).
      ++stat_write_refused;
      SetOut(
          *s,
          ErrorAnswer(503, "unavailable",
                      "server: answers waiting for slow readers fill the write budget; try again",
                      "", true),
          false);
    }
    Charge(*s);
    s->state = Session::State::kWrite;
    s->write_since = Clock::now();
    SetDeadline(s, s->write_since + std::chrono::seconds(options.write_timeout_s));
    s->stream.Do([&](auto& stream) {
      http::async_write(stream, s->out, [this, s](boost::system::error_code ec, size_t n) {
        if (s->state == Session::State::kClosed) return;
        LogAccess(*s, n);
        Uncharge(*s);
        if (ec || !s->out.keep_alive()) {
          if (!ec) s->sock().shutdown(tcp::socket::shutdown_send, ec);
          Close(s);
          return;
        }
        s->out = Response();
        s->reader.Next();
        s->state = Session::State::kIdle;
        s->since = Clock::now();
        SetDeadline(s, s->since + std::chrono::seconds(options.keep_alive_timeout_s));
        if (s->buf.size() == 0) {
          s->buf.shrink_to_fit();
          s->chunk = kReadChunkMin;
        }
        Process(s);
      });
    });
  }

  // Answers an error without a handler, then reads and discards for `drain` before closing, so
  // that a client still sending its body reads the answer instead of a reset.
  void Refuse(const SessionPtr& s, int status, std::string_view code, std::string_view msg,
              std::string_view field, Clock::duration drain) {
    s->log_start = s->since;
    s->log_method = s->reader.head_done() ? s->reader.request().method : "-";
    s->log_target = s->reader.head_done() ? s->reader.target() : "-";
    s->head_only = false;
    SetOut(*s, ErrorAnswer(status, code, msg, field), false);
    s->state = Session::State::kDrain;
    SetDeadline(s, Clock::now() + drain);
    s->buf.consume(s->buf.size());
    s->stream.Do([&](auto& stream) {
      http::async_write(stream, s->out, [this, s](boost::system::error_code ec, size_t n) {
        if (s->state == Session::State::kClosed) return;
        LogAccess(*s, n);
        if (ec) {
          Close(s);
          return;
        }
        s->sock().shutdown(tcp::socket::shutdown_send, ec);
        Read(s);  // discards until EOF or the deadline
      });
    });
  }

  // Stop(): no new connections; answers being computed or written may finish until the drain
  // deadline; everything else closes now.
  void BeginDrain() {
    if (draining) return;
    draining = true;
    drain_timer.expires_after(std::chrono::seconds(options.drain_timeout_s));
    drain_timer.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      cancel_all.store(true);
      CloseAll();
      ioc.stop();
    });
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
  impl_->budget = WriteBudget(options.max_write_bytes);
  impl_->pool = std::make_unique<WorkerPool>(static_cast<size_t>(options.max_queued_per_client));
  impl_->oom_bytes = Bytes(ErrorAnswer(
      503, "unavailable", "server: out of memory for this request; try again", "", true));
  impl_->busy_bytes = Bytes(ErrorAnswer(503, "unavailable",
                                        "server: " + std::to_string(options.max_connections) +
                                            " connections open and all busy; try again",
                                        "", true));
}

HttpServer::~HttpServer() { Stop(); }

Result<int> HttpServer::Bind() {
  (void)WebAssets();  // compress the page once, before the first request
  Impl& im = *impl_;
  const ServeOptions& o = im.options;
  // Each open connection is a descriptor.
  RaiseDescriptorLimit(static_cast<size_t>(o.max_connections) + 64);
  if (!o.access_log.empty() && !im.access_log.open()) {
    if (Status st = im.access_log.Open(o.access_log); !st.ok()) return st;
  }
  if (!o.tls_cert.empty() && im.tls == nullptr) {
    auto ctx = MakeTlsContext(o.tls_cert, o.tls_key);
    if (!ctx.ok()) return ctx.status();
    im.tls = std::move(*ctx);
  }
  Result<int> port = Listen(im.ioc, o.host, o.port, &im.acceptors);
  if (!port.ok()) return port.status();
  im.responder.emplace(o, im.holder, im.cache.get(), *port);
  return port;
}
Status HttpServer::Run() {
  Impl& im = *impl_;
  if (im.acceptors.empty()) return Status::IOError("serve: Run() before Bind()");
  // Each worker holds the server: one still in a handler past the drain deadline is left
  // behind and finishes on its own.
  im.pool->Start(im.options.threads, impl_);
  for (tcp::acceptor& a : im.acceptors) im.Accept(&a);
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
  // Handlers see cancelled() now; they get a moment to notice, then the rest are left.
  im.pool->Stop(std::chrono::seconds(1));
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
  out.jobs_queued = im.pool->queued();
  out.jobs_dropped = im.stat_jobs_dropped.load();
  out.jobs_refused = im.stat_jobs_refused.load();
  out.out_of_memory =
      im.stat_out_of_memory.load() + (im.responder ? im.responder->out_of_memory() : 0);
  return out;
}

}  // namespace gpuadvisor::server
