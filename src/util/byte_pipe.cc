#include "util/byte_pipe.h"

#include <algorithm>

namespace gpuadvisor {

bool BytePipe::Write(std::string_view data) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return reader_closed_ || queued_ < capacity_; });
  if (reader_closed_) return false;
  if (data.empty()) return true;
  pieces_.emplace_back(data);
  queued_ += data.size();
  cv_.notify_all();
  return true;
}

void BytePipe::Finish(Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  status_ = std::move(status);
  cv_.notify_all();
}

size_t BytePipe::Read(char* buf, size_t n, Status* status) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return queued_ > 0 || finished_; });
  size_t out = 0;
  while (out < n && !pieces_.empty()) {
    const std::string& front = pieces_.front();
    const size_t take = std::min(n - out, front.size() - front_offset_);
    std::copy_n(front.data() + front_offset_, take, buf + out);
    out += take;
    front_offset_ += take;
    queued_ -= take;
    if (front_offset_ == front.size()) {
      pieces_.pop_front();
      front_offset_ = 0;
    }
  }
  if (out == 0 && finished_ && !status_.ok()) *status = status_;
  cv_.notify_all();
  return out;
}

void BytePipe::SetTotal(int64_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  total_ = total;
}

int64_t BytePipe::WaitStart() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return queued_ > 0 || finished_; });
  return total_;
}

void BytePipe::CloseReader() {
  std::lock_guard<std::mutex> lock(mu_);
  reader_closed_ = true;
  pieces_.clear();
  queued_ = 0;
  cv_.notify_all();
}

}  // namespace gpuadvisor
