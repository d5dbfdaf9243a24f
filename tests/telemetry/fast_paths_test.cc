// The nvidia-smi CSV reader's fast paths (issue 40) give what the plain code gives: the number of
// a cell without std::from_chars, a timestamp whose date and clock repeat the previous row's, and
// a line cut at its commas instead of by the CSV reader.
#include <gtest/gtest.h>

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpuadvisor/telemetry.h"
#include "telemetry/internal.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

// ParseValue as it was before the fast path (issue 40): std::from_chars on every cell.
std::optional<double> ReferenceValue(std::string_view t, bool* ok) {
  *ok = true;
  t = Trim(t);
  if (t.empty() || t.front() == '[' || t == "N/A" || t == "NaN" || t == "nan") return std::nullopt;
  const char* b = t.data();
  const char* e = b + t.size();
  if (*b == '+') ++b;
  double v = 0;
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || !std::isfinite(v)) {
    *ok = false;
    return std::nullopt;
  }
  std::string_view unit = Trim(std::string_view(ptr, static_cast<size_t>(e - ptr)));
  for (char c : unit) {
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '%') {
      *ok = false;
      return std::nullopt;
    }
  }
  if (unit == "GiB") v *= 1024;
  if (unit == "KiB") v /= 1024;
  return v;
}

void ExpectSameValue(const std::string& text) {
  bool ok_ref = true, ok = true;
  const std::optional<double> ref = ReferenceValue(text, &ok_ref);
  const std::optional<double> got = telemetry::ParseValue(text, &ok);
  EXPECT_EQ(ok, ok_ref) << '"' << text << '"';
  ASSERT_EQ(got.has_value(), ref.has_value()) << '"' << text << '"';
  if (got) {
    EXPECT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(*ref))
        << '"' << text << "\": " << *got << " vs " << *ref;
  }
}

TEST(TelemetryFastPaths, CellNumbersAsFromChars) {
  // Separated by '|' (no cell holds one).
  const std::string_view cells =
      "12 %|0|100|100.00 %|69.85 W|81559 MiB|1 GiB|2048 KiB|12MiB|12\t%| 7 |+5|+-5|-0|-5 W|"
      "5.|.5|.|+|-||e5|1e2|1e|1E2 %|5e+2|5e-2 %|1e400|inf|NAN|nan|NaN|N/A|[N/A]|0x10|12 % %|"
      "12 3|12,5|1_000|"
      "12 %x|12 \xc2\xb5s|00012|0.000001|12.|0.|00.00|123456789012345.6789|12345678901234567|"
      "123456789012345678|1234567890123456789|9007199254740992|9007199254740993|900719925474099.3|"
      "0.1000000000000000055511151231257827|1.00000000000000000001|99999999999999999999 MiB|"
      "4.9e-324|1.7976931348623157e308|3.14159265358979 W|0.0000000000000000000000001|"
      "1000000000000000000000000000000|50%|1 iB";
  for (std::string_view t : Split(cells, '|')) ExpectSameValue(std::string(t));
  std::mt19937_64 rng(40);
  const char* const kUnits[] = {"", " %", " MiB", " W", " GiB", " KiB", "%", "  W", " W ", " x1"};
  for (int n = 0; n < 200000; ++n) {
    std::string t;
    if (rng() % 16 == 0) t += '+';
    const int int_digits = static_cast<int>(rng() % 12);
    for (int i = 0; i < int_digits; ++i) t += static_cast<char>('0' + rng() % 10);
    if (rng() % 2 == 0) {
      t += '.';
      const int frac_digits = static_cast<int>(rng() % 22);
      for (int i = 0; i < frac_digits; ++i) t += static_cast<char>('0' + rng() % 10);
    }
    t += kUnits[rng() % std::size(kUnits)];
    ExpectSameValue(t);
    if (HasFailure()) return;
  }
}

void ExpectSameTimes(const std::vector<std::string>& texts) {
  telemetry::TimeParser p;
  for (const std::string& t : texts) {
    const std::optional<double> ref = ParseTelemetryTime(t);
    const std::optional<double> got = p.Parse(t);
    ASSERT_EQ(got.has_value(), ref.has_value()) << '"' << t << '"';
    if (got) {
      EXPECT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(*ref)) << '"' << t << '"';
    }
  }
}

TEST(TelemetryFastPaths, RepeatedClockReadOnce) {
  std::vector<std::string> texts;
  for (std::string_view t :
       Split("2026/07/01 00:00:00.000|2026/07/01 00:00:00.002|2026/07/01 00:00:00.002|"
             " 2026/07/01 00:00:00.004 |2026/07/01 00:00:00|2026/07/01 00:00:00Z|"
             "2026/07/01 00:00:00 UTC|2026/07/01 00:00:00+02:00|2026/07/01 00:00:00-0530|"
             "2026/07/01 00:00:00x|2026/07/01 00:00:00.5.5|2026/07/01 00:00:01,25|"
             "2026/07/01 00:00:01.123456789012345678901234567890123|2026/07/01 00:00|"
             "2026/07/01 00:00:0|2026/07/01|2026/07/01 00:00:01|1782864000|2026-07-01T00:00:01.5Z|"
             "2026/07/01 00:00:01.75|garbage|2026/07/01 00:00:01.875|Wed Jul  1 00:00:00 2026|"
             "2026/07/01 24:00:00|2026/07/01 23:59:60.5|2026/07/01 23:59:60.75|"
             "2026/13/01 00:00:00.1",
             '|')) {
    texts.emplace_back(t);
  }
  ExpectSameTimes(texts);
  // The fraction of a clock read once: every millisecond of a second, then the next second.
  std::vector<std::string> ms;
  for (int s = 0; s < 3; ++s) {
    for (int m = 0; m < 1000; ++m) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "2026/07/14 08:12:%02d.%03d", s, m);
      ms.emplace_back(buf);
    }
  }
  ExpectSameTimes(ms);
}

