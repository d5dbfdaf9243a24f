#include "app/table.h"

#include <algorithm>
#include <cassert>

#include "util/enum_names.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// Display width of UTF-8 text: count code points, not bytes (headers use "·" and "–").
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

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
    w[c] = Width(columns_[c].header);
    for (const auto& row : rows_) w[c] = std::max(w[c], Width(row[c].value_or("-")));
  }
  auto pad = [&](const std::string& s, size_t c) {
    std::string fill(w[c] - Width(s), ' ');
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
