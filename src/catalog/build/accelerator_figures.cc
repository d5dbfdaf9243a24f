// The project's own accelerator figures (data/accelerator-figures.csv): figures the vendor
// datasheet CSV lacks, each with its citation and, when computed, its derivation. Reading and
// the merge rule (fill gaps; a contradiction is a recorded correction) live here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "catalog/build/sources.h"
#include "util/csv.h"
#include "util/numbers.h"
#include "util/text.h"

namespace gpuadvisor::build {
namespace {

constexpr const char* kTopologyField = "neuronlink_topology";

// Integer fields: stored as int in GpuSpec, 0 / null = unknown.
bool IsIntegerField(std::string_view f) {
  return f == "neuron_cores" || f == "neuron_logical_core_size" || f == "nvenc";
}

std::optional<double> GetNumber(const GpuSpec& g, std::string_view field) {
  if (field == "neuron_cores") {
    return g.neuron_cores > 0 ? std::optional<double>(g.neuron_cores) : std::nullopt;
  }
  if (field == "neuron_logical_core_size") {
    return g.neuron_logical_core_size > 0 ? std::optional<double>(g.neuron_logical_core_size)
                                          : std::nullopt;
  }
  if (field == "nvenc") return g.nvenc ? std::optional<double>(*g.nvenc) : std::nullopt;
  const GpuFigure* f = FindGpuFigure(field);
  return f ? g.*f->member : std::nullopt;
}

void SetNumber(GpuSpec* g, std::string_view field, double v) {
  if (field == "neuron_cores") {
    g->neuron_cores = static_cast<int>(std::lround(v));
  } else if (field == "neuron_logical_core_size") {
    g->neuron_logical_core_size = static_cast<int>(std::lround(v));
  } else if (field == "nvenc") {
    g->nvenc = static_cast<int>(std::lround(v));
  } else {
    if (const GpuFigure* f = FindGpuFigure(field)) g->*f->member = v;
  }
}

// A precision figure for a spec whose architecture lacks that precision is a data error (a
// BF16 peak on a Turing part), not a gap to fill.
std::optional<std::string> ContradictsArchitecture(const GpuSpec& g, std::string_view field) {
  if (field == "bf16_tflops" && !g.supports_bf16) return "has no BF16";
  if (field == "tf32_tflops" && !g.supports_tf32) return "has no TF32";
  if (field == "fp8_tflops" && !g.supports_fp8) return "has no FP8";
  return std::nullopt;
}

GpuSpec* FindSpec(std::vector<GpuSpec>* gpus, std::string_view model) {
  for (GpuSpec& g : *gpus) {
    if (g.model == model) return &g;
  }
  for (GpuSpec& g : *gpus) {
    if (std::find(g.aliases.begin(), g.aliases.end(), model) != g.aliases.end()) return &g;
  }
  return nullptr;
}

// Shortest faithful text of a figure ("70", "0.547").
std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string FigureText(const AcceleratorFigure& f) { return f.value ? Number(*f.value) : f.text; }

// A bandwidth figure may carry the unit its document prints it in; the catalog stores GB/s
// (10^9 bytes per second). The AWS Neuron pages print GiB/sec (2^30) for Inferentia, Inferentia2
// and Trainium memory and NeuronLink, and TB/sec for Trainium2: "820 GiB/s" is 880.468 GB/s.
// Returns the factor to GB/s, or nullopt for a unit it does not know.
std::optional<double> GbyteSFactor(std::string_view unit) {
  if (unit == "GB/s") return 1.0;
  if (unit == "GiB/s") return 1.073741824;
  if (unit == "TB/s") return 1000.0;
  return std::nullopt;
}

// "accelerator-figures.csv:59" for ".../data/accelerator-figures.csv:59": a correction's text
// stays the same wherever the manifest was read from (the rebuilt catalog is compared byte for
// byte).
std::string FileLine(const std::string& where) {
  const size_t slash = where.rfind('/');
  return slash == std::string::npos ? where : where.substr(slash + 1);
}

bool SameValue(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, b); }

// "fp32_tflops, tf32_tflops: 80 SMs x ...; fp64_tflops: fp32 / 64": one entry per distinct
// derivation, fields in file order.
std::string JoinDerivations(const std::vector<const AcceleratorFigure*>& derived) {
  std::vector<std::pair<std::string, std::string>> groups;  // (fields, derivation)
  for (const AcceleratorFigure* f : derived) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.second == f->derivation; });
    if (it == groups.end()) {
      groups.emplace_back(f->field, f->derivation);
    } else {
      it->first += ", " + f->field;
    }
  }
  std::string out;
  for (const auto& [fields, how] : groups) {
    if (!out.empty()) out += "; ";
    out += fields;
    out += ": ";
    out += how;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& AcceleratorFigureFields() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const GpuFigure& f : GpuFigures()) v.emplace_back(f.name);
    v.emplace_back("neuron_cores");
    v.emplace_back("neuron_logical_core_size");
    v.emplace_back("nvenc");
    v.emplace_back(kTopologyField);
    return v;
  }();
  return kNames;
}

