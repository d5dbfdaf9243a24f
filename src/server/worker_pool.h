// The threads that run `serve`'s complete requests, apart from the sockets: jobs wait in one
// FIFO per client address served in turn (FairQueue, admission.h), at most a bound per client,
// and a stopping pool leaves a worker stuck in a job to finish on its own thread instead of
// waiting for it. No HTTP here: the server hands over a job that answers one request and posts
// the answer back to its I/O thread. Thread-safe.
#ifndef GPUADVISOR_SERVER_WORKER_POOL_H_
#define GPUADVISOR_SERVER_WORKER_POOL_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace gpuadvisor::server {

class WorkerPool {
 public:
  using Job = std::function<void()>;

  explicit WorkerPool(size_t max_queued_per_client);
  ~WorkerPool();  // Stop(0) if Start() was called and Stop() was not
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Starts `threads` workers. Each holds `owner` while it runs, so that what its jobs use
  // outlives a worker left behind by Stop(). REQUIRES: called once.
  void Start(int threads, const std::shared_ptr<void>& owner);
  // Queues `job` for `client`; false, and `job` is not kept, when the client has
  // max_queued_per_client jobs waiting already.
  bool Submit(const std::string& client, Job job);
  // Drops the jobs not started, tells the workers to end, waits up to `grace` for them (jobs
  // running should notice their own cancellation meanwhile), then joins them if all ended, else
  // leaves them to end on their own. Idempotent.
  void Stop(std::chrono::milliseconds grace);
  // Jobs waiting for a worker (any thread).
  size_t queued() const;

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the workers (one may outlive Stop)
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_WORKER_POOL_H_
