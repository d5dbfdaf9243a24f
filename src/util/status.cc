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
  Status out(code(), std::string(prefix) + ": " + rep_->message);
  return rep_->field.empty() ? out : out.WithField(rep_->field);
}

const std::string& Status::field() const {
  static const std::string kEmpty;
  return rep_ ? rep_->field : kEmpty;
}

Status Status::WithField(std::string_view field) const {
  if (ok()) return *this;
  Status out;
  out.rep_ = std::make_shared<const Rep>(Rep{code(), rep_->message, std::string(field)});
  return out;
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
