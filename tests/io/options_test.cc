// Every command's option table is well formed, and the CLI offers exactly what its table says:
// each CLI option as a flag (or positional) whose --help text is the table's.
#include "app/options.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <set>
#include <string>

#include "cli/common.h"
#include "gpuadvisor/workload.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

FrontEnd AnyFrontEnd(const OptionSpec& o) {
  for (FrontEnd f : {kCli, kHttp, kPython}) {
    if ((o.front_ends & f) != 0) return f;
  }
  return kCli;
}

TEST(OptionTables, NamesAreUniqueBoundsOrderedAndDefaultsValid) {
  std::set<std::string> commands;
  for (const CommandSpec& c : CommandSpecs()) {
    EXPECT_TRUE(commands.insert(std::string(c.name)).second) << "duplicate table " << c.name;
    std::set<std::string> names;
    for (const OptionSpec& o : c.options) {
      const std::string where = std::string(c.name) + " --" + std::string(o.name);
      EXPECT_EQ(CanonicalOptionKey(o.name), o.name) << where << ": not canonical";
      EXPECT_TRUE(names.insert(std::string(o.name)).second) << where << ": name taken";
      for (std::string_view a : o.aliases) {
        EXPECT_TRUE(names.insert(std::string(a)).second) << where << ": alias " << a << " taken";
      }
      EXPECT_LE(o.lo, o.hi) << where;
      EXPECT_NE(o.front_ends & kEveryFrontEnd, 0U) << where << ": offered nowhere";
      EXPECT_FALSE(o.help.empty()) << where << ": no help";
      EXPECT_TRUE(o.type != OptionType::kChoice || !o.choices.empty()) << where;
      if (o.default_text.empty()) continue;
      OptionValues v(c);
      ASSERT_TRUE(v.Set(o.name, o.default_text, AnyFrontEnd(o)).ok()) << where;
      const Status st = v.Check();
      EXPECT_TRUE(st.ok()) << where << ": default " << o.default_text << ": " << st.message();
    }
  }
}

TEST(OptionTables, CliOnlyCommandsHaveTables) {
  for (const char* command : {"simulate", "watch", "serve", "catalog build", "catalog upgrade",
                              "catalog import", "catalog diff", "catalog update", "output"}) {
    Result<const CommandSpec*> spec = FindCommandSpec(command);
    ASSERT_TRUE(spec.ok()) << command;
    for (const OptionSpec& o : (*spec)->options) {
      // Python's Catalog(path, max_price_age) takes the output table's catalog options too.
      const bool python_catalog = std::string_view(command) == "output" &&
                                  (o.name == "catalog" || o.name == "max-price-age");
      EXPECT_EQ(o.front_ends, python_catalog ? unsigned{kCli | kPython} : unsigned{kCli})
          << command << " --" << o.name;
    }
  }
}

// The CLI as users get it: every command, with its subcommands set up.
struct CliTree {
  CLI::App app{"gpuadvisor", "gpuadvisor"};
  int exit_code = 0;
  CliTree() {
    for (const cli::Command& k : cli::Commands())
      k.setup(app.add_subcommand(k.name, k.summary), &exit_code);
  }
  // "instances", "catalog build": the (sub)command a table belongs to. The shared output table
  // is checked on `instances`.
  CLI::App* Find(std::string_view table) {
    if (table == "output") table = "instances";
    CLI::App* at = &app;
    for (std::string_view word : Split(table, ' ')) {
      at = at->get_subcommand_ptr(std::string(word)).get();
      if (at == nullptr) return nullptr;
    }
    return at;
  }
};

// A value that names something of the caller's machine (a file, a program, a header of its own
// requests) is never taken from a remote HTTP client: the server would read its own files.
TEST(OptionTables, ALocalValueIsNeverOfferedOverHttp) {
  for (const CommandSpec& c : CommandSpecs()) {
    for (const OptionSpec& o : c.options) {
      if (o.metavar.find("FILE") == std::string_view::npos) continue;
      // Over HTTP `account` takes only "none" (the server's own scan):
      // ApiTest.TheServersAccountScan.
      if (c.name == "recommend" && o.name == "account") continue;
      EXPECT_EQ(o.front_ends & kHttp, 0U) << c.name << " --" << o.name << " names a file";
    }
  }
  Result<const CommandSpec*> idle = FindCommandSpec("idle");
  ASSERT_TRUE(idle.ok());
  for (const char* name :
       {"inventory", "bearer-token-file", "basic-auth-file", "prometheus-header"}) {
    const OptionSpec* o = (*idle)->Find(name);
    ASSERT_NE(o, nullptr) << name;
    EXPECT_EQ(o->front_ends, unsigned{kLocalFrontEnds}) << name;
    OptionValues http(**idle);
    EXPECT_FALSE(http.Set(name, "/etc/passwd", kHttp).ok()) << name;
    OptionValues python(**idle);
    EXPECT_TRUE(python.Set(name, "x", kPython).ok()) << name;
  }
}

