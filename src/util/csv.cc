#include "util/csv.h"

namespace gpuadvisor {

CsvReader::CsvReader(std::string_view data, std::string origin)
    : data_(data), origin_(std::move(origin)) {
  // Skip a UTF-8 byte-order mark.
  if (data_.size() >= 3 && data_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

std::string CsvReader::Where() const { return origin_ + ":" + std::to_string(record_line_); }

bool CsvReader::Next(std::vector<std::string>* fields) {
  fields->clear();
  if (!status_.ok() || pos_ >= data_.size()) return false;
  record_line_ = line_;
  std::string field;
  bool quoted = false;
  bool field_started = false;
  while (pos_ < data_.size()) {
    char c = data_[pos_++];
    if (quoted) {
      if (c == '"') {
        if (pos_ < data_.size() && data_[pos_] == '"') {
          field.push_back('"');
          ++pos_;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line_;
        field.push_back(c);
      }
      continue;
    }
    if (c == '"' && !field_started) {
      quoted = true;
      field_started = true;
    } else if (c == ',') {
      fields->push_back(std::move(field));
      field.clear();
      field_started = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && pos_ < data_.size() && data_[pos_] == '\n') ++pos_;
      ++line_;
      fields->push_back(std::move(field));
      return true;
    } else {
      field.push_back(c);
      field_started = true;
    }
  }
  if (quoted) {
    status_ = Status::ParseError(Where() + ": unterminated quoted field");
    return false;
  }
  fields->push_back(std::move(field));
  return true;
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
