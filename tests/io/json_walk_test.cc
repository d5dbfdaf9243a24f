// JsonDoc::Walk: the values Text() would parse to, in its key order, without the text
// (issue 24: front ends build their own objects from the tree, not by parsing text again).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include "app/json_doc.h"
#include "app/json_doc_rep.h"

namespace gpuadvisor {
namespace {

using ojson = nlohmann::ordered_json;

// Each call as a token; numbers exactly (a double by its bits, so -0.0 is not 0.0).
class Trace : public JsonSink {
 public:
  void Null() override { out += "null "; }
  void Bool(bool v) override { out += v ? "true " : "false "; }
  void Int(int64_t v) override { out += "i" + std::to_string(v) + " "; }
  void Uint(uint64_t v) override { out += "u" + std::to_string(v) + " "; }
  void Double(double v) override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "d%a ", v);
    out += buf;
  }
  void String(std::string_view s) override { out += "s'" + std::string(s) + "' "; }
  void StartArray(size_t size) override { out += "[" + std::to_string(size) + " "; }
  void EndArray() override { out += "] "; }
  void StartObject(size_t size) override { out += "{" + std::to_string(size) + " "; }
  void Key(std::string_view key) override { out += "k'" + std::string(key) + "' "; }
  void EndObject() override { out += "} "; }
  std::string out;
};

std::string TraceOf(const JsonDoc& doc) {
  Trace t;
  doc.Walk(t);
  return t.out;
}

// What Walk gives must be what the document's text parses to.
std::string TraceOfText(const JsonDoc& doc) {
  return TraceOf(MakeJsonDoc(ojson::parse(doc.Text())));
}

ojson Sample() {
  ojson j;
  j["z"] = ojson::array({uint64_t{18446744073709551615U}, int64_t{-9223372036854775807 - 1},
                         int64_t{0}, 1.0, -0.0, 1e300, 5e-324, 0.1, 2.5e-310});
  j["a"] = {{"nested", ojson::array({ojson::array(), ojson::object(), nullptr, true, false})},
            {"empty", ""}};
  j["m"] = "caf\xC3\xA9 \xE2\x82\xAC";
  return j;
}

TEST(JsonWalkTest, ValuesAndKeyOrderAreTheTextsExactly) {
  const JsonDoc doc = MakeJsonDoc(Sample());
  EXPECT_EQ(TraceOf(doc),
            "{3 k'z' [9 u18446744073709551615 i-9223372036854775808 i0 d0x1p+0 d-0x0p+0 "
            "d0x1.7e43c8800759cp+996 d0x0.0000000000001p-1022 d0x1.999999999999ap-4 "
            "d0x0.02e055c9a3f6cp-1022 ] "
            "k'a' {2 k'nested' [5 [0 ] {0 } null true false ] k'empty' s'' } "
            "k'm' s'caf\xC3\xA9 \xE2\x82\xAC' } ");
  // The text parses back to the same values, except that a non-negative integer comes back
  // unsigned: the same number, which a sink may take either way.
  std::string from_text = TraceOfText(doc);
  EXPECT_EQ(from_text, [&] {
    std::string t = TraceOf(doc);
    t.replace(t.find(" i0 "), 4, " u0 ");
    return t;
  }());
}

TEST(JsonWalkTest, ScalarsAndNonFiniteNumbers) {
  EXPECT_EQ(TraceOf(JsonDoc()), "null ");
  EXPECT_EQ(TraceOf(MakeJsonDoc(ojson(7))), "i7 ");
  EXPECT_EQ(TraceOf(MakeJsonDoc(ojson("x"))), "s'x' ");
  // Text() writes a NaN or an infinity as null; Walk gives Null for them too.
  const ojson j = ojson::array({std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity(), -HUGE_VAL});
  EXPECT_EQ(MakeJsonDoc(j).Text(), "[null,null,null]");
  EXPECT_EQ(TraceOf(MakeJsonDoc(j)), "[3 null null null ] ");
}

TEST(JsonWalkTest, BytesThatAreNotUtf8ComeAsTheyAre) {
  // The sink gets the bytes; Text() writes U+FFFD for each invalid sequence (json_doc.h says a
  // decoding sink should do the same).
  const JsonDoc doc = MakeJsonDoc(ojson{{"h\xff", "a\xe2\x82"}});
  EXPECT_EQ(TraceOf(doc), "{1 k'h\xff' s'a\xe2\x82' } ");
  EXPECT_EQ(doc.Text(), "{\"h\xEF\xBF\xBD\":\"a\xEF\xBF\xBD\"}");
}

}  // namespace
}  // namespace gpuadvisor
