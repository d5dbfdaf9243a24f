# The CLI's own code (src/cli/): the process runner. Paths are relative to tests/. The CLI's
# commands are tested end to end by the scripts beside this file (ctest cli_*).
list(APPEND GPUADVISOR_TEST_SOURCES
  cli/process_test.cc
)
