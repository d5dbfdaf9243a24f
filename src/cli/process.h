// The one way the front ends run another program (issue 40, item 4): a child with an argument
// vector (never a shell unless the caller names /bin/sh), standard input from /dev/null, in a
// process group of its own, with a deadline and ceilings on what it may print. `watch` samples
// nvidia-smi and runs its actions with it; `account scan` and `catalog update --aws` run the AWS
// CLI with it (aws_cli.h). The library runs no process.
#ifndef GPUADVISOR_CLI_PROCESS_H_
#define GPUADVISOR_CLI_PROCESS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gpuadvisor/result.h"

namespace gpuadvisor::cli {

struct RunOptions {
  double timeout_s = 0;                 // 0: none
  size_t max_output = size_t{1} << 20;  // standard output; past it the child is killed
  // Standard error: captured into RunResult::err (its first max_errors bytes, the rest dropped),
  // or left to the caller's terminal.
  bool capture_errors = false;
  size_t max_errors = size_t{64} * 1024;
  // "NAME=VALUE" entries that replace NAME in the child's environment (AWS_PAGER= for the AWS
  // CLI, which would page through `less` on a terminal).
  std::vector<std::string> environment;
  // How messages name the command; "" = its argument vector, terminal-safe.
  std::string what;
  // Appended to the message when the program is not found ("install the AWS CLI, ...") and when
  // it runs out of time ("--timeout to wait longer").
  std::string not_found_hint, timeout_hint;
};

struct RunResult {
  int exit_code = 0;  // the program's; -1 when a signal ended it (signal says which)
  int signal = 0;
  std::string out, err;
};

// Runs argv[0] (looked up on PATH) with `argv`. Reading stops 200 ms after the program itself
// exits even if something it started in the background still holds its output open
// (`nvidia-smi ... &`): the group is killed then, and the output so far is the program's. On a
// timeout, too much output or a read error the whole process group is killed (SIGKILL) and
// reaped; a child stuck in an uninterruptible driver call is reaped by a later call, so none stays
// a zombie. IOError, naming the command (terminal-safe): it cannot start, "timed out after 20 s
// (killed)", "wrote over 1 MiB (killed)", "could not be read (killed)". A non-zero exit is not
// an error here: the caller reads exit_code.
Result<RunResult> RunChild(const std::vector<std::string>& argv, const RunOptions& options);

// RunChild whose non-zero exit or signal is an IOError ("... failed (exit status 3)"); the
// standard output otherwise. What watch samples nvidia-smi with.
Result<std::string> RunCapture(const std::vector<std::string>& argv, double timeout_s = 0);
// The same through /bin/sh -c `command` (watch's --smi-command, tests).
Result<std::string> RunCapture(const std::string& command, double timeout_s = 0);

// Runs argv (PATH lookup) on the caller's terminal (standard input, output and error inherited)
// and waits; returns its exit status (128 + the signal for one that killed it), IOError when it
// cannot start. Watch's actions.
Result<int> RunArgv(const std::vector<std::string>& argv);

}  // namespace gpuadvisor::cli

#endif  // GPUADVISOR_CLI_PROCESS_H_
