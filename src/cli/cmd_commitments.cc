// `gpuadvisor commitments FILE... | --athena-table T`: Reserved Instances and Savings Plans sized
// from the account's bill (doc/commitments.md). The aggregation runs here on CUR files, or in
// Amazon Athena through the user's AWS CLI (its credentials, profiles, SSO), paged back with
// get-query-results.
#include <unistd.h>

#include <chrono>
#include <thread>

#include "app/command_args.h"
#include "app/requests.h"
#include "app/views.h"
#include "cli/aws_cli.h"
#include "cli/common.h"
#include "gpuadvisor/bill.h"
#include "gpuadvisor/commit_plan.h"
#include "util/aws_names.h"
#include "util/dates.h"
#include "util/files.h"
#include "util/rj_reader.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct CommitmentsCliOptions {
  CommonOptions common;
  TableOptions table;
};

// The SQL on one line, its comment dropped: the AWS CLI takes it as one argument, which may
// hold no control character and may not begin with '-'.
std::string OneLine(const std::string& sql) {
  std::string out;
  bool space = false;
  for (std::string_view line : Split(sql, '\n')) {
    line = Trim(line);
    if (line.empty() || StartsWith(line, "--")) continue;
    for (char c : line) {
      if (c == ' ') {
        space = true;
        continue;
      }
      if (space && !out.empty()) out += ' ';
      space = false;
      out += c;
    }
    space = true;
  }
  return out;
}

// s3://bucket/prefix/: a bucket name (3-63 of a-z 0-9 . -) and a plain key prefix.
Status CheckS3Url(const std::string& url) {
  constexpr std::string_view kScheme = "s3://";
  bool ok = StartsWith(url, kScheme) && url.size() <= 1024;
  const std::string_view rest = ok ? std::string_view(url).substr(kScheme.size()) : "";
  const std::string_view bucket = rest.substr(0, rest.find('/'));
  ok = ok && bucket.size() >= 3 && bucket.size() <= 63;
  for (char c : rest) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                       c == '/' || c == '_' || (c >= 'A' && c <= 'Z');
    ok = ok && plain;
  }
  if (!ok) {
    return Status::InvalidArgument(
               "athena-output: expected s3://bucket/prefix/ (letters, digits, "
               ". - _ /), got \"" +
               TerminalSafe(url.substr(0, 80)) + "\"")
        .WithField("athena-output");
  }
  return Status::OK();
}

