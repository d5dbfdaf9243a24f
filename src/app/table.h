// A table of text cells rendered as an aligned terminal table, CSV or Markdown: the library's
// human view of a result (views.h); JSON output does not go through here.
#ifndef GPUADVISOR_APP_TABLE_H_
#define GPUADVISOR_APP_TABLE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/i18n.h"  // headers are shown in the current language: AddColumn(Tr("..."))
#include "gpuadvisor/money.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

enum class OutputFormat { kTable, kJson, kCsv, kMarkdown };
const char* OutputFormatName(OutputFormat f);  // "table", "json", "csv", "markdown"
// One of those names, any case. Error: InvalidArgument naming the field "format".
Result<OutputFormat> ParseOutputFormat(std::string_view text);

class Table {
 public:
  // `header` includes the unit, e.g. "$/h (on-demand)". Numeric columns align right. Headers and
  // cells pass through TerminalSafe (control bytes and invalid UTF-8 become visible escapes).
  void AddColumn(std::string header, bool numeric = false);
  // REQUIRES: cells.size() == number of columns. An empty optional is an unknown value.
  void AddRow(std::vector<std::optional<std::string>> cells);
  size_t rows() const { return rows_.size(); }

  // kTable: aligned with a rule under the header (bold header when `color`); unknowns "-".
  // kCsv: RFC 4180, unknowns empty. kMarkdown: a GitHub table, unknowns "–".
  std::string Render(OutputFormat format, bool color) const;

 private:
  std::string RenderAligned(bool color) const;
  std::string RenderCsv() const;
  std::string RenderMarkdown() const;

  struct Column {
    std::string header;
    bool numeric;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::optional<std::string>>> rows_;
};

// The columns a terminal gives UTF-8 text: East Asian Wide and Fullwidth characters (CJK
// ideographs, fullwidth punctuation such as "（", "："), 2; combining marks and zero-width
// characters, 0; other code points, 1 ("·", "–"). The aligned table pads by it.
size_t DisplayWidth(std::string_view s);

// Number formatting for tables: fixed decimals; nullopt in, nullopt out.
std::optional<std::string> Cell(std::optional<double> v, int decimals);
std::optional<std::string> Cell(std::optional<int64_t> v);

// A price column: headed by the currency symbol the rows share ("$/h on-demand", "¥/h ..."), or
// by "price" when they mix currencies (`--region all`), each cell then carrying its own symbol.
// Add() every row's currency before the headers are written.
struct PriceColumns {
  std::optional<Currency> shared;
  bool any = false;
  void Add(Currency c) {
    if (!any) shared = c;
    if (shared != c) shared.reset();
    any = true;
  }
  std::string Header(std::string_view rest) const {
    return (shared || !any ? CurrencySymbol(shared.value_or(Currency::kUsd)) : "price") +
           std::string(rest);
  }
  // "wasted $" / "save $/mo" for one currency; "wasted" / "save/mo" when they mix.
  std::string Named(std::string_view word, std::string_view after = "") const {
    std::string h(word);
    if (shared || !any) h += std::string(" ") + CurrencySymbol(shared.value_or(Currency::kUsd));
    return h + std::string(after);
  }
  std::optional<std::string> Cell(std::optional<double> v, int decimals, Currency c) const {
    std::optional<std::string> cell = gpuadvisor::Cell(v, decimals);
    if (cell && !shared) *cell = CurrencySymbol(c) + *cell;
    return cell;
  }
  std::optional<std::string> Cell(const std::optional<Money>& m, int decimals) const {
    if (!m) return std::nullopt;
    return Cell(m->amount, decimals, m->currency);
  }
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_TABLE_H_
