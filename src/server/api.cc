#include "server/api.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/body.h"
#include "app/requests.h"
#include "app/views.h"
#include "gpuadvisor/bill.h"
#include "gpuadvisor/commit_plan.h"
#include "gpuadvisor/cost.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/idle.h"
#include "gpuadvisor/launch.h"
#include "gpuadvisor/partition.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/query.h"
#include "gpuadvisor/recommend.h"
#include "gpuadvisor/telemetry.h"
#include "gpuadvisor/workload.h"
#include "server/openapi.h"
#include "server/web_assets.h"
#include "util/byte_stream.h"
#include "util/dates.h"
#include "util/numbers.h"
#include "util/text.h"
#include "util/url.h"

namespace gpuadvisor::server {

CatalogHolder::CatalogHolder(std::shared_ptr<const Catalog> catalog, Loader loader)
    : current_(std::make_shared<const Version>(Version{std::move(catalog), 1})),
      loader_(std::move(loader)) {}

Status CatalogHolder::Reload() {
  if (!loader_) return Status::Unsupported("catalog: this server has no catalog source to reload");
  std::lock_guard<std::mutex> lock(reload_mu_);
  Result<std::shared_ptr<const Catalog>> fresh = loader_();
  if (!fresh.ok()) return fresh.status();
  const uint64_t next = Current()->generation + 1;
  current_.store(std::make_shared<const Version>(Version{std::move(fresh).value(), next}));
  return Status::OK();
}

std::optional<ApiResponse> ResponseCache::Find(const std::string& key, bool gzip) {
  ApiResponse r;
  std::shared_ptr<const std::string> body;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    lru_.splice(lru_.begin(), lru_, it->second);
    const Entry& e = *it->second;
    r.status = e.status;
    r.content_type = e.content_type;
    body = e.body;
    r.shared = gzip ? e.gzip : nullptr;
  }
  r.from_cache = true;
  r.gzipped = r.shared != nullptr;
  if (r.shared != nullptr || !gzip || body->size() < kGzipMinBytes) {
    if (r.shared == nullptr) r.shared = std::move(body);
    return r;
  }
  // Compressed outside the lock; two requests racing here both compress, one form is kept.
  std::string gz = Gzip(*body, 4);
  if (gz.empty()) {
    r.shared = std::move(body);
    return r;
  }
  auto packed = std::make_shared<const std::string>(std::move(gz));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end() && it->second->body == body && it->second->gzip == nullptr) {
      it->second->gzip = packed;
      it->second->bytes += packed->size();
      bytes_ += packed->size();
      // The entry just used is the newest: the oldest go first, never it.
      while (bytes_ > max_bytes_ && std::prev(lru_.end()) != it->second) {
        EraseLocked(std::prev(lru_.end()));
      }
    }
  }
  r.shared = std::move(packed);
  r.gzipped = true;
  return r;
}

void ResponseCache::EraseLocked(std::list<Entry>::iterator it) {
  bytes_ -= it->bytes;
  index_.erase(it->key);
  lru_.erase(it);
}

void ResponseCache::Insert(const std::string& key, const ApiResponse& response) {
  const std::string& text = response.text();
  const size_t cost = key.size() + text.size() + response.content_type.size() + kEntryOverhead;
  if (max_entries_ == 0 || cost > max_bytes_ / kMaxEntryShare || response.gzipped) return;
  // The caller's shared bytes are kept as they are: no copy of a large answer.
  auto body =
      response.shared != nullptr ? response.shared : std::make_shared<const std::string>(text);
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = index_.find(key); it != index_.end()) EraseLocked(it->second);
  lru_.push_front(
      Entry{key, response.status, response.content_type, std::move(body), nullptr, cost});
  index_[key] = lru_.begin();
  bytes_ += cost;
  while (lru_.size() > max_entries_ || bytes_ > max_bytes_) EraseLocked(std::prev(lru_.end()));
}

size_t ResponseCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lru_.size();
}

size_t ResponseCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

std::string CapEcho(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  // Back up to the first byte of a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "\u2026";
}

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

ApiResponse JsonResponse(const JsonDoc& doc, int status = 200) {
  ApiResponse r;
  r.status = status;
  r.body = doc.Text();
  return r;
}

// The server's own small documents (health, models). Never throws: bytes that are not UTF-8
// (from a catalog file, say) become U+FFFD, as in JsonDoc::Text().
ApiResponse JsonResponse(const ojson& j) {
  ApiResponse r;
  r.body = j.dump(-1, ' ', false, ojson::error_handler_t::replace);
  return r;
}

