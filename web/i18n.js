// gpuadvisor web page: every string the page itself shows, one table per language, keyed by id.
// {name} is filled by t(key, {name: ...}). Text from the server (messages, warnings, option help)
// is not here: the server words it in the language the page asks for (Accept-Language).
// English is here; each other language is a file of its own (web/i18n-zh-CN.js), fetched only
// when the page is shown in it. Adding a language: doc/server.md, "The web page in other
// languages".
"use strict";
const MESSAGES = {
  en: {
    "page.title": "gpuadvisor: {view}",
    "page.skip": "Skip to content",
    "nav.label": "Views",
    "lang.label": "Language",
    "view.catalog": "Catalog",
    "view.instance": "Instance type",
    "view.recommend": "Recommend",
    "view.estimate": "Estimate",
    "view.compare": "Compare",
    "view.pricing": "Pricing",
    "view.idle": "Idle",
    "view.idleHeading": "Idle GPUs",
    "intro.recommend": "Describe the job; get ranked plans (instance type, count, region, purchase option) with time and cost.",
    "intro.estimate": "Memory, time and cost of one workload on given hardware.",
    "intro.compare": "Two to four instance types side by side for one workload (each an estimate on one instance unless Count says more).",
    "intro.pricing": "What each purchase option costs for a usage pattern, and where commitments break even.",
    "intro.idle": "Drop telemetry files (nvidia-smi CSV or XML, DCGM/Prometheus text, CloudWatch JSON). They are sent only to this gpuadvisor server:",
    "intro.idle2": "; nowhere else, and not stored.",
    "form.recommend": "Workload and search",
    "form.estimate": "Workload and hardware",
    "form.compare": "Instance types and workload",
    "form.pricing": "Usage pattern",
    "form.idle": "Telemetry",
    "form.more": "More {task} fields ({n}: architecture, parallelism, efficiency overrides)",
    "footer.catalog": "Prices and specs come from the embedded, dated catalog; sources:",
    "footer.estimates": "Figures marked ≈ are model estimates.",
    "footer.chart": "Chart:",
    "meta.catalog": "catalog built {built}; prices from {oldest} (oldest figure) to {newest}",
    "status.working": "Working…",
    "status.loading": "Loading…",
    "error.notJson": "HTTP {status}: not JSON",
    "error.seeField": "{message} (see the field “{field}”)",
    "error.notJsonFile": "{name}: {file} is not valid JSON ({error})",
    "error.chartLibrary": "could not load the chart library",
    "error.apiDescription": "Could not load the API description: {error}",
    "note.stale": " (older than the freshness limit)",
    "note.spotEstimated": "estimated spot price",
    "note.priceEstimated": "estimated price",
    "est.model": "model estimate",
    "list.comma": ", ",
    "list.semicolon": "; ",
    "hint.unit": "{unit}",
    "hint.range": "{lo} to {hi}",
    "hint.default": "default {def}",
    "hint.number": "number (8k, 1.5M, 2B)",
    "hint.duration": "duration: 90s, 30m, 36h, 14d",
    "hint.gib": "GiB",
    "hint.mb": "MB",
    "hint.pixels": "pixels",
    "hint.fraction": "fraction, (0, 1]",
    "hint.commaSeparated": " (comma-separated)",
    "choice.default": "default",
    "choice.defaultIs": "default ({def})",
    "choice.yes": "yes",
    "choice.no": "no",
    "label.task": "Task",
    "label.model": "Model preset or Hugging Face id",
    "label.modelConfig": "or its config.json",
    "label.type": "Type",
    "label.types": "Instance types",
    "help.task": "What the job is: its fields appear below",
    "help.type": "Instance type, e.g. p5.48xlarge",
    "help.types": "2 to 4 instance types, comma-separated, e.g. p5.48xlarge, p4d.24xlarge",
    "button.go": "Go",
    "button.show": "Show",
    "button.estimate": "Estimate",
    "button.compare": "Compare",
    "button.recommend": "Recommend",
    "button.price": "Price it",
    "button.analyse": "Analyse",
    "purchase.on-demand": "on-demand",
    "purchase.spot": "spot",
    "purchase.capacity-block": "capacity block",
    "purchase.reserved": "reserved instance, {years}-year, {payment}",
    "purchase.savings-plan": "savings plan ({kind}), {years}-year",
    "payment.no": "no upfront",
    "payment.partial": "partial upfront",
    "payment.all": "all upfront",
    "plan.compute": "Compute",
    "plan.ec2-instance": "EC2 Instance",
    "unit.gib": "{v} GiB",
    "unit.gb": "{v} GB",
    "unit.gbytes": "{v} GB/s",
    "unit.gbits": "{v} Gbit/s",
    "unit.mbits": "{v} Mbit/s",
    "unit.tflops": "{v} TFLOP/s",
    "unit.watts": "{v} W",
    "unit.hours": "{v} h",
    "unit.ms": "{v} ms",
    "unit.tokensPerS": "{v} tokens/s",
    "unit.imagesPerS": "{v} images/s",
    "unit.tokS": "{v} tok/s",
    "unit.imgS": "{v} img/s",
    "axis.priceDate": "price date",
    "axis.perHour": "{currency}/h",
    "axis.hours": "hours",
    "axis.hoursPerMonth": "hours used per month",
    "axis.itl": "ITL, ms",
    "catalog.formLabel": "Catalog filters",
    "catalog.caption": "Instance types; open a row for its prices and purchase options",
    "catalog.key": "before a spot price: estimated (the catalog has no observed spot price for that type and region; it is derived from the on-demand price with the typical spot discount). Dates are those of the on-demand prices; a date in this colour is older than the catalog's freshness limit.",
    "catalog.filters": "Filters",
    "catalog.nameContains": "Name contains",
    "catalog.pricePer": "Price per",
    "catalog.instanceHour": "instance-hour",
    "catalog.gpuHour": "GPU-hour",
    "catalog.col.type": "Instance type",
    "catalog.col.perHour": "{currency}/h {kind}",
    "catalog.col.perGpuHour": "{currency}/GPU·h {kind}",
    "catalog.col.perHourAny": "{kind} per hour",
    "catalog.col.perGpuHourAny": "{kind} per GPU-hour",
    "catalog.col.region": "Region",
    "catalog.col.accelerator": "Accelerator",
    "catalog.col.gpus": "GPUs",
    "catalog.col.gibPerGpu": "GiB/GPU",
    "catalog.col.priceDate": "Price date",
    "catalog.col.vcpus": "vCPU",
    "catalog.col.ram": "RAM GiB",
    "catalog.col.net": "Net Gbit/s",
    "catalog.col.efa": "EFA",
    "catalog.status.region": "{shown} of {of} instance types in {region}",
    "catalog.status.allRegions": "{shown} of {of} type-region rows",
    "catalog.status.holds": " (the catalog holds {total} types)",
    "catalog.status.open": "; open a row for its prices and purchase options",
    "catalog.empty.of": "0 of {total} instance types match",
    "catalog.empty": "0 of the instance types match",
    "catalog.empty.relax": ": relax one of these filters: {filters}",
    "catalog.empty.region": " in {region}: try region “all”",
    "instance.loading": "Loading {type}…",
    "instance.typeRequired": "type: required (an instance type such as p5.48xlarge)",
    "instance.retired": " (retired)",
    "instance.specs": "Specs",
    "instance.accelerator": "Accelerator",
    "instance.memoryEach": "Memory per accelerator",
    "instance.vcpus": "vCPUs",
    "instance.ram": "RAM",
    "instance.network": "Network",
    "instance.efa": ", EFA ({n} interfaces)",
    "instance.nvme": "Local NVMe",
    "instance.none": "none",
    "instance.ebs": "EBS",
    "instance.purchase": "Purchase",
    "instance.specsFrom": "Specs from",
    "instance.successors": "Successors",
    "instance.note": "Note",
    "instance.datasheet": "Datasheet: ",
    "instance.architecture": "Architecture",
    "instance.memory": "Memory",
    "instance.memoryAt": "{gib} GiB at {bw} GB/s",
    "instance.bf16": "BF16 / FP16 dense",
    "instance.fp8": "FP8 dense",
    "instance.tf32": "TF32",
    "instance.fp32": "FP32",
    "instance.fp64": "FP64",
    "instance.nvlink": "NVLink",
    "instance.tdp": "TDP",
    "instance.confidence": "Confidence",
    "instance.source": "Source",
    "instance.notes": "Notes",
    "instance.perRegion": "Price per region ({currency} per instance-hour)",
    "instance.col.region": "Region",
    "instance.col.reserved1y": "Reserved 1y",
    "instance.key": "~ marks an estimated spot price (no observed price in the catalog: derived from on-demand with the typical discount).",
    "instance.history": "Price history in {region}",
    "instance.historyCaption": "Dated prices of {type} in {region} ({currency} per instance-hour, by source date): {kinds}",
    "instance.historyLine": "{date}: {kind} {price}/h ({source})",
    "instance.noHistory": "No dated price history for {region} in the catalog.",
    "instance.oneDate": "One dated price only: no chart.",
    "instance.options": "Purchase options (one instance, always on, one month)",
    "instance.priceAnother": "Price another usage pattern and see the break-even chart →",
    "instance.status": "{type} in {region}; on-demand prices of {date}",
    "pricing.working": "Pricing…",
    "pricing.col.option": "Option",
    "pricing.col.total": "Total",
    "pricing.col.perHour": "Per hour",
    "pricing.col.perUsedHour": "Per used hour",
    "pricing.col.upfront": "Upfront",
    "pricing.col.breakEven": "Break-even use",
    "pricing.col.note": "Note",
    "pricing.cheapest": " (cheapest)",
    "pricing.notSuitable": " (not suitable)",
    "pricing.notPriced": "Not priced ({n})",
    "pricing.unpricedLine": "{option}: {note}",
    "pricing.key": "Break-even use: the share of the month an instance must run for the commitment to cost less than on-demand.",
    "pricing.heading": "{type} × {n} in {region}: {hours} h per month for {months} month(s) ({use} use)",
    "pricing.status": "{n} priced option(s); cheapest {cheapest}",
    "pricing.none": "none",
    "pricing.oneRun": "One continuous run (hours): no hours-per-month chart.",
    "pricing.chartCaption": "Total cost ({currency}) of each priced option against hours used per month, {type} × {n}, {months} month(s); where a commitment's line crosses on-demand it breaks even",
    "mem.weights": "weights",
    "mem.gradients": "gradients",
    "mem.optimizer": "optimizer",
    "mem.activations": "activations",
    "mem.kvCache": "KV cache",
    "mem.workingSet": "working set",
    "mem.overhead": "overhead",
    "mem.label": "Memory per device: {total} GiB of {device} GiB",
    "mem.device": "device memory",
    "mem.captionFits": "Memory per device: ≈{total} GiB of {device} GiB device memory (the line); fits.",
    "mem.captionNoFit": "Memory per device: ≈{total} GiB of {device} GiB device memory (the line); does NOT fit.",
    "est.working": "Estimating…",
    "est.why": "model estimate, confidence {grade}; the range is its uncertainty band",
    "est.spotNote": "; ~ estimated spot price",
    "est.hardware": "Hardware",
    "est.runs": "Runs",
    "est.time": "Time",
    "est.costOnDemand": "Cost on-demand",
    "est.costSpot": "Cost spot",
    "est.prices": "Prices",
    "est.pricesLine": "{region}: on-demand {od}/h ({odDate}), spot {spot}/h ({spotDate})",
    "est.throughput": "Throughput",
    "est.mfu": "MFU",
    "est.latency": "TTFT / ITL",
    "est.targets": "Targets",
    "est.targetsLine": "demand {demand}, latency targets {slo}",
    "est.met": "met",
    "est.notMet": "NOT met",
    "est.instancesNeeded": "; {n} instance(s) needed",
    "est.parallelism": "Parallelism",
    "est.confidence": "Confidence",
    "est.heading": "{task} {model} on {hw}",
    "est.assumptions": "Assumptions",
    "est.key": "≈ marks a model estimate; the range after it is the uncertainty band of that figure.",
    "est.status": "Estimated; prices of {date}",
    "compare.working": "Estimating each type…",
    "compare.count": "types: expected 2 to 4 instance types, got {n}",
    "compare.why": "model estimate; range = uncertainty band",
    "compare.accelerators": "Accelerators",
    "compare.memory": "Memory per device",
    "compare.memoryFits": "≈{total} of {device} GiB",
    "compare.memoryNoFit": "≈{total} of {device} GiB (does not fit)",
    "compare.perHour": "Per hour on-demand",
    "compare.figure": "Figure",
    "compare.key": "≈ marks a model estimate (hover for why; an estimated spot price says so); the highlighted column is the cheapest on-demand.",
    "compare.spotEstimated": "the spot price itself is estimated from the Spot Instance Advisor's savings",
    "compare.capacity": "Capacity",
    "compare.capacityValue": "{rps} requests/s, up to {n} at once",
    "compare.status": "{n} of {of} type(s) estimated",
    "compare.cheapest": "; cheapest on-demand: {type}",
    "compare.mixed": "; prices in different currencies: no cheapest",
    "compare.none": "; none could run this workload: see each column",
    "rec.working": "Searching…",
    "rec.saving": "saving: {lever} {pct}% — {detail} ({tradeoff})",
    "rec.launchFormat": "Launch spec format for plan {rank}",
    "rec.fmt.awsCli": "AWS CLI script",
    "rec.fmt.cloudformation": "CloudFormation",
    "rec.fmt.terraform": "Terraform",
    "rec.fmt.skypilot": "SkyPilot",
    "rec.perHour": "{price}/h",
    "rec.memory": "≈{used} of {device} GiB per GPU",
    "rec.price": "price {source} {date}",
    "rec.missProbability": "deadline miss probability {p}",
    "rec.confidence": "confidence {grade}",
    "rec.obtain": "obtainable {p}",
    "rec.doubt": "doubt ({kind}): {detail}",
    "rec.sweep": "The same option at other sizes and counts:",
    "rec.sweepRow": "{type} × {n}: {hours} h, {cost}",
    "rec.pick": "{pick}: {rank} {type} × {n} ({purchase}), {cost}, {hours} h, obtainable {p}",
    "rec.pick.cheapest-sound": "cheapest without a doubt",
    "rec.promoted": "No plan with 16-bit weights; with {what} ({tradeoff}): {plans}",
    "rec.pick.fastest": "fastest",
    "rec.pick.cheapest-any-risk": "cheapest at any risk",
    "rec.launchSpec": "Launch spec",
    "rec.download": "Download",
    "rec.details": "Advice, savings and the estimate",
    "rec.perf": "parallelism: {par}; tokens/s ≈{tps}; MFU ≈{mfu}; TTFT ≈{ttft} ms; ITL ≈{itl} ms",
    "rec.leftOut": "Left out ({n})",
    "rec.building": "Building the launch spec…",
    "rec.downloaded": "Downloaded {file}.",
    "rec.noWarnings": " No warnings.",
    "rec.filters": "; filters: {lists} ({left} of {of} instance types)",
    "rec.emptied": "No plan: {note}. Relax {field}.",
    "rec.infeasible": "No feasible plan among {n} configurations: the reasons are under “Left out”; relax the deadline, budget, regions or purchase options, or allow more instances{filters}.",
    "rec.status": "{n} plan(s); {evaluated} configurations estimated; prices {date}{filters}",
    "rec.theJob": "the job",
    "rec.chartService": "{task}: cost per hour ({currency}) against inter-token latency (ms) of the ranked plans",
    "rec.chartRun": "{task}: cost of the run ({currency}, log) against its wall-clock time (hours, log)",
    "rec.ranked": "ranked plans",
    "rec.pareto": "Pareto front",
    "rec.lists": "Allow and deny lists",
    "idle.working": "Analysing…",
    "idle.noFiles": "body: choose or drop one or more telemetry files",
    "idle.tooLarge": "{file}: the upload ({size}) is over this server's limit of {limit} per request; start the server with a higher one (gpuadvisor serve --max-body 20M) or split the log by host or day",
    "idle.heading": "{n} host(s), {hours} h of telemetry: {waste} spent on idle GPUs; rightsizing saves {savings} per month",
    "idle.col.host": "Host",
    "idle.col.type": "Type",
    "idle.col.perHour": "Per hour",
    "idle.col.hours": "Hours",
    "idle.col.idleHours": "Idle hours",
    "idle.col.idle": "Idle",
    "idle.col.util": "Avg / p95 util",
    "idle.col.wasted": "Wasted",
    "idle.col.advice": "Advice",
    "idle.guessed": " (guessed)",
    "idle.warning": "warning: {w}",
    "idle.week.caption": "Idle by hour of the week ({zone}): share of observed host time in idle stretches (0-9 tenths, # all of it, · not observed)",
    "idle.week.days": "Mon,Tue,Wed,Thu,Fri,Sat,Sun",
    "idle.week.cell": "{day} {hour}:00: {share} idle ({idle} of {covered} host-hours)",
    "idle.week.none": "not observed",
    "idle.key": "Prices are the catalog's on-demand rates of the dates shown on hover; a guessed type is the cheapest with the GPUs seen.",
    "idle.status": "{n} file(s) analysed on this server",
    "idle.files": "Telemetry files (drop here or choose)",
    "idle.filesHelp": "nvidia-smi --query-gpu CSV or -q -x XML, DCGM exporter / Prometheus text, CloudWatch GetMetricData JSON",
    "idle.filesShort": "nvidia-smi CSV/XML, DCGM/Prometheus text, CloudWatch JSON",
    "view.commitments": "Commitments",
    "view.commitmentsHeading": "Commitments sized from your bill",
    "intro.commitments": "Choose a Cost and Usage Report export (CUR 2.0, legacy CUR or FOCUS; CSV or .gz). It is sent only to this gpuadvisor server:",
    "form.commitments": "Bill",
    "commitments.working": "Sizing…",
    "commitments.noFile": "body: choose a Cost and Usage Report file",
    "commitments.file": "Cost and Usage Report (CSV or .gz)",
    "commitments.fileHelp": "CUR 2.0 or legacy CUR, or a FOCUS 1.x export; larger bills: gpuadvisor commitments --athena-table",
    "commitments.heading": "{hours} h of usage: on demand {now}/h, with the advised commitments {after}/h ({saving} saved, {year} a year)",
    "commitments.col.region": "Region",
    "commitments.col.type": "Type",
    "commitments.col.usage": "On demand mean / p90 / max",
    "commitments.col.covered": "Covered now",
    "commitments.col.commit": "Commit",
    "commitments.col.instances": "Instances",
    "commitments.col.now": "Per hour now",
    "commitments.col.after": "Per hour after",
    "commitments.col.saving": "Saving",
    "commitments.col.halves": "If usage halves",
    "commitments.col.used": "Used",
    "commitments.none": "none",
    "commitments.ri": "reserved instance {id} ({type}): {used} used, {unused} hours unused, ends {end}",
    "commitments.sp": "savings plan {id} ({offering}): {used} used, {unused} unused, ends {end}",
    "commitments.compute": "one Compute Savings Plan for {n} types: {committed}/h, {years}y {payment}: {cost}/h against {apart}/h sized type by type; covers {coverage} of the on-demand spend, {used} of it used",
    "commitments.key": "Each level minimises the cost of the bill's own hours, taken to repeat over the term; bursts above it on demand. Hover a rate for its source and date.",
    "commitments.status": "{rows} line items of {file} sized on this server",
  },
};
// Keys whose zh-CN text is rightly the English one (units and symbols read the same in both);
// tests/server/i18n_test.js fails on any other zh-CN text left identical to the English.
const SAME_IN_BOTH = new Set(["hint.unit", "hint.gib", "hint.mb", "unit.gib", "unit.gb"]);

