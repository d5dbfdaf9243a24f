# catalog import: readers, merge rules and the streaming CSV scanner (fixtures checked in).
list(APPEND GPUADVISOR_TEST_SOURCES catalog/import_test.cc catalog/issue16_catalog_test.cc
  catalog/update_test.cc
  catalog/price_floor_test.cc)
set_source_files_properties(catalog/import_test.cc catalog/issue16_catalog_test.cc
  catalog/update_test.cc
  catalog/price_floor_test.cc PROPERTIES
  COMPILE_DEFINITIONS IMPORT_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/catalog/fixtures")
add_test(NAME cli_import
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/import_test.sh $<TARGET_FILE:gpuadvisor>
          ${CMAKE_CURRENT_SOURCE_DIR}/catalog/fixtures)
set_tests_properties(cli_import PROPERTIES LABELS integration)
# The embedded catalog rebuilds from its public sources (skipped where they are absent).
add_test(NAME cli_catalog_rebuild
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/catalog_rebuild_test.sh $<TARGET_FILE:gpuadvisor>
          ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_catalog_rebuild PROPERTIES LABELS integration SKIP_RETURN_CODE 77)
# catalog update against a local stand-in for AWS's price-list and spot hosts (loopback only,
# real formats): newer prices, 304s, a failing region, truncated and slow bodies, kill -9,
# proxies (~25 s).
add_test(NAME cli_update
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/update_test.sh $<TARGET_FILE:gpuadvisor>)
set_tests_properties(cli_update PROPERTIES LABELS integration TIMEOUT 180)
