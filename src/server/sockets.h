// The sockets of `serve` apart from HTTP: the ones it listens on (every address of a host name
// on one port), the descriptor limit raised for the connections it will hold, the TLS context
// (certificate and key loaded), and whether a client is still there to read an answer. Errors
// name the option the user gave.
#ifndef GPUADVISOR_SERVER_SOCKETS_H_
#define GPUADVISOR_SERVER_SOCKETS_H_

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor::server {

// Raises the soft limit on open descriptors (often 1024) toward `want`, within the hard limit.
void RaiseDescriptorLimit(size_t want);

// A TLS 1.2+ server context with the certificate chain and private key of these PEM files;
// IOError naming --tls-cert or --tls-key when one cannot be loaded.
Result<std::unique_ptr<boost::asio::ssl::context>> MakeTlsContext(const std::string& cert,
                                                                  const std::string& key);

// Listens on every address of `host` ("localhost" is 127.0.0.1 and ::1 whatever /etc/hosts
// says; "[::1]" is ::1) at `port` (0: one free port, the same on every address), appending the
// acceptors to *out. Returns the port. IOError naming host:port when no address can be bound or
// another server holds the port; an address family this machine lacks is skipped.
Result<int> Listen(boost::asio::io_context& ioc, const std::string& host, int port,
                   std::vector<boost::asio::ip::tcp::acceptor>* out);

// The ApiContext::cancelled installed for a request read from socket `fd`: true once the
// client has closed or reset its side of `fd` (a non-blocking MSG_PEEK; pipelined bytes are
// left in place), `deadline` has passed, or *cancel_all is true (may be null). Safe to call
// from any thread while `fd` is open.
std::function<bool()> MakeCancelCheck(int fd, std::chrono::steady_clock::time_point deadline,
                                      const std::atomic<bool>* cancel_all);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_SOCKETS_H_
