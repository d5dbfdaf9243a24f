# Workload description and estimator (issue 3). Needs yaml-cpp: the root CMakeLists.txt links
# gpuadvisor_lib to yaml-cpp (see doc/estimation.md, "Build").
set(GPUADVISOR_WORKLOAD_SOURCES
  src/workload/model.cc
  src/workload/presets.cc
  src/workload/neuron_support.cc
  src/workload/value_parse.cc
  src/workload/fields.cc
  src/workload/workload_file.cc
  src/workload/hf_config.cc
  src/workload/json_text.cc
  src/workload/validate.cc
  src/workload/device.cc
  src/workload/neuron.cc
  src/workload/llm_formulas.cc
  src/workload/train_model.cc
  src/workload/serve_model.cc
  src/workload/estimate.cc
  src/workload/confidence.cc
  src/workload/estimate_train.cc
  src/workload/estimate_serve.cc
  src/workload/estimate_other.cc
  src/workload/estimate_vision.cc
  src/workload/diffusion.cc
  src/workload/vision_realtime.cc
  src/workload/estimate_json.cc
  src/workload/hardware.cc
)
