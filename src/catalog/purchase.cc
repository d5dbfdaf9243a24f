// The purchase-option type: names, the one parser, and the catalog price of each option.
#include "gpuadvisor/purchase.h"

#include <algorithm>

#include "gpuadvisor/i18n.h"
#include "util/enum_names.h"
#include "util/text.h"

namespace gpuadvisor {

template <>
struct EnumNames<PurchaseKind> {
  // Canonical names, then the short forms users type.
  static constexpr EnumName<PurchaseKind> kTable[] = {
      {PurchaseKind::kOnDemand, "on-demand"},
      {PurchaseKind::kSpot, "spot"},
      {PurchaseKind::kReserved1y, "reserved-1y-no-upfront"},
      {PurchaseKind::kCapacityBlock, "capacity-block"},
      {PurchaseKind::kOnDemand, "ondemand"},
      {PurchaseKind::kReserved1y, "reserved"},
      {PurchaseKind::kReserved1y, "reserved-1y"},
      {PurchaseKind::kCapacityBlock, "cb"}};
};

const char* PurchaseKindName(PurchaseKind p) { return NameOf(p); }

const char* PurchaseKindLabel(PurchaseKind p) {
  switch (p) {
    case PurchaseKind::kOnDemand:
      return Tr("on-demand");
    case PurchaseKind::kSpot:
      return Tr("spot");
    case PurchaseKind::kReserved1y:
      return Tr("reserved-1y-no-upfront");
    case PurchaseKind::kCapacityBlock:
      return Tr("capacity-block");
  }
  return PurchaseKindName(p);
}

const std::vector<PurchaseKind>& AllPurchaseKinds() {
  static const std::vector<PurchaseKind> kAll = AllOf<PurchaseKind>();
  return kAll;
}

Result<PurchaseKind> ParsePurchaseKind(std::string_view text, std::string_view field,
                                       const std::vector<PurchaseKind>& allowed) {
  const std::optional<PurchaseKind> found = ParseName<PurchaseKind>(ToLower(Trim(text)));
  if (found && std::find(allowed.begin(), allowed.end(), *found) != allowed.end()) return *found;
  std::string names;
  for (PurchaseKind p : allowed)
    names += std::string(names.empty() ? "" : ", ") + PurchaseKindName(p);
  std::string msg(field);
  msg += ": expected one of " + names + ", got \"" + std::string(text) + "\"";
  return Status::InvalidArgument(msg).WithField(OptionName(field));
}

Result<std::vector<PurchaseKind>> ParsePurchaseKinds(std::string_view text, std::string_view field,
                                                     const std::vector<PurchaseKind>& allowed) {
  std::vector<PurchaseKind> out;
  for (std::string_view item : Split(text, ',')) {
    if (Trim(item).empty()) continue;
    Result<PurchaseKind> p = ParsePurchaseKind(item, field, allowed);
    if (!p.ok()) return p.status();
    if (std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
  }
  return out;
}

const Price* PurchasePrice(const RegionOffer& o, PurchaseKind p) {
  const std::optional<Price>* price = nullptr;
  switch (p) {
    case PurchaseKind::kOnDemand:
      price = &o.on_demand;
      break;
    case PurchaseKind::kSpot:
      price = &o.spot;
      break;
    case PurchaseKind::kReserved1y:
      price = &o.reserved_1y_no_upfront;
      break;
    case PurchaseKind::kCapacityBlock:
      price = &o.capacity_block;
      break;
  }
  return price != nullptr && price->has_value() ? &**price : nullptr;
}

}  // namespace gpuadvisor
