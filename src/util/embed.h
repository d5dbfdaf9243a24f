// Files linked into the binary with the GNU assembler's .incbin (the catalog, the Neuron support
// list, the Chinese message catalog, the web page's files): the tool needs no data file at run
// time. CMake passes each path and rebuilds the including object when the file changes.
//
//   GPUADVISOR_EMBED(catalog, "/path/data/catalog.json")   at namespace scope, once per file
//   std::string_view text = GPUADVISOR_EMBEDDED(catalog);    its bytes (a NUL follows them)
#ifndef GPUADVISOR_UTIL_EMBED_H_
#define GPUADVISOR_UTIL_EMBED_H_

#include <cstddef>
#include <string_view>

// One symbol pair (gpuadvisor_embed_NAME_begin, _end) per file, local to the including object.
#define GPUADVISOR_EMBED(name, path)                                                        \
  __asm__(                                                                                  \
      ".section .rodata\n"                                                                  \
      ".balign 16\n"                                                                        \
      "gpuadvisor_embed_" #name                                                             \
      "_begin:\n"                                                                           \
      ".incbin \"" path                                                                     \
      "\"\n"                                                                                \
      "gpuadvisor_embed_" #name                                                             \
      "_end:\n"                                                                             \
      ".byte 0\n"                                                                           \
      ".previous\n");                                                                       \
  extern "C" const char gpuadvisor_embed_##name##_begin[] __asm__("gpuadvisor_embed_" #name \
                                                                  "_begin");                \
  extern "C" const char gpuadvisor_embed_##name##_end[] __asm__("gpuadvisor_embed_" #name "_end")

#define GPUADVISOR_EMBEDDED(name)      \
  std::string_view(                    \
      gpuadvisor_embed_##name##_begin, \
      static_cast<std::size_t>(gpuadvisor_embed_##name##_end - gpuadvisor_embed_##name##_begin))

#endif  // GPUADVISOR_UTIL_EMBED_H_
