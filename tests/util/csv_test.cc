#include "util/csv.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpuadvisor
