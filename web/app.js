// gpuadvisor web page: one view per flow (catalog, instance, recommend, estimate, compare,
// pricing, idle) over the JSON API. No framework, no CDN; uPlot (vendored) loads with the first
// chart. The forms are generated from /v1/openapi.json, itself generated from the option tables
// the CLI and the Python binding walk; a workload field's x-tasks says which tasks it applies to.
// Every view's state is in the query string (?view=estimate&task=serve&...): a URL reproduces it.
// Text from the server only ever goes through textContent / attributes (h() below).
// Every string the page itself shows comes from web/i18n.js (t(), messages keyed by id); the
// language is in the URL too (&lang=zh-CN). A DOM text or attribute made from a message keeps
// its key (data-i18n, data-i18n-attrs) so the language switch can relabel it in place.
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
    else if (k === "i18n") {
      el.dataset.i18n = typeof v === "string" ? v : JSON.stringify(v);
      kids.unshift(tm(v));
    } else if (k.startsWith("i18n-")) {
      const map = JSON.parse(el.dataset.i18nAttrs || "{}");
      map[k.slice(5)] = v;
      el.dataset.i18nAttrs = JSON.stringify(map);
      el.setAttribute(k.slice(5), tm(v));
    } else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}
// A message as an element of its own (relabelled when the language changes).
const tx = (key, params, fallback) => h("span", {i18n: params || fallback ? [key, params || null, fallback] : key});
// Every element of root that carries a message key, in the page's language now.
function relabel(root = document) {
  const spec = (s) => (s.startsWith("[") || s.startsWith("{") ? JSON.parse(s) : s);
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = tm(spec(el.dataset.i18n));
  for (const el of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const [a, v] of Object.entries(JSON.parse(el.dataset.i18nAttrs))) el.setAttribute(a, tm(v));
  }
}
// A table that may be wider than the screen: a region the keyboard can scroll (focusable).
const scrollBox = (label, table) => h("div", {class: "scroll short", tabindex: "0", role: "region", "aria-label": label}, table);
// An estimated figure: ≈ in front, the explanation in a tooltip and for screen readers.
const est = (text, why) => h("span", {class: "est", title: why || t("est.model")}, "≈", text);