Result<std::vector<AcceleratorFigure>> ReadAcceleratorFiguresCsv(std::string_view csv,
                                                                 std::string_view origin) {
  CsvReader reader(csv, std::string(origin));
  std::vector<std::string> row;
  if (!reader.Next(&row)) {
    return reader.status().ok() ? Status::ParseError(std::string(origin) + ":1: empty file")
                                : reader.status();
  }
  CsvHeader header(row);
  GPUADVISOR_RETURN_IF_ERROR(header.Require(
      {"model", "field", "value", "basis", "source", "derivation"}, std::string(origin) + ":1"));
  const std::vector<std::string>& fields = AcceleratorFigureFields();
  std::vector<AcceleratorFigure> out;
  std::set<std::pair<std::string, std::string>> seen;
  while (reader.Next(&row)) {
    if (row.size() == 1 && row[0].empty()) continue;
    auto cell = [&](const char* name) -> std::string {
      int i = header.Find(name);
      return static_cast<size_t>(i) < row.size() ? std::string(Trim(row[i])) : std::string();
    };
    AcceleratorFigure f;
    f.where = reader.Where();
    auto fail = [&](const std::string& what) { return Status::ParseError(f.where + ": " + what); };
    f.model = cell("model");
    // "Trainium@trn1n": the figure of that accelerator on one instance family only.
    if (size_t at = f.model.find('@'); at != std::string::npos) {
      f.family = f.model.substr(at + 1);
      f.model = f.model.substr(0, at);
      if (f.family.empty() || f.model.empty()) {
        return fail(R"(column "model": expected MODEL or MODEL@FAMILY, got ")" + cell("model") +
                    "\"");
      }
    }
    f.field = cell("field");
    f.source = cell("source");
    f.derivation = cell("derivation");
    const std::string basis = cell("basis");
    const std::string value = cell("value");
    if (f.model.empty()) return fail("column \"model\" is empty");
    if (std::find(fields.begin(), fields.end(), f.field) == fields.end()) {
      std::string known;
      for (const std::string& n : fields) known += (known.empty() ? "" : ", ") + n;
      return fail(R"(column "field": unknown field ")" + f.field + "\" (one of " + known + ")");
    }
    if (basis != "published" && basis != "derived") {
      return fail(R"(column "basis": ")" + basis + "\" is not published or derived");
    }
    f.derived = basis == "derived";
    if (f.source.empty()) return fail("column \"source\" is empty: cite the document");
    if (f.derived && f.derivation.empty()) {
      return fail("column \"derivation\" is empty: a derived figure says how it was computed");
    }
    if (value.empty()) return fail("column \"value\" is empty");
    if (f.field == kTopologyField) {
      f.text = value;
    } else {
      std::string number = value;
      double factor = 1;
      if (size_t sp = value.find(' '); sp != std::string::npos) {
        const std::string unit(Trim(std::string_view(value).substr(sp + 1)));
        const std::optional<double> k = GbyteSFactor(unit);
        if (!f.field.ends_with("_gbyte_s") || !k) {
          return fail("column \"value\": expected a number" +
                      std::string(f.field.ends_with("_gbyte_s")
                                      ? " or a number with GB/s, GiB/s or TB/s"
                                      : "") +
                      ", got \"" + value + "\"");
        }
        number = value.substr(0, sp);
        factor = *k;
        f.as_printed = value;
      }
      Result<double> d = ParseDouble(number, "column \"value\"");
      if (!d.ok()) return fail(d.status().message());
      if (*d < 0) return fail("column \"value\": " + value + " is negative");
      if (IsIntegerField(f.field) && *d != std::floor(*d)) {
        return fail("column \"value\": " + f.field + " is a whole number, got " + value);
      }
      // A converted figure keeps 3 decimals (820 GiB/s: 880.468 GB/s), not binary noise.
      f.value = factor == 1 ? *d : std::round(*d * factor * 1000) / 1000;
    }
    if (!f.family.empty() && f.field != "neuronlink_gbyte_s") {
      return fail("column \"field\": a MODEL@FAMILY row sets neuronlink_gbyte_s only, got " +
                  f.field);
    }
    if (!seen.insert({cell("model"), f.field}).second) {
      return fail(f.model + " " + f.field + " is given twice");
    }
    out.push_back(std::move(f));
  }
  if (!reader.status().ok()) return reader.status();
  return out;
}

