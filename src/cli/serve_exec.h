// Where `gpuadvisor serve` (serve_exec.cc) finds the gpuadvisor-serve program it replaces itself
// with. Each program that links serve_exec.cc links one of the two definitions: the gpuadvisor
// binary looks next to itself (serve_dir_program.cc), the Python module next to its own shared
// object, where the package ships the server (src/python/serve_dir.cc).
#ifndef GPUADVISOR_CLI_SERVE_EXEC_H_
#define GPUADVISOR_CLI_SERVE_EXEC_H_

#include <string>

namespace gpuadvisor::cli {

// The directory gpuadvisor-serve is in, with a trailing '/'; "" when it cannot be told.
std::string ServerProgramDirectory();
// What an error says of where gpuadvisor-serve belongs ("next to gpuadvisor").
const char* ServerProgramPlace();

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_SERVE_EXEC_H_
