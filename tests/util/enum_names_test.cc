#include "util/enum_names.h"

#include <gtest/gtest.h>

namespace gpuadvisor {

enum class Fruit { kApple, kPear, kPlum };

template <>
struct EnumNames<Fruit> {
  static constexpr EnumName<Fruit> kTable[] = {{Fruit::kApple, "apple"},
                                               {Fruit::kPear, "pear"},
                                               {Fruit::kPlum, "plum"},
                                               {Fruit::kApple, "malus"},
                                               {Fruit::kPear, "pyrus"}};
};

namespace {

TEST(EnumNamesTest, NameOfIsTheFirstEntryOfAValue) {
  EXPECT_STREQ(NameOf(Fruit::kApple), "apple");
  EXPECT_STREQ(NameOf(Fruit::kPear), "pear");
  EXPECT_STREQ(NameOf(Fruit::kPlum), "plum");
  EXPECT_STREQ(NameOf(static_cast<Fruit>(7)), "apple");
  EXPECT_STREQ(NameOf(static_cast<Fruit>(7), "?"), "?");
  static_assert(NameOf(Fruit::kPlum)[1] == 'l');
}

TEST(EnumNamesTest, ParseNameTakesNamesAndAliasesExactly) {
  EXPECT_EQ(ParseName<Fruit>("pear"), Fruit::kPear);
  EXPECT_EQ(ParseName<Fruit>("malus"), Fruit::kApple);
  EXPECT_EQ(ParseName<Fruit>("pyrus"), Fruit::kPear);
  EXPECT_FALSE(ParseName<Fruit>("Pear").has_value());
  EXPECT_FALSE(ParseName<Fruit>(" pear").has_value());
  EXPECT_FALSE(ParseName<Fruit>("").has_value());
  static_assert(*ParseName<Fruit>("plum") == Fruit::kPlum);
}

TEST(EnumNamesTest, AllOfAndJoinNamesSkipAliases) {
  EXPECT_EQ(AllOf<Fruit>(), (std::vector<Fruit>{Fruit::kApple, Fruit::kPear, Fruit::kPlum}));
  EXPECT_EQ(JoinNames<Fruit>("|"), "apple|pear|plum");
  EXPECT_EQ(JoinNames<Fruit>(", "), "apple, pear, plum");
}

}  // namespace
}  // namespace gpuadvisor
