# Fleet simulation (issue 6). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  simulate/simulate_test.cc
)