// Every "quoted" stretch of `message` cut with CapEcho, then the whole message.
std::string CapMessage(std::string_view message) {
  std::string out;
  size_t i = 0;
  while (i < message.size()) {
    const size_t open = message.find('"', i);
    if (open == std::string_view::npos) break;
    const size_t close = message.find('"', open + 1);
    if (close == std::string_view::npos) break;
    out.append(message.substr(i, open + 1 - i));
    out += CapEcho(message.substr(open + 1, close - open - 1));
    out += '"';
    i = close + 1;
  }
  out.append(message.substr(std::min(i, message.size())));
  return CapEcho(out, kMaxErrorMessageChars);
}

// The body as a JSON object, or the error response.
Result<json> ParseBodyObjectOf(std::string_view body) {
  if (Trim(body).empty())
    return Status::InvalidArgument("body: expected a JSON object, got nothing");
  if (JsonDepth(body) > kMaxJsonDepth) {
    return Status::InvalidArgument("body: nested deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels");
  }
  json doc = json::parse(body.begin(), body.end(), nullptr, false);
  if (doc.is_discarded()) {
    // Re-parse through the workload reader for a line:column message. It names a malformed
    // document "workload"; over HTTP that document is the body.
    Result<Workload> w = ParseWorkloadJsonInline(body, "body");
    if (w.ok()) return Status::ParseError("body: malformed JSON");
    // A number beyond a double names its key; other errors (the reader's "workload", the
    // document as a whole) are the body's.
    const std::string& field = w.status().field();
    return field.empty() || field == "workload" ? w.status().WithField("body") : w.status();
  }
  if (!doc.is_object()) {
    return Status::InvalidArgument(std::string("body: expected a JSON object, got ") +
                                   doc.type_name());
  }
  // nlohmann keeps the last of a key given twice; a 400 names it instead.
  GPUADVISOR_RETURN_IF_ERROR(CheckUniqueJsonKeys(body, "body"));
  return doc;
}

// The body as a JSON object; every error names the field "body" (or a workload field in it).
Result<json> ParseBodyObject(std::string_view body) {
  Result<json> doc = ParseBodyObjectOf(body);
  if (doc.ok() || !doc.status().field().empty()) return doc;
  return doc.status().WithField("body");
}

// A JSON scalar (or an array of scalars, joined with commas) as option text.
Result<std::string> OptionText(const std::string& key, const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number()) return v.dump();
  if (v.is_array()) {
    std::string out;
    for (const json& item : v) {
      if (item.is_array() || item.is_object()) break;
      Result<std::string> t = OptionText(key, item);
      if (!t.ok()) return t.status();
      out += (out.empty() ? "" : ",") + *t;
    }
    if (v.empty() || !out.empty()) return out;
  }
  return Status::InvalidArgument(key + ": expected a string, number or boolean, got " +
                                 std::string(v.type_name()));
}

// The members of `obj` that `values`' table names go to it; the others are left in *rest (the
// workload). REQUIRES: obj is an object.
Status SplitOptions(const json& obj, OptionValues* values, json* rest) {
  *rest = json::object();
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const OptionSpec* o = values->spec().Find(it.key());
    if (o == nullptr || (o->front_ends & kHttp) == 0) {
      (*rest)[it.key()] = it.value();
      continue;
    }
    if (it->is_null()) continue;
    // Numbers and booleans go in typed (no text round trip); strings and lists as text.
    if (it->is_number()) {
      GPUADVISOR_RETURN_IF_ERROR(values->SetNumber(it.key(), it->get<double>(), kHttp));
      continue;
    }
    if (it->is_boolean()) {
      GPUADVISOR_RETURN_IF_ERROR(values->SetBool(it.key(), it->get<bool>(), kHttp));
      continue;
    }
    Result<std::string> text = OptionText(it.key(), *it);
    if (!text.ok()) return text.status().WithField(o->name);
    GPUADVISOR_RETURN_IF_ERROR(values->Set(it.key(), *text, kHttp));
  }
  return Status::OK();
}

// Every member of `obj` as an option of `values`' table (none is a workload field).
Status BodyOptions(const json& obj, OptionValues* values) {
  json rest;
  GPUADVISOR_RETURN_IF_ERROR(SplitOptions(obj, values, &rest));
  for (auto it = rest.begin(); it != rest.end(); ++it) {
    GPUADVISOR_RETURN_IF_ERROR(values->Set(it.key(), "", kHttp));  // unknown: the table's error
  }
  return Status::OK();
}

// The query parameters as options of `command`.
Result<OptionValues> QueryOptions(std::string_view command, const ApiRequest& req) {
  Result<const CommandSpec*> spec = FindCommandSpec(command);
  if (!spec.ok()) return spec.status();
  OptionValues values(**spec);
  for (const auto& [key, value] : req.query) {
    GPUADVISOR_RETURN_IF_ERROR(values.Set(key, value, kHttp));
  }
  return values;
}

