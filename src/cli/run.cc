// The command-line front end: parses arguments, calls the library and prints. Shared by the
// gpuadvisor binary (main.cc) and `python -m gpuadvisor`.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/common.h"
#include "gpuadvisor/i18n.h"
#include "util/text.h"

namespace {

constexpr const char* kFooter =
    R"(Start here: the buying guide's scenarios as commands (examples/ has them as workload files)
  LLM pretraining         gpuadvisor recommend --task pretrain --model llama-3.1-70b --tokens 1T --deadline 30d
  LLM fine-tuning         gpuadvisor recommend --task finetune --model llama-3.1-8b --tokens 200M --epochs 3
  LLM serving             gpuadvisor recommend --task serve --model llama-3.1-70b --rps 2 --ttft-p95 1s
  medical imaging         gpuadvisor recommend --task train-vision --model unet3d --images 168 --epochs 2000
  autonomous driving      gpuadvisor recommend --task train-vision --model retinanet --images 1.7M --epochs 10
  finance risk (FP64)     gpuadvisor recommend --task hpc --fp64-flop 2e18 --working-set-gib 60 --runtime 6h
  e-commerce images       gpuadvisor recommend --task infer-vision --model vit-b16 --images 20M
  the model presets       gpuadvisor models
  one setup in detail     gpuadvisor estimate --task serve --model llama-3.1-8b --instance g6e.xlarge
Browse the catalog:
  gpuadvisor instances --gpu H100
  gpuadvisor instances --gpu L4 --min-gpus 4 --format json
  gpuadvisor show p5.48xlarge
  gpuadvisor gpus
  gpuadvisor catalog info
Every command takes --lang en|zh, before or after its name (default: LANGUAGE, LC_ALL, LANG).
Run `gpuadvisor COMMAND --help` for a command's options; the workload flags of one task only:
  gpuadvisor recommend --help --task serve   (or vision, train-vision, hpc, transcode, ...))";

// RunCli's arguments while it runs, for CommandLine() (serve_exec.cc hands them on).
int g_argc = 0;
char** g_argv = nullptr;
struct ArgumentsInScope {
  ArgumentsInScope(int argc, char** argv) {
    g_argc = argc;
    g_argv = argv;
  }
  ~ArgumentsInScope() {
    g_argc = 0;
    g_argv = nullptr;
  }
  ArgumentsInScope(const ArgumentsInScope&) = delete;
  ArgumentsInScope& operator=(const ArgumentsInScope&) = delete;
};

// The language for this run, chosen before the command line is parsed so that its errors and
// --help are in it too: `--lang en|zh` (read here ahead of the parse, which checks its value
// again as the output table's option), else the POSIX variables.
gpuadvisor::Language RunLanguage(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    std::optional<std::string_view> value;
    if (a == "--lang" && i + 1 < argc) value = argv[i + 1];
    if (gpuadvisor::StartsWith(a, "--lang=")) value = a.substr(7);
    if (value) {
      if (std::optional<gpuadvisor::Language> l = gpuadvisor::ParseLanguage(*value)) return *l;
    }
  }
  return gpuadvisor::cli::LanguageFromEnvironment();
}

// Whether the command line asks for JSON output (--json, --format json): errors found before a
// command parses its options are then JSON too.
bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a == "--json" || a == "--format=json") return true;
    if (a == "--format" && i + 1 < argc && std::string_view(argv[i + 1]) == "json") return true;
  }
  return false;
}

// A command's help can refuse what it was asked (`--help --task nonsense`, cli/workload_flags.cc):
// then the error, exit 2, and no help.
int PrintHelp(const CLI::App& app, CLI::AppFormatMode mode) {
  std::string text;
  try {
    text = app.help("", mode);
  } catch (const CLI::Error& e) {
    std::cerr << "gpuadvisor: " << gpuadvisor::TerminalSafe(e.what()) << "\n";
    return gpuadvisor::cli::kExitBadInput;
  }
  std::cout << text;
  return gpuadvisor::cli::kExitOk;
}

}  // namespace

namespace gpuadvisor::cli {

std::pair<int, char**> CommandLine() { return {g_argc, g_argv}; }

int RunCli(int argc, char** argv) {
  const ArgumentsInScope in_scope(argc, argv);
  const LanguageScope language(RunLanguage(argc, argv));
  // `--lang` is global: every command takes it, before its name or after (up to `--`). It chose
  // the language above; here its value is checked and it leaves the command line, so that no
  // command (a group's subcommands, launch, serve) has to declare it.
  std::vector<char*> kept{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") {
      kept.insert(kept.end(), argv + i, argv + argc);
      break;
    }
    if (a != "--lang" && !StartsWith(a, "--lang=")) {
      kept.push_back(argv[i]);
      continue;
    }
    const std::string_view value = a == "--lang" ? (i + 1 < argc ? argv[++i] : "") : a.substr(7);
    if (!ParseLanguage(value)) {
      SetJsonErrors(WantsJson(argc, argv));
      return Fail(Status::InvalidArgument("lang: " + Trf("expected one of en|zh, got {0}",
                                                         "\"" + std::string(value) + "\""))
                      .WithField("lang"));
    }
  }
  argc = static_cast<int>(kept.size());
  argv = kept.data();
  CLI::App app{"gpuadvisor: which AWS GPU instance, how many, where, how to pay, how much."};
  app.name("gpuadvisor");
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", "gpuadvisor 0.1.0");
  int exit_code = kExitOk;
  SetJsonErrors(false);
  std::vector<std::string> names;
  for (const Command& c : Commands()) names.emplace_back(c.name);
  // Only the invoked command declares its options (a command line names at most one; the others
  // are listed by name and summary for --help): `--version` and a single command start without
  // building the options of eleven others.
  const char* invoked = argc > 1 && argv[1][0] != '-' ? argv[1] : nullptr;
  if (invoked != nullptr &&
      std::find(names.begin(), names.end(), std::string(invoked)) == names.end()) {
    std::string hint = DidYouMean(invoked, names);
    std::cerr << "gpuadvisor: " << Trf("unknown command {0}", "\"" + TerminalSafe(invoked) + "\"")
              << (hint.empty() ? std::string(Tr("; run `gpuadvisor --help`")) : "; " + hint)
              << "\n";
    return kExitBadInput;
  }
  for (const Command& c : Commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.summary);
    if (invoked != nullptr && invoked == std::string_view(c.name)) c.setup(sub, &exit_code);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return PrintHelp(app, CLI::AppFormatMode::Normal);
  } catch (const CLI::CallForAllHelp&) {
    return PrintHelp(app, CLI::AppFormatMode::All);
  } catch (const CLI::CallForVersion&) {
    std::cout << "gpuadvisor 0.1.0\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::cerr << "gpuadvisor: " << TerminalSafe(e.what()) << "\n";
    return kExitBadInput;
  }
  return exit_code;
}

}  // namespace gpuadvisor::cli
