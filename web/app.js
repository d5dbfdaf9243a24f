// gpuadvisor web page: one view per flow (catalog, instance, recommend, estimate, compare,
// pricing, idle) over the JSON API. No framework, no CDN; uPlot (vendored) loads with the first
// chart. The forms are generated from /v1/openapi.json, itself generated from the option tables
// the CLI and the Python binding walk; a workload field's x-tasks says which tasks it applies to.
// Every view's state is in the query string (?view=estimate&task=serve&...): a URL reproduces it.
// Text from the server only ever goes through textContent / attributes (h() below).
"use strict";
const $ = (s, el = document) => el.querySelector(s);
const $$ = (s, el = document) => [...el.querySelectorAll(s)];

// ---- DOM and formatting helpers ----
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}
const fmts = new Map();
function num(v, d = 0) {
  if (v === null || v === undefined || Number.isNaN(Number(v))) return "–";
  const key = "n" + d;
  if (!fmts.has(key)) fmts.set(key, new Intl.NumberFormat(undefined, {minimumFractionDigits: d, maximumFractionDigits: d}));
  return fmts.get(key).format(v);
}
function usd(v, d = 2) {
  if (v === null || v === undefined) return "–";
  const key = "u" + d;
  if (!fmts.has(key)) fmts.set(key, new Intl.NumberFormat(undefined, {style: "currency", currency: "USD", minimumFractionDigits: d, maximumFractionDigits: d}));
  return fmts.get(key).format(v);
}
const pct = (v, d = 0) => (v === null || v === undefined ? "–" : num(v * 100, d) + " %");
// An estimated figure: ≈ in front, the explanation in a tooltip and for screen readers.
const est = (text, why) => h("span", {class: "est", title: why || "model estimate"}, "≈", text);

class ApiError extends Error {
  constructor(message, field, status) {
    super(message);
    this.field = field;
    this.status = status;
  }
}
async function api(path, body, contentType) {
  const opt = body === undefined ? {} : {method: "POST", headers: {"Content-Type": contentType || "application/json"}, body: contentType ? body : JSON.stringify(body)};
  const res = await fetch(path, opt);
  let data;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(`HTTP ${res.status}: not JSON`, null, res.status);
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(e.message || `HTTP ${res.status}`, e.field || null, res.status);
  }
  return data;
}

// ---- status line and stale answers ----
// begin() clears the old answer at once (so nothing from the previous request stays on screen),
// shows a spinner, and returns a token; a reply whose token is no longer current is dropped.
const seqs = {};
function begin(view, text) {
  seqs[view] = (seqs[view] || 0) + 1;
  const out = $(`#${view}-out`);
  if (out) out.replaceChildren();
  clearFieldErrors($(`#${view}-form`));
  setStatus(view, text || "Working…", "busy");
  return seqs[view];
}
const current = (view, token) => seqs[view] === token;
function setStatus(view, text, kind) {
  const el = $(`#${view}-status`);
  el.replaceChildren(...[text].flat());
  el.className = "status" + (kind ? " " + kind : "");
}
function fail(view, token, err) {
  if (!current(view, token)) return;
  $(`#${view}-out`) && $(`#${view}-out`).replaceChildren();
  const placed = err.field && showFieldError($(`#${view}-form`), err.field, err.message);
  setStatus(view, placed ? `${err.message} (see the field “${err.field}”)` : err.message, "error");
}
function clearFieldErrors(form) {
  if (!form) return;
  for (const e of $$(".err", form)) e.textContent = "";
  for (const i of $$("[aria-invalid]", form)) i.removeAttribute("aria-invalid");
}
function showFieldError(form, field, message) {
  if (!form) return false;
  const name = String(field).replace(/_/g, "-");
  const box = $$(".field", form).find((f) => f.dataset.field === name);
  if (!box) return false;
  const details = box.closest("details");
  if (details) details.open = true;
  box.hidden = false;
  $(".err", box).textContent = message;
  const input = $("input, select", box);
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
  return true;
}

// ---- forms from the OpenAPI document ----
let spec, models = [], regions = [], gpus = [], catalogInfo;
const TASKS = [];  // in declaration order, from the task field's x-tasks

// "Spend at most this [0.01 to 1e+12 USD] A duration: ..." -> {help, lo, hi, unit, def, choices}
function parseDescription(desc) {
  const out = {help: desc || ""};
  const m = /\s*\[([^\]]*)\]\s*/.exec(out.help);
  if (!m) return out;
  out.help = (out.help.slice(0, m.index) + (m.index + m[0].length < out.help.length ? ". " + out.help.slice(m.index + m[0].length) : "")).trim();
  for (const part of m[1].split("; ")) {
    let r;
    if ((r = /^default (.+)$/.exec(part))) out.def = r[1];
    else if ((r = /^(\S+) to (\S+)(?: (.+))?$/.exec(part))) Object.assign(out, {lo: r[1], hi: r[2], unit: r[3]});
    else if ((r = /^one of (.+)$/.exec(part))) out.choices = r[1].split(", ");
  }
  // API-only wording the form shows otherwise (a list field is a comma-separated text box).
  out.help = out.help.replace(/\s*An array of strings; a comma-separated string is accepted too\./, "").replace(/\s*A duration: [^.]*\([^)]*\)\./, "").replace(/\.\s*$/, "").replace(/ \.\.\.\.$/, " ...");
  return out;
}
// The kind of a workload field's value (x-value) as a unit or hint.
const VALUE_HINT = {N: "number (8k, 1.5M, 2B)", DUR: "duration: 90s, 30m, 36h, 14d", GIB: "GiB", MB: "MB", PX: "pixels", X: "fraction, (0, 1]"};

function describeField(name, schema, required) {
  const d = parseDescription(schema.description);
  const f = {name, required, help: d.help, lo: d.lo ?? schema.minimum, hi: d.hi ?? schema.maximum, unit: d.unit, def: d.def ?? schema.default, tasks: schema["x-tasks"], value: schema["x-value"]};
  const enumOf = schema.enum || (schema.items && schema.items.enum) || d.choices;
  if (name === "model-config") f.type = "file";
  else if (name === "model") f.type = "model";
  else if (name === "task") f.type = "task";
  else if (schema.type === "boolean") f.type = "bool";
  else if (schema.type === "array" && enumOf) Object.assign(f, {type: "checks", choices: enumOf});
  else if (enumOf) Object.assign(f, {type: "enum", choices: enumOf});
  else if (schema.type === "array") f.type = "list";
  else if (schema.type === "number" || schema.type === "integer") f.type = "number";
  else f.type = "text";
  if (f.type === "text" && /A duration/.test(schema.description || "")) f.unit = f.unit || "duration: 90s, 30m, 36h, 14d";
  if (f.value && !f.unit) f.unit = VALUE_HINT[f.value];
  // Choices the help lists as a|b|c: suggestions (a datalist), the server still checks.
  if (f.type === "text" && !f.choices) {
    const alt = /\b([a-z0-9.-]+(?:\|[a-z0-9.-]+)+)\b/.exec(f.help);
    if (alt) f.suggest = alt[1].split("|");
  }
  return f;
}
function bodyFields(path) {
  const s = spec.paths[path].post.requestBody.content["application/json"].schema;
  const req = new Set(s.required || []);
  return Object.entries(s.properties).map(([n, sc]) => describeField(n, sc, req.has(n)));
}
function queryFields(path, method = "get") {
  return (spec.paths[path][method].parameters || []).filter((p) => p.in === "query").map((p) => describeField(p.name, {...p.schema, description: p.description}, p.required));
}
const labelOf = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, " ");

