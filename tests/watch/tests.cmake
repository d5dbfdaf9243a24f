# On-instance idle agent (issue 6). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  watch/watch_test.cc
)
