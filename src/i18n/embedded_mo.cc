// Links the compiled Chinese catalog (msgfmt's .mo of po/zh_CN.po) into the binary with .incbin,
// as catalog/embedded.cc does for the catalog: the translations need no file, no install step
// and no system locale at run time (glibc's gettext() translates only when the zh_CN locale is
// installed, which a minimal Debian is not). CMake passes the path and rebuilds this object when
// the .mo changes.
#include "i18n/embedded_mo.h"

#include "util/embed.h"

#ifndef GPUADVISOR_ZH_CN_MO_PATH
#error "GPUADVISOR_ZH_CN_MO_PATH must name the compiled zh_CN.mo"
#endif

GPUADVISOR_EMBED(zh_cn_mo, GPUADVISOR_ZH_CN_MO_PATH);

namespace gpuadvisor::i18n_internal {

std::string_view EmbeddedChineseMo() { return GPUADVISOR_EMBEDDED(zh_cn_mo); }

}  // namespace gpuadvisor::i18n_internal
