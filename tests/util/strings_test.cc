#include "util/strings.h"

#include <gtest/gtest.h>

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

TEST(StringsTest, SplitKeepsEmptyFields) {
  auto parts = Split("a,,b", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "");
}

}  // namespace
}  // namespace gpuadvisor
