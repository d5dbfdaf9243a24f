#include "server/sockets.h"

#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/ip/v6_only.hpp>
#include <cerrno>

#include "util/text.h"

namespace gpuadvisor::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

void RaiseDescriptorLimit(size_t want) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  if (lim.rlim_cur < static_cast<rlim_t>(want)) {
    lim.rlim_cur = std::min(static_cast<rlim_t>(want), lim.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &lim);
  }
}

Result<std::unique_ptr<asio::ssl::context>> MakeTlsContext(const std::string& cert,
                                                           const std::string& key) {
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  boost::system::error_code ec;
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                       asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                       asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use,
                   ec);
  ctx->use_certificate_chain_file(cert, ec);
  if (ec) return Status::IOError("--tls-cert: cannot load " + cert + ": " + ec.message());
  ctx->use_private_key_file(key, asio::ssl::context::pem, ec);
  if (ec) return Status::IOError("--tls-key: cannot load " + key + ": " + ec.message());
  return ctx;
}

Result<int> Listen(asio::io_context& ioc, const std::string& host_arg, int port,
                   std::vector<tcp::acceptor>* out) {
  const auto fail = [&] {
    return Status::IOError("cannot listen on " + host_arg + ":" + std::to_string(port) +
                           " (address in use, or not an address of this machine)");
  };
  const std::string host = host_arg.size() > 2 && host_arg.front() == '[' && host_arg.back() == ']'
                               ? host_arg.substr(1, host_arg.size() - 2)
                               : host_arg;
  std::vector<tcp::endpoint> endpoints;
  boost::system::error_code ec;
  if (EqualsIgnoreCase(host, "localhost")) {
    endpoints = {tcp::endpoint(asio::ip::address_v4::loopback(), 0),
                 tcp::endpoint(asio::ip::address_v6::loopback(), 0)};
  } else {
    tcp::resolver resolver(ioc);
    const auto found = resolver.resolve(
        host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) return fail();
    for (const auto& entry : found) endpoints.push_back(entry.endpoint());
  }
  int bound_port = port;
  std::vector<tcp::endpoint> bound;
  const size_t first = out->size();
  for (tcp::endpoint ep : endpoints) {
    ep.port(static_cast<unsigned short>(bound_port));
    if (std::find(bound.begin(), bound.end(), ep) != bound.end()) continue;
    tcp::acceptor a(ioc);
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
      if (ec == asio::error::address_in_use) {
        out->erase(out->begin() + static_cast<std::ptrdiff_t>(first), out->end());
        return fail();
      }
      continue;
    }
    bound_port = a.local_endpoint().port();
    bound.push_back(ep);
    out->push_back(std::move(a));
  }
  if (out->size() == first) return fail();
  return bound_port;
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

}  // namespace gpuadvisor::server
