// Result<T>: a value or a non-OK Status (g++ 12 has no std::expected in C++20).
//
//   Result<int> r = ParseInt("12");
//   if (!r.ok()) return r.status();
//   int v = *r;
#ifndef GPUADVISOR_RESULT_H_
#define GPUADVISOR_RESULT_H_

#include <cassert>
#include <optional>
#include <utility>

#include "gpuadvisor/status.h"

namespace gpuadvisor {

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & {
    assert(ok());
    return *value_;  // NOLINT(bugprone-unchecked-optional-access): REQUIRES ok(), asserted
  }
  const T& value() const& {
    assert(ok());
    return *value_;  // NOLINT(bugprone-unchecked-optional-access): REQUIRES ok(), asserted
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);  // NOLINT(bugprone-unchecked-optional-access): as above
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::optional<T> value_;
  Status status_;  // OK iff value_ is set
};

}  // namespace gpuadvisor

// Evaluates expr (a Status); returns it from the enclosing function if not OK.
#define GPUADVISOR_RETURN_IF_ERROR(expr) \
  do {                                   \
    ::gpuadvisor::Status _st = (expr);   \
    if (!_st.ok()) return _st;           \
  } while (0)

#endif  // GPUADVISOR_RESULT_H_