// ---- language, messages and locale formatting (no DOM here: tests/server/i18n_test.js runs
// this file in node) ----
const LANGS = ["en", "zh-CN"];
let LANG = "en";
// "zh", "zh-TW", "ZH-cn" -> "zh-CN"; "en-GB" -> "en"; anything else -> null.
function langOf(tag) {
  if (typeof tag !== "string") return null;
  if (/^zh(-|$)/i.test(tag)) return "zh-CN";
  if (/^en(-|$)/i.test(tag)) return "en";
  return null;
}
// The page's language: ?lang= in the URL, else the stored choice, else the first of the
// browser's languages the page has (any zh* is zh-CN), else English.
function pickLang(query, stored, browser) {
  const fromUrl = langOf(query);
  if (fromUrl) return fromUrl;
  const fromStore = langOf(stored);
  if (fromStore) return fromStore;
  for (const l of browser || []) {
    const known = langOf(l);
    if (known) return known;
  }
  return "en";
}
// Numbers and dates follow the page's language; in English they keep the browser's own
// conventions (a de-DE browser showing the English page writes 1.234,5).
let browserLangs = [];
function numberLocale() {
  if (LANG === "zh-CN") return "zh-CN";
  return browserLangs.find((l) => !langOf(l) || langOf(l) === "en") || "en-US";
}
function setLang(lang, browser) {
  LANG = LANGS.includes(lang) ? lang : "en";
  if (browser) browserLangs = [...browser];
  fmts.clear();
}
// The message `key` in the page's language ({name} filled from params); English when the
// language lacks it; `fallback`, then the key itself, when neither has it.
function t(key, params, fallback) {
  const own = MESSAGES[LANG] && MESSAGES[LANG][key];
  let s = own ?? MESSAGES.en[key] ?? fallback ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, name) => (params[name] === undefined ? m : String(params[name])));
  return s;
}
// A message spec as the DOM keeps it (data-i18n): "key", [key, params, fallback], or
// {purchase: "reserved-1y-no-upfront"} for a purchase option's name.
function tm(spec) {
  if (typeof spec === "string") return t(spec);
  if (Array.isArray(spec)) return t(spec[0], spec[1], spec[2]);
  if (spec.region !== undefined) return regionName(spec.region);
  return purchaseName(spec.purchase);
}
// Regions as GET /v1/regions?detail=true gives them (the CLI's names, AWS's English and Chinese):
// {code: {name, name_zh, currency}}. Filled by the page.
const REGIONS = {};
// "cn-north-1 · 中国（北京）" in Chinese, "cn-north-1 · China (Beijing)" in English; a code this
// table does not know (or "all") as it is.
function regionName(code) {
  const r = REGIONS[code];
  const name = r && (LANG === "zh-CN" ? r.name_zh || r.name : r.name);
  return name ? `${code} · ${name}` : code;
}
// The currency a region prices in (CNY in AWS China); USD for one this table does not know.
const regionCurrency = (code) => (REGIONS[code] && REGIONS[code].currency) || "USD";

