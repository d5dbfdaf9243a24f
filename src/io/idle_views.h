// JSON object, table and notes for `idle` (idle and rightsizing report).
#ifndef GPUADVISOR_IO_IDLE_VIEWS_H_
#define GPUADVISOR_IO_IDLE_VIEWS_H_

#include <string>

#include "gpuadvisor/idle.h"
#include "gpuadvisor/prometheus_source.h"
#include "io/catalog_views.h"
#include "io/table.h"

namespace gpuadvisor {

ojson IdleReportJson(const IdleReport& r, const Freshness& fresh);
// The "prometheus" member of a report whose samples came from a Prometheus server.
ojson PrometheusSourceJson(const PrometheusSourceInfo& info);
// IdleReportJson(r, fresh).dump(), byte for byte, built one host at a time: the whole JSON tree of
// a report of thousands of hosts (about 10 KiB per host) never exists at once (issue 16). Bytes
// that are not UTF-8 are written as U+FFFD (where dump() would throw).
std::string IdleReportJsonText(const IdleReport& r, const Freshness& fresh);
// One row per host (largest saving first) and a fleet total row.
Table IdleTable(const IdleReport& r);
// Lines under the table: recommendations in full, guessed types, price sources, settings.
std::string IdleNotes(const IdleReport& r);

}  // namespace gpuadvisor

#endif  // GPUADVISOR_IO_IDLE_VIEWS_H_