let fieldSeq = 0;
function fieldElement(f, opts = {}) {
  const id = `f${++fieldSeq}-${f.name}`;
  const helpId = id + "-help", errId = id + "-err";
  const common = {id, name: f.name, "aria-describedby": `${helpId} ${errId}`, title: f.help || null};
  let input;
  const range = f.lo !== undefined && f.hi !== undefined ? `${f.lo} to ${f.hi}` : "";
  const hint = [f.unit, range, f.def !== undefined ? `default ${f.def}` : ""].filter(Boolean).join("; ");
  if (f.type === "bool") {
    input = h("select", common, h("option", {value: ""}, "default"), h("option", {value: "true"}, "yes"), h("option", {value: "false"}, "no"));
  } else if (f.type === "enum" || f.type === "task") {
    const choices = f.type === "task" ? TASKS : f.choices;
    input = h("select", common, f.type === "task" ? null : h("option", {value: ""}, f.def ? `default (${f.def})` : "default"), choices.map((c) => h("option", {value: c}, c)));
  } else if (f.type === "checks") {
    const box = h("fieldset", {class: "field checks", "data-field": f.name, "aria-describedby": `${helpId} ${errId}`},
      h("legend", {}, labelOf(f.name)),
      f.choices.map((c) => h("label", {}, h("input", {type: "checkbox", name: f.name, value: c}), c)),
      h("small", {id: helpId, class: "help"}, f.help), h("span", {id: errId, class: "err", role: "alert"}));
    return box;
  } else if (f.type === "file") {
    input = h("input", {...common, type: "file", accept: ".json,application/json"});
  } else if (f.type === "number") {
    input = h("input", {...common, type: "number", step: "any", min: f.lo, max: f.hi, inputmode: "decimal", placeholder: f.def});
  } else {
    const list = opts.datalist || (f.suggest ? ensureDatalist(`dl-${f.name}`, f.suggest) : null);
    input = h("input", {...common, type: "text", list, placeholder: opts.placeholder || f.def || "", autocomplete: "off", spellcheck: "false"});
  }
  return h("div", {class: "field", "data-field": f.name, "data-tasks": f.tasks ? f.tasks.join(" ") : null},
    h("label", {for: id}, opts.label || labelOf(f.name), hint ? h("span", {class: "unit"}, ` (${hint})`) : null, f.required ? " *" : ""),
    input,
    h("small", {id: helpId, class: "help"}, f.help + (f.type === "list" ? " (comma-separated)" : "")),
    h("span", {id: errId, class: "err", role: "alert"}));
}
function ensureDatalist(id, values) {
  let dl = document.getElementById(id);
  if (!dl) document.body.append((dl = h("datalist", {id})));
  dl.replaceChildren(...values.map((v) => h("option", {value: v})));
  return id;
}

// Values of a form's visible fields: {name: value}; arrays for checkbox groups.
async function collect(form) {
  const body = {};
  for (const box of $$(".field", form)) {
    if (box.closest("[hidden]")) continue;
    const name = box.dataset.field;
    if (name === "body") continue;  // idle's telemetry files: the request body, not a key
    if (box.classList.contains("checks")) {
      const v = $$("input:checked", box).map((c) => c.value);
      if (v.length) body[name] = v;
      continue;
    }
    const input = $("input, select", box);
    if (!input) continue;
    if (input.type === "file") {
      const file = input.files[0];
      if (!file) continue;
      try {
        body[name] = JSON.parse(await file.text());
      } catch (e) {
        throw new ApiError(`${name}: ${file.name} is not valid JSON (${e.message})`, name);
      }
      continue;
    }
    const v = input.value.trim();
    if (v === "") continue;
    body[name] = input.tagName === "SELECT" && (v === "true" || v === "false") ? v === "true" : v;
  }
  return body;
}
function toQuery(view, values) {
  const q = new URLSearchParams({view});
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === "object" && !Array.isArray(v)) continue;  // a config.json stays local
    q.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  return q;
}
function fill(form, q) {
  for (const box of $$(".field", form)) {
    const name = box.dataset.field;
    if (box.classList.contains("checks")) {
      if (!q.has(name)) continue;
      const set = new Set(q.get(name).split(","));
      for (const c of $$("input", box)) c.checked = set.has(c.value);
      continue;
    }
    const input = $("input, select", box);
    if (!input || input.type === "file") continue;
    input.value = q.has(name) ? q.get(name) : "";
  }
}
function setUrl(q, replace) {
  const url = "?" + q.toString();
  if (location.search === url) return;
  history[replace ? "replaceState" : "pushState"](null, "", url);
}

// The workload part of a form: task first, the fields of that task, the rest in a closed group.
const LLM_ALL = "pretrain finetune lora qlora serve";
function workloadForm(form, fields, {before = [], after = []} = {}) {
  const workload = fields.filter((f) => f.tasks);
  const byName = Object.fromEntries(workload.map((f) => [f.name, f]));
  const taskBox = fieldElement({...byName.task, help: "What the job is: its fields appear below"}, {label: "Task"});
  const modelBox = fieldElement(byName.model, {label: "Model preset or Hugging Face id", datalist: "dl-models", placeholder: "llama-3.1-8b"});
  const configBox = fieldElement(byName["model-config"], {label: "or its config.json"});
  const main = h("div", {class: "group"});
  const more = h("div", {class: "group"});
  // Quantities (how much work: tokens, rps, streams, hours) before the choices and switches.
  const quantity = (f) => ["N", "DUR", "GIB", "MB", "PX"].includes(f.value) && !/degree|per GPU|per micro/.test(f.help);
  const ordered = [...workload].sort((a, b) => quantity(b) - quantity(a));
  for (const f of ordered) {
    if (["task", "model", "model-config"].includes(f.name)) continue;
    // Fields of a few tasks (rps, tokens, streams, dataset-gib) up front; the architecture and
    // parallelism overrides every LLM task takes, and fields of most tasks, under "More".
    const specific = f.tasks.length <= 5 && f.tasks.join(" ") !== LLM_ALL;
    (specific ? main : more).append(fieldElement(f));
  }
  const moreBox = h("details", {class: "more"}, h("summary", {}, "More workload fields (architecture, parallelism, efficiency overrides)"), more);
  form.replaceChildren(...[
    h("div", {class: "group"}, taskBox, modelBox, configBox, before),
    main, moreBox,
    after.length ? h("div", {class: "group"}, after) : null,
    h("div", {class: "actions"}, h("button", {type: "submit"}, form.dataset.submit || "Go")),
  ].filter(Boolean));
  const task = $("select", taskBox);
  const sync = () => {
    const t = task.value;
    for (const box of $$(".field[data-tasks]", form)) {
      if (box.dataset.field === "task") continue;
      box.hidden = !box.dataset.tasks.split(" ").includes(t);
    }
    ensureDatalist("dl-models", models.filter((m) => m.tasks.includes(t)).map((m) => m.name));
    $("summary", moreBox).textContent = `More ${t} fields (${$$(".field:not([hidden])", more).length}: architecture, parallelism, efficiency overrides)`;
  };
  task.addEventListener("change", sync);
  form.syncTask = sync;
  sync();
}

