// Links the compiled Chinese catalog (msgfmt's .mo of po/zh_CN.po) into the binary with .incbin,
// as catalog/embedded.cc does for the catalog: the translations need no file, no install step
// and no system locale at run time (glibc's gettext() translates only when the zh_CN locale is
// installed, which a minimal Debian is not). CMake passes the path and rebuilds this object when
// the .mo changes.
#include "i18n/embedded_mo.h"

#ifndef GPUADVISOR_ZH_CN_MO_PATH
#error "GPUADVISOR_ZH_CN_MO_PATH must name the compiled zh_CN.mo"
#endif

__asm__(
    ".section .rodata\n"
    ".global gpuadvisor_zh_cn_mo_begin\n"
    ".balign 16\n"
    "gpuadvisor_zh_cn_mo_begin:\n"
    ".incbin \"" GPUADVISOR_ZH_CN_MO_PATH
    "\"\n"
    ".global gpuadvisor_zh_cn_mo_end\n"
    "gpuadvisor_zh_cn_mo_end:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char gpuadvisor_zh_cn_mo_begin[];
extern "C" const char gpuadvisor_zh_cn_mo_end[];

namespace gpuadvisor::i18n_internal {

std::string_view EmbeddedChineseMo() {
  return {gpuadvisor_zh_cn_mo_begin,
          static_cast<size_t>(gpuadvisor_zh_cn_mo_end - gpuadvisor_zh_cn_mo_begin)};
}

}  // namespace gpuadvisor::i18n_internal
