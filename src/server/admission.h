// Who is served when `serve` is full or its clients are slow: the connection-level policy of
// the server, apart from the sockets it governs (doc/server.md, "Slow clients" and "Threat
// model"). Which open connection gives way to a new one (EvictionRank), whose complete requests
// run next (FairQueue), and how many bytes the answers waiting for slow readers may hold
// (WriteBudget). Pure data structures, unit-tested without sockets (tests/server/admission_test).
#ifndef GPUADVISOR_SERVER_ADMISSION_H_
#define GPUADVISOR_SERVER_ADMISSION_H_

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>

namespace gpuadvisor::server {

using Clock = std::chrono::steady_clock;

// What a connection is doing.
enum class ConnectionState { kIdle, kHead, kBody, kHandler, kWrite, kDrain, kClosed };

// A connection that read bytes this recently is making progress (eviction ranks it high); a
// writer stuck this long may be closed to make room under the write budget.
inline constexpr auto kProgressWindow = std::chrono::seconds(1);

// Rank for eviction, lower goes first; -1 never (a handler runs or its answer is written).
// A connection that has sent nothing never outranks one making progress: first those
// draining after an error, then kept-alive ones idle for a while, then silent new ones, then
// requests that stalled (no byte for kProgressWindow), then kept-alive ones just answered
// (their next request is likely on its way), and last requests whose bytes are arriving.
// `served`: answers written on it; `since`: accepted or its request's first byte; `last_byte`:
// the last read that brought bytes, or when bytes were found waiting unread on an idle
// connection (it is speaking, not silent or idle: ranked as one whose bytes arrive).
int EvictionRank(ConnectionState state, int served, Clock::time_point since,
                 Clock::time_point last_byte, Clock::time_point now);

// Complete requests waiting for a worker, one FIFO per client address served in turn
// (round-robin), so that a client with many requests queued delays another by at most one of
// its own. Not thread-safe (the server holds its lock).
template <class Job>
class FairQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  size_t queued(const std::string& client) const {
    auto it = by_client_.find(client);
    return it == by_client_.end() ? 0 : it->second.size();
  }
  void Push(const std::string& client, Job job) {
    std::deque<Job>& q = by_client_[client];
    if (q.empty()) turn_.push_back(client);
    q.push_back(std::move(job));
    ++size_;
  }
  // REQUIRES: !empty().
  Job Pop() {
    const std::string client = std::move(turn_.front());
    turn_.pop_front();
    auto it = by_client_.find(client);
    Job job = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) {
      by_client_.erase(it);
    } else {
      turn_.push_back(client);
    }
    --size_;
    return job;
  }
  void Clear() {
    by_client_.clear();
    turn_.clear();
    size_ = 0;
  }

 private:
  std::unordered_map<std::string, std::deque<Job>> by_client_;
  std::deque<std::string> turn_;  // clients with queued jobs, next first
  size_t size_ = 0;
};

// The bytes held by answers being written: each one's head, and each body once however many
// connections write it (a cached answer's bytes are shared), against a ceiling. Not thread-safe.
class WriteBudget {
 public:
  explicit WriteBudget(size_t max_bytes) : max_(max_bytes) {}
  // The bytes an answer of `head` bytes and `body` (shared; may be null) would add.
  size_t Cost(size_t head, const std::string* body) const;
  bool Fits(size_t head, const std::string* body) const {
    return bytes_ + Cost(head, body) <= max_;
  }
  void Charge(size_t head, const std::string* body);
  // REQUIRES: the same answer was charged.
  void Uncharge(size_t head, const std::string* body);
  size_t bytes() const { return bytes_; }

 private:
  size_t max_;
  size_t bytes_ = 0;
  std::unordered_map<const std::string*, int> writers_;  // shared bodies, with their writers
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_ADMISSION_H_