// ---- charts (uPlot, loaded on first use) ----
let uplotLoading;
function loadUplot() {
  if (window.uPlot) return Promise.resolve();
  if (!uplotLoading) {
    uplotLoading = new Promise((resolve, reject) => {
      document.head.append(h("link", {rel: "stylesheet", href: "/vendor/uplot/uPlot.min.css"}));
      document.head.append(h("script", {src: "/vendor/uplot/uPlot.iife.min.js", onload: resolve, onerror: () => reject(new Error("could not load the chart library"))}));
    });
  }
  return uplotLoading;
}
const COLORS = ["#0b5cad", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0c8599"];
// A figure with a chart and a caption that names what it shows (the key is in the caption; the
// uPlot legend is off so it does not repeat it). Drawn only with 2 or more points.
async function chartFigure(parent, {caption, x, series, xLabel, yLabel, time, logX, logY, points}) {
  const n = series.reduce((s, se) => s + se.values.filter((v) => v !== null && v !== undefined).length, 0);
  if (n < 2) return false;
  await loadUplot();
  const el = h("div", {class: "chart", role: "img", "aria-label": caption});
  const key = h("span", {class: "keys"}, series.map((s, i) => h("span", {class: "k"}, h("i", {class: "sw", style: `background:${s.color || COLORS[i]}`}), s.label)));
  const fig = h("figure", {}, el, h("figcaption", {}, caption, " ", key));
  parent.append(fig);
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const axis = {stroke: dark ? "#c9d1d9" : "#1b1f24", grid: {stroke: dark ? "#30363d" : "#e5e8eb"}};
  new uPlot({
    width: Math.max(280, Math.min(el.clientWidth || 800, 900)), height: 260,
    legend: {show: false},
    scales: {x: {time: !!time, distr: logX ? 3 : 1}, y: {distr: logY ? 3 : 1}},
    axes: [{...axis, label: xLabel}, {...axis, label: yLabel, size: 70}],
    series: [{}, ...series.map((s, i) => ({label: s.label, stroke: s.color || COLORS[i], width: points ? 0 : 2, spanGaps: true,
      paths: points ? () => null : undefined, points: {size: points ? 9 : 6, fill: s.color || COLORS[i]}}))],
  }, [x, ...series.map((s) => s.values)], el);
  return true;
}

// ---- views ----
const views = {};
const lastRun = {};  // view -> query string of the answer on screen

function routeTo(q, push = true) {
  setUrl(q, !push);
  route();
}
function route() {
  const q = new URLSearchParams(location.search);
  const name = views[q.get("view")] ? q.get("view") : "catalog";
  for (const sec of $$("main > section")) sec.hidden = sec.id !== "view-" + name;
  for (const a of $$("nav a")) {
    if (a.dataset.view === name || (name === "instance" && a.dataset.view === "catalog")) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `gpuadvisor: ${name}`;
  views[name].enter(q);
}
// A view with a form: URL parameters beyond view= fill the form and run it (a shared link
// reproduces the answer); a bare ?view=X shows the form as left.
function formView(name, {build, run, autorun = true}) {
  const form = $(`#${name}-form`);
  let built = false;
  views[name] = {
    enter(q) {
      if (!built) {
        build(form);
        built = true;
        form.addEventListener("submit", async (e) => {
          e.preventDefault();
          // The old answer goes at once, before the (maybe slow) file reading and the request.
          $(`#${name}-out`).replaceChildren();
          setStatus(name, "Working…", "busy");
          let values;
          try {
            values = await collect(form);
          } catch (err) {
            const t = begin(name);
            return fail(name, t, err);
          }
          const query = toQuery(name, values);
          setUrl(query);
          lastRun[name] = query.toString();
          run(form, values);
        });
      }
      const params = [...q.keys()].filter((k) => k !== "view");
      if (params.length && q.toString() !== lastRun[name]) {
        fill(form, q);
        if (form.syncTask) form.syncTask();
        lastRun[name] = q.toString();
        if (autorun) collect(form).then((v) => run(form, v), (err) => fail(name, begin(name), err));
      } else if (!params.length && lastRun[name]) {
        setUrl(new URLSearchParams(lastRun[name]), true);
      }
    },
  };
}

// ---- catalog ----
const catalog = {rows: [], sort: "price", desc: false};
function catalogColumns() {
  const gpu = (new URLSearchParams(location.search).get("basis") || $("#c-basis").value) === "gpu";
  const per = (r, v) => (v == null ? null : gpu ? v / Math.max(r.accelerator.count || 0, 1e-9) : v);
  const cols = [
    {key: "type", label: "Instance type", get: (r) => r.instance_type},
    {key: "price", label: gpu ? "$/GPU·h on-demand" : "$/h on-demand", n: 3, get: (r) => per(r, r.on_demand_usd_per_hour)},
    {key: "spot", label: gpu ? "$/GPU·h spot" : "$/h spot", n: 3, get: (r) => per(r, r.spot_usd_per_hour)},
    {key: "region", label: "Region", get: (r) => r.region, all: true},
    {key: "gpu", label: "Accelerator", get: (r) => r.accelerator.model},
    {key: "gpus", label: "GPUs", n: 3, get: (r) => r.accelerator.count},
    {key: "mem", label: "GiB/GPU", n: 1, get: (r) => (r.accelerator.memory_mib_each == null ? null : r.accelerator.memory_mib_each / 1024)},
    {key: "date", label: "Price date", get: (r) => r.price_date},
    {key: "vcpus", label: "vCPU", n: 0, get: (r) => r.vcpus, wide: true},
    {key: "ram", label: "RAM GiB", n: 0, get: (r) => r.memory_gib, wide: true},
    {key: "net", label: "Net Gbit/s", n: 0, get: (r) => r.network_gbit_s, wide: true},
    {key: "efa", label: "EFA", get: (r) => (r.efa ? "yes" : ""), wide: true},
  ];
  return cols.filter((c) => !c.all || $("#catalog-form [name=region]").value === "all");
}
function buildCatalogForm(form) {
  // Sorting and row limits are the table's own (click a header).
  const fields = queryFields("/v1/instances").filter((f) => !["sort", "limit"].includes(f.name));
  const boxes = fields.map((f) => {
    if (f.name === "region") f.type = "enum", f.choices = ["all", ...regions];
    const box = fieldElement(f, f.name === "gpu" ? {datalist: ensureDatalist("dl-gpus", gpus.map((g) => g.model)), placeholder: "H100, L4"} : {});
    if (f.name === "region") $("select", box).firstChild.remove();  // no "default" entry: us-east-1 is listed
    return box;
  });
  const text = h("div", {class: "field", "data-field": "q"}, h("label", {for: "c-text"}, "Name contains"), h("input", {id: "c-text", name: "q", type: "search", placeholder: "xlarge"}), h("span", {class: "err"}));
  const basis = h("div", {class: "field", "data-field": "basis"}, h("label", {for: "c-basis"}, "Price per"),
    h("select", {id: "c-basis", name: "basis"}, h("option", {value: "instance"}, "instance-hour"), h("option", {value: "gpu"}, "GPU-hour")), h("span", {class: "err"}));
  // On a phone the filters start closed, so the table (and its prices) is on the first screen.
  form.classList.add("compact");
  form.replaceChildren(h("details", {class: "filters", open: matchMedia("(min-width: 700px)").matches},
    h("summary", {}, "Filters"), h("div", {class: "group"}, boxes, text, basis)));
  $("select[name=region]", form).value = "us-east-1";
  let timer;
  form.addEventListener("input", (e) => {
    const values = catalogValues();
    setUrl(toQuery("catalog", values), true);
    lastRun.catalog = location.search.slice(1);
    if (e.target.name === "q" || e.target.name === "basis") return renderCatalog();
    clearTimeout(timer);
    timer = setTimeout(loadCatalog, 200);
  });
  form.addEventListener("submit", (e) => e.preventDefault());
  $("#catalog thead").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-key]");
    if (!b) return;
    catalog.desc = catalog.sort === b.dataset.key ? !catalog.desc : false;
    catalog.sort = b.dataset.key;
    renderCatalog();
    $(`#catalog th button[data-key="${b.dataset.key}"]`).focus();
  });
  $("#catalog tbody").addEventListener("click", (e) => {
    if (e.target.closest("a")) return;
    const tr = e.target.closest("tr[data-href]");
    if (tr) routeTo(new URLSearchParams(tr.dataset.href.slice(1)));
  });
}
function catalogValues() {
  const form = $("#catalog-form");
  const v = {};
  for (const box of $$(".field", form)) {
    const input = $("input, select", box);
    if (!input) continue;
    const val = input.value.trim();
    if (val !== "" && !(box.dataset.field === "basis" && val === "instance")) v[box.dataset.field] = val;
  }
  return v;
}
let catalogSeq = 0;
// The first catalog request starts with the page (from the URL), not after the API description.
let catalogPrefetch = null;
function prefetchCatalog() {
  const q = new URLSearchParams(location.search);
  if ((q.get("view") || "catalog") !== "catalog") return;
  for (const k of ["view", "q", "basis"]) q.delete(k);
  if (!q.has("region")) q.set("region", "us-east-1");
  const order = new URLSearchParams();
  for (const [k, v] of q) order.append(k, v);
  catalogPrefetch = {query: order.toString(), rows: api("/v1/instances?" + order)};
  catalogPrefetch.rows.catch(() => {});
}
async function loadCatalog() {
  const seq = ++catalogSeq;
  const q = new URLSearchParams(catalogValues());
  q.delete("q");
  q.delete("basis");
  clearFieldErrors($("#catalog-form"));
  setStatus("catalog", "Loading…", "busy");
  try {
    const rows = await (catalogPrefetch && catalogPrefetch.query === q.toString() ? catalogPrefetch.rows : api("/v1/instances?" + q));
    catalogPrefetch = null;
    if (seq !== catalogSeq) return;
    catalog.rows = rows;
    renderCatalog();
  } catch (e) {
    if (seq !== catalogSeq) return;
    catalog.rows = [];
    $("#catalog tbody").replaceChildren();
    fail("catalog", seqs.catalog, e);
  }
}
function renderCatalog() {
  const cols = catalogColumns();
  const text = $("#c-text").value.trim().toLowerCase();
  const col = cols.find((c) => c.key === catalog.sort) || cols[0];
  const rows = catalog.rows.filter((r) => !text || r.instance_type.includes(text));
  rows.sort((a, b) => {
    const x = col.get(a), y = col.get(b);
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;  // unknowns last
    const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
    return catalog.desc ? -c : c;
  });
  $("#catalog thead tr").replaceChildren(...cols.map((c) => {
    const s = c.key === col.key ? (catalog.desc ? "descending" : "ascending") : "none";
    return h("th", {scope: "col", class: [c.n !== undefined ? "n" : "", c.wide ? "wide" : ""].join(" "), "aria-sort": s},
      h("button", {type: "button", "data-key": c.key}, c.label, s === "none" ? "" : s === "ascending" ? " ▲" : " ▼"));
  }));
  const region = $("#catalog-form [name=region]").value;
  $("#catalog tbody").replaceChildren(...rows.map((r) => {
    const href = "?" + new URLSearchParams({view: "instance", type: r.instance_type, region: r.region || (region === "all" ? "us-east-1" : region)});
    return h("tr", {"data-href": href}, cols.map((c) => {
      const v = c.get(r);
      const cls = [c.n !== undefined ? "n" : "", c.wide ? "wide" : "", c.key === "date" && r.price_stale ? "stale" : ""].join(" ");
      if (c.key === "type") return h("th", {scope: "row"}, h("a", {href}, v));
      const shown = c.n !== undefined ? num(v, c.n) : v ?? "–";
      const title = c.key === "date" ? `${r.price_source || ""}${r.price_stale ? " (older than the freshness limit)" : ""}` : c.key === "spot" && r.spot_estimated ? "estimated spot price" : null;
      return h("td", {class: cls, title}, c.key === "spot" && r.spot_estimated && v != null ? "~" : "", shown);
    }));
  }));
  if (!performance.getEntriesByName("catalog-rows").length) performance.mark("catalog-rows");  // bench/web_bench.js
  const retired = $("#catalog-form [name=include-retired]").value === "true";
  const total = catalogInfo ? (retired ? catalogInfo.counts.instance_types : catalogInfo.counts.current) : null;
  const perRegion = region === "all" ? " type-region rows" : ` instance types in ${region}`;
  if (rows.length) {
    setStatus("catalog", `${num(rows.length)} of ${num(catalog.rows.length)}${perRegion}` + (total ? ` (the catalog holds ${num(total)} types)` : "") + "; open a row for its prices and purchase options");
  } else {
    const active = Object.entries(catalogValues()).filter(([k]) => k !== "region" && k !== "basis").map(([k, v]) => `${labelOf(k)} ${v}`);
    setStatus("catalog", `0 of ${total ? num(total) : "the"} instance types match` + (active.length ? `: relax one of these filters: ${active.join("; ")}` : ` in ${region}: try region “all”`), "empty");
  }
}
views.catalog = {
  enter(q) {
    if (!$("#catalog-form").childElementCount) buildCatalogForm($("#catalog-form"));
    if (q.toString() === lastRun.catalog && catalog.rows.length) return;
    if ([...q.keys()].some((k) => k !== "view")) fill($("#catalog-form"), q);
    if (!q.get("region")) $("#catalog-form [name=region]").value = "us-east-1";
    if (!q.get("basis")) $("#c-basis").value = "instance";
    lastRun.catalog = q.toString();
    loadCatalog();
  },
};

