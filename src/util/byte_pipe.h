// A bounded hand-off of bytes from one producer thread to one consumer thread: an HTTP download
// (HttpRequest::on_body) feeding a streaming reader (ByteStream::FromReader) without holding the
// whole body. Memory is bounded by `capacity` plus one piece.
//
// Thread-safety: Write/Finish from the producer, Read/CloseReader from the consumer, each from
// one thread at a time; the two sides may run concurrently.
#ifndef GPUADVISOR_UTIL_BYTE_PIPE_H_
#define GPUADVISOR_UTIL_BYTE_PIPE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "gpuadvisor/status.h"

namespace gpuadvisor {

class BytePipe {
 public:
  explicit BytePipe(size_t capacity = size_t{8} << 20) : capacity_(capacity) {}

  // Producer: queues `data`, waiting while the pipe holds `capacity` bytes. False once the
  // consumer has closed its end (the producer should stop).
  bool Write(std::string_view data);
  // Producer: no more data. A non-OK `status` means the data is incomplete: the consumer's read
  // after the queued bytes fails with it. Only the first call counts.
  void Finish(Status status);
  // Producer: the whole size, when known (before the first Write).
  void SetTotal(int64_t total);

  // Consumer: up to n bytes into buf, waiting until some arrive or the producer finished; 0 at
  // the end, with `*status` set when the producer finished with an error.
  size_t Read(char* buf, size_t n, Status* status);
  // Consumer: reads no more; pending and later writes are dropped.
  void CloseReader();
  // Consumer: waits until the first bytes arrive or the producer finishes; returns the size the
  // producer announced, -1 when none.
  int64_t WaitStart();

 private:
  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable cv_;
  // State below is protected by mu_.
  std::deque<std::string> pieces_;
  size_t front_offset_ = 0;  // bytes of pieces_.front() already read
  size_t queued_ = 0;        // bytes queued and not yet read
  bool finished_ = false;
  bool reader_closed_ = false;
  int64_t total_ = -1;
  Status status_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_BYTE_PIPE_H_
