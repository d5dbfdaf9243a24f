// The Chinese message catalog, po/zh_CN.po compiled by msgfmt at build time and linked into the
// binary (embedded_mo.cc).
#ifndef GPUADVISOR_I18N_EMBEDDED_MO_H_
#define GPUADVISOR_I18N_EMBEDDED_MO_H_

#include <string_view>

namespace gpuadvisor::i18n_internal {

std::string_view EmbeddedChineseMo();

}  // namespace gpuadvisor::i18n_internal

#endif  // GPUADVISOR_I18N_EMBEDDED_MO_H_
