# Purchase options and their costs (issue 4; doc/recommend.md).
set(GPUADVISOR_COST_SOURCES
  src/cost/pricing.cc
)
