// Plausibility bounds for catalog records, shared by every reader that accepts them: `catalog
// import` (AWS price lists, savings-plan rates, EC2 API responses), the `catalog build` readers
// and the catalog JSON reader. One policy (doc/import.md, "Validation"):
//  - refused, with file:line or the JSON path: a price that is not a finite number, is negative,
//    is above the cap, or is above $0 but under the floor (1e-320 would make 64 x p5.48xlarge
//    "$0.00" the cheapest plan); a device count outside 0..kMaxDevicesPerInstance; memory <= 0; an
//    empty instance-type name; a date or timestamp that does not parse;
//  - skipped and counted (a warning in the import report): a $0 price, which AWS publishes for
//    terms it does not actually sell; it is never taken as "free". (The recurring hourly charge
//    of an All Upfront reservation is $0 by definition and is taken without a warning.)
// Each check returns "" when the value is acceptable, else what was expected, for the caller to
// put after its own location ("prices.csv:12: column \"PricePerUnit\": " + what).
#ifndef GPUADVISOR_CATALOG_RECORD_CHECKS_H_
#define GPUADVISOR_CATALOG_RECORD_CHECKS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/dates.h"  // IsIsoTimestamp, for the importers
#include "util/rj_reader.h"

namespace gpuadvisor {

// The dearest instance-hour AWS sells is ~$120 (u-p6e UltraServers per server: a few hundred);
// two orders of magnitude above that is a corrupted figure, not a price.
constexpr double kMaxUsdPerHour = 10000;
// The cheapest instance-hour AWS sells is ~$0.0016 (a t4g.nano on Spot), the cheapest
// accelerator one ~$0.05; a figure under this floor (other than $0) is a corrupted one. Upfront
// fees share it.
constexpr double kMinUsdPerHour = 0.0001;
// An upfront fee: the hourly cap over a 3-year term (8760 h a year, as AWS counts).
constexpr double kMaxUpfrontUsd = kMaxUsdPerHour * 8760 * 3;
// Accelerators per instance: the largest instances carry 16 (trn2.48xlarge, inf2.48xlarge).
constexpr int64_t kMaxDevicesPerInstance = 64;
// Accelerators per EC2 UltraServer, a unit of several hosts sold whole (u-p6e-gb200x72: 72).
constexpr int64_t kMaxDevicesPerUltraServer = 128;
// Memory per accelerator (the largest datasheet figure is 288 GB) and per instance (the largest
// high-memory instances have 24 TiB), in MiB; both keep the figures inside int.
constexpr int64_t kMaxDeviceMemoryMib = int64_t{1} << 20;      // 1 TiB
constexpr int64_t kMaxInstanceMemoryMib = int64_t{256} << 20;  // 256 TiB
constexpr int64_t kMaxVcpus = 16384;

enum class PriceCheck { kOk, kZero, kBad };
// A price in USD (per hour, or an upfront fee with `cap` = kMaxUpfrontUsd): kBad when not
// finite, negative, above `cap` or in (0, kMinUsdPerHour); kZero for exactly 0.
PriceCheck CheckPrice(double usd, double cap = kMaxUsdPerHour);
// "a price above $0 and at most $10000 per hour, got -1"; for RjReader::Fail ("expected " + it).
std::string PriceWanted(double usd, double cap = kMaxUsdPerHour);
// "expected " + PriceWanted(usd, cap).
std::string ExpectedPrice(double usd, double cap = kMaxUsdPerHour);

// "" when acceptable, else what was expected, without the word "expected" (RjReader::Fail adds
// it): "an integer from 0 to 64, got 1000000000000".
std::string CheckCount(int64_t v, int64_t lo, int64_t hi);
// The same for a memory size in MiB in (0, hi].
std::string CheckMemoryMib(int64_t mib, int64_t hi);
// The optional memory figure at obj[key] in MiB, checked by CheckMemoryMib; a bad one is recorded
// on `r` (path.key) and read as absent.
std::optional<int64_t> OptMemoryMib(RjReader& r, const rapidjson::Value& obj, const char* key,
                                    const JsonPath& path, int64_t hi);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_CATALOG_RECORD_CHECKS_H_
