// Rejection lines (issue 18 split them into classify and merge steps): the regions phrase,
// one line per family and reason, and the best figure of a deadline or budget miss.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "gpuadvisor/recommend.h"
#include "testutil/test_hardware.h"

namespace gpuadvisor {
namespace {

using testing::MakeWorkload;

Recommendation Rejected(RecommendRequest req, const Workload& w) {
  req.explain = true;
  Result<Recommendation> r = Recommend(testing::EmbeddedForTests(), w, req);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : Recommendation{};
}

int CountReason(const Recommendation& r, const std::string& reason) {
  int n = 0;
  for (const Rejection& x : r.rejected) n += x.reason == reason ? 1 : 0;
  return n;
}

TEST(RejectionsTest, RegionsAreListedUpToThreeThenCounted) {
  const Workload w = MakeWorkload({{"task", "serve"}, {"model", "llama-3.1-8b"}});
  RecommendRequest req;
  req.regions = {"eu-west-1", "ap-south-1"};
  EXPECT_GT(CountReason(Rejected(req, w), "not offered in eu-west-1, ap-south-1"), 0);
  req.regions = {"us-east-1", "eu-west-1", "ap-south-1", "sa-east-1"};
  const Recommendation four = Rejected(req, w);
  EXPECT_GT(CountReason(four, "not offered in any of the 4 requested regions"), 0);
  for (const Rejection& x : four.rejected) {
    EXPECT_EQ(x.reason.find("eu-west-1"), std::string::npos) << x.reason;
  }
}

// `text` is `head` + at least one character of `chars` + `tail`, and nothing else. (No
// std::regex: g++ 12 warns maybe-uninitialized inside <regex> at -O1 with the sanitizers.)
bool MatchesRun(std::string_view text, std::string_view head, std::string_view chars,
                std::string_view tail) {
  if (text.size() < head.size() + tail.size() + 1 || text.substr(0, head.size()) != head ||
      text.substr(text.size() - tail.size()) != tail) {
    return false;
  }
  const std::string_view run = text.substr(head.size(), text.size() - head.size() - tail.size());
  return run.find_first_not_of(chars) == std::string_view::npos;
}

// "g4dn.* (6 sizes)": a family name, ".* (", a count, " sizes)".
bool IsWholeFamily(std::string_view s) {
  const size_t star = s.find(".* (");
  if (star == std::string_view::npos || star == 0) return false;
  const std::string_view name = s.substr(0, star);
  return name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
             std::string_view::npos &&
         MatchesRun(s.substr(star), ".* (", "0123456789", " sizes)");
}

TEST(RejectionsTest, AFamilyIsMergedAndABudgetMissStatesTheCheapest) {
  RecommendRequest req;
  req.budget_usd = 100;
  const Recommendation r = Rejected(
      req, MakeWorkload({{"task", "pretrain"}, {"model", "llama-3.1-70b"}, {"tokens", "1T"}}));
  int families = 0, budget_lines = 0;
  for (const Rejection& x : r.rejected) {
    families += IsWholeFamily(x.instance_type) ? 1 : 0;
    if (x.reason.rfind("over budget", 0) == 0) {
      ++budget_lines;
      EXPECT_TRUE(MatchesRun(x.reason, "over budget: cheapest $", "0123456789.,", " (budget $100)"))
          << x.reason;
    }
    // Sizes listed by name share one family: "g4dn.12xlarge, g4dn.metal".
    const std::string family = x.instance_type.substr(0, x.instance_type.find('.'));
    for (size_t at = x.instance_type.find(", "); at != std::string::npos;
         at = x.instance_type.find(", ", at + 2)) {
      EXPECT_EQ(x.instance_type.compare(at + 2, family.size() + 1, family + "."), 0)
          << x.instance_type;
    }
  }
  EXPECT_GT(families, 0);
  EXPECT_GT(budget_lines, 0);
}

}  // namespace
}  // namespace gpuadvisor
