#include "workload/json_text.h"

#include <string>

#include "util/text.h"

namespace gpuadvisor::workload_internal {
namespace {

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
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    position_ = position;
    what_ = ex.what();
    return false;
  }
  std::size_t position_ = 0;
  std::string what_;
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
  const size_t p = what.find("syntax error");
  if (p != std::string::npos) what = what.substr(p);
  return Status::ParseError(std::string(origin) + ":" +
                            LineColumn(text, catcher.position_ > 0 ? catcher.position_ - 1 : 0) +
                            ": " + (what.empty() ? "malformed JSON" : what));
}

}  // namespace gpuadvisor::workload_internal