// Runs the push-down in Athena and hands every result row to `reader`.
Status RunAthena(const CommitmentsArgs& a, const std::string& sql, BillReader* reader) {
  const AwsCli aws(AwsCliSettings{.options = a.aws_cli, .timeout_s = 120});
  const std::string workgroup = a.athena_workgroup.empty() ? "primary" : a.athena_workgroup;
  std::vector<std::string> start = {"athena",     "start-query-execution", "--query-string",
                                    OneLine(sql), "--work-group",          workgroup};
  if (!a.athena_output.empty()) {
    GPUADVISOR_RETURN_IF_ERROR(CheckS3Url(a.athena_output));
    start.emplace_back("--result-configuration");
    start.push_back(R"({"OutputLocation":")" + a.athena_output + R"("})");
  }
  Result<std::string> started = aws.Call(a.region, start);
  if (!started.ok()) return started.status();
  rapidjson::Document doc;
  GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(*started, "athena start-query-execution", &doc));
  RjReader rj("athena start-query-execution");
  const std::string id = doc.IsObject() ? rj.Str(doc, "QueryExecutionId", "$") : "";
  GPUADVISOR_RETURN_IF_ERROR(rj.status());
  if (!IsPageToken(id)) {
    return Status::ParseError("athena start-query-execution: $.QueryExecutionId: expected an id");
  }
  reader->AddSource("athena query " + id);

  // Wait for it: 1 s between polls at first, up to 10 s, within --athena-timeout.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(a.athena_timeout_s * 1000));
  double wait_s = 0.2;
  for (;;) {
    Result<std::string> polled =
        aws.Call(a.region, {"athena", "get-query-execution", "--query-execution-id", id});
    if (!polled.ok()) return polled.status();
    rapidjson::Document state_doc;
    GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(*polled, "athena get-query-execution", &state_doc));
    RjReader sr("athena get-query-execution");
    const rapidjson::Value* exec =
        state_doc.IsObject() ? sr.OptObject(state_doc, "QueryExecution", "$") : nullptr;
    const rapidjson::Value* status =
        exec ? sr.OptObject(*exec, "Status", "$.QueryExecution") : nullptr;
    const std::string state = status ? sr.Str(*status, "State", "$.QueryExecution.Status") : "";
    GPUADVISOR_RETURN_IF_ERROR(sr.status());
    if (state == "SUCCEEDED") break;
    if (state == "FAILED" || state == "CANCELLED") {
      std::string why = status ? sr.OptStr(*status, "StateChangeReason", "$").value_or("") : "";
      std::string message = "athena query " + id;
      message += " " + state + ": " + TerminalSafe(why.substr(0, 300));
      return Status::IOError(message);
    }
    if (state.empty()) {
      return Status::ParseError(
          "athena get-query-execution: $.QueryExecution.Status.State: expected a state");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      (void)aws.Call(a.region, {"athena", "stop-query-execution", "--query-execution-id", id});
      return Status::IOError("athena query " + id + " still " + TerminalSafe(state) +
                             " after --athena-timeout: stopped");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(wait_s * 1000)));
    wait_s = std::min(10.0, wait_s * 2);
  }

  // Page through the result: at most 1,000 rows a call, the first row the header.
  std::string token;
  bool header = true;
  uint64_t page = 0;
  for (;;) {
    std::vector<std::string> call = {
        "athena", "get-query-results", "--query-execution-id", id, "--max-results",
        "1000",   "--no-paginate"};
    if (!token.empty()) {
      call.emplace_back("--next-token");
      call.push_back(token);
    }
    Result<std::string> got = aws.Call(a.region, call);
    if (!got.ok()) return got.status();
    const std::string origin = "athena get-query-results page " + std::to_string(++page);
    rapidjson::Document res;
    GPUADVISOR_RETURN_IF_ERROR(ParseRapidJson(*got, origin, &res));
    RjReader rr(origin);
    const rapidjson::Value* set = res.IsObject() ? rr.OptObject(res, "ResultSet", "$") : nullptr;
    if (set == nullptr) return Status::ParseError(origin + ": $.ResultSet: expected an object");
    const rapidjson::Value& rows = rr.Array(*set, "Rows", "$.ResultSet");
    GPUADVISOR_RETURN_IF_ERROR(rr.status());
    std::vector<std::string> cells;
    std::vector<std::string_view> fields;
    for (rapidjson::SizeType i = 0; i < rows.Size(); ++i) {
      const JsonPath row_path("$.ResultSet.Rows", "", i);
      const rapidjson::Value& row = rows[i];
      const rapidjson::Value& data = row.IsObject() ? rr.Array(row, "Data", row_path) : rows[i];
      GPUADVISOR_RETURN_IF_ERROR(rr.status());
      if (!data.IsArray())
        return Status::ParseError(origin + ": row " + std::to_string(i) + ": expected Data");
      cells.clear();
      for (rapidjson::SizeType k = 0; k < data.Size(); ++k) {
        const rapidjson::Value& cell = data[k];
        cells.push_back(cell.IsObject() ? rr.OptStr(cell, "VarCharValue", row_path).value_or("")
                                        : "");
      }
      GPUADVISOR_RETURN_IF_ERROR(rr.status());
      fields.assign(cells.begin(), cells.end());
      if (header) {
        header = false;
        bool same = fields.size() == std::size(kBillAggregateColumns);
        for (size_t k = 0; same && k < fields.size(); ++k)
          same = fields[k] == kBillAggregateColumns[k];
        if (same) continue;
        return Status::ParseError(origin + ": the first row: expected the push-down's header");
      }
      GPUADVISOR_RETURN_IF_ERROR(
          reader->AddAggregateRow(fields, origin + " row " + std::to_string(i + 1)));
    }
    const std::optional<std::string> next = rr.OptStr(res, "NextToken", "$");
    GPUADVISOR_RETURN_IF_ERROR(rr.status());
    if (!next || next->empty()) break;
    if (!IsPageToken(*next))
      return Status::ParseError(origin + ": $.NextToken: expected a page token");
    token = *next;
  }
  return Status::OK();
}

