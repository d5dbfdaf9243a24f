// JsonDoc, the library's opaque JSON answer, through the public API only.
#include "app/json_doc.h"

#include <gtest/gtest.h>

#include <string>

#include "app/views.h"

namespace gpuadvisor {
namespace {

TEST(JsonDocTest, TextIsOneLineOrIndentedAndKeepsKeyOrder) {
  EXPECT_EQ(JsonDoc().Text(), "null");
  const JsonDoc e = ErrorJson("invalid_argument", "--x: bad", "x");
  EXPECT_EQ(e.Text(), R"({"error":{"code":"invalid_argument","message":"--x: bad","field":"x"}})");
  EXPECT_EQ(e.Text(2),
            "{\n  \"error\": {\n    \"code\": \"invalid_argument\",\n    \"message\": "
            "\"--x: bad\",\n    \"field\": \"x\"\n  }\n}");
  EXPECT_EQ(ErrorJson("not_found", "no such endpoint", "").Text(),
            R"({"error":{"code":"not_found","message":"no such endpoint","field":null}})");
}

TEST(JsonDocTest, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const JsonDoc e = ErrorJson("parse_error", std::string("host \xff\xfe"), "");
  EXPECT_EQ(e.Text(),
            "{\"error\":{\"code\":\"parse_error\",\"message\":\"host \xEF\xBF\xBD\xEF\xBF\xBD\","
            "\"field\":null}}");
  const JsonDoc copy = e;  // copies share the immutable document
  EXPECT_EQ(copy.Text(), e.Text());
}

}  // namespace
}  // namespace gpuadvisor
