#include "io/table.h"

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

}  // namespace
}  // namespace gpuadvisor
