// The web page's message tables and locale formatting (web/i18n.js), in node: no browser.
// Usage: node i18n_test.js PATH/TO/web. Fails when a key is missing in a language, a zh-CN text
// is left identical to the English one (but for the listed units), placeholders differ, the
// page uses a key no table has or a table keeps a key nothing uses; and checks the language
// choice, the purchase terms, and that prices are read and shown in their own currency.
"use strict";
const fs = require("fs");
const path = require("path");
const assert = require("assert");

const web = process.argv[2] || path.join(__dirname, "../../web");
const m = require(path.resolve(web, "i18n.js"));
// Each other language is a file of its own that adds its table (web/i18n-LANG.js).
for (const lang of m.LANGS.filter((l) => l !== "en")) require(path.resolve(web, `i18n-${lang}.js`));
const app = fs.readFileSync(path.join(web, "app.js"), "utf8");
const html = fs.readFileSync(path.join(web, "index.html"), "utf8");
const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
}

// ---- the tables ----
const en = m.MESSAGES.en, zh = m.MESSAGES["zh-CN"];
for (const k of Object.keys(en)) check(k in zh, `zh-CN lacks the key ${k}`);
// An option's English label is its declaration's (x-label in /v1/openapi.json): field.* keys are
// Chinese only (issue 42: the English table had "Gpu", "Itl p95", "Storage gbyte s").
for (const k of Object.keys(zh)) check(k in en || /^field\./.test(k), `en lacks the key ${k}`);
for (const k of Object.keys(en)) check(!/^field\./.test(k), `en has ${k}: an option's English label is its declaration's x-label`);
const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort().join(",");
const cjk = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;
for (const [k, e] of Object.entries(en)) {
  if (!(k in zh)) continue;
  const z = zh[k];
  check(typeof z === "string" && z.trim() !== "" || e.trim() === "", `zh-CN ${k} is empty`);
  check(holes(e) === holes(z), `${k}: placeholders differ (en {${holes(e)}}, zh-CN {${holes(z)}})`);
  if (m.SAME_IN_BOTH.has(k)) continue;
  check(z !== e, `zh-CN ${k} is left in English: "${z}"`);
  // Words, not only the English ones in a new order: some Chinese in every text with letters.
  const words = e.replace(/\{\w+\}/g, "").replace(/\b(GiB|GB|MB|TFLOP|Gbit|Mbit|HTTP|JSON|GPU|EFA)\b/g, "");
  check(!/[A-Za-z]{3}/.test(words) || cjk.test(z), `zh-CN ${k} has no Chinese: "${z}"`);
}
for (const k of m.SAME_IN_BOTH) check(k in en && en[k] === zh[k], `SAME_IN_BOTH lists ${k}, whose texts differ or do not exist`);

