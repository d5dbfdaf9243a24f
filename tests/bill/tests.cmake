# The bill and commitments sized from it (issue 41). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  bill/commit_plan_test.cc
)
