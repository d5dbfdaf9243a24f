// gpuadvisor web page: the catalog table and the recommendation form over the JSON API.
// No framework, no CDN; uPlot (vendored) is loaded only when a chart is first drawn.
"use strict";
const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const num = (v, d) => (v === null || v === undefined ? "–" : Number(v).toLocaleString("en-US", {minimumFractionDigits: d, maximumFractionDigits: d}));

async function api(path, body) {
  const opt = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const res = await fetch(path, opt);
  const data = await res.json();
  if (!res.ok) {
    const e = data && data.error;
    throw new Error(e ? `${e.message}${e.field ? ` (field: ${e.field})` : ""}` : `HTTP ${res.status}`);
  }
  return data;
}

function setStatus(el, text, error) {
  el.textContent = text;
  el.classList.toggle("error", !!error);
}

// ---- tabs (arrow keys move between them, as the ARIA tabs pattern says) ----
function selectTab(tab) {
  for (const t of $$("[role=tab]")) {
    const on = t === tab;
    t.setAttribute("aria-selected", on);
    t.tabIndex = on ? 0 : -1;
    $("#" + t.getAttribute("aria-controls")).hidden = !on;
  }
  tab.focus();
  history.replaceState(null, "", tab.id === "tab-recommend" ? "#recommend" : "#catalog");
}
function initTabs() {
  const tabs = $$("[role=tab]");
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => selectTab(t));
    t.addEventListener("keydown", (e) => {
      const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (d) selectTab(tabs[(i + d + tabs.length) % tabs.length]);
    });
  });
  if (location.hash === "#recommend") selectTab($("#tab-recommend"));
}

// ---- catalog ----
const catalog = {rows: [], sort: "price", desc: false};
const columns = () => {
  const gpu = $("input[name=basis]:checked").value === "gpu";
  const per = (r, v) => (v == null ? null : gpu ? v / Math.max(r.accelerator.count || 0, 1e-9) : v);
  const cols = [
    {key: "type", label: "Instance type", get: (r) => r.instance_type},
    {key: "region", label: "Region", get: (r) => r.region, all: true},
    {key: "gpu", label: "Accelerator", get: (r) => r.accelerator.model},
    {key: "gpus", label: "GPUs", n: 3, get: (r) => r.accelerator.count},
    {key: "mem", label: "GiB/GPU", n: 1, get: (r) => (r.accelerator.memory_mib_each == null ? null : r.accelerator.memory_mib_each / 1024)},
    {key: "vcpus", label: "vCPU", n: 0, get: (r) => r.vcpus},
    {key: "ram", label: "RAM GiB", n: 0, get: (r) => r.memory_gib},
    {key: "net", label: "Net Gbit/s", n: 0, get: (r) => r.network_gbit_s},
    {key: "efa", label: "EFA", get: (r) => (r.efa ? "yes" : "")},
    {key: "price", label: gpu ? "$/GPU·h on-demand" : "$/h on-demand", n: 3, get: (r) => per(r, r.on_demand_usd_per_hour)},
    {key: "spot", label: gpu ? "$/GPU·h spot" : "$/h spot", n: 3, get: (r) => per(r, r.spot_usd_per_hour)},
    {key: "date", label: "Price date", get: (r) => r.price_date},
  ];
  return cols.filter((c) => !c.all || $("#f-region").value === "all");
};

function catalogQuery() {
  const q = new URLSearchParams();
  const add = (k, v) => v !== "" && v != null && q.append(k, v);
  add("region", $("#f-region").value);
  add("gpu", $("#f-gpu").value);
  add("family", $("#f-family").value.trim());
  add("min-gpus", $("#f-min-gpus").value);
  add("min-gpu-memory", $("#f-min-mem").value);
  add("max-price", $("#f-max-price").value);
  if ($("#f-efa").checked) add("efa", "true");
  if ($("#f-retired").checked) add("include-retired", "true");
  return q;
}

let catalogSeq = 0;
async function loadCatalog() {
  const seq = ++catalogSeq;
  const status = $("#catalog-status");
  setStatus(status, "Loading…");
  try {
    const rows = await api("/v1/instances?" + catalogQuery());
    if (seq !== catalogSeq) return;
    catalog.rows = rows;
    renderCatalog();
  } catch (e) {
    if (seq === catalogSeq) setStatus(status, e.message, true);
  }
}