Status ApplyAcceleratorFigures(const std::vector<AcceleratorFigure>& figures,
                               std::vector<GpuSpec>* gpus, std::vector<Correction>* corrections) {
  std::map<std::string, std::vector<const AcceleratorFigure*>> derived;  // by catalog id
  for (const AcceleratorFigure& f : figures) {
    GpuSpec* g = FindSpec(gpus, f.model);
    if (!g) {
      return Status::InvalidArgument(f.where + ": model \"" + f.model +
                                     "\" is in no gpu-specs row");
    }
    if (!f.family.empty()) continue;  // an instance family's figure: ApplyFamilyFigures
    if (std::optional<std::string> why = ContradictsArchitecture(*g, f.field)) {
      return Status::InvalidArgument(f.where + ": " + f.field + " for " + g->model + ", which " +
                                     *why);
    }
    std::string old;
    if (f.field == kTopologyField) {
      old = g->neuronlink_topology;
      if (old == f.text) continue;
      g->neuronlink_topology = f.text;
    } else {
      std::optional<double> current = GetNumber(*g, f.field);
      const double value = f.value.value_or(0);  // numeric fields always carry a value
      if (current && SameValue(value, *current)) continue;
      if (current) old = Number(*current);
      SetNumber(g, f.field, value);
    }
    if (!old.empty()) {
      corrections->push_back({"gpu " + g->model + " " + f.field, old, FigureText(f),
                              "the datasheet row is contradicted by " + FileLine(f.where) + " (" +
                                  f.source +
                                  (f.as_printed.empty() ? "" : "; printed " + f.as_printed) +
                                  (f.derived ? "; " + f.derivation : "") + ")"});
    }
    if (f.derived) derived[g->model].push_back(&f);
  }
  for (GpuSpec& g : *gpus) {
    auto it = derived.find(g.model);
    g.confidence = it == derived.end() ? "published" : "derived";
    g.derivation = it == derived.end() ? "" : JoinDerivations(it->second);
    g.derived_fields.clear();
    if (it == derived.end()) continue;
    for (const AcceleratorFigure* f : it->second) {
      if (std::find(g.derived_fields.begin(), g.derived_fields.end(), f->field) ==
          g.derived_fields.end()) {
        g.derived_fields.push_back(f->field);
      }
    }
  }
  return Status::OK();
}

void ApplyFamilyFigures(const std::vector<AcceleratorFigure>& figures,
                        std::vector<InstanceType>* types, std::vector<Correction>* corrections) {
  for (const AcceleratorFigure& f : figures) {
    if (f.family.empty() || !f.value) continue;
    for (InstanceType& t : *types) {
      if (t.family != f.family || t.accelerator.aws_name != f.model) continue;
      if (t.accelerator.devices() < 2) continue;  // a single device has no NeuronLink peer
      t.accelerator.neuronlink_gbyte_s = f.value;
      corrections->push_back(
          {t.name + " accelerator.neuronlink_gbyte_s", "the " + f.model + " figure", FigureText(f),
           f.family + " has its own NeuronLink figure: " + FileLine(f.where) + " (" + f.source +
               (f.as_printed.empty() ? "" : "; printed " + f.as_printed) + ")"});
    }
  }
}

}  // namespace gpuadvisor::build
