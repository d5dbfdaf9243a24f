// Driven by web_bench.sh: node web_bench.js URL. Prints first-load transfer and answer times.
"use strict";
const {chromium} = require("playwright-core");
const url = process.argv[2];
const n = Number(process.env.N || 5);
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const ms = (v) => `${v.toFixed(0)} ms`;

(async () => {
  const context = await chromium.launchPersistentContext(process.env.PROFILE, {
    executablePath: process.env.CHROMIUM, headless: true, viewport: {width: 1280, height: 900},
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  const page = context.pages()[0] || (await context.newPage());
  await page.goto(url, {waitUntil: "load"});
  await page.waitForSelector("#catalog tbody tr");
  const first = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const res = performance.getEntriesByType("resource");
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const rows = performance.getEntriesByName("catalog-rows")[0].startTime;  // marked by app.js
    const byType = {};
    for (const e of [nav, ...res]) {
      const k = e === nav ? "document" : /\/v1\//.test(e.name) ? "api" : e.name.split("/").pop();
      byType[k] = (byType[k] || 0) + e.transferSize;
    }
    return {total: [nav, ...res].reduce((s, e) => s + e.transferSize, 0), requests: res.length + 1, byType,
            fcp: fcp ? fcp.startTime : null, dcl: nav.domContentLoadedEventEnd, rows, doc: nav.responseEnd};
  });
  const page_bytes = Object.entries(first.byType).filter(([k]) => k !== "api").reduce((s, [, v]) => s + v, 0);
  console.log(`first load: ${first.total} bytes transferred in ${first.requests} requests ` +
              `(page files ${page_bytes} bytes, API answers ${first.byType.api || 0} bytes)`);
  console.log(`  by file: ${Object.entries(first.byType).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  console.log(`from navigation start: document received ${ms(first.doc)}, first contentful paint ${ms(first.fcp)}, ` +
              `DOMContentLoaded ${ms(first.dcl)}, catalog rows shown ${ms(first.rows)} (${ms(first.rows - first.doc)} after the document arrived)`);

  async function timeAnswer(view, query, ready) {
    const times = [];
    await page.goto(`${url}?view=${view}&${query}`);
    await page.waitForSelector(ready, {timeout: 60000});
    for (let i = 0; i < n; ++i) {
      const t = await page.evaluate(async ([v, sel]) => {
        const t0 = performance.now();
        document.querySelector(`#${v}-form button[type=submit]`).click();
        await new Promise((resolve) => {
          const poll = () => (document.querySelector(sel) && !document.querySelector(`#${v}-status`).classList.contains("busy") ? resolve() : requestAnimationFrame(poll));
          poll();
        });
        return performance.now() - t0;
      }, [view, ready]);
      times.push(t);
    }
    return times;
  }
  const rec = await timeAnswer("recommend", "task=finetune&model=llama-3.1-8b&tokens=2B", "#recommend-out .plans li");
  console.log(`recommend (finetune llama-3.1-8b, 2B tokens) submitted -> plans and chart shown: median ${ms(median(rec))} (n=${n}; ${rec.map((t) => t.toFixed(0)).join(", ")})`);
  const est = await timeAnswer("estimate", "task=serve&model=llama-3.1-8b&rps=2&instance=g6e.xlarge", "#estimate-out .membar");
  console.log(`estimate (serve llama-3.1-8b on g6e.xlarge) submitted -> shown: median ${ms(median(est))} (n=${n})`);
  await context.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
