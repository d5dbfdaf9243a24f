# Idle and rightsizing analysis (issue 6, PRODUCT.md §7).
set(GPUADVISOR_IDLE_SOURCES
  src/idle/idle.cc
)
