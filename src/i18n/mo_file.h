// A reader of GNU gettext .mo files (the format msgfmt writes): bounds-checked, so a corrupt or
// truncated file is refused (or finds nothing), never read past its end.
#ifndef GPUADVISOR_I18N_MO_FILE_H_
#define GPUADVISOR_I18N_MO_FILE_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuadvisor::i18n_internal {

class MoFile {
 public:
  // nullopt when `bytes` is not a well-formed .mo file (bad magic, a table or a string outside
  // the bytes, a string without its terminating NUL). `bytes` must outlive the MoFile.
  static std::optional<MoFile> Parse(std::string_view bytes);
  // The translation of `msgid` (binary search on the sorted original strings), or nullptr when
  // the file has none or an empty one.
  const char* Find(std::string_view msgid) const;
  uint32_t size() const { return count_; }

 private:
  explicit MoFile(std::string_view bytes) : bytes_(bytes) {}
  uint32_t Word(size_t at) const;
  std::string_view String(uint32_t table, uint32_t i) const;

  std::string_view bytes_;
  bool swapped_ = false;
  uint32_t count_ = 0;
  uint32_t originals_ = 0;
  uint32_t translations_ = 0;
};

}  // namespace gpuadvisor::i18n_internal

#endif  // GPUADVISOR_I18N_MO_FILE_H_
