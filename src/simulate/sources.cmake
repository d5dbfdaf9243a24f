# Fleet simulation with autoscaling and spot (issue 6; doc/cost-control.md).
set(GPUADVISOR_SIMULATE_SOURCES
  src/simulate/simulate.cc
)