TEST(OptionTables, CliHelpListsEveryCliOptionWithTheTablesText) {
  CliTree cli;
  size_t checked = 0;
  for (const CommandSpec& c : CommandSpecs()) {
    CLI::App* app = cli.Find(c.name);
    ASSERT_NE(app, nullptr) << "no CLI command for table " << c.name;
    const std::string help = app->help();
    for (const OptionSpec& o : c.options) {
      if ((o.front_ends & kCli) == 0) continue;
      const std::string flag = o.positional ? std::string(o.name) : "--" + std::string(o.name);
      const CLI::Option* opt = app->get_option_no_throw(flag);
      ASSERT_NE(opt, nullptr) << c.name << " " << flag << " is not a CLI option";
      EXPECT_EQ(opt->get_description(), OptionHelpText(o)) << c.name << " " << flag;
      if (!o.positional) {
        EXPECT_NE(help.find(flag), std::string::npos) << c.name << " --help lacks " << flag;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 150U);
}

// The other way round: no CLI option is declared outside a table. The workload fields have their
// own table (WorkloadFieldNames, workload.h) plus --workload, the document they may come in.
TEST(OptionTables, EveryCliOptionComesFromATable) {
  CliTree cli;
  std::set<std::string> workload = {"--workload"};
  for (const std::string& name : WorkloadFieldNames()) workload.insert("--" + name);
  std::vector<std::pair<CLI::App*, std::string>> todo = {{&cli.app, ""}};
  size_t checked = 0;
  while (!todo.empty()) {
    auto [app, path] = todo.back();
    todo.pop_back();
    for (CLI::App* sub : app->get_subcommands({})) {
      todo.emplace_back(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
    }
    if (path.empty()) continue;
    std::vector<const CommandSpec*> tables;
    for (const std::string& name : {path, std::string("output")}) {
      if (Result<const CommandSpec*> spec = FindCommandSpec(name); spec.ok()) {
        tables.push_back(*spec);
      }
    }
    for (const CLI::Option* opt : app->get_options()) {
      if (opt->get_lnames().empty() && opt->nonpositional()) continue;  // -h
      const std::string name = opt->nonpositional() ? "--" + opt->get_lnames().front()
                                                    : opt->get_name(true);  // "--min-gpus", "type"
      if (name == "--help" || workload.count(name) != 0) continue;
      bool declared = false;
      for (const CommandSpec* t : tables) {
        const OptionSpec* o = t->Find(name);
        declared = declared || (o != nullptr && (o->front_ends & kCli) != 0);
      }
      EXPECT_TRUE(declared) << "gpuadvisor " << path << " " << name << " is in no option table";
      ++checked;
    }
  }
  EXPECT_GT(checked, 200U);
}

TEST(OptionTables, SimulateWatchServeBoundsAreTheUniformMessage) {
  struct Case {
    const char* command;
    const char* key;
    const char* text;
    const char* message;
  };
  const Case kCases[] = {
      {"simulate", "spot-share", "2", "spot-share: expected a number from 0 to 1, got \"2\""},
      {"simulate", "step", "2d", "step: expected a duration from 1s to 1d, got \"2d\""},
      {"watch", "wedged-after", "0",
       "wedged-after: expected a whole number from 1 to 10000, got \"0\""},
      {"watch", "on-wedged", "reboot",
       "on-wedged: expected one of keep-alive, stop, got \"reboot\""},
      {"serve", "port", "70000", "port: expected a whole number from 0 to 65535, got \"70000\""},
  };
  for (const Case& k : kCases) {
    OptionValues v(**FindCommandSpec(k.command));
    ASSERT_TRUE(v.Set(k.key, k.text, kCli).ok());
    const Status st = v.Check();
    EXPECT_EQ(st.message(), k.message);
    EXPECT_EQ(st.field(), k.key);
    // Not offered elsewhere: a CLI-only option is unknown to the HTTP API.
    OptionValues http(**FindCommandSpec(k.command));
    EXPECT_FALSE(http.Set(k.key, k.text, kHttp).ok()) << k.command << " " << k.key;
  }
}

// Issue 43: one option given under two spellings (an HTTP query's min_gpus and min-gpus, an old
// key and its new name) silently took the last one read; it is refused, naming both. The same
// spelling again still replaces (or, for a list, appends).
TEST(OptionValuesTest, TwoSpellingsOfOneOptionAreRefusedNamingBoth) {
  OptionValues v(**FindCommandSpec("instances"));
  ASSERT_TRUE(v.Set("min_gpus", "2", kHttp).ok());
  ASSERT_TRUE(v.Set("min_gpus", "3", kHttp).ok());
  Status st = v.Set("min-gpus", "4", kHttp);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "\"min_gpus\" and \"min-gpus\" are two spellings of min-gpus; give it once");
  EXPECT_EQ(st.field(), "min-gpus");
  EXPECT_EQ(v.Text("min-gpus"), "3");
  OptionValues idle(**FindCommandSpec("idle"));
  ASSERT_TRUE(idle.SetNumber("threshold", 5, kHttp).ok());
  st = idle.SetNumber("idle-threshold", 10, kHttp);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("\"threshold\" and \"idle-threshold\""), std::string::npos)
      << st.message();
  EXPECT_FALSE(idle.Set("idle_threshold", "10", kHttp).ok());
}

// Issue 43: the list cap counted repeats, so 1001 copies of one GPU were refused while meaning
// one GPU. Repeats are dropped as they arrive; the cap is on different items.
TEST(OptionValuesTest, ListCapCountsDifferentItemsRepeatsDropped) {
  OptionValues v(**FindCommandSpec("instances"));
  for (size_t i = 0; i < 3 * kMaxListItems; ++i) {
    ASSERT_TRUE(v.Set("gpu", i % 2 == 0 ? "H100" : "h100,A100", kCli).ok()) << i;
  }
  Result<std::vector<std::string>> gpus = v.List("gpu");
  ASSERT_TRUE(gpus.ok());
  EXPECT_EQ(*gpus, (std::vector<std::string>{"H100", "A100"}));
  EXPECT_EQ(v.Text("gpu"), "H100,A100");
  OptionValues w(**FindCommandSpec("instances"));
  std::string items;
  for (size_t i = 0; i < kMaxListItems; ++i) items += (i ? ",g" : "g") + std::to_string(i);
  ASSERT_TRUE(w.Set("gpu", items, kHttp).ok());
  ASSERT_TRUE(w.Set("gpu", "g0,G1", kHttp).ok());  // repeats of what is there: still 1000
  Status st = w.Set("gpu", "one-more", kHttp);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "gpu: at most 1000 different items");
  EXPECT_EQ(st.field(), "gpu");
}

// Issue 43: an empty file name to write (--out '') meant stdout, or the default file, without a
// word; it is refused naming the option, on every command that writes one.
TEST(OptionValuesTest, AnEmptyFileToWriteIsRefused) {
  size_t seen = 0;
  for (const CommandSpec& c : CommandSpecs()) {
    for (const OptionSpec& o : c.options) {
      if (o.name != "out" && o.name != "plot" && o.name != "log") continue;
      ++seen;
      EXPECT_TRUE(o.nonempty) << c.name << " --" << o.name;
      OptionValues v(c);
      ASSERT_TRUE(v.Set(o.name, "", kCli).ok());
      Status st = v.Check();
      EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.name << " --" << o.name;
      EXPECT_EQ(st.message(), std::string(o.name) + ": expected a file name, got an empty one");
      EXPECT_EQ(st.field(), o.name);
      OptionValues named(c);
      ASSERT_TRUE(named.Set(o.name, "x.json", kCli).ok());
      EXPECT_TRUE(named.Check().ok()) << c.name;
    }
  }
  EXPECT_GE(seen, 8u);  // launch, account scan, catalog build/upgrade/import/update, plots, log
}

}  // namespace
}  // namespace gpuadvisor
