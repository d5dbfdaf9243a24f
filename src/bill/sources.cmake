# The account's bill: hourly accelerator usage from the Cost and Usage Report, and the
# commitments sized from it (issue 41; doc/commitments.md).
set(GPUADVISOR_BILL_SOURCES
  src/bill/bill.cc
  src/bill/commit_plan.cc
  src/bill/joint_plan.cc
)