// The body's members as options of `command`, the rest as the workload (`rest`), or null.
Result<OptionValues> BodyOptions(std::string_view command, const json& body, json* rest) {
  Result<const CommandSpec*> spec = FindCommandSpec(command);
  if (!spec.ok()) return spec.status();
  OptionValues values(**spec);
  if (rest != nullptr) {
    GPUADVISOR_RETURN_IF_ERROR(SplitOptions(body, &values, rest));
  } else {
    GPUADVISOR_RETURN_IF_ERROR(BodyOptions(body, &values));
  }
  return values;
}

// The workload from the body's tree (parsed and checked for repeated keys once, above).
Result<Workload> WorkloadOf(const json& rest) {
  Result<Workload> w = WorkloadFromBody(rest, "body");
  if (!w.ok()) return w.status();
  GPUADVISOR_RETURN_IF_ERROR(Validate(*w).WithPrefix("body"));
  return w;
}

// ---- handlers ----

ApiResponse Health(const ApiContext& ctx, const ApiRequest&, std::string_view) {
  ojson j;
  j["status"] = "ok";
  j["catalog_generated_at"] = ctx.catalog->generated_at;
  j["catalog_generation"] = ctx.generation;
  j["instance_types"] = ctx.catalog->instance_types().size();
  return JsonResponse(j);
}

ApiResponse Instances(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<OptionValues> values = QueryOptions("instances", req);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<InstanceQuery> q = MakeInstanceQuery(*values);
  if (!q.ok()) return ErrorResponse(q.status());
  Result<std::vector<InstanceRow>> rows = QueryInstances(*ctx.catalog, *q);
  if (!rows.ok()) return ErrorResponse(rows.status());
  return JsonResponse(InstancesJson(*rows, ctx.fresh));
}

// `type` comes from the path: a query may not name it again.
ApiResponse Show(const ApiContext& ctx, const ApiRequest& req, std::string_view type) {
  Result<OptionValues> values = QueryOptions("show", req);
  if (!values.ok()) return ErrorResponse(values.status());
  if (values->Given("type")) {
    return ErrorResponse(
        Status::InvalidArgument("type: given by the path, not the query").WithField("type"));
  }
  (void)values->Set("type", type, kHttp);
  Result<JsonDoc> j = ShowTypeJson(*ctx.catalog, *values, ctx.fresh);
  if (!j.ok()) return ErrorResponse(j.status());
  return JsonResponse(*j);
}

ApiResponse Gpus(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<OptionValues> values = QueryOptions("gpus", req);
  if (!values.ok()) return ErrorResponse(values.status());
  GpusArgs a;
  if (Status st = SetFromOptions(*values, &a); !st.ok()) return ErrorResponse(st);
  return JsonResponse(GpusJson(ListGpus(*ctx.catalog, a.include_retired)));
}

ApiResponse CatalogInfo(const ApiContext& ctx, const ApiRequest&, std::string_view) {
  return JsonResponse(CatalogInfoJson(*ctx.catalog, ctx.fresh));
}

// The codes; with detail=true, each with AWS's English and Chinese names (the CLI's table,
// FindRegionInfo), its partition and the currency it prices in.
ApiResponse Regions(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  bool detail = false;
  for (const auto& [key, value] : req.query) {
    if (key != "detail" || (value != "true" && value != "false")) {
      return ErrorResponse(
          400, "invalid_argument",
          key == "detail" ? "detail: expected true or false, got \"" + value.substr(0, 40) + "\""
                          : "query parameter \"" + key.substr(0, 40) +
                                "\": GET /v1/regions takes only detail=true",
          key.substr(0, 40));
    }
    detail = value == "true";
  }
  if (!detail) return JsonResponse(ojson(ctx.catalog->regions()));
  ojson out = ojson::array();
  for (const std::string& code : ctx.catalog->regions()) {
    const RegionInfo* info = FindRegionInfo(code);
    const Partition& p = PartitionOf(code);
    out.push_back({{"code", code},
                   {"name", info != nullptr ? ojson(info->name_en) : ojson(nullptr)},
                   {"name_zh", info != nullptr ? ojson(info->name_zh) : ojson(nullptr)},
                   {"partition", p.id},
                   {"currency", CurrencyCode(p.currency)}});
  }
  return JsonResponse(out);
}

ApiResponse Models(const ApiContext&, const ApiRequest&, std::string_view) {
  return JsonResponse(ModelsJson());
}

