// How an instance is paid for: the one purchase-option type behind `instances --purchase`,
// `recommend --purchase`, `launch --purchase`, `idle --purchase` and inventories, in the CLI, the
// HTTP API and the Python module alike. Every front end parses the text with ParsePurchaseKind,
// so an unknown name is the same error everywhere (never a silent on-demand).
#ifndef GPUADVISOR_PURCHASE_H_
#define GPUADVISOR_PURCHASE_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpuadvisor/catalog.h"
#include "gpuadvisor/result.h"

namespace gpuadvisor {

enum class PurchaseKind { kOnDemand, kSpot, kReserved1y, kCapacityBlock };

// "on-demand", "spot", "reserved-1y-no-upfront", "capacity-block" (the `pricing` option names;
// stored in plan files and JSON: do not rename).
const char* PurchaseKindName(PurchaseKind p);
// The name a reader is shown in tables and text, in the current language (i18n.h): English is
// PurchaseKindName's; Chinese the terms a Chinese reader knows (按需, 竞价, 预留实例, 容量块).
const char* PurchaseKindLabel(PurchaseKind p);
// Every kind, in declaration order.
const std::vector<PurchaseKind>& AllPurchaseKinds();

// One name, case-insensitive; also accepts "ondemand", "reserved", "reserved-1y" and "cb".
// `allowed` is what the command supports. Error: InvalidArgument
// "<field>: expected one of on-demand, spot, ..., got \"x\"" listing the allowed names; its
// field() is `field` without leading dashes ("--purchase" -> "purchase").
Result<PurchaseKind> ParsePurchaseKind(std::string_view text, std::string_view field,
                                       const std::vector<PurchaseKind>& allowed);
// A comma-separated list ("on-demand,spot"); empty items are skipped, repeats kept once.
Result<std::vector<PurchaseKind>> ParsePurchaseKinds(std::string_view text, std::string_view field,
                                                     const std::vector<PurchaseKind>& allowed);

// ParsePurchaseKind over every kind for `field`, as a function of the text alone (an option's
// declaration: fields.h).
inline auto ParsePurchaseOption(std::string_view field) {
  return
      [field](std::string_view text) { return ParsePurchaseKind(text, field, AllPurchaseKinds()); };
}

// The hourly price of that option in a region (capacity block: the instance-hour rate), or null.
const Price* PurchasePrice(const RegionOffer& offer, PurchaseKind p);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_PURCHASE_H_
