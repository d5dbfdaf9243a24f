set(GPUADVISOR_UTIL_SOURCES
  src/util/status.cc
  src/util/strings.cc
  src/util/numbers.cc
  src/util/csv.cc
  src/util/dates.cc
  src/util/timezone.cc
  src/util/files.cc
  src/util/rj_reader.cc
  src/util/url.cc
  src/util/aws_names.cc
  src/util/http_client.cc
  src/util/curl_api.cc
  src/util/byte_stream.cc
  src/util/byte_pipe.cc
)
# The one outbound HTTP client (util/http_client.h: Prometheus, IMDS) is libcurl (Debian
# libcurl4-openssl-dev for its headers), opened with dlopen on the first request
# (util/curl_api.h): linked, its ~30 libraries would load at every start of the CLI.
find_package(CURL REQUIRED)
