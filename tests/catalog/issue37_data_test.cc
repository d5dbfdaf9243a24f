// Issue 37, item 5: catalog data errors fixed at their source (the builder, data/sources.json,
// data/accelerator-figures.csv), each pinned here over the embedded catalog, which
// `ctest -R cli_catalog_rebuild` keeps equal to a rebuild of its sources.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpuadvisor/catalog.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

std::shared_ptr<const Catalog> Embedded() {
  Result<std::shared_ptr<const Catalog>> c = EmbeddedCatalog();
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? *c : std::make_shared<const Catalog>();
}

const InstanceType& Type(const Catalog& c, const std::string& name) {
  const InstanceType* t = c.FindInstanceType(name);
  EXPECT_NE(t, nullptr) << name;
  static const InstanceType kNone;
  return t != nullptr ? *t : kNone;
}

// Item 1: an instance's network bandwidth is its NetworkPerformance, not the sum of its network
// cards' figures (DescribeInstanceTypes lists each card's own bandwidth).
TEST(Issue37DataTest, NetworkBandwidthIsThePerInstanceFigureNotTheSumOverCards) {
  std::shared_ptr<const Catalog> c = Embedded();
  const struct {
    const char* type;
    double baseline, peak;
  } kWant[] = {
      {"g6e.48xlarge", 400, 400},       {"g6e.24xlarge", 200, 200},
      {"p6-b200.48xlarge", 3200, 3200}, {"p6-b300.48xlarge", 6400, 6400},
      {"trn2.3xlarge", 200, 200},       {"p5.48xlarge", 3200, 3200},
      {"trn1n.32xlarge", 1600, 1600},   {"g7.48xlarge", 700, 700},
      {"g4dn.xlarge", 5, 25},
  };
  for (const auto& w : kWant) {
    const InstanceType& t = Type(*c, w.type);
    ASSERT_TRUE(t.network_baseline_gbit_s && t.network_peak_gbit_s) << w.type;
    EXPECT_DOUBLE_EQ(*t.network_baseline_gbit_s, w.baseline) << w.type;
    EXPECT_DOUBLE_EQ(*t.network_peak_gbit_s, w.peak) << w.type;
  }
  for (const InstanceType& t : c->instance_types()) {
    if (t.network_gbit_s && t.network_peak_gbit_s) {
      EXPECT_LE(*t.network_peak_gbit_s, *t.network_gbit_s) << t.name;
    }
  }
}

// Items 2 and 3: the Neuron pages print memory and NeuronLink bandwidth in GiB/s (Trainium2 in
// decimal TB/s); the catalog stores GB/s. trn1n.32xlarge's links run at 768 GiB/s per device,
// trn1.32xlarge's at 384 (trn1-arch.html, "NeuronLink-v2 device-to-device (GiB/sec/device)").
TEST(Issue37DataTest, NeuronBandwidthsAreGigabytesAndTrn1nHasItsOwnNeuronLink) {
  std::shared_ptr<const Catalog> c = Embedded();
  const double kGiB = 1.073741824;
  const struct {
    const char* model;
    double memory_gib_s, link_gib_s;
  } kWant[] = {{"Inferentia", 50, 32}, {"Inferentia2", 820, 192}, {"Trainium", 820, 384}};
  for (const auto& w : kWant) {
    const GpuSpec* g = c->FindGpu(w.model);
    ASSERT_NE(g, nullptr) << w.model;
    ASSERT_TRUE(g->memory_bw_gbyte_s && g->neuronlink_gbyte_s) << w.model;
    EXPECT_NEAR(*g->memory_bw_gbyte_s, w.memory_gib_s * kGiB, 0.001) << w.model;
    EXPECT_NEAR(*g->neuronlink_gbyte_s, w.link_gib_s * kGiB, 0.001) << w.model;
  }
  const GpuSpec* trn2 = c->FindGpu("Trainium2");
  ASSERT_NE(trn2, nullptr);
  EXPECT_DOUBLE_EQ(trn2->memory_bw_gbyte_s.value_or(0), 2900);  // "2.9 TB/sec": decimal
  EXPECT_DOUBLE_EQ(trn2->neuronlink_gbyte_s.value_or(0), 1280);
  const InstanceType& trn1n = Type(*c, "trn1n.32xlarge");
  ASSERT_TRUE(trn1n.accelerator.neuronlink_gbyte_s);
  EXPECT_NEAR(*trn1n.accelerator.neuronlink_gbyte_s, 768 * kGiB, 0.001);
  EXPECT_FALSE(Type(*c, "trn1.32xlarge").accelerator.neuronlink_gbyte_s);
}

