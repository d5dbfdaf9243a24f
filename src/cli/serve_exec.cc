// `gpuadvisor serve` in the gpuadvisor binary and the Python module (common.h, RunServe): the
// options were accepted by the same declaration gpuadvisor-serve uses; this replaces the process
// with gpuadvisor-serve from the directory this binary runs from, same arguments, same process id
// (a service manager's signals and pid file keep working). The server's libraries (Boost.Asio,
// OpenSSL) are thus loaded only by the program that serves, and the CLI starts without them.
#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "cli/common.h"

namespace gpuadvisor::cli {
namespace {

#ifdef GPUADVISOR_SERVE_BESIDE_MODULE
// The directory of the loaded Python module this code is part of (its shared object, as the
// dynamic loader mapped it), with a trailing '/': the package ships gpuadvisor-serve there, so
// that the module links no server (Boost.Asio, OpenSSL) and `serve` still works from Python.
std::string OwnDirectory() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&RunServe), &info) == 0 || info.dli_fname == nullptr) {
    return "";
  }
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}
#else
// The directory of the running executable (from /proc/self/exe, not argv[0], which a caller
// chooses), with a trailing '/'; "" when it cannot be read.
std::string OwnDirectory() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<size_t>(n) >= path.size()) return "";
  path.resize(static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1);
}
#endif

}  // namespace

int RunServe(const TableOptions& /*table: gpuadvisor-serve parses the same arguments*/) {
  const auto [argc, argv] = CommandLine();
  const std::string dir = OwnDirectory();
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
#ifdef GPUADVISOR_SERVE_BESIDE_MODULE
                              " (gpuadvisor-serve is built and installed next to the Python "
                              "module, gpuadvisor/_core)"));
#else
                              " (gpuadvisor-serve is built and installed next to gpuadvisor)"));
#endif
}

}  // namespace gpuadvisor::cli
