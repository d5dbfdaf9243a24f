#include "app/table.h"

#include <algorithm>
#include <cassert>
#include <iterator>

#include "util/enum_names.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Code point ranges [first, last] a terminal shows two columns wide: East Asian Wide and
// Fullwidth (Unicode UAX #11), as wcwidth does: CJK ideographs and punctuation, kana, Hangul,
// fullwidth forms ("（", "：") and the emoji blocks. Sorted, for binary search.
constexpr char32_t kWide[][2] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
    {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
    {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
// Ranges shown with no width of their own: combining marks, zero-width characters and
// variation selectors.
constexpr char32_t kZero[][2] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD},
                                 {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
                                 {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}};

template <size_t N>
bool InRanges(char32_t c, const char32_t (&ranges)[N][2]) {
  const auto* it = std::lower_bound(std::begin(ranges), std::end(ranges), c,
                                    [](const char32_t(&r)[2], char32_t v) { return r[1] < v; });
  return it != std::end(ranges) && (*it)[0] <= c;
}

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    // The sequence's length from its first byte; a stray byte counts as one column (cells are
    // TerminalSafe, so valid UTF-8 in practice).
    const size_t n = b < 0x80           ? 1
                     : (b >> 5) == 0x6  ? 2
                     : (b >> 4) == 0xE  ? 3
                     : (b >> 3) == 0x1E ? 4
                                        : 1;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (size_t k = 1; k < n && i + k < s.size(); ++k) {
      c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    i += n;
    width += InRanges(c, kWide) ? 2 : InRanges(c, kZero) ? 0 : 1;
  }
  return width;
}

}  // namespace gpuadvisor

template <>
struct gpuadvisor::EnumNames<gpuadvisor::OutputFormat> {
  static constexpr EnumName<OutputFormat> kTable[] = {{OutputFormat::kTable, "table"},
                                                      {OutputFormat::kJson, "json"},
                                                      {OutputFormat::kCsv, "csv"},
                                                      {OutputFormat::kMarkdown, "markdown"}};
};

namespace gpuadvisor {

const char* OutputFormatName(OutputFormat f) { return NameOf(f); }

Result<OutputFormat> ParseOutputFormat(std::string_view text) {
  if (std::optional<OutputFormat> f = ParseName<OutputFormat>(ToLower(Trim(text)))) return *f;
  return Status::InvalidArgument("format: expected one of " + JoinNames<OutputFormat>(", ") +
                                 ", got \"" + std::string(text) + "\"")
      .WithField("format");
}

// Cells are made terminal-safe on the way in, so every format (and the width arithmetic) sees
// the escaped text: a hostname or file name cannot carry an escape sequence to the terminal.
void Table::AddColumn(std::string header, bool numeric) {
  header = TerminalSafe(header);
  columns_.push_back({std::move(header), numeric});
}

void Table::AddRow(std::vector<std::optional<std::string>> cells) {
  assert(cells.size() == columns_.size());
  for (std::optional<std::string>& cell : cells) {
    if (cell) *cell = TerminalSafe(*cell);
  }
  rows_.push_back(std::move(cells));
}

std::string Table::Render(OutputFormat format, bool color) const {
  switch (format) {
    case OutputFormat::kCsv:
      return RenderCsv();
    case OutputFormat::kMarkdown:
      return RenderMarkdown();
    default:
      return RenderAligned(color);
  }
}

std::string Table::RenderAligned(bool color) const {
  std::vector<size_t> w(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    w[c] = DisplayWidth(columns_[c].header);
    for (const auto& row : rows_) w[c] = std::max(w[c], DisplayWidth(row[c].value_or("-")));
  }
  auto pad = [&](const std::string& s, size_t c) {
    std::string fill(w[c] - DisplayWidth(s), ' ');
    return columns_[c].numeric ? fill + s : s + fill;
  };
  std::string out;
  auto line = [&](auto cell_text, const char* pre, const char* post) {
    std::string l;
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (c) l += "  ";
      l += pad(cell_text(c), c);
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += pre + l + post + "\n";
  };
  line([&](size_t c) { return columns_[c].header; }, color ? "\033[1m" : "",
       color ? "\033[0m" : "");
  std::string rule;
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (c) rule += "  ";
    rule += std::string(w[c], '-');
  }
  out += rule + "\n";
  for (const auto& row : rows_) {
    line([&](size_t c) { return row[c].value_or("-"); }, "", "");
  }
  return out;
}

std::string Table::RenderCsv() const {
  std::string out;
  for (size_t c = 0; c < columns_.size(); ++c) {
    out += (c ? "," : "") + CsvQuote(columns_[c].header);
  }
  out += "\n";
  for (const auto& row : rows_) {
    for (size_t c = 0; c < columns_.size(); ++c) {
      out += (c ? "," : "") + CsvQuote(row[c].value_or(""));
    }
    out += "\n";
  }
  return out;
}

std::string Table::RenderMarkdown() const {
  auto esc = [](const std::string& s) {
    std::string o;
    for (char ch : s) {
      if (ch == '|') o += '\\';
      o += ch;
    }
    return o;
  };
  std::string out = "|";
  for (const Column& c : columns_) out += " " + esc(c.header) + " |";
  out += "\n|";
  for (const Column& c : columns_) out += c.numeric ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& cell : row) out += " " + esc(cell.value_or("–")) + " |";
    out += "\n";
  }
  return out;
}

std::optional<std::string> Cell(std::optional<double> v, int decimals) {
  if (!v) return std::nullopt;
  return FormatFixed(*v, decimals);
}

std::optional<std::string> Cell(std::optional<int64_t> v) {
  if (!v) return std::nullopt;
  return std::to_string(*v);
}

}  // namespace gpuadvisor
