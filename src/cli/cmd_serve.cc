// `gpuadvisor serve`: the HTTP JSON API and the web page (server/). Binds 127.0.0.1 unless
// --host says otherwise; SIGHUP reloads the catalog, SIGINT/SIGTERM stop the server.
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "cli/common.h"
#include "server/http_request.h"
#include "server/http_server.h"
#include "util/numbers.h"

namespace gpuadvisor::cli {
namespace {

struct ServeCliOptions {
  server::ServeOptions serve;
  std::string catalog_path;
  std::string max_price_age = "90";
  std::string max_body = "1M";
  std::string timeout = "5";
  std::string header_timeout = "10";
  std::string cache_bytes = "64M";
};

// --catalog FILE is re-read on every reload; the embedded catalog is parsed once.
server::CatalogHolder::Loader MakeLoader(const std::string& path) {
  if (path.empty()) return [] { return EmbeddedCatalog(); };
  return [path]() -> Result<std::shared_ptr<const Catalog>> {
    Result<Catalog> c = LoadCatalogFile(path);
    if (!c.ok()) return c.status().WithPrefix("--catalog");
    return std::shared_ptr<const Catalog>(std::make_shared<const Catalog>(std::move(c).value()));
  };
}

Status ParseLimits(const ServeCliOptions& o, server::ServeOptions* s) {
  Result<int64_t> age = ParseInt(o.max_price_age, "--max-price-age");
  if (!age.ok()) return age.status();
  if (*age < 0 || *age > 100000) {
    return Status::InvalidArgument("--max-price-age: expected 0 to 100000 days");
  }
  s->max_price_age_days = static_cast<int>(*age);
  Result<double> body = ParseSiNumber(o.max_body, "--max-body");
  if (!body.ok()) return body.status();
  if (*body < 1024 || *body > 1e9) {
    return Status::InvalidArgument("--max-body: expected 1k to 1G bytes, got \"" + o.max_body +
                                   "\"");
  }
  s->max_body_bytes = static_cast<size_t>(*body);
  Result<double> t = ParseDurationSeconds(
      o.timeout.find_first_not_of("0123456789.") == std::string::npos ? o.timeout + "s" : o.timeout,
      "--timeout");
  if (!t.ok()) return t.status();
  if (*t < 1 || *t > 3600) return Status::InvalidArgument("--timeout: expected 1s to 1h");
  s->read_timeout_s = s->write_timeout_s = s->keep_alive_timeout_s = static_cast<int>(*t);
  const std::string& ht = o.header_timeout;
  Result<double> head = ParseDurationSeconds(
      ht.find_first_not_of("0123456789.") == std::string::npos ? ht + "s" : ht, "--header-timeout");
  if (!head.ok()) return head.status();
  if (*head < 1 || *head > 3600)
    return Status::InvalidArgument("--header-timeout: expected 1s to 1h");
  s->header_timeout_s = static_cast<int>(*head);
  Result<double> cache = ParseSiNumber(o.cache_bytes, "--cache-bytes");
  if (!cache.ok()) return cache.status();
  if (*cache < 0 || *cache > 64e9) {
    return Status::InvalidArgument("--cache-bytes: expected 0 to 64G bytes, got \"" +
                                   o.cache_bytes + "\"");
  }
  s->cache_bytes = static_cast<size_t>(*cache);
  return Status::OK();
}

// Waits for SIGHUP (reload) and SIGINT/SIGTERM (stop). The signals are blocked in every other
// thread (the mask is set before the workers start), so they arrive here.
void SignalLoop(sigset_t set, server::HttpServer* http, server::CatalogHolder* holder) {
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    if (sig == SIGHUP) {
      Status st = holder->Reload();
      if (st.ok()) {
        std::cerr << "gpuadvisor: catalog reloaded (generation " << holder->generation() << ")\n";
      } else {
        Warn("catalog reload failed, keeping the current one: " + st.message());
      }
      continue;
    }
    http->Stop();
    return;
  }
}

int Run(const ServeCliOptions& o) {
  server::ServeOptions s = o.serve;
  Status limits = ParseLimits(o, &s);
  if (!limits.ok()) return Fail(limits);
  Result<server::ServeOptions> checked = server::CheckServeOptions(s);
  if (!checked.ok()) return Fail(checked.status());
  server::CatalogHolder::Loader loader = MakeLoader(o.catalog_path);
  Result<std::shared_ptr<const Catalog>> catalog = loader();
  if (!catalog.ok()) return Fail(catalog.status());
  server::CatalogHolder holder(*catalog, loader);

  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGHUP, SIGINT, SIGTERM}) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  server::HttpServer http(*checked, &holder);
  Result<int> port = http.Bind();
  if (!port.ok()) return Fail(port.status());
  const std::string host =
      checked->host.find(':') != std::string::npos ? "[" + checked->host + "]" : checked->host;
  std::printf("gpuadvisor: serving http://%s:%d/ (API under /v1, OpenAPI at /v1/openapi.json)\n",
              host.c_str(), *port);
  std::printf("gpuadvisor: %s; %d worker threads; SIGHUP reloads the catalog, Ctrl-C stops\n",
              server::IsLoopbackAddress(checked->host)
                  ? "bound to loopback only (--host 0.0.0.0 to expose it)"
                  : "listening beyond loopback: anyone who can reach this address can use it",
              checked->threads);
  std::fflush(stdout);
  std::thread signals(SignalLoop, set, &http, &holder);
  Status st = http.Run();
  if (signals.joinable()) {
    ::kill(::getpid(), SIGTERM);  // ends SignalLoop if Run stopped for another reason
    signals.join();
  }
  if (!st.ok()) return Fail(st);
  return kExitOk;
}

}  // namespace

