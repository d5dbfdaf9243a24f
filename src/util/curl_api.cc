#include "util/curl_api.h"

#include <dlfcn.h>

#include <string>

namespace gpuadvisor {
namespace {

// Looks `name` up in `lib` into `*fn`; false (and `*missing` = name) when it is absent.
template <typename Fn>
bool Bind(void* lib, const char* name, Fn* fn, std::string* missing) {
  *fn = reinterpret_cast<Fn>(dlsym(lib, name));  // NOLINT: dlsym's documented use
  if (*fn == nullptr && missing->empty()) *missing = name;
  return *fn != nullptr;
}

Result<const CurlApi*> Load() {
  static CurlApi api;
  // libcurl.so.4 is the soname of every libcurl since 7.16 (Debian's libcurl4, either TLS
  // flavour); RTLD_LOCAL keeps its symbols out of the global namespace.
  void* lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    return Status::IOError(std::string("libcurl.so.4 could not be loaded (install libcurl4): ") +
                           (why != nullptr ? why : "unknown reason"));
  }
  std::string missing;
  CURLcode (*global_init)(long) = nullptr;  // NOLINT(google-runtime-int): libcurl's signature
  Bind(lib, "curl_global_init", &global_init, &missing);
  Bind(lib, "curl_easy_init", &api.easy_init, &missing);
  Bind(lib, "curl_easy_setopt", &api.easy_setopt, &missing);
  Bind(lib, "curl_easy_perform", &api.easy_perform, &missing);
  Bind(lib, "curl_easy_getinfo", &api.easy_getinfo, &missing);
  Bind(lib, "curl_easy_reset", &api.easy_reset, &missing);
  Bind(lib, "curl_easy_cleanup", &api.easy_cleanup, &missing);
  Bind(lib, "curl_easy_strerror", &api.easy_strerror, &missing);
  Bind(lib, "curl_slist_append", &api.slist_append, &missing);
  Bind(lib, "curl_slist_free_all", &api.slist_free_all, &missing);
  if (!missing.empty()) {
    return Status::IOError("libcurl.so.4 lacks " + missing + " (too old a libcurl)");
  }
  if (const CURLcode rc = global_init(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
    return Status::IOError(std::string("libcurl could not initialise: ") + api.easy_strerror(rc));
  }
  return &api;  // the library stays loaded for the life of the process
}

}  // namespace

const Result<const CurlApi*>& Curl() {
  static const Result<const CurlApi*> loaded = Load();  // once, thread-safe (C++11 statics)
  return loaded;
}

}  // namespace gpuadvisor
