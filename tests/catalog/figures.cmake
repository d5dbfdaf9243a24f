# The project's accelerator figures: reader errors, merge rule, manifest paths, and the rule over
# the embedded catalog (every current accelerator has graded memory/bandwidth/compute figures).
list(APPEND GPUADVISOR_TEST_SOURCES catalog/figures_test.cc)
