// File helpers. Reading returns IOError naming the path; writing is atomic.
#ifndef GPUADVISOR_UTIL_FILES_H_
#define GPUADVISOR_UTIL_FILES_H_

#include <string>
#include <string_view>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

// Whole file into memory; "-" reads standard input.
Result<std::string> ReadFile(const std::string& path);
// Writes `data` to a temporary file in PATH's directory, fsyncs it, then renames it over PATH.
// On any failure PATH is left as it was and the temporary file is removed.
Status WriteFileAtomic(const std::string& path, std::string_view data);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_FILES_H_
