// What a command shows: its JSON answer (doc/formats.md, "Command JSON"), its human table and
// the text printed around it, built from library results. The CLI, the HTTP server and the
// Python module all show these same views, so the three agree byte for byte.
#ifndef GPUADVISOR_APP_VIEWS_H_
#define GPUADVISOR_APP_VIEWS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/json_doc.h"
#include "app/table.h"
#include "gpuadvisor/catalog.h"
#include "gpuadvisor/catalog_import.h"
#include "gpuadvisor/catalog_update.h"
#include "gpuadvisor/commit_plan.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/fields.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/simulate.h"
#include "gpuadvisor/status.h"

namespace gpuadvisor {

// How old prices may be before outputs flag them (days), and today's date (ISO).
struct Freshness {
  std::string today;
  int max_price_age_days = 90;
  // Age of a price dated `date`; nullopt for undated.
  std::optional<int> AgeDays(const std::string& date) const;
  bool Stale(const std::string& date) const;
};

// The max-price-age option (Freshness::max_price_age_days), as every command that takes it
// declares it (fields.h): one bound for all.
inline FieldInfo MaxPriceAgeInfo(std::string_view help) {
  return {.help = help, .unit = "days", .lo = 0, .hi = 100000};
}

// The one stale-price warning a command prints (at most one line, whatever the number of sources
// and rows): the sources of the `used` prices that are undated or older than the limit, each with
// its date and age, and how many of the prices that is; nullopt when none is stale.
std::optional<std::string> StalePricesWarning(const std::vector<Provenance>& used,
                                              const Freshness& fresh);
// Human lines for stale prices among the rows (empty when all are fresh).
std::vector<std::string> StaleWarnings(const std::vector<InstanceRow>& rows,
                                       const Freshness& fresh);

// The error object every front end shows for a failed request:
// {"error": {"code", "message", "field"}}, field null when empty. `code` is StatusCodeName() of
// a Status, or a front end's own ("not_found", "method_not_allowed").
JsonDoc ErrorJson(std::string_view code, std::string_view message, std::string_view field);

// ---- instances, show, gpus, catalog info
JsonDoc InstancesJson(const std::vector<InstanceRow>& rows, const Freshness& fresh);
Table InstancesTable(const std::vector<InstanceRow>& rows);

// `show TYPE`: every region's prices; reserved terms and savings plans of one region, with the
// saving vs on-demand; dated prices per kind, oldest first, with the change from the last one.
Table ShowRegionsTable(const InstanceType& t, const Freshness& fresh);
Table ShowTermsTable(const RegionOffer& o);
Table ShowHistoryTable(const RegionOffer& o);

struct GpuSummary {
  const GpuSpec* gpu;
  std::vector<const InstanceType*> types;
  std::optional<InstanceRow> cheapest_on_demand, cheapest_spot;  // by $/GPU-hour
};
// One summary per accelerator model (retired types only when `include_retired`).
std::vector<GpuSummary> SummarizeGpus(const Catalog& c, bool include_retired);
JsonDoc GpusJson(const std::vector<GpuSummary>& gpus);
// A "*" after a model marks figures that were derived (GpuSpec::confidence "derived").
Table GpusTable(const std::vector<GpuSummary>& gpus);
// The footnote explaining "*" (with the derivations), or "" when no listed model has one.
std::string GpusTableFootnote(const std::vector<GpuSummary>& gpus);

// `catalog info`: the JSON; for people, the counts (a head line), one table row per source (its
// date, age, figures used, staleness) and the corrections and build rules below it.
// Which catalog a command reads: kind "embedded", "user" (the user catalog `catalog update`
// writes) or "file" (--catalog), and its path ("" for the embedded one).
struct CatalogInUse {
  std::string kind;  // "" = not said (the server, Python): no catalog_in_use key
  std::string path;
};
// `catalog info`: with `in_use`, a catalog_in_use object {kind, path, newest_price_date,
// price_age_days}.
JsonDoc CatalogInfoJson(const Catalog& c, const Freshness& fresh, const CatalogInUse& in_use = {});
// "in use: the user catalog PATH ...; newest prices DATE, N days old".
std::string CatalogInUseLine(const Catalog& c, const Freshness& fresh, const CatalogInUse& in_use);
std::string CatalogInfoHead(const Catalog& c);
// The price figures' ages, for people: a count line, then one row per kind (on-demand, spot,
// reserved, savings-plan, capacity-block): figures, older than the limit, undated, and the oldest
// dated one (date, age, source, type and region). The JSON's `price_figures`.
std::string CatalogFigureAgesText(const Catalog& c, const Freshness& fresh);
Table CatalogInfoTable(const Catalog& c, const Freshness& fresh);
std::string CatalogInfoNotes(const Catalog& c);
// "N of M price figures are older than D days, the oldest KIND DATE (AGE days, SOURCE); ..."
// (counted per figure), or nullopt when none is older than the limit.
std::optional<std::string> CatalogStaleWarning(const Catalog& c, const Freshness& fresh);

// ---- models
// Every model preset: name, family, the tasks it takes (TasksForModel), parameters (total and,
// for MoE, active), the transformer shape (null for vision models), context length or input
// resolution, and the source of its figures.
JsonDoc ModelsJson();
// The same, one row per preset; the source cut to its first clause (the whole text is in JSON).
Table ModelsTable();

// ---- estimate (the JSON answer is EstimateReportJson, requests.h)
// Only the rows that apply to the task; assumptions are rows named "assumption" when
// `with_assumptions` (CSV/Markdown), otherwise callers print AssumptionsText below the table.
Table EstimateTable(const Estimate& e, bool with_assumptions);
// The "Assumptions:" block printed below the table format (a blank line first).
std::string AssumptionsText(const Estimate& e);
// "8 x H100 (1 x p5.48xlarge)" style one-liner.
std::string HardwareLine(const Estimate& e);

// ---- pricing
JsonDoc PricingJson(const PricingResult& r, const Freshness& fresh);
// One row per priced option (the cheapest suitable one marked "*").
Table PricingTable(const PricingResult& r);
// "not priced in the catalog: reserved-3y-..., ..." or "" when every option is priced.
std::string PricingUnpricedLine(const PricingResult& r);

// ---- recommend
JsonDoc RecommendJson(const Recommendation& r, const RecommendRequest& req);
// Top plans: rank, configuration, time, cost and the first "why".
Table RecommendTable(const Recommendation& r);
// Plain-text details: every why / warning / advice line per plan, then the rejections and the
// filter lists applied; only "no plan: <note>" when the filter lists left no instance type.
std::string RecommendDetails(const Recommendation& r, bool all_rejections);
// Cost (y, log) against time (x, log) of the Pareto front and the ranked plans, as SVG.
std::string RecommendSvg(const Recommendation& r);

// ---- idle
// The report; with `prometheus`, its "prometheus" member says which server the samples came from.
JsonDoc IdleReportJson(const IdleReport& r, const Freshness& fresh,
                       const PrometheusSourceInfo* prometheus = nullptr);
// IdleReportJson(r, fresh).Text(), byte for byte, built one host at a time: the whole JSON tree
// of a report of thousands of hosts (about 10 KiB per host) never exists at once.
std::string IdleReportJsonText(const IdleReport& r, const Freshness& fresh,
                               const PrometheusSourceInfo* prometheus = nullptr);
// One row per host (largest saving first) and a fleet total row.
Table IdleTable(const IdleReport& r);
// Lines under the table: recommendations in full, guessed types, price sources, settings.
std::string IdleNotes(const IdleReport& r);

// ---- commitments
// The report (doc/commitments.md, "JSON"); `pushdown` names where the aggregation ran ("file",
// "athena").
JsonDoc CommitmentsJson(const CommitReport& r, const Freshness& fresh, std::string_view pushdown);
// One row per instance type and region: usage, coverage now, the commitment chosen and what it
// saves.
Table CommitmentsTable(const CommitReport& r);
// Lines under the table: the held commitments' utilisation, expiring terms, the alternatives and
// notes.
std::string CommitmentsNotes(const CommitReport& r);
// Hourly on-demand usage of the largest group against the ladder of commitment levels, as SVG.
std::string CommitmentsSvg(const CommitReport& r);

// ---- simulate
JsonDoc SimulationJson(const SimulationReport& r);
// Rows: the policy as given, static peak provisioning, the cheapest policy meeting the SLO.
Table SimulationTable(const SimulationReport& r);
std::string SimulationNotes(const SimulationReport& r);
// Load, ready capacity of the given and best policies, and cumulative cost over time.
std::string SimulationSvg(const SimulationReport& r);

// ---- catalog import, catalog diff
// The import report. Every count of changes (prices changed, types added and removed) is read
// from `diff` (DiffCatalogs of the catalogs before and after), the one source of truth that the
// diff table shows too; the report adds what only the import knows (figures set, kept, skipped).
JsonDoc ImportReportJson(const ImportReport& r, const CatalogDiff& diff, const std::string& out);
Table ImportInputsTable(const ImportReport& r);
// The summary lines under the inputs table: "wrote PATH: ...", the changes vs the previous
// catalog (from `diff`), and one "skipped" line per input and reason.
std::string ImportSummaryText(const ImportReport& r, const CatalogDiff& diff,
                              const std::string& out);
JsonDoc CatalogDiffJson(const CatalogDiff& d);

// ---- catalog update
// {out, written, cache, changed, requests, bytes, not_modified, failed[], outcomes[{what, url,
// result, error, requests, bytes, date, rows, rows_taken, prices_set, notes[]}],
// unknown_types[], diff{added_types, removed_types, price_changes}} (diff counted from `diff`).
JsonDoc UpdateReportJson(const CatalogUpdateReport& r, const CatalogDiff& diff,
                         const std::string& out, bool written, const std::string& cache);
// One row per download: what, result, requests, MB, data date, figures set, error.
Table UpdateOutcomesTable(const CatalogUpdateReport& r);
// "wrote PATH: ..." (or why nothing was written), the counts of requests and bytes.
std::string UpdateSummaryText(const CatalogUpdateReport& r, const CatalogDiff& diff,
                              const std::string& out, bool written);
// One row per price change (added and removed types first, as rows without prices).
Table CatalogDiffTable(const CatalogDiff& d, size_t limit = 0);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_VIEWS_H_
