# Recommendation engine (issue 4; doc/recommend.md).
set(GPUADVISOR_RECOMMEND_SOURCES
  src/recommend/recommend.cc
  src/recommend/explain.cc
  src/recommend/levers.cc
  src/recommend/filters.cc
  src/recommend/doubts.cc
  src/recommend/price_band.cc
)
