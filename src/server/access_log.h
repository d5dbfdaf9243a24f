// `serve --access-log`: one line per answer written, "TIME CLIENT METHOD TARGET STATUS BYTES MS"
// (UTC ISO time, the client's address, the request's method and target made terminal-safe, the
// bytes written and the milliseconds from the request's first byte). Thread-safe.
#ifndef GPUADVISOR_SERVER_ACCESS_LOG_H_
#define GPUADVISOR_SERVER_ACCESS_LOG_H_

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

#include "gpuadvisor/status.h"

namespace gpuadvisor::server {

class AccessLog {
 public:
  AccessLog() = default;
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  // Appends to `path` ("-": standard output). As root in a shared directory, a link to another
  // user's file is refused as --out refuses it; the error names --access-log. REQUIRES: not
  // open yet.
  Status Open(const std::string& path);
  bool open() const { return file_ != nullptr; }
  // One line (nothing when not open).
  void Write(std::string_view client, std::string_view method, std::string_view target, int status,
             size_t bytes, double ms);

 private:
  std::FILE* file_ = nullptr;
  std::mutex mu_;  // one line at a time
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_ACCESS_LOG_H_
