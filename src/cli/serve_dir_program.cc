// The gpuadvisor binary's ServerProgramDirectory (serve_exec.h): the directory it runs from.
#include <unistd.h>

#include <string>

#include "cli/serve_exec.h"

namespace gpuadvisor::cli {

// From /proc/self/exe, not argv[0], which a caller chooses.
std::string ServerProgramDirectory() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<size_t>(n) >= path.size()) return "";
  path.resize(static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1);
}

const char* ServerProgramPlace() { return "next to gpuadvisor"; }

}  // namespace gpuadvisor::cli
