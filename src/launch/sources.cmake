# Launch specs (issue 7; doc/launch.md).
set(GPUADVISOR_LAUNCH_SOURCES
  src/launch/launch.cc
  src/launch/plan_file.cc
  src/launch/user_data.cc
  src/launch/render_aws_cli.cc
  src/launch/render_cloudformation.cc
  src/launch/render_terraform.cc
  src/launch/render_skypilot.cc
)
