#include "gpuadvisor/status.h"

namespace gpuadvisor {

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code())) + ": " + rep_->message;
}

Status Status::WithPrefix(std::string_view prefix) const {
  if (ok()) return *this;
  return Status(code(), std::string(prefix) + ": " + rep_->message);
}

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid_argument";
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kParseError:
      return "parse_error";
    case StatusCode::kIOError:
      return "io_error";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kNoResult:
      return "no_result";
  }
  return "unknown";
}

}  // namespace gpuadvisor
