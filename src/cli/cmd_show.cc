// `gpuadvisor show TYPE`: one instance type in full.
#include <iostream>

#include "app/requests.h"
#include "app/successors.h"
#include "app/views.h"
#include "cli/common.h"
#include "gpuadvisor/query.h"
#include "util/text.h"

namespace gpuadvisor::cli {
namespace {

struct ShowOptions {
  CommonOptions common;
  TableOptions table;
};

// Key-value summary above the per-region table.
Table SummaryTable(const Catalog& c, const InstanceType& t, const std::string& region,
                   const Context& ctx) {
  Table s;
  s.AddColumn(Tr("field"));
  s.AddColumn(Tr("value"));
  const Accelerator& a = t.accelerator;
  const GpuSpec* g = c.GpuOf(t);
  auto add = [&](const std::string& k, std::optional<std::string> v) {
    s.AddRow({k, std::move(v)});
  };
  add("instance type", t.name + (t.retired ? " (retired: " + t.retired_note + ")" : ""));
  if (t.retired) {
    const std::string next = SuccessorsText(RetiredSuccessors(c, t, region));
    add("in its place (" + region + ")", next.empty() ? std::nullopt : std::optional(next));
  }
  std::string count = a.fractional() ? FormatFixed(a.partition_size, 3) + " of one"
                                     : std::to_string(a.count) + " x";
  add("accelerator", count + " " + a.vendor + " " + (g ? g->full_name : a.model) + " (" +
                         AcceleratorKindName(a.kind) + ")");
  add("memory per device",
      a.memory_mib_each ? std::optional<std::string>(std::to_string(*a.memory_mib_each) + " MiB")
                        : std::nullopt);
  if (t.ultraserver()) {
    add("unit of purchase", "one whole UltraServer (" + std::to_string(a.count) +
                                " GPUs over several hosts), only as a Capacity Block");
  }
  // 0 = unknown (no source gives an UltraServer's hosts): said so, never 0.
  add("vCPUs / RAM",
      (t.vcpus > 0 ? std::to_string(t.vcpus) : std::string("unknown")) + " / " +
          (t.memory_mib > 0 ? FormatFixed(static_cast<double>(t.memory_mib) / 1024, 0) + " GiB"
                            : std::string("unknown")));
  // An UltraServer's network is in no source: unknown, not "no EFA".
  add("network",
      t.network_performance.empty() && !t.efa
          ? std::string("unknown")
          : t.network_performance +
                (t.efa ? ", EFA (" + std::to_string(t.max_efa_interfaces) + " interfaces)"
                       : ", no EFA"));
  add("instance store",
      t.local_storage_gb
          ? std::optional<std::string>(std::to_string(t.local_disk_count) + " x " +
                                       std::to_string(t.local_disk_gb.value_or(0)) + " GB " +
                                       (t.local_nvme ? "NVMe " : "") + t.local_disk_type)
          : std::optional<std::string>("none"));
  std::string classes;
  for (const std::string& u : t.usage_classes) classes += (classes.empty() ? "" : ", ") + u;
  add("usage classes", classes);
  if (g) {
    add("dense BF16 TFLOP/s per device", Cell(g->bf16_tflops, 1));
    add("dense FP16 TFLOP/s per device", Cell(g->fp16_tflops, 1));
    add("dense FP8 TFLOP/s per device", Cell(g->fp8_tflops, 1));
    if (g->int8_tops) add("dense INT8 TOPS per device", Cell(g->int8_tops, 1));
    add("FP64 TFLOP/s per device", Cell(g->fp64_tflops, 2));
    add("memory bandwidth GB/s", Cell(g->memory_bw_gbyte_s, 0));
    add("FP64 tensor TFLOP/s per device", Cell(g->fp64_tensor_tflops, 1));
    add("NVLink GB/s", Cell(g->nvlink_gbyte_s, 0));
    if (g->neuron_cores > 0) add("NeuronCores per device", std::to_string(g->neuron_cores));
    // This type's own NeuronLink figure (trn1n) wins over the model's.
    if (const std::optional<double> link =
            a.neuronlink_gbyte_s ? a.neuronlink_gbyte_s : g->neuronlink_gbyte_s) {
      add("NeuronLink GB/s per device",
          FormatFixed(*link, 0) +
              (g->neuronlink_topology.empty() ? "" : " (" + g->neuronlink_topology + ")"));
    }
    add("NVENC engines",
        g->nvenc ? std::optional<std::string>(std::to_string(*g->nvenc)) : std::nullopt);
    add("datasheet", g->source_note);
    if (!g->confidence.empty()) {
      add("figures", g->confidence + (g->derivation.empty() ? "" : " (" + g->derivation + ")"));
    }
  }
  add("specs from", t.spec_from.source + " (" + t.spec_from.date + ")");
  (void)ctx;
  return s;
}

// What `show` was asked, checked.
struct ShowRequest {
  const InstanceType* type = nullptr;
  std::string region;
  bool history = false;
};

Result<ShowRequest> MakeShowRequest(const Catalog& c, const Result<OptionValues>& v) {
  if (!v.ok()) return v.status();
  ShowArgs a;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(*v, &a));
  Result<const InstanceType*> t = ResolveInstanceType(c, a.type);
  if (!t.ok()) return t.status().WithField("type");
  ShowRequest r{*t, a.region, a.history};
  GPUADVISOR_RETURN_IF_ERROR(CheckRegion(c, r.region, "--region"));
  return r;
}

int Run(const ShowOptions& opts) {
  Result<Context> ctx = MakeContext(opts.common);
  if (!ctx.ok()) return Fail(ctx.status());
  const Catalog& c = *ctx->catalog;
  const Result<OptionValues> values = opts.table.Values();
  Result<ShowRequest> req = MakeShowRequest(c, values);
  if (!req.ok()) return Fail(req.status());
  const ShowRequest& o = *req;
  const RegionOffer* offer = o.type->FindRegion(o.region);
  // The top-level price fields are those of --region: say where the type is sold instead.
  if (std::string hint = RegionHint(*o.type, o.region); !hint.empty() && !o.history) Warn(hint);
  if (ctx->format == OutputFormat::kJson) {  // the same object as the HTTP API's and Python's
    Result<JsonDoc> j = ShowTypeJson(c, *values, ctx->fresh);
    if (!j.ok()) return Fail(j.status());
    Emit(*ctx, [&] { return *j; }, [] { return Table(); });
    return kExitOk;
  }
  if (o.history) {
    // The dated prices of one region: how each price moved, source by source.
    if (!offer || offer->history.empty()) {
      std::cerr << "gpuadvisor: no price history for " << o.type->name << " in " << o.region
                << " (Capacity Block rates come with the catalog; other prices are recorded "
                   "by `gpuadvisor catalog import`)\n";
      return kExitNothingFound;
    }
    std::string out = ShowHistoryTable(*offer).Render(ctx->format, ctx->color);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return kExitOk;
  }
  std::string out = SummaryTable(c, *o.type, o.region, *ctx).Render(ctx->format, ctx->color) +
                    "\n" + ShowRegionsTable(*o.type, ctx->fresh).Render(ctx->format, ctx->color);
  if (offer && (!offer->reserved.empty() || !offer->savings_plans.empty())) {
    Table terms = ShowTermsTable(*offer);
    if (ctx->format == OutputFormat::kTable) {
      out += "\nreserved instances and savings plans in " + o.region + " (Linux, shared tenancy)\n";
    }
    out += "\n" + terms.Render(ctx->format, ctx->color);
  }
  if (offer && offer->reserved_1y_no_upfront && ctx->format == OutputFormat::kTable) {
    // The one 1-year RI price pricing, recommend and estimate use (RegionOffer::Reserved1y).
    const Price& ri = *offer->reserved_1y_no_upfront;
    out += "\n1-year RI price used in " + o.region + ": " + kReserved1yTerm + ", $" +
           FormatFixed(ri.usd_per_hour, 3) + "/h effective, " + ri.from.source + " (" +
           ri.from.date + ")\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace

void SetupShow(CLI::App* app, int* exit_code) {
  auto o = std::make_shared<ShowOptions>();
  AddCommonOptions(app, &o->common);
  o->table.Add(app, "show");
  app->footer(R"(Examples:
  gpuadvisor show p5.48xlarge
  gpuadvisor show g6e.12xlarge --region eu-west-1 --json
  gpuadvisor show p5.48xlarge --catalog my-catalog.json --history)");
  app->callback([o, exit_code] { *exit_code = Run(*o); });
}

}  // namespace gpuadvisor::cli
