// Long-running commands (`catalog import`, `idle`) report how far they are through their inputs
// with one redrawn line on stderr: file, bar, percent, bytes, rate and ETA.
#ifndef GPUADVISOR_CLI_PROGRESS_H_
#define GPUADVISOR_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace gpuadvisor::cli {

// Draws only when `on` (callers pass "stderr is a TTY and --no-progress was not given"), at most
// ten times a second. The rate and ETA restart when the path changes.
class ProgressBar {
 public:
  explicit ProgressBar(bool on) : on_(on) {}
  // `total` <= 0: unknown size (stdin, gzip); bytes and rate only.
  void Update(const std::string& path, int64_t done, int64_t total);
  // Erases the line if one was drawn.
  void Clear();

 private:
  bool on_;
  bool shown_ = false;
  std::string path_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_PROGRESS_H_
