// The workload tests (and the calibration tables in doc/estimation.md) use the GPU figures in
// test_hardware.cc so that they do not move when the catalog is refreshed. This test ties them
// to the catalog the binary ships: if a refresh changes a figure the estimator depends on, it
// fails and the calibration must be re-run.
#include <gtest/gtest.h>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/query.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

void ExpectSame(const char* what, const std::optional<double>& a, const std::optional<double>& b) {
  ASSERT_EQ(a.has_value(), b.has_value()) << what;
  if (a) {
    EXPECT_DOUBLE_EQ(*a, *b) << what;
  }
}

TEST(CatalogSpecsTest, TestGpusMatchTheEmbeddedCatalog) {
  std::shared_ptr<const Catalog> c = *EmbeddedCatalog();
  const std::pair<const char*, const char*> names[] = {{"A100-40GB", "A100-40GB"},
                                                       {"A100-80GB", "A100-80GB"},
                                                       {"H100", "H100"},
                                                       {"H200", "H200"},
                                                       {"B200", "B200"},
                                                       {"V100", "V100-16GB"},
                                                       {"T4", "T4"},
                                                       {"A10G", "A10G"},
                                                       {"L4", "L4"},
                                                       {"L40S", "L40S"},
                                                       {"Trainium", "Trainium"},
                                                       {"Inferentia2", "Inferentia2"},
                                                       {"Trainium2", "Trainium2"}};
  for (const auto& [test_name, catalog_name] : names) {
    SCOPED_TRACE(test_name);
    const GpuSpec& t = testing::TestGpu(test_name);
    const GpuSpec* g = c->FindGpu(catalog_name);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(t.aws_memory_mib, g->aws_memory_mib);
    ExpectSame("memory_bw_gbyte_s", t.memory_bw_gbyte_s, g->memory_bw_gbyte_s);
    ExpectSame("fp16_tflops", t.fp16_tflops, g->fp16_tflops);
    ExpectSame("fp8_tflops", t.fp8_tflops, g->fp8_tflops);
    ExpectSame("fp32_tflops", t.fp32_tflops, g->fp32_tflops);
    ExpectSame("sm_count", t.sm_count, g->sm_count);
    ExpectSame("l2_cache_mib", t.l2_cache_mib, g->l2_cache_mib);
    ExpectSame("fp64_tflops", t.fp64_tflops, g->fp64_tflops);
    ExpectSame("nvlink_gbyte_s", t.nvlink_gbyte_s, g->nvlink_gbyte_s);
    ExpectSame("bf16_tflops", t.bf16_tflops, g->bf16_tflops);
    ExpectSame("tf32_tflops", t.tf32_tflops, g->tf32_tflops);
    ExpectSame("int8_tops", t.int8_tops, g->int8_tops);
    ExpectSame("fp64_tensor_tflops", t.fp64_tensor_tflops, g->fp64_tensor_tflops);
    ExpectSame("neuronlink_gbyte_s", t.neuronlink_gbyte_s, g->neuronlink_gbyte_s);
    EXPECT_EQ(t.neuron_cores, g->neuron_cores);
    EXPECT_EQ(t.neuronlink_topology, g->neuronlink_topology);
    EXPECT_EQ(t.confidence, g->confidence);
    EXPECT_EQ(t.derived_fields, g->derived_fields);
    EXPECT_EQ(t.supports_bf16, g->supports_bf16);
    EXPECT_EQ(t.supports_fp8, g->supports_fp8);
    EXPECT_EQ(t.vendor, g->vendor);
  }
}

}  // namespace
}  // namespace gpuadvisor
