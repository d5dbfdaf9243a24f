# Recommendation engine (issue 4, PRODUCT.md §6).
set(GPUADVISOR_RECOMMEND_SOURCES
  src/recommend/recommend.cc
  src/recommend/explain.cc
  src/recommend/levers.cc
)
