# The HTTP server (issue 8): API handlers without sockets, and the HTTP layer over loopback.
# Its own executable so the core tests do not link cpp-httplib. Paths are relative to tests/.
add_executable(gpuadvisor_server_tests server/api_test.cc server/http_test.cc
  server/http_transport_test.cc server/api_inputs_test.cc
  server/openapi_test.cc server/outbound_test.cc)
target_include_directories(gpuadvisor_server_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(gpuadvisor_server_tests PRIVATE ${GPUADVISOR_WARNINGS})
target_link_libraries(gpuadvisor_server_tests PRIVATE gpuadvisor_server gpuadvisor_testutil
                      GTest::gtest_main)
target_compile_definitions(gpuadvisor_server_tests PRIVATE
  GPUADVISOR_TESTS_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
gtest_discover_tests(gpuadvisor_server_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)

# The security suite (issue 28): `ctest -L security` runs this executable and the scripts and
# tests of other executables labelled "security" (attacks reproduced, each now refused).
add_executable(gpuadvisor_security_tests server/security_test.cc)
target_include_directories(gpuadvisor_security_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(gpuadvisor_security_tests PRIVATE ${GPUADVISOR_WARNINGS})
target_link_libraries(gpuadvisor_security_tests PRIVATE gpuadvisor_server GTest::gtest_main)
gtest_discover_tests(gpuadvisor_security_tests PROPERTIES LABELS "unit;security"
                     DISCOVERY_TIMEOUT 60)

# `gpuadvisor serve` end to end: start-up line, endpoints, SIGHUP reload, clean stop.
add_test(NAME cli_serve
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/serve_test.sh $<TARGET_FILE:gpuadvisor>)
set_tests_properties(cli_serve PROPERTIES LABELS integration TIMEOUT 60)

# The web page in Debian's chromium driven by playwright-core (npm): slow, and skipped by the
# sanitize and coverage stages (label "browser"); the release stage runs it.
add_test(NAME web_browser
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/server/browser_test.sh $<TARGET_FILE:gpuadvisor>
          ${CMAKE_CURRENT_BINARY_DIR}/browser)
set_tests_properties(web_browser PROPERTIES LABELS "browser;slow" TIMEOUT 300 SKIP_RETURN_CODE 77)
