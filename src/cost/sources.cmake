# Purchase options and their costs (issue 4, PRODUCT.md §5).
set(GPUADVISOR_COST_SOURCES
  src/cost/pricing.cc
)
