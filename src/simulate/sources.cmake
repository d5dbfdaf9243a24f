# Fleet simulation with autoscaling and spot (issue 6, PRODUCT.md §7).
set(GPUADVISOR_SIMULATE_SOURCES
  src/simulate/simulate.cc
)