// Item 4: a current type priced in a region by a source newer than the offerings snapshot is
// offered there, citing that source; item 5: a retired type is never offered on a price row
// alone (AWS China's price list still lists p2/g3/p3).
TEST(Issue37DataTest, NewerPricesOfferCurrentTypesAndRetiredTypesAreNotOfferedByPricesAlone) {
  std::shared_ptr<const Catalog> c = Embedded();
  const std::pair<const char*, const char*> kOffered[] = {
      {"g6.xlarge", "ap-south-2"},        {"g6.48xlarge", "ap-south-2"},
      {"g7.2xlarge", "eu-south-2"},       {"g7.48xlarge", "eu-south-2"},
      {"p4d.24xlarge", "ap-southeast-1"}, {"p6-b300.48xlarge", "ap-northeast-2"},
      {"p6-b300.48xlarge", "ap-south-2"}, {"p6-b200.48xlarge", "eu-north-1"}};
  for (const auto& [type, region] : kOffered) {
    const RegionOffer* o = Type(*c, type).FindRegion(region);
    ASSERT_NE(o, nullptr) << type << " " << region;
    EXPECT_EQ(o->offered, std::optional<bool>(true)) << type << " " << region;
    EXPECT_FALSE(o->offered_from.source.empty()) << type << " " << region;
    EXPECT_GT(o->offered_from.date, "2026-08-01") << type << " " << region;
  }
  int current_unoffered_with_newer_price = 0;
  for (const InstanceType& t : c->instance_types()) {
    for (const RegionOffer& o : t.regions) {
      if (t.retired) {
        // Retired: offered only where an offerings snapshot lists it, never by a price.
        if (o.offered.value_or(false)) {
          EXPECT_TRUE(o.offered_from.source.empty()) << t.name;
        }
        if (o.region.starts_with("cn-")) {
          EXPECT_EQ(o.offered, std::optional<bool>(false)) << t.name << " " << o.region;
        }
      } else if (o.offered == std::optional<bool>(false) && o.on_demand &&
                 o.on_demand->from.date > "2026-08-01" && !o.region.starts_with("cn-")) {
        ++current_unoffered_with_newer_price;
      }
    }
  }
  EXPECT_EQ(current_unoffered_with_newer_price, 0);
  const RegionOffer* p3 = Type(*c, "p3.2xlarge").FindRegion("cn-north-1");
  ASSERT_NE(p3, nullptr);
  EXPECT_EQ(p3->offered, std::optional<bool>(false));
  EXPECT_EQ(p3->offered_from.source, "moto-retired-types");
  EXPECT_TRUE(p3->on_demand.has_value());  // the price is kept, only not taken as an offer
  // China's current types stay offered by the complete China price list.
  EXPECT_EQ(Type(*c, "g5.xlarge").FindRegion("cn-north-1")->offered, std::optional<bool>(true));
}

// Item 7: the 2026-09-14 price confirmation's 4 new on-demand figures, dated and cited.
TEST(Issue37DataTest, QuickReferenceAddsItsNewOnDemandFigures) {
  std::shared_ptr<const Catalog> c = Embedded();
  ASSERT_NE(c->FindSource("aws-gpu-quick-reference-2026-09"), nullptr);
  const struct {
    const char *type, *region;
    double usd;
  } kWant[] = {{"p6-b300.48xlarge", "ap-south-2", 200.81},
               {"p6-b300.48xlarge", "ap-southeast-3", 230.93},
               {"p6-b300.48xlarge", "sa-east-1", 281.13},
               {"p6-b200.48xlarge", "eu-north-1", 143.24}};
  for (const auto& w : kWant) {
    const RegionOffer* o = Type(*c, w.type).FindRegion(w.region);
    ASSERT_NE(o, nullptr) << w.type << " " << w.region;
    ASSERT_TRUE(o->on_demand) << w.type << " " << w.region;
    EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, w.usd);
    EXPECT_EQ(o->on_demand->from.source, "aws-gpu-quick-reference-2026-09");
    EXPECT_EQ(o->on_demand->from.date, "2026-09-14");
  }
}

