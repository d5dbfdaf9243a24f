#include "util/stream_csv.h"

#include <algorithm>
#include <cstring>

namespace gpuadvisor {

StreamCsv::StreamCsv(ByteStream* in, size_t buffer_bytes, size_t max_record)
    : in_(in), buf_(std::max<size_t>(buffer_bytes, 64)), max_record_(max_record) {
  fields_.reserve(128);
}

bool StreamCsv::Refill() {
  // Drop consumed bytes (counting their newlines), keep the partial record, read more.
  const char* base = buf_.data();
  lines_before_buf_ += std::count(base, base + begin_, '\n');
  std::memmove(buf_.data(), base + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  record_ = 0;
  if (end_ == buf_.size()) {
    if (buf_.size() >= max_record_) {
      Fail("a record longer than " + std::to_string(max_record_ >> 20) +
           " MiB: expected a CSV line (unbalanced quote?)");
      return false;
    }
    buf_.resize(std::min(buf_.size() * 2, max_record_));
  }
  size_t got = in_->Read(buf_.data() + end_, buf_.size() - end_);
  if (!in_->status().ok()) {
    status_ = in_->status();
    return false;
  }
  if (got == 0) eof_ = true;
  end_ += got;
  return true;
}

StreamCsv::Parse StreamCsv::ParseRecord(const char* p, const char* end, const char** next) {
  fields_.clear();
  for (;;) {
    if (p == end) {
      if (!eof_) return Parse::kNeedMore;
      fields_.emplace_back();  // last field of a final line without newline
      *next = p;
      return Parse::kOk;
    }
    if (*p == '"') {
      const char* q = p + 1;
      const char* close = nullptr;
      for (;;) {
        const char* r = static_cast<const char*>(std::memchr(q, '"', static_cast<size_t>(end - q)));
        if (!r) {
          if (!eof_) return Parse::kNeedMore;
          parse_error_ = "unterminated quoted field: expected a closing '\"'";
          return Parse::kError;
        }
        if (r + 1 == end && !eof_) return Parse::kNeedMore;
        if (r + 1 < end && r[1] == '"') {
          q = r + 2;
          continue;
        }
        close = r;
        break;
      }
      fields_.emplace_back(p + 1, static_cast<size_t>(close - p - 1));
      p = close + 1;
      if (p == end) {
        *next = p;
        return Parse::kOk;  // eof_ is true here
      }
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p == '\n') {
        *next = p + 1;
        return Parse::kOk;
      }
      if (*p == '\r') {
        if (p + 1 == end && !eof_) return Parse::kNeedMore;
        if (p + 1 == end || p[1] == '\n') {
          *next = p + (p + 1 == end ? 1 : 2);
          return Parse::kOk;
        }
      }
      parse_error_ = "expected ',' or end of line after a closing quote";
      return Parse::kError;
    }
    const char* s = p;
    while (p != end && *p != ',' && *p != '\n') ++p;
    if (p == end && !eof_) return Parse::kNeedMore;
    const char* e = p;
    if (e > s && e[-1] == '\r' && (p == end || *p == '\n')) --e;
    fields_.emplace_back(s, static_cast<size_t>(e - s));
    if (p == end) {
      *next = p;
      return Parse::kOk;
    }
    if (*p == '\n') {
      *next = p + 1;
      return Parse::kOk;
    }
    ++p;  // ','
  }
}

bool StreamCsv::Next() {
  for (;;) {
    if (!status_.ok()) return false;
    if (begin_ == end_) {
      if (eof_) return false;
      if (!Refill()) return false;
      continue;
    }
    const char* next = nullptr;
    record_ = begin_;
    Parse r = ParseRecord(buf_.data() + begin_, buf_.data() + end_, &next);
    if (r == Parse::kOk) {
      begin_ = static_cast<size_t>(next - buf_.data());
      return true;
    }
    if (r == Parse::kError) {
      Fail(parse_error_);
      return false;
    }
    if (!Refill()) return false;
  }
}

int64_t StreamCsv::line() const {
  const char* base = buf_.data();
  return lines_before_buf_ + std::count(base, base + record_, '\n') + 1;
}

std::string StreamCsv::Where() const { return in_->origin() + ":" + std::to_string(line()); }

void StreamCsv::Fail(const std::string& what) {
  if (status_.ok()) status_ = Status::ParseError(Where() + ": " + what);
}

std::string StreamCsv::Unescape(std::string_view f) {
  std::string out;
  out.reserve(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    out += f[i];
    if (f[i] == '"' && i + 1 < f.size() && f[i + 1] == '"') ++i;
  }
  return out;
}

}  // namespace gpuadvisor
