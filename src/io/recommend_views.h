// JSON object (doc/formats.md, `recommend`), table and SVG chart for a Recommendation.
#ifndef GPUADVISOR_IO_RECOMMEND_VIEWS_H_
#define GPUADVISOR_IO_RECOMMEND_VIEWS_H_

#include <string>

#include "gpuadvisor/recommend.h"
#include "io/catalog_views.h"
#include "io/table.h"

namespace gpuadvisor {

ojson RecommendJson(const Recommendation& r, const RecommendRequest& req);
// Top plans: rank, configuration, time, cost and the first "why".
Table RecommendTable(const Recommendation& r);
// Plain-text details: every why / warning / advice line per plan, then the rejections.
std::string RecommendDetails(const Recommendation& r, bool all_rejections);
// Cost (y, log) against time (x, log) of the Pareto front and the ranked plans, as SVG.
std::string RecommendSvg(const Recommendation& r);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_RECOMMEND_VIEWS_H_
