// The server's worker pool and sockets, without HTTP.
#include "server/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/sockets.h"

namespace gpuadvisor::server {
namespace {

// A gate the jobs wait at until the test opens it.
class Gate {
 public:
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    cv_.notify_all();
    cv_.wait(lock, [this] { return open_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void AwaitWaiters(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return waiting_ >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int waiting_ = 0;
};

TEST(WorkerPoolTest, EachClientHasABoundAndAStoppedPoolTakesNothing) {
  WorkerPool pool(3);
  Gate gate;
  std::mutex mu;
  std::vector<std::string> order;
  pool.Start(1, nullptr);
  ASSERT_TRUE(pool.Submit("blocker", [&] { gate.Wait(); }));
  gate.AwaitWaiters(1);  // the only worker is busy: everything below queues
  const auto record = [&](std::string name) {
    return [&, name] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(name);
    };
  };
  EXPECT_TRUE(pool.Submit("a", record("a1")));
  EXPECT_TRUE(pool.Submit("a", record("a2")));
  EXPECT_TRUE(pool.Submit("a", record("a3")));
  EXPECT_FALSE(pool.Submit("a", record("a4")));  // a has 3 waiting: refused, not kept
  EXPECT_TRUE(pool.Submit("b", record("b1")));
  EXPECT_EQ(pool.queued(), 4u);
  gate.Open();
  for (int i = 0; i < 5000; ++i) {  // the four queued jobs run (5 s at most)
    {
      std::lock_guard<std::mutex> lock(mu);
      if (order.size() >= 4) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  pool.Stop(std::chrono::seconds(5));
  EXPECT_EQ(order.size(), 4u);
  EXPECT_EQ(pool.queued(), 0u);
  EXPECT_FALSE(pool.Submit("c", [] {}));  // a stopped pool takes nothing
}

TEST(WorkerPoolTest, ClientsAreServedInTurn) {
  WorkerPool pool(8);
  Gate gate;
  std::atomic<int> ran{0};
  std::mutex mu;
  std::vector<std::string> order;
  pool.Start(1, nullptr);
  ASSERT_TRUE(pool.Submit("blocker", [&] { gate.Wait(); }));
  gate.AwaitWaiters(1);
  for (const char* name : {"a1", "a2", "a3", "b1", "c1", "b2"}) {
    const std::string client(name, 1);
    ASSERT_TRUE(pool.Submit(client, [&, n = std::string(name)] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(n);
      ++ran;
    }));
  }
  gate.Open();
  for (int i = 0; i < 5000 && ran.load() < 6; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  pool.Stop(std::chrono::seconds(5));
  EXPECT_EQ(order, (std::vector<std::string>{"a1", "b1", "c1", "a2", "b2", "a3"}));
}

TEST(WorkerPoolTest, StopLeavesAStuckWorkerHoldingItsOwner) {
  Gate gate;
  auto owner = std::make_shared<int>(7);
  std::weak_ptr<int> watch = owner;
  {
    WorkerPool pool(1);
    pool.Start(2, owner);
    owner.reset();
    ASSERT_TRUE(pool.Submit("a", [&] { gate.Wait(); }));
    gate.AwaitWaiters(1);
    const auto start = std::chrono::steady_clock::now();
    pool.Stop(std::chrono::milliseconds(50));  // returns although one worker is stuck
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_FALSE(watch.expired());  // the stuck worker still holds what its job uses
  }
  gate.Open();
  for (int i = 0; i < 5000 && !watch.expired(); ++i) {  // it ends on its own, then lets go
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(watch.expired());
}

TEST(ListenerTest, LocalhostIsBothLoopbacksOnOnePortAndABusyPortIsNamed) {
  boost::asio::io_context ioc;
  std::vector<boost::asio::ip::tcp::acceptor> acceptors;
  Result<int> port = Listen(ioc, "localhost", 0, &acceptors);
  ASSERT_TRUE(port.ok()) << port.status().ToString();
  ASSERT_FALSE(acceptors.empty());
  for (const auto& a : acceptors) {
    EXPECT_EQ(a.local_endpoint().port(), *port);
    EXPECT_TRUE(a.local_endpoint().address().is_loopback());
  }
  std::vector<boost::asio::ip::tcp::acceptor> again;
  Result<int> busy = Listen(ioc, "127.0.0.1", *port, &again);
  ASSERT_FALSE(busy.ok());
  EXPECT_NE(busy.status().message().find("127.0.0.1:" + std::to_string(*port)), std::string::npos)
      << busy.status().message();
  EXPECT_TRUE(again.empty());
  Result<int> bracketed = Listen(ioc, "[::1]", 0, &again);
  if (bracketed.ok()) {  // where the machine has IPv6
    EXPECT_TRUE(again.front().local_endpoint().address().is_v6());
  }
}

TEST(ListenerTest, AMissingCertificateNamesItsOption) {
  auto ctx = MakeTlsContext("/nonexistent/cert.pem", "/nonexistent/key.pem");
  ASSERT_FALSE(ctx.ok());
  EXPECT_EQ(ctx.status().message().rfind("--tls-cert: cannot load /nonexistent/cert.pem", 0), 0u)
      << ctx.status().message();
}

}  // namespace
}  // namespace gpuadvisor::server