function renderCatalog() {
  const cols = columns();
  const text = $("#f-text").value.trim().toLowerCase();
  const col = cols.find((c) => c.key === catalog.sort) || cols[0];
  const rows = catalog.rows.filter((r) => !text || r.instance_type.includes(text));
  rows.sort((a, b) => {
    const x = col.get(a), y = col.get(b);
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;  // unknowns last
    const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
    return catalog.desc ? -c : c;
  });
  const head = $("#catalog thead tr");
  head.innerHTML = cols.map((c) => {
    const s = c.key === col.key ? (catalog.desc ? "descending" : "ascending") : "none";
    return `<th scope="col" class="${c.n !== undefined ? "n" : ""}" aria-sort="${s}"><button type="button" data-key="${c.key}">${esc(c.label)}${s === "none" ? "" : s === "ascending" ? " ▲" : " ▼"}</button></th>`;
  }).join("");
  $("#catalog tbody").innerHTML = rows.map((r) => "<tr>" + cols.map((c) => {
    const v = c.get(r);
    const cls = c.n !== undefined ? "n" : "";
    const stale = c.key === "date" && r.price_stale ? " stale" : "";
    const title = c.key === "date" && r.price_source ? ` title="${esc(r.price_source)}${r.price_stale ? " (stale)" : ""}"` : "";
    const shown = c.n !== undefined ? num(v, c.n) : esc(v ?? "–");
    return `<td class="${cls}${stale}"${title}>${c.key === "spot" && r.spot_estimated ? "~" : ""}${shown}</td>`;
  }).join("") + "</tr>").join("");
  setStatus($("#catalog-status"), `${rows.length} of ${catalog.rows.length} instance types` + (rows.length ? "" : ": nothing matches these filters"));
}

function initCatalog() {
  $("#catalog thead").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-key]");
    if (!b) return;
    catalog.desc = catalog.sort === b.dataset.key ? !catalog.desc : false;
    catalog.sort = b.dataset.key;
    renderCatalog();
    $(`#catalog th button[data-key="${b.dataset.key}"]`).focus();
  });
  let timer;
  $("#filters").addEventListener("input", (e) => {
    if (e.target.id === "f-text" || e.target.name === "basis") return renderCatalog();
    clearTimeout(timer);
    timer = setTimeout(loadCatalog, 200);
  });
  $("#filters").addEventListener("submit", (e) => e.preventDefault());
}

// ---- recommendation ----
function taskFields() {
  const t = $("#r-task").value;
  const llmTrain = ["pretrain", "finetune", "lora", "qlora"].includes(t);
  $$(".rec-form .serve").forEach((el) => (el.hidden = t !== "serve"));
  $$(".rec-form .train").forEach((el) => (el.hidden = !llmTrain));
}

let uplotLoading;
function loadUplot() {
  if (window.uPlot) return Promise.resolve();
  if (!uplotLoading) {
    uplotLoading = new Promise((resolve, reject) => {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = "/vendor/uplot/uPlot.min.css";
      document.head.append(css);
      const s = document.createElement("script");
      s.src = "/vendor/uplot/uPlot.iife.min.js";
      s.onload = resolve;
      s.onerror = () => reject(new Error("could not load the chart library"));
      document.head.append(s);
    });
  }
  return uplotLoading;
}

