// `gpuadvisor serve` in the gpuadvisor binary and the Python module (common.h, RunServe): the
// options were accepted by the same declaration gpuadvisor-serve uses; this replaces the process
// with gpuadvisor-serve from where the program keeps it (serve_exec.h), same arguments, same
// process id (a service manager's signals and pid file keep working). The server's libraries
// (Boost.Asio, OpenSSL) are thus loaded only by the program that serves, and the CLI starts without
// them.
#include "cli/serve_exec.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "cli/common.h"

namespace gpuadvisor::cli {

int RunServe(const TableOptions& /*table: gpuadvisor-serve parses the same arguments*/) {
  const auto [argc, argv] = CommandLine();
  const std::string dir = ServerProgramDirectory();
  if (argc < 1 || dir.empty()) {
    return Fail(Status::IOError("serve: cannot find this program's directory"));
  }
  std::string server = dir + "gpuadvisor-serve";
  std::vector<char*> args(argv, argv + argc);
  args[0] = server.data();
  args.push_back(nullptr);
  ::execv(server.c_str(), args.data());
  const int err = errno;  // execv returns only when it failed
  return Fail(Status::IOError("serve: cannot run " + server + ": " + std::strerror(err) +
                              " (gpuadvisor-serve is built and installed " + ServerProgramPlace() +
                              ")"));
}

}  // namespace gpuadvisor::cli
