set(GPUADVISOR_UTIL_SOURCES
  src/util/status.cc
  src/util/strings.cc
  src/util/numbers.cc
  src/util/csv.cc
  src/util/files.cc
  src/util/rj_reader.cc
)
