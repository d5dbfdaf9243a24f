# Recommendation engine (issue 4). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  recommend/recommend_test.cc
  recommend/rejections_test.cc
  recommend/filters_test.cc
  recommend/advice_test.cc
  recommend/currency_test.cc
  recommend/doubts_test.cc
  recommend/price_band_test.cc
  recommend/levers_test.cc
)
