#include "util/byte_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace gpuadvisor {
namespace {

constexpr size_t kRawChunk = 1 << 18;

// Raw bytes come from a file descriptor or memory; gzip members are inflated with zlib.
class ZByteStream final : public ByteStream {
 public:
  ZByteStream(std::string origin, int fd, bool own_fd, std::string_view mem)
      : ByteStream(std::move(origin)), fd_(fd), own_fd_(own_fd), mem_(mem) {
    if (fd_ >= 0) {
      struct stat st{};
      if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) total_ = st.st_size;
    } else {
      total_ = static_cast<int64_t>(mem_.size());
    }
  }
  ZByteStream(std::string origin, RawReader reader, int64_t total)
      : ByteStream(std::move(origin)), fd_(-1), own_fd_(false), reader_(std::move(reader)) {
    total_ = total;
  }
  ~ZByteStream() override {
    if (inflating_) inflateEnd(&z_);
    if (own_fd_ && fd_ >= 0) ::close(fd_);
  }

  std::string_view Peek(size_t n) override {
    while (peek_.size() < n && status_.ok()) {
      size_t have = peek_.size();
      peek_.resize(n);
      size_t got = ReadRaw(peek_.data() + have, n - have);
      peek_.resize(have + got);
      if (got == 0) break;
    }
    return std::string_view(peek_).substr(0, std::min(n, peek_.size()));
  }

  size_t Read(char* buf, size_t n) override {
    if (peek_pos_ < peek_.size()) {
      size_t take = std::min(n, peek_.size() - peek_pos_);
      std::memcpy(buf, peek_.data() + peek_pos_, take);
      peek_pos_ += take;
      position_ += static_cast<int64_t>(take);
      return take;
    }
    size_t got = ReadRaw(buf, n);
    position_ += static_cast<int64_t>(got);
    return got;
  }

 private:
  size_t ReadRaw(char* buf, size_t n) {
    if (!status_.ok() || n == 0) return 0;
    if (!detected_) Detect();
    size_t got = gzip_ ? Inflate(buf, n) : Copy(buf, n);
    if (progress_) progress_(raw_done_, total_);
    return got;
  }

