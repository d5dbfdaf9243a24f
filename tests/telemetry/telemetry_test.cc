// Telemetry readers: trimmed excerpts of real captures, every format variant, and bad input.
#include "gpuadvisor/telemetry.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gpuadvisor {
namespace {

// GPUADVISOR_TESTDATA_DIR is tests/data; the fixtures live beside it.
const std::string kFixtures =
    std::filesystem::path(GPUADVISOR_TESTDATA_DIR).parent_path().string() + "/fixtures/telemetry/";

struct Owned {
  std::string host, uuid, name;
  int index;
  std::optional<double> time, util, used, total, power;
};

Result<std::vector<Owned>> Collect(const std::string& text, const std::string& origin,
                                   TelemetryOptions o = {}) {
  std::vector<Owned> out;
  Result<TelemetryFileInfo> r = ReadTelemetryText(text, origin, o, [&](const TelemetrySample& s) {
    out.push_back({std::string(s.host), std::string(s.uuid), std::string(s.gpu_name), s.gpu_index,
                   s.time_s, s.util_pct, s.mem_used_mib, s.mem_total_mib, s.power_w});
    return Status::OK();
  });
  if (!r.ok()) return r.status();
  return out;
}

std::vector<Owned> CollectFile(const std::string& path, TelemetryFormat* format = nullptr) {
  std::vector<Owned> out;
  Result<TelemetryFileInfo> r = ReadTelemetryFile(path, {}, [&](const TelemetrySample& s) {
    out.push_back({std::string(s.host), std::string(s.uuid), std::string(s.gpu_name), s.gpu_index,
                   s.time_s, s.util_pct, s.mem_used_mib, s.mem_total_mib, s.power_w});
    return Status::OK();
  });
  EXPECT_TRUE(r.ok()) << path << ": " << r.status().message();
  if (r.ok() && format != nullptr) *format = r->format;
  return out;
}

std::string ErrorOf(const std::string& text, const std::string& origin, TelemetryOptions o = {}) {
  Result<std::vector<Owned>> r = Collect(text, origin, o);
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kParseError) << r.status().message();
  return r.status().message();
}

TEST(Telemetry, EveryRealCaptureExcerptParses) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    TelemetryFormat f = TelemetryFormat::kAuto;
    std::vector<Owned> s = CollectFile(e.path().string(), &f);
    EXPECT_FALSE(s.empty()) << e.path();
    ++files;
  }
  EXPECT_GE(files, 15);
}

TEST(Telemetry, NvidiaSmiCsvCaptureValues) {
  TelemetryFormat f = TelemetryFormat::kAuto;
  std::vector<Owned> s = CollectFile(kFixtures + "smi-nvidia-h100-80gb-hbm3-load.csv", &f);
  EXPECT_EQ(f, TelemetryFormat::kNvidiaSmiCsv);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s[0].index, 0);
  EXPECT_EQ(s[0].host, "smi-nvidia-h100-80gb-hbm3-load");  // hostname is [N/A]: the file name
  EXPECT_EQ(*s[0].util, 100);
  EXPECT_EQ(*s[0].total, 81559);
  ASSERT_TRUE(s[0].time);
  EXPECT_EQ(FormatUtc(*s[0].time).substr(0, 11), "2026-07-14T");
  // MIG mode: utilization.gpu is [N/A].
  std::vector<Owned> mig = CollectFile(kFixtures + "smi-nvidia-h100-mig-load.csv");
  ASSERT_EQ(mig.size(), 1u);
  EXPECT_FALSE(mig[0].util.has_value());
}

TEST(Telemetry, NvidiaSmiXmlCaptureValues) {
  TelemetryFormat f = TelemetryFormat::kAuto;
  std::vector<Owned> s = CollectFile(kFixtures + "xml-a10g.xml", &f);
  EXPECT_EQ(f, TelemetryFormat::kNvidiaSmiXml);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "NVIDIA A10G");
  EXPECT_EQ(*s[0].util, 0);
  EXPECT_EQ(*s[0].used, 22);
  EXPECT_EQ(*s[0].total, 23028);
  EXPECT_NEAR(*s[0].power, 25.58, 1e-9);
  EXPECT_EQ(FormatUtc(*s[0].time), "2023-04-24T16:11:51Z");
  // A100 in MIG mode: the MIG devices' memory is not the GPU's; gpu_util is N/A.
  std::vector<Owned> a100 = CollectFile(kFixtures + "xml-a100-sxm4-v12.xml");
  ASSERT_EQ(a100.size(), 1u);
  EXPECT_EQ(*a100[0].total, 81920);
  EXPECT_EQ(*a100[0].used, 50);
  EXPECT_FALSE(a100[0].util.has_value());
  EXPECT_NEAR(*a100[0].power, 67.03, 1e-9);
}

