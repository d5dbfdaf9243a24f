// The server's admission policy without sockets: eviction order, round-robin between clients,
// and the write budget that counts a shared body once.
#include "server/admission.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuadvisor::server {
namespace {

TEST(AdmissionTest, EvictionRanksSilenceBelowProgress) {
  const auto now = Clock::now();
  const auto long_ago = now - std::chrono::seconds(5);
  const auto rank = [&](ConnectionState st, int served, Clock::time_point since,
                        Clock::time_point last_byte) {
    return EvictionRank(st, served, since, last_byte, now);
  };
  const int draining = rank(ConnectionState::kDrain, 0, now, now);
  const int idle_kept = rank(ConnectionState::kIdle, 3, long_ago, long_ago);
  const int silent_new = rank(ConnectionState::kIdle, 0, now, long_ago);
  const int stalled = rank(ConnectionState::kBody, 0, long_ago, long_ago);
  const int just_answered = rank(ConnectionState::kIdle, 1, now, long_ago);
  const int arriving = rank(ConnectionState::kBody, 0, long_ago, now);
  EXPECT_LT(draining, idle_kept);
  EXPECT_LT(idle_kept, silent_new);
  EXPECT_LT(silent_new, stalled);
  EXPECT_LT(stalled, just_answered);
  EXPECT_LT(just_answered, arriving);
  // An idle connection whose bytes were found waiting ranks as one whose bytes arrive.
  EXPECT_EQ(rank(ConnectionState::kIdle, 0, now, now), arriving);
  EXPECT_EQ(rank(ConnectionState::kIdle, 3, long_ago, now), arriving);
  // A handler's or a writer's connection is never evicted.
  EXPECT_EQ(rank(ConnectionState::kHandler, 0, now, now), -1);
  EXPECT_EQ(rank(ConnectionState::kWrite, 0, now, now), -1);
}

TEST(AdmissionTest, FairQueueTakesClientsInTurn) {
  FairQueue<std::string> q;
  for (const char* job : {"a1", "a2", "a3"}) q.Push("10.0.0.1", job);
  q.Push("10.0.0.2", "b1");
  EXPECT_EQ(q.size(), 4U);
  EXPECT_EQ(q.queued("10.0.0.1"), 3U);
  std::string order;
  while (!q.empty()) order += q.Pop() + " ";
  EXPECT_EQ(order, "a1 b1 a2 a3 ");  // b1 waits behind one of a's, not three
}

TEST(AdmissionTest, WriteBudgetCountsASharedBodyOnce) {
  WriteBudget budget(1000);
  const std::string body(600, 'x');
  EXPECT_TRUE(budget.Fits(100, &body));
  budget.Charge(100, &body);
  EXPECT_EQ(budget.bytes(), 700U);
  // A second writer of the same bytes adds its head only.
  EXPECT_EQ(budget.Cost(100, &body), 100U);
  budget.Charge(100, &body);
  EXPECT_EQ(budget.bytes(), 800U);
  const std::string other(300, 'y');
  EXPECT_FALSE(budget.Fits(100, &other));
  budget.Uncharge(100, &body);
  EXPECT_EQ(budget.bytes(), 700U);  // the body stays while one writer holds it
  budget.Uncharge(100, &body);
  EXPECT_EQ(budget.bytes(), 0U);
  EXPECT_TRUE(budget.Fits(100, &other));
}

}  // namespace
}  // namespace gpuadvisor::server
