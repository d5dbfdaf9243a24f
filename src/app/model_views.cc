// `models`: the built-in model presets (workload.h ModelPresets), the same view for the CLI,
// GET /v1/models and gpuadvisor.models().
#include <algorithm>
#include <string>

#include "app/catalog_views.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

bool IsTransformer(const ModelArch& m) {
  return m.family == ModelFamily::kDecoder || m.family == ModelFamily::kEncoder ||
         m.family == ModelFamily::kEncoderDecoder;
}

// A transformer's figure, or null for the vision models (which have no such width).
ojson TransformerFigure(const ModelArch& m, int v) {
  return IsTransformer(m) && v > 0 ? ojson(v) : ojson();
}

std::string TaskList(const ModelArch& m) {
  std::string out;
  for (TaskKind t : TasksForModel(m))
    out += (out.empty() ? "" : ",") + std::string(TaskKindName(t));
  return out;
}

// "8.03B", "25.6M": three significant figures.
std::string ParamsText(double n) {
  const bool billions = n >= 1e9;
  const double v = n / (billions ? 1e9 : 1e6);
  const int decimals = v >= 100 ? 0 : (v >= 10 ? 1 : 2);
  return FormatFixed(v, decimals) + (billions ? "B" : "M");
}

// The source up to its first detail: "meta-llama/Llama-3.1-8B config.json",
// "Brown et al. 2020", "He et al. 2016"; the whole text is in the JSON.
std::string ShortSource(std::string_view source) {
  size_t end = source.size();
  for (std::string_view stop : {" (", ";", ":"}) end = std::min(end, source.find(stop));
  return std::string(Trim(source.substr(0, end)));
}

}  // namespace

JsonDoc ModelsJson() {
  ojson out = ojson::array();
  for (const ModelPreset& p : ModelPresets()) {
    const ModelArch& m = p.arch;
    const ModelParams params = ComputeModelParams(m);
    ojson tasks = ojson::array();
    for (TaskKind t : TasksForModel(m)) tasks.push_back(TaskKindName(t));
    out.push_back({{"name", p.name},
                   {"family", ModelFamilyName(m.family)},
                   {"tasks", tasks},
                   {"params", params.total},
                   {"active_params", params.active > 0 ? params.active : params.total},
                   {"layers", TransformerFigure(m, m.layers)},
                   {"hidden", TransformerFigure(m, m.hidden)},
                   {"heads", TransformerFigure(m, m.heads)},
                   {"kv_heads", TransformerFigure(m, KvHeads(m))},
                   {"experts", m.experts > 1 ? ojson(m.experts) : ojson()},
                   {"active_experts", m.experts > 1 ? ojson(m.active_experts) : ojson()},
                   {"context_length", m.context_length > 0 ? ojson(m.context_length) : ojson()},
                   {"resolution_px", m.resolution_px > 0 ? ojson(m.resolution_px) : ojson()},
                   {"source", p.source}});
  }
  return MakeJsonDoc(std::move(out));
}

Table ModelsTable() {
  Table t;
  t.AddColumn(Tr("model"));
  t.AddColumn(Tr("family"));
  t.AddColumn(Tr("tasks"));
  t.AddColumn(Tr("params"), true);
  t.AddColumn(Tr("layers"), true);
  t.AddColumn(Tr("hidden"), true);
  t.AddColumn(Tr("context / input"), true);
  t.AddColumn(Tr("source"));
  for (const ModelPreset& p : ModelPresets()) {
    const ModelArch& m = p.arch;
    const ModelParams params = ComputeModelParams(m);
    std::string size = ParamsText(params.total);
    if (params.active > 0 && params.active < params.total) {
      size += " (" + ParamsText(params.active) + " active)";
    }
    auto figure = [&](int v) {
      return IsTransformer(m) && v > 0 ? std::optional<std::string>(std::to_string(v))
                                       : std::nullopt;
    };
    std::optional<std::string> context = figure(m.context_length);
    if (m.resolution_px > 0) {
      context = std::to_string(m.resolution_px) + (m.spatial_dims == 3 ? "^3 voxels" : " px");
    }
    t.AddRow({p.name, ModelFamilyName(m.family), TaskList(m), size, figure(m.layers),
              figure(m.hidden), context, ShortSource(p.source)});
  }
  return t;
}

}  // namespace gpuadvisor