TEST(Telemetry, PrometheusExporterCaptureValues) {
  TelemetryFormat f = TelemetryFormat::kAuto;
  std::vector<Owned> s =
      CollectFile(kFixtures + "prom-nvidia-h100-80gb-hbm3__590.48.01__load.prom", &f);
  EXPECT_EQ(f, TelemetryFormat::kPrometheus);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "NVIDIA H100 80GB HBM3");  // from nvidia_smi_gpu_info
  EXPECT_EQ(*s[0].util, 100);
  EXPECT_NEAR(*s[0].used, 2.0780679168e10 / 1048576, 1e-6);
  EXPECT_NEAR(*s[0].power, 631.95, 1e-9);
  EXPECT_FALSE(s[0].time.has_value());
}

TEST(Telemetry, DcgmExporterScrapesWithTimestamps) {
  const std::string text =
      "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
      "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",device=\"nvidia0\",modelName=\"NVIDIA "
      "H100 80GB HBM3\",Hostname=\"node-1\",container=\"\",namespace=\"\",pod=\"\"} 37 "
      "1782864000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",modelName=\"NVIDIA H100 80GB "
      "HBM3\",Hostname=\"node-1\"} 0 1782864000000\n"
      "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node-1\"} 1000 1782864000000\n"
      "DCGM_FI_DEV_FB_FREE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node-1\"} 80000 1782864000000\n"
      "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node-1\"} 250.5 "
      "1782864000000\n"
      "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node-1\"} 1980 1782864000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"node-1\"} 40 1782864060000\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"node-1\"} 0.25 "
      "1782864060000\n";
  Result<std::vector<Owned>> r = Collect(text, "scrape.prom");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 4u);
  const Owned& first = (*r)[0];
  EXPECT_EQ(first.host, "node-1");
  EXPECT_EQ(first.index, 0);
  EXPECT_EQ(*first.util, 37);
  EXPECT_EQ(*first.total, 81000);
  EXPECT_EQ(*first.power, 250.5);
  EXPECT_EQ(*first.time, 1782864000);
  // GPU 1 at the second scrape: only GR_ENGINE_ACTIVE, as a percentage.
  bool found = false;
  for (const Owned& o : *r) {
    if (o.index == 1 && o.time && *o.time == 1782864060) {
      found = true;
      EXPECT_EQ(*o.util, 25);
    }
  }
  EXPECT_TRUE(found);
  EXPECT_NE(ErrorOf("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\" 5\n", "s.prom").find("s.prom:1:"),
            std::string::npos);
  EXPECT_NE(ErrorOf("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} high\n", "s.prom").find("s.prom:1:"),
            std::string::npos);
  EXPECT_NE(ErrorOf("# HELP x\nother_metric 1\n", "s.prom").find("no GPU metrics"),
            std::string::npos);
}

TEST(Telemetry, CsvVariants) {
  // nounits, columns in another order, [N/A], a repeated header from appended logs.
  const std::string text =
      "index, utilization.gpu, memory.used, timestamp, name\n"
      "0, 12, 100, 2026/07/01 00:00:00.100, NVIDIA L4\n"
      "1, [N/A], [N/A], 2026/07/01 00:00:00.120, NVIDIA L4\n"
      "index, utilization.gpu, memory.used, timestamp, name\n"
      "0, 0, 0, 2026-07-01T00:01:00Z, NVIDIA L4\n";
  Result<std::vector<Owned>> r = Collect(text, "x.csv");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ(*(*r)[0].util, 12);
  EXPECT_FALSE((*r)[1].util.has_value());
  EXPECT_EQ((*r)[1].index, 1);
  EXPECT_EQ(*(*r)[2].time, 1782864060);
  EXPECT_EQ((*r)[0].host, "x");

  // noheader: needs the column list.
  const std::string bare = "2026/07/01 00:00:00, 0, 55 %\n2026/07/01 00:01:00, 0, 45 %\n";
  EXPECT_NE(ErrorOf(bare, "bare.csv").find("columns"), std::string::npos);
  TelemetryOptions o;
  o.columns = {"timestamp", "index", "utilization.gpu"};
  Result<std::vector<Owned>> b = Collect(bare, "bare.csv", o);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->size(), 2u);
  EXPECT_EQ(*(*b)[1].util, 45);
}