  // Fills raw_ (raw_pos_ .. raw_end_) with more raw input; false at end of input or error.
  bool FillRaw() {
    if (reader_) {
      if (raw_.empty()) raw_.resize(kRawChunk);
      Status st;
      const size_t got = reader_(raw_.data(), raw_.size(), &st);
      if (!st.ok()) {
        status_ = std::move(st);
        return false;
      }
      raw_view_ = raw_.data();
      raw_len_ = got;
      raw_pos_ = 0;
      raw_done_ += static_cast<int64_t>(got);
      return got > 0;
    }
    if (fd_ < 0) {
      if (mem_pos_ >= mem_.size()) return false;
      size_t take = std::min(kRawChunk, mem_.size() - mem_pos_);
      raw_view_ = mem_.data() + mem_pos_;
      mem_pos_ += take;
      raw_len_ = take;
      raw_pos_ = 0;
      raw_done_ += static_cast<int64_t>(take);
      return true;
    }
    if (raw_.empty()) raw_.resize(kRawChunk);
    for (;;) {
      ssize_t got = ::read(fd_, raw_.data(), raw_.size());
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        status_ = Status::IOError("cannot read " + origin_ + ": " + std::strerror(errno));
        return false;
      }
      raw_view_ = raw_.data();
      raw_len_ = static_cast<size_t>(got);
      raw_pos_ = 0;
      raw_done_ += got;
      return got > 0;
    }
  }

  void Detect() {
    detected_ = true;
    if (!FillRaw()) return;
    // A gzip member starts with 1f 8b (RFC 1952).
    if (raw_len_ >= 2 && static_cast<unsigned char>(raw_view_[0]) == 0x1f &&
        static_cast<unsigned char>(raw_view_[1]) == 0x8b) {
      gzip_ = true;
      std::memset(&z_, 0, sizeof z_);
      if (inflateInit2(&z_, 15 + 32) != Z_OK) {
        status_ = Status::IOError(origin_ + ": cannot initialise zlib");
        return;
      }
      inflating_ = true;
    }
  }

  size_t Copy(char* buf, size_t n) {
    size_t out = 0;
    while (out < n) {
      if (raw_pos_ == raw_len_) {
        // Large reads from a file go straight into the caller's buffer.
        if (fd_ >= 0 && n - out >= kRawChunk) {
          ssize_t got = ::read(fd_, buf + out, n - out);
          if (got < 0 && errno == EINTR) continue;
          if (got < 0) {
            status_ = Status::IOError("cannot read " + origin_ + ": " + std::strerror(errno));
            return out;
          }
          if (got == 0) return out;
          raw_done_ += got;
          out += static_cast<size_t>(got);
          continue;
        }
        if (!FillRaw()) return out;
      }
      size_t take = std::min(n - out, raw_len_ - raw_pos_);
      std::memcpy(buf + out, raw_view_ + raw_pos_, take);
      raw_pos_ += take;
      out += take;
    }
    return out;
  }

  size_t Inflate(char* buf, size_t n) {
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    const uInt want = z_.avail_out;
    while (z_.avail_out > 0 && !z_end_) {
      if (raw_pos_ == raw_len_) {
        if (!FillRaw()) {
          if (status_.ok()) {
            status_ = Status::ParseError(origin_ + ": byte " + std::to_string(raw_done_) +
                                         ": truncated gzip stream");
          }
          break;
        }
      }
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw_view_ + raw_pos_));
      z_.avail_in = static_cast<uInt>(raw_len_ - raw_pos_);
      int rc = inflate(&z_, Z_NO_FLUSH);
      raw_pos_ = raw_len_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        // Concatenated members (gzip allows them): continue if more input follows.
        if (raw_pos_ == raw_len_ && !FillRaw()) {
          z_end_ = true;
          break;
        }
        inflateReset(&z_);
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        status_ =
            Status::ParseError(origin_ + ": byte " + std::to_string(raw_done_) +
                               ": corrupt gzip data (" + (z_.msg ? z_.msg : "zlib error") + ")");
        break;
      }
    }
    return want - z_.avail_out;
  }

  std::string peek_;
  size_t peek_pos_ = 0;
  int fd_;
  bool own_fd_;
  std::string_view mem_;
  size_t mem_pos_ = 0;
  RawReader reader_;
  std::vector<char> raw_;
  const char* raw_view_ = nullptr;
  size_t raw_len_ = 0, raw_pos_ = 0;
  int64_t raw_done_ = 0, total_ = -1;
  bool detected_ = false, gzip_ = false, inflating_ = false, z_end_ = false;
  z_stream z_{};
};

}  // namespace

Result<std::unique_ptr<ByteStream>> ByteStream::Open(const std::string& path) {
  if (path == "-") return std::unique_ptr<ByteStream>(new ZByteStream("<stdin>", 0, false, {}));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open " + path + ": " + std::strerror(errno));
  return std::unique_ptr<ByteStream>(new ZByteStream(path, fd, true, {}));
}

std::unique_ptr<ByteStream> ByteStream::FromMemory(std::string_view data, std::string origin) {
  return std::unique_ptr<ByteStream>(new ZByteStream(std::move(origin), -1, false, data));
}

std::unique_ptr<ByteStream> ByteStream::FromReader(RawReader read, std::string origin,
                                                   int64_t total) {
  return std::unique_ptr<ByteStream>(new ZByteStream(std::move(origin), std::move(read), total));
}

Result<std::string> ReadAll(ByteStream* in) {
  std::string out;
  char buf[1 << 16];
  for (;;) {
    size_t got = in->Read(buf, sizeof buf);
    if (got == 0) break;
    out.append(buf, got);
  }
  if (!in->status().ok()) return in->status();
  return out;
}

}  // namespace gpuadvisor
