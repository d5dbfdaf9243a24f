// `gpuadvisor serve`: the HTTP JSON API and the web page (server/). Binds 127.0.0.1 unless
// --host says otherwise; SIGHUP reloads the catalog, SIGINT/SIGTERM stop the server.
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <thread>

#include "cli/common.h"
#include "util/numbers.h"
#include "util/url.h"
#include "server/http_request.h"
#include "server/http_server.h"

namespace gpuadvisor::cli {
namespace {

// The flags, their ranges and defaults are in the "serve" option table (options.cc).
struct ServeCliOptions {
  TableOptions table;
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

// --timeout 5 has always meant seconds (a table duration's plain number is hours).
Status PlainSeconds(OptionValues* v, std::string_view name) {
  const std::string text = v->Text(name);
  if (!v->Given(name) || text.empty() ||
      text.find_first_not_of("0123456789.") != std::string::npos) {
    return Status::OK();
  }
  return v->Set(name, text + "s", kCli);
}

// The table checked every value and its range; what is left is the ServeOptions fields.
Status ParseLimits(OptionValues* v, server::ServeOptions* s, std::string* catalog_path) {
  GPUADVISOR_RETURN_IF_ERROR(PlainSeconds(v, "timeout"));
  for (std::string_view name :
       {"header-timeout", "body-timeout", "request-timeout", "drain-timeout"}) {
    GPUADVISOR_RETURN_IF_ERROR(PlainSeconds(v, name));
  }
  GPUADVISOR_RETURN_IF_ERROR(v->Check());
  std::map<std::string_view, double> n;
  for (std::string_view name :
       {"port", "threads", "max-connections", "max-connections-per-client", "max-price-age",
        "max-body", "timeout", "header-timeout", "body-timeout", "request-timeout", "drain-timeout",
        "cache", "cache-bytes"}) {
    Result<std::optional<double>> x = v->Number(name);
    if (!x.ok()) return x.status();
    n[name] = x->value_or(0);  // every one has a default
  }
  s->host = v->Text("host");
  s->port = static_cast<int>(n["port"]);
  s->threads = static_cast<int>(n["threads"]);
  s->max_connections = static_cast<int>(n["max-connections"]);
  s->max_price_age_days = static_cast<int>(n["max-price-age"]);
  s->max_body_bytes = static_cast<size_t>(n["max-body"]);
  s->read_timeout_s = s->write_timeout_s = s->keep_alive_timeout_s = static_cast<int>(n["timeout"]);
  s->header_timeout_s = static_cast<int>(n["header-timeout"]);
  s->max_connections_per_client = static_cast<int>(n["max-connections-per-client"]);
  s->body_timeout_s = static_cast<int>(n["body-timeout"]);
  s->request_timeout_s = static_cast<int>(n["request-timeout"]);
  s->drain_timeout_s = static_cast<int>(n["drain-timeout"]);
  s->access_log = v->Text("access-log");
  s->tls_cert = v->Text("tls-cert");
  s->tls_key = v->Text("tls-key");
  s->cache_entries = static_cast<size_t>(n["cache"]);
  s->cache_bytes = static_cast<size_t>(n["cache-bytes"]);
  Result<std::vector<std::string>> hosts = v->List("allow-host");
  if (!hosts.ok()) return hosts.status();
  s->allow_hosts = *hosts;
  s->cors_origin = v->Text("cors");
  *catalog_path = v->Text("catalog");
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
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  server::ServeOptions s;
  std::string catalog_path;
  Status limits = ParseLimits(&*values, &s, &catalog_path);
  if (!limits.ok()) return Fail(limits);
  Result<server::ServeOptions> checked = server::CheckServeOptions(s);
  if (!checked.ok()) return Fail(checked.status());
  // The environment is read here, once, and handed to the server: the Prometheus allow-list (a
  // malformed one is refused where the operator sees it) and the tests' fixed date.
  if (const char* allowed = std::getenv("GPUADVISOR_PROMETHEUS_URLS"); allowed != nullptr) {
    Result<std::vector<HttpUrl>> urls = ParseUrlList(allowed, "GPUADVISOR_PROMETHEUS_URLS");
    if (!urls.ok()) return Fail(urls.status());
    checked->prometheus_allowed = *std::move(urls);
  }
  if (const char* today = std::getenv("GPUADVISOR_TODAY"); today != nullptr) {
    checked->today = [fixed = std::string(today)] { return fixed; };  // tests pin the date
  }
  server::CatalogHolder::Loader loader = MakeLoader(catalog_path);
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
  std::printf("gpuadvisor: serving %s://%s:%d/ (API under /v1, OpenAPI at /v1/openapi.json)\n",
              checked->tls_cert.empty() ? "http" : "https", host.c_str(), *port);
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
  o->table.Add(app, "serve");
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
