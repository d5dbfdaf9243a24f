// A small RFC 4180 CSV reader over an in-memory buffer: quoted fields, "" escapes, CRLF.
// Rows are read one at a time; the reader keeps the first error (leveldb iterator style).
#ifndef GPUADVISOR_UTIL_CSV_H_
#define GPUADVISOR_UTIL_CSV_H_

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuadvisor/status.h"

namespace gpuadvisor {

class CsvReader {
 public:
  // `data` must outlive the reader. `origin` names the input in errors ("prices.csv").
  CsvReader(std::string_view data, std::string origin);

  // Reads the next record into *fields. False at end of input or on error (see status()).
  bool Next(std::vector<std::string>* fields);
  // Line number (1-based) where the last record returned by Next() started.
  size_t line() const { return record_line_; }
  const Status& status() const { return status_; }
  // "origin:line" of the last record, for error messages.
  std::string Where() const;

 private:
  std::string_view data_;
  std::string origin_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t record_line_ = 0;
  Status status_;
};

// Maps header names to column indices. Missing required columns give a ParseError naming them.
class CsvHeader {
 public:
  explicit CsvHeader(const std::vector<std::string>& header);
  // Index of `name`, or -1.
  int Find(std::string_view name) const;
  // ParseError "origin:line: missing column \"x\"" for the first absent name.
  Status Require(const std::vector<std::string>& names, std::string_view where) const;

 private:
  std::unordered_map<std::string, int> index_;
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_CSV_H_