// Item 8: AWS China's 3-year and convertible RI terms from the raw Vantage China file, in CNY,
// itemised in reserved[] (no-upfront and all-upfront; partial-upfront and the "Savings" keys,
// which repeat the RI figures, are left out).
TEST(Issue37DataTest, ChinaReservedTermsAreItemisedInYuan) {
  std::shared_ptr<const Catalog> c = Embedded();
  const RegionOffer* o = Type(*c, "p4d.24xlarge").FindRegion("cn-northwest-1");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->currency(), Currency::kCny);
  const ReservedPrice* three = o->FindReserved(3, "standard", "no-upfront");
  ASSERT_NE(three, nullptr);
  EXPECT_DOUBLE_EQ(three->usd_per_hour, 73.80361);  // CNY per hour
  EXPECT_EQ(three->from.source, "vantage-cn-terms-2026-01");
  EXPECT_EQ(three->from.date, "2026-01-21");
  const ReservedPrice* conv = o->FindReserved(1, "convertible", "all-upfront");
  ASSERT_NE(conv, nullptr);
  EXPECT_DOUBLE_EQ(conv->usd_per_hour, 0);
  EXPECT_NEAR(conv->effective_usd_per_hour(), 122.753539, 1e-6);
  EXPECT_EQ(o->FindReserved(1, "standard", "partial-upfront"), nullptr);
  EXPECT_TRUE(o->savings_plans.empty());
  // The headline 1-year figure is still the newer (2026-08-26) one.
  ASSERT_TRUE(o->reserved_1y_no_upfront);
  EXPECT_DOUBLE_EQ(o->reserved_1y_no_upfront->usd_per_hour, 109.601338);
  int china_terms = 0;
  for (const InstanceType& t : c->instance_types()) {
    for (const RegionOffer& r : t.regions) {
      if (!r.region.starts_with("cn-")) continue;
      china_terms += static_cast<int>(r.reserved.size());
    }
  }
  EXPECT_GT(china_terms, 200);
}

// Item 5 (A): the 2026-09-14 quick reference's Capacity Block regions that the 2026-07-22 data
// lacks, per instance-hour = its per-GPU rate (rounded to the cent) x the type's 8 GPUs, noted as
// rounded and cited; no existing Capacity Block rate is replaced.
TEST(Issue37DataTest, QuickReferenceAddsItsNewCapacityBlockRegions) {
  std::shared_ptr<const Catalog> c = Embedded();
  ASSERT_NE(c->FindSource("aws-gpu-quick-reference-2026-09-capacity-blocks"), nullptr);
  const struct {
    const char *type, *region;
    double usd;
  } kWant[] = {{"p6-b300.48xlarge", "ap-northeast-2", 14.04 * 8},
               {"p6-b300.48xlarge", "ap-south-2", 14.04 * 8},
               {"p6-b300.48xlarge", "ap-southeast-3", 14.04 * 8},
               {"p6-b200.48xlarge", "ap-south-2", 12.36 * 8}};
  for (const auto& w : kWant) {
    const RegionOffer* o = Type(*c, w.type).FindRegion(w.region);
    ASSERT_NE(o, nullptr) << w.type << " " << w.region;
    ASSERT_TRUE(o->capacity_block) << w.type << " " << w.region;
    EXPECT_DOUBLE_EQ(o->capacity_block->usd_per_hour, w.usd) << w.type << " " << w.region;
    EXPECT_EQ(o->capacity_block->from.source, "aws-gpu-quick-reference-2026-09-capacity-blocks");
    EXPECT_EQ(o->capacity_block->from.date, "2026-09-14");
    EXPECT_NE(o->capacity_block->note.find("rounded to the cent"), std::string::npos);
    EXPECT_NE(o->capacity_block->note.find("0.040"), std::string::npos);  // +/- 0.005 x 8
  }
  // An existing rate stays: p6-b300 in us-west-2 keeps its exact 2026-07-22 figure.
  const RegionOffer* west = Type(*c, "p6-b300.48xlarge").FindRegion("us-west-2");
  ASSERT_TRUE(west && west->capacity_block);
  EXPECT_DOUBLE_EQ(west->capacity_block->usd_per_hour, 112.32);
  EXPECT_EQ(west->capacity_block->from.source, "capacity-blocks-2026-07");
  EXPECT_EQ(west->capacity_block->confirmed.source,
            "aws-gpu-quick-reference-2026-09-capacity-blocks");
}

