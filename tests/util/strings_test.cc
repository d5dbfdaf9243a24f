#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "util/json_text.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

TEST(StringsTest, NormalizeNameIgnoresCaseAndPunctuation) {
  EXPECT_EQ(NormalizeName("H100-SXM"), NormalizeName("h100 sxm"));
  EXPECT_EQ(NormalizeName("A100_80GB"), "a10080gb");
}

TEST(StringsTest, EditDistance) {
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("p5.48xlarge", "p5.48xlarge"), 0u);
}

TEST(StringsTest, SuggestFindsTypos) {
  std::vector<std::string> c = {"p5.48xlarge", "p4d.24xlarge", "g6.xlarge"};
  auto s = Suggest("p5.48xlarg", c);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0], "p5.48xlarge");
  EXPECT_TRUE(Suggest("zzzzzzzz", c).empty());
  EXPECT_EQ(DidYouMean("us-est-1", {"us-east-1", "eu-west-1"}), "did you mean us-east-1?");
}

// Issue 43: "did you mean" over a 1 MB value cost seconds of CPU (edit distance is length x
// length per candidate). Past kMaxSuggestChars nothing is compared: no suggestion, at once,
// even where a candidate is a prefix of the value (which suggests it below the cap).
TEST(StringsTest, SuggestSkipsValuesLongerThanTheCap) {
  std::vector<std::string> c = {"p5.48xlarge", "p4d.24xlarge", "g6.xlarge"};
  const std::string at_cap = "p5.48xlarge" + std::string(kMaxSuggestChars - 11, 'x');
  EXPECT_EQ(Suggest(at_cap, c), std::vector<std::string>{"p5.48xlarge"});
  EXPECT_TRUE(Suggest(at_cap + "x", c).empty());
  std::vector<std::string> many;
  for (int i = 0; i < 2000; ++i) many.push_back("instance-type-" + std::to_string(i));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(DidYouMean("instance-type-1" + std::string(1 << 20, 'x'), many), "");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 2.0) << "2000 candidates x 1 MiB were compared";  // uncapped: ~30 s
}

TEST(StringsTest, SplitKeepsEmptyFields) {
  auto parts = Split("a,,b", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "");
}

// Issue 16: untrusted text on a terminal.
// One decoder for the server's request checks and TerminalSafe: well-formed sequences of 1 to 4
// bytes pass; overlongs, surrogates, code points past U+10FFFF, stray continuation bytes and
// truncated sequences do not.
TEST(StringsTest, ValidUtf8) {
  EXPECT_TRUE(ValidUtf8(""));
  EXPECT_TRUE(ValidUtf8("plain ascii"));
  EXPECT_TRUE(
      ValidUtf8("\xC2\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));  // (c) EUR emoji max
  for (const char* bad : {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\x80",
                          "a\xE2\x82", "\xF8\x88\x80\x80\x80", "\xFF"}) {
    EXPECT_FALSE(ValidUtf8(bad)) << TerminalSafe(bad);
  }
}

TEST(StringsTest, TerminalSafeEscapesControlsAndInvalidUtf8) {
  EXPECT_EQ(TerminalSafe("p5.48xlarge · H100 – 8"), "p5.48xlarge · H100 – 8");
  EXPECT_EQ(TerminalSafe("\x1b]0;pwned\x07\x1b[31m"), "\\x1b]0;pwned\\x07\\x1b[31m");
  EXPECT_EQ(TerminalSafe("a\x7f\tb\nc\rd"), "a\\x7f\\x09b\\x0ac\\x0dd");
  EXPECT_EQ(TerminalSafe("a\tb\nc\r", /*keep_newlines=*/true), "a\tb\nc\\x0d");
  EXPECT_EQ(TerminalSafe("\xc2\x9b"
                         "2J"),
            "\\u009b2J");  // C1 CSI, UTF-8 encoded
  EXPECT_EQ(TerminalSafe("\x9b"
                         "2J"),
            "\\x9b2J");  // C1 CSI, bare byte
  EXPECT_EQ(TerminalSafe("host\xff\xfe"), "host\\xff\\xfe");
  EXPECT_EQ(TerminalSafe("\xc0\xaf"), "\\xc0\\xaf");                // overlong '/'
  EXPECT_EQ(TerminalSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80");       // surrogate
  EXPECT_EQ(TerminalSafe("\xe2\x82"), "\\xe2\\x82");                // truncated
  EXPECT_EQ(TerminalSafe("\xf0\x9f\x9a\x80"), "\xf0\x9f\x9a\x80");  // U+1F680 kept
  EXPECT_EQ(TerminalSafe("abc\xe2\x80\xae"
                         "fed"),
            "abc\\u202efed");  // bidi override
  EXPECT_EQ(TerminalSafe(std::string("a\0b", 3)), "a\\x00b");
}

// Issue 16: nlohmann's dump() throws type_error 316 on invalid UTF-8 (exit 134, HTTP 500).
TEST(StringsTest, DumpJsonNeverThrowsOnInvalidUtf8) {
  nlohmann::ordered_json j;
  j["host"] = "gpu\xff\xfe-1";
  j["file"] = std::string("a\xc3", 2);
  EXPECT_THROW(static_cast<void>(j.dump()), nlohmann::json::type_error);
  const std::string text = DumpJson(j);
  EXPECT_EQ(text, "{\"host\":\"gpu\xef\xbf\xbd\xef\xbf\xbd-1\",\"file\":\"a\xef\xbf\xbd\"}");
  EXPECT_TRUE(nlohmann::json::accept(text));
  EXPECT_EQ(DumpJson(nlohmann::json{{"a", 1}}, 2), "{\n  \"a\": 1\n}");
}

}  // namespace
}  // namespace gpuadvisor
