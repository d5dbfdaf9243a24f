// The HTTP front end of `gpuadvisor serve` on Boost.Asio, with Boost.Beast framing the requests
// (server/http_reader.h), limits and deadlines around the API (server/api.h) and the embedded
// web page (server/web_assets.h).
//
// Model: one I/O thread owns the listening sockets and every connection. It reads each request
// (head, then a Content-Length or chunked body) into the connection's parser, enforcing the
// limits (header bytes and count, target length, body size) and the deadlines (the first byte
// within keep_alive_timeout_s, the whole head within header_timeout_s however slowly it drips,
// body bytes at least every read_timeout_s and the whole body within body_timeout_s). Only a
// complete request is handed to the pool of `threads` workers; the worker runs the handler and
// posts the answer back to the I/O thread, which writes it (write deadline write_timeout_s) and
// reads the connection's next request. So an idle or slow client costs a descriptor and a few
// KB, never a worker.
//
// Slow clients: up to max_connections connections (max_connections_per_client from one
// address). A connection past either bound closes the least valuable open one (of that client,
// for the per-client bound) instead of being refused: a connection in its drain after an error,
// then one kept alive after an answer, then the one that began its request (or connected)
// longest ago; connections whose handler runs or whose answer is being written are never
// closed. Only when every one is busy so does the new one get 503. So a flood of slow or idle
// sockets from one address, even the victim's own, cannot lock a new request out.
//
// Stop(): the listeners close, idle and half-read connections close, requests being answered
// may finish for drain_timeout_s; then every request's ApiContext::cancelled turns true, the
// connections close and Run() returns (a handler that ignores cancelled is left to finish on
// its own thread).
//
// Host allow-list (DNS rebinding), on every bound address: a Host header naming anything but an
// IP literal, localhost or an --allow-host name (with the bound port, if a port is given) gets
// 421. Cross-site guard: a state-changing request from another site's page is 403, a POST body
// of a type a page may send cross-site without a preflight is 415 (CheckCrossSite).
#ifndef GPUADVISOR_SERVER_HTTP_SERVER_H_
#define GPUADVISOR_SERVER_HTTP_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/result.h"
#include "server/api.h"

namespace gpuadvisor::server {

struct ServeOptions {
  std::string host = "127.0.0.1";      // loopback unless the user says otherwise
  int port = 8080;                     // 0 = any free port (tests)
  int threads = 16;                    // worker pool size, 1..1024
  size_t max_body_bytes = 1 << 20;     // larger request bodies get 413
  size_t max_header_bytes = 16 << 10;  // all header lines together; larger get 431
  int max_headers = 64;                // header count; more get 431
  int read_timeout_s = 5;              // longest pause between body bytes
  int write_timeout_s = 5;
  int keep_alive_timeout_s = 5;  // longest wait for a request's first byte
  int header_timeout_s = 10;     // the whole head, from its first byte (slowloris guard)
  int keep_alive_max = 100;      // requests per connection before it is closed
  int max_connections = 1024;    // open at once (idle ones included); see the eviction above
  int max_connections_per_client = 256;  // open at once from one client address
  int body_timeout_s = 30;     // the whole body, from the end of the head, however it drips
  int request_timeout_s = 60;  // a handler's wall-time ceiling: then ApiContext::cancelled
  int drain_timeout_s = 10;    // after Stop(), in-flight requests may finish for this long
  std::string access_log;      // "" = off, "-" = standard output, else a file appended to
  std::string tls_cert;        // PEM certificate chain: serve HTTPS (with tls_key); "" = HTTP
  std::string tls_key;         // PEM private key of tls_cert
  std::string cors_origin;     // "" = no CORS headers (default); "*" or an origin to allow
  std::vector<std::string> allow_hosts;  // Host names answered besides the loopback ones
  int max_price_age_days = 90;
  size_t cache_entries = 256;     // answers of estimate/recommend/pricing kept (LRU); 0 = none
  size_t cache_bytes = 64 << 20;  // and at most this many bytes of them
  // Settings the front end reads from its environment once, at start:
  std::vector<HttpUrl> prometheus_allowed;  // Prometheus URLs requests may name; empty: none
  std::function<std::string()> today;       // the UTC date "YYYY-MM-DD"; null: the clock's
};

class HttpServer {
 public:
  // `holder` must outlive the server.
  HttpServer(const ServeOptions& options, CatalogHolder* holder);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the listening sockets (and loads the TLS certificate and key, if given). Returns the
  // port (useful with port 0). IOError naming host:port when the address cannot be bound, or
  // naming --tls-cert / --tls-key when they cannot be loaded.
  Result<int> Bind();
  // Serves until Stop() (from any thread). REQUIRES: Bind() succeeded.
  Status Run();
  void Stop();
  // REQUIRES: Bind() succeeded. True once Run() accepts connections.
  bool running() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;  // shared with the workers (one may outlive a drain)
};

// Returns a copy of `o` with defaults applied and checked: InvalidArgument naming the option
// (threads outside 1..1024, port outside 0..65535, zero timeouts, ...). Host names in
// allow_hosts are lower-cased.
Result<ServeOptions> CheckServeOptions(const ServeOptions& o);

// True for "" (CORS off), "*" and one origin "http[s]://host[:port]" (host a name, an IPv4
// address or a bracketed IPv6 one; no path, user, whitespace or control characters): what
// may follow "Access-Control-Allow-Origin: " in a response.
bool CorsOriginValid(std::string_view origin);

// The ApiContext::cancelled installed for a request read from socket `fd`: true once the
// client has closed or reset its side of `fd` (a non-blocking MSG_PEEK; pipelined bytes are
// left in place), `deadline` has passed, or *cancel_all is true (may be null). Safe to call
// from any thread while `fd` is open.
std::function<bool()> MakeCancelCheck(int fd, std::chrono::steady_clock::time_point deadline,
                                      const std::atomic<bool>* cancel_all);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_SERVER_H_
