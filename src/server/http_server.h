// The HTTP front end of `gpuadvisor serve` on Boost.Asio, with Boost.Beast framing the requests
// (server/http_reader.h) and writing the responses (http::response, http::async_write), the
// server's policy (server/guards.h), limits and deadlines around the API (server/api.h) and
// the embedded web page (server/web_assets.h).
//
// Model: one I/O thread owns the listening sockets and every connection. It reads each request
// (head, then a Content-Length or chunked body) into the connection's parser, enforcing the
// limits (header bytes and count, target length, body size) and the deadlines (the first byte
// within keep_alive_timeout_s, the whole head within header_timeout_s however slowly it drips,
// body bytes at least every read_timeout_s and the whole body within body_timeout_s), each
// connection's deadline held by a timer of its own (no sweep over every connection). Only a
// complete request is handed to the pool of `threads` workers (server/worker_pool.h); the worker
// runs the handler and posts the answer back to the I/O thread, which writes it (write deadline
// write_timeout_s) and reads the connection's next request. So an idle or slow client costs a
// descriptor and a few KB, never a worker.
//
// Slow clients: up to max_connections connections (max_connections_per_client from one
// address). A connection past either bound closes the least valuable open one (of that client,
// for the per-client bound) instead of being refused: a connection in its drain after an error,
// then one kept alive and idle for a second, then a silent new one, then a request stalled for
// a second, then one answered less than a second ago, and last a request whose bytes are
// arriving; connections whose handler runs or whose answer is being written are never closed.
// Only when every one is busy so does the new one get 503. So a flood of slow, idle or silent
// sockets from one address, even the victim's own, cannot lock a new request out or break an
// upload in progress.
//
// Memory and work (doc/server.md, "Threat model"): chunk extensions and trailers are bounded
// (http_reader.h); a cached answer is one shared string however many connections write it, and
// the bytes of all answers being written stay under max_write_bytes; complete requests wait in
// one FIFO per client address, served in turn, at most max_queued_per_client each; a request
// whose client has gone is dropped when its turn comes; std::bad_alloc while reading, handling
// or writing one request fails that request (503), not the server.
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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/serve.h"
#include "gpuadvisor/result.h"
#include "server/api.h"

namespace gpuadvisor::server {

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

  // What the server holds and has refused, for tests and the load test (any thread).
  struct Stats {
    size_t write_bytes = 0;        // held by answers being written now (a shared body once)
    size_t write_bytes_peak = 0;   // the most write_bytes has been
    uint64_t write_refused = 0;    // answers refused 503 under max_write_bytes
    uint64_t writers_evicted = 0;  // stuck writers closed to make room under it
    size_t jobs_queued = 0;        // complete requests waiting for a worker
    uint64_t jobs_dropped = 0;     // queued requests not run: their client had gone (or timed out)
    uint64_t jobs_refused = 0;     // 503: the client had max_queued_per_client waiting already
    uint64_t out_of_memory = 0;    // requests answered 503 (or closed) for std::bad_alloc
  };
  Stats stats() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;  // shared with the workers (one may outlive a drain)
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_SERVER_H_
