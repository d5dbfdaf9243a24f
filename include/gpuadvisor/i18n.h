// The language of human text (table headers, warnings, why lines, advice, errors): English, the
// default, or Simplified Chinese (zh-CN). JSON keys and enum values stay English; they are an API.
//
// Translations live in po/zh_CN.po (GNU gettext), compiled by msgfmt at build time and embedded
// in the binary (doc/i18n.md). Code marks a user-facing message with Tr("...") where it is shown,
// Trf("... {0} ...", args...) where numbers or names go in (a translator may reorder {0}, {1}),
// or N_("...") in a static table whose entries are passed to Tr later. `scripts/i18n.sh check`
// fails when a marked message has no Chinese translation.
//
// The library reads no environment: a front end picks the language (ChooseLanguage from the
// POSIX variables, the server's Accept-Language header, a --lang option) and sets it for the
// current thread with a LanguageScope while it runs a command or request.
#ifndef GPUADVISOR_I18N_H_
#define GPUADVISOR_I18N_H_

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// Marks a string literal for extraction without translating it here (static tables).
#define N_(text) text

namespace gpuadvisor {

enum class Language { kEnglish, kChinese };

// "en", "zh-CN".
const char* LanguageTag(Language l);
// "en", "C", "POSIX", "en_US.UTF-8", "zh", "zh-CN", "zh_CN", "zh_CN.UTF-8", "zh-Hans" (any
// case; encoding and @modifier ignored). Empty or anything else (a language without a
// catalog, zh-TW): nullopt.
std::optional<Language> ParseLanguage(std::string_view text);
// The language the POSIX variables ask for, each passed as its value or "" when unset:
// LANGUAGE (a colon-separated list: its first supported entry) when the locale is set and not
// C/POSIX (as GNU gettext), then the first set one of LC_ALL, LC_MESSAGES, LANG; English when none
// names a supported language.
Language ChooseLanguage(std::string_view language, std::string_view lc_all,
                        std::string_view lc_messages, std::string_view lang);

// The current thread's language (English unless a LanguageScope is active).
Language CurrentLanguage();
// Sets the current thread's language until destroyed (then restores the previous one).
class LanguageScope {
 public:
  explicit LanguageScope(Language l);
  ~LanguageScope();
  LanguageScope(const LanguageScope&) = delete;
  LanguageScope& operator=(const LanguageScope&) = delete;

 private:
  Language previous_;
};

// `msgid`'s translation in the current language, else `msgid` itself. The result lives as long
// as the program (or as `msgid`).
const char* Tr(const char* msgid);
// The translation of `msgid` in language `l`.
const char* TranslateTo(Language l, const char* msgid);

// "{0} of {1}" with args[0], args[1] in place ("{{" and "}}" are braces; an index without an
// argument stays as written).
std::string FormatPositional(std::string_view templ, const std::vector<std::string>& args);

namespace i18n_internal {
inline std::string Arg(std::string s) { return s; }
inline std::string Arg(std::string_view s) { return std::string(s); }
inline std::string Arg(const char* s) { return s; }
template <typename T>
  requires std::is_integral_v<T>
std::string Arg(T v) {
  return std::to_string(v);
}
}  // namespace i18n_internal

// Tr(msgid), then FormatPositional with the arguments as text (integers as decimal; format other
// numbers first, with FormatFixed).
template <typename... Args>
std::string Trf(const char* msgid, const Args&... args) {
  return FormatPositional(Tr(msgid), {i18n_internal::Arg(args)...});
}

}  // namespace gpuadvisor

#endif  // GPUADVISOR_I18N_H_
