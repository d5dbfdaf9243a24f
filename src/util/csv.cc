#include "util/csv.h"

#include <algorithm>
#include <cstring>

namespace gpuadvisor {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
using Parse = CsvReader::Parse;

// One record at p (fields into *fields); kNeedMore when it may continue past `end` and more
// input is to come (!eof).
Parse ParseCsvRecord(const char* p, const char* end, bool eof,
                     std::vector<std::string_view>* fields, const char** next, std::string* error) {
  fields->clear();
  for (;;) {
    if (p == end) {
      if (!eof) return Parse::kNeedMore;
      fields->emplace_back();  // last field of a final line without newline
      *next = p;
      return Parse::kOk;
    }
    if (*p == '"') {
      const char* q = p + 1;
      const char* close = nullptr;
      for (;;) {
        const char* r = static_cast<const char*>(std::memchr(q, '"', static_cast<size_t>(end - q)));
        if (!r) {
          if (!eof) return Parse::kNeedMore;
          *error = "unterminated quoted field: expected a closing '\"'";
          return Parse::kError;
        }
        if (r + 1 == end && !eof) return Parse::kNeedMore;
        if (r + 1 < end && r[1] == '"') {
          q = r + 2;
          continue;
        }
        close = r;
        break;
      }
      fields->emplace_back(p + 1, static_cast<size_t>(close - p - 1));
      p = close + 1;
      if (p == end) {
        *next = p;
        return Parse::kOk;  // eof is true here
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
        if (p + 1 == end && !eof) return Parse::kNeedMore;
        if (p + 1 == end || p[1] == '\n') {
          *next = p + (p + 1 == end ? 1 : 2);
          return Parse::kOk;
        }
      }
      *error = "expected ',' or end of line after a closing quote";
      return Parse::kError;
    }
    const char* s = p;
    while (p != end && *p != ',' && *p != '\n') ++p;
    if (p == end && !eof) return Parse::kNeedMore;
    const char* e = p;
    if (e > s && e[-1] == '\r' && (p == end || *p == '\n')) --e;
    fields->emplace_back(s, static_cast<size_t>(e - s));
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

}  // namespace

CsvReader::CsvReader(ByteStream* in, size_t buffer_bytes, size_t max_record)
    : in_(in),
      origin_(in->origin()),
      own_(std::max<size_t>(buffer_bytes, 64)),
      buf_(own_.data()),
      max_record_(max_record) {
  fields_.reserve(128);
  if (in_->Peek(kBom.size()) == kBom) {
    char skip[3];
    in_->Read(skip, sizeof skip);
  }
}

CsvReader::CsvReader(std::string_view data, std::string origin)
    : origin_(std::move(origin)), buf_(data.data()), end_(data.size()), eof_(true) {
  if (data.substr(0, kBom.size()) == kBom) begin_ = kBom.size();
}

bool CsvReader::Refill() {
  // Drop consumed bytes (counting their newlines), keep the partial record, read more.
  lines_before_buf_ += NewlinesBefore(begin_);
  counted_to_ = 0;
  counted_lines_ = 0;
  std::memmove(own_.data(), own_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  record_ = 0;
  if (end_ == own_.size()) {
    if (own_.size() >= max_record_) {
      Fail("a record longer than " + std::to_string(max_record_ >> 20) +
           " MiB: expected a CSV line (unbalanced quote?)");
      return false;
    }
    own_.resize(std::min(own_.size() * 2, max_record_));
    buf_ = own_.data();
  }
  size_t got = in_->Read(own_.data() + end_, own_.size() - end_);
  if (!in_->status().ok()) {
    status_ = in_->status();
    return false;
  }
  if (got == 0) eof_ = true;
  end_ += got;
  return true;
}

CsvReader::Parse CsvReader::ParseRecord(const char* p, const char* end, const char** next) {
  return ParseCsvRecord(p, end, eof_, &fields_, next, &parse_error_);
}

bool CsvReader::Next() {
  for (;;) {
    if (!status_.ok()) return false;
    if (begin_ == end_) {
      if (eof_) return false;
      if (!Refill()) return false;
      continue;
    }
    const char* next = nullptr;
    record_ = begin_;
    Parse r = ParseRecord(buf_ + begin_, buf_ + end_, &next);
    if (r == Parse::kOk) {
      begin_ = static_cast<size_t>(next - buf_);
      return true;
    }
    if (r == Parse::kError) {
      Fail(parse_error_);
      return false;
    }
    if (!Refill()) return false;
  }
}

Status CsvReader::SplitLine(std::string_view line, std::vector<std::string_view>* fields) {
  const char* next = nullptr;
  std::string error;
  if (ParseCsvRecord(line.data(), line.data() + line.size(), true, fields, &next, &error) ==
          Parse::kOk &&
      next == line.data() + line.size()) {
    return Status::OK();
  }
  fields->clear();
  return Status::ParseError(error.empty() ? "expected one line" : error);
}

bool CsvReader::Next(std::vector<std::string>* fields) {
  fields->clear();
  if (!Next()) return false;
  for (std::string_view f : fields_) fields->push_back(Unescape(f));
  return true;
}

int64_t CsvReader::NewlinesBefore(size_t pos) const {
  if (pos < counted_to_) {
    counted_to_ = 0;
    counted_lines_ = 0;
  }
  counted_lines_ += std::count(buf_ + counted_to_, buf_ + pos, '\n');
  counted_to_ = pos;
  return counted_lines_;
}

int64_t CsvReader::line() const { return lines_before_buf_ + NewlinesBefore(record_) + 1; }

std::string CsvReader::Where() const { return origin_ + ":" + std::to_string(line()); }

void CsvReader::Fail(const std::string& what) {
  if (status_.ok()) status_ = Status::ParseError(Where() + ": " + what);
}

std::string CsvReader::Unescape(std::string_view f) {
  std::string out;
  out.reserve(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    out += f[i];
    if (f[i] == '"' && i + 1 < f.size() && f[i + 1] == '"') ++i;
  }
  return out;
}

CsvHeader::CsvHeader(const std::vector<std::string>& header) {
  for (size_t i = 0; i < header.size(); ++i) index_.emplace(header[i], static_cast<int>(i));
}

int CsvHeader::Find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : it->second;
}

Status CsvHeader::Require(const std::vector<std::string>& names, std::string_view where) const {
  for (const std::string& n : names) {
    if (Find(n) < 0) {
      return Status::ParseError(std::string(where) + ": missing column \"" + n + "\"");
    }
  }
  return Status::OK();
}

}  // namespace gpuadvisor