// ---- instance ----
function dl(pairs) {
  return h("dl", {class: "kv"}, pairs.filter(([, v]) => v !== null && v !== undefined && v !== "" && v !== "–").map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}
async function runInstance(form, v) {
  const t = begin("instance", `Loading ${v.type || ""}…`);
  const out = $("#instance-out");
  try {
    if (!v.type) throw new ApiError("type: required (an instance type such as p5.48xlarge)", "type");
    const region = v.region || "us-east-1";
    const [d, pr] = await Promise.all([
      api(`/v1/instances/${encodeURIComponent(v.type)}?` + new URLSearchParams({region})),
      api("/v1/pricing", {type: v.type, region}).catch((e) => e)]);
    if (!current("instance", t)) return;
    const a = d.accelerator, g = d.gpu_spec || {};
    out.append(h("h3", {}, d.instance_type, d.retired ? " (retired)" : ""),
      h("div", {class: "cols"},
        h("section", {}, h("h4", {}, "Specs"), dl([["Accelerator", `${num(a.count)} × ${a.model} (${a.vendor})`], ["Memory per accelerator", a.memory_mib_each ? `${num(a.memory_mib_each / 1024, 0)} GiB` : "–"],
          ["vCPUs", num(d.vcpus)], ["RAM", `${num(d.memory_gib)} GiB`], ["Network", `${num(d.network_gbit_s)} Gbit/s${d.efa ? `, EFA (${d.max_efa_interfaces} interfaces)` : ""}`],
          ["Local NVMe", d.local_nvme_gb ? `${num(d.local_nvme_gb)} GB` : "none"], ["EBS", d.ebs ? `${num(d.ebs.baseline_mbps)} Mbit/s` : null],
          ["Purchase", (d.usage_classes || []).join(", ")], ["Specs from", `${d.spec_source} (${d.spec_date})`], ["Successors", (d.successors || []).join(", ")], ["Note", d.retired_note]])),
        g.model ? h("section", {}, h("h4", {}, "Datasheet: ", g.full_name || g.model), dl([
          ["Architecture", g.architecture], ["Memory", `${num(g.memory_gib)} GiB at ${num(g.memory_bw_gbyte_s)} GB/s`], ["BF16 / FP16 dense", `${num(g.bf16_tflops, 1)} TFLOP/s`],
          ["FP8 dense", g.fp8_tflops ? `${num(g.fp8_tflops, 1)} TFLOP/s` : null], ["TF32", g.tf32_tflops ? `${num(g.tf32_tflops, 1)} TFLOP/s` : null], ["FP32", `${num(g.fp32_tflops, 1)} TFLOP/s`],
          ["FP64", `${num(g.fp64_tflops, 1)} TFLOP/s`], ["NVLink", g.nvlink_gbyte_s ? `${num(g.nvlink_gbyte_s)} GB/s` : null], ["TDP", g.tdp_w ? `${num(g.tdp_w)} W` : null],
          ["Confidence", g.confidence], ["Source", `${g.datasheet || g.source} (${g.date})`], ["Notes", g.notes]])) : null));
    // Prices per region.
    const rows = (d.regions || []).filter((r) => r.offered);
    out.append(h("h4", {}, "Price per region (USD per instance-hour)"),
      h("div", {class: "scroll short"}, h("table", {}, h("thead", {}, h("tr", {}, ["Region", "On-demand", "Spot", "Capacity Block", "Reserved 1y", "Price date"].map((c, i) => h("th", {scope: "col", class: i && i < 5 ? "n" : ""}, c)))),
        h("tbody", {}, rows.map((r) => h("tr", {class: r.region === region ? "sel" : ""}, h("th", {scope: "row"}, r.region),
          h("td", {class: "n"}, usd(r.on_demand_usd_per_hour, 3)),
          h("td", {class: "n", title: r.spot_estimated ? "estimated spot price" : r.spot_note || null}, r.spot_estimated && r.spot_usd_per_hour != null ? "~" : "", usd(r.spot_usd_per_hour, 3)),
          h("td", {class: "n", title: r.capacity_block_date || null}, usd(r.capacity_block_usd_per_hour, 3)),
          h("td", {class: "n"}, usd(r.reserved_1y_no_upfront_usd_per_hour, 3)),
          h("td", {class: r.price_stale ? "stale" : ""}, r.price_date || "–")))))),
    h("p", {class: "key"}, "~ marks an estimated spot price (no observed price in the catalog: derived from on-demand with the typical discount)."));
    // History in the chosen region, one series per purchase kind.
    const sel = rows.find((r) => r.region === region) || {};
    const hist = (sel.history || []).filter((p) => p.usd_per_hour != null && p.date);
    const kinds = [...new Set(hist.map((p) => p.kind))];
    const dates = [...new Set(hist.map((p) => p.date))].sort();
    const histBox = h("div", {});
    out.append(h("h4", {}, `Price history in ${region}`), histBox);
    const drawn = await chartFigure(histBox, {
      caption: `Dated prices of ${d.instance_type} in ${region} (USD per instance-hour, by source date): ${kinds.join(", ")}`,
      x: dates.map((s) => Date.parse(s) / 1000), time: true, xLabel: "price date", yLabel: "USD/h",
      series: kinds.map((k) => ({label: k, values: dates.map((dt) => (hist.find((p) => p.kind === k && p.date === dt) || {}).usd_per_hour ?? null)}))});
    if (!current("instance", t)) return;
    histBox.append(hist.length ? h("ul", {class: "small"}, hist.map((p) => h("li", {}, `${p.date}: ${p.kind} ${usd(p.usd_per_hour, 3)}/h (${p.source})`))) : h("p", {}, `No dated price history for ${region} in the catalog.`));
    if (!drawn && hist.length) histBox.prepend(h("p", {class: "small"}, "One dated price only: no chart."));
    // Purchase options and break-even at always-on use.
    out.append(h("h4", {}, "Purchase options (one instance, always on, one month)"));
    if (pr instanceof Error) out.append(h("p", {class: "error"}, pr.message));
    else out.append(pricingTable(pr), h("p", {}, h("a", {href: "?" + new URLSearchParams({view: "pricing", type: d.instance_type, region})}, "Price another usage pattern and see the break-even chart →")));
    setStatus("instance", `${d.instance_type} in ${region}; on-demand prices of ${d.price_date}${d.price_stale ? " (older than the freshness limit)" : ""}`);
  } catch (err) {
    fail("instance", t, err);
  }
}
formView("instance", {
  build(form) {
    const f = queryFields("/v1/instances/{type}").filter((x) => x.name === "region");
    const typeBox = fieldElement({name: "type", type: "text", help: "Instance type, e.g. p5.48xlarge", required: true}, {datalist: "dl-types"});
    f[0].type = "enum";
    f[0].choices = regions;
    const regionBox = fieldElement(f[0]);
    $("select", regionBox).firstChild.remove();
    form.replaceChildren(h("div", {class: "group"}, typeBox, regionBox, h("div", {class: "actions"}, h("button", {type: "submit"}, "Show"))));
    $("select", regionBox).value = "us-east-1";
  },
  run: runInstance,
});

// ---- pricing ----
function pricingTable(pr) {
  const priced = pr.options.filter((o) => o.priced);
  const unpriced = pr.options.filter((o) => !o.priced);
  const cheapest = pr.cheapest;
  return h("div", {},
    h("div", {class: "scroll short"}, h("table", {class: "pricing"},
      h("thead", {}, h("tr", {}, ["Option", "Total", "$/h", "$/used hour", "Upfront", "Break-even use", "Price date", "Note"].map((c, i) => h("th", {scope: "col", class: i && i < 6 ? "n" : ""}, c)))),
      h("tbody", {}, priced.map((o) => h("tr", {class: o.option === cheapest ? "sel" : ""},
        h("th", {scope: "row"}, o.option, o.option === cheapest ? " (cheapest)" : "", o.suitable ? "" : " (not suitable)"),
        h("td", {class: "n"}, o.estimated ? est(usd(o.total_usd, 0), "estimated price") : usd(o.total_usd, 0)),
        h("td", {class: "n"}, usd(o.usd_per_hour, 3)), h("td", {class: "n"}, usd(o.usd_per_used_hour, 3)),
        h("td", {class: "n"}, usd(o.upfront_usd, 0)),
        h("td", {class: "n"}, o.break_even_utilization == null ? "–" : pct(o.break_even_utilization)),
        h("td", {class: o.price_stale ? "stale" : ""}, o.price_date || "–"),
        h("td", {class: "wrap"}, o.note || "")))))),
    unpriced.length ? h("details", {}, h("summary", {}, `Not priced (${unpriced.length})`), h("ul", {}, unpriced.map((o) => h("li", {}, `${o.option}: ${o.note}`)))) : null,
    pr.notes && pr.notes.length ? h("ul", {class: "notes"}, pr.notes.map((n) => h("li", {}, n))) : null,
    h("p", {class: "key"}, "Break-even use: the share of the month an instance must run for the commitment to cost less than on-demand."));
}
async function runPricing(form, v) {
  const t = begin("pricing", "Pricing…");
  const out = $("#pricing-out");
  try {
    const pr = await api("/v1/pricing", v);
    if (!current("pricing", t)) return;
    const u = pr.usage;
    out.append(h("h3", {}, `${pr.instance_type} × ${u.instances} in ${pr.region}: ${num(u.hours_per_month, 1)} h per month for ${num(u.months, 1)} month(s) (${pct(u.utilization)} use)`), pricingTable(pr));
    setStatus("pricing", `${pr.options.filter((o) => o.priced).length} priced option(s); cheapest ${pr.cheapest || "none"}`);
    // Break-even chart: the server prices the same pattern at other hours per month.
    if (v.hours !== undefined) {
      out.append(h("p", {class: "small"}, "One continuous run (hours): no hours-per-month chart."));
      return;
    }
    const grid = [20, 50, 100, 150, 200, 300, 400, 500, 600, 730];
    const runs = await Promise.all(grid.map((hpm) => api("/v1/pricing", {...v, "hours-per-month": hpm}).catch(() => null)));
    if (!current("pricing", t)) return;
    const names = pr.options.filter((o) => o.priced).map((o) => o.option);
    await chartFigure(out, {
      caption: `Total cost (USD) of each priced option against hours used per month, ${pr.instance_type} × ${u.instances}, ${num(u.months, 1)} month(s); where a commitment's line crosses on-demand it breaks even`,
      x: grid, xLabel: "hours used per month", yLabel: "USD",
      series: names.map((n) => ({label: n, values: runs.map((r) => (r ? (r.options.find((o) => o.option === n) || {}).total_usd ?? null : null))}))});
  } catch (err) {
    fail("pricing", t, err);
  }
}
formView("pricing", {
  build(form) {
    form.dataset.submit = "Price it";
    const fields = bodyFields("/v1/pricing");
    form.replaceChildren(h("div", {class: "group"}, fields.map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f, f.name === "type" ? {datalist: "dl-types", placeholder: "p5.48xlarge"} : {});
    })), h("div", {class: "actions"}, h("button", {type: "submit"}, "Price it")));
  },
  run: runPricing,
});

