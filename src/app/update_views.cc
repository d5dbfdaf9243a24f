// `catalog update`'s answer (app/views.h): per download what happened, and the totals.
#include "app/catalog_views.h"
#include "app/json_doc_rep.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

struct Totals {
  int requests = 0, updated = 0, not_modified = 0, failed = 0;
  int64_t bytes = 0;
};
Totals Count(const CatalogUpdateReport& r) {
  Totals t;
  for (const UpdateOutcome& o : r.outcomes) {
    t.requests += o.requests;
    t.bytes += o.bytes;
    t.updated += o.result == "updated";
    t.not_modified += o.result == "not-modified";
    t.failed += o.result == "failed";
  }
  return t;
}

std::string Megabytes(int64_t bytes) { return FormatFixed(static_cast<double>(bytes) / 1e6, 2); }

}  // namespace

JsonDoc UpdateReportJson(const CatalogUpdateReport& r, const CatalogDiff& diff,
                         const std::string& out, bool written, const std::string& cache) {
  const Totals t = Count(r);
  ojson outcomes = ojson::array();
  for (const UpdateOutcome& o : r.outcomes) {
    outcomes.push_back({{"what", o.what},
                        {"url", o.url},
                        {"result", o.result},
                        {"error", o.error.empty() ? ojson() : ojson(o.error)},
                        {"requests", o.requests},
                        {"bytes", o.bytes},
                        {"date", o.date.empty() ? ojson() : ojson(o.date)},
                        {"rows", o.rows},
                        {"rows_taken", o.rows_taken},
                        {"prices_set", o.prices_set},
                        {"notes", o.notes}});
  }
  return MakeJsonDoc(ojson{{"out", out},
                           {"written", written},
                           {"cache", cache},
                           {"changed", r.changed},
                           {"requests", t.requests},
                           {"bytes", t.bytes},
                           {"updated", t.updated},
                           {"not_modified", t.not_modified},
                           {"failed", r.failed},
                           {"prices_changed", diff.price_changes.size()},
                           {"outcomes", outcomes},
                           {"unknown_types", r.unknown_types},
                           {"diff", CatalogDiffJson(diff).rep().value}});
}

Table UpdateOutcomesTable(const CatalogUpdateReport& r) {
  Table t;
  t.AddColumn(Tr("download"));
  t.AddColumn(Tr("result"));
  t.AddColumn(Tr("requests"), true);
  t.AddColumn(Tr("MB"), true);
  t.AddColumn(Tr("data date"));
  t.AddColumn(Tr("figures set"), true);
  t.AddColumn(Tr("error"));
  for (const UpdateOutcome& o : r.outcomes) {
    t.AddRow({o.what, o.result, std::to_string(o.requests), Megabytes(o.bytes),
              o.date.empty() ? std::nullopt : std::optional<std::string>(o.date),
              o.result == "updated" ? std::optional<std::string>(std::to_string(o.prices_set))
                                    : std::nullopt,
              o.error.empty() ? std::nullopt : std::optional<std::string>(o.error)});
  }
  return t;
}

std::string UpdateSummaryText(const CatalogUpdateReport& r, const CatalogDiff& diff,
                              const std::string& out, bool written) {
  const Totals t = Count(r);
  std::string s = written ? "wrote " + out + ": " : "left " + out + " as it was: ";
  s += std::to_string(t.updated) + " downloads merged, " + std::to_string(t.not_modified) +
       " not modified (304), " + std::to_string(t.failed) + " failed; " +
       std::to_string(t.requests) + " requests, " + Megabytes(t.bytes) + " MB; " +
       std::to_string(diff.price_changes.size()) + " prices changed\n";
  for (const UpdateOutcome& o : r.outcomes) {
    for (const std::string& n : o.notes) s += o.what + ": " + n + "\n";
  }
  return s;
}

}  // namespace gpuadvisor