TEST(Telemetry, CsvErrorsNameFileAndLine) {
  const std::string head = "timestamp, index, utilization.gpu [%]\n";
  EXPECT_NE(ErrorOf(head + "2026/07/01 00:00:00, 0, 5 %\n2026/07/01 00:01:00, 0\n", "a.csv")
                .find("a.csv:3: expected 3"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(head + "2026/07/01 00:00:00, 0, busy\n", "a.csv").find("a.csv:2: utilization.gpu"),
      std::string::npos);
  EXPECT_NE(ErrorOf(head + "yesterday, 0, 5\n", "a.csv").find("a.csv:2: timestamp"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "2026/07/01 00:00:00, 0, 130 %\n", "a.csv").find("a.csv:2"),
            std::string::npos);
  EXPECT_NE(ErrorOf("timestamp, index\n2026/07/01 00:00:00, 0\n", "b.csv").find("b.csv:1"),
            std::string::npos);
  EXPECT_NE(ErrorOf(head + "2026/07/01 00:00:00, -1, 5\n", "a.csv").find("a.csv:2: index"),
            std::string::npos);
}

TEST(Telemetry, XmlErrorsNameFileAndLine) {
  EXPECT_NE(
      ErrorOf("<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n<gpu>\n</nvidia_smi_log>\n", "s.xml")
          .find("s.xml:4: expected </gpu>"),
      std::string::npos);
  EXPECT_NE(ErrorOf("<nvidia_smi_log>\n<gpu>\n<utilization><gpu_util>lots</gpu_util>"
                    "</utilization>\n</gpu>\n</nvidia_smi_log>\n",
                    "s.xml")
                .find("gpu_util"),
            std::string::npos);
  // An index beyond int's range was cast regardless (undefined behaviour; found by
  // fuzz_telemetry_xml).
  for (const char* minor : {"8.88889e+30", "-1", "0.5", "4097", "nine"}) {
    EXPECT_NE(ErrorOf(std::string("<nvidia_smi_log>\n<gpu>\n<minor_number>") + minor +
                          "</minor_number>\n</gpu>\n</nvidia_smi_log>\n",
                      "s.xml")
                  .find("s.xml:3: minor_number: expected a GPU index"),
              std::string::npos)
        << minor;
  }
  EXPECT_NE(ErrorOf("<nvidia_smi_log>\n<gpu>\n", "s.xml").find("truncated"), std::string::npos);
  EXPECT_NE(ErrorOf("<html>\n</html>\n", "s.xml").find("nvidia_smi_log"), std::string::npos);
}

TEST(Telemetry, XmlSnapshotsAppended) {
  std::string one =
      "<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n"
      "<nvidia_smi_log>\n  <timestamp>Wed Jul  1 00:00:00 2026</timestamp>\n"
      "  <gpu id=\"00000000:00:1E.0\">\n    <product_name>Tesla T4</product_name>\n"
      "    <minor_number>0</minor_number>\n    <fb_memory_usage>\n      <total>15360 MiB</total>\n"
      "      <used>3 MiB</used>\n    </fb_memory_usage>\n"
      "    <utilization>\n      <gpu_util>7 %</gpu_util>\n    </utilization>\n"
      "  </gpu>\n</nvidia_smi_log>\n";
  std::string two = one;
  two.replace(two.find("00:00:00 2026"), 13, "00:05:00 2026");
  Result<std::vector<Owned>> r = Collect(one + two, "t4.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(*(*r)[1].time - *(*r)[0].time, 300);
  EXPECT_EQ(*(*r)[0].util, 7);
}

TEST(Telemetry, CloudWatchGetMetricData) {
  const std::string with_queries = R"({
    "MetricDataQueries": [
      {"Id": "u0", "MetricStat": {"Metric": {"Namespace": "CWAgent",
        "MetricName": "nvidia_smi_utilization_gpu",
        "Dimensions": [{"Name": "host", "Value": "ip-10-0-0-5"}, {"Name": "index", "Value": "0"},
                       {"Name": "name", "Value": "NVIDIA A10G"}]}, "Period": 300, "Stat": "Average"}},
      {"Id": "m0", "MetricStat": {"Metric": {"Namespace": "CWAgent",
        "MetricName": "nvidia_smi_memory_used",
        "Dimensions": [{"Name": "host", "Value": "ip-10-0-0-5"}, {"Name": "index", "Value": "0"}]},
        "Period": 300, "Stat": "Maximum"}}],
    "MetricDataResults": [
      {"Id": "u0", "Label": "nvidia_smi_utilization_gpu",
       "Timestamps": ["2026-07-01T00:05:00+00:00", "2026-07-01T00:00:00+00:00"],
       "Values": [3.0, 50.0], "StatusCode": "Complete"},
      {"Id": "m0", "Label": "nvidia_smi_memory_used",
       "Timestamps": ["2026-07-01T00:05:00+00:00"], "Values": [2048.0], "StatusCode": "Complete"}],
    "Messages": []})";
  Result<std::vector<Owned>> r = Collect(with_queries, "cw.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].host, "ip-10-0-0-5");
  EXPECT_EQ(*(*r)[0].util, 50);  // sorted by time
  EXPECT_EQ(*(*r)[1].util, 3);
  EXPECT_EQ(*(*r)[1].used, 2048);
  EXPECT_EQ((*r)[0].name, "NVIDIA A10G");
  // Labels alone, as a list of pages.
  const std::string labels = R"([{"MetricDataResults": [{"Id": "a",
      "Label": "nvidia_smi_utilization_gpu host=gpu-7 index=3",
      "Timestamps": ["2026-07-01T00:00:00Z"], "Values": [0]}]}])";
  Result<std::vector<Owned>> l = Collect(labels, "cw.json");
  ASSERT_TRUE(l.ok()) << l.status().message();
  ASSERT_EQ(l->size(), 1u);
  EXPECT_EQ((*l)[0].host, "gpu-7");
  EXPECT_EQ((*l)[0].index, 3);
  EXPECT_NE(ErrorOf("{\"MetricDataResults\": [}", "cw.json").find("cw.json: byte"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"MetricDataResults": [{"Id": "a", "Label": "CPUUtilization",
      "Timestamps": [], "Values": []}]})",
                    "cw.json")
                .find("no nvidia_smi_"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"MetricDataResults": [{"Id": "a", "Label": "nvidia_smi_power_draw",
      "Timestamps": ["2026-07-01T00:00:00Z"], "Values": []}]})",
                    "cw.json")
                .find("as many Values"),
            std::string::npos);
}

