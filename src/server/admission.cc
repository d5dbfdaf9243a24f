#include "server/admission.h"

namespace gpuadvisor::server {

int EvictionRank(ConnectionState state, int served, Clock::time_point since,
                 Clock::time_point last_byte, Clock::time_point now) {
  const bool recent = now - last_byte < kProgressWindow;
  switch (state) {
    case ConnectionState::kDrain:
      return 0;
    case ConnectionState::kIdle:
      if (served > 0 && now - since < kProgressWindow) return 4;  // just answered
      // A byte since it went idle can only be one found waiting unread: it is speaking.
      if (recent) return 5;
      return served == 0 ? 2 : 1;
    case ConnectionState::kHead:
    case ConnectionState::kBody:
      return recent ? 5 : 3;
    default:
      return -1;
  }
}

size_t WriteBudget::Cost(size_t head, const std::string* body) const {
  return head + (body != nullptr && writers_.count(body) == 0 ? body->size() : 0);
}

void WriteBudget::Charge(size_t head, const std::string* body) {
  bytes_ += Cost(head, body);
  if (body != nullptr) ++writers_[body];
}

void WriteBudget::Uncharge(size_t head, const std::string* body) {
  bytes_ -= head;
  if (body == nullptr) return;
  auto it = writers_.find(body);
  if (--it->second == 0) {
    bytes_ -= body->size();
    writers_.erase(it);
  }
}

}  // namespace gpuadvisor::server
