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
