#include "gpuadvisor/status.h"

#include "util/enum_names.h"

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

template <>
struct EnumNames<StatusCode> {
  static constexpr EnumName<StatusCode> kTable[] = {
      {StatusCode::kOk, "ok"},
      {StatusCode::kInvalidArgument, "invalid_argument"},
      {StatusCode::kNotFound, "not_found"},
      {StatusCode::kParseError, "parse_error"},
      {StatusCode::kIOError, "io_error"},
      {StatusCode::kUnsupported, "unsupported"},
      {StatusCode::kNoResult, "no_result"}};
};

const char* StatusCodeName(StatusCode code) { return NameOf(code, "unknown"); }

}  // namespace gpuadvisor