// Purchase options by their API names ("on-demand", "reserved-1y-no-upfront",
// "savings-plan-ec2-instance-3y", "reserved-1y-standard-no-upfront" in price history).
function purchaseName(id) {
  if (typeof id !== "string") return "–";
  let m;
  if (["on-demand", "spot", "capacity-block"].includes(id)) return t("purchase." + id);
  if ((m = /^reserved-(\d+)y-(?:(standard|convertible)-)?(no|partial|all)-upfront$/.exec(id))) {
    return t("purchase.reserved", {years: m[1], payment: t("payment." + m[3])});
  }
  if ((m = /^savings-plan-(compute|ec2-instance)-(\d+)y$/.exec(id))) {
    return t("purchase.savings-plan", {years: m[2], kind: t("plan." + m[1])});
  }
  return id;
}

// ---- numbers, money, dates ----
const fmts = new Map();
function formatter(key, make) {
  if (!fmts.has(key)) fmts.set(key, make(numberLocale()));
  return fmts.get(key);
}
const missing = (v) => v === null || v === undefined || v === "" || Number.isNaN(Number(v));
function num(v, d = 0) {
  if (missing(v)) return "–";
  return formatter("n" + d, (l) => new Intl.NumberFormat(l, {minimumFractionDigits: d, maximumFractionDigits: d})).format(v);
}
const pct = (v, d = 0) => (missing(v) ? "–" : num(v * 100, d) + " %");
// A row's currency: its `currency` field ("USD", "CNY"), USD when it has none.
const currencyOf = (row) => (row && typeof row.currency === "string" && /^[A-Z]{3}$/.test(row.currency) ? row.currency : "USD");
// The key of a price in a row of that currency: on_demand_usd_per_hour -> on_demand_cny_per_hour.
const priceKey = (key, currency) => key.replace(/(^|_)usd(_|$)/, `$1${currency.toLowerCase()}$2`);
// The one way to read a price: the row's own currency's key, never another currency's.
function priceOf(row, key) {
  if (!row) return null;
  const v = row[priceKey(key, currencyOf(row))];
  return typeof v === "number" ? v : null;
}
// An amount in its currency (¥ for CNY in Chinese, CN¥ in English: never $).
function money(v, currency = "USD", d = 2) {
  if (missing(v)) return "–";
  return formatter(`m${currency}${d}`, (l) => new Intl.NumberFormat(l, {style: "currency", currency, minimumFractionDigits: d, maximumFractionDigits: d})).format(v);
}
const moneyOf = (row, key, d = 2) => money(priceOf(row, key), currencyOf(row), d);
// A currency's symbol in the page's language, for column headers and axis titles.
function currencySymbol(currency) {
  const part = formatter(`s${currency}`, (l) => new Intl.NumberFormat(l, {style: "currency", currency})).formatToParts(0).find((p) => p.type === "currency");
  return part ? part.value : currency;
}
// Order of price cells that may mix currencies: by currency, then amount; no price last.
function compareMoney(a, b) {
  if (a.amount == null || b.amount == null) return a.amount == null ? (b.amount == null ? 0 : 1) : -1;
  if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
  return a.amount - b.amount;
}
// "2026-08-26" -> "Aug 26, 2026" / "2026年8月26日"; anything else as it is.
function date(iso) {
  if (typeof iso !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(iso)) return iso || "–";
  const ms = Date.parse(iso.slice(0, 10) + "T00:00:00Z");
  if (Number.isNaN(ms)) return iso;
  return formatter("d", (l) => new Intl.DateTimeFormat(l, {dateStyle: "medium", timeZone: "UTC"})).format(ms);
}

if (typeof module !== "undefined") {
  module.exports = {MESSAGES, SAME_IN_BOTH, LANGS, REGIONS, regionName, regionCurrency, langOf, pickLang, setLang, t, tm, purchaseName, num, pct, money, moneyOf, priceOf, priceKey, currencyOf, currencySymbol, compareMoney, date};
}
