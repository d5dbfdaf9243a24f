# Idle and rightsizing analysis (issue 6; doc/cost-control.md).
set(GPUADVISOR_IDLE_SOURCES
  src/idle/idle.cc
  src/idle/week_profile.cc
)