class ApiError extends Error {
  constructor(message, field, status) {
    super(message);
    this.field = field;
    this.status = status;
  }
}
async function api(path, body, contentType, extraHeaders) {
  // The page's language goes with every request: the server words its messages in it.
  const headers = {"Accept-Language": LANG};
  const opt = body === undefined ? {headers} : {method: "POST", headers: {...headers, "Content-Type": contentType || "application/json", ...extraHeaders}, body: contentType ? body : JSON.stringify(body)};
  const res = await fetch(path, opt);
  let data;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(t("error.notJson", {status: res.status}), null, res.status);
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
  setStatus(view, text || t("status.working"), "busy");
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
  setStatus(view, placed ? t("error.seeField", {message: err.message, field: err.field}) : err.message, "error");
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
const VALUE_HINT = {N: "hint.number", DUR: "hint.duration", GIB: "hint.gib", MB: "hint.mb", PX: "hint.pixels", X: "hint.fraction"};

function describeField(name, schema, required) {
  const d = parseDescription(schema.description);
  const f = {name, required, help: d.help, lo: d.lo ?? schema.minimum, hi: d.hi ?? schema.maximum, unit: d.unit, def: d.def ?? schema.default, tasks: schema["x-tasks"], value: schema["x-value"]};
  if (schema["x-label"]) specLabels[name] = schema["x-label"];
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
  if (f.type === "text" && /A duration/.test(schema.description || "")) f.unit = f.unit || "hint.duration";
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
// The English labels of the options: their declarations' (x-label in /v1/openapi.json, "ITL p95",
// "Storage bandwidth"), so a new option reads well without an entry here.
const specLabels = {};
const labelOf = (name) => specLabels[name] || name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, " ");
// An option's label: the message field.NAME of the page's language (Chinese), else the
// declaration's English label.
const fieldLabel = (name) => ["field." + name, null, labelOf(name)];

let fieldSeq = 0;
function fieldElement(f, opts = {}) {
  const id = `f${++fieldSeq}-${f.name}`;
  const helpId = id + "-help", errId = id + "-err";
  const common = {id, name: f.name, "aria-describedby": `${helpId} ${errId}`, title: f.helpKey ? null : f.help || null, "i18n-title": f.helpKey || null};
  let input;
  const hint = [f.unit ? (f.unit.startsWith("hint.") ? f.unit : ["hint.unit", {unit: f.unit}]) : null, f.lo !== undefined && f.hi !== undefined ? ["hint.range", {lo: f.lo, hi: f.hi}] : null,
    f.def !== undefined ? ["hint.default", {def: f.def}] : null].filter(Boolean);
  // A choice's label: a purchase option in words, anything else (task, GPU, format) as named.
  const choice = (c) => (f.name === "purchase" ? h("span", {i18n: {purchase: c}, title: c}) : c);
  if (f.type === "bool") {
    input = h("select", common, h("option", {value: "", i18n: "choice.default"}), h("option", {value: "true", i18n: "choice.yes"}), h("option", {value: "false", i18n: "choice.no"}));
  } else if (f.type === "enum" || f.type === "task") {
    const choices = f.type === "task" ? TASKS : f.choices;
    const named = f.name === "region";  // a region by its name too: cn-north-1 · 中国（北京）
    input = h("select", common, f.type === "task" ? null : h("option", {value: "", i18n: f.def ? ["choice.defaultIs", {def: f.def}] : "choice.default"}), choices.map((c) => h("option", {value: c, i18n: named ? {region: c} : null}, named ? null : c)));
  } else if (f.type === "checks") {
    const box = h("fieldset", {class: "field checks", "data-field": f.name, "aria-describedby": `${helpId} ${errId}`},
      h("legend", {i18n: opts.label || fieldLabel(f.name)}),
      f.choices.map((c) => h("label", {}, h("input", {type: "checkbox", name: f.name, value: c}), choice(c))),
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
    h("label", {for: id}, h("span", {i18n: opts.label || fieldLabel(f.name)}), hint.length ? h("span", {class: "unit"}, " (", hint.map((x, i) => [i ? "; " : "", h("span", {i18n: x})]), ")") : null, f.required ? " *" : ""),
    input,
    h("small", {id: helpId, class: "help"}, f.helpKey ? h("span", {i18n: f.helpKey}) : f.help, f.type === "list" ? h("span", {i18n: "hint.commaSeparated"}) : null),
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
        throw new ApiError(t("error.notJsonFile", {name, file: file.name, error: e.message}), name);
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
// The URL of a view's state: its query plus the page's language (a shared link keeps both).
function setUrl(q, replace) {
  q = new URLSearchParams(q);
  q.delete("lang");
  q.set("lang", LANG);
  const url = "?" + q.toString();
  if (location.search === url) return;
  history[replace ? "replaceState" : "pushState"](null, "", url);
}

// The workload part of a form: task first, the fields of that task, the rest in a closed group.
const LLM_ALL = "pretrain finetune lora qlora serve";
function workloadForm(form, fields, {before = [], after = []} = {}) {
  const workload = fields.filter((f) => f.tasks);
  const byName = Object.fromEntries(workload.map((f) => [f.name, f]));
  const taskBox = fieldElement({...byName.task, helpKey: "help.task"}, {label: "label.task"});
  const modelBox = fieldElement(byName.model, {label: "label.model", datalist: "dl-models", placeholder: "llama-3.1-8b"});
  const configBox = fieldElement(byName["model-config"], {label: "label.modelConfig"});
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
  const moreBox = h("details", {class: "more"}, h("summary", {}), more);
  form.replaceChildren(...[
    h("div", {class: "group"}, taskBox, modelBox, configBox, before),
    main, moreBox,
    after.length ? h("div", {class: "group"}, after) : null,
    h("div", {class: "actions"}, h("button", {type: "submit", i18n: form.dataset.submit || "button.go"})),
  ].filter(Boolean));
  const task = $("select", taskBox);
  const sync = () => {
    const chosen = task.value;
    for (const box of $$(".field[data-tasks]", form)) {
      if (box.dataset.field === "task") continue;
      box.hidden = !box.dataset.tasks.split(" ").includes(chosen);
    }
    ensureDatalist("dl-models", models.filter((m) => m.tasks.includes(chosen)).map((m) => m.name));
    $("summary", moreBox).textContent = t("form.more", {task: chosen, n: $$(".field:not([hidden])", more).length});
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
      document.head.append(h("script", {src: "/vendor/uplot/uPlot.iife.min.js", onload: resolve, onerror: () => reject(new Error(t("error.chartLibrary")))}));
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
  // The language is the page's, not the view's: each view sees its own state only; the URL
  // says the language shown (a step back past a switch keeps the language chosen since).
  if (q.get("lang") !== LANG) setUrl(q, true);
  q.delete("lang");
  const name = views[q.get("view")] ? q.get("view") : "catalog";
  for (const sec of $$("main > section")) sec.hidden = sec.id !== "view-" + name;
  for (const a of $$("nav a")) {
    if (a.dataset.view === name || (name === "instance" && a.dataset.view === "catalog")) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = t("page.title", {view: t("view." + name)});
  views[name].enter(q);
}
// A view with a form: URL parameters beyond view= fill the form and run it (a shared link
// reproduces the answer); a bare ?view=X shows the form as left. An answer shown in another
// language than the page's (the switch was used) is asked for again, from the values it
// answered (not the form's edits since).
function formView(name, {build, run, autorun = true}) {
  const form = $(`#${name}-form`);
  let built = false;
  let answered = null;  // {values, lang} of the answer on screen
  const go = (values) => {
    answered = {values, lang: LANG};
    run(form, values);
  };
  views[name] = {
    relocalize() {
      if (answered && answered.lang !== LANG) go(answered.values);
    },
    enter(q) {
      if (!built) {
        build(form);
        built = true;
        form.addEventListener("submit", async (e) => {
          e.preventDefault();
          // The old answer goes at once, before the (maybe slow) file reading and the request.
          $(`#${name}-out`).replaceChildren();
          setStatus(name, t("status.working"), "busy");
          let values;
          try {
            values = await collect(form);
          } catch (err) {
            const tok = begin(name);
            return fail(name, tok, err);
          }
          const query = toQuery(name, values);
          setUrl(query);
          lastRun[name] = query.toString();
          go(values);
        });
      }
      const params = [...q.keys()].filter((k) => k !== "view");
      if (params.length && q.toString() !== lastRun[name]) {
        fill(form, q);
        if (form.syncTask) form.syncTask();
        lastRun[name] = q.toString();
        if (autorun) collect(form).then(go, (err) => fail(name, begin(name), err));
        return;
      } else if (!params.length && lastRun[name]) {
        setUrl(new URLSearchParams(lastRun[name]), true);
      }
      views[name].relocalize();
    },
  };
}

// ---- catalog ----
const catalog = {rows: [], sort: "price", desc: false};
// Price columns (money: true) hold amounts in each row's currency: the header names the one
// currency when all rows share it (cells are bare numbers), else each cell shows its own and
// the column sorts by currency, then amount.
// A count of accelerators: whole ones as integers ("1", not "1.000"), a fractional GPU (g6f: an
// eighth of an L4) with its digits.
const gpuCount = (v) => (missing(v) ? "–" : Number.isInteger(v) ? num(v) : num(v, 3).replace(/0+$/, ""));
function catalogColumns(rows = catalog.rows) {
  const gpu = (new URLSearchParams(location.search).get("basis") || $("#c-basis").value) === "gpu";
  const per = (r, v) => (v == null ? null : gpu ? v / Math.max(r.accelerator.count || 0, 1e-9) : v);
  const currencies = [...new Set(rows.map(currencyOf))];
  const cur = currencies.length === 1 ? currencies[0] : null;
  const priceLabel = (kind) => t(`catalog.col.${gpu ? "perGpuHour" : "perHour"}${cur ? "" : "Any"}`, {kind: t("purchase." + kind), currency: cur ? currencySymbol(cur) : ""});
  const cols = [
    {key: "type", label: t("catalog.col.type"), get: (r) => r.instance_type},
    {key: "price", label: priceLabel("on-demand"), n: 3, money: true, mixed: !cur, get: (r) => per(r, priceOf(r, "on_demand_usd_per_hour"))},
    {key: "spot", label: priceLabel("spot"), n: 3, money: true, mixed: !cur, get: (r) => per(r, priceOf(r, "spot_usd_per_hour"))},
    {key: "region", label: t("catalog.col.region"), get: (r) => r.region, all: true},
    {key: "gpu", label: t("catalog.col.accelerator"), get: (r) => r.accelerator.model},
    {key: "gpus", label: t("catalog.col.gpus"), n: 0, get: (r) => r.accelerator.count, show: gpuCount},
    {key: "mem", label: t("catalog.col.gibPerGpu"), n: 1, get: (r) => (r.accelerator.memory_mib_each == null ? null : r.accelerator.memory_mib_each / 1024)},
    {key: "date", label: t("catalog.col.priceDate"), get: (r) => r.price_date, show: date},
    {key: "vcpus", label: t("catalog.col.vcpus"), n: 0, get: (r) => r.vcpus, wide: true},
    {key: "ram", label: t("catalog.col.ram"), n: 0, get: (r) => r.memory_gib, wide: true},
    {key: "net", label: t("catalog.col.net"), n: 0, get: (r) => r.network_gbit_s, wide: true},
    {key: "efa", label: t("catalog.col.efa"), get: (r) => (r.efa ? t("choice.yes") : ""), wide: true},
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
  const text = h("div", {class: "field", "data-field": "q"}, h("label", {for: "c-text", i18n: "catalog.nameContains"}), h("input", {id: "c-text", name: "q", type: "search", placeholder: "xlarge"}), h("span", {class: "err"}));
  const basis = h("div", {class: "field", "data-field": "basis"}, h("label", {for: "c-basis", i18n: "catalog.pricePer"}),
    h("select", {id: "c-basis", name: "basis"}, h("option", {value: "instance", i18n: "catalog.instanceHour"}), h("option", {value: "gpu", i18n: "catalog.gpuHour"})), h("span", {class: "err"}));
  // On a phone the filters start closed, so the table (and its prices) is on the first screen.
  form.classList.add("compact");
  form.replaceChildren(h("details", {class: "filters", open: matchMedia("(min-width: 700px)").matches},
    h("summary", {i18n: "catalog.filters"}), h("div", {class: "group"}, boxes, text, basis)));
  $("select[name=region]", form).value = "us-east-1";
  let timer;
  form.addEventListener("input", (e) => {
    if (e.target.name === "region") followCurrency(form);
    const values = catalogValues();
    setUrl(toQuery("catalog", values), true);
    lastRun.catalog = toQuery("catalog", values).toString();
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
  for (const k of ["view", "q", "basis", "lang"]) q.delete(k);
  if (!q.has("region")) q.set("region", "us-east-1");
  const order = new URLSearchParams();
  for (const [k, v] of q) order.append(k, v);
  catalogPrefetch = {query: order.toString(), rows: api("/v1/instances?" + order)};
  catalogPrefetch.rows.catch(() => {});
}
// "Max price" is in the currency of the region's prices (CNY/h in AWS China; USD/h with all):
// its unit, the declaration's "USD/h", follows the region chosen.
function followCurrency(form) {
  const select = $("select[name=region]", form);
  if (!select) return;
  const currency = select.value === "all" ? "USD" : regionCurrency(select.value);
  for (const span of $$('.field[data-field="max-price"] .unit [data-i18n]', form)) {
    if (!span.dataset.i18n.startsWith("[")) continue;
    const spec = JSON.parse(span.dataset.i18n);
    if (spec[0] !== "hint.unit") continue;
    spec[1].unit = spec[1].unit.replace(/^[A-Z]{3}(?=\/)/, currency);
    span.dataset.i18n = JSON.stringify(spec);
    span.textContent = tm(spec);
  }
}
async function loadCatalog() {
  followCurrency($("#catalog-form"));
  const seq = ++catalogSeq;
  const q = new URLSearchParams(catalogValues());
  q.delete("q");
  q.delete("basis");
  clearFieldErrors($("#catalog-form"));
  setStatus("catalog", t("status.loading"), "busy");
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
  const text = $("#c-text").value.trim().toLowerCase();
  const rows = catalog.rows.filter((r) => !text || r.instance_type.includes(text));
  const cols = catalogColumns(rows);
  const col = cols.find((c) => c.key === catalog.sort) || cols[0];
  rows.sort((a, b) => {
    const x = col.get(a), y = col.get(b);
    if (col.money) {
      const c = compareMoney({amount: x, currency: currencyOf(a)}, {amount: y, currency: currencyOf(b)});
      return catalog.desc && x != null && y != null ? -c : c;
    }
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
      const shown = c.mixed ? money(v, currencyOf(r), c.n) : c.show ? c.show(v) : c.n !== undefined ? num(v, c.n) : v ?? "–";
      const title = c.key === "date" ? `${r.price_source || ""}${r.price_stale ? t("note.stale") : ""}` : c.key === "spot" && r.spot_estimated ? t("note.spotEstimated") : null;
      return h("td", {class: cls, title}, c.key === "spot" && r.spot_estimated && v != null ? "~" : "", shown);
    }));
  }));
  if (!performance.getEntriesByName("catalog-rows").length) performance.mark("catalog-rows");  // bench/web_bench.js
  const retired = $("#catalog-form [name=include-retired]").value === "true";
  const total = catalogInfo ? (retired ? catalogInfo.counts.instance_types : catalogInfo.counts.current) : null;
  if (rows.length) {
    const counts = {shown: num(rows.length), of: num(catalog.rows.length), region};
    setStatus("catalog", t(region === "all" ? "catalog.status.allRegions" : "catalog.status.region", counts) + (total ? t("catalog.status.holds", {total: num(total)}) : "") + t("catalog.status.open"));
  } else {
    const active = Object.entries(catalogValues()).filter(([k]) => k !== "region" && k !== "basis").map(([k, v]) => `${tm(k === "q" ? "catalog.nameContains" : fieldLabel(k))} ${v}`);
    setStatus("catalog", t(total ? "catalog.empty.of" : "catalog.empty", {total: num(total)}) +
      (active.length ? t("catalog.empty.relax", {filters: active.join(t("list.semicolon"))}) : t("catalog.empty.region", {region})), "empty");
  }
}
views.catalog = {
  relocalize() {
    if (catalog.rows.length || $("#catalog-status").classList.contains("empty")) renderCatalog();
    else if ($("#catalog-form").childElementCount) loadCatalog();  // an error: the server words it again
  },
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
  const tok = begin("instance", t("instance.loading", {type: v.type || ""}));
  const out = $("#instance-out");
  try {
    if (!v.type) throw new ApiError(t("instance.typeRequired"), "type");
    const region = v.region || "us-east-1";
    const [d, pr] = await Promise.all([
      api(`/v1/instances/${encodeURIComponent(v.type)}?` + new URLSearchParams({region})),
      api("/v1/pricing", {type: v.type, region}).catch((e) => e)]);
    if (!current("instance", tok)) return;
    const a = d.accelerator, g = d.gpu_spec || {};
    const tf = (x) => t("unit.tflops", {v: num(x, 1)});
    out.append(h("h3", {}, d.instance_type, d.retired ? t("instance.retired") : ""),
      h("div", {class: "cols"},
        h("section", {}, h("h4", {}, t("instance.specs")), dl([[t("instance.accelerator"), `${num(a.count)} × ${a.model} (${a.vendor})`], [t("instance.memoryEach"), a.memory_mib_each ? t("unit.gib", {v: num(a.memory_mib_each / 1024, 0)}) : "–"],
          [t("instance.vcpus"), num(d.vcpus)], [t("instance.ram"), t("unit.gib", {v: num(d.memory_gib)})], [t("instance.network"), t("unit.gbits", {v: num(d.network_gbit_s)}) + (d.efa ? t("instance.efa", {n: num(d.max_efa_interfaces)}) : "")],
          [t("instance.nvme"), d.local_nvme_gb ? t("unit.gb", {v: num(d.local_nvme_gb)}) : t("instance.none")], [t("instance.ebs"), d.ebs ? t("unit.mbits", {v: num(d.ebs.baseline_mbps)}) : null],
          [t("instance.purchase"), (d.usage_classes || []).map(purchaseName).join(t("list.comma"))], [t("instance.specsFrom"), `${d.spec_source} (${date(d.spec_date)})`], [t("instance.successors"), (d.successors || []).join(", ")], [t("instance.note"), d.retired_note]])),
        g.model ? h("section", {}, h("h4", {}, t("instance.datasheet"), g.full_name || g.model), dl([
          [t("instance.architecture"), g.architecture], [t("instance.memory"), t("instance.memoryAt", {gib: num(g.memory_gib), bw: num(g.memory_bw_gbyte_s)})], [t("instance.bf16"), tf(g.bf16_tflops)],
          [t("instance.fp8"), g.fp8_tflops ? tf(g.fp8_tflops) : null], [t("instance.tf32"), g.tf32_tflops ? tf(g.tf32_tflops) : null], [t("instance.fp32"), tf(g.fp32_tflops)],
          [t("instance.fp64"), tf(g.fp64_tflops)], [t("instance.nvlink"), g.nvlink_gbyte_s ? t("unit.gbytes", {v: num(g.nvlink_gbyte_s)}) : null], [t("instance.tdp"), g.tdp_w ? t("unit.watts", {v: num(g.tdp_w)}) : null],
          [t("instance.confidence"), g.confidence], [t("instance.source"), `${g.datasheet || g.source} (${date(g.date)})`], [t("instance.notes"), g.notes]])) : null));
    // Prices per region, each in its region's currency (a table may mix them: each cell says its own).
    const rows = (d.regions || []).filter((r) => r.offered);
    const currencies = [...new Set(rows.map(currencyOf))];
    out.append(h("h4", {}, t("instance.perRegion", {currency: currencies.join(", ") || "USD"})),
      scrollBox(t("instance.perRegion", {currency: currencies.join(", ") || "USD"}), h("table", {}, h("thead", {}, h("tr", {}, [t("instance.col.region"), t("purchase.on-demand"), t("purchase.spot"), t("purchase.capacity-block"), t("instance.col.reserved1y"), t("catalog.col.priceDate")].map((c, i) => h("th", {scope: "col", class: i && i < 5 ? "n" : ""}, c)))),
        h("tbody", {}, rows.map((r) => h("tr", {class: r.region === region ? "sel" : ""}, h("th", {scope: "row"}, r.region),
          h("td", {class: "n"}, moneyOf(r, "on_demand_usd_per_hour", 3)),
          h("td", {class: "n", title: r.spot_estimated ? t("note.spotEstimated") : r.spot_note || null}, r.spot_estimated && priceOf(r, "spot_usd_per_hour") != null ? "~" : "", moneyOf(r, "spot_usd_per_hour", 3)),
          h("td", {class: "n", title: r.capacity_block_date || null}, moneyOf(r, "capacity_block_usd_per_hour", 3)),
          h("td", {class: "n"}, moneyOf(r, "reserved_1y_no_upfront_usd_per_hour", 3)),
          h("td", {class: r.price_stale ? "stale" : ""}, date(r.price_date))))))),
    h("p", {class: "key"}, t("instance.key")));
    // History in the chosen region, one series per purchase kind.
    const sel = rows.find((r) => r.region === region) || {};
    const cur = currencyOf(sel);
    const hist = (sel.history || []).map((p) => ({...p, currency: p.currency || cur})).filter((p) => priceOf(p, "usd_per_hour") != null && p.date);
    const kinds = [...new Set(hist.map((p) => p.kind))];
    const dates = [...new Set(hist.map((p) => p.date))].sort();
    const histBox = h("div", {});
    out.append(h("h4", {}, t("instance.history", {region})), histBox);
    const drawn = await chartFigure(histBox, {
      caption: t("instance.historyCaption", {type: d.instance_type, region, currency: cur, kinds: kinds.map(purchaseName).join(t("list.comma"))}),
      x: dates.map((s) => Date.parse(s) / 1000), time: true, xLabel: t("axis.priceDate"), yLabel: t("axis.perHour", {currency: currencySymbol(cur)}),
      series: kinds.map((k) => ({label: purchaseName(k), values: dates.map((dt) => priceOf(hist.find((p) => p.kind === k && p.date === dt), "usd_per_hour"))}))});
    if (!current("instance", tok)) return;
    histBox.append(hist.length ? h("ul", {class: "small"}, hist.map((p) => h("li", {}, t("instance.historyLine", {date: date(p.date), kind: purchaseName(p.kind), price: moneyOf(p, "usd_per_hour", 3), source: p.source})))) : h("p", {}, t("instance.noHistory", {region})));
    if (!drawn && hist.length) histBox.prepend(h("p", {class: "small"}, t("instance.oneDate")));
    // Purchase options and break-even at always-on use.
    out.append(h("h4", {}, t("instance.options")));
    if (pr instanceof Error) out.append(h("p", {class: "error"}, pr.message));
    else out.append(pricingTable(pr), h("p", {}, h("a", {href: "?" + new URLSearchParams({view: "pricing", type: d.instance_type, region})}, t("instance.priceAnother"))));
    setStatus("instance", t("instance.status", {type: d.instance_type, region, date: date(d.price_date)}) + (d.price_stale ? t("note.stale") : ""));
  } catch (err) {
    fail("instance", tok, err);
  }
}
formView("instance", {
  build(form) {
    const f = queryFields("/v1/instances/{type}").filter((x) => x.name === "region");
    const typeBox = fieldElement({name: "type", type: "text", helpKey: "help.type", required: true}, {datalist: "dl-types", label: "label.type"});
    f[0].type = "enum";
    f[0].choices = regions;
    const regionBox = fieldElement(f[0]);
    $("select", regionBox).firstChild.remove();
    form.replaceChildren(h("div", {class: "group"}, typeBox, regionBox, h("div", {class: "actions"}, h("button", {type: "submit", i18n: "button.show"}))));
    $("select", regionBox).value = "us-east-1";
  },
  run: runInstance,
});

// ---- pricing ----
function pricingTable(pr) {
  // The options are priced in the region's currency (the answer's, or each option's own).
  const withCur = (o) => ({...o, currency: o.currency || currencyOf(pr)});
  const priced = pr.options.filter((o) => o.priced).map(withCur);
  const unpriced = pr.options.filter((o) => !o.priced);
  const cheapest = pr.cheapest;
  return h("div", {},
    scrollBox(t("instance.options"), h("table", {class: "pricing"},
      h("thead", {}, h("tr", {}, ["pricing.col.option", "pricing.col.total", "pricing.col.perHour", "pricing.col.perUsedHour", "pricing.col.upfront", "pricing.col.breakEven", "catalog.col.priceDate", "pricing.col.note"].map((c, i) => h("th", {scope: "col", class: i && i < 6 ? "n" : ""}, t(c))))),
      h("tbody", {}, priced.map((o) => h("tr", {class: o.option === cheapest ? "sel" : ""},
        h("th", {scope: "row", title: o.option}, purchaseName(o.option), o.option === cheapest ? t("pricing.cheapest") : "", o.suitable ? "" : t("pricing.notSuitable")),
        h("td", {class: "n"}, o.estimated ? est(moneyOf(o, "total_usd", 0), t("note.priceEstimated")) : moneyOf(o, "total_usd", 0)),
        h("td", {class: "n"}, moneyOf(o, "usd_per_hour", 3)), h("td", {class: "n"}, moneyOf(o, "usd_per_used_hour", 3)),
        h("td", {class: "n"}, moneyOf(o, "upfront_usd", 0)),
        h("td", {class: "n"}, o.break_even_utilization == null ? "–" : pct(o.break_even_utilization)),
        h("td", {class: o.price_stale ? "stale" : ""}, date(o.price_date)),
        h("td", {class: "wrap"}, o.note || "")))))),
    unpriced.length ? h("details", {}, h("summary", {}, t("pricing.notPriced", {n: unpriced.length})), h("ul", {}, unpriced.map((o) => h("li", {title: o.option}, t("pricing.unpricedLine", {option: purchaseName(o.option), note: o.note}))))) : null,
    pr.notes && pr.notes.length ? h("ul", {class: "notes"}, pr.notes.map((n) => h("li", {}, n))) : null,
    h("p", {class: "key"}, t("pricing.key")));
}
async function runPricing(form, v) {
  const tok = begin("pricing", t("pricing.working"));
  const out = $("#pricing-out");
  try {
    const pr = await api("/v1/pricing", v);
    if (!current("pricing", tok)) return;
    const u = pr.usage;
    const cur = currencyOf(pr);
    out.append(h("h3", {}, t("pricing.heading", {type: pr.instance_type, n: u.instances, region: pr.region, hours: num(u.hours_per_month, 1), months: num(u.months, 1), use: pct(u.utilization)})), pricingTable(pr));
    setStatus("pricing", t("pricing.status", {n: pr.options.filter((o) => o.priced).length, cheapest: pr.cheapest ? purchaseName(pr.cheapest) : t("pricing.none")}));
    // Break-even chart: the server prices the same pattern at other hours per month.
    if (v.hours !== undefined) {
      out.append(h("p", {class: "small"}, t("pricing.oneRun")));
      return;
    }
    const grid = [20, 50, 100, 150, 200, 300, 400, 500, 600, 730];
    const runs = await Promise.all(grid.map((hpm) => api("/v1/pricing", {...v, "hours-per-month": hpm}).catch(() => null)));
    if (!current("pricing", tok)) return;
    const names = pr.options.filter((o) => o.priced).map((o) => o.option);
    const total = (r, n) => {
      const o = r && r.options.find((x) => x.option === n);
      return o ? priceOf({...o, currency: o.currency || currencyOf(r)}, "total_usd") : null;
    };
    await chartFigure(out, {
      caption: t("pricing.chartCaption", {currency: cur, type: pr.instance_type, n: u.instances, months: num(u.months, 1)}),
      x: grid, xLabel: t("axis.hoursPerMonth"), yLabel: currencySymbol(cur),
      series: names.map((n) => ({label: purchaseName(n), values: runs.map((r) => total(r, n))}))});
  } catch (err) {
    fail("pricing", tok, err);
  }
}
formView("pricing", {
  build(form) {
    form.dataset.submit = "button.price";
    const fields = bodyFields("/v1/pricing");
    form.replaceChildren(h("div", {class: "group"}, fields.map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f, f.name === "type" ? {datalist: "dl-types", placeholder: "p5.48xlarge"} : {});
    })), h("div", {class: "actions"}, h("button", {type: "submit", i18n: "button.price"})));
  },
  run: runPricing,
});

// ---- estimate ----
const MEM_PARTS = [["weights_gib", "mem.weights"], ["gradients_gib", "mem.gradients"], ["optimizer_gib", "mem.optimizer"], ["activations_gib", "mem.activations"], ["kv_cache_gib", "mem.kvCache"], ["working_set_gib", "mem.workingSet"], ["overhead_gib", "mem.overhead"]];
function memoryBar(m) {
  const parts = MEM_PARTS.filter(([k]) => m[k] > 0).map(([k, label], i) => ({label: t(label), gib: m[k], color: COLORS[i % COLORS.length]}));
  const total = m.total_gib || parts.reduce((s, p) => s + p.gib, 0);
  const scale = Math.max(total, m.device_gib || 0) || 1;
  const gib = (x) => t("unit.gib", {v: num(x, 1)});
  return h("figure", {class: "membar"},
    h("div", {class: "bar", role: "img", "aria-label": t("mem.label", {total: num(total, 1), device: num(m.device_gib, 1)})},
      parts.map((p) => h("span", {class: "seg", style: `width:${(100 * p.gib) / scale}%;background:${p.color}`, title: `${p.label} ${gib(p.gib)}`})),
      m.device_gib ? h("span", {class: "cap", style: `left:${(100 * m.device_gib) / scale}%`, title: t("mem.device")}) : null),
    h("figcaption", {}, t(m.fits ? "mem.captionFits" : "mem.captionNoFit", {total: num(total, 1), device: num(m.device_gib, 1)}) + " ",
      parts.map((p) => h("span", {class: "k"}, h("i", {class: "sw", style: `background:${p.color}`}), `${p.label} ${gib(p.gib)}`))));
}
function bandOf(e, metric) {
  return ((e.uncertainty && e.uncertainty.bands) || []).find((b) => b.metric === metric);
}
function estimateSummary(e) {
  const band = (metric, f) => {
    const b = bandOf(e, metric);
    return b ? ` (${f(b.low)} – ${f(b.high)})` : "";
  };
  const why = t("est.why", {grade: e.confidence ? e.confidence.grade : "?"});
  const c = e.cost || {}, p = e.performance || {}, tg = e.targets || {};
  const cur = currencyOf(c);
  const m = (x) => money(x, cur);
  const hours = (x) => t("unit.hours", {v: num(x, x < 10 ? 2 : 1)});
  const onDemand = priceOf(c, "on_demand_usd"), spot = priceOf(c, "spot_usd");
  const met = (ok) => t(ok ? "est.met" : "est.notMet");
  return dl([
    [t("est.hardware"), `${e.hardware.instances} × ${e.hardware.instance_type || ""} (${e.hardware.gpus} × ${e.hardware.gpu})`],
    [t(tg.service ? "est.runs" : "est.time"), e.time && e.time.hours != null ? est(hours(e.time.hours) + band("time.hours", hours), why) : "–"],
    [t("est.costOnDemand"), onDemand != null ? est(m(onDemand) + band("cost.on_demand_usd", m), why) : "–"],
    [t("est.costSpot"), spot != null ? est((c.spot_estimated ? "~" : "") + m(spot) + band("cost.spot_usd", m), why + (c.spot_estimated ? t("est.spotNote") : "")) : "–"],
    [t("est.prices"), t("est.pricesLine", {region: c.region, od: moneyOf(c, "on_demand_usd_per_hour", 3), odDate: date(c.on_demand_date), spot: moneyOf(c, "spot_usd_per_hour", 3), spotDate: date(c.spot_date)})],
    [t("est.throughput"), p.tokens_per_s ? est(t("unit.tokensPerS", {v: num(p.tokens_per_s)}) + band("performance.tokens_per_s", (x) => num(x)), why) : p.images_per_s ? est(t("unit.imagesPerS", {v: num(p.images_per_s)}), why) : null],
    [t("est.mfu"), p.mfu != null ? est(pct(p.mfu, 1), why) : null],
    [t("est.latency"), p.ttft_ms != null ? est(`${t("unit.ms", {v: num(p.ttft_ms, 1)})} / ${t("unit.ms", {v: num(p.itl_ms, 1)})}`, why) : null],
    [t("est.targets"), tg.service ? t("est.targetsLine", {demand: met(tg.demand_met), slo: met(tg.slo_met)}) + (tg.instances_needed ? t("est.instancesNeeded", {n: tg.instances_needed}) : "") : null],
    [t("est.parallelism"), e.parallelism ? Object.entries(e.parallelism).filter(([k]) => k !== "chosen").map(([k, v]) => `${k} ${v}`).join(", ") : null],
    [t("est.confidence"), e.confidence ? `${e.confidence.grade}: ${e.confidence.basis}` : null]]);
}
async function runEstimate(form, v) {
  const tok = begin("estimate", t("est.working"));
  const out = $("#estimate-out");
  try {
    const e = await api("/v1/estimate", v);
    if (!current("estimate", tok)) return;
    out.append(h("h3", {}, t("est.heading", {task: e.task, model: e.model ? e.model.name || "" : "", hw: e.hardware.instance_type || e.hardware.gpu}).replace(/\s+/g, " ")), e.memory ? memoryBar(e.memory) : "", estimateSummary(e),
      h("h4", {}, t("est.assumptions")), h("ul", {class: "notes"}, (e.assumptions || []).map((a) => h("li", {class: a.startsWith("warning: ") ? "warn" : ""}, a))),
      h("p", {class: "key"}, t("est.key")));
    setStatus("estimate", t("est.status", {date: e.provenance ? date(e.provenance.price_date) : "–"}) + (e.provenance && e.provenance.price_stale ? t("note.stale") : ""));
  } catch (err) {
    fail("estimate", tok, err);
  }
}
const HW_FIELDS = ["instance", "count", "gpu", "gpus", "region"];
formView("estimate", {
  build(form) {
    form.dataset.submit = "button.estimate";
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
  const tok = begin("compare", t("compare.working"));
  const out = $("#compare-out");
  const types = String(v.types || "").split(/[\s,]+/).filter(Boolean);
  try {
    if (types.length < 2 || types.length > 4) throw new ApiError(t("compare.count", {n: types.length}), "types");
    const body = {...v};
    delete body.types;
    const res = await Promise.all(types.map((ty) => api("/v1/estimate", {...body, instance: ty}).catch((e) => e)));
    if (!current("compare", tok)) return;
    const errs = res.filter((r) => r instanceof Error);
    // The same workload error for every type belongs to the form, not to one column.
    if (errs.length === res.length && errs.every((e) => e.message === errs[0].message)) throw errs[0];
    const why = t("compare.why");
    const cell = (r, f) => (r instanceof Error ? h("span", {class: "error"}, r.message) : f(r));
    const bandTxt = (r, m, f) => {
      const b = bandOf(r, m);
      return b ? ` (${f(b.low)}–${f(b.high)})` : "";
    };
    const m = (r) => (x) => money(x, currencyOf(r.cost));
    const rowsDef = [
      ["compare.accelerators", (r) => `${r.hardware.gpus} × ${r.hardware.gpu}`],
      ["compare.memory", (r) => (r.memory ? t(r.memory.fits ? "compare.memoryFits" : "compare.memoryNoFit", {total: num(r.memory.total_gib, 1), device: num(r.memory.device_gib, 1)}) : "–")],
      ["est.time", (r) => (r.time && r.time.hours != null ? est(t("unit.hours", {v: num(r.time.hours, 2)}) + bandTxt(r, "time.hours", (x) => num(x, 2)), why) : "–")],
      ["est.costOnDemand", (r) => (priceOf(r.cost, "on_demand_usd") != null ? est(moneyOf(r.cost, "on_demand_usd") + bandTxt(r, "cost.on_demand_usd", m(r)), why) : "–")],
      // One mark per figure: ≈ (a model estimate); an estimated spot price says so on hover.
      ["est.costSpot", (r) => (priceOf(r.cost, "spot_usd") != null ? est(moneyOf(r.cost, "spot_usd"), r.cost.spot_estimated ? `${why}; ${t("compare.spotEstimated")}` : why) : "–")],
      ["compare.perHour", (r) => `${moneyOf(r.cost, "on_demand_usd_per_hour", 3)} (${date(r.cost.on_demand_date)})`],
      ["est.throughput", (r) => (r.performance.tokens_per_s ? est(t("unit.tokS", {v: num(r.performance.tokens_per_s)}), why) : r.performance.images_per_s ? est(t("unit.imgS", {v: num(r.performance.images_per_s)}), why) : "–")],
      // Serving: latency and what the configuration can carry.
      ...(res.some((r) => !(r instanceof Error) && r.performance && r.performance.ttft_ms != null) ? [
        ["est.latency", (r) => (r.performance.ttft_ms != null ? est(`${t("unit.ms", {v: num(r.performance.ttft_ms, 1)})} / ${t("unit.ms", {v: num(r.performance.itl_ms, 1)})}`, why) : "–")],
        ["compare.capacity", (r) => (r.performance.requests_per_s != null ? est(t("compare.capacityValue", {rps: num(r.performance.requests_per_s, 2), n: num(r.performance.max_concurrency, 0)}), why) : "–")]] : []),
      ["est.parallelism", (r) => `tp ${r.parallelism.tp}, pp ${r.parallelism.pp}, dp ${r.parallelism.dp}`],
      ["est.confidence", (r) => (r.confidence ? r.confidence.grade : "–")]];
    const ok = res.filter((r) => !(r instanceof Error) && r.cost && priceOf(r.cost, "on_demand_usd") != null);
    // The cheapest only among amounts of one currency: a yuan and a dollar figure are not compared.
    const mixed = new Set(ok.map((r) => currencyOf(r.cost))).size > 1;
    const best = ok.length && !mixed ? ok.reduce((a, b) => (priceOf(b.cost, "on_demand_usd") < priceOf(a.cost, "on_demand_usd") ? b : a)) : null;
    out.append(scrollBox(t("view.compare"), h("table", {class: "compare"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("compare.figure")), types.map((ty) => h("th", {scope: "col"}, h("a", {href: "?" + new URLSearchParams({view: "instance", type: ty, region: v.region || "us-east-1"})}, ty))))),
      h("tbody", {}, rowsDef.map(([label, f]) => h("tr", {}, h("th", {scope: "row"}, t(label)), res.map((r) => h("td", {class: r === best ? "sel" : ""}, cell(r, f)))))))),
    h("p", {class: "key"}, t("compare.key")));
    const done = t("compare.status", {n: res.length - errs.length, of: types.length});
    setStatus("compare", done + (best ? t("compare.cheapest", {type: best.hardware.instance_type}) : mixed ? t("compare.mixed") : t("compare.none")), best || mixed ? "" : "empty");
  } catch (err) {
    fail("compare", tok, err);
  }
}
formView("compare", {
  build(form) {
    form.dataset.submit = "button.compare";
    const fields = bodyFields("/v1/estimate");
    const types = fieldElement({name: "types", type: "text", required: true, helpKey: "help.types"}, {datalist: "dl-types", label: "label.types"});
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
    const savings = (p.savings || []).map((s) => t("rec.saving", {lever: s.lever, pct: Math.round(s.saving * 100), detail: s.detail, tradeoff: s.tradeoff}));
    const fmt = h("select", {class: "launch-format", "aria-label": t("rec.launchFormat", {rank: p.rank})},
      [["aws-cli", "rec.fmt.awsCli"], ["cloudformation", "rec.fmt.cloudformation"], ["terraform", "rec.fmt.terraform"], ["skypilot", "rec.fmt.skypilot"]].map(([val, l]) => h("option", {value: val}, t(l))));
    const note = h("p", {class: "small launch-note", role: "status"});
    const figs = [t("rec.perHour", {price: moneyOf(p, "usd_per_hour")}), `${p.gpus} × ${p.gpu_model}`, t("rec.memory", {used: num(p.memory_per_gpu_gib, 1), device: num(p.device_gib, 1)}),
      t("rec.price", {source: p.price_source, date: date(p.price_date)})];
    if (p.deadline_miss_probability != null) figs.push(t("rec.missProbability", {p: pct(p.deadline_miss_probability)}));
    if (p.confidence) figs.push(t("rec.confidence", {grade: p.confidence}));
    if (p.obtainability) figs.push(t("rec.obtain", {p: pct(p.obtainability.probability)}));
    const doubts = (p.doubts || []).map((d) => t("rec.doubt", {kind: d.kind, detail: d.detail}));
    const sweep = (p.sweep || []).map((x) => t("rec.sweepRow", {type: x.instance_type, n: x.instances, hours: num(x.time_hours, 1), cost: moneyOf(Object.assign({currency: p.currency}, x), "cost_usd")}));
    const par = Object.entries(p.parallelism || {}).map(([k, x]) => `${k} ${x}`).join(", ");
    plans.append(h("li", {},
      h("h3", {}, `#${p.rank} `, h("a", {href: "?" + new URLSearchParams({view: "instance", type: p.instance_type, region: p.region})}, p.instance_type), ` × ${p.instances} (${purchaseName(p.purchase)}, ${p.region})`),
      // A service is judged per hour (its "run" is one hour): no time or run cost to show.
      h("div", {class: "figs"}, service ? null : [est(t("unit.hours", {v: num(p.time_hours, 2)})), " · ", est(moneyOf(p, "cost_usd")), " · "], figs.join(" · ")),
      list(p.why, "why"), list(doubts, "warn doubts"), list(p.warnings, "warn"),
      h("div", {class: "launch"}, h("label", {}, t("rec.launchSpec"), " ", fmt), h("button", {type: "button", onclick: () => downloadLaunch(p, fmt.value, note)}, t("rec.download"))), note,
      h("details", {}, h("summary", {}, t("rec.details")), sweep.length ? h("p", {class: "small"}, t("rec.sweep")) : null, list(sweep, "sweep"), list(p.obtainability ? [p.obtainability.basis] : [], "obtain"), list(p.advice, "advice"), list(savings, "savings"),
        h("p", {class: "figs"}, t("rec.perf", {par, tps: num(perf.tokens_per_s), mfu: perf.mfu == null ? "–" : pct(perf.mfu, 1), ttft: num(perf.ttft_ms, 1), itl: num(perf.itl_ms, 1)})))));
  }
  const rej = h("details", {class: "rejected"}, h("summary", {}, t("rec.leftOut", {n: rec.rejected.length})), h("ul", {}, rec.rejected.map((r) => h("li", {}, h("b", {}, r.instance_type), ": ", r.reason))));
  if (!rec.plans.length) rej.open = true;
  const pickNames = {"cheapest-sound": t("rec.pick.cheapest-sound"), "fastest": t("rec.pick.fastest"), "cheapest-any-risk": t("rec.pick.cheapest-any-risk")};
  const picks = (rec.picks || []).map((k) => t("rec.pick", {pick: pickNames[k.pick] || k.pick, rank: k.rank == null ? "–" : `#${k.rank}`, type: k.instance_type, n: k.instances, purchase: purchaseName(k.purchase), cost: moneyOf(k, "cost_usd"), hours: num(k.time_hours, 1), p: pct(k.obtainability)}));
  const lever = rec.promoted_lever;
  if (lever) picks.push(t("rec.promoted", {what: lever.what, tradeoff: lever.tradeoff, plans: lever.plans.map((p) => `${p.instance_type} × ${p.instances} (${purchaseName(p.purchase)}, ${moneyOf(p, "usd_per_hour")}/h)`).join("; ")}));
  const notes = [...picks, rec.confidence_note, rec.high_confidence_alternative && rec.high_confidence_alternative.note].filter((x) => typeof x === "string" && x);
  out.append(plans, notes.length ? h("ul", {class: "notes"}, notes.map((n) => h("li", {}, n))) : "", rej);  // append(null) would print "null"
}
async function downloadLaunch(plan, format, note) {
  note.textContent = t("rec.building");
  try {
    const spec = await api("/v1/launch", {plan, format});
    const a = h("a", {href: URL.createObjectURL(new Blob([spec.document], {type: "text/plain"})), download: spec.file_name});
    document.body.append(a);
    a.click();
    a.remove();
    // The launch spec carries the obtainability notes (vCPU quota, Capacity Block reservation).
    note.replaceChildren(t("rec.downloaded", {file: spec.file_name}), spec.warnings.length ? h("ul", {class: "warn"}, spec.warnings.map((w) => h("li", {}, w))) : t("rec.noWarnings"));
  } catch (err) {
    note.textContent = err.message;
  }
}
async function runRecommend(form, v) {
  const tok = begin("recommend", t("rec.working"));
  const out = $("#recommend-out");
  try {
    const rec = await api("/v1/recommend", v);
    if (!current("recommend", tok)) return;
    const filters = rec.filters || {};
    const lists = (filters.lists || []).map((l) => `${l.option} ${l.values.join(",")}`).join("; ");
    const applied = lists ? t("rec.filters", {lists, left: filters.types_left, of: filters.types_in_catalog}) : "";
    if (filters.emptied_by) {
      setStatus("recommend", t("rec.emptied", {note: filters.note, field: filters.emptied_by}), "empty");
      showFieldError(form, filters.emptied_by, `${filters.note}`);
      return;
    }
    if (!rec.plans.length) {
      setStatus("recommend", t("rec.infeasible", {n: num(rec.candidates_evaluated), filters: applied}), "empty");
      renderPlans(out, rec, false);
      return;
    }
    setStatus("recommend", t("rec.status", {n: rec.plans.length, evaluated: num(rec.candidates_evaluated), date: date(rec.catalog.date), filters: applied}));
    const service = rec.plans.every((p) => Math.abs(p.time_hours - rec.plans[0].time_hours) < 1e-9);
    const chartBox = h("div", {});
    out.append(chartBox);
    renderPlans(out, rec, service);
    const task = v.task || t("rec.theJob");
    // A chart's amounts in one currency: the plans in the first plan's (a yuan and a dollar
    // figure are not drawn on one axis).
    const cur = currencyOf(rec.plans[0]);
    const same = rec.plans.filter((p) => currencyOf(p) === cur);
    const sym = currencySymbol(cur);
    if (service) {
      const pts = same.filter((p) => p.estimate && p.estimate.performance && p.estimate.performance.itl_ms).sort((a, b) => a.estimate.performance.itl_ms - b.estimate.performance.itl_ms);
      await chartFigure(chartBox, {caption: t("rec.chartService", {task, currency: cur}), points: true,
        x: pts.map((p) => p.estimate.performance.itl_ms), xLabel: t("axis.itl"), yLabel: t("axis.perHour", {currency: sym}), series: [{label: t("rec.ranked"), values: pts.map((p) => priceOf(p, "usd_per_hour"))}]});
    } else {
      const pareto = rec.pareto.filter((p) => currencyOf(p) === cur);
      const xs = [...new Set(same.map((p) => p.time_hours).concat(pareto.map((p) => p.time_hours)))].sort((a, b) => a - b);
      const at = (arr, x) => priceOf(arr.find((p) => p.time_hours === x), "cost_usd");
      // The front is over cost, time and certainty: points, not a staircase in cost and time.
      await chartFigure(chartBox, {caption: t("rec.chartRun", {task, currency: cur}), x: xs, logX: true, logY: true, xLabel: t("axis.hours"), yLabel: sym, points: true,
        series: [{label: t("rec.pareto"), values: xs.map((x) => at(pareto, x)), color: "#d9480f"}, {label: t("rec.ranked"), values: xs.map((x) => at(same, x)), color: "#0b5cad"}]});
    }
  } catch (err) {
    fail("recommend", tok, err);
  }
}
formView("recommend", {
  build(form) {
    form.dataset.submit = "button.recommend";
    const fields = bodyFields("/v1/recommend");
    const opts = fields.filter((f) => !f.tasks);
    const lists = opts.filter((f) => /^(only|exclude)-/.test(f.name) || f.name === "allow-retired");
    const search = opts.filter((f) => !lists.includes(f));
    const dlFor = (n) => (/gpu/.test(n) ? {datalist: "dl-gpus"} : /instance/.test(n) ? {datalist: "dl-types"} : /family/.test(n) ? {datalist: "dl-families"} : {});
    workloadForm(form, fields, {
      before: search.map((f) => fieldElement(f, f.name === "regions" ? {datalist: "dl-regions", placeholder: "us-east-1, all"} : {})),
      after: [h("fieldset", {class: "lists"}, h("legend", {i18n: "rec.lists"}), lists.map((f) => fieldElement(f, dlFor(f.name))))]});
  },
  run: runRecommend,
});

// ---- idle ----
function idleFiles() {
  return idleDropped.length ? idleDropped : [...$("#idle-files").files];
}
let idleDropped = [];
// A telemetry file as the request body: gzip-compressed where the browser can
// (CompressionStream; the server inflates it, so a log over its --max-body as text still fits),
// a .gz file as it is; else the text.
async function idleBody(file) {
  const magic = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (magic[0] === 0x1f && magic[1] === 0x8b) return {body: file, headers: {"Content-Encoding": "gzip"}};
  if (typeof CompressionStream !== "function") return {body: await file.text(), headers: {}};
  const body = await new Response(file.stream().pipeThrough(new CompressionStream("gzip"))).blob();
  return {body, headers: {"Content-Encoding": "gzip"}};
}
const bytesText = (n) => (n >= 1e6 ? `${num(n / 1e6, n % 1e5 ? 1 : 0)} MB` : `${num(n / 1e3, 0)} kB`);
// An upload's failure named by its file; over the server's body limit, which limit and how its
// operator raises it.
function uploadError(e, file, body) {
  const limit = e.status === 413 && /\((\d+) bytes/.exec(e.message);
  e.message = limit && e.field === "body"
    ? t("idle.tooLarge", {file: file.name, size: bytesText(body.size ?? body.length), limit: bytesText(Number(limit[1]))})
    : `${file.name}: ${e.message}`;
  return e;
}
// The hour-of-week profile of the reports (one per file) read in the first one's zone: each
// cell the share of observed host time in idle stretches, shaded by it, 0-9 in tenths.
function weekGrid(profiles) {
  if (!profiles.length) return null;
  const zone = profiles[0].timezone;
  const cov = new Array(168).fill(0), idle = new Array(168).fill(0);
  for (const p of profiles.filter((x) => x.timezone === zone)) {
    p.covered_host_hours.forEach((v, i) => { cov[i] += v; idle[i] += p.idle_host_hours[i]; });
  }
  const days = t("idle.week.days").split(",");
  const cell = (d, hr) => {
    const i = d * 24 + hr, s = cov[i] > 0 ? Math.min(1, idle[i] / cov[i]) : null;
    if (s == null) return h("td", {class: "none", title: t("idle.week.none")}, "·");
    return h("td", {style: `--idle:${s.toFixed(3)}`, title: t("idle.week.cell", {day: days[d], hour: hr, share: pct(s), idle: num(idle[i], 1), covered: num(cov[i], 1)})},
      s >= 0.995 ? "#" : String(Math.floor(s * 10)));
  };
  const caption = t("idle.week.caption", {zone});
  return h("figure", {class: "week"}, h("figcaption", {}, caption),
    scrollBox(caption, h("table", {class: "week"},
      h("thead", {}, h("tr", {}, h("td", {}), Array.from({length: 24}, (_, hr) => h("th", {scope: "col"}, String(hr))))),
      h("tbody", {}, days.map((d, di) => h("tr", {}, h("th", {scope: "row"}, d), Array.from({length: 24}, (_, hr) => cell(di, hr))))))));
}

async function runIdle(form, v) {
  const tok = begin("idle", t("idle.working"));
  const out = $("#idle-out");
  try {
    const files = idleFiles();
    if (!files.length) throw new ApiError(t("idle.noFiles"), "body");
    const reports = [];
    for (const file of files) {  // one request per file: each file is one host unless it names its own
      const q = new URLSearchParams(v);
      const name = file.name.replace(/\.gz$/i, "");
      if (!v.host) q.set("host", name.replace(/\.[^.]*$/, ""));
      const type = /\.xml$/i.test(name) ? "application/xml" : /\.json$/i.test(name) ? "application/json" : "text/csv";  // the server sniffs CSV from Prometheus text
      const {body, headers} = await idleBody(file);
      try {
        reports.push(await api("/v1/idle?" + q, body, type, headers));
      } catch (e) {
        throw uploadError(e, file, body);
      }
      if (!current("idle", tok)) return;
    }
    // Each host in its own currency (its region's); totals per currency, never added across.
    const hosts = reports.flatMap((r) => r.instances.map((x) => ({...x, currency: x.currency || currencyOf(r)})));
    const totals = (key) => {
      const by = new Map();
      for (const r of reports) {  // a report holds one total per currency of its hosts
        for (const c of new Set(r.instances.map(currencyOf))) {
          const v = r[priceKey(key, c)];
          if (typeof v === "number") by.set(c, (by.get(c) || 0) + v);
        }
      }
      return by.size ? [...by].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, v]) => money(v, c)).join(" + ") : money(0);
    };
    const hours = reports.reduce((s, r) => s + (r.hours_covered || 0), 0);
    out.append(h("h3", {}, t("idle.heading", {n: hosts.length, hours: num(hours, 1), waste: totals("total_wasted_usd"), savings: totals("total_savings_usd_per_month")})),
      scrollBox(t("view.idleHeading"), h("table", {},
        h("thead", {}, h("tr", {}, ["idle.col.host", "idle.col.type", "idle.col.perHour", "idle.col.hours", "idle.col.idleHours", "idle.col.idle", "idle.col.util", "idle.col.wasted", "idle.col.advice"].map((c, i) => h("th", {scope: "col", class: i > 1 && i < 8 ? "n" : ""}, t(c))))),
        h("tbody", {}, hosts.map((x) => h("tr", {},
          h("th", {scope: "row"}, x.host),
          h("td", {title: x.type_note || null}, x.instance_type || "–", x.type_guessed ? t("idle.guessed") : ""),
          h("td", {class: "n", title: x.price_date ? date(x.price_date) : null}, moneyOf(x, "usd_per_hour", 3)),
          h("td", {class: "n"}, num(x.hours_covered, 1)), h("td", {class: "n"}, num(x.idle_hours, 1)),
          h("td", {class: "n"}, x.idle_fraction == null ? "–" : pct(x.idle_fraction)),
          h("td", {class: "n"}, `${num(x.avg_util_pct)} / ${num(x.p95_util_pct)} %`),
          h("td", {class: "n"}, moneyOf(x, "wasted_usd")),
          h("td", {class: "wrap"}, x.recommendation ? x.recommendation.summary : x.status_reason || "")))))),
      weekGrid(reports.map((r) => r.week_profile).filter(Boolean)),
      h("ul", {class: "notes"}, reports.flatMap((r) => [...(r.assumptions || []), ...(r.warnings || []).map((w) => t("idle.warning", {w}))]).filter((x, i, a) => a.indexOf(x) === i).map((x) => h("li", {}, x))),
      h("p", {class: "key"}, t("idle.key")));
    setStatus("idle", t("idle.status", {n: files.length}));
  } catch (err) {
    fail("idle", tok, err);
  }
}
formView("idle", {
  build(form) {
    $("#idle-origin").textContent = location.origin;
    // File analysis only: the Prometheus options make the server query another one.
    const fields = queryFields("/v1/idle", "post").filter((f) => f.name !== "prometheus" && !/^With --prometheus/.test(f.help));
    const drop = h("div", {class: "field drop", "data-field": "body"},
      h("label", {for: "idle-files", i18n: "idle.files"}),
      h("input", {id: "idle-files", type: "file", multiple: true, "aria-describedby": "idle-files-help idle-files-err", onchange: () => { idleDropped = []; dropNote(); }}),
      h("small", {id: "idle-files-help", class: "help", i18n: "idle.filesHelp"}),
      h("span", {id: "idle-files-err", class: "err", role: "alert"}));
    const dropNote = () => {
      const names = idleFiles().map((f) => f.name).join(", ");
      const help = $("small", drop);
      if (names) help.removeAttribute("data-i18n");
      else help.dataset.i18n = "idle.filesShort";
      help.textContent = names || t("idle.filesShort");
    };
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); idleDropped = [...e.dataTransfer.files]; dropNote(); });
    form.replaceChildren(h("div", {class: "group"}, drop, fields.map((f) => {
      if (f.name === "region") Object.assign(f, {type: "enum", choices: regions});
      return fieldElement(f, f.name === "instance-type" ? {datalist: "dl-types"} : {});
    })), h("div", {class: "actions"}, h("button", {type: "submit", i18n: "button.analyse"})));
  },
  run: runIdle,
  autorun: false,  // files are not in the URL
});

