# The HTTP server (issue 8): API handlers without sockets, and the HTTP layer over loopback.
# Its own executable so the core tests do not link cpp-httplib, the server tests' HTTP client
# (Debian libcpp-httplib-dev, found with pkg-config; the product uses libcurl). Paths are relative
# to tests/.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CPPHTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_executable(gpuadvisor_server_tests server/admission_test.cc server/api_test.cc server/http_test.cc
  server/openapi_test.cc server/worker_pool_test.cc)
target_include_directories(gpuadvisor_server_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(gpuadvisor_server_tests PRIVATE ${GPUADVISOR_WARNINGS})
target_link_libraries(gpuadvisor_server_tests PRIVATE gpuadvisor_server gpuadvisor_testutil
                      PkgConfig::CPPHTTPLIB GTest::gtest_main)
target_compile_definitions(gpuadvisor_server_tests PRIVATE
  GPUADVISOR_TESTS_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
gtest_discover_tests(gpuadvisor_server_tests PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)

# The security suite (issue 28): `ctest -L security` reproduces each attack of the security
# report and checks it is refused. This executable holds the server's part: the cross-site guard
# and Host allow-list (security_test), the Beast transport's framing, slow clients, eviction,
# cancellation and drain (http_transport_test), the Prometheus allow-list and ceilings against
# a recording fake (outbound_test), duplicate keys and POST query parameters (api_inputs_test).
# The library's part runs from the unit executables (security_library, below); the CLI's from
# the scripts labelled "security" (cli_serve, cli_input_validation, cli_idle_prometheus).
add_executable(gpuadvisor_security_tests server/security_test.cc server/http_transport_test.cc
  server/outbound_test.cc server/api_inputs_test.cc server/bounds_test.cc)
target_include_directories(gpuadvisor_security_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(gpuadvisor_security_tests PRIVATE ${GPUADVISOR_WARNINGS})
target_link_libraries(gpuadvisor_security_tests PRIVATE gpuadvisor_server gpuadvisor_testutil
                      PkgConfig::CPPHTTPLIB GTest::gtest_main)
target_compile_definitions(gpuadvisor_security_tests PRIVATE
  GPUADVISOR_TESTS_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
gtest_discover_tests(gpuadvisor_security_tests PROPERTIES LABELS security
                     DISCOVERY_TIMEOUT 60)
# Endless and absurd inputs, telemetry values and spans, the price floor, weight formats, URL
# parsing and the bounded Prometheus client, in the library's unit executables.
set(GPUADVISOR_SECURITY_FILTER "FilesTest.ReadFile*:TelemetryValues.*:ObservedSpan.*:PriceFloor.*:WeightFormats.*:UrlTest.*:PrometheusOutbound.*:PrometheusJsonTest.*")
add_test(NAME security_library COMMAND $<TARGET_FILE:gpuadvisor_tests>
  --gtest_filter=${GPUADVISOR_SECURITY_FILTER} --gtest_brief=1)
set_tests_properties(security_library PROPERTIES LABELS security TIMEOUT 300)

# `gpuadvisor serve` end to end: start-up line, endpoints, SIGHUP reload, clean stop.
add_test(NAME cli_serve
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/serve_test.sh $<TARGET_FILE:gpuadvisor>)
set_tests_properties(cli_serve PROPERTIES LABELS "integration;security" TIMEOUT 60)

# The web page's message tables (every key in English and Chinese, no Chinese text left in
# English), its language choice and its money formatting (a price in its own currency), in node.
find_program(GPUADVISOR_NODE node)
if(GPUADVISOR_NODE)
  add_test(NAME web_i18n
    COMMAND ${GPUADVISOR_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/server/i18n_test.js ${CMAKE_SOURCE_DIR}/web)
  set_tests_properties(web_i18n PROPERTIES LABELS unit TIMEOUT 60)
endif()

# The web page in Debian's chromium driven by playwright-core (npm): slow, and skipped by the
# sanitize and coverage stages (label "browser"); the release stage runs it.
add_test(NAME web_browser
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/server/browser_test.sh $<TARGET_FILE:gpuadvisor>
          ${CMAKE_CURRENT_BINARY_DIR}/browser)
set_tests_properties(web_browser PROPERTIES LABELS "browser;slow" TIMEOUT 300 SKIP_RETURN_CODE 77)

# Issue 43's attacks together (slow readers of a cached answer, abandoned heavy jobs,
# chunk-extension floods, connection churn) against `gpuadvisor serve`: peak RSS and a normal
# client's /healthz p99 under generous bounds, the figures printed (doc/server.md, "Threat
# model"). Label "load": release builds only (scripts/test.sh), about 45 s.
add_test(NAME serve_load
  COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/server/load_test.py $<TARGET_FILE:gpuadvisor>)
set_tests_properties(serve_load PROPERTIES LABELS load TIMEOUT 180)
