set(GPUADVISOR_IO_SOURCES
  src/io/table.cc
  src/io/catalog_views.cc
  src/io/estimate_views.cc
  src/io/pricing_views.cc
  src/io/recommend_views.cc
  src/io/request_fields.cc
)
