#include "util/dates.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

TEST(DatesTest, CivilDaysRoundTrip) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  for (int64_t d = -800000; d <= 800000; d += 97) {
    const CivilDate c = CivilFromDays(d);
    ASSERT_TRUE(IsCivilDate(c.year, c.month, c.day)) << d;
    ASSERT_EQ(DaysFromCivil(c.year, c.month, c.day), d);
  }
  const CivilDate leap = CivilFromDays(DaysFromCivil(2024, 2, 29));
  EXPECT_EQ(leap.year, 2024);
  EXPECT_EQ(leap.month, 2u);
  EXPECT_EQ(leap.day, 29u);
}

TEST(DatesTest, CalendarDays) {
  struct Case {
    int64_t y;
    unsigned m, d;
    bool ok;
  } const kCases[] = {{2024, 2, 29, true},  {2026, 2, 29, false}, {1900, 2, 29, false},
                      {2000, 2, 29, true},  {2026, 4, 31, false}, {2026, 12, 31, true},
                      {2026, 13, 1, false}, {2026, 0, 1, false},  {2026, 1, 0, false}};
  for (const Case& c : kCases) {
    EXPECT_EQ(IsCivilDate(c.y, c.m, c.d), c.ok) << c.y << "-" << c.m << "-" << c.d;
  }
}

// Last-Modified dates the spot-advisor feed's prices (catalog update).
TEST(DatesTest, HttpDates) {
  EXPECT_EQ(ParseHttpDate("Tue, 01 Dec 2026 18:30:00 GMT"), ParseIsoDate("2026-12-01"));
  EXPECT_EQ(ParseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"), ParseIsoDate("1994-11-06"));
  EXPECT_FALSE(ParseHttpDate("Sun, 31 Feb 1994 08:49:37 GMT"));
  EXPECT_FALSE(ParseHttpDate("Sun, 06 Foo 1994 08:49:37 GMT"));
  EXPECT_FALSE(ParseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"));
  EXPECT_FALSE(ParseHttpDate(""));
}

TEST(DatesTest, ParseIsoDateIsStrict) {
  EXPECT_EQ(ParseIsoDate("1970-01-02"), 1);
  EXPECT_EQ(ParseIsoDate("2026-12-02"), DaysFromCivil(2026, 12, 2));
  for (const char* bad : {"", "2026-1-05", "2026-01-5", "2026/01/05", "2026-02-30", "2026-00-10",
                          "2026-01-05T00:00", "20260105", " 2026-01-05", "yesterday"}) {
    EXPECT_FALSE(ParseIsoDate(bad).has_value()) << bad;
  }
  EXPECT_EQ(ParseIsoDatePrefix("2026-01-05T08:00:00Z"), DaysFromCivil(2026, 1, 5));
  EXPECT_FALSE(ParseIsoDatePrefix("2026-01-3x").has_value());
}

TEST(DatesTest, FormatsDatesAndUtcTimes) {
  EXPECT_EQ(FormatIsoDate(0), "1970-01-01");
  EXPECT_EQ(FormatIsoDate(DaysFromCivil(2026, 7, 14)), "2026-07-14");
  EXPECT_EQ(FormatIsoDate(-1), "1969-12-31");
  EXPECT_EQ(FormatIsoUtc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatIsoUtc(1784017958), "2026-07-14T08:32:38Z");
  EXPECT_EQ(FormatIsoUtc(-1), "1969-12-31T23:59:59Z");
  EXPECT_EQ(UnixDays(-1), -1);
  EXPECT_EQ(UnixDays(86399), 0);
  EXPECT_EQ(UnixDays(86400), 1);
  EXPECT_EQ(*ParseIsoDate(FormatIsoDate(UnixDays(UnixNow()))), UnixDays(UnixNow()));
}

TEST(DatesTest, IsoTimestamps) {
  for (const char* ok :
       {"2026-11-20", "2026-11-20T18:00", "2026-11-20T18:00:00Z", "2026-11-20 08:15:00",
        "2026-11-20T08:00:00.000+00:00", "2026-11-20T08:00:00-0500", "2026-06-30T23:59:60Z"}) {
    EXPECT_TRUE(IsIsoTimestamp(ok)) << ok;
  }
  for (const char* bad : {"2026-02-30", "2026-11-20Tnoon", "2026-11-20T24:00", "2026-11-20T08:60",
                          "2026-11-20T08:00:00.Z", "2026-11-20T08:00Zx", "2026-11-20X08:00",
                          "2026-11-20T08:00+5", "26-11-20"}) {
    EXPECT_FALSE(IsIsoTimestamp(bad)) << bad;
  }
}

}  // namespace
}  // namespace gpuadvisor