// ---- commitments: the account's Cost and Usage Report, sized on this server ----
async function runCommitments(form, v) {
  const tok = begin("commitments", t("commitments.working"));
  const out = $("#commitments-out");
  try {
    const file = $("#commitments-file").files[0];
    if (!file) throw new ApiError(t("commitments.noFile"), "body");
    const {body, headers} = await idleBody(file);  // gzip on the way, as idle's uploads
    let r;
    try {
      r = await api("/v1/commitments?" + new URLSearchParams(v), body, "text/csv", headers);
    } catch (e) {
      throw uploadError(e, file, body);
    }
    if (!current("commitments", tok)) return;
    const c = r.currency;
    const m = (o, key, d) => money(o[priceKey(key, c)], c, d);
    const s = r.summary;
    out.append(h("h3", {}, t("commitments.heading", {hours: num(r.period.hours, 0), now: m(s, "on_demand_usd_per_hour"), after: m(s, "with_commitments_usd_per_hour"), saving: pct(s.saving), year: m(s, "saving_usd_per_year", 0)})),
      scrollBox(t("view.commitmentsHeading"), h("table", {},
        h("thead", {}, h("tr", {}, ["commitments.col.region", "commitments.col.type", "commitments.col.usage", "commitments.col.covered", "commitments.col.commit", "commitments.col.instances", "commitments.col.now", "commitments.col.after", "commitments.col.saving", "commitments.col.halves", "commitments.col.used"].map((k, i) => h("th", {scope: "col", class: i > 1 && i !== 4 ? "n" : ""}, t(k))))),
        h("tbody", {}, r.groups.map((g) => {
          const u = g.on_demand_usage, x = g.recommendation;
          return h("tr", {},
            h("td", {}, g.region), h("th", {scope: "row"}, g.instance_type),
            h("td", {class: "n"}, `${num(u.mean_instances, 1)} / ${num(u.p90_instances, 1)} / ${num(u.max_instances, 1)}`),
            h("td", {class: "n"}, pct(g.coverage_now)),
            h("td", {title: x ? `${x.price_source}, ${date(x.price_date)}` : null}, x ? x.offer : t("commitments.none")),
            h("td", {class: "n"}, x ? num(x.instances, Number.isInteger(x.instances) ? 0 : 2) : "–"),
            h("td", {class: "n", title: `${g.on_demand_source}, ${date(g.on_demand_date)}`}, m(x || g, "on_demand_usd_per_hour", 2)),
            h("td", {class: "n"}, x ? m(x, "cost_usd_per_hour", 2) : m(g, "on_demand_usd_per_hour", 2)),
            h("td", {class: "n"}, x ? pct(x.saving) : "–"), h("td", {class: "n"}, x ? pct(x.saving_if_usage_halves) : "–"),
            h("td", {class: "n"}, x ? pct(x.utilisation) : "–"));
        })))),
      h("ul", {class: "notes"}, [
        ...r.groups.flatMap((g) => g.notes.map((n) => `${g.instance_type} ${g.region}: ${n}`)),
        ...r.reservations.map((x) => t("commitments.ri", {id: x.id, type: x.instance_type, used: pct(x.utilisation), unused: num(x.unused_hours, 0), end: x.end})),
        ...r.savings_plans.map((x) => t("commitments.sp", {id: x.id, offering: x.offering, used: pct(x.utilisation), unused: m(x, "unused_usd", 0), end: x.end})),
        ...(r.compute_savings_plans || []).slice(0, 1).map((p) => t("commitments.compute", {n: p.groups.length, committed: m(p, "committed_usd_per_hour", 3), years: p.years, payment: p.payment, cost: m(p, "cost_usd_per_hour", 2), apart: m(p, "per_type_usd_per_hour", 2), coverage: pct(p.coverage), used: pct(p.utilisation)})),
        ...r.notes].map((n) => h("li", {}, n))),
      h("p", {class: "key"}, t("commitments.key")));
    setStatus("commitments", t("commitments.status", {rows: num(r.source.rows_used, 0), file: file.name}));
  } catch (err) {
    fail("commitments", tok, err);
  }
}
formView("commitments", {
  build(form) {
    $("#commitments-origin").textContent = location.origin;
    const drop = h("div", {class: "field", "data-field": "body"},
      h("label", {for: "commitments-file", i18n: "commitments.file"}),
      h("input", {id: "commitments-file", type: "file", accept: ".csv,.gz,text/csv,application/gzip", "aria-describedby": "commitments-file-help commitments-file-err"}),
      h("small", {id: "commitments-file-help", class: "help", i18n: "commitments.fileHelp"}),
      h("span", {id: "commitments-file-err", class: "err", role: "alert"}));
    form.replaceChildren(h("div", {class: "group"}, drop, queryFields("/v1/commitments", "post").map((f) => fieldElement(f))),
      h("div", {class: "actions"}, h("button", {type: "submit", i18n: "button.analyse"})));
  },
  run: runCommitments,
  autorun: false,  // the bill is not in the URL
});

