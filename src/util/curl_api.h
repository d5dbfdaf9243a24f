// libcurl, loaded on first use.
//
// Linking libcurl would load its ~30 shared libraries (OpenSSL, GnuTLS via RTMP and LDAP, SSH,
// IDN, PSL, Kerberos, ...) and run their constructors at every start of the CLI: ~12 M
// instructions, more than the whole of `gpuadvisor --version` takes. Only the commands that
// make outbound requests (`idle --prometheus`, `watch`) need it, so it is opened with dlopen the
// first time one does, and its entry points are called through this table. The headers are
// libcurl's own (the build needs libcurl4-openssl-dev); the run time needs libcurl.so.4.
#ifndef GPUADVISOR_UTIL_CURL_API_H_
#define GPUADVISOR_UTIL_CURL_API_H_

#include <curl/curl.h>

#include "gpuadvisor/result.h"

namespace gpuadvisor {

struct CurlApi {
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_perform)(CURL*);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  void (*easy_reset)(CURL*);
  void (*easy_cleanup)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
};

// The loaded library, initialised once (curl_global_init), thread-safe; or an IOError naming
// the library and what the loader said. The same object for the life of the process.
const Result<const CurlApi*>& Curl();

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_CURL_API_H_
