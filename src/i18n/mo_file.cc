#include "i18n/mo_file.h"

#include <cstring>

namespace gpuadvisor::i18n_internal {
namespace {

constexpr uint32_t kMagic = 0x950412de;
constexpr uint32_t kMagicSwapped = 0xde120495;

uint32_t Swap(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

}  // namespace

uint32_t MoFile::Word(size_t at) const {
  uint32_t v = 0;
  std::memcpy(&v, bytes_.data() + at, sizeof v);
  return swapped_ ? Swap(v) : v;
}

// Entry i of a table of (length, offset) pairs; checked in Parse.
std::string_view MoFile::String(uint32_t table, uint32_t i) const {
  const size_t at = size_t{table} + size_t{i} * 8;
  return bytes_.substr(Word(at + 4), Word(at));
}

std::optional<MoFile> MoFile::Parse(std::string_view bytes) {
  MoFile f(bytes);
  if (bytes.size() < 20) return std::nullopt;
  const uint32_t magic = f.Word(0);
  if (magic == kMagicSwapped) {
    f.swapped_ = true;
  } else if (magic != kMagic) {
    return std::nullopt;
  }
  if (f.Word(4) >> 16 != 0) return std::nullopt;  // major revision 0 only
  f.count_ = f.Word(8);
  f.originals_ = f.Word(12);
  f.translations_ = f.Word(16);
  const size_t table_bytes = size_t{f.count_} * 8;
  for (const uint32_t table : {f.originals_, f.translations_}) {
    if (table > bytes.size() || table_bytes > bytes.size() - table || table % 4 != 0) {
      return std::nullopt;
    }
    for (uint32_t i = 0; i < f.count_; ++i) {
      const size_t at = size_t{table} + size_t{i} * 8;
      const size_t length = f.Word(at), offset = f.Word(at + 4);
      // The string and its NUL inside the bytes.
      if (offset >= bytes.size() || length >= bytes.size() - offset ||
          bytes[offset + length] != '\0') {
        return std::nullopt;
      }
    }
  }
  return f;
}

const char* MoFile::Find(std::string_view msgid) const {
  uint32_t lo = 0, hi = count_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const std::string_view key = String(originals_, mid);
    const int order = key.compare(msgid);
    if (order == 0) {
      const std::string_view text = String(translations_, mid);
      return text.empty() ? nullptr : text.data();
    }
    if (order < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return nullptr;
}

}  // namespace gpuadvisor::i18n_internal