TEST(Telemetry, GzipFilesAreReadTransparently) {
  const std::string path = ::testing::TempDir() + "/gpu-log.csv.gz";
  const std::string text =
      "timestamp, hostname, index, utilization.gpu [%]\n2026/07/01 00:00:00, n1, 0, 5 %\n"
      "2026/07/01 00:01:00, n1, 0, 6 %\n";
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  std::vector<Owned> s;
  Result<TelemetryFileInfo> r = ReadTelemetryFile(path, {}, [&](const TelemetrySample& x) {
    s.push_back({std::string(x.host), "", "", x.gpu_index, x.time_s, x.util_pct, {}, {}, {}});
    return Status::OK();
  });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->gzip);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].host, "n1");
  EXPECT_EQ(*s[1].util, 6);
  std::remove(path.c_str());
  EXPECT_EQ(ReadTelemetryFile("/nonexistent/x.csv", {}, nullptr).status().code(),
            StatusCode::kIOError);
}

TEST(Telemetry, LongFilesStreamAcrossBlocks) {
  // Over 1 MiB so lines straddle block boundaries in the file reader.
  const std::string path = ::testing::TempDir() + "/long.csv";
  {
    std::ofstream out(path);
    out << "timestamp, index, utilization.gpu [%], memory.used [MiB]\n";
    for (int i = 0; i < 40000; ++i) {
      out << "2026/07/01 " << (i / 3600) % 24 / 10 << (i / 3600) % 24 % 10 << ":"
          << (i / 60) % 60 / 10 << (i / 60) % 60 % 10 << ":" << i % 60 / 10 << i % 60 % 10
          << ".000, 0, " << i % 101 << " %, " << i << " MiB\n";
    }
  }
  uint64_t n = 0;
  double sum = 0;
  Result<TelemetryFileInfo> r = ReadTelemetryFile(path, {}, [&](const TelemetrySample& s) {
    ++n;
    sum += *s.mem_used_mib;
    return Status::OK();
  });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(n, 40000u);
  EXPECT_EQ(sum, 39999.0 * 40000 / 2);
  std::remove(path.c_str());
}

TEST(Telemetry, TimeFormats) {
  EXPECT_EQ(*ParseTelemetryTime("2026/07/01 00:00:00.000"), 1782864000);
  EXPECT_EQ(*ParseTelemetryTime("2026-07-01T02:00:00+02:00"), 1782864000);
  EXPECT_EQ(*ParseTelemetryTime("2026-07-01 00:00:00 UTC"), 1782864000);
  EXPECT_EQ(*ParseTelemetryTime("Wed Jul  1 00:00:00 2026"), 1782864000);
  EXPECT_EQ(*ParseTelemetryTime("1782864000"), 1782864000);
  EXPECT_FALSE(ParseTelemetryTime("2026/13/01 00:00:00"));
  EXPECT_FALSE(ParseTelemetryTime("noon"));
  EXPECT_EQ(FormatUtc(1782864000.7), "2026-07-01T00:00:00Z");
}

}  // namespace
}  // namespace gpuadvisor
