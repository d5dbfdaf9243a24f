#include "util/rj_reader.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <limits>
#include <string>

#include "util/text.h"

namespace gpuadvisor {
namespace {

TEST(JsonDepthTest, CountsBracketsOutsideStrings) {
  EXPECT_EQ(JsonDepth("1"), 0);
  EXPECT_EQ(JsonDepth(R"({"a":[1,{"b":[]}]})"), 4);
  EXPECT_EQ(JsonDepth(R"({"a":"[[[{{{"})"), 1);
  EXPECT_EQ(JsonDepth(R"({"a":"\"[[[","b":[1]})"), 2);  // an escaped quote does not end the string
}

double First(const std::string& text) {
  rapidjson::Document doc;
  Status st = ParseRapidJson(text, "t", &doc);
  EXPECT_TRUE(st.ok()) << text << ": " << st.message();
  return st.ok() ? doc[0].GetDouble() : std::numeric_limits<double>::quiet_NaN();
}

// Inputs on which RapidJSON's own full-precision conversion is undefined behaviour (each found by
// a fuzz target; fuzz/regressions/ replays the originals under the sanitizers).
TEST(ParseRapidJsonTest, ZeroMantissasAndHugeExponentsAreExact) {
  EXPECT_EQ(First("[0e44]"), 0.0);
  EXPECT_EQ(First("[0." + std::string(64, '0') + "]"), 0.0);
  EXPECT_EQ(First("[-0.0e-400]"), 0.0);
  EXPECT_EQ(First("[80000074073709551616." + std::string(200, '0') + "6e-555]"), 0.0);
  EXPECT_EQ(First("[1e-400]"), 0.0);  // underflow is zero
  rapidjson::Document doc;
  Status st = ParseRapidJson("[1, 1e400]", "f.json", &doc);  // overflow is refused, at its start
  EXPECT_EQ(st.message(), "f.json: byte 4: Number too big to be stored in double.");
  // RapidJSON's literal ends at a second '.': the error is the syntax, not the number.
  st = ParseRapidJson("[0." + std::string(40, '0') + ".0001]", "f.json", &doc);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("byte 43"), std::string::npos) << st.message();
}

TEST(ParseRapidJsonTest, NumbersAreCorrectlyRoundedAndIntegersStayIntegers) {
  EXPECT_EQ(First("[0.1]"), 0.1);
  EXPECT_EQ(First("[2.2250738585072011e-308]"), 2.2250738585072011e-308);
  EXPECT_EQ(First("[98.32]"), 98.32);
  EXPECT_EQ(First("[1.7976931348623157e308]"), 1.7976931348623157e308);
  rapidjson::Document doc;
  ASSERT_TRUE(ParseRapidJson(R"({"a":[-9223372036854775808,18446744073709551615,
                                 18446744073709551616,7,-7,1.5e3]})",
                             "t", &doc)
                  .ok());
  const rapidjson::Value& a = doc["a"];
  EXPECT_TRUE(a[0].IsInt64());
  EXPECT_EQ(a[0].GetInt64(), std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(a[1].IsUint64());
  EXPECT_EQ(a[1].GetUint64(), std::numeric_limits<uint64_t>::max());
  EXPECT_TRUE(a[2].IsDouble());  // past uint64: a double, as RapidJSON makes it
  EXPECT_EQ(a[2].GetDouble(), 18446744073709551616.0);
  EXPECT_TRUE(a[3].IsInt());
  EXPECT_EQ(a[4].GetInt(), -7);
  EXPECT_TRUE(a[5].IsDouble());
  EXPECT_EQ(a[5].GetDouble(), 1500.0);
}

TEST(ParseRapidJsonTest, MalformedTextNamesTheByte) {
  rapidjson::Document doc;
  Status st = ParseRapidJson(R"({"a": tru})", "c.json", &doc);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_EQ(st.message().rfind("c.json: byte ", 0), 0u) << st.message();
}

// A key given twice is refused whether the object is small (keys kept in a list) or large (past
// 32 keys they move to a hash set), at any depth, and the same key in sibling objects is fine.
// An empty view with a null data() (a default string_view) is an empty document, not a null
// pointer handed to memchr/memcpy (undefined; the sanitize build stops on it).
TEST(ParseRapidJsonTest, ANullEmptyViewIsAnEmptyDocument) {
  rapidjson::Document doc;
  Status st = ParseRapidJson(std::string_view(), "empty.json", &doc);
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("empty.json"), std::string::npos) << st.message();
}

TEST(ParseRapidJsonTest, DuplicateKeysAreRefusedInSmallAndLargeObjects) {
  const auto object = [](int keys, int repeat) {
    std::string text = "{";
    for (int i = 0; i < keys; ++i)
      text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
    text += "\"k" + std::to_string(repeat) + "\": 0}";
    return text;
  };
  for (int keys : {3, 31, 32, 33, 100}) {
    rapidjson::Document doc;
    const Status dup = ParseRapidJson(object(keys, keys - 1), "d.json", &doc);
    EXPECT_EQ(dup.code(), StatusCode::kParseError) << keys;
    EXPECT_NE(dup.message().find("duplicate key \"k" + std::to_string(keys - 1) + "\""),
              std::string::npos)
        << dup.message();
    EXPECT_EQ(ParseRapidJson(object(keys, 0), "d.json", &doc).code(), StatusCode::kParseError);
    EXPECT_TRUE(ParseRapidJson(object(keys, keys), "d.json", &doc).ok()) << keys;  // a new key
  }
  rapidjson::Document doc;
  EXPECT_TRUE(ParseRapidJson(R"([{"a": 1, "b": {"a": 2}}, {"a": 3}])", "d.json", &doc).ok());
  EXPECT_FALSE(ParseRapidJson(R"([{"a": 1, "b": {"a": 2, "a": 3}}])", "d.json", &doc).ok());
}

// The document owns its copy of the text (an in-situ parse): its strings, escapes decoded, stay
// valid after the caller's text is gone, and a NUL inside the text is refused, not a silent end.
TEST(ParseRapidJsonTest, TheDocumentOwnsItsTextAndANulIsRefused) {
  rapidjson::Document doc;
  {
    std::string text = R"({"name": "a\"b\u00e9c", "n": 12.5e-1, "list": ["x", "yz"]})";
    ASSERT_TRUE(ParseRapidJson(text, "t", &doc).ok());
    text.assign(text.size(), '#');  // the caller's buffer is overwritten, then freed
  }
  EXPECT_EQ(std::string(doc["name"].GetString(), doc["name"].GetStringLength()),
            "a\"b\xc3\xa9"
            "c");
  EXPECT_EQ(doc["n"].GetDouble(), 1.25);
  EXPECT_STREQ(doc["list"][1].GetString(), "yz");
  const std::string with_nul("{\"a\": 1}\0{\"b\": 2}", 17);
  const Status nul = ParseRapidJson(with_nul, "t.json", &doc);
  EXPECT_EQ(nul.code(), StatusCode::kParseError);
  EXPECT_EQ(nul.message(), "t.json: byte 8: a NUL character (not JSON text)");
}

// Keys asked for in any order are found (the reader tries the member after the last one found
// first), and an error names the whole path, spelled out only then.
TEST(RjReaderTest, KeysInAnyOrderAndTheErrorPath) {
  rapidjson::Document doc;
  ASSERT_TRUE(
      ParseRapidJson(R"({"a": 1, "b": "x", "c": [{"d": true}, {"d": 5}]})", "f", &doc).ok());
  RjReader r("f.json");
  EXPECT_EQ(r.Str(doc, "b", "$"), "x");
  EXPECT_EQ(r.Int(doc, "a", "$"), 1);  // before the hint
  EXPECT_EQ(r.Int(doc, "a", "$"), 1);  // again
  EXPECT_FALSE(r.OptStr(doc, "zz", "$").has_value());
  const rapidjson::Value& c = r.Array(doc, "c", "$");
  const JsonPath root("$");
  const JsonPath first(root, "c", 0);
  EXPECT_TRUE(r.Bool(c[0], "d", first));
  ASSERT_TRUE(r.status().ok()) << r.status().message();
  const JsonPath second(root, "c", 1);
  EXPECT_FALSE(r.Bool(c[1], "d", second));
  EXPECT_EQ(r.status().message(), "f.json: $.c[1].d: expected true or false");
}

}  // namespace
}  // namespace gpuadvisor
