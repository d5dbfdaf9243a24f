// The steps the telemetry parsers were split into (issue 18), each pinned through the public
// reader: the nvidia-smi CSV header mapping and its fallbacks, the GPU index check, the
// numbering of rows without a GPU identity, and the Prometheus host, unit and info steps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuadvisor/telemetry.h"

namespace gpuadvisor {
namespace {

struct Row {
  std::string host, uuid, name;
  int index;
  std::optional<double> util, used, total, power;
};

Result<std::vector<Row>> Read(const std::string& text, const std::string& origin) {
  std::vector<Row> out;
  Result<TelemetryFileInfo> r = ReadTelemetryText(text, origin, {}, [&](const TelemetrySample& s) {
    out.push_back({std::string(s.host), std::string(s.uuid), std::string(s.gpu_name), s.gpu_index,
                   s.util_pct, s.mem_used_mib, s.mem_total_mib, s.power_w});
    return Status::OK();
  });
  if (!r.ok()) return r.status();
  return out;
}

// Header mapping: alias column names, units in brackets, memory.free completing the total,
// power.draw.average standing in for power.draw, a bus id standing in for the UUID.
TEST(TelemetrySteps, CsvHeaderMapsAliasesAndFallbacks) {
  Result<std::vector<Row>> r = Read(
      "timestamp, hostname, gpu_uuid, gpu_name, utilization.gpu [%], memory.used [MiB], "
      "memory.free [MiB], power.draw.average [W]\n"
      "2026/07/01 00:00:00, node-7, GPU-abc, NVIDIA L4, 40 %, 1000 MiB, 23000 MiB, 55.5 W\n",
      "a.csv");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 1u);
  const Row& x = (*r)[0];
  EXPECT_EQ(x.host, "node-7");
  EXPECT_EQ(x.uuid, "GPU-abc");
  EXPECT_EQ(x.name, "NVIDIA L4");
  EXPECT_EQ(x.util, 40);
  EXPECT_EQ(x.used, 1000);
  EXPECT_EQ(x.total, 24000);  // used + free
  EXPECT_EQ(x.power, 55.5);

  // memory.total wins over used + free, power.draw over its average (used only when unknown);
  // pci.bus_id names the GPU; a [N/A] host is the file's.
  r = Read(
      "timestamp, host, pci.bus_id, utilization.gpu, memory.used, memory.total, memory.free, "
      "power.draw, power.draw.instant\n"
      "2026/07/01 00:00:00, [N/A], 00000000:18:00.0, 5, 100, 200, 50, 70, 80\n"
      "2026/07/01 00:00:00, [N/A], 00000000:2A:00.0, 5, 100, 200, 50, [N/A], 80\n",
      "b.csv");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].host, "b");
  EXPECT_EQ((*r)[0].uuid, "00000000:18:00.0");
  EXPECT_EQ((*r)[0].index, -1);  // identified by bus id: not numbered by row
  EXPECT_EQ((*r)[0].total, 200);
  EXPECT_EQ((*r)[0].power, 70);
  EXPECT_EQ((*r)[1].power, 80);
}

TEST(TelemetrySteps, CsvGpuIndexIsAWholeNumberUpTo4096) {
  const std::string head = "timestamp, index, utilization.gpu\n2026/07/01 00:00:00, ";
  Result<std::vector<Row>> ok = Read(head + "4096, 5\n", "i.csv");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ((*ok)[0].index, 4096);
  for (const char* bad : {"4097", "1.5", "-1", "zero"}) {
    Result<std::vector<Row>> r = Read(head + bad + ", 5\n", "i.csv");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(),
              std::string("i.csv:2: index: expected a GPU index 0 to 4096, got \"") + bad + "\"");
  }
}

// Rows without index, UUID or bus id: the rows of one timestamp are GPUs 0, 1, ... in order,
// and a new timestamp starts again at 0 (an [N/A] index counts as no index).
TEST(TelemetrySteps, CsvRowsWithoutIdentityAreNumberedWithinATick) {
  Result<std::vector<Row>> r = Read(
      "timestamp, index, utilization.gpu\n"
      "2026/07/01 00:00:00, [N/A], 1\n2026/07/01 00:00:00, [N/A], 2\n"
      "2026/07/01 00:00:00, [N/A], 3\n2026/07/01 00:01:00, [N/A], 4\n"
      "2026/07/01 00:01:00, [N/A], 5\n",
      "t.csv");
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int> got;
  for (const Row& x : *r) got.push_back(x.index);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 0, 1}));
}

// The host of a Prometheus series: its host label, else the scrape target without its port,
// else the file's; units scaled to % and MiB; nvidia_smi_gpu_info names and numbers a GPU.
TEST(TelemetrySteps, PrometheusHostUnitsAndGpuInfo) {
  Result<std::vector<Row>> r = Read(
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",instance=\"10.0.0.5:9400\"} 50\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"h1\",instance=\"10.0.0.6:9400\"} 60\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"2\"} 70\n",
      "fleet.prom");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].host, "10.0.0.5");
  EXPECT_EQ((*r)[1].host, "h1");
  EXPECT_EQ((*r)[2].host, "fleet");

  r = Read(
      "nvidia_smi_gpu_info{uuid=\"GPU-1\",name=\"NVIDIA L4\",index=\"3\"} 1\n"
      "nvidia_smi_utilization_gpu_ratio{uuid=\"GPU-1\"} 0.25\n"
      "nvidia_smi_memory_used_bytes{uuid=\"GPU-1\"} 2097152\n"
      "nvidia_smi_memory_total_bytes{uuid=\"GPU-1\"} 4194304\n",
      "n.prom");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].name, "NVIDIA L4");
  EXPECT_EQ((*r)[0].index, 3);
  EXPECT_EQ((*r)[0].util, 25);
  EXPECT_EQ((*r)[0].used, 2);
  EXPECT_EQ((*r)[0].total, 4);
}

}  // namespace
}  // namespace gpuadvisor
