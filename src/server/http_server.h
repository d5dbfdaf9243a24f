// The HTTP front end of `gpuadvisor serve`: a small HTTP/1.1 server of our own (no cpp-httplib
// here) with limits and deadlines around the API (server/api.h) and the embedded web page
// (server/web_assets.h).
//
// Model: one reactor thread owns the listening socket and every idle or partly-read connection
// (non-blocking sockets, epoll). It reads each request's head and body into the connection's
// buffer, enforcing the limits (header bytes and count, body size) and the deadlines (the first
// byte within keep_alive_timeout_s, the whole head within header_timeout_s however slowly it
// drips, then body bytes at least every read_timeout_s). Only a complete request is handed to
// the pool of `threads` workers; the worker runs the handler, writes the response (write
// deadline write_timeout_s) and gives a keep-alive connection back to the reactor. So an idle or
// slow client costs a file descriptor and a buffer, never a worker: up to max_connections
// connections may be open whatever the pool size; the next one gets 503 and is closed.
//
// Host allow-list (DNS rebinding), on every bound address: a Host header naming anything but an
// IP literal, localhost or an --allow-host name (with the bound port, if a port is given) gets
// 421. Cross-site guard: a state-changing request from another site's page is 403, a POST body
// of a type a page may send cross-site without a preflight is 415 (CheckCrossSite).
#ifndef GPUADVISOR_SERVER_HTTP_SERVER_H_
#define GPUADVISOR_SERVER_HTTP_SERVER_H_

#include <cstddef>
#include <memory>
#include <string>
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
  int max_connections = 1024;    // open at once (idle ones included); more get 503
  std::string cors_origin;       // "" = no CORS headers (default); "*" or an origin to allow
  std::vector<std::string> allow_hosts;  // Host names answered besides the loopback ones
  int max_price_age_days = 90;
  size_t cache_entries = 256;     // answers of estimate/recommend/pricing kept (LRU); 0 = none
  size_t cache_bytes = 64 << 20;  // and at most this many bytes of them
};

class HttpServer {
 public:
  // `holder` must outlive the server.
  HttpServer(const ServeOptions& options, CatalogHolder* holder);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the listening socket. Returns the port (useful with port 0). IOError naming
  // host:port when the address cannot be bound.
  Result<int> Bind();
  // Serves until Stop() (from any thread). REQUIRES: Bind() succeeded.
  Status Run();
  void Stop();
  // REQUIRES: Bind() succeeded. True once Run() accepts connections.
  bool running() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Returns a copy of `o` with defaults applied and checked: InvalidArgument naming the option
// (threads outside 1..1024, port outside 0..65535, zero timeouts, ...). Host names in
// allow_hosts are lower-cased.
Result<ServeOptions> CheckServeOptions(const ServeOptions& o);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_SERVER_H_
