#include "cli/progress.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

std::string HumanBytes(double b) {
  if (b >= 1e9) return FormatFixed(b / 1e9, 2) + " GB";
  if (b >= 1e6) return FormatFixed(b / 1e6, 1) + " MB";
  return FormatFixed(b / 1e3, 0) + " kB";
}

}  // namespace

void ProgressBar::Update(const std::string& path, int64_t done, int64_t total) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (path != path_) {
    path_ = path;
    start_ = now;
  }
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
  const size_t slash = path.rfind('/');
  std::string line = "\r\033[K";
  line += TerminalSafe(path.substr(slash == std::string::npos ? 0 : slash + 1));
  if (total > 0) {
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    const int width = 30, fill = static_cast<int>(frac * width);
    line += " [";
    line += std::string(static_cast<size_t>(fill), '#');
    line += std::string(static_cast<size_t>(width - fill), '.');
    line += "] " + FormatFixed(frac * 100, 0) + "% " + HumanBytes(static_cast<double>(done));
    line += " / " + HumanBytes(static_cast<double>(total));
    if (rate > 0) {
      const int eta = static_cast<int>(static_cast<double>(total - done) / rate);
      line += " " + HumanBytes(rate) + "/s ETA " + std::to_string(eta / 60);
      line += (eta % 60 < 10 ? ":0" : ":") + std::to_string(eta % 60);
    }
  } else {
    line += " " + HumanBytes(static_cast<double>(done)) + " " + HumanBytes(rate) + "/s";
  }
  std::fputs(line.c_str(), stderr);
  shown_ = true;
}

void ProgressBar::Clear() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
}

}  // namespace gpuadvisor::cli
