#include "app/table.h"

#include <gtest/gtest.h>

namespace gpuadvisor {
namespace {

Table Sample() {
  Table t;
  t.AddColumn("type");
  t.AddColumn("$/h", true);
  t.AddRow({"g6.xlarge", "0.805"});
  t.AddRow({"p5.48xlarge", std::nullopt});
  return t;
}

TEST(TableTest, AlignedRightAlignsNumbersAndShowsUnknownAsDash) {
  std::string out = Sample().Render(OutputFormat::kTable, false);
  EXPECT_EQ(out,
            "type           $/h\n"
            "-----------  -----\n"
            "g6.xlarge    0.805\n"
            "p5.48xlarge      -\n");
}

TEST(TableTest, CsvLeavesUnknownEmpty) {
  EXPECT_EQ(Sample().Render(OutputFormat::kCsv, false),
            "type,$/h\ng6.xlarge,0.805\np5.48xlarge,\n");
}

TEST(TableTest, Markdown) {
  std::string md = Sample().Render(OutputFormat::kMarkdown, false);
  EXPECT_NE(md.find("| --- | ---: |"), std::string::npos);
  EXPECT_NE(md.find("| p5.48xlarge | – |"), std::string::npos);
}

// Issue 16: a hostname carrying a terminal escape sequence is shown escaped in every format.
TEST(TableTest, CellsAndHeadersAreTerminalSafe) {
  Table t;
  t.AddColumn("host\x1b[1m");
  t.AddColumn("gpus", true);
  t.AddRow({"\x1b]0;pwned\x07\x1b[31mbox", "8"});
  for (OutputFormat f : {OutputFormat::kTable, OutputFormat::kCsv, OutputFormat::kMarkdown}) {
    const std::string out = t.Render(f, false);
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
    EXPECT_NE(out.find("\\x1b]0;pwned\\x07\\x1b[31mbox"), std::string::npos) << out;
  }
  // Widths are those of the escaped text: the number column still lines up.
  const std::string table = t.Render(OutputFormat::kTable, false);
  EXPECT_NE(table.find("\\x1b]0;pwned\\x07\\x1b[31mbox     8\n"), std::string::npos) << table;
}

}  // namespace
}  // namespace gpuadvisor

namespace gpuadvisor {
namespace {

TEST(DisplayWidthTest, CountsTerminalColumns) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("$/GPU·h"), 7u);           // "·" is narrow
  EXPECT_EQ(DisplayWidth("a–b"), 3u);               // en dash, narrow
  EXPECT_EQ(DisplayWidth("实例类型"), 8u);          // CJK ideographs, 2 each
  EXPECT_EQ(DisplayWidth("按需 $/小时"), 11u);      // mixed
  EXPECT_EQ(DisplayWidth("（，：）"), 8u);          // fullwidth punctuation
  EXPECT_EQ(DisplayWidth("、。"), 4u);              // CJK symbols and punctuation
  EXPECT_EQ(DisplayWidth("ｶ"), 1u);                 // halfwidth katakana stays narrow
  EXPECT_EQ(DisplayWidth("Ａ"), 2u);                // fullwidth Latin
  EXPECT_EQ(DisplayWidth("한국"), 4u);              // Hangul
  EXPECT_EQ(DisplayWidth("e\xcc\x81"), 1u);         // e + combining acute accent
  EXPECT_EQ(DisplayWidth("a\xe2\x80\x8b b"), 3u);   // zero-width space
  EXPECT_EQ(DisplayWidth("\xf0\xa0\x80\x80"), 2u);  // U+20000, CJK extension B
}

TEST(DisplayWidthTest, AlignedTableWithChineseHeaders) {
  Table t;
  t.AddColumn("实例类型");
  t.AddColumn("购买方式");
  t.AddColumn("费用 $", true);
  t.AddRow({"g6e.xlarge", "按需", "12.5"});
  t.AddRow({"p5.48xlarge", "竞价", "1234"});
  EXPECT_EQ(t.Render(OutputFormat::kTable, false),
            "实例类型     购买方式  费用 $\n"
            "-----------  --------  ------\n"
            "g6e.xlarge   按需        12.5\n"
            "p5.48xlarge  竞价        1234\n");
}

}  // namespace
}  // namespace gpuadvisor
