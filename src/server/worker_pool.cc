#include "server/worker_pool.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>

#include "server/admission.h"

namespace gpuadvisor::server {

struct WorkerPool::State {
  explicit State(size_t max) : max_per_client(max) {}
  const size_t max_per_client;
  std::mutex mu;
  std::condition_variable work_cv;     // a job is queued, or the pool stops
  std::condition_variable workers_cv;  // a worker ended
  FairQueue<Job> work;                 // guarded by mu
  bool done = false;                   // guarded by mu
  int ended = 0;                       // guarded by mu
  std::atomic<size_t> queued{0};

  void Loop() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu);
        work_cv.wait(lock, [this] { return done || !work.empty(); });
        if (done) break;
        job = work.Pop();
        queued.store(work.size());
      }
      job();
    }
    std::lock_guard<std::mutex> lock(mu);
    ++ended;
    workers_cv.notify_all();
  }
};

WorkerPool::WorkerPool(size_t max_queued_per_client)
    : state_(std::make_shared<State>(max_queued_per_client)) {}

WorkerPool::~WorkerPool() {
  if (!threads_.empty()) Stop(std::chrono::milliseconds(0));
}

void WorkerPool::Start(int threads, const std::shared_ptr<void>& owner) {
  threads_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([state = state_, owner] { state->Loop(); });
  }
}

bool WorkerPool::Submit(const std::string& client, Job job) {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->done || state_->work.queued(client) >= state_->max_per_client) return false;
    state_->work.Push(client, std::move(job));
    state_->queued.store(state_->work.size());
  }
  state_->work_cv.notify_one();
  return true;
}

void WorkerPool::Stop(std::chrono::milliseconds grace) {
  if (stopped_) return;
  stopped_ = true;
  bool all_ended = false;
  {
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->done = true;
    state_->work.Clear();
    state_->queued.store(0);
    state_->work_cv.notify_all();
    const int n = static_cast<int>(threads_.size());
    all_ended = state_->workers_cv.wait_for(lock, grace, [&] { return state_->ended == n; });
  }
  for (std::thread& t : threads_) {
    if (all_ended) {
      t.join();
    } else {
      t.detach();
    }
  }
  threads_.clear();
}

size_t WorkerPool::queued() const { return state_->queued.load(); }

}  // namespace gpuadvisor::server
