// gpuadvisor: the command-line front end (src/cli/run.cc).
#include "cli/common.h"

int main(int argc, char** argv) { return gpuadvisor::cli::RunCli(argc, argv); }
