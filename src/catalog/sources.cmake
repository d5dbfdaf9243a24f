set(GPUADVISOR_CATALOG_SOURCES
  src/catalog/catalog.cc
  src/catalog/catalog_json.cc
  src/catalog/embedded.cc
  src/catalog/query.cc
  src/catalog/build/instance_types_reader.cc
  src/catalog/build/gpu_specs_reader.cc
  src/catalog/build/accelerator_figures.cc
  src/catalog/build/price_readers.cc
  src/catalog/build/catalog_builder.cc
)
list(APPEND GPUADVISOR_CATALOG_SOURCES
  src/catalog/import/price_list_csv.cc
  src/catalog/import/price_list_json.cc
  src/catalog/import/aws_json.cc
  src/catalog/import/importer.cc
  src/catalog/import/diff.cc
)