async function recommendBody() {
  const f = $("#rec-form");
  const body = {task: f.task.value};
  if (f.model.value) body.model = f.model.value;
  const file = $("#r-config").files[0];
  if (file) {
    try {
      body["model-config"] = JSON.parse(await file.text());
    } catch (e) {
      throw new Error(`config.json: not valid JSON (${e.message})`);
    }
  }
  for (const k of ["tokens", "rps", "input-tokens", "output-tokens", "deadline", "budget", "regions", "objective", "top"]) {
    const el = f.elements[k];
    if (el && !el.closest("[hidden]") && el.value.trim() !== "") body[k] = el.value.trim();
  }
  for (const kv of f.extra.value.trim().split(/\s+/).filter(Boolean)) {
    const i = kv.indexOf("=");
    if (i < 1) throw new Error(`Other keys: expected key=value, got "${kv}"`);
    body[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const purchase = $$("input[name=purchase]:checked").map((c) => c.value);
  if (purchase.length) body.purchase = purchase;
  return body;
}

let chart;
// Batch jobs: cost of the run against its wall-clock time, with the Pareto front. Services
// (every plan "runs" one hour): cost per hour against inter-token latency of the ranked plans.
function chartData(rec) {
  const times = rec.plans.map((p) => p.time_hours).concat(rec.pareto.map((p) => p.time_hours));
  const service = times.every((t) => Math.abs(t - times[0]) < 1e-9);
  const pts = [];
  if (service) {
    for (const p of rec.plans) {
      const itl = p.estimate && p.estimate.performance && p.estimate.performance.itl_ms;
      if (itl) pts.push({x: itl, pareto: null, plan: p.cost_usd});
    }
  } else {
    for (const p of rec.pareto) pts.push({x: p.time_hours, pareto: p.cost_usd, plan: null});
    for (const p of rec.plans) pts.push({x: p.time_hours, pareto: null, plan: p.cost_usd});
  }
  // uPlot wants one row per x: merge a plan with the Pareto point at the same time.
  const byX = new Map();
  for (const p of pts) {
    const row = byX.get(p.x) || {x: p.x, pareto: null, plan: null};
    row.pareto = row.pareto ?? p.pareto;
    row.plan = row.plan ?? p.plan;
    byX.set(p.x, row);
  }
  const rows = [...byX.values()].sort((a, b) => a.x - b.x);
  return {service, data: [rows.map((p) => p.x), rows.map((p) => p.pareto), rows.map((p) => p.plan)]};
}

function drawChart(rec) {
  const {service, data} = chartData(rec);
  const el = $("#chart");
  const width = Math.min(el.clientWidth || 800, 900);
  const usd = (u, v) => (v == null ? "–" : "$" + num(v, 2));
  $("#chart-caption").textContent = service
    ? "Cost (USD per hour, log) against inter-token latency (ms, log) of the ranked plans"
    : "Cost of the run (USD, log) against its wall-clock time (hours, log)";
  if (chart) chart.destroy();
  chart = new uPlot({
    width, height: 300,
    scales: {x: {time: false, distr: 3}, y: {distr: 3}},
    axes: [{label: service ? "ITL, ms" : "hours"}, {label: service ? "USD/h" : "USD", size: 70}],
    series: [
      {label: service ? "ITL ms" : "hours", value: (u, v) => (v == null ? "–" : num(v, 2))},
      {label: "Pareto front", stroke: "#d9480f", width: 2, spanGaps: true, points: {size: 7}, value: usd, show: !service},
      {label: "ranked plans", stroke: "#0b5cad", width: 0, paths: () => null, points: {size: 10, fill: "#0b5cad"}, value: usd},
    ],
  }, data, el);
}

function renderPlans(rec) {
  const list = (items, cls) => (items && items.length ? `<ul class="${cls}">${items.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>` : "");
  $("#plans").innerHTML = rec.plans.map((p) => {
    const e = p.estimate || {};
    const perf = e.performance || {};
    const savings = (p.savings || []).map((s) => `saving: ${s.lever} ${Math.round(s.saving * 100)}% — ${s.detail} (${s.tradeoff})`);
    return `<li><h3>#${p.rank} ${esc(p.instance_type)} × ${p.instances} (${esc(p.purchase)}, ${esc(p.region)})</h3>
      <div class="figs">${num(p.time_hours, 2)} h · $${num(p.cost_usd, 2)} · $${num(p.usd_per_hour, 2)}/h · ${p.gpus} × ${esc(p.gpu_model)} · ${num(p.memory_per_gpu_gib, 1)}/${num(p.device_gib, 1)} GiB per GPU · price ${esc(p.price_source)} ${esc(p.price_date)}</div>
      ${list(p.why, "why")}${list(p.warnings, "warn")}
      <div class="launch"><label>Launch spec <select class="launch-format" aria-label="Launch spec format for plan ${p.rank}">
        <option value="aws-cli">AWS CLI script</option><option value="cloudformation">CloudFormation</option>
        <option value="terraform">Terraform</option><option value="skypilot">SkyPilot</option></select></label>
        <button type="button" class="launch-get" data-rank="${p.rank}">Download</button></div>
      <details><summary>Advice, savings and the estimate</summary>${list(p.advice, "advice")}${list(savings, "savings")}
      <p class="figs">parallelism: ${esc(JSON.stringify(p.parallelism))}; tokens/s ${num(perf.tokens_per_s, 0)}; MFU ${perf.mfu == null ? "–" : num(perf.mfu * 100, 1) + "%"}; TTFT ${num(perf.ttft_ms, 1)} ms; ITL ${num(perf.itl_ms, 1)} ms</p></details></li>`;
  }).join("");
  $("#rejected ul").innerHTML = rec.rejected.map((r) => `<li><b>${esc(r.instance_type)}</b>: ${esc(r.reason)}</li>`).join("");
  $("#rejected summary").textContent = `Left out (${rec.rejected.length})`;
}

let lastRec;
async function downloadLaunch(button) {
  const plan = lastRec.plans.find((p) => String(p.rank) === button.dataset.rank);
  const format = button.parentElement.querySelector(".launch-format").value;
  const status = $("#rec-status");
  try {
    const spec = await api("/v1/launch", {plan, format});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([spec.document], {type: "text/plain"}));
    a.download = spec.file_name;
    document.body.append(a);
    a.click();
    a.remove();
    setStatus(status, `Launch spec ${spec.file_name} for plan #${plan.rank} (${spec.warnings.length} warning(s) inside)`);
  } catch (err) {
    setStatus(status, err.message, true);
  }
}

async function submitRecommend(e) {
  e.preventDefault();
  const status = $("#rec-status");
  const button = $("#r-submit");
  button.disabled = true;
  setStatus(status, "Searching…");
  try {
    const body = await recommendBody();
    const [rec] = await Promise.all([api("/v1/recommend", body), loadUplot()]);
    $("#rec-out").hidden = false;
    lastRec = rec;
    renderPlans(rec);
    drawChart(rec);
    // The allow/deny lists applied (only-gpu=H100,A100 and the like under "Other keys"), and
    // which one left nothing to search: then "Left out" is empty, so the status says why.
    const filters = rec.filters || {};
    const lists = (filters.lists || []).map((l) => `${l.option} ${l.values.join(",")}`).join("; ");
    const applied = lists ? `; filters: ${lists} (${filters.types_left} of ${filters.types_in_catalog} instance types)` : "";
    setStatus(status, filters.emptied_by
      ? `No plan: ${filters.note}.`
      : rec.plans.length
        ? `${rec.plans.length} plan(s); ${rec.candidates_evaluated} configurations estimated; prices ${rec.catalog.date}${applied}`
        : `No feasible plan: see the reasons under “Left out”${applied}.`);
    if (!rec.plans.length && !filters.emptied_by) $("#rejected").open = true;
  } catch (err) {
    setStatus(status, err.message, true);
  } finally {
    button.disabled = false;
  }
}

function initRecommend(models) {
  $("#r-model").innerHTML = '<option value="">none</option>' + models.map((m) => `<option>${esc(m.name)}</option>`).join("");
  $("#r-model").value = "llama-3.1-8b";
  $("#r-task").addEventListener("change", taskFields);
  $("#rec-form").addEventListener("submit", submitRecommend);
  $("#plans").addEventListener("click", (e) => {
    const b = e.target.closest(".launch-get");
    if (b) downloadLaunch(b);
  });
  taskFields();
}

async function init() {
  initTabs();
  initCatalog();
  try {
    const [regions, gpus, info] = await Promise.all([api("/v1/regions"), api("/v1/gpus"), api("/v1/catalog")]);
    $("#f-region").innerHTML = ["all", ...regions].map((r) => `<option${r === "us-east-1" ? " selected" : ""}>${esc(r)}</option>`).join("");
    $("#f-gpu").innerHTML = '<option value="">any</option>' + gpus.map((g) => `<option>${esc(g.model)}</option>`).join("");
    $("#catalog-meta").textContent = `catalog built ${info.generated_at}; newest prices ${info.newest_price_date}${info.prices_stale ? " (stale)" : ""}`;
  } catch (e) {
    setStatus($("#catalog-status"), e.message, true);
  }
  loadCatalog();
  api("/v1/models").then(initRecommend).catch((e) => setStatus($("#rec-status"), e.message, true));
}
init();