ApiResponse Estimate(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<json> body = ParseBodyObject(req.body);
  if (!body.ok()) return ErrorResponse(body.status());
  json rest;
  Result<OptionValues> values = BodyOptions("estimate", *body, &rest);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<HardwareRequest> hw_req = MakeHardwareRequest(*values);
  if (!hw_req.ok()) return ErrorResponse(hw_req.status());
  Result<Workload> w = WorkloadOf(rest);
  if (!w.ok()) return ErrorResponse(w.status());
  Result<Hardware> hw = ResolveHardware(*ctx.catalog, *hw_req);
  if (!hw.ok()) return ErrorResponse(hw.status());
  Result<gpuadvisor::Estimate> e = EstimateWorkload(*w, *hw);
  if (!e.ok()) return ErrorResponse(e.status());
  const std::vector<std::string> warnings =
      EstimateWarnings(*ctx.catalog, *hw, *e, ctx.fresh, hw_req->region);
  return JsonResponse(EstimateReportJson(*hw, *e, *ctx.catalog, ctx.fresh, warnings));
}

// The account scan the server was started with (`serve --account`), as `account show --json`
// prints it; 404 when it has none.
ApiResponse Account(const ApiContext& ctx, const ApiRequest&, std::string_view) {
  if (ctx.account == nullptr) {
    return ErrorResponse(
        Status::NotFound("account: this server was started without an account scan "
                         "(gpuadvisor serve --account FILE)")
            .WithField("account"));
  }
  ApiResponse r;
  r.body = AccountScanToJson(*ctx.account);
  return r;
}

ApiResponse RecommendPlans(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<json> body = ParseBodyObject(req.body);
  if (!body.ok()) return ErrorResponse(body.status());
  json rest;
  Result<OptionValues> values = BodyOptions("recommend", *body, &rest);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<RecommendRequest> rr = MakeRecommendRequest(*values);
  if (!rr.ok()) return ErrorResponse(rr.status());
  // The server's own scan, unless the request says none; it never reads a file a client names.
  RecommendArgs args;
  if (Status st = SetFromOptions(*values, &args); !st.ok()) return ErrorResponse(st);
  if (!args.account.empty() && args.account != "none") {
    return ErrorResponse(
        Status::InvalidArgument("account: a request may only say none (the server checks plans "
                                "against the scan it was started with), got \"" +
                                CapEcho(args.account) + "\"")
            .WithField("account"));
  }
  if (args.account.empty()) rr->account = ctx.account;
  rr->cancelled = ctx.cancelled;  // the search stops when the client goes or time is up
  Result<Workload> w = WorkloadOf(rest);
  if (!w.ok()) return ErrorResponse(w.status());
  Result<Recommendation> r = Recommend(*ctx.catalog, *w, *rr);
  if (!r.ok()) return ErrorResponse(r.status());
  return JsonResponse(RecommendJson(*r, *rr));
}

ApiResponse Pricing(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<json> body = ParseBodyObject(req.body);
  if (!body.ok()) return ErrorResponse(body.status());
  Result<OptionValues> values = BodyOptions("pricing", *body, nullptr);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<PricingResult> r = PriceType(*ctx.catalog, *values);
  if (!r.ok()) return ErrorResponse(r.status());
  return JsonResponse(PricingJson(*r, ctx.fresh));
}

// ---- launch ----

// A plan from /v1/recommend ("plan": one plan or the whole answer, "rank") fills the type,
// count, region, purchase and checkpoint size; the other keys are the `launch` options.
ApiResponse Launch(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<json> body = ParseBodyObject(req.body);
  if (!body.ok()) return ErrorResponse(body.status());
  std::optional<std::string> plan;
  if (auto it = body->find("plan"); it != body->end()) {
    if (!it->is_object()) {
      return ErrorResponse(400, "invalid_argument", "plan: expected an object", "plan");
    }
    plan = it->dump();
    body->erase(it);
  }
  Result<OptionValues> values = BodyOptions("launch", *body, nullptr);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<LaunchArgs> args = MakeLaunchRequest(*values, plan ? &*plan : nullptr, "plan");
  if (!args.ok()) return ErrorResponse(args.status());
  const LaunchRequest& lr = args->request;
  const LaunchFormat format = args->format;
  // The account scan the server was started with: a spec it cannot launch is warned about.
  Result<LaunchPlan> lp = PlanLaunchWarned(*ctx.catalog, lr, ctx.account);
  if (!lp.ok()) return ErrorResponse(lp.status());
  if (Status fits = CheckLaunchFormat(*lp, format); !fits.ok()) return ErrorResponse(fits);
  return JsonResponse(LaunchAnswerJson(*lp, RenderLaunch(*lp, format)));
}

// ---- commitments ----

