# Telemetry readers and idle analysis (issue 6). Paths are relative to tests/.
list(APPEND GPUADVISOR_TEST_SOURCES
  telemetry/telemetry_test.cc
  telemetry/prometheus_source_test.cc
  telemetry/cloudwatch_source_test.cc
  telemetry/parser_steps_test.cc
  telemetry/fast_paths_test.cc
  idle/idle_test.cc
  idle/window_samples_test.cc
  idle/pushdown_test.cc
  idle/week_profile_test.cc
  idle/issue16_test.cc
  idle/input_validation_test.cc
  idle/advice_test.cc
)
