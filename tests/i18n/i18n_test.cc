// Language choice (--lang, the POSIX variables, Accept-Language), the .mo reader over the
// embedded catalog and over corrupt bytes, and positional formatting.
#include "gpuadvisor/i18n.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

#include "gpuadvisor/purchase.h"
#include "i18n/embedded_mo.h"
#include "i18n/mo_file.h"

namespace gpuadvisor {
namespace {

using i18n_internal::MoFile;

TEST(Language, ParsesLocalesAndTags) {
  for (const char* en : {"en", "C", "POSIX", "en_US.UTF-8", "en-GB", "C.UTF-8", "EN"}) {
    EXPECT_EQ(ParseLanguage(en), Language::kEnglish) << en;
  }
  for (const char* zh : {"zh", "zh-CN", "zh_CN", "zh_CN.UTF-8", "zh_CN.GB18030@x", "ZH-cn",
                         "zh-Hans", "zh-Hans-CN", "zh_SG"}) {
    EXPECT_EQ(ParseLanguage(zh), Language::kChinese) << zh;
  }
  for (const char* none : {"", "fr_FR.UTF-8", "zh_TW", "zh-Hant", "de", "english", "zhx"}) {
    EXPECT_EQ(ParseLanguage(none), std::nullopt) << none;
  }
  EXPECT_STREQ(LanguageTag(Language::kEnglish), "en");
  EXPECT_STREQ(LanguageTag(Language::kChinese), "zh-CN");
}

TEST(Language, PosixPrecedence) {
  // LC_ALL over LC_MESSAGES over LANG.
  EXPECT_EQ(ChooseLanguage("", "", "", "zh_CN.UTF-8"), Language::kChinese);
  EXPECT_EQ(ChooseLanguage("", "", "en_US.UTF-8", "zh_CN.UTF-8"), Language::kEnglish);
  EXPECT_EQ(ChooseLanguage("", "zh_CN.UTF-8", "en_US.UTF-8", "en_US.UTF-8"), Language::kChinese);
  EXPECT_EQ(ChooseLanguage("", "C", "", "zh_CN.UTF-8"), Language::kEnglish);
  // LANGUAGE first, its first supported entry, unless the locale is C or unset (GNU gettext).
  EXPECT_EQ(ChooseLanguage("zh_CN", "", "", "en_US.UTF-8"), Language::kChinese);
  EXPECT_EQ(ChooseLanguage("fr:zh_CN:en", "", "", "en_US.UTF-8"), Language::kChinese);
  EXPECT_EQ(ChooseLanguage("en:zh", "", "", "zh_CN.UTF-8"), Language::kEnglish);
  EXPECT_EQ(ChooseLanguage("fr:de", "", "", "zh_CN.UTF-8"), Language::kChinese);
  EXPECT_EQ(ChooseLanguage("zh_CN", "C", "", ""), Language::kEnglish);
  EXPECT_EQ(ChooseLanguage("zh_CN", "", "", ""), Language::kEnglish);
  // Nothing supported, nothing set: English.
  EXPECT_EQ(ChooseLanguage("", "", "", ""), Language::kEnglish);
  EXPECT_EQ(ChooseLanguage("", "", "", "fr_FR.UTF-8"), Language::kEnglish);
}

TEST(Language, ScopeIsPerThreadAndRestores) {
  EXPECT_EQ(CurrentLanguage(), Language::kEnglish);
  {
    const LanguageScope zh(Language::kChinese);
    EXPECT_EQ(CurrentLanguage(), Language::kChinese);
    std::thread([] { EXPECT_EQ(CurrentLanguage(), Language::kEnglish); }).join();
    {
      const LanguageScope en(Language::kEnglish);
      EXPECT_STREQ(Tr("instance type"), "instance type");
    }
    EXPECT_EQ(CurrentLanguage(), Language::kChinese);
  }
  EXPECT_EQ(CurrentLanguage(), Language::kEnglish);
}

TEST(Translate, EmbeddedCatalogHasTheChineseTerms) {
  std::optional<MoFile> mo = MoFile::Parse(i18n_internal::EmbeddedChineseMo());
  ASSERT_TRUE(mo.has_value());
  EXPECT_GT(mo->size(), 100u);
  const LanguageScope zh(Language::kChinese);
  EXPECT_STREQ(Tr("instance type"), "实例类型");
  EXPECT_STREQ(PurchaseKindLabel(PurchaseKind::kOnDemand), "按需");
  EXPECT_STREQ(PurchaseKindLabel(PurchaseKind::kSpot), "竞价");
  EXPECT_STREQ(PurchaseKindLabel(PurchaseKind::kCapacityBlock), "容量块");
  EXPECT_NE(std::string(PurchaseKindLabel(PurchaseKind::kReserved1y)).find("预留实例"),
            std::string::npos);
  EXPECT_STREQ(Tr("savings-plan-compute-1y"), "1年计算节省计划");
  // Unknown messages pass through.
  EXPECT_STREQ(Tr("no such message"), "no such message");
  EXPECT_STREQ(Tr(""), "");
  // The English names are the JSON ones.
  const LanguageScope en(Language::kEnglish);
  EXPECT_STREQ(PurchaseKindLabel(PurchaseKind::kOnDemand), "on-demand");
}

TEST(Translate, TrfTranslatesThenFillsPositionalArguments) {
  EXPECT_EQ(Trf("{0} instance(s) would take {1}", 2, std::string("5 h")),
            "2 instance(s) would take 5 h");
  const LanguageScope zh(Language::kChinese);
  EXPECT_EQ(Trf("{0} instance(s) would take {1}", 2, std::string("5 h")), "2 个实例需要 5 h");
  // The translator moved {1} before {0}.
  EXPECT_EQ(Trf("spot: {0} chance that interruptions (one per {1} h across the job) push it past "
                "the {2} deadline",
                "3%", "40", "10 h"),
            "竞价：中断（整个作业平均每 40 小时一次）导致超过 10 h 截止期限的概率为 3%");
}

TEST(Translate, FormatPositional) {
  EXPECT_EQ(FormatPositional("{1} before {0}", {"a", "b"}), "b before a");
  EXPECT_EQ(FormatPositional("{0}{0}", {"x"}), "xx");
  EXPECT_EQ(FormatPositional("{{0}} {0}", {"x"}), "{0} x");
  EXPECT_EQ(FormatPositional("{2} {x} {} {", {"a"}), "{2} {x} {} {");
  EXPECT_EQ(FormatPositional("", {}), "");
  EXPECT_EQ(FormatPositional("{10}", {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"}),
            "ten");
}

// A .mo file with the given (original, translation) pairs, sorted, little-endian as msgfmt.
std::string MakeMo(const std::vector<std::pair<std::string, std::string>>& entries) {
  const auto n = static_cast<uint32_t>(entries.size());
  std::string head(28, '\0'), tables(size_t{n} * 16, '\0'), strings;
  auto put = [](std::string& s, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  const uint32_t originals = 28, translations = 28 + n * 8, data = 28 + n * 16;
  put(head, 0, 0x950412de);
  put(head, 8, n);
  put(head, 12, originals);
  put(head, 16, translations);
  for (uint32_t i = 0; i < n; ++i) {
    put(tables, i * 8, static_cast<uint32_t>(entries[i].first.size()));
    put(tables, i * 8 + 4, data + static_cast<uint32_t>(strings.size()));
    strings += entries[i].first + '\0';
  }
  for (uint32_t i = 0; i < n; ++i) {
    put(tables, n * 8 + i * 8, static_cast<uint32_t>(entries[i].second.size()));
    put(tables, n * 8 + i * 8 + 4, data + static_cast<uint32_t>(strings.size()));
    strings += entries[i].second + '\0';
  }
  return head + tables + strings;
}

TEST(MoFile, FindsByBinarySearch) {
  const std::string bytes = MakeMo({{"", "header"}, {"a", "A"}, {"b", ""}, {"c", "C"}, {"d", "D"}});
  std::optional<MoFile> mo = MoFile::Parse(bytes);
  ASSERT_TRUE(mo.has_value());
  EXPECT_STREQ(mo->Find("a"), "A");
  EXPECT_STREQ(mo->Find("c"), "C");
  EXPECT_STREQ(mo->Find("d"), "D");
  EXPECT_EQ(mo->Find("b"), nullptr);  // an empty translation is none
  EXPECT_EQ(mo->Find("bb"), nullptr);
  EXPECT_EQ(mo->Find("e"), nullptr);
}

TEST(MoFile, CorruptFilesAreRefusedWithoutReadingPastTheEnd) {
  const std::string good = MakeMo({{"a", "A"}, {"b", "B"}});
  ASSERT_TRUE(MoFile::Parse(good).has_value());
  // Every truncation.
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(MoFile::Parse(std::string_view(good).substr(0, n)).has_value()) << n;
  }
  std::string bad = good;
  bad[0] = 'x';  // magic
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  bad = good;
  bad[8] = '\x7f';  // a count past the end
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  bad = good;
  bad[12] = '\xf0', bad[13] = '\xff', bad[14] = '\xff', bad[15] = '\xff';  // table offset
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  bad = good;
  bad[28] = '\xff', bad[29] = '\xff', bad[30] = '\xff', bad[31] = '\xff';  // a string's length
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  bad = good;
  bad[32] = '\xff';  // a string's offset
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  bad = good;
  bad[bad.size() - 1] = 'x';  // the last string without its NUL
  EXPECT_FALSE(MoFile::Parse(bad).has_value());
  // Every single-byte change of the header and tables either is refused or finds nothing
  // wrong (a sanitizer build checks that nothing is read out of bounds).
  for (size_t at = 0; at < 28 + 2 * 16; ++at) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ 0x5a);
    if (std::optional<MoFile> mo = MoFile::Parse(b)) {
      (void)mo->Find("a");
      (void)mo->Find("zz");
    }
  }
}

}  // namespace
}  // namespace gpuadvisor