// ---- estimate ----
const MEM_PARTS = [["weights_gib", "weights"], ["gradients_gib", "gradients"], ["optimizer_gib", "optimizer"], ["activations_gib", "activations"], ["kv_cache_gib", "KV cache"], ["working_set_gib", "working set"], ["overhead_gib", "overhead"]];
function memoryBar(m) {
  const parts = MEM_PARTS.filter(([k]) => m[k] > 0).map(([k, label], i) => ({label, gib: m[k], color: COLORS[i % COLORS.length]}));
  const total = m.total_gib || parts.reduce((s, p) => s + p.gib, 0);
  const scale = Math.max(total, m.device_gib || 0) || 1;
  return h("figure", {class: "membar"},
    h("div", {class: "bar", role: "img", "aria-label": `Memory per device: ${num(total, 1)} GiB of ${num(m.device_gib, 1)} GiB`},
      parts.map((p) => h("span", {class: "seg", style: `width:${(100 * p.gib) / scale}%;background:${p.color}`, title: `${p.label} ${num(p.gib, 1)} GiB`})),
      m.device_gib ? h("span", {class: "cap", style: `left:${(100 * m.device_gib) / scale}%`, title: "device memory"}) : null),
    h("figcaption", {}, `Memory per device: ≈${num(total, 1)} GiB of ${num(m.device_gib, 1)} GiB device memory (the line); ${m.fits ? "fits" : "does NOT fit"}. `,
      parts.map((p) => h("span", {class: "k"}, h("i", {class: "sw", style: `background:${p.color}`}), `${p.label} ${num(p.gib, 1)} GiB`))));
}
function bandOf(e, metric) {
  return ((e.uncertainty && e.uncertainty.bands) || []).find((b) => b.metric === metric);
}
function estimateSummary(e) {
  const band = (metric, f) => {
    const b = bandOf(e, metric);
    return b ? ` (${f(b.low)} – ${f(b.high)})` : "";
  };
  const why = `model estimate, confidence ${e.confidence ? e.confidence.grade : "?"}; the range is its uncertainty band`;
  const c = e.cost || {}, p = e.performance || {}, tg = e.targets || {};
  const hours = (x) => `${num(x, x < 10 ? 2 : 1)} h`;
  return dl([
    ["Hardware", `${e.hardware.instances} × ${e.hardware.instance_type || ""} (${e.hardware.gpus} × ${e.hardware.gpu})`],
    [tg.service ? "Runs" : "Time", e.time && e.time.hours != null ? est(hours(e.time.hours) + band("time.hours", hours), why) : "–"],
    ["Cost on-demand", c.on_demand_usd != null ? est(usd(c.on_demand_usd) + band("cost.on_demand_usd", usd), why) : "–"],
    ["Cost spot", c.spot_usd != null ? est((c.spot_estimated ? "~" : "") + usd(c.spot_usd) + band("cost.spot_usd", usd), why + (c.spot_estimated ? "; ~ estimated spot price" : "")) : "–"],
    ["Prices", `${c.region}: on-demand ${usd(c.on_demand_usd_per_hour, 3)}/h (${c.on_demand_date || "–"}), spot ${usd(c.spot_usd_per_hour, 3)}/h (${c.spot_date || "–"})`],
    ["Throughput", p.tokens_per_s ? est(`${num(p.tokens_per_s)} tokens/s` + band("performance.tokens_per_s", (x) => num(x)), why) : p.images_per_s ? est(`${num(p.images_per_s)} images/s`, why) : null],
    ["MFU", p.mfu != null ? est(pct(p.mfu, 1), why) : null],
    ["TTFT / ITL", p.ttft_ms != null ? est(`${num(p.ttft_ms, 1)} ms / ${num(p.itl_ms, 1)} ms`, why) : null],
    ["Targets", tg.service ? `demand ${tg.demand_met ? "met" : "NOT met"}, latency targets ${tg.slo_met ? "met" : "NOT met"}${tg.instances_needed ? `; ${tg.instances_needed} instance(s) needed` : ""}` : null],
    ["Parallelism", e.parallelism ? Object.entries(e.parallelism).filter(([k]) => k !== "chosen").map(([k, v]) => `${k} ${v}`).join(", ") : null],
    ["Confidence", e.confidence ? `${e.confidence.grade}: ${e.confidence.basis}` : null]]);
}
async function runEstimate(form, v) {
  const t = begin("estimate", "Estimating…");
  const out = $("#estimate-out");
  try {
    const e = await api("/v1/estimate", v);
    if (!current("estimate", t)) return;
    out.append(h("h3", {}, `${e.task} ${e.model ? e.model.name || "" : ""} on ${e.hardware.instance_type || e.hardware.gpu}`), e.memory ? memoryBar(e.memory) : null, estimateSummary(e),
      h("h4", {}, "Assumptions"), h("ul", {class: "notes"}, (e.assumptions || []).map((a) => h("li", {class: a.startsWith("warning: ") ? "warn" : ""}, a))),
      h("p", {class: "key"}, "≈ marks a model estimate; the range after it is the uncertainty band of that figure."));
    setStatus("estimate", `Estimated; prices of ${e.provenance ? e.provenance.price_date : "–"}${e.provenance && e.provenance.price_stale ? " (older than the freshness limit)" : ""}`);
  } catch (err) {
    fail("estimate", t, err);
  }
}
const HW_FIELDS = ["instance", "count", "gpu", "gpus", "region"];
formView("estimate", {
  build(form) {
    form.dataset.submit = "Estimate";
    const fields = bodyFields("/v1/estimate");
    const hw = fields.filter((f) => HW_FIELDS.includes(f.name)).map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f, f.name === "instance" ? {datalist: "dl-types", placeholder: "p5.48xlarge"} : f.name === "gpu" ? {datalist: "dl-gpus"} : {});
    });
    workloadForm(form, fields, {before: hw});
  },
  run: runEstimate,
});

