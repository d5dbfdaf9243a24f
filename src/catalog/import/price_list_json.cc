// The EC2 offer file, JSON variant, read with RapidJSON's SAX Reader over a refilling buffer:
// memory stays constant whatever the file size (only canonical SKUs are remembered).
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "catalog/import/aws_formats.h"
#include "catalog/record_checks.h"
#include "util/dates.h"

namespace gpuadvisor::import {
namespace {

// RapidJSON input stream over a ByteStream (the FileReadStream pattern, with a NUL sentinel).
class RjStream {
 public:
  using Ch = char;
  explicit RjStream(ByteStream* in) : in_(in), buf_(1 << 20) { Fill(); }
  Ch Peek() const { return *cur_; }
  Ch Take() {
    Ch c = *cur_;
    if (cur_ < last_) {
      ++cur_;
    } else if (!eof_) {
      Fill();
    }
    return c;
  }
  size_t Tell() const { return count_ + static_cast<size_t>(cur_ - buf_.data()); }
  // The 1-based line of the current position, for error messages: the newlines of the buffers
  // already consumed (counted at each refill, a vectorised std::count) plus those before cur_.
  size_t Line() const {
    return lines_ +
           static_cast<size_t>(std::count(buf_.data(), static_cast<const char*>(cur_), '\n')) + 1;
  }
  // Found by argument-dependent lookup from RapidJSON's reader: skips the offer file's heavy
  // indentation over the buffer directly instead of one Peek/Take per character.
  friend void SkipWhitespace(RjStream& s) {
    for (;;) {
      char* p = s.cur_;
      while (p < s.last_ && IsSpace(*p)) ++p;
      s.cur_ = p;
      if (!IsSpace(*p)) return;
      s.Take();  // the last byte of the buffer is whitespace: refill and go on
    }
  }
  // Not used by a reader (write side of the concept).
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch*) { return 0; }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  // Fills the buffer (short reads from pipes are continued); at the end a NUL sentinel follows
  // the data, as RapidJSON's FileReadStream does.
  void Fill() {
    count_ += read_;
    lines_ += static_cast<size_t>(std::count(buf_.data(), buf_.data() + read_, '\n'));
    const size_t cap = buf_.size() - 1;
    read_ = 0;
    while (read_ < cap) {
      size_t got = in_->Read(buf_.data() + read_, cap - read_);
      if (got == 0) break;
      read_ += got;
    }
    cur_ = buf_.data();
    if (read_ == cap) {
      last_ = buf_.data() + read_ - 1;
      return;
    }
    buf_[read_] = '\0';
    last_ = buf_.data() + read_;
    eof_ = true;
  }
  ByteStream* in_;
  std::vector<char> buf_;
  char* cur_ = nullptr;
  char* last_ = nullptr;
  size_t read_ = 0, count_ = 0, lines_ = 0;
  bool eof_ = false;
};

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Product attributes the canonical filter reads.
enum Attr { kType, kRegion, kTenancy, kOs, kSw, kCapacity, kLicense, kOperation, kMarket, kNAttr };
constexpr const char* kAttrNames[kNAttr] = {"instanceType",    "regionCode",     "tenancy",
                                            "operatingSystem", "preInstalledSw", "capacitystatus",
                                            "licenseModel",    "operation",      "marketoption"};

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  Handler(const TypeFilter& keep, PriceListData* out) : keep_(keep), out_(out) {}