// The upload is the bill (a Cost and Usage Report CSV, gzip or not, or the push-down query's
// result); the `commitments` options come as query parameters. One bill may make the server hold
// at most kUploadBill's cells and series, and read at most its decompressed bytes (a gzip bomb
// stops there): a client cannot lift them.
constexpr BillLimits kUploadBill{
    .max_cells = 5'000'000, .max_series = 2'000, .max_bytes = uint64_t{1} << 30};

ApiResponse Commitments(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  Result<OptionValues> values = QueryOptions("commitments", req);
  if (!values.ok()) return ErrorResponse(values.status());
  Result<CommitmentsArgs> a = ParseCommitmentsArgs(*values);
  if (!a.ok()) return ErrorResponse(a.status());
  if (Trim(req.body).empty()) {
    return ErrorResponse(400, "invalid_argument",
                         "body: expected a Cost and Usage Report (CUR 2.0 CSV, gzip or not)",
                         "body");
  }
  BillReader reader(*ctx.catalog, kUploadBill);
  if (Status st = reader.AddText(req.body, "upload"); !st.ok()) return ErrorResponse(st);
  Result<BillUsage> bill = reader.Finish();
  if (!bill.ok()) return ErrorResponse(bill.status());
  CommitOptions options = a->options;
  if (std::optional<int64_t> today = ParseIsoDate(ctx.fresh.today)) options.today_day = *today;
  Result<CommitReport> r = AdviseCommitments(*bill, *ctx.catalog, options);
  if (!r.ok()) return ErrorResponse(r.status());
  return JsonResponse(CommitmentsJson(*r, ctx.fresh, "upload"));
}

// ---- idle ----

// The upload is the telemetry itself (nvidia-smi CSV or XML, DCGM/Prometheus text, CloudWatch
// JSON), or the body is empty and `prometheus=URL` names a server to query; the `idle` options
// come as query parameters.
struct IdleQuery {
  IdleSetup setup;
  std::string host;
  std::string instance_type;
  std::optional<OptionValues> values;
};

// The server queries only the Prometheus URLs its operator lists (ApiContext::prometheus_allowed):
// a request must not make it reach arbitrary hosts or paths. Parsed parts are compared
// (util/url.h UrlWithin), never string prefixes.
bool PrometheusAllowed(const ApiContext& ctx, const HttpUrl& url) {
  return ctx.prometheus_allowed != nullptr && UrlAllowed(url, *ctx.prometheus_allowed);
}

// Idle report of a Prometheus server's DCGM metrics (prometheus_source.h).
ApiResponse IdleFromPrometheus(const ApiContext& ctx, const IdleQuery& q,
                               const std::vector<InventoryEntry>& inventory) {
  if (!q.setup.prometheus) return ErrorResponse(Status::InvalidArgument("prometheus: required"));
  PrometheusOptions prom = *q.setup.prometheus;
  Result<HttpUrl> url = ParseHttpUrl(prom.url, "prometheus");
  if (!url.ok()) return ErrorResponse(url.status());
  if (!PrometheusAllowed(ctx, *url)) {
    return ErrorResponse(403, "forbidden",
                         "prometheus: this server may query only the URLs listed in "
                         "GPUADVISOR_PROMETHEUS_URLS when it starts",
                         "prometheus");
  }
  prom.url = url->ToString();
  prom.cancelled = ctx.cancelled;
  IdleAnalyzer analyzer(ctx.catalog, q.setup.options);
  Result<PrometheusSourceInfo> info = AddPrometheus(prom, &analyzer);
  if (!info.ok()) return ErrorResponse(info.status());
  Result<IdleReport> r = analyzer.Finish(inventory);
  if (!r.ok()) return ErrorResponse(r.status());
  ApiResponse response;  // serialised host by host, as for uploads
  response.body = IdleReportJsonText(*r, ctx.fresh, &*info);
  return response;
}

// `value` within the server's `ceiling`: a value the request gave over it is refused, the default
// lowered to it.
template <typename T>
Status Ceiling(const OptionValues& v, std::string_view name, T ceiling, T* value) {
  if (*value <= ceiling) return Status::OK();
  if (v.Given(name)) {
    return Status::InvalidArgument(std::string(name) + ": at most " + std::to_string(ceiling) +
                                   " on this server, got " + std::to_string(*value))
        .WithField(name);
  }
  *value = ceiling;
  return Status::OK();
}

// The server's ceilings on one idle request (IdleCeilings).
Status ApplyCeilings(const IdleCeilings& c, const OptionValues& v, IdleSetup* setup) {
  GPUADVISOR_RETURN_IF_ERROR(Ceiling(v, "max-hosts", c.max_hosts, &setup->options.max_hosts));
  setup->options.max_series = std::min(setup->options.max_series, c.max_series);
  if (!setup->prometheus) return Status::OK();
  PrometheusOptions& p = *setup->prometheus;
  GPUADVISOR_RETURN_IF_ERROR(
      Ceiling(v, "prometheus-max-points", c.prometheus_max_points, &p.max_points_per_query));
  p.max_series = std::min<uint64_t>(p.max_series, c.max_series);
  p.max_windows = std::min(p.max_windows, c.prometheus_windows);
  p.max_requests = std::min(p.max_requests, c.prometheus_requests);
  p.max_response_bytes = std::min(p.max_response_bytes, c.prometheus_response_bytes);
  p.max_total_bytes = std::min(p.max_total_bytes, c.prometheus_total_bytes);
  p.timeout_s = std::min(p.timeout_s, c.prometheus_timeout_s);
  p.run_timeout_s = std::min(p.run_timeout_s, c.prometheus_run_s);
  p.pushdown_in_flight = std::min(p.pushdown_in_flight, c.prometheus_in_flight);
  return Status::OK();
}

Status ParseIdleQuery(const ApiContext& ctx, const ApiRequest& req, IdleQuery* q) {
  Result<OptionValues> values = QueryOptions("idle", req);
  if (!values.ok()) return values.status();
  Result<IdleSetup> setup = ParseIdleArgs(*ctx.catalog, *values);
  if (!setup.ok()) return setup.status();
  GPUADVISOR_RETURN_IF_ERROR(ApplyCeilings(ctx.idle_ceilings, *values, &*setup));
  q->setup = *std::move(setup);
  IdleArgs args;
  GPUADVISOR_RETURN_IF_ERROR(SetFromOptions(*values, &args));
  q->host = values->Given("host") ? args.telemetry.host : "upload";
  q->setup.telemetry.host = q->host;
  q->instance_type = args.instance_type;
  q->values = *std::move(values);
  return Status::OK();
}

// A gzip body (RFC 1952 magic 1f 8b) inflated into `out`, at most `ceiling` bytes of it; `out`
// stays empty for a body that is not gzip (read as it is). An error answer when the data is not
// gzip after all, or inflates past the ceiling (413, as a body over --max-body is).
std::optional<ApiResponse> InflateUpload(std::string_view body, size_t ceiling, std::string* out) {
  if (body.size() < 2 || static_cast<unsigned char>(body[0]) != 0x1f ||
      static_cast<unsigned char>(body[1]) != 0x8b) {
    return std::nullopt;
  }
  std::unique_ptr<ByteStream> in = ByteStream::FromMemory(body, "upload");
  out->resize(std::min<size_t>(ceiling, std::max<size_t>(body.size() * 4, size_t{1} << 16)) + 1);
  size_t have = 0;
  for (;;) {
    if (have == out->size()) {
      if (have > ceiling) break;
      out->resize(std::min(ceiling + 1, out->size() * 2));
    }
    const size_t n = in->Read(out->data() + have, out->size() - have);
    if (n == 0) break;
    have += n;
  }
  if (have > ceiling) {
    out->clear();
    return ErrorResponse(413, "payload_too_large",
                         "body: inflates to more than " + std::to_string(ceiling) +
                             " bytes, this server's ceiling on a gzip upload's decompressed "
                             "size; send a shorter log (or one file per host)",
                         "body");
  }
  if (!in->status().ok()) {
    out->clear();
    return ErrorResponse(400, "parse_error",
                         "body: unreadable gzip data (" + in->status().message() + ")", "body");
  }
  out->resize(have);
  return std::nullopt;
}

ApiResponse Idle(const ApiContext& ctx, const ApiRequest& req, std::string_view) {
  IdleQuery q;
  Status st = ParseIdleQuery(ctx, req, &q);
  if (!st.ok()) return ErrorResponse(st);
  const bool from_prometheus = q.setup.prometheus.has_value();
  if (from_prometheus && !Trim(req.body).empty()) {
    return ErrorResponse(400, "invalid_argument",
                         "body: expected none with prometheus=URL (telemetry or a server, not "
                         "both)",
                         "body");
  }
  if (Trim(req.body).empty() && !from_prometheus) {
    return ErrorResponse(400, "invalid_argument", "body: expected telemetry (nvidia-smi CSV, ...)",
                         "body");
  }
  std::vector<InventoryEntry> inventory;
  if (!q.instance_type.empty()) {
    Result<const InstanceType*> t = ResolveInstanceType(*ctx.catalog, q.instance_type);
    if (!t.ok()) return ErrorResponse(t.status().WithField("instance-type"));
    inventory.push_back({q.host, (*t)->name, q.setup.options.region, q.setup.options.purchase, 0});
  }
  if (from_prometheus) return IdleFromPrometheus(ctx, q, inventory);
  // A gzip upload (the web page compresses with CompressionStream; curl --data-binary @x.gz)
  // is inflated here, at most ctx.idle_ceilings.max_inflated_bytes of it.
  std::string inflated;
  if (std::optional<ApiResponse> e =
          InflateUpload(req.body, ctx.idle_ceilings.max_inflated_bytes, &inflated)) {
    return *std::move(e);
  }
  const std::string_view body = inflated.empty() ? req.body : std::string_view(inflated);
  IdleAnalyzer analyzer(ctx.catalog, q.setup.options);  // caps hosts and GPU series (IdleOptions)
  analyzer.set_origin(q.host);
  std::string other_host;  // a host the upload names besides q.host
  Result<TelemetryFileInfo> read = ReadTelemetryText(
      body, q.host, q.setup.telemetry, [&analyzer, &other_host, &q](const TelemetrySample& s) {
        if (other_host.empty() && s.host != q.host) other_host = std::string(s.host);
        return analyzer.Add(s);
      });
  if (!read.ok()) return ErrorResponse(read.status().WithField("body"));
  // instance-type prices the one host of the upload (`host`, default "upload"); an upload that
  // names its hosts needs a type per host, which is `idle --inventory` on the CLI (the CLI has
  // no single-type option). Applying it silently to none of them was the old behaviour.
  if (!q.instance_type.empty() && !other_host.empty()) {
    return ErrorResponse(400, "invalid_argument",
                         "instance-type: applies to an upload of one host (named by host, "
                         "default \"upload\"), but this one names host \"" +
                             other_host +
                             "\"; leave instance-type out (types are guessed from the GPUs, as "
                             "`gpuadvisor idle` does without --inventory) or set host to it",
                         "instance-type");
  }
  Result<IdleReport> r = analyzer.Finish(inventory);
  if (!r.ok()) return ErrorResponse(r.status());
  ApiResponse response;  // serialised host by host: ~10 KiB less per host than a JSON tree
  response.body = IdleReportJsonText(*r, ctx.fresh);
  return response;
}

ApiResponse Reload(const ApiContext& ctx, const ApiRequest&, std::string_view) {
  if (ctx.holder == nullptr)
    return ErrorResponse(Status::Unsupported("catalog: reload unavailable").WithField("catalog"));
  Status st = ctx.holder->Reload();
  if (!st.ok()) return ErrorResponse(500, StatusCodeName(st.code()), st.message(), "catalog");
  std::shared_ptr<const Catalog> now = ctx.holder->Snapshot();
  ojson j;
  j["reloaded"] = true;
  j["catalog_generation"] = ctx.holder->generation();
  j["catalog_generated_at"] = now->generated_at;
  j["instance_types"] = now->instance_types().size();
  return JsonResponse(j);
}

ApiResponse OpenApi(const ApiContext&, const ApiRequest&, std::string_view) {
  ApiResponse r;
  r.body = OpenApiJson();
  return r;
}

// "/v1/instances/{type}" matches "/v1/instances/p5.48xlarge" with arg "p5.48xlarge".
bool Matches(std::string_view pattern, std::string_view path, std::string_view* arg) {
  const size_t brace = pattern.find('{');
  if (brace == std::string_view::npos) return pattern == path;
  if (path.size() <= brace || path.substr(0, brace) != pattern.substr(0, brace)) return false;
  *arg = path.substr(brace);
  return arg->find('/') == std::string_view::npos;
}

}  // namespace

