# The buyer's AWS account: quotas, offerings, reservations (issue 25; doc/account.md).
set(GPUADVISOR_ACCOUNT_SOURCES
  src/account/account.cc
  src/account/commitments.cc
)