// Item 5 (B): the quick reference's other on-demand figures confirm the catalog's, which keep
// their exact value, source and date; each is then as old as its confirmation.
TEST(Issue37DataTest, QuickReferenceConfirmsTheOnDemandFiguresItEquals) {
  std::shared_ptr<const Catalog> c = Embedded();
  const RegionOffer* o = Type(*c, "p4d.24xlarge").FindRegion("us-east-1");
  ASSERT_TRUE(o && o->on_demand);
  EXPECT_DOUBLE_EQ(o->on_demand->usd_per_hour, 21.957642);  // exact, not the rounded 21.96
  EXPECT_EQ(o->on_demand->from.source, "vantage-2026-08");
  EXPECT_EQ(o->on_demand->from.date, "2026-08-26");
  EXPECT_EQ(o->on_demand->confirmed.source, "aws-gpu-quick-reference-2026-09-confirmations");
  EXPECT_EQ(o->on_demand->confirmed.date, "2026-09-14");
  EXPECT_EQ(o->on_demand->dated_by().date, "2026-09-14");
  int confirmed = 0, confirmed_blocks = 0;
  for (const InstanceType& t : c->instance_types()) {
    for (const RegionOffer& r : t.regions) {
      if (r.on_demand && !r.on_demand->confirmed.date.empty()) ++confirmed;
      if (r.capacity_block && !r.capacity_block->confirmed.date.empty()) ++confirmed_blocks;
    }
  }
  EXPECT_EQ(confirmed, 860);
  EXPECT_EQ(confirmed_blocks, 53);  // 51 equal rows + the 2 UltraServers (Dallas Local Zone)
  // The 4 new figures are the reference's own, not confirmed by it.
  const RegionOffer* fresh = Type(*c, "p6-b300.48xlarge").FindRegion("sa-east-1");
  ASSERT_TRUE(fresh && fresh->on_demand);
  EXPECT_TRUE(fresh->on_demand->confirmed.date.empty());
  // Nothing disagreed (a disagreement would be a note, the figure kept).
  for (const std::string& n : c->notes) EXPECT_FALSE(n.starts_with("Not confirmed")) << n;
}

// Item 5 (C): GB200 NVL72 as AWS sells it, a whole UltraServer through a Capacity Block in the
// Dallas Local Zone of us-east-1; host figures unknown (0 in memory, null in the file).
TEST(Issue37DataTest, Gb200UltraServersAreUnitsOfPurchase) {
  std::shared_ptr<const Catalog> c = Embedded();
  const struct {
    const char* type;
    int gpus;
    double usd;
  } kWant[] = {{"u-p6e-gb200x36", 36, 380.952}, {"u-p6e-gb200x72", 72, 761.904}};
  for (const auto& w : kWant) {
    const InstanceType& t = Type(*c, w.type);
    EXPECT_TRUE(t.ultraserver()) << w.type;
    EXPECT_EQ(t.family, "u-p6e-gb200");
    EXPECT_EQ(t.accelerator.model, "GB200");
    EXPECT_EQ(t.accelerator.count, w.gpus);
    EXPECT_EQ(t.vcpus, 0);  // unknown
    EXPECT_EQ(t.memory_mib, 0);
    EXPECT_FALSE(t.network_gbit_s);
    EXPECT_EQ(t.usage_classes, std::vector<std::string>{"capacity-block"});
    ASSERT_EQ(t.regions.size(), 1u) << w.type;
    const RegionOffer& o = t.regions[0];
    EXPECT_EQ(o.region, "us-east-1");
    EXPECT_EQ(o.offered, std::optional<bool>(true));
    EXPECT_FALSE(o.on_demand || o.spot || o.reserved_1y_no_upfront);
    ASSERT_TRUE(o.capacity_block);
    EXPECT_DOUBLE_EQ(o.capacity_block->usd_per_hour, w.usd);
    EXPECT_EQ(o.capacity_block->zone, "us-east-1-dfw-2a");
    EXPECT_EQ(o.capacity_block->from.date, "2026-07-22");
    EXPECT_NE(o.capacity_block->note.find("sold only as an UltraServer Capacity Block"),
              std::string::npos);
    // The 2026-01/03 rows (the per-GPU rate given as the instance rate) are left out.
    ASSERT_EQ(o.history.size(), 1u);
  }
  const std::string json = CatalogToJson(*c);
  EXPECT_NE(json.find("\"unit_of_purchase\": \"ultraserver\""), std::string::npos);
  Result<Catalog> back = ParseCatalogJson(json, "c.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->FindInstanceType("u-p6e-gb200x72")->ultraserver());
}

}  // namespace
}  // namespace gpuadvisor
