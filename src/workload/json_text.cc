#include "workload/json_text.h"

#include <algorithm>
#include <string>

#include "util/text.h"

namespace gpuadvisor::workload_internal {
namespace {

constexpr int kNumberOverflow = 406;  // nlohmann out_of_range.406: a number beyond a double

// Records the failure position instead of throwing.
class ErrorCatcher : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    position_ = position;
    what_ = ex.what();
    id_ = ex.id;
    return false;
  }
  std::size_t position_ = 0;
  std::string what_;
  int id_ = 0;
  std::string key_;  // the last key read: the one whose value failed
};

}  // namespace

Result<nlohmann::json> ParseJson(std::string_view text, std::string_view origin) {
  nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (!doc.is_discarded()) {
    GPUADVISOR_RETURN_IF_ERROR(CheckUniqueJsonKeys(text, origin));  // not the last one winning
    return doc;
  }
  ErrorCatcher catcher;
  nlohmann::json::sax_parse(text.begin(), text.end(), &catcher);
  std::string what = catcher.what_;
  const std::string where = std::string(origin) + ":" +
                            LineColumn(text, catcher.position_ > 0 ? catcher.position_ - 1 : 0);
  if (catcher.id_ == kNumberOverflow) {
    // "number overflow parsing '1e999'": a field error, not the parser's exception text.
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    std::string field = ToLower(catcher.key_);
    std::replace(field.begin(), field.end(), '_', '-');
    return Status::InvalidArgument(where + ": " + (field.empty() ? "" : field + ": ") +
                                   (number.empty() ? "a number" : number) +
                                   " is out of range (beyond 1.8e308, the largest double)")
        .WithField(field);
  }
  const size_t p = what.find("syntax error");
  if (p != std::string::npos) what = what.substr(p);
  return Status::ParseError(where + ": " + (what.empty() ? "malformed JSON" : what));
}

}  // namespace gpuadvisor::workload_internal
