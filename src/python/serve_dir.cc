// The Python module's ServerProgramDirectory (cli/serve_exec.h): the directory of the module's
// own shared object (gpuadvisor/_core), where the build and setup.py put gpuadvisor-serve, so
// that the module links no server (Boost.Asio, OpenSSL) and `serve` still works from Python.
#include <dlfcn.h>

#include <string>

#include "cli/serve_exec.h"

namespace gpuadvisor::cli {

std::string ServerProgramDirectory() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&ServerProgramDirectory), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

const char* ServerProgramPlace() { return "next to the Python module, gpuadvisor/_core"; }

}  // namespace gpuadvisor::cli
