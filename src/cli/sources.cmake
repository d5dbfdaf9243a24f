set(GPUADVISOR_CLI_SOURCES
  src/cli/main.cc
  src/cli/common.cc
  src/cli/cmd_instances.cc
  src/cli/cmd_show.cc
  src/cli/cmd_gpus.cc
  src/cli/cmd_catalog.cc
)