const std::vector<Route>& Routes() {
  static const std::vector<Route> kRoutes = {
      {"GET", "/healthz", Health, "Liveness and the catalog snapshot in use"},
      {"GET", "/v1/openapi.json", OpenApi, "This API as an OpenAPI 3.0 document"},
      {"GET", "/v1/instances", Instances, "Instance types filtered and sorted (CLI: instances)"},
      {"GET", "/v1/instances/{type}", Show, "One instance type in full (CLI: show)"},
      {"GET", "/v1/gpus", Gpus, "Accelerator models with cheapest offers (CLI: gpus)"},
      {"GET", "/v1/catalog", CatalogInfo, "Catalog sources, dates and counts (CLI: catalog info)"},
      {"GET", "/v1/regions", Regions, "Regions the catalog knows"},
      {"GET", "/v1/models", Models, "Model presets for workloads"},
      {"GET", "/v1/account", Account,
       "The account scan the server was started with (CLI: account show)"},
      {"POST", "/v1/estimate", Estimate, "Memory, time and cost of a workload (CLI: estimate)",
       true},
      {"POST", "/v1/recommend", RecommendPlans, "Ranked plans for a workload (CLI: recommend)",
       true},
      {"POST", "/v1/pricing", Pricing, "Purchase options for a usage pattern (CLI: pricing)", true},
      {"POST", "/v1/idle", Idle, "Idle GPUs and rightsizing from uploaded telemetry (CLI: idle)",
       false, true},
      // `curl -T file URL` uploads with PUT (chunked from a pipe): the same handler.
      {"PUT", "/v1/idle", Idle, "Idle GPUs and rightsizing from uploaded telemetry (curl -T)",
       false, true},
      {"POST", "/v1/commitments", Commitments,
       "Reserved Instances and Savings Plans sized from an uploaded Cost and Usage Report (CLI: "
       "commitments)",
       false, true},
      {"PUT", "/v1/commitments", Commitments,
       "Commitments sized from an uploaded Cost and Usage Report (curl -T)", false, true},
      {"POST", "/v1/launch", Launch, "A launch spec for a plan or type (CLI: launch)", true},
      {"POST", "/v1/catalog/reload", Reload, "Swap in a freshly loaded catalog"},
  };
  return kRoutes;
}

