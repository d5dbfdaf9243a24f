// Synthetic AWS Price List EC2 offer files (CSV and JSON) for the import benchmarks: the real
// 91-column header of the 2025-09 offer file, and rows shaped like the real ones (fully quoted
// CSV, ~700 bytes per price dimension; a few percent are canonical Linux rows, the rest are the
// Windows / RHEL / SUSE / SQL / dedicated / capacity-reservation / reserved-term rows that
// dominate the real file).
#ifndef GPUADVISOR_BENCH_PRICE_LIST_GEN_H_
#define GPUADVISOR_BENCH_PRICE_LIST_GEN_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gpuadvisor::bench {

// The header line of the AmazonEC2 offer file, version 20250912225308 (column names only).
inline const char* kPriceListHeader =
    R"("SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate","StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo","LeaseContractLength","PurchaseOption","OfferingClass","Product Family","serviceCode","Location","Location Type","Instance Type","Current Generation","Instance Family","vCPU","Physical Processor","Clock Speed","Memory","Storage","Network Performance","Processor Architecture","Storage Media","Volume Type","Max Volume Size","Max IOPS/volume","Max IOPS Burst Performance","Max throughput/volume","Provisioned","Tenancy","EBS Optimized","Operating System","License Model","Group","Group Description","Transfer Type","From Location","From Location Type","To Location","To Location Type","usageType","operation","AvailabilityZone","CapacityStatus","ClassicNetworkingSupport","Dedicated EBS Throughput","ECU","Elastic Graphics Type","Enhanced Networking Supported","From Region Code","GPU","GPU Memory","Instance","Instance Capacity - 10xlarge","Instance Capacity - 12xlarge","Instance Capacity - 16xlarge","Instance Capacity - 18xlarge","Instance Capacity - 24xlarge","Instance Capacity - 2xlarge","Instance Capacity - 32xlarge","Instance Capacity - 4xlarge","Instance Capacity - 8xlarge","Instance Capacity - 9xlarge","Instance Capacity - large","Instance Capacity - medium","Instance Capacity - metal","Instance Capacity - xlarge","instanceSKU","Intel AVX2 Available","Intel AVX Available","Intel Turbo Available","MarketOption","Normalization Size Factor","Physical Cores","Pre Installed S/W","Processor Features","Product Type","Region Code","Resource Type","serviceName","SnapshotArchiveFeeType","To Region Code","Volume API Name","VPCNetworkingSupport")";

struct GenRow {
  std::string sku, term_code, term_type, unit, price, lease, purchase, offering_class, type,
      region, tenancy, os, license, operation, capacity, sw;
};

// Calls emit(row) for the i-th synthetic price dimension.
inline GenRow SyntheticRow(uint64_t i) {
  static const char* kTypes[] = {"p5.48xlarge", "p4d.24xlarge", "g6.xlarge",    "g6e.12xlarge",
                                 "g5.48xlarge", "c6i.large",    "m7i.2xlarge",  "r7g.medium",
                                 "trn1.32xlarge", "inf2.xlarge", "c7g.16xlarge", "m5.large"};
  static const char* kRegions[] = {"us-east-1",      "us-west-2",  "eu-west-1", "ap-northeast-1",
                                   "ap-southeast-2", "eu-central-1", "us-east-2", "ap-south-1"};
  static const char* kOs[] = {"Windows", "RHEL", "SUSE", "Linux", "Red Hat Enterprise Linux with HA",
                              "Ubuntu Pro"};
  static const char* kTerms[][4] = {{"4NA7Y494T4", "1yr", "No Upfront", "standard"},
                                    {"HU7G6KETJZ", "1yr", "Partial Upfront", "standard"},
                                    {"6QCMYABX3D", "1yr", "All Upfront", "standard"},
                                    {"7NE97W5U4E", "1yr", "No Upfront", "convertible"},
                                    {"BPH4J8HBKS", "3yr", "No Upfront", "standard"},
                                    {"MZU6U2429S", "3yr", "All Upfront", "convertible"}};
  GenRow r;
  const uint64_t h = i * 2654435761u;
  r.type = kTypes[(i / 7) % 12];
  r.region = kRegions[(i / 84) % 8];
  r.os = kOs[h % 6];
  r.tenancy = (h >> 8) % 3 == 0 ? "Dedicated" : "Shared";
  r.capacity = (h >> 12) % 4 == 0 ? "UnusedCapacityReservation" : "Used";
  r.sw = (h >> 16) % 5 == 0 ? "SQL Web" : "NA";
  r.license = "No License required";
  r.operation = r.os == std::string("Linux") ? "RunInstances" : "RunInstances:0002";
  char sku[32];
  std::snprintf(sku, sizeof sku, "%016llX", static_cast<unsigned long long>(h ^ (i >> 3)));
  r.sku = sku;
  const bool reserved = (h >> 20) % 3 != 0;
  const bool upfront_row = reserved && (h >> 24) % 2 == 0;
  if (reserved) {
    const char* const* t = kTerms[(h >> 28) % 6];
    r.term_code = t[0];
    r.term_type = "Reserved";
    r.lease = t[1];
    r.purchase = t[2];
    r.offering_class = t[3];
  } else {
    r.term_code = "JRTCKXETXF";
    r.term_type = "OnDemand";
  }
  r.unit = upfront_row ? "Quantity" : "Hrs";
  char price[32];
  std::snprintf(price, sizeof price, upfront_row ? "%llu" : "%llu.%04llu0000",
                static_cast<unsigned long long>((h >> 5) % 90),
                static_cast<unsigned long long>((h >> 9) % 10000));
  r.price = price;
  return r;
}

