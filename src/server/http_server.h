// The HTTP front end of `gpuadvisor serve`: cpp-httplib with limits and timeouts around the API
// (server/api.h) and the embedded web page (server/web_assets.h).
//
// Model: one listening socket; a pool of `threads` workers, each serving one connection at a
// time (cpp-httplib's model: a keep-alive connection holds its worker until it closes, goes
// idle for keep_alive_timeout_s, or has served keep_alive_max requests). Connections beyond
// the pool wait in the accept queue. Idle or slow clients are cut off by the read timeout.
#ifndef GPUADVISOR_SERVER_HTTP_SERVER_H_
#define GPUADVISOR_SERVER_HTTP_SERVER_H_

#include <cstddef>
#include <memory>
#include <string>

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
  int read_timeout_s = 5;              // a request must keep arriving (slowloris guard)
  int write_timeout_s = 5;
  int keep_alive_timeout_s = 5;
  int keep_alive_max = 100;  // requests per connection before it is closed
  std::string cors_origin;   // "" = no CORS headers (default); "*" or an origin to allow
  int max_price_age_days = 90;
  size_t cache_entries = 256;  // answers of estimate/recommend/pricing kept (LRU); 0 = none
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
// (threads outside 1..1024, port outside 0..65535, zero timeouts, ...).
Result<ServeOptions> CheckServeOptions(const ServeOptions& o);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_SERVER_H_