namespace {

// `out` gzipped when the client takes it and it is large enough.
ApiResponse GzipIfTaken(const ApiContext& ctx, ApiResponse out) {
  if (!ctx.accept_gzip || out.gzipped || out.text().size() < kGzipMinBytes) return out;
  std::string gz = Gzip(out.text(), 4);
  if (gz.empty()) return out;
  out.shared = nullptr;
  out.body = std::move(gz);
  out.gzipped = true;
  return out;
}

}  // namespace

ApiResponse Dispatch(const ApiContext& ctx, const ApiRequest& req) {
  const LanguageScope language(ctx.language);
  bool path_known = false;
  for (const Route& r : Routes()) {
    std::string_view arg;
    if (!Matches(r.path, req.path, &arg)) continue;
    path_known = true;
    if (req.method != r.method) continue;
    if (r.method == std::string_view("POST") && !r.query_options && !req.query.empty()) {
      const std::string& name = req.query.front().first;
      return ErrorResponse(400, "invalid_argument",
                           "query parameter \"" + name + "\": " + r.method + " " + r.path +
                               " takes no query parameters (a POST's options go in its JSON body)",
                           name);
    }
    if (!r.cacheable || ctx.cache == nullptr) return GzipIfTaken(ctx, r.handler(ctx, req, arg));
    std::string key = req.path + "\n" + std::to_string(ctx.generation) + "\n" + ctx.fresh.today +
                      "\n" + std::to_string(ctx.fresh.max_price_age_days) + "\n" +
                      LanguageTag(ctx.language) + "\n";
    key.append(req.body);
    if (std::optional<ApiResponse> hit = ctx.cache->Find(key, ctx.accept_gzip)) {
      return *std::move(hit);
    }
    ApiResponse out = r.handler(ctx, req, arg);
    if (out.status != 200) return GzipIfTaken(ctx, std::move(out));
    out.shared = std::make_shared<const std::string>(std::move(out.body));
    out.body.clear();
    ctx.cache->Insert(key, out);
    if (!ctx.accept_gzip || out.shared->size() < kGzipMinBytes) return out;
    // Through the cache, so that the gzip form is made once and kept with the answer.
    if (std::optional<ApiResponse> kept = ctx.cache->Find(key, true)) {
      kept->from_cache = false;
      return *std::move(kept);
    }
    return GzipIfTaken(ctx, std::move(out));  // not kept (too large for the cache)
  }
  if (path_known) {
    return ErrorResponse(405, "method_not_allowed", "method " + req.method + " not allowed here",
                         "method");
  }
  return ErrorResponse(404, "not_found", "no such endpoint: " + req.path, "path");
}

ApiResponse ErrorResponse(int http_status, std::string_view code, std::string_view message,
                          std::string_view field) {
  return JsonResponse(ErrorJson(code, CapMessage(message), CapEcho(field)), http_status);
}

int HttpStatusFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 200;
    case StatusCode::kNotFound:
    case StatusCode::kNoResult:
      return 404;
    case StatusCode::kIOError:
    case StatusCode::kParseError:
      // What the server fetched (a Prometheus answer) was bad: the fault is upstream.
      if (status.field() == "prometheus") return 502;
      return status.code() == StatusCode::kIOError ? 500 : 400;
    case StatusCode::kInvalidArgument:
    case StatusCode::kUnsupported:
      return 400;
  }
  return 500;
}

ApiResponse ErrorResponse(const Status& status) {
  // The shared parsers name CLI flags ("--min-gpus: ..."); over HTTP the key has no dashes.
  std::string_view message = status.message();
  while (StartsWith(message, "-")) message.remove_prefix(1);
  return ErrorResponse(HttpStatusFor(status), StatusCodeName(status.code()), message,
                       status.field());
}

}  // namespace gpuadvisor::server
