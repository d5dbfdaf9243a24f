# Purchase options (issue 4). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  cost/pricing_test.cc
)
