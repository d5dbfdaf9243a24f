#include "gpuadvisor/i18n.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "i18n/embedded_mo.h"
#include "i18n/mo_file.h"

namespace gpuadvisor {
namespace {

thread_local Language g_language = Language::kEnglish;

std::string Normalize(std::string_view text) {
  // "zh_CN.UTF-8@latin" -> "zh-cn"
  text = text.substr(0, std::min(text.find('.'), text.find('@')));
  std::string s;
  for (char c : text) {
    if (c == ' ' || c == '\t') continue;
    s += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

// An unset locale is the C locale.
bool IsCLocale(std::string_view value) {
  const std::string s = Normalize(value);
  return s.empty() || s == "c" || s == "posix";
}

}  // namespace

const char* LanguageTag(Language l) { return l == Language::kChinese ? "zh-CN" : "en"; }

std::optional<Language> ParseLanguage(std::string_view text) {
  const std::string s = Normalize(text);
  if (s == "c" || s == "posix" || s == "en" || s.starts_with("en-")) return Language::kEnglish;
  if (s == "zh" || s == "zh-cn" || s == "zh-sg" || s == "zh-hans" || s.starts_with("zh-hans-")) {
    return Language::kChinese;
  }
  return std::nullopt;
}

Language ChooseLanguage(std::string_view language, std::string_view lc_all,
                        std::string_view lc_messages, std::string_view lang) {
  // The locale: the first set of LC_ALL, LC_MESSAGES, LANG (POSIX precedence).
  std::string_view locale = !lc_all.empty() ? lc_all : !lc_messages.empty() ? lc_messages : lang;
  // GNU gettext reads LANGUAGE only when the locale is not "C".
  if (!language.empty() && !IsCLocale(locale)) {
    while (!language.empty()) {
      const size_t colon = language.find(':');
      if (std::optional<Language> l = ParseLanguage(language.substr(0, colon))) return *l;
      if (colon == std::string_view::npos) break;
      language.remove_prefix(colon + 1);
    }
  }
  return ParseLanguage(locale).value_or(Language::kEnglish);
}

Language CurrentLanguage() { return g_language; }

LanguageScope::LanguageScope(Language l) : previous_(g_language) { g_language = l; }
LanguageScope::~LanguageScope() { g_language = previous_; }

const char* TranslateTo(Language l, const char* msgid) {
  if (l == Language::kEnglish || msgid == nullptr || *msgid == '\0') return msgid;
  static const std::optional<i18n_internal::MoFile> zh =
      i18n_internal::MoFile::Parse(i18n_internal::EmbeddedChineseMo());
  if (!zh) return msgid;
  const char* text = zh->Find(msgid);
  return text != nullptr ? text : msgid;
}

const char* Tr(const char* msgid) { return TranslateTo(g_language, msgid); }

std::string FormatPositional(std::string_view templ, const std::vector<std::string>& args) {
  std::string out;
  out.reserve(templ.size() + 16 * args.size());
  for (size_t i = 0; i < templ.size(); ++i) {
    const char c = templ[i];
    if ((c == '{' || c == '}') && i + 1 < templ.size() && templ[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c == '{') {
      const size_t close = templ.find('}', i);
      if (close != std::string_view::npos && close > i + 1 && close - i <= 3) {
        size_t index = 0;
        bool digits = true;
        for (size_t k = i + 1; k < close; ++k) {
          if (!std::isdigit(static_cast<unsigned char>(templ[k]))) digits = false;
          index = index * 10 + static_cast<size_t>(templ[k] - '0');
        }
        if (digits && index < args.size()) {
          out += args[index];
          i = close;
          continue;
        }
      }
    }
    out += c;
  }
  return out;
}

}  // namespace gpuadvisor