  bool Default() { return true; }
  bool StartObject() {
    if (!Enter()) return false;
    if (depth_ == 4 && section_ == kProducts && product_key_ == kAttributes) in_attributes_ = true;
    if (depth_ == 5 && section_ == kTerms) BeginTerm();
    if (depth_ == 7 && section_ == kTerms && term_key_ == kDimensions && entry_ >= 0) {
      if (ndim_ < kMaxDims) dims_[ndim_++] = Dim{};
    }
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    if (depth_ == 4) in_attributes_ = false;
    if (depth_ == 3 && section_ == kProducts) EndProduct();
    if (depth_ == 5 && section_ == kTerms && !EndTerm()) return false;
    --depth_;
    return true;
  }
  bool StartArray() { return Enter(); }
  bool EndArray(rapidjson::SizeType) {
    --depth_;
    return true;
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    std::string_view k(s, n);
    switch (depth_) {
      case 1:
        section_ = k == "products"          ? kProducts
                   : k == "terms"           ? kTerms
                   : k == "version"         ? kVersion
                   : k == "publicationDate" ? kPublished
                                            : kOther;
        if (section_ == kTerms && !seen_products_) {
          error_ = R"(expected "products" before "terms" (as AWS writes the offer file))";
          return false;
        }
        if (section_ == kProducts) seen_products_ = true;
        break;
      case 2:
        if (section_ == kTerms) term_type_ = k == "OnDemand" ? 1 : k == "Reserved" ? 2 : 0;
        if (section_ == kProducts) {
          ResetProduct();
          pending_sku_.assign(k);  // the product's SKU, which terms refer to
        }
        break;
      case 3:
        if (section_ == kProducts) {
          product_key_ = k == "attributes" ? kAttributes : k == "productFamily" ? kFamily : kPOther;
        } else if (section_ == kTerms) {
          auto it = term_type_ ? skus_.find(k) : skus_.end();
          entry_ = it == skus_.end() ? -1 : it->second;
        }
        break;
      case 4:
        if (in_attributes_) {
          attr_ = -1;
          for (int i = 0; i < kNAttr; ++i) {
            if (k == kAttrNames[i]) attr_ = i;
          }
        }
        break;
      case 5:
        if (section_ == kTerms) {
          term_key_ = k == "priceDimensions"  ? kDimensions
                      : k == "termAttributes" ? kTermAttributes
                                              : kTOther;
        }
        break;
      case 6:
        if (section_ == kTerms && term_key_ == kTermAttributes) {
          ta_ = k == "LeaseContractLength" ? 0
                : k == "OfferingClass"     ? 1
                : k == "PurchaseOption"    ? 2
                                           : -1;
        }
        break;
      case 7:
        if (section_ == kTerms) dim_key_ = k == "unit" ? 1 : 0;
        break;
      case 8:
        if (section_ == kTerms) {
          usd_key_ = k == "USD" || k == "CNY";
          if (usd_key_) price_currency_.assign(k);
        }
        break;
      default:
        break;
    }
    return true;
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    std::string_view v(s, n);
    if (depth_ == 1) {
      if (section_ == kVersion) out_->version.assign(v);
      if (section_ == kPublished) {
        if (!IsIsoTimestamp(v)) {
          error_ =
              "publicationDate: expected an ISO 8601 timestamp, got \"" + std::string(v) + "\"";
          return false;
        }
        out_->publication_date.assign(v.substr(0, 10));
      }
    } else if (section_ == kProducts) {
      if (depth_ == 3 && product_key_ == kFamily) family_.assign(v);
      if (depth_ == 4 && in_attributes_ && attr_ >= 0) attrs_[attr_].assign(v);
    } else if (section_ == kTerms && entry_ >= 0) {
      if (depth_ == 6 && term_key_ == kTermAttributes && ta_ >= 0) term_attrs_[ta_].assign(v);
      if (depth_ == 7 && dim_key_ == 1 && ndim_ > 0) dims_[ndim_ - 1].unit.assign(v);
      if (depth_ == 8 && usd_key_ && ndim_ > 0) {
        Dim& d = dims_[ndim_ - 1];
        const char* end = s + n;
        auto [p, ec] = std::from_chars(s, end, d.usd);
        d.has_usd = true;
        d.currency = price_currency_;
        if (ec != std::errc() || p != end || n == 0 || !std::isfinite(d.usd)) {
          error_ = "pricePerUnit." + price_currency_ + ": expected a number, got \"" +
                   std::string(v) + "\"";
          return false;
        }
      }
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  enum Section { kOther, kProducts, kTerms, kVersion, kPublished };
  enum ProductKey { kPOther, kAttributes, kFamily };
  enum TermKey { kTOther, kDimensions, kTermAttributes };
  struct Dim {
    std::string unit;
    double usd = 0;  // in `currency`
    bool has_usd = false;
    std::string currency;  // the pricePerUnit key: "USD", or "CNY" in AWS China's files
  };
  std::string price_currency_;
  static constexpr int kMaxDims = 4;
  // The offer file nests 8 deep; RapidJSON's reader recurses once per level, so an adversarial
  // file nested ~80k deep would overflow the stack. Far beyond any AWS shape, far below that.
  static constexpr int kMaxDepth = 64;

  bool Enter() {
    if (++depth_ > kMaxDepth) {
      error_ = "nested deeper than " + std::to_string(kMaxDepth) + " levels";
      return false;
    }
    return true;
  }

  void ResetProduct() {
    family_.clear();
    for (std::string& a : attrs_) a.clear();
    product_key_ = kPOther;
  }
  void EndProduct() {
    bool canonical = family_.starts_with("Compute Instance") && attrs_[kOs] == "Linux" &&
                     attrs_[kTenancy] == "Shared" && attrs_[kCapacity] == "Used" &&
                     attrs_[kSw] == "NA" &&
                     (attrs_[kLicense].empty() || attrs_[kLicense] == "No License required") &&
                     (attrs_[kOperation].empty() || attrs_[kOperation] == "RunInstances") &&
                     (attrs_[kMarket].empty() || attrs_[kMarket] == "OnDemand");
    if (canonical && (attrs_[kType].empty() || attrs_[kRegion].empty())) {
      ++out_->skipped[kSkipNoTypeOrRegion];
      return;
    }
    if (canonical && keep_(attrs_[kType])) {
      std::string key = attrs_[kType] + '\t' + attrs_[kRegion];
      auto it = out_->entries.try_emplace(key).first;
      keys_.push_back(&*it);
      skus_.emplace(pending_sku_, static_cast<int>(keys_.size() - 1));
    }
  }
  void BeginTerm() {
    ndim_ = 0;
    for (std::string& t : term_attrs_) t.clear();
    term_key_ = kTOther;
  }
  // A canonical term's dimensions, checked as the CSV rows are (catalog/record_checks.h);
  // false with error_ set for a figure that cannot be a price.
  bool CheckDims(bool reserved) {
    for (int i = 0; i < ndim_; ++i) {
      const Dim& d = dims_[i];
      const bool upfront = reserved && d.unit == "Quantity";
      if (!d.has_usd || !(d.unit == "Hrs" || upfront)) continue;
      const double cap = upfront ? kMaxUpfrontUsd : kMaxUsdPerHour;
      if (CheckPrice(d.usd, cap) == PriceCheck::kBad) {
        error_ = "pricePerUnit.USD: " + ExpectedPrice(d.usd, cap);
        return false;
      }
    }
    return true;
  }
  bool EndTerm() {
    ++out_->rows;
    if (entry_ < 0) return true;
    if (!CheckDims(term_type_ == 2)) return false;
    const std::string& key = keys_[static_cast<size_t>(entry_)]->first;  // type \t region
    const std::string_view region = std::string_view(key).substr(key.find('\t') + 1);
    for (int i = 0; i < ndim_; ++i) {
      if (dims_[i].has_usd && !InRegionCurrency(dims_[i].currency, region)) {
        ++out_->skipped[kSkipCurrency];
        dims_[i].has_usd = false;
      }
    }
    PriceListEntry& e = keys_[static_cast<size_t>(entry_)]->second;
    if (term_type_ == 1) {
      for (int i = 0; i < ndim_; ++i) {
        if (dims_[i].unit != "Hrs" || !dims_[i].has_usd) continue;
        if (dims_[i].usd == 0) {
          ++out_->skipped[kSkipZeroPrice];
          continue;
        }
        e.on_demand = dims_[i].usd;
        ++out_->canonical_rows;
      }
      return true;
    }
    const std::string& l = term_attrs_[0];
    const std::string& c = term_attrs_[1];
    const int y = l == "1yr" ? 0 : l == "3yr" ? 1 : -1;
    const int k = c == "standard" ? 0 : c == "convertible" ? 1 : -1;
    const int p = PaymentIndex(term_attrs_[2]);
    if (y < 0 || k < 0 || p < 0) return true;
    for (int i = 0; i < ndim_; ++i) {
      const bool upfront = dims_[i].unit == "Quantity";
      if (!dims_[i].has_usd || !(upfront || dims_[i].unit == "Hrs")) continue;
      if (TakeRiFigure(p, upfront, dims_[i].usd, &e.ri[y][k][p], out_)) ++out_->canonical_rows;
    }
    return true;
  }

  const TypeFilter& keep_;
  PriceListData* out_;
  int depth_ = 0;
  Section section_ = kOther;
  bool seen_products_ = false;
  ProductKey product_key_ = kPOther;
  bool in_attributes_ = false;
  int attr_ = -1;
  std::string pending_sku_;
  std::string family_;
  std::string attrs_[kNAttr];
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> skus_;
  std::vector<std::pair<const std::string, PriceListEntry>*> keys_;
  int term_type_ = 0;
  int entry_ = -1;
  TermKey term_key_ = kTOther;
  int ta_ = -1;
  std::string term_attrs_[3];
  Dim dims_[kMaxDims];
  int ndim_ = 0;
  int dim_key_ = 0;
  bool usd_key_ = false;
  std::string error_;
};

}  // namespace

Status ReadPriceListJson(ByteStream* in, const TypeFilter& keep, PriceListData* out) {
  Handler handler(keep, out);
  RjStream stream(in);
  rapidjson::Reader reader;
  rapidjson::ParseResult ok = reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler);
  if (!in->status().ok()) return in->status();
  if (!ok) {
    std::string what = !handler.error().empty()
                           ? handler.error()
                           : std::string(rapidjson::GetParseError_En(ok.Code()));
    return Status::ParseError(in->origin() + ":" + std::to_string(stream.Line()) + ": byte " +
                              std::to_string(ok.Offset()) + ": " + what);
  }
  return Status::OK();
}

}  // namespace gpuadvisor::import
