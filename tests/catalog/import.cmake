# catalog import: readers, merge rules and the streaming CSV scanner (fixtures checked in).
list(APPEND GPUADVISOR_TEST_SOURCES catalog/import_test.cc catalog/issue16_catalog_test.cc
  catalog/price_floor_test.cc)
set_source_files_properties(catalog/import_test.cc catalog/issue16_catalog_test.cc
  catalog/price_floor_test.cc PROPERTIES
  COMPILE_DEFINITIONS IMPORT_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/catalog/fixtures")
add_test(NAME cli_import
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/import_test.sh $<TARGET_FILE:gpuadvisor>
          ${CMAKE_CURRENT_SOURCE_DIR}/catalog/fixtures)
set_tests_properties(cli_import PROPERTIES LABELS integration)
