// One table per enum for its names: the name functions (PurchaseKindName, TaskKindName, ...) and
// the parsers read the same {value, "name"} list, so a name is written once.
//
// Declare a table by specializing EnumNames next to the code that names the enum (in a header
// when more than one file reads it):
//
//   template <>
//   struct EnumNames<Codec> {
//     static constexpr EnumName<Codec> kTable[] = {
//         {Codec::kH264, "h264"}, {Codec::kHevc, "hevc"}, {Codec::kAv1, "av1"},
//         {Codec::kHevc, "h265"}, {Codec::kH264, "avc"}};  // aliases after the canonical names
//   };
//
// The first entry of a value is its canonical name; later entries of the same value are aliases
// that ParseName accepts and NameOf, AllOf and JoinNames skip. An enum without a table does not
// compile (the primary template is undefined).
#ifndef GPUADVISOR_UTIL_ENUM_NAMES_H_
#define GPUADVISOR_UTIL_ENUM_NAMES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

template <typename E>
struct EnumNames;  // specialized per enum with `static constexpr EnumName<E> kTable[]`

// The canonical name of `e`; for a value the table does not list (a cast out of range),
// `unknown`, or the table's first name when that is null.
template <typename E>
constexpr const char* NameOf(E e, const char* unknown = nullptr) {
  for (const EnumName<E>& n : EnumNames<E>::kTable) {
    if (n.value == e) return n.name;
  }
  return unknown != nullptr ? unknown : EnumNames<E>::kTable[0].name;
}

// The value named `text` (a canonical name or an alias), compared exactly: callers trim or
// lower-case first where their input allows it.
template <typename E>
constexpr std::optional<E> ParseName(std::string_view text) {
  for (const EnumName<E>& n : EnumNames<E>::kTable) {
    if (text == n.name) return n.value;
  }
  return std::nullopt;
}

// True when entry i is the first of its value (a canonical name, not an alias).
template <typename E>
constexpr bool IsCanonicalEntry(size_t i) {
  for (size_t k = 0; k < i; ++k) {
    if (EnumNames<E>::kTable[k].value == EnumNames<E>::kTable[i].value) return false;
  }
  return true;
}

// Every value once, in table order.
template <typename E>
std::vector<E> AllOf() {
  std::vector<E> out;
  for (size_t i = 0; i < std::size(EnumNames<E>::kTable); ++i) {
    if (IsCanonicalEntry<E>(i)) out.push_back(EnumNames<E>::kTable[i].value);
  }
  return out;
}

// The canonical names joined by `sep`, in table order: "h264|hevc|av1".
template <typename E>
std::string JoinNames(std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < std::size(EnumNames<E>::kTable); ++i) {
    if (!IsCanonicalEntry<E>(i)) continue;
    if (!out.empty()) out += sep;
    out += EnumNames<E>::kTable[i].name;
  }
  return out;
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_ENUM_NAMES_H_