// ---- language ----
function renderMeta() {
  if (!catalogInfo) return;
  $("#catalog-meta").textContent = t("meta.catalog", {built: date(catalogInfo.generated_at.slice(0, 10)), oldest: date(catalogInfo.oldest_price_date), newest: date(catalogInfo.newest_price_date)}) + (catalogInfo.prices_stale ? t("note.stale") : "");
}
const LANG_KEY = "gpuadvisor.lang";
function storedLang() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;  // storage off (a private window may refuse it): the URL and the browser decide
  }
}
const browserLanguages = () => (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
// A language's message table: English is in i18n.js, each other one a script of its own
// (/i18n-zh-CN.js), fetched once, when the page is first shown in it.
const tables = {};
function loadMessages(lang) {
  if (MESSAGES[lang]) return Promise.resolve();
  if (!tables[lang]) {
    tables[lang] = new Promise((resolve, reject) => {
      document.head.append(h("script", {src: `/i18n-${lang}.js`, onload: resolve, onerror: () => reject(new Error(`no messages for ${lang}`))}));
    });
    tables[lang].catch(() => delete tables[lang]);  // a later switch tries again
  }
  return tables[lang];
}
// The page in `lang`: <html lang>, every keyed text and attribute, the switch, the URL; the
// forms keep what was typed; the answer on screen is asked for again in the new language.
function applyLang(lang, {remember = false} = {}) {
  setLang(lang, browserLanguages());
  document.documentElement.lang = LANG;
  if (remember) {
    try {
      localStorage.setItem(LANG_KEY, LANG);
    } catch {}
  }
  relabel(document);
  for (const b of $$("#lang button")) b.setAttribute("aria-pressed", String(b.dataset.lang === LANG));
  for (const form of $$("main form")) if (form.syncTask) form.syncTask();
  renderMeta();
}
async function switchLang(lang) {
  if (lang === LANG) return;
  try {
    await loadMessages(lang);
  } catch {
    return;  // its table did not load: the page stays as it is
  }
  applyLang(lang, {remember: true});
  const q = new URLSearchParams(location.search);
  setUrl(q, true);
  if (spec) {
    const name = views[q.get("view")] ? q.get("view") : "catalog";
    document.title = t("page.title", {view: t("view." + name)});
    views[name].relocalize();
  }
}

// ---- start ----
async function init() {
  // The language first (the first requests carry it); its table loads beside them.
  setLang(pickLang(new URLSearchParams(location.search).get("lang"), storedLang(), browserLanguages()), browserLanguages());
  const messages = loadMessages(LANG).catch(() => setLang("en"));
  $("#lang").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-lang]");
    if (b) switchLang(b.dataset.lang);
  });
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='?']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    routeTo(new URLSearchParams(a.getAttribute("href").slice(1)));
  });
  window.addEventListener("popstate", route);
  prefetchCatalog();
  const first = Promise.all([api("/v1/openapi.json"), api("/v1/regions?detail=true"), api("/v1/gpus"), api("/v1/catalog"), api("/v1/models")]);
  first.catch(() => {});
  await messages;
  applyLang(LANG);
  try {
    let regionList;
    [spec, regionList, gpus, catalogInfo, models] = await first;
    for (const r of regionList) REGIONS[r.code] = r;
    regions = regionList.map((r) => r.code);
    const props = spec.paths["/v1/estimate"].post.requestBody.content["application/json"].schema.properties;
    TASKS.push(...props.task["x-tasks"]);
    ensureDatalist("dl-gpus", gpus.map((g) => g.model));
    ensureDatalist("dl-regions", ["all", ...regions]);
    renderMeta();
  } catch (e) {
    setStatus("catalog", t("error.apiDescription", {error: e.message}), "error");
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