// ---- compare ----
async function runCompare(form, v) {
  const t = begin("compare", "Estimating each type…");
  const out = $("#compare-out");
  const types = String(v.types || "").split(/[\s,]+/).filter(Boolean);
  try {
    if (types.length < 2 || types.length > 4) throw new ApiError(`types: expected 2 to 4 instance types, got ${types.length}`, "types");
    const body = {...v};
    delete body.types;
    const res = await Promise.all(types.map((ty) => api("/v1/estimate", {...body, instance: ty}).catch((e) => e)));
    if (!current("compare", t)) return;
    const errs = res.filter((r) => r instanceof Error);
    // The same workload error for every type belongs to the form, not to one column.
    if (errs.length === res.length && errs.every((e) => e.message === errs[0].message)) throw errs[0];
    const why = "model estimate; range = uncertainty band";
    const cell = (r, f) => (r instanceof Error ? h("span", {class: "error"}, r.message) : f(r));
    const bandTxt = (r, m, f) => {
      const b = bandOf(r, m);
      return b ? ` (${f(b.low)}–${f(b.high)})` : "";
    };
    const rowsDef = [
      ["Accelerators", (r) => `${r.hardware.gpus} × ${r.hardware.gpu}`],
      ["Memory per device", (r) => (r.memory ? `≈${num(r.memory.total_gib, 1)} of ${num(r.memory.device_gib, 1)} GiB${r.memory.fits ? "" : " (does not fit)"}` : "–")],
      ["Time", (r) => (r.time && r.time.hours != null ? est(`${num(r.time.hours, 2)} h${bandTxt(r, "time.hours", (x) => num(x, 2))}`, why) : "–")],
      ["Cost on-demand", (r) => (r.cost.on_demand_usd != null ? est(usd(r.cost.on_demand_usd) + bandTxt(r, "cost.on_demand_usd", usd), why) : "–")],
      ["Cost spot", (r) => (r.cost.spot_usd != null ? est((r.cost.spot_estimated ? "~" : "") + usd(r.cost.spot_usd), why) : "–")],
      ["$/h on-demand", (r) => `${usd(r.cost.on_demand_usd_per_hour, 3)} (${r.cost.on_demand_date || "–"})`],
      ["Throughput", (r) => (r.performance.tokens_per_s ? est(`${num(r.performance.tokens_per_s)} tok/s`, why) : r.performance.images_per_s ? est(`${num(r.performance.images_per_s)} img/s`, why) : "–")],
      ["Parallelism", (r) => `tp ${r.parallelism.tp}, pp ${r.parallelism.pp}, dp ${r.parallelism.dp}`],
      ["Confidence", (r) => (r.confidence ? r.confidence.grade : "–")]];
    const ok = res.filter((r) => !(r instanceof Error) && r.cost && r.cost.on_demand_usd != null);
    const best = ok.length ? ok.reduce((a, b) => (b.cost.on_demand_usd < a.cost.on_demand_usd ? b : a)) : null;
    out.append(h("div", {class: "scroll short"}, h("table", {class: "compare"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Figure"), types.map((ty) => h("th", {scope: "col"}, h("a", {href: "?" + new URLSearchParams({view: "instance", type: ty, region: v.region || "us-east-1"})}, ty))))),
      h("tbody", {}, rowsDef.map(([label, f]) => h("tr", {}, h("th", {scope: "row"}, label), res.map((r) => h("td", {class: r === best ? "sel" : ""}, cell(r, f)))))))),
    h("p", {class: "key"}, "≈ marks a model estimate, ~ an estimated spot price; the highlighted column is the cheapest on-demand."));
    setStatus("compare", `${res.length - errs.length} of ${types.length} type(s) estimated` + (best ? `; cheapest on-demand: ${best.hardware.instance_type}` : "; none could run this workload: see each column"), best ? "" : "empty");
  } catch (err) {
    fail("compare", t, err);
  }
}
formView("compare", {
  build(form) {
    form.dataset.submit = "Compare";
    const fields = bodyFields("/v1/estimate");
    const types = fieldElement({name: "types", type: "text", required: true, help: "2 to 4 instance types, comma-separated, e.g. p5.48xlarge, p4d.24xlarge"}, {datalist: "dl-types", label: "Instance types"});
    const hw = fields.filter((f) => ["count", "region"].includes(f.name)).map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f);
    });
    workloadForm(form, fields, {before: [types, ...hw]});
  },
  run: runCompare,
});

