// `gpuadvisor serve`'s run step with the server linked in (common.h, RunServe): checks the
// options, loads the catalog, binds and serves until SIGINT/SIGTERM; SIGHUP reloads the catalog.
// Linked into gpuadvisor-serve, the Python module and the tests; the gpuadvisor binary links
// serve_exec.cc instead.
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "cli/common.h"
#include "server/guards.h"
#include "server/http_server.h"
#include "util/numbers.h"
#include "util/url.h"

namespace gpuadvisor::cli {
namespace {

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

// The options, checked against their declaration (a plain number for a timeout is seconds).
Status ParseServeArgs(OptionValues* v, server::ServeArgs* a) {
  for (std::string_view name :
       {"timeout", "header-timeout", "body-timeout", "request-timeout", "drain-timeout"}) {
    GPUADVISOR_RETURN_IF_ERROR(PlainSeconds(v, name));
  }
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(*v, a));
  server::TimeoutsFollowRead(&a->server);
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

}  // namespace

int RunServe(const TableOptions& table) {
  Result<OptionValues> values = table.Values();
  if (!values.ok()) return Fail(values.status());
  server::ServeArgs args;
  Status parsed = ParseServeArgs(&*values, &args);
  if (!parsed.ok()) return Fail(parsed);
  Result<server::ServeOptions> checked = server::CheckServeOptions(args.server);
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
  // The account scan only when named: a server never reads the user's scan by default, and
  // never a file a client names.
  if (!args.account.empty() && args.account != "none") {
    Result<std::optional<AccountScan>> scan = LoadAccountScan(args.account);
    if (!scan.ok()) return Fail(scan.status());
    std::optional<AccountScan>& found = *scan;
    if (!found) return Fail(Status::NotFound("--account: no scan in " + args.account));
    checked->account = std::make_shared<const AccountScan>(std::move(*found));
  }
  server::CatalogHolder::Loader loader = MakeLoader(ChooseCatalog(args.catalog).path);
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

}  // namespace gpuadvisor::cli