int Run(const CommitmentsCliOptions& o) {
  Result<Context> ctx = MakeContext(o.common);
  if (!ctx.ok()) return Fail(ctx.status());
  Result<OptionValues> values = o.table.Values();
  if (!values.ok()) return Fail(values.status());
  Result<CommitmentsArgs> parsed = ParseCommitmentsArgs(*values);
  if (!parsed.ok()) return Fail(parsed.status());
  const CommitmentsArgs& a = *parsed;
  Result<std::pair<int64_t, int64_t>> range = CommitmentsRange(a);
  if (!range.ok()) return Fail(range.status());
  const bool athena = !a.athena_table.empty();
  if (!athena && !a.sql && a.files.empty()) {
    return Fail(Status::InvalidArgument(
        "commitments: expected Cost and Usage Report files or --athena-table TABLE"));
  }
  BillReader reader(*ctx->catalog);
  if (a.sql || athena) {
    // One statement: printed (--sql), or run in Athena.
    Result<std::string> sql =
        CurPushdownSql(a.athena_table.empty() ? "cur2" : a.athena_table,
                       AcceleratorFamilies(*ctx->catalog), range->first, range->second);
    if (!sql.ok()) return Fail(sql.status().WithField("athena-table"));
    if (a.sql) {
      PrintText(*sql);
      return kExitOk;
    }
    if (Status st = RunAthena(a, *sql, &reader); !st.ok()) return Fail(st);
  }
  for (const std::string& f : a.files) {
    if (Status st = reader.AddFile(f); !st.ok()) return Fail(st);
  }
  Result<BillUsage> bill = reader.Finish();
  if (!bill.ok()) return Fail(bill.status());
  CommitOptions options = a.options;
  if (std::optional<int64_t> today = ParseIsoDate(ctx->fresh.today)) options.today_day = *today;
  for (const std::string& f : a.plans) {
    Result<std::string> text = ReadFile(f, kPlanFile);
    if (!text.ok()) return Fail(text.status().WithPrefix("--plan").WithField("plan"));
    if (Status st = AddPlannedRun(*text, f, &options); !st.ok()) return Fail(st);
  }
  Result<CommitReport> r = AdviseCommitments(*bill, *ctx->catalog, options);
  if (!r.ok()) return Fail(r.status());
  if (!a.chart.empty()) {
    if (Status st = WriteFileAtomic(a.chart, CommitmentsSvg(*r)); !st.ok()) {
      return Fail(st.WithField("chart"));
    }
  }
  Emit(
      *ctx, [&] { return CommitmentsJson(*r, ctx->fresh, athena ? "athena" : "file"); },
      [&] { return CommitmentsTable(*r); }, {});
  if (ctx->format == OutputFormat::kTable) PrintText(CommitmentsNotes(*r));
  return kExitOk;
}

}  // namespace

void SetupCommitments(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<CommitmentsCliOptions>();
  AddCommonOptions(app, &o->common);
  o->table.Add(app, "commitments");
  app->footer(
      R"(For each instance type and region, the hourly usage on-demand paid for is sized against every
commitment the catalog prices (Reserved Instances, Savings Plans; import the AWS Price List for all
terms): the level that minimises the cost of the history, bursts above it on on-demand (or spot,
Capacity Blocks). The history is taken to repeat over the term; "if usage halves" is the downside.
Runs about to start (--plan, from `recommend --json`) come on top for their hours from the bill's end.

Examples:
  gpuadvisor commitments cur-2026-*.csv.gz
  gpuadvisor commitments cur.csv.gz --term 3y --payment all-upfront --discount 8 --json
  gpuadvisor commitments --athena-table cur.cur2 --athena-workgroup finops --since 2025-12-01 \
    --until 2026-12-01 --chart ladder.svg
  gpuadvisor commitments cur.csv.gz --plan pretrain.json --term any
  gpuadvisor commitments --sql --athena-table cur.cur2 > hourly.sql)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
