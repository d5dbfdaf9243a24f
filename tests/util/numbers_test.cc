#include "util/numbers.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

TEST(NumbersTest, SiSuffixes) {
  struct Case {
    const char* text;
    double want;
  } cases[] = {{"7e9", 7e9}, {"7B", 7e9}, {"2T", 2e12}, {"512", 512}, {"1.5k", 1500}, {"3M", 3e6}};
  for (const Case& c : cases) {
    Result<double> v = ParseSiNumber(c.text, "--x");
    ASSERT_TRUE(v.ok()) << c.text;
    EXPECT_DOUBLE_EQ(*v, c.want) << c.text;
  }
}

TEST(NumbersTest, RejectsGarbageNamingTheFlag) {
  Result<double> v = ParseSiNumber("abc", "--min-gpus");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(v.status().message().find("--min-gpus"), std::string::npos);
  EXPECT_NE(v.status().message().find("abc"), std::string::npos);
  EXPECT_FALSE(ParseInt("4.5", "--limit").ok());
  EXPECT_FALSE(ParseDouble("1e999", "--x").ok());  // not finite
  EXPECT_FALSE(ParseDouble("", "--x").ok());
}

TEST(NumbersTest, Durations) {
  EXPECT_DOUBLE_EQ(*ParseDurationSeconds("90m", "--d"), 5400);
  EXPECT_DOUBLE_EQ(*ParseDurationSeconds("36h", "--d"), 36 * 3600);
  EXPECT_DOUBLE_EQ(*ParseDurationSeconds("14d", "--d"), 14 * 86400);
  EXPECT_DOUBLE_EQ(*ParseDurationSeconds("2", "--d"), 7200);
  EXPECT_FALSE(ParseDurationSeconds("3x", "--deadline").ok());
  EXPECT_FALSE(ParseDurationSeconds("-1h", "--deadline").ok());
}

// Issue 16: a finite number times its suffix can overflow ("1e305h" was inf seconds).
TEST(NumbersTest, SuffixesThatOverflowAreRefused) {
  EXPECT_FALSE(ParseSiNumber("1e300T", "--x").ok());
  EXPECT_FALSE(ParseDurationSeconds("1e305h", "--restart").ok());
  EXPECT_FALSE(ParseDurationSeconds("1e308w", "--restart").ok());
  EXPECT_DOUBLE_EQ(*ParseDurationSeconds("1e300s", "--x"), 1e300);
}

}  // namespace
}  // namespace gpuadvisor
