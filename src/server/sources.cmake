# The HTTP server (`gpuadvisor serve`): its own library. The transport is Boost.Asio and the
# HTTP Boost.Beast in both directions (header-only, Debian libboost-dev >= 1.74: no link
# library); http_server.cc, http_reader.cc and responder.cc use them. (cpp-httplib is the server tests' HTTP client
# only: tests/server/tests.cmake.)
find_package(ZLIB REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED)  # Boost.Asio SSL for --tls-cert (Debian libssl-dev)

set(GPUADVISOR_SERVER_SOURCES
  src/server/access_log.cc
  src/server/admission.cc
  src/server/api.cc
  src/server/http_reader.cc
  src/server/guards.cc
  src/server/http_server.cc
  src/server/sockets.cc
  src/server/openapi.cc
  src/server/responder.cc
  src/server/web_assets.cc
  src/server/worker_pool.cc
)
# Embedded with .incbin by web_assets.cc; listed so the object is rebuilt when one changes.
set(GPUADVISOR_WEB_FILES
  ${CMAKE_SOURCE_DIR}/web/index.html
  ${CMAKE_SOURCE_DIR}/web/app.js
  ${CMAKE_SOURCE_DIR}/web/i18n.js
  ${CMAKE_SOURCE_DIR}/web/i18n-zh-CN.js
  ${CMAKE_SOURCE_DIR}/web/app.css
  ${CMAKE_SOURCE_DIR}/web/vendor/uplot/uPlot.iife.min.js
  ${CMAKE_SOURCE_DIR}/web/vendor/uplot/uPlot.min.css
  ${CMAKE_SOURCE_DIR}/web/vendor/uplot/LICENSE
  ${CMAKE_SOURCE_DIR}/src/server/openapi.json
)
add_library(gpuadvisor_server STATIC ${GPUADVISOR_SERVER_SOURCES})
target_compile_options(gpuadvisor_server PRIVATE ${GPUADVISOR_WARNINGS})
target_compile_definitions(gpuadvisor_server PRIVATE GPUADVISOR_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_link_libraries(gpuadvisor_server PUBLIC gpuadvisor_app
                      PRIVATE ZLIB::ZLIB Boost::headers Threads::Threads OpenSSL::SSL OpenSSL::Crypto nlohmann_json::nlohmann_json)
set_source_files_properties(src/server/web_assets.cc PROPERTIES
  OBJECT_DEPENDS "${GPUADVISOR_WEB_FILES}")
