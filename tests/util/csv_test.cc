#include "util/csv.h"

#include <gtest/gtest.h>

#include "util/byte_stream.h"

namespace gpuadvisor {
namespace {

TEST(CsvTest, QuotedFieldsAndCrlf) {
  CsvReader r("a,\"b,c\",\"say \"\"hi\"\"\"\r\n1,2,3\n", "t.csv");
  std::vector<std::string> f;
  ASSERT_TRUE(r.Next(&f));
  EXPECT_EQ(f, (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
  ASSERT_TRUE(r.Next(&f));
  EXPECT_EQ(r.line(), 2u);
  EXPECT_EQ(f[2], "3");
  EXPECT_FALSE(r.Next(&f));
  EXPECT_TRUE(r.status().ok());
}

TEST(CsvTest, UnterminatedQuoteIsAnErrorWithLine) {
  CsvReader r("x\n\"open,1\n", "bad.csv");
  std::vector<std::string> f;
  ASSERT_TRUE(r.Next(&f));
  EXPECT_FALSE(r.Next(&f));
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
  EXPECT_NE(r.status().message().find("bad.csv:2"), std::string::npos);
}

TEST(CsvTest, HeaderRequireNamesMissingColumn) {
  CsvHeader h({"instance_type", "region"});
  Status st = h.Require({"instance_type", "PricePerUnit"}, "p.csv:1");
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("PricePerUnit"), std::string::npos);
}

// The one reader reads memory in place and streams alike: same fields, lines and messages.
TEST(CsvTest, MemoryAndStreamReadTheSame) {
  const std::string text = "\xEF\xBB\xBFh1,h2\r\n\"multi\nline\",\"a \"\"q\"\"\"\n\nlast,";
  auto in = ByteStream::FromMemory(text, "s.csv");
  CsvReader stream(in.get(), 64);
  CsvReader memory(text, "s.csv");
  for (CsvReader* r : {&stream, &memory}) {
    ASSERT_TRUE(r->Next());
    EXPECT_EQ(r->fields(), (std::vector<std::string_view>{"h1", "h2"}));  // BOM skipped
    ASSERT_TRUE(r->Next());
    EXPECT_EQ(r->line(), 2);
    EXPECT_EQ((*r)[0], "multi\nline");
    EXPECT_EQ(CsvReader::Unescape((*r)[1]), "a \"q\"");
    ASSERT_TRUE(r->Next());
    EXPECT_EQ(r->line(), 4);
    EXPECT_EQ(r->size(), 1u);
    std::vector<std::string> copy;
    ASSERT_TRUE(r->Next(&copy));
    EXPECT_EQ(r->Where(), "s.csv:5");
    EXPECT_EQ(copy, (std::vector<std::string>{"last", ""}));
    EXPECT_FALSE(r->Next());
    EXPECT_TRUE(r->status().ok());
  }
}

TEST(CsvTest, ErrorsInMemoryNameTheLine) {
  CsvReader r("a\nb\n\"x\"y,1\n", "m.csv");
  ASSERT_TRUE(r.Next());
  ASSERT_TRUE(r.Next());
  EXPECT_FALSE(r.Next());
  EXPECT_EQ(r.status().message(), "m.csv:3: expected ',' or end of line after a closing quote");
  CsvReader open("x\n\"open,1\n", "bad.csv");
  std::vector<std::string> f;
  ASSERT_TRUE(open.Next(&f));
  EXPECT_FALSE(open.Next(&f));
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(open.status().message(),
            "bad.csv:2: unterminated quoted field: expected a closing '\"'");
  CsvReader failed("a,b\n", "f.csv");
  ASSERT_TRUE(failed.Next());
  failed.Fail("b: expected a number");
  failed.Fail("second");
  EXPECT_FALSE(failed.Next());
  EXPECT_EQ(failed.status().message(), "f.csv:1: b: expected a number");
}

TEST(CsvTest, EmptyInputHasNoRecords) {
  CsvReader r("", "e.csv");
  EXPECT_FALSE(r.Next());
  EXPECT_TRUE(r.status().ok());
}

TEST(CsvTest, SplitLine) {
  std::vector<std::string_view> f;
  ASSERT_TRUE(CsvReader::SplitLine("a, b ,\"c,d\",", &f).ok());
  EXPECT_EQ(f, (std::vector<std::string_view>{"a", " b ", "c,d", ""}));
  ASSERT_TRUE(CsvReader::SplitLine("x\r", &f).ok());
  EXPECT_EQ(f, (std::vector<std::string_view>{"x"}));
  ASSERT_TRUE(CsvReader::SplitLine("", &f).ok());
  EXPECT_EQ(f.size(), 1u);
  Status st = CsvReader::SplitLine("\"open", &f);
  EXPECT_EQ(st.message(), "unterminated quoted field: expected a closing '\"'");
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(CsvReader::SplitLine("a\nb", &f).message(), "expected one line");
}

}  // namespace
}  // namespace gpuadvisor