// The header's column names, in order.
inline const std::vector<std::string>& HeaderColumns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c;
    std::string h = kPriceListHeader;
    for (size_t i = 0; i < h.size();) {
      size_t end = h.find("\",\"", i + 1);
      if (end == std::string::npos) end = h.size() - 1;
      c.push_back(h.substr(i + 1, end - i - 1));
      i = end + 2;
    }
    return c;
  }();
  return cols;
}

// One fully quoted CSV line (as AWS writes it: empty cells unquoted).
inline void AppendCsvRow(const GenRow& r, std::string* out) {
  const std::vector<std::string>& cols = HeaderColumns();
  for (size_t k = 0; k < cols.size(); ++k) {
    const std::string& c = cols[k];
    std::string v;
    if (c == "SKU") v = r.sku;
    else if (c == "OfferTermCode") v = r.term_code;
    else if (c == "RateCode") v = r.sku + "." + r.term_code + (r.unit == "Hrs" ? ".6YS6EN2CT7" : ".2TG2D8R56U");
    else if (c == "TermType") v = r.term_type;
    else if (c == "PriceDescription") v = "$" + r.price + " per " + r.os + " (Amazon VPC), " + r.type + " instance hour";
    else if (c == "EffectiveDate") v = "2025-09-01";
    else if (c == "StartingRange") v = r.unit == "Hrs" ? "0" : "";
    else if (c == "EndingRange") v = r.unit == "Hrs" ? "Inf" : "";
    else if (c == "Unit") v = r.unit;
    else if (c == "PricePerUnit") v = r.price;
    else if (c == "Currency") v = "USD";
    else if (c == "LeaseContractLength") v = r.lease;
    else if (c == "PurchaseOption") v = r.purchase;
    else if (c == "OfferingClass") v = r.offering_class;
    else if (c == "Product Family") v = "Compute Instance";
    else if (c == "serviceCode") v = "AmazonEC2";
    else if (c == "Location") v = "US East (N. Virginia)";
    else if (c == "Location Type") v = "AWS Region";
    else if (c == "Instance Type") v = r.type;
    else if (c == "Current Generation") v = "Yes";
    else if (c == "Instance Family") v = "GPU instance";
    else if (c == "vCPU") v = "192";
    else if (c == "Physical Processor") v = "AMD EPYC 7R13 Processor";
    else if (c == "Clock Speed") v = "3.6 GHz";
    else if (c == "Memory") v = "2048 GiB";
    else if (c == "Storage") v = "8 x 3840 NVMe SSD";
    else if (c == "Network Performance") v = "3200 Gigabit";
    else if (c == "Processor Architecture") v = "64-bit";
    else if (c == "Tenancy") v = r.tenancy;
    else if (c == "Operating System") v = r.os;
    else if (c == "License Model") v = r.license;
    else if (c == "usageType") v = "USE1-BoxUsage:" + r.type;
    else if (c == "operation") v = r.operation;
    else if (c == "AvailabilityZone") v = "NA";
    else if (c == "CapacityStatus") v = r.capacity;
    else if (c == "ClassicNetworkingSupport") v = "false";
    else if (c == "Dedicated EBS Throughput") v = "80000 Mbps";
    else if (c == "ECU") v = "NA";
    else if (c == "Enhanced Networking Supported") v = "Yes";
    else if (c == "GPU") v = "8";
    else if (c == "GPU Memory") v = "640 GB";
    else if (c == "Intel AVX2 Available" || c == "Intel AVX Available" || c == "Intel Turbo Available") v = "Yes";
    else if (c == "MarketOption") v = "OnDemand";
    else if (c == "Normalization Size Factor") v = "384";
    else if (c == "Physical Cores") v = "96";
    else if (c == "Pre Installed S/W") v = r.sw;
    else if (c == "Processor Features") v = "AMD Turbo; AVX; AVX2; AMD SEV-SNP";
    else if (c == "Region Code") v = r.region;
    else if (c == "serviceName") v = "Amazon Elastic Compute Cloud";
    else if (c == "VPCNetworkingSupport") v = "true";
    if (k) *out += ',';
    if (!v.empty()) {
      *out += '"';
      *out += v;
      *out += '"';
    }
  }
  *out += '\n';
}