// ---- recommend ----
function renderPlans(out, rec, service) {
  const plans = h("ol", {class: "plans"});
  for (const p of rec.plans) {
    const e = p.estimate || {};
    const perf = e.performance || {};
    const list = (items, cls) => (items && items.length ? h("ul", {class: cls}, items.map((x) => h("li", {}, x))) : null);
    const savings = (p.savings || []).map((s) => `saving: ${s.lever} ${Math.round(s.saving * 100)}% — ${s.detail} (${s.tradeoff})`);
    const fmt = h("select", {class: "launch-format", "aria-label": `Launch spec format for plan ${p.rank}`},
      [["aws-cli", "AWS CLI script"], ["cloudformation", "CloudFormation"], ["terraform", "Terraform"], ["skypilot", "SkyPilot"]].map(([val, l]) => h("option", {value: val}, l)));
    const note = h("p", {class: "small launch-note", role: "status"});
    plans.append(h("li", {},
      h("h3", {}, `#${p.rank} `, h("a", {href: "?" + new URLSearchParams({view: "instance", type: p.instance_type, region: p.region})}, p.instance_type), ` × ${p.instances} (${p.purchase}, ${p.region})`),
      // A service is judged per hour (its "run" is one hour): no time or run cost to show.
      h("div", {class: "figs"}, service ? null : [est(`${num(p.time_hours, 2)} h`), " · ", est(usd(p.cost_usd)), " · "], `${usd(p.usd_per_hour)}/h · ${p.gpus} × ${p.gpu_model} · ≈${num(p.memory_per_gpu_gib, 1)} of ${num(p.device_gib, 1)} GiB per GPU · price ${p.price_source} ${p.price_date}` +
        (p.deadline_miss_probability != null ? ` · deadline miss probability ${pct(p.deadline_miss_probability)}` : "") + (p.confidence ? ` · confidence ${p.confidence}` : "")),
      list(p.why, "why"), list(p.warnings, "warn"),
      h("div", {class: "launch"}, h("label", {}, "Launch spec ", fmt), h("button", {type: "button", onclick: () => downloadLaunch(p, fmt.value, note)}, "Download")), note,
      h("details", {}, h("summary", {}, "Advice, savings and the estimate"), list(p.advice, "advice"), list(savings, "savings"),
        h("p", {class: "figs"}, `parallelism: ${Object.entries(p.parallelism || {}).map(([k, x]) => `${k} ${x}`).join(", ")}; tokens/s ≈${num(perf.tokens_per_s)}; MFU ≈${perf.mfu == null ? "–" : pct(perf.mfu, 1)}; TTFT ≈${num(perf.ttft_ms, 1)} ms; ITL ≈${num(perf.itl_ms, 1)} ms`))));
  }
  const rej = h("details", {class: "rejected"}, h("summary", {}, `Left out (${rec.rejected.length})`), h("ul", {}, rec.rejected.map((r) => h("li", {}, h("b", {}, r.instance_type), ": ", r.reason))));
  if (!rec.plans.length) rej.open = true;
  const notes = [rec.confidence_note, rec.high_confidence_alternative && rec.high_confidence_alternative.note].filter((x) => typeof x === "string" && x);
  out.append(plans, notes.length ? h("ul", {class: "notes"}, notes.map((n) => h("li", {}, n))) : null, rej);
}
async function downloadLaunch(plan, format, note) {
  note.textContent = "Building the launch spec…";
  try {
    const spec = await api("/v1/launch", {plan, format});
    const a = h("a", {href: URL.createObjectURL(new Blob([spec.document], {type: "text/plain"})), download: spec.file_name});
    document.body.append(a);
    a.click();
    a.remove();
    // The launch spec carries the obtainability notes (vCPU quota, Capacity Block reservation).
    note.replaceChildren(`Downloaded ${spec.file_name}.`, spec.warnings.length ? h("ul", {class: "warn"}, spec.warnings.map((w) => h("li", {}, w))) : " No warnings.");
  } catch (err) {
    note.textContent = err.message;
  }
}
async function runRecommend(form, v) {
  const t = begin("recommend", "Searching…");
  const out = $("#recommend-out");
  try {
    const rec = await api("/v1/recommend", v);
    if (!current("recommend", t)) return;
    const filters = rec.filters || {};
    const lists = (filters.lists || []).map((l) => `${l.option} ${l.values.join(",")}`).join("; ");
    const applied = lists ? `; filters: ${lists} (${filters.types_left} of ${filters.types_in_catalog} instance types)` : "";
    if (filters.emptied_by) {
      setStatus("recommend", `No plan: ${filters.note}. Relax ${filters.emptied_by}.`, "empty");
      showFieldError(form, filters.emptied_by, `${filters.note}`);
      return;
    }
    if (!rec.plans.length) {
      setStatus("recommend", `No feasible plan among ${num(rec.candidates_evaluated)} configurations: the reasons are under “Left out”; relax the deadline, budget, regions or purchase options, or allow more instances${applied}.`, "empty");
      renderPlans(out, rec, false);
      return;
    }
    setStatus("recommend", `${rec.plans.length} plan(s); ${num(rec.candidates_evaluated)} configurations estimated; prices ${rec.catalog.date}${applied}`);
    const service = rec.plans.every((p) => Math.abs(p.time_hours - rec.plans[0].time_hours) < 1e-9);
    const chartBox = h("div", {});
    out.append(chartBox);
    renderPlans(out, rec, service);
    const task = v.task || "the job";
    if (service) {
      const pts = rec.plans.filter((p) => p.estimate && p.estimate.performance && p.estimate.performance.itl_ms).sort((a, b) => a.estimate.performance.itl_ms - b.estimate.performance.itl_ms);
      await chartFigure(chartBox, {caption: `${task}: cost per hour (USD) against inter-token latency (ms) of the ranked plans`, points: true,
        x: pts.map((p) => p.estimate.performance.itl_ms), xLabel: "ITL, ms", yLabel: "USD/h", series: [{label: "ranked plans", values: pts.map((p) => p.usd_per_hour)}]});
    } else {
      const xs = [...new Set(rec.plans.map((p) => p.time_hours).concat(rec.pareto.map((p) => p.time_hours)))].sort((a, b) => a - b);
      const at = (arr, x) => (arr.find((p) => p.time_hours === x) || {}).cost_usd ?? null;
      await chartFigure(chartBox, {caption: `${task}: cost of the run (USD, log) against its wall-clock time (hours, log)`, x: xs, logX: true, logY: true, xLabel: "hours", yLabel: "USD",
        series: [{label: "Pareto front", values: xs.map((x) => at(rec.pareto, x)), color: "#d9480f"}, {label: "ranked plans", values: xs.map((x) => at(rec.plans, x)), color: "#0b5cad"}]});
    }
  } catch (err) {
    fail("recommend", t, err);
  }
}
formView("recommend", {
  build(form) {
    form.dataset.submit = "Recommend";
    const fields = bodyFields("/v1/recommend");
    const opts = fields.filter((f) => !f.tasks);
    const lists = opts.filter((f) => /^(only|exclude)-/.test(f.name) || f.name === "allow-retired");
    const search = opts.filter((f) => !lists.includes(f));
    const dlFor = (n) => (/gpu/.test(n) ? {datalist: "dl-gpus"} : /instance/.test(n) ? {datalist: "dl-types"} : /family/.test(n) ? {datalist: "dl-families"} : {});
    workloadForm(form, fields, {
      before: search.map((f) => fieldElement(f, f.name === "regions" ? {datalist: "dl-regions", placeholder: "us-east-1, all"} : {})),
      after: [h("fieldset", {class: "lists"}, h("legend", {}, "Allow and deny lists"), lists.map((f) => fieldElement(f, dlFor(f.name))))]});
  },
  run: runRecommend,
});

