#include "server/access_log.h"

#include "gpuadvisor/query.h"
#include "util/files.h"
#include "util/text.h"

namespace gpuadvisor::server {

AccessLog::~AccessLog() {
  if (file_ != nullptr && file_ != stdout) std::fclose(file_);
}

Status AccessLog::Open(const std::string& path) {
  if (path == "-") {
    file_ = stdout;
    return Status::OK();
  }
  Result<std::FILE*> f = OpenFileForAppend(path);
  if (!f.ok()) return f.status().WithPrefix("--access-log");
  file_ = *f;
  return Status::OK();
}

void AccessLog::Write(std::string_view client, std::string_view method, std::string_view target,
                      int status, size_t bytes, double ms) {
  if (file_ == nullptr) return;
  const std::string line = NowUtcIso() + " " + std::string(client) + " " + TerminalSafe(method) +
                           " " + TerminalSafe(target) + " " + std::to_string(status) + " " +
                           std::to_string(bytes) + " " + FormatFixed(ms, 1) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  std::fputs(line.c_str(), file_);
  std::fflush(file_);
}

}  // namespace gpuadvisor::server
