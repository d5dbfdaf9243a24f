# On-instance idle agent (issue 6, PRODUCT.md §7).
set(GPUADVISOR_WATCH_SOURCES
  src/watch/watch.cc
)
