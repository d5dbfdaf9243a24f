// Text helpers for the library and its front ends: trimming, splitting, name matching with
// "did you mean" suggestions, and TerminalSafe for anything from outside shown on a terminal.
#ifndef GPUADVISOR_UTIL_TEXT_H_
#define GPUADVISOR_UTIL_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/status.h"

namespace gpuadvisor {

std::string ToLower(std::string_view s);
// ASCII case-insensitive equality (HTTP header names and tokens, host names).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
std::string_view Trim(std::string_view s);
std::vector<std::string_view> Split(std::string_view s, char sep);
bool StartsWith(std::string_view s, std::string_view prefix);
// An option's canonical name as Status::field() carries it: "--min-gpus" -> "min-gpus".
std::string_view OptionName(std::string_view flag);
// An option's name as words for a form's label: "itl-p95" -> "ITL p95", "min-gpus" -> "Min GPUs",
// "checkpoint-gib" -> "Checkpoint GiB" (acronyms and units written as they are read). A
// declaration's own label (FieldInfo::label) comes first where this reads badly.
std::string OptionNameAsWords(std::string_view name);
// Lower-case with spaces, '-', '_' and '.' removed: "H100-SXM" and "h100 sxm" compare equal.
std::string NormalizeName(std::string_view s);
// Levenshtein distance (case-sensitive; callers lower-case first when they want).
size_t EditDistance(std::string_view a, std::string_view b);
// The longest text suggestions are computed for: edit distance costs length x length per
// candidate, so a 1 MB value against a thousand names would cost seconds of CPU; nothing that
// long is a typo of a name anyway.
inline constexpr size_t kMaxSuggestChars = 64;
// Up to `max` candidates closest to `word` (edit distance on lower-case, prefix matches first),
// only those close enough to be a plausible typo. Empty when nothing is close, and for a `word`
// longer than kMaxSuggestChars.
std::vector<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates,
                                 size_t max = 3);
// "did you mean p5.48xlarge, p5e.48xlarge?" or "" when there is no suggestion.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);
// Text from outside (file names, telemetry hostnames, imported catalog strings, error messages
// quoting input) made safe to print on a terminal: C0 controls, DEL and bytes that are not valid
// UTF-8 become "\x1b"-style escapes, C1 controls (U+0080-U+009F) and the bidi/line-separator
// code points that reorder or split what is shown become "\u009b"; other text is unchanged.
// `keep_newlines` keeps '\n' and '\t' (multi-line notes); table cells and one-line messages
// pass false so nothing can break the layout or forge a line.
std::string TerminalSafe(std::string_view s, bool keep_newlines = false);
// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF): the
// decoder TerminalSafe uses.
bool ValidUtf8(std::string_view s);
// printf-style double formatting with a fixed number of decimals, no trailing garbage.
std::string FormatFixed(double v, int decimals);
// Scientific notation with `digits` significant digits: 3.14e+23.
std::string FormatSci(double v, int digits = 3);

// The deepest nesting of arrays and objects in JSON text, strings skipped (0 for a scalar): a
// cheap bound to check before any recursive parse of untrusted JSON.
int JsonDepth(std::string_view text);
// The deepest nesting accepted in a document a user gives (a workload file, JSON or YAML; the
// server's request bodies): real ones nest 3 levels. Deeper is refused before a parser builds
// a tree of it (a 16 MB document of brackets would otherwise take gigabytes).
inline constexpr int kMaxDocumentDepth = 32;

// "LINE:COLUMN" (both from 1) of the byte at offset `at` of `text` (past the end: of its end).
std::string LineColumn(std::string_view text, size_t at);

// ParseError "<origin>:<line>:<column>: duplicate key \"k\" (an object names each key once)" at
// the first key given twice in one object of JSON `text`; OK otherwise, and for text that is not
// JSON at all (the caller's own parser reports that). For text nlohmann parses, which silently
// keeps the last of a repeated key (ParseRapidJson applies the same rule itself).
Status CheckUniqueJsonKeys(std::string_view text, std::string_view origin);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_UTIL_TEXT_H_