struct Row {
  std::string host, name;
  int index;
  std::optional<double> util;
};

std::vector<Row> ReadRows(const std::string& text) {
  std::vector<Row> out;
  Result<TelemetryFileInfo> r = ReadTelemetryText(text, "t.csv", {}, [&](const TelemetrySample& s) {
    out.push_back({std::string(s.host), std::string(s.gpu_name), s.gpu_index, s.util_pct});
    return Status::OK();
  });
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return out;
}

TEST(TelemetryFastPaths, LinesCutAtCommasAsTheCsvReaderCutsThem) {
  // The same rows, unquoted (cut at commas) and with a quoted field (the CSV reader; a quote
  // opens a field only as its first character).
  const std::vector<Row> plain = ReadRows(
      "timestamp, hostname, index, name, utilization.gpu [%]\n"
      "2026/07/01 00:00:00.000, node-a, 0, NVIDIA H100,  5 %\t\n"
      "2026/07/01 00:00:00.000,node-a,1,NVIDIA H100,7 %\r\r\n"
      "2026/07/01 00:00:01.000, node-a , 0 ,\tNVIDIA H100 , [N/A]\r\n");
  const std::vector<Row> quoted = ReadRows(
      "timestamp, hostname, index, name, utilization.gpu [%]\n"
      "2026/07/01 00:00:00.000,\"node-a\", 0, NVIDIA H100,  5 %\t\n"
      "2026/07/01 00:00:00.000,\"node-a\",1,NVIDIA H100,7 %\r\r\n"
      "2026/07/01 00:00:01.000,\"node-a\", 0 ,\tNVIDIA H100 , [N/A]\r\n");
  ASSERT_EQ(plain.size(), 3u);
  ASSERT_EQ(quoted.size(), 3u);
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(plain[i].host, "node-a");
    EXPECT_EQ(plain[i].host, quoted[i].host);
    EXPECT_EQ(plain[i].name, quoted[i].name);
    EXPECT_EQ(plain[i].index, quoted[i].index);
    EXPECT_EQ(plain[i].util, quoted[i].util);
  }
  EXPECT_EQ(plain[1].util, 7.0);              // one '\r' dropped by the line, one by the last field
  EXPECT_EQ(plain[2].name, "\tNVIDIA H100");  // a leading tab is kept, as the CSV reader keeps it
  EXPECT_FALSE(plain[2].util);
}

TEST(TelemetryFastPaths, RowsWithoutIdentityNumberedByTick) {
  // No index or UUID: the rows of one timestamp are GPUs 0, 1, ...; a repeated time continues.
  const std::vector<Row> rows = ReadRows(
      "timestamp, utilization.gpu [%]\n"
      "2026/07/01 00:00:00.000, 1 %\n"
      "2026/07/01 00:00:00.000, 2 %\n"
      "2026/07/01 00:00:00.0000003, 3 %\n"  // another double, printed alike ("%f")
      "2026/07/01 00:00:01.000, 4 %\n"
      "2026/07/01 00:00:01.000, 5 %\n");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].index, 0);
  EXPECT_EQ(rows[1].index, 1);
  EXPECT_EQ(rows[2].index, 2);
  EXPECT_EQ(rows[3].index, 0);
  EXPECT_EQ(rows[4].index, 1);
}

TEST(TelemetryFastPaths, RepeatedCellsReadOnceAndStillChecked) {
  // A column repeating its text is parsed once; a new text in it is parsed (and refused) anew.
  const std::string head =
      "timestamp, index, utilization.gpu [%], memory.total [MiB]\n"
      "2026/07/01 00:00:00, 0, 0 %, 81559 MiB\n"
      "2026/07/01 00:00:00, 1, 0 %, 81559 MiB\n";
  const std::vector<Row> rows = ReadRows(head + "2026/07/01 00:00:01, 0, 0 %, 1 GiB\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].util, 0.0);
  for (const char* bad : {"2026/07/01 00:00:01, 0, 0 % 5, 81559 MiB\n",
                          "2026/07/01 00:00:01, 0, 0 %, 81559 MiB2\n"}) {
    Result<TelemetryFileInfo> r = ReadTelemetryText(
        head + bad, "t.csv", {}, [](const TelemetrySample&) { return Status::OK(); });
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("t.csv:4: "), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace gpuadvisor
