# On-instance idle agent (issue 6; doc/cost-control.md).
set(GPUADVISOR_WATCH_SOURCES
  src/watch/watch.cc
)