inline void WriteCsvPreamble(std::FILE* f) {
  std::fputs(
      "\"FormatVersion\",\"v1.0\"\n\"Disclaimer\",\"synthetic benchmark data\"\n"
      "\"Publication Date\",\"2025-09-12T22:53:08Z\"\n\"Version\",\"20250912225308\"\n"
      "\"OfferCode\",\"AmazonEC2\"\n",
      f);
  std::fputs(kPriceListHeader, f);
  std::fputc('\n', f);
}

// Writes a CSV offer file of at least `bytes` bytes; returns the rows written.
inline uint64_t WriteCsv(std::FILE* f, uint64_t bytes) {
  WriteCsvPreamble(f);
  std::string buf;
  uint64_t written = 0, i = 0;
  while (written < bytes) {
    buf.clear();
    for (int k = 0; k < 1000; ++k) AppendCsvRow(SyntheticRow(i++), &buf);
    std::fwrite(buf.data(), 1, buf.size(), f);
    written += buf.size();
  }
  return i;
}

// Writes a JSON offer file of at least `bytes` bytes: products (one per SKU) then terms.
inline uint64_t WriteJson(std::FILE* f, uint64_t bytes) {
  std::fputs(
      "{\n  \"formatVersion\" : \"v1.0\",\n  \"disclaimer\" : \"synthetic benchmark data\",\n"
      "  \"offerCode\" : \"AmazonEC2\",\n  \"version\" : \"20250912225308\",\n"
      "  \"publicationDate\" : \"2025-09-12T22:53:08Z\",\n  \"products\" : {\n",
      f);
  // ~3 kB per SKU: the product, its on-demand term and one reserved term (two dimensions).
  const uint64_t n = bytes / 3000 + 1;
  std::string buf;
  for (uint64_t i = 0; i < n; ++i) {
    GenRow r = SyntheticRow(i * 2);
    buf = "    \"" + r.sku + "\" : {\n      \"sku\" : \"" + r.sku +
          "\",\n      \"productFamily\" : \"Compute Instance\",\n      \"attributes\" : {\n"
          "        \"servicecode\" : \"AmazonEC2\",\n        \"location\" : \"US East (N. "
          "Virginia)\",\n        \"locationType\" : \"AWS Region\",\n        \"instanceType\" : \"" +
          r.type +
          "\",\n        \"currentGeneration\" : \"Yes\",\n        \"instanceFamily\" : \"GPU "
          "instance\",\n        \"vcpu\" : \"192\",\n        \"physicalProcessor\" : \"AMD EPYC "
          "7R13\",\n        \"memory\" : \"2048 GiB\",\n        \"storage\" : \"8 x 3840 NVMe "
          "SSD\",\n        \"networkPerformance\" : \"3200 Gigabit\",\n        \"tenancy\" : \"" +
          r.tenancy + "\",\n        \"operatingSystem\" : \"" + r.os +
          "\",\n        \"licenseModel\" : \"" + r.license + "\",\n        \"usagetype\" : "
          "\"USE1-BoxUsage:" + r.type + "\",\n        \"operation\" : \"" + r.operation +
          "\",\n        \"capacitystatus\" : \"" + r.capacity + "\",\n        \"gpu\" : \"8\",\n"
          "        \"gpuMemory\" : \"640 GB\",\n        \"marketoption\" : \"OnDemand\",\n"
          "        \"preInstalledSw\" : \"" + r.sw + "\",\n        \"regionCode\" : \"" + r.region +
          "\",\n        \"servicename\" : \"Amazon Elastic Compute Cloud\"\n      }\n    }" +
          (i + 1 < n ? ",\n" : "\n");
    std::fwrite(buf.data(), 1, buf.size(), f);
  }
  std::fputs("  },\n  \"terms\" : {\n    \"OnDemand\" : {\n", f);
  for (uint64_t i = 0; i < n; ++i) {
    GenRow r = SyntheticRow(i * 2);
    buf = "      \"" + r.sku + "\" : {\n        \"" + r.sku + ".JRTCKXETXF\" : {\n" +
          "          \"offerTermCode\" : \"JRTCKXETXF\",\n          \"sku\" : \"" + r.sku +
          "\",\n          \"effectiveDate\" : \"2025-09-01T00:00:00Z\",\n"
          "          \"priceDimensions\" : {\n            \"" + r.sku +
          ".JRTCKXETXF.6YS6EN2CT7\" : {\n              \"rateCode\" : \"" + r.sku +
          ".JRTCKXETXF.6YS6EN2CT7\",\n              \"description\" : \"$" + r.price +
          " per On Demand " + r.os + " " + r.type +
          " Instance Hour\",\n              \"beginRange\" : \"0\",\n              \"endRange\" : "
          "\"Inf\",\n              \"unit\" : \"Hrs\",\n              \"pricePerUnit\" : {\n"
          "                \"USD\" : \"" + (r.unit == "Hrs" ? r.price : r.price + ".0") +
          "\"\n              },\n              \"appliesTo\" : [ ]\n            }\n"
          "          },\n          \"termAttributes\" : { }\n        }\n      }" +
          (i + 1 < n ? ",\n" : "\n");
    std::fwrite(buf.data(), 1, buf.size(), f);
  }
  std::fputs("    },\n    \"Reserved\" : {\n", f);
  for (uint64_t i = 0; i < n; ++i) {
    GenRow r = SyntheticRow(i * 2);
    GenRow t = SyntheticRow(i * 2 + 3);
    if (t.term_type != "Reserved") t.lease = "1yr", t.purchase = "No Upfront", t.offering_class = "standard", t.term_code = "4NA7Y494T4";
    buf = "      \"" + r.sku + "\" : {\n        \"" + r.sku + "." + t.term_code + "\" : {\n" +
          "          \"offerTermCode\" : \"" + t.term_code + "\",\n          \"sku\" : \"" +
          r.sku + "\",\n          \"effectiveDate\" : \"2025-09-01T00:00:00Z\",\n"
          "          \"priceDimensions\" : {\n            \"" + r.sku + "." + t.term_code +
          ".2TG2D8R56U\" : {\n              \"rateCode\" : \"" + r.sku + "." + t.term_code +
          ".2TG2D8R56U\",\n              \"description\" : \"Upfront Fee\",\n"
          "              \"unit\" : \"Quantity\",\n              \"pricePerUnit\" : {\n"
          "                \"USD\" : \"1234\"\n              },\n              \"appliesTo\" : [ ]\n"
          "            },\n            \"" + r.sku + "." + t.term_code +
          ".6YS6EN2CT7\" : {\n              \"rateCode\" : \"" + r.sku + "." + t.term_code +
          ".6YS6EN2CT7\",\n              \"description\" : \"" + r.os + " (Amazon VPC), " +
          r.type + " reserved instance applied\",\n              \"beginRange\" : \"0\",\n"
          "              \"endRange\" : \"Inf\",\n              \"unit\" : \"Hrs\",\n"
          "              \"pricePerUnit\" : {\n                \"USD\" : \"0.5000000000\"\n"
          "              },\n              \"appliesTo\" : [ ]\n            }\n          },\n"
          "          \"termAttributes\" : {\n            \"LeaseContractLength\" : \"" + t.lease +
          "\",\n            \"OfferingClass\" : \"" + t.offering_class +
          "\",\n            \"PurchaseOption\" : \"" + t.purchase +
          "\"\n          }\n        }\n      }" + (i + 1 < n ? ",\n" : "\n");
    std::fwrite(buf.data(), 1, buf.size(), f);
  }
  std::fputs("    }\n  }\n}\n", f);
  return n;
}

}  // namespace gpuadvisor::bench

#endif  // GPUADVISOR_BENCH_PRICE_LIST_GEN_H_