// ---- idle ----
function idleFiles() {
  return idleDropped.length ? idleDropped : [...$("#idle-files").files];
}
let idleDropped = [];
async function runIdle(form, v) {
  const t = begin("idle", "Analysing…");
  const out = $("#idle-out");
  try {
    const files = idleFiles();
    if (!files.length) throw new ApiError("body: choose or drop one or more telemetry files", "body");
    const reports = [];
    for (const file of files) {  // one request per file: each file is one host unless it names its own
      const q = new URLSearchParams(v);
      if (!v.host) q.set("host", file.name.replace(/\.[^.]*$/, ""));
      const type = /\.xml$/i.test(file.name) ? "application/xml" : /\.json$/i.test(file.name) ? "application/json" : "text/csv";  // the server sniffs CSV from Prometheus text
      try {
        reports.push(await api("/v1/idle?" + q, await file.text(), type));
      } catch (e) {
        e.message = `${file.name}: ${e.message}`;
        throw e;
      }
      if (!current("idle", t)) return;
    }
    const hosts = reports.flatMap((r) => r.instances);
    const waste = reports.reduce((s, r) => s + (r.total_wasted_usd || 0), 0);
    const savings = reports.reduce((s, r) => s + (r.total_savings_usd_per_month || 0), 0);
    const hours = reports.reduce((s, r) => s + (r.hours_covered || 0), 0);
    out.append(h("h3", {}, `${hosts.length} host(s), ${num(hours, 1)} h of telemetry: ${usd(waste)} spent on idle GPUs; rightsizing saves ${usd(savings)} per month`),
      h("div", {class: "scroll short"}, h("table", {},
        h("thead", {}, h("tr", {}, ["Host", "Type", "$/h", "Hours", "Idle hours", "Idle", "Avg / p95 util", "Wasted", "Advice"].map((c, i) => h("th", {scope: "col", class: i > 1 && i < 8 ? "n" : ""}, c)))),
        h("tbody", {}, hosts.map((x) => h("tr", {},
          h("th", {scope: "row"}, x.host),
          h("td", {title: x.type_note || null}, x.instance_type || "–", x.type_guessed ? " (guessed)" : ""),
          h("td", {class: "n", title: x.price_date || null}, usd(x.usd_per_hour, 3)),
          h("td", {class: "n"}, num(x.hours_covered, 1)), h("td", {class: "n"}, num(x.idle_hours, 1)),
          h("td", {class: "n"}, x.idle_fraction == null ? "–" : pct(x.idle_fraction)),
          h("td", {class: "n"}, `${num(x.avg_util_pct)} / ${num(x.p95_util_pct)} %`),
          h("td", {class: "n"}, usd(x.wasted_usd)),
          h("td", {class: "wrap"}, x.recommendation ? x.recommendation.summary : x.status_reason || "")))))),
      h("ul", {class: "notes"}, reports.flatMap((r) => [...(r.assumptions || []), ...(r.warnings || []).map((w) => "warning: " + w)]).filter((x, i, a) => a.indexOf(x) === i).map((x) => h("li", {}, x))),
      h("p", {class: "key"}, "Prices are the catalog's on-demand rates of the dates shown on hover; a guessed type is the cheapest with the GPUs seen."));
    setStatus("idle", `${files.length} file(s) analysed on this server`);
  } catch (err) {
    fail("idle", t, err);
  }
}
formView("idle", {
  build(form) {
    $("#idle-origin").textContent = location.origin;
    // File analysis only: the Prometheus options make the server query another one.
    const fields = queryFields("/v1/idle", "post").filter((f) => f.name !== "prometheus" && !/^With --prometheus/.test(f.help));
    const drop = h("div", {class: "field drop", "data-field": "body"},
      h("label", {for: "idle-files"}, "Telemetry files (drop here or choose)"),
      h("input", {id: "idle-files", type: "file", multiple: true, "aria-describedby": "idle-files-help idle-files-err", onchange: () => { idleDropped = []; dropNote(); }}),
      h("small", {id: "idle-files-help", class: "help"}, "nvidia-smi --query-gpu CSV or -q -x XML, DCGM exporter / Prometheus text, CloudWatch GetMetricData JSON"),
      h("span", {id: "idle-files-err", class: "err", role: "alert"}));
    const dropNote = () => ($("small", drop).textContent = idleFiles().map((f) => f.name).join(", ") || "nvidia-smi CSV/XML, DCGM/Prometheus text, CloudWatch JSON");
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); idleDropped = [...e.dataTransfer.files]; dropNote(); });
    form.replaceChildren(h("div", {class: "group"}, drop, fields.map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f, f.name === "instance-type" ? {datalist: "dl-types"} : {});
    })), h("div", {class: "actions"}, h("button", {type: "submit"}, "Analyse")));
  },
  run: runIdle,
  autorun: false,  // files are not in the URL
});

// ---- start ----
async function init() {
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='?']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    routeTo(new URLSearchParams(a.getAttribute("href").slice(1)));
  });
  window.addEventListener("popstate", route);
  prefetchCatalog();
  try {
    [spec, regions, gpus, catalogInfo, models] = await Promise.all([api("/v1/openapi.json"), api("/v1/regions"), api("/v1/gpus"), api("/v1/catalog"), api("/v1/models")]);
    const props = spec.paths["/v1/estimate"].post.requestBody.content["application/json"].schema.properties;
    TASKS.push(...props.task["x-tasks"]);
    ensureDatalist("dl-gpus", gpus.map((g) => g.model));
    ensureDatalist("dl-regions", ["all", ...regions]);
    $("#catalog-meta").textContent = `catalog built ${catalogInfo.generated_at.slice(0, 10)}; newest prices ${catalogInfo.newest_price_date}${catalogInfo.prices_stale ? " (older than the freshness limit)" : ""}`;
  } catch (e) {
    setStatus("catalog", `Could not load the API description: ${e.message}`, "error");
    return;
  }
  route();
  // Suggestions for the instance-type and family fields, after the first answer is on screen.
  setTimeout(() => api("/v1/instances?include-retired=true").then((types) => {
    ensureDatalist("dl-types", [...new Set(types.map((r) => r.instance_type))]);
    ensureDatalist("dl-families", [...new Set(types.map((r) => r.family))]);
  }, () => {}), 0);
}
init();
