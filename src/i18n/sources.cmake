set(GPUADVISOR_I18N_SOURCES
  src/i18n/i18n.cc
  src/i18n/mo_file.cc
  src/i18n/embedded_mo.cc
)
# The Chinese catalog: po/zh_CN.po checked and compiled by msgfmt (Debian gettext) at build time,
# then linked in by embedded_mo.cc (doc/i18n.md).
find_program(GPUADVISOR_MSGFMT msgfmt REQUIRED)
set(GPUADVISOR_ZH_CN_PO ${CMAKE_SOURCE_DIR}/po/zh_CN.po)
set(GPUADVISOR_ZH_CN_MO ${CMAKE_BINARY_DIR}/po/zh_CN.mo)
add_custom_command(
  OUTPUT ${GPUADVISOR_ZH_CN_MO}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/po
  COMMAND ${GPUADVISOR_MSGFMT} --check -o ${GPUADVISOR_ZH_CN_MO} ${GPUADVISOR_ZH_CN_PO}
  DEPENDS ${GPUADVISOR_ZH_CN_PO}
  COMMENT "msgfmt --check po/zh_CN.po"
  VERBATIM)
list(APPEND GPUADVISOR_I18N_SOURCES ${GPUADVISOR_ZH_CN_MO})
set_source_files_properties(src/i18n/embedded_mo.cc PROPERTIES
  OBJECT_DEPENDS ${GPUADVISOR_ZH_CN_MO}
  COMPILE_DEFINITIONS GPUADVISOR_ZH_CN_MO_PATH="${GPUADVISOR_ZH_CN_MO}")
