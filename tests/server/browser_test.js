// Driven by browser_test.sh: node browser_test.js URL (NODE_PATH has playwright-core).
"use strict";
const {chromium} = require("playwright-core");

const url = process.argv[2];
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

(async () => {
  const context = await chromium.launchPersistentContext(process.env.PROFILE, {
    executablePath: process.env.CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", "--disable-sync"],
    viewport: {width: 1280, height: 900},
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const external = [];
  page.on("request", (r) => !r.url().startsWith(url) && external.push(r.url()));

  // First paint: the catalog table fills in.
  await page.goto(url, {waitUntil: "load"});
  await page.waitForSelector("#catalog tbody tr", {timeout: 20000});
  const transferred = await page.evaluate(() =>
    performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
      .reduce((s, e) => s + (e.transferSize || 0), 0));
  console.log(`first paint transferred ${transferred} bytes`);
  check(transferred > 0 && transferred < 100 * 1024, "first paint < 100 KB transferred");
  const all = await page.locator("#catalog tbody tr").count();
  check(all > 20, `catalog table lists types (${all} rows)`);

  // Filter: accelerator H100, then a name filter.
  await page.selectOption("#f-gpu", "H100");
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll("#catalog tbody tr td:nth-child(2)")];
    return cells.length > 0 && cells.every((c) => c.textContent === "H100");
  }, null, {timeout: 10000});
  const h100 = await page.locator("#catalog tbody tr").count();
  check(h100 > 0 && h100 < all, `GPU filter narrows to H100 (${h100} rows)`);
  await page.fill("#f-text", "48xlarge");
  const names = await page.locator("#catalog tbody tr td:first-child").allTextContents();
  check(names.length > 0 && names.every((n) => n.includes("48xlarge")), "name filter");

  // Sort by vCPUs (a click), then descending (a second click, from the keyboard).
  await page.locator('#catalog th button[data-key="vcpus"]').click();
  const asc = await page.locator('#catalog th:has(button[data-key="vcpus"])').getAttribute("aria-sort");
  await page.keyboard.press("Enter");  // focus stays on the header button
  const sort = await page.locator('#catalog th:has(button[data-key="vcpus"])').getAttribute("aria-sort");
  const vcpus = (await page.locator("#catalog tbody tr td:nth-child(6)").allTextContents()).map(Number);
  check(asc === "ascending" && sort === "descending" && vcpus.every((v, i) => i === 0 || vcpus[i - 1] >= v),
        `sort by a column, both directions (aria-sort ${asc}, then ${sort})`);
  await page.check('input[name=basis][value=gpu]');
  const label = await page.locator('#catalog th button[data-key="price"]').textContent();
  check(label.includes("GPU"), `price per GPU-hour switch (${label})`);
  await page.selectOption("#f-region", "all");
  await page.waitForSelector('#catalog th button[data-key="region"]', {timeout: 10000});
  check(true, "region switch to all regions adds a region column");

  // Recommendation, from the keyboard: arrow to the tab, fill, Enter submits.
  await page.focus("#tab-catalog");
  await page.keyboard.press("ArrowRight");
  check(await page.isVisible("#view-recommend"), "arrow key opens the Recommend tab");
  await page.selectOption("#r-task", "finetune");
  await page.selectOption("#r-model", "llama-3.1-8b");
  await page.fill("#r-tokens", "2B");
  await page.fill("#r-deadline", "2d");
  await page.check('input[name=purchase][value=spot]');
  await page.focus("#r-tokens");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#plans li", {timeout: 30000});
  await page.waitForSelector("#chart canvas", {timeout: 10000});
  const plans = await page.locator("#plans li h3").allTextContents();
  check(plans.length >= 1 && plans[0].startsWith("#1 "), `ranked plans shown (${plans[0]})`);
  const why = await page.locator("#plans li .why li").count();
  check(why > 0, "plans say why");
  const chartBox = await page.locator("#chart canvas").first().boundingBox();
  check(chartBox && chartBox.width > 200 && chartBox.height > 100, "cost-vs-time chart drawn");
  const caption = await page.textContent("#chart-caption");
  check(caption.includes("wall-clock time"), `chart is cost vs time (${caption})`);
  await page.screenshot({path: process.env.SCREENSHOT, fullPage: true});

  // The launch spec of plan #1 downloads as a file.
  const [download] = await Promise.all([
    page.waitForEvent("download", {timeout: 10000}),
    page.locator("#plans li .launch-get").first().click(),
  ]);
  check(/\.sh$/.test(download.suggestedFilename()), `launch spec download (${download.suggestedFilename()})`);
  console.log(`screenshot: ${process.env.SCREENSHOT}`);

  // Allow/deny lists as request keys (issue 25): the status records them, and lists that leave
  // no instance type say which one did (the "Left out" list is empty then).
  await page.fill("#r-extra", "only-gpu=H100");
  await page.click("#r-submit");
  await page.waitForFunction(() => document.querySelector("#rec-status").textContent.includes("filters:"), null, {timeout: 30000});
  const filtered = await page.textContent("#rec-status");
  check(filtered.includes("filters: only-gpu H100 ("), `status records the filters (${filtered})`);
  await page.fill("#r-extra", "only-family=p5 exclude-gpu=H100");
  await page.click("#r-submit");
  await page.waitForFunction(() => document.querySelector("#rec-status").textContent.startsWith("No plan:"), null, {timeout: 30000});
  const emptied = await page.textContent("#rec-status");
  check(emptied.includes("exclude-gpu H100 leaves none"), `an emptied field names the list (${emptied})`);
  await page.fill("#r-extra", "");

  const scriptErrors = errors.length;
  // A bad request shows the API's message, not a crash.
  await page.fill("#r-tokens", "-3");
  await page.click("#r-submit");
  await page.waitForSelector("#rec-status.error", {timeout: 10000});
  const msg = await page.textContent("#rec-status");
  check(msg.includes("tokens"), `error names the field (${msg})`);

  check(external.length === 0, `no requests leave the server (${external.join(", ")})`);
  check(scriptErrors === 0, `no script errors (${errors.join("; ")})`);
  await context.close();
  if (failures.length) {
    console.log(`browser_test: ${failures.length} failed`);
    process.exit(1);
  }
  console.log("browser_test: all passed");
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
