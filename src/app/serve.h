// The settings of `gpuadvisor serve`'s HTTP server (server/http_server.h) and the options that
// fill them (fields.h).
#ifndef GPUADVISOR_APP_SERVE_H_
#define GPUADVISOR_APP_SERVE_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/views.h"
#include "gpuadvisor/account.h"
#include "gpuadvisor/fields.h"
#include "util/url.h"

namespace gpuadvisor::server {

struct ServeOptions {
  std::string host = "127.0.0.1";      // loopback unless the user says otherwise
  int port = 8080;                     // 0 = any free port (tests)
  int threads = 16;                    // worker pool size, 1..1024
  size_t max_body_bytes = 1000000;     // larger request bodies get 413
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
  size_t cache_entries = 256;       // answers of estimate/recommend/pricing kept (LRU); 0 = none
  size_t cache_bytes = 64'000'000;  // and at most this many bytes of them
  // Bytes held by answers being written at once (each shared cached answer counted once);
  // past it stuck writers are closed, else the new answer is 503.
  size_t max_write_bytes = 128'000'000;
  size_t max_queued_per_client = 64;  // requests of one client address waiting for a worker
  // Settings the front end reads from its environment once, at start:
  std::vector<HttpUrl> prometheus_allowed;  // Prometheus URLs requests may name; empty: none
  std::function<std::string()> today;       // the UTC date "YYYY-MM-DD"; null: the clock's
  // The account scan --account named (read once at start; never a file a client names): what
  // GET /v1/account answers and /v1/recommend checks plans against. Null: none.
  std::shared_ptr<const AccountScan> account;
};

// `serve`'s options (fields.h). --timeout sets the read timeout; the write and keep-alive
// timeouts follow it (TimeoutsFollowRead).
template <typename V>
void DeclareOptions(V& v, ServeOptions& o) {
  constexpr double kHour = 3600;
  v.Text("host", o.host,
         {.help = "Address to bind (127.0.0.1: this machine only)", .metavar = "ADDRESS"});
  v.Integer("port", o.port, {.help = "TCP port (0 = any free port)", .lo = 0, .hi = 65535});
  v.Integer("threads", o.threads,
            {.help = "Worker threads answering complete requests; idle and slow connections hold "
                     "none",
             .lo = 1,
             .hi = 1024});
  v.Integer("max-connections", o.max_connections,
            {.help = "Open connections at once, idle ones included; past it a new connection "
                     "closes the least valuable one (idle, then the slowest reader); 503 only "
                     "when every one is being answered",
             .lo = 1,
             .hi = 100000});
  v.Integer("max-connections-per-client", o.max_connections_per_client,
            {.help = "Open connections from one client address; past it that client's own least "
                     "valuable connection is closed",
             .lo = 1,
             .hi = 100000});
  v.Integer("max-price-age", o.max_price_age_days,
            MaxPriceAgeInfo("Flag prices older than this many days as stale"));
  v.Number("max-body", o.max_body_bytes,
           {.help = "Largest request body (1k, 1M ...)",
            .unit = "bytes",
            .lo = 1024,
            .hi = 1e9,
            .shown_default = "1M"});
  v.NotAnOption(o.max_header_bytes);
  v.NotAnOption(o.max_headers);
  v.Duration("timeout", o.read_timeout_s,
             {.help = "Read, write and keep-alive timeout, a plain number is seconds (idle "
                      "clients are cut off)",
              .lo = 1,
              .hi = kHour});
  v.NotAnOption(o.write_timeout_s);
  v.NotAnOption(o.keep_alive_timeout_s);
  v.NotAnOption(o.keep_alive_max);
  v.Duration("header-timeout", o.header_timeout_s,
             {.help = "A request's head must arrive whole within this, however slowly; a plain "
                      "number is seconds",
              .lo = 1,
              .hi = kHour});
  v.Duration("body-timeout", o.body_timeout_s,
             {.help = "A request's body must arrive whole within this after its head, however "
                      "steadily it drips (408 after); a plain number is seconds",
              .lo = 1,
              .hi = kHour});
  v.Duration("request-timeout", o.request_timeout_s,
             {.help = "Wall-time ceiling of one request's handler: long work (upstream queries) "
                      "stops after it; a plain number is seconds",
              .lo = 1,
              .hi = kHour});
  v.Duration("drain-timeout", o.drain_timeout_s,
             {.help = "On SIGTERM/SIGINT, requests being answered may finish for this long "
                      "before they are cancelled and the server exits; a plain number is seconds",
              .lo = 1,
              .hi = kHour});
  v.Text("access-log", o.access_log,
         {.help = "Log one line per request (time, client, method, target, status, bytes, ms) "
                  "to this file, appended, or - for standard output (default: off)",
          .metavar = "FILE"});
  v.Text("tls-cert", o.tls_cert,
         {.help = "Serve HTTPS with this PEM certificate chain (with --tls-key; default: HTTP)",
          .metavar = "FILE"});
  v.Text("tls-key", o.tls_key, {.help = "The PEM private key of --tls-cert", .metavar = "FILE"});
  v.Integer("cache", o.cache_entries,
            {.help = "Answers of estimate/recommend/pricing kept for identical requests (0 = off)",
             .lo = 0,
             .hi = 1e9});
  v.Number("cache-bytes", o.cache_bytes,
           {.help = "Bytes of those answers kept, least recently used dropped first",
            .unit = "bytes",
            .lo = 0,
            .hi = 64e9,
            .shown_default = "64M"});
  v.Number("max-write-bytes", o.max_write_bytes,
           {.help = "Bytes of answers waiting for slow readers at once (a cached answer shared "
                    "by many counts once); past it the longest-stuck writers are closed, else "
                    "new answers get 503",
            .unit = "bytes",
            .lo = 1e6,
            .hi = 64e9,
            .shown_default = "128M"});
  v.NotAnOption(o.max_queued_per_client);
  v.List("allow-host", o.allow_hosts,
         {.help = "Answer requests whose Host header names this. Bound to loopback, only "
                  "localhost, 127.0.0.1 and [::1] are answered otherwise (DNS rebinding); bound "
                  "elsewhere, any Host is answered unless this is given ('*' = any)",
          .metavar = "HOST"});
  v.Text("cors", o.cors_origin,
         {.help = "Allow cross-origin requests from this origin, scheme://host[:port], or * "
                  "(default: none)",
          .metavar = "ORIGIN"});
  v.NotAnOption(o.prometheus_allowed);
  v.NotAnOption(o.today);
  v.NotAnOption(o.account);  // read by the front end from ServeArgs::account
}

// The write and keep-alive timeouts are the read timeout (--timeout).
inline void TimeoutsFollowRead(ServeOptions* o) {
  o->write_timeout_s = o->keep_alive_timeout_s = o->read_timeout_s;
}

// `serve`: the server's settings and the catalog it answers from.
struct ServeArgs {
  ServeOptions server;
  std::string catalog;  // "" = the embedded catalog; a file is re-read on reload
  std::string account;  // "" = no account scan
};

template <typename V>
void DeclareOptions(V& v, ServeArgs& a) {
  v.Nested(a.server);
  v.Text("catalog", a.catalog,
         {.help = "Catalog file (default: the embedded catalog); re-read on reload",
          .metavar = "FILE"});
  v.Text("account", a.account,
         {.help = "Account scan (`account scan`) for GET /v1/account and to check recommended "
                  "plans against; a request may say account=none (default: no account)",
          .metavar = "FILE"});
}

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_APP_SERVE_H_