// ---- every key the page names exists; every key is named (field.*, purchase.*, ... are built
// from API names, so by their prefix) ----
const namespaces = new Set(Object.keys(en).map((k) => k.split(".")[0]));
const used = new Set();
for (const src of [app, html]) {
  for (const x of src.matchAll(/["'`]([a-z][a-zA-Z]*\.[a-zA-Z0-9.-]*[a-zA-Z0-9])["'`]/g)) {
    if (namespaces.has(x[1].split(".")[0])) used.add(x[1]);
  }
}
for (const k of used) check(k in en, `the page uses the key ${k}, which no table has`);
const dynamic = [/^field\./, /^purchase\./, /^payment\./, /^plan\./, /^view\./, /^catalog\.col\.per(Gpu)?Hour(Any)?$/];
for (const k of Object.keys(en)) check(used.has(k) || dynamic.some((re) => re.test(k)), `the key ${k} is in the tables but the page never uses it`);

// ---- the language: ?lang=, then the stored choice, then the browser's languages ----
assert.strictEqual(m.pickLang("zh", null, ["en-US"]), "zh-CN");
assert.strictEqual(m.pickLang("en", "zh-CN", ["zh-CN"]), "en");
assert.strictEqual(m.pickLang(null, "zh-CN", ["en-US"]), "zh-CN");
assert.strictEqual(m.pickLang("fr", null, ["fr-FR", "zh-TW", "en"]), "zh-CN");
assert.strictEqual(m.pickLang(null, null, ["de-DE", "en-GB", "zh-CN"]), "en");
assert.strictEqual(m.pickLang(null, null, ["de-DE"]), "en");
assert.strictEqual(m.pickLang(null, "garbage", undefined), "en");

// ---- messages and purchase terms ----
m.setLang("zh-CN", ["zh-CN"]);
assert.strictEqual(m.t("rec.leftOut", {n: 3}), "已排除（3）");
assert.strictEqual(m.t("no.such.key", null, "Fallback"), "Fallback");
m.MESSAGES.en["test.onlyEnglish"] = "E {x}";  // a key a language lacks reads in English
assert.strictEqual(m.t("test.onlyEnglish", {x: 1}), "E 1");
delete m.MESSAGES.en["test.onlyEnglish"];
assert.strictEqual(m.tm({purchase: "spot"}), "竞价");
assert.strictEqual(m.tm(["rec.leftOut", {n: 2}]), "已排除（2）");
const terms = {"on-demand": "按需", spot: "竞价", "reserved-1y-no-upfront": "预留实例", "reserved-3y-all-upfront": "预留实例",
               "reserved-1y-standard-partial-upfront": "预留实例", "savings-plan-compute-1y": "节省计划",
               "savings-plan-ec2-instance-3y": "节省计划", "capacity-block": "容量块"};
for (const [id, word] of Object.entries(terms)) check(m.purchaseName(id).includes(word), `zh-CN ${id}: ${m.purchaseName(id)} lacks ${word}`);
assert.strictEqual(m.purchaseName("reserved-3y-all-upfront"), "预留实例（3 年，全部预付）");
assert.strictEqual(m.purchaseName("something-new"), "something-new");
m.setLang("en", ["en-US"]);
assert.strictEqual(m.purchaseName("on-demand"), "on-demand");
assert.strictEqual(m.purchaseName("savings-plan-ec2-instance-1y"), "savings plan (EC2 Instance), 1-year");

// ---- money: a row's price in its own currency, never another's, never a $ for yuan ----
const usdRow = {on_demand_usd_per_hour: 98.32};
const cnyRow = {currency: "CNY", on_demand_cny_per_hour: 700.5, on_demand_usd_per_hour: 98.32};
const cnyOnlyUsd = {currency: "CNY", on_demand_usd_per_hour: 98.32};
assert.strictEqual(m.currencyOf(usdRow), "USD");
assert.strictEqual(m.currencyOf(cnyRow), "CNY");
assert.strictEqual(m.priceKey("total_usd", "CNY"), "total_cny");
assert.strictEqual(m.priceKey("usd_per_hour", "CNY"), "cny_per_hour");
assert.strictEqual(m.priceOf(usdRow, "on_demand_usd_per_hour"), 98.32);
assert.strictEqual(m.priceOf(cnyRow, "on_demand_usd_per_hour"), 700.5);
assert.strictEqual(m.priceOf(cnyOnlyUsd, "on_demand_usd_per_hour"), null, "a CNY row's USD key is not its price");
for (const [lang, browser] of [["en", ["en-US"]], ["zh-CN", ["zh-CN"]], ["en", ["de-DE"]]]) {
  m.setLang(lang, browser);
  const yuan = m.moneyOf(cnyRow, "on_demand_usd_per_hour", 2);
  check(!yuan.includes("$") && yuan.includes("¥") && /700/.test(yuan), `${lang}/${browser}: CNY shown as ${yuan}`);
  check(m.moneyOf(usdRow, "on_demand_usd_per_hour", 2).includes("$"), `${lang}: USD keeps its $`);
  check(!m.currencySymbol("CNY").includes("$"), `${lang}: CNY symbol ${m.currencySymbol("CNY")}`);
}
m.setLang("zh-CN", ["zh-CN"]);
assert.strictEqual(m.money(1234.5, "CNY", 2), "¥1,234.50");
assert.strictEqual(m.money(1234.5, "USD", 2), "US$1,234.50");
assert.strictEqual(m.date("2026-08-26"), "2026年8月26日");
m.setLang("en", ["de-DE"]);
assert.strictEqual(m.num(1234.5, 1), "1.234,5", "English page, German browser: German numbers");
m.setLang("en", ["en-US"]);
assert.strictEqual(m.date("2026-08-26"), "Aug 26, 2026");
assert.strictEqual(m.money(null, "USD"), "–");
// Mixed currencies sort by currency, then amount; no price last.
const cells = [{amount: 5, currency: "USD"}, {amount: 900, currency: "CNY"}, {amount: null, currency: "USD"}, {amount: 1, currency: "USD"}, {amount: 30, currency: "CNY"}];
assert.deepStrictEqual([...cells].sort(m.compareMoney).map((c) => `${c.currency}${c.amount}`), ["CNY30", "CNY900", "USD1", "USD5", "USDnull"]);

if (failures.length) {
  for (const f of failures) console.log("FAIL " + f);
  console.log(`i18n_test: ${failures.length} failed`);
  process.exit(1);
}
console.log(`i18n_test: ${Object.keys(en).length} keys in en and zh-CN, ${used.size} named by the page; all passed`);
