// Status: the result of an operation that can fail because of its input or its environment.
//
// A Status is either OK (cheap: no allocation) or carries a code and a one-line message that
// names where the problem is (a flag, a JSON field, or file:line) and what was expected.
// Front ends map codes to exit codes (cli/) or HTTP statuses (server/) in one place each.
// Bugs in our own code are asserted, not reported through Status.
#ifndef GPUADVISOR_STATUS_H_
#define GPUADVISOR_STATUS_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace gpuadvisor {

// Error codes. Their numeric values appear in no file or API; names do (HTTP "code").
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // a flag, field or value the user gave is wrong
  kNotFound,         // a named thing (instance type, GPU, region) does not exist
  kParseError,       // an input file is malformed (message names file:line or byte offset)
  kIOError,          // a file could not be read or written
  kUnsupported,      // a valid request the tool cannot answer (e.g. task on Neuron)
  kNoResult,         // the query was valid but nothing matched / no feasible plan
};

class Status {
 public:
  Status() = default;  // OK

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string_view msg) {
    return {StatusCode::kInvalidArgument, msg};
  }
  static Status NotFound(std::string_view msg) { return {StatusCode::kNotFound, msg}; }
  static Status ParseError(std::string_view msg) { return {StatusCode::kParseError, msg}; }
  static Status IOError(std::string_view msg) { return {StatusCode::kIOError, msg}; }
  static Status Unsupported(std::string_view msg) { return {StatusCode::kUnsupported, msg}; }
  static Status NoResult(std::string_view msg) { return {StatusCode::kNoResult, msg}; }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  // The message without a code prefix; empty when OK.
  const std::string& message() const;
  // "InvalidArgument: --min-gpus: expected an integer, got \"abc\"".
  std::string ToString() const;
  // Returns a copy whose message is "<prefix>: <message>" (used to add a file name or field).
  // The field, if any, is kept.
  Status WithPrefix(std::string_view prefix) const;

  // The input the error is about, as data: an option in its canonical spelling ("min-gpus"), a
  // workload field ("tokens"), or a part of a request ("body", "type", "plan"); empty when the
  // error names none. Front ends show it in their own spelling (HTTP "field", Python `field`,
  // with dashes as underscores) instead of parsing it out of the message.
  const std::string& field() const;
  // A copy naming `field` (message and code unchanged). OK stays OK.
  Status WithField(std::string_view field) const;

 private:
  struct Rep {
    StatusCode code;
    std::string message;
    std::string field;
  };
  Status(StatusCode code, std::string_view msg)
      : rep_(std::make_shared<const Rep>(Rep{code, std::string(msg), {}})) {}
  std::shared_ptr<const Rep> rep_;  // null when OK; immutable, so copies share it
};

// Name of a code as used in JSON error objects: "invalid_argument", "not_found", ...
const char* StatusCodeName(StatusCode code);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_STATUS_H_
