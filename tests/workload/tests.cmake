# Workload and estimator tests (issue 3). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  workload/formulas_test.cc
  workload/memory_test.cc
  workload/fields_test.cc
  workload/workload_file_test.cc
  workload/hf_config_test.cc
  workload/estimate_test.cc
  workload/property_test.cc
  workload/calibration_test.cc
  workload/vision_test.cc
  workload/hardware_test.cc
  workload/catalog_specs_test.cc
  workload/confidence_test.cc
  workload/neuron_test.cc
  workload/train_setups_test.cc
  workload/option_effects_test.cc
  workload/weight_formats_test.cc
  workload/demand_and_limits_test.cc
  workload/serve_engine_test.cc
  workload/serve_multinode_test.cc
  workload/diffusion_test.cc
  workload/task_kinds_test.cc
  workload/workload_options_test.cc
)
# The calibration fixture is read at run time from the source tree.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/calibration_test.cc PROPERTIES
  COMPILE_DEFINITIONS "GPUADVISOR_WORKLOAD_FIXTURES=\"${CMAKE_CURRENT_LIST_DIR}/fixtures\"")
# Hand-written config.json fixtures of the Hugging Face import tests.
# (the option effects test reads one as --model-config).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/hf_config_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/option_effects_test.cc PROPERTIES
  COMPILE_DEFINITIONS "GPUADVISOR_HF_FIXTURES=\"${CMAKE_CURRENT_LIST_DIR}/fixtures/hf\"")
# A task kind missing from the registry fails to build (issue 40, item 2): the compiler is run on
# a registry one kind short and must refuse it with RegisterTaskKinds's message; the same file
# with every kind must compile (so that the first test cannot pass on a broken include path).
set(GPUADVISOR_TASK_KINDS_BUILD ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only
  -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src
  ${CMAKE_CURRENT_LIST_DIR}/task_kinds_build_test.cc)
add_test(NAME task_kinds_registry_complete COMMAND ${GPUADVISOR_TASK_KINDS_BUILD})
add_test(NAME task_kinds_registry_missing_kind
  COMMAND ${GPUADVISOR_TASK_KINDS_BUILD} -DGPUADVISOR_DROP_LAST_KIND)
set_tests_properties(task_kinds_registry_missing_kind PROPERTIES
  PASS_REGULAR_EXPRESSION "a task kind is missing from the registry")