void SetupServe(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<ServeCliOptions>();
  app->add_option("--host", o->serve.host,
                  "Address to bind (default 127.0.0.1: this machine only)");
  app->add_option("--port", o->serve.port, "TCP port (default 8080; 0 = any free port)");
  app->add_option("--threads", o->serve.threads,
                  "Worker threads answering complete requests (default 16); idle and slow "
                  "connections hold none");
  app->add_option("--max-connections", o->serve.max_connections,
                  "Open connections at once, idle ones included (default 1024); more get 503");
  app->add_option("--catalog", o->catalog_path,
                  "Catalog file (default: the embedded catalog); re-read on reload");
  app->add_option("--max-price-age", o->max_price_age,
                  "Flag prices older than this many days as stale (default 90)");
  app->add_option("--max-body", o->max_body, "Largest request body, bytes (default 1M)");
  app->add_option("--timeout", o->timeout,
                  "Read, write and keep-alive timeout (default 5s; idle clients are cut off)");
  app->add_option("--header-timeout", o->header_timeout,
                  "A request's head must arrive whole within this, however slowly (default 10s)");
  app->add_option("--cache", o->serve.cache_entries,
                  "Answers of estimate/recommend/pricing kept for identical requests (default "
                  "256; 0 = off)");
  app->add_option("--cache-bytes", o->cache_bytes,
                  "Bytes of those answers kept, least recently used dropped first (default 64M)");
  app->add_option("--allow-host", o->serve.allow_hosts,
                  "Answer requests whose Host header names this (repeatable). Bound to loopback, "
                  "only localhost, 127.0.0.1 and [::1] are answered otherwise (DNS rebinding); "
                  "bound elsewhere, any Host is answered unless this is given ('*' = any)");
  app->add_option("--cors", o->serve.cors_origin,
                  "Allow cross-origin requests from this origin (default: none)");
  app->footer(
      R"(Endpoints: GET /healthz, /v1/instances, /v1/instances/{type}, /v1/gpus, /v1/catalog,
/v1/regions, /v1/models, /v1/openapi.json; POST /v1/estimate, /v1/recommend, /v1/pricing,
/v1/catalog/reload. The web page is at /. See doc/server.md.

Examples:
  gpuadvisor serve
  gpuadvisor serve --port 9000 --threads 32 --catalog data/catalog.json
  curl 'http://127.0.0.1:8080/v1/instances?gpu=H100&region=all'
  curl -d '{"task":"serve","model":"llama-3.1-8b","rps":2}' http://127.0.0.1:8080/v1/recommend)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
