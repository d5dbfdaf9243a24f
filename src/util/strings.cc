#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <utility>

#include "gpuadvisor/i18n.h"
#include "util/text.h"

namespace gpuadvisor {

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::string_view OptionName(std::string_view flag) {
  while (!flag.empty() && flag.front() == '-') flag.remove_prefix(1);
  return flag;
}

std::string OptionNameAsWords(std::string_view name) {
  // Words read as acronyms or units, lower-case in option names.
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"ami", "AMI"},   {"az", "AZ"},     {"cpu", "CPU"},     {"cpus", "CPUs"}, {"dp", "DP"},
      {"e2e", "E2E"},   {"efa", "EFA"},   {"ffn", "FFN"},     {"flop", "FLOP"}, {"flops", "FLOP/s"},
      {"fp32", "FP32"}, {"fp64", "FP64"}, {"fps", "FPS"},     {"gb", "GB"},     {"gflop", "GFLOP"},
      {"gib", "GiB"},   {"gpu", "GPU"},   {"gpus", "GPUs"},   {"hpc", "HPC"},   {"id", "ID"},
      {"itl", "ITL"},   {"kv", "KV"},     {"lora", "LoRA"},   {"mb", "MB"},     {"mbu", "MBU"},
      {"mfu", "MFU"},   {"mlp", "MLP"},   {"moe", "MoE"},     {"pp", "PP"},     {"q", "Q"},
      {"rope", "RoPE"}, {"rps", "RPS"},   {"sku", "SKU"},     {"tp", "TP"},     {"ttft", "TTFT"},
      {"url", "URL"},   {"v", "V"},       {"vcpus", "vCPUs"},
  };
  std::string out;
  for (std::string_view word : Split(name, '-')) {
    if (word.empty()) continue;
    if (!out.empty()) out += ' ';
    const auto* known = std::find_if(std::begin(kWords), std::end(kWords),
                                     [&](const auto& w) { return w.first == word; });
    if (known != std::end(kWords)) {
      out += known->second;
    } else if (out.empty()) {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(word.front())));
      out += word.substr(1);
    } else {
      out += word;
    }
  }
  return out;
}

std::string NormalizeName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == ' ' || c == '-' || c == '_' || c == '.') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates,
                                 size_t max) {
  if (word.size() > kMaxSuggestChars) return {};
  const std::string w = ToLower(word);
  struct Scored {
    size_t score;
    const std::string* name;
  };
  std::vector<Scored> scored;
  for (const std::string& c : candidates) {
    std::string lc = ToLower(c);
    size_t d = EditDistance(w, lc);
    // A candidate that starts with what was typed (or vice versa) is a strong hint.
    if (!w.empty() && (StartsWith(lc, w) || StartsWith(w, lc))) d = std::min<size_t>(d, 1);
    size_t limit = std::max<size_t>(2, w.size() / 3);
    if (d <= limit) scored.push_back({d, &c});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& a, const Scored& b) { return a.score < b.score; });
  std::vector<std::string> out;
  for (const Scored& s : scored) {
    if (out.size() >= max) break;
    out.push_back(*s.name);
  }
  return out;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> s = Suggest(word, candidates);
  if (s.empty()) return "";
  std::string list;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) list += ", ";
    list += s[i];
  }
  return Trf("did you mean {0}?", list);
}

std::string FormatFixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

namespace {

// Length of the valid UTF-8 sequence at s[i] (1-4) and its code point, or 0 when invalid
// (bad lead byte, truncated, overlong, surrogate or above U+10FFFF).
size_t Utf8Sequence(std::string_view s, size_t i, uint32_t* cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  // Lead byte -> sequence length; C0/C1 leads are overlong, F5-FF are beyond U+10FFFF.
  const size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
  if (len == 0) return 0;
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  *cp = c & (0x7Fu >> len);
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    *cp = (*cp << 6) | (b(k) & 0x3Fu);
  }
  if (*cp < kMin[len] || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF)) return 0;
  return len;
}

// C1 controls, and code points that reorder (bidi embeddings, overrides, isolates) or break
// (line/paragraph separators) the text around them.
bool IsUnsafeCodePoint(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || cp == 0x2028 ||
         cp == 0x2029 || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

void AppendEscape(std::string* out, const char* format, uint32_t value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, static_cast<unsigned>(value));
  *out += buf;
}

}  // namespace

bool ValidUtf8(std::string_view s) {
  uint32_t cp = 0;
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t len = Utf8Sequence(s, i, &cp);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string TerminalSafe(std::string_view s, bool keep_newlines) {
  const auto plain = [&](unsigned char c) {
    return (c >= 0x20 && c < 0x7F) || (keep_newlines && (c == '\n' || c == '\t'));
  };
  if (std::all_of(s.begin(), s.end(), [&](char c) { return plain(static_cast<unsigned char>(c)); }))
    return std::string(s);
  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (plain(c)) {
        out += static_cast<char>(c);
      } else {
        AppendEscape(&out, "\\x%02x", c);
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t len = Utf8Sequence(s, i, &cp);
    if (len == 0) {
      AppendEscape(&out, "\\x%02x", c);
      ++i;
    } else if (IsUnsafeCodePoint(cp)) {
      AppendEscape(&out, "\\u%04x", cp);
      i += len;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string FormatSci(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits > 0 ? digits - 1 : 0, v);
  return buf;
}

int JsonDepth(std::string_view text) {
  int depth = 0;
  int max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, a quote included
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

}  // namespace gpuadvisor
