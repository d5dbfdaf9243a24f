// Driven by browser_test.sh: node browser_test.js URL (NODE_PATH has playwright-core; AXE names
// axe-core's axe.min.js; SHOTS is the folder for the screenshots).
"use strict";
const fs = require("fs");
const path = require("path");
const {chromium} = require("playwright-core");

const url = process.argv[2];
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};
const shot = (page, name) => page.screenshot({path: path.join(process.env.SHOTS, name + ".png"), fullPage: true});
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--no-first-run", "--disable-sync"];

// axe-core on the page as it is: serious and critical violations fail. bypassCSP lets the test
// inject axe (the page itself allows no inline script).
const axeSource = fs.readFileSync(process.env.AXE, "utf8");
async function axe(page, where) {
  await page.evaluate(axeSource);
  const res = await page.evaluate(() => window.axe.run(document, {resultTypes: ["violations"]}));
  const bad = res.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(bad.length === 0, `axe-core: no serious/critical violations on ${where}` +
        bad.map((v) => `\n      ${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`).join(""));
}

// Submits a form and checks, in the same task as the click (before any reply can arrive), that
// the view's previous answer is gone; returns the answer area's text once the status settles.
async function submitFresh(page, view, what) {
  const left = await page.evaluate((v) => {
    document.querySelector(`#${v}-form button[type=submit]`).click();
    return document.querySelector(`#${v}-out`).childElementCount;
  }, view);
  check(left === 0, `${what}: the old answer is cleared as the new request starts (${left} element(s) left)`);
  await page.waitForFunction((v) => !document.querySelector(`#${v}-status`).classList.contains("busy"), view, {timeout: 60000});
}

// Synthetic nvidia-smi --query-gpu CSV: 48 h of 10-minute samples, idle 12 h a day.
function telemetryCsv() {
  const lines = ["timestamp, name, index, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"];
  const t0 = Date.UTC(2026, 6, 1);
  for (let i = 0; i < 48 * 6; ++i) {
    const busy = Math.floor(i / 6) % 24 < 12;
    const d = new Date(t0 + i * 600000).toISOString().replace("T", " ").replace(/-/g, "/").replace("Z", "");
    lines.push(`${d}, NVIDIA H100 80GB HBM3, 0, GPU-1, ${busy ? 85 : 0} %, ${busy ? 60000 : 0} MiB, 81559 MiB`);
  }
  return lines.join("\n") + "\n";
}

(async () => {
  const context = await chromium.launchPersistentContext(process.env.PROFILE, {
    executablePath: process.env.CHROMIUM, headless: true, args, bypassCSP: true, locale: "en-US",
    viewport: {width: 1280, height: 900}, acceptDownloads: true,
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && !/status of 4\d\d/.test(m.text()) && errors.push(m.text()));
  const external = [];
  page.on("request", (r) => !r.url().startsWith(url) && !r.url().startsWith("blob:") && !r.url().startsWith("data:") && external.push(r.url()));

  // ---- catalog: first paint, filters, sorting, the empty state, an error ----
  await page.goto(url, {waitUntil: "load"});
  await page.waitForSelector("#catalog tbody tr", {timeout: 20000});
  const transferred = await page.evaluate(() =>
    performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
      .reduce((s, e) => s + (e.transferSize || 0), 0));
  console.log(`first load transferred ${transferred} bytes`);
  check(transferred > 0 && transferred < 100 * 1024, "first load < 100 KB transferred");
  const all = await page.locator("#catalog tbody tr").count();
  const status0 = await page.textContent("#catalog-status");
  check(all > 20 && status0.startsWith(`${all} of ${all} `), `catalog lists types (${status0})`);
  check((await page.textContent("#catalog-key")).includes("estimated"), "the page says what ~ means");
  check(await page.getAttribute("html", "lang") === "en", "a browser in en-US gets the English page (<html lang=\"en\">)");
  await shot(page, "catalog-en");
  await axe(page, "catalog");

  await page.fill("#catalog-form input[name=gpu]", "H100");
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll("#catalog tbody tr td:nth-child(4)")];
    return cells.length > 0 && cells.every((c) => c.textContent === "H100");
  }, null, {timeout: 10000});
  const h100 = await page.locator("#catalog tbody tr").count();
  check(h100 > 0 && h100 < all, `GPU filter narrows to H100 (${h100} rows)`);
  check(new URL(page.url()).searchParams.get("gpu") === "H100", `filters are in the URL (${page.url()})`);
  await page.locator('#catalog th button[data-key="vcpus"]').click();
  await page.keyboard.press("Enter");  // focus stays on the header button: descending
  const sort = await page.locator('#catalog th:has(button[data-key="vcpus"])').getAttribute("aria-sort");
  check(sort === "descending", `sort by a column from the keyboard (aria-sort ${sort})`);

  // Empty result: the status counts against the catalog (not "0 of 0") and says what to relax.
  await page.fill("#catalog-form input[name=max-price]", "0.01");
  await page.waitForFunction(() => document.querySelector("#catalog-status").classList.contains("empty"), null, {timeout: 10000});
  const empty = await page.textContent("#catalog-status");
  check(!/\b0 of 0\b/.test(empty) && /^0 of \d+/.test(empty) && empty.includes("relax") && empty.includes("Max price"),
        `empty catalog says why and what to relax (${empty})`);
  check(await page.locator("#catalog tbody tr").count() === 0, "empty catalog shows no rows");
  await shot(page, "catalog-empty");
  // An error next to the field it names, and no rows from before under it.
  await page.fill("#catalog-form input[name=max-price]", "");
  await page.fill("#catalog-form input[name=gpu]", "NOPE");
  await page.waitForSelector("#catalog-status.error", {timeout: 10000});
  const gpuErr = await page.textContent('#catalog-form .field[data-field="gpu"] .err');
  check(gpuErr.includes("unknown GPU"), `catalog error next to its field (${gpuErr})`);
  check(await page.locator("#catalog tbody tr").count() === 0, "no stale rows under a catalog error");
  await page.fill("#catalog-form input[name=gpu]", "");
  await page.waitForFunction((n) => document.querySelectorAll("#catalog tbody tr").length === n, all, {timeout: 10000});

  // Issue 42: labels and units from the option declarations, GPU counts as integers, regions by
  // name, and "Max price" in the currency of the region's prices.
  const labelOf = (form, name) => page.evaluate(([f, n]) => {
    const l = document.querySelector(`#${f}-form .field[data-field="${n}"] > label`);
    return l ? l.textContent : "";
  }, [form, name]);
  const gpuLabel = await labelOf("catalog", "gpu"), minGpus = await labelOf("catalog", "min-gpus");
  check(/^GPU\b/.test(gpuLabel) && /^Min GPUs\b/.test(minGpus), `catalog labels from the declarations (${gpuLabel} | ${minGpus})`);
  const counts = await page.evaluate(() => [...document.querySelectorAll("#catalog tbody tr td:nth-child(5)")].map((c) => c.textContent));
  check(counts.length > 0 && counts.every((c) => /^\d+$|^\d*\.\d*[1-9]$|^–$/.test(c)) && counts.includes("1"), `GPU counts are integers, not 1.000 (${[...new Set(counts)].join(" ")})`);
  const beijing = await page.textContent('#catalog-form select[name=region] option[value="cn-north-1"]');
  check(beijing.includes("China (Beijing)"), `regions listed by name (${beijing})`);
  check((await labelOf("catalog", "max-price")).includes("USD/h"), "Max price in USD/h for us-east-1");
  // The catalog answers after a short pause: wait for the Beijing answer (its status names it).
  const settledIn = (region, rowsNot) => page.waitForFunction(([r, n]) => {
    const s = document.querySelector("#catalog-status");
    return !s.classList.contains("busy") && s.textContent.includes(r) && document.querySelectorAll("#catalog tbody tr").length !== n;
  }, [region, rowsNot], {timeout: 10000}).catch(() => {});
  await page.selectOption("#catalog-form select[name=region]", "cn-north-1");
  await settledIn("cn-north-1", -1);
  const cnAll = await page.locator("#catalog tbody tr").count();
  const cnyLabel = await labelOf("catalog", "max-price");
  check(cnyLabel.includes("CNY/h") && !cnyLabel.includes("USD"), `Max price in CNY/h for a China region (${cnyLabel})`);
  await page.fill("#catalog-form input[name=max-price]", "60");
  await settledIn("cn-north-1", cnAll);
  const cnCheap = await page.locator("#catalog tbody tr").count();
  check(!(await page.locator("#catalog-status.error").count()) && cnCheap > 0 && cnCheap < cnAll,
        `a China region's price limit filters in CNY (${cnCheap} of ${cnAll}: ${await page.textContent("#catalog-status")})`);
  await page.fill("#catalog-form input[name=max-price]", "");
  await page.selectOption("#catalog-form select[name=region]", "us-east-1");
  await page.waitForFunction((n) => document.querySelectorAll("#catalog tbody tr").length === n, all, {timeout: 10000});

  // ---- instance: a row opens it ----
  await page.locator("#catalog tbody tr", {hasText: "p5.48xlarge"}).locator("td").nth(2).click();
  await page.waitForSelector("#instance-out table.pricing", {timeout: 15000});  // the last part drawn
  check(new URL(page.url()).searchParams.get("type") === "p5.48xlarge", `a row opens its instance view (${page.url()})`);
  const inst = await page.textContent("#instance-out");
  check(inst.includes("Datasheet") && inst.includes("Price per region") && inst.includes("Break-even"),
        "instance view: specs, datasheet, prices per region, purchase options with break-even");
  check(await page.locator("#instance-out figure canvas").count() > 0, "instance view: price history chart (Capacity Block)");
  await shot(page, "instance-en");
  await axe(page, "instance");
  await page.goBack();
  await page.waitForSelector("#view-catalog:not([hidden])");
  check(await page.locator("#catalog tbody tr").count() === all, "back returns to the catalog");

  // ---- estimate: from a shared URL, then an error that must clear it ----
  await page.goto(url + "?view=estimate&task=finetune&model=llama-3.1-8b&tokens=2B&instance=p5.48xlarge");
  await page.waitForSelector("#estimate-out .membar", {timeout: 20000});
  const estText = await page.textContent("#estimate-out");
  check(estText.includes("weights") && estText.includes("optimizer") && estText.includes("activations") && estText.includes("of 80.0 GiB"),
        "estimate: memory bar against device memory");
  const itl = await labelOf("estimate", "itl-p95"), seq = await labelOf("estimate", "seq-len");
  check(/^ITL p95\b/.test(itl) && /^Sequence length\b/.test(seq), `estimate labels from the declarations (${itl} | ${seq})`);
  check(await page.locator("#estimate-out .est").count() >= 3 && estText.includes("–"), "estimate: figures marked ≈ with their band");
  check(estText.includes("Assumptions") && (await page.locator("#estimate-out .notes li").count()) > 2, "estimate: assumptions listed");
  check(await page.inputValue("#estimate-form input[name=tokens]") === "2B", "a URL fills the form");
  check(await page.isHidden('#estimate-form .field[data-field="rps"]'), "fields of other tasks are hidden (rps for finetune)");
  await shot(page, "estimate-en");
  await axe(page, "estimate");
  await page.fill("#estimate-form input[name=tokens]", "-3");
  await submitFresh(page, "estimate", "estimate error");
  const tokErr = await page.textContent('#estimate-form .field[data-field="tokens"] .err');
  check(tokErr.includes("tokens") && (await page.getAttribute("#estimate-form input[name=tokens]", "aria-invalid")) === "true",
        `estimate: the error is next to the field (${tokErr})`);
  check(await page.locator("#estimate-out > *").count() === 0, "estimate: no old answer under the error");
  await shot(page, "estimate-error");
  // Switching the task shows its own fields (from x-tasks).
  await page.selectOption("#estimate-form select[name=task]", "transcode");
  check(await page.isVisible('#estimate-form .field[data-field="streams"]') && await page.isHidden('#estimate-form .field[data-field="tokens"]'),
        "transcode shows streams, hides tokens");
  await page.selectOption("#estimate-form select[name=task]", "finetune");

  // ---- recommend: keyboard, plans, chart captioned for the task, download, then stale checks ----
  await page.click('nav a[data-view="recommend"]');
  await page.selectOption("#recommend-form select[name=task]", "finetune");
  await page.fill("#recommend-form input[name=model]", "llama-3.1-8b");
  await page.fill("#recommend-form input[name=tokens]", "2B");
  await page.fill("#recommend-form input[name=deadline]", "2d");
  await page.check('#recommend-form input[name=purchase][value=spot]');
  await page.check('#recommend-form input[name=purchase][value=on-demand]');
  await page.focus("#recommend-form input[name=tokens]");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#recommend-out .plans li", {timeout: 30000});
  await page.waitForSelector("#recommend-out canvas", {timeout: 10000});
  const plans = await page.locator("#recommend-out .plans > li h3").allTextContents();
  check(plans.length >= 1 && plans[0].startsWith("#1 "), `ranked plans shown (${plans[0]})`);
  const caption = await page.textContent("#recommend-out figcaption");
  check(caption.startsWith("finetune: cost of the run"), `chart captioned for the task (${caption})`);
  check(await page.locator("#recommend-out .u-legend").count() === 0, "no uPlot legend repeating the caption");
  check(new URL(page.url()).searchParams.get("deadline") === "2d", "recommend state in the URL");
  check(!/\bnull\b/.test(await page.textContent("#recommend-out")), "recommend: no \"null\" printed where a part is absent");
  await shot(page, "recommend-en");
  await axe(page, "recommend");
  const [download] = await Promise.all([
    page.waitForEvent("download", {timeout: 10000}),
    page.locator("#recommend-out .launch button").first().click(),
  ]);
  check(/\.sh$/.test(download.suggestedFilename()), `launch spec download (${download.suggestedFilename()})`);
  const recUrl = page.url();

  // An error: the plans must be gone the moment the request starts and stay gone.
  await page.fill("#recommend-form input[name=tokens]", "-3");
  await submitFresh(page, "recommend", "recommend error");
  check(await page.locator("#recommend-status.error").count() === 1, "recommend: error shown");
  check(await page.locator("#recommend-out .plans li, #recommend-out canvas").count() === 0, "recommend: no old plans under the error");
  check((await page.textContent('#recommend-form .field[data-field="tokens"] .err')).includes("tokens"), "recommend: error next to tokens");
  await shot(page, "recommend-error");

  // A new question in another region: no us-east-1 plan may remain on screen.
  await page.fill("#recommend-form input[name=tokens]", "2B");
  await page.fill("#recommend-form input[name=regions]", "eu-west-1");
  await submitFresh(page, "recommend", "recommend new region");
  const regionsShown = await page.locator("#recommend-out .plans > li h3").allTextContents();
  check(regionsShown.length > 0 && regionsShown.every((t) => t.includes("eu-west-1")), `only the new region's plans (${regionsShown.join(" | ")})`);

  // Allow/deny lists that leave nothing: an empty result that names the list, no chart.
  await page.fill("#recommend-form input[name=regions]", "");
  await page.fill("#recommend-form input[name=only-family]", "p5");
  await page.fill("#recommend-form input[name=exclude-gpu]", "H100");
  await submitFresh(page, "recommend", "recommend emptied by lists");
  const emptied = await page.textContent("#recommend-status");
  check(emptied.startsWith("No plan:") && emptied.includes("exclude-gpu"), `emptied lists say which one (${emptied})`);
  check(await page.locator("#recommend-out canvas, #recommend-out .plans li").count() === 0, "no chart or plans for an empty result");
  await page.fill("#recommend-form input[name=only-family]", "");
  await page.fill("#recommend-form input[name=exclude-gpu]", "");
  // Infeasible: a deadline nothing meets. No chart; reasons open; what to relax.
  await page.fill("#recommend-form input[name=tokens]", "2T");
  await page.fill("#recommend-form input[name=deadline]", "1m");
  await submitFresh(page, "recommend", "recommend infeasible");
  const infeasible = await page.textContent("#recommend-status");
  check(infeasible.startsWith("No feasible plan") && infeasible.includes("relax"), `infeasible says what to relax (${infeasible})`);
  check(await page.locator("#recommend-out canvas").count() === 0, "no chart for an infeasible job");
  await shot(page, "recommend-empty");
  // Back to the first answer from its URL.
  await page.goto(recUrl);
  await page.waitForSelector("#recommend-out .plans li", {timeout: 30000});
  check((await page.locator("#recommend-out .plans > li h3").first().textContent()) === plans[0], "the recommend URL reproduces the answer");

  // ---- compare ----
  await page.goto(url + "?view=compare&types=p5.48xlarge,p4d.24xlarge,g6e.48xlarge&task=finetune&model=llama-3.1-8b&tokens=2B");
  await page.waitForSelector("#compare-out table", {timeout: 30000});
  const cols = await page.locator("#compare-out thead th").count();
  check(cols === 4, `compare: three types side by side (${cols - 1})`);
  await shot(page, "compare-en");
  await axe(page, "compare");
  await page.fill('#compare-form input[name=types]', "p5.48xlarge");
  await submitFresh(page, "compare", "compare error");
  check((await page.textContent('#compare-form .field[data-field="types"] .err')).includes("2 to 4"), "compare: one type is an error at its field");
  check(await page.locator("#compare-out table").count() === 0, "compare: no old table under the error");
  // Serving: latency and capacity rows, one estimate mark per figure (was "≈~$").
  await page.goto(url + "?view=compare&types=g6e.xlarge,g5.xlarge&task=serve&model=llama-3.1-8b&rps=2");
  await page.waitForSelector("#compare-out table", {timeout: 30000});
  const serving = await page.textContent("#compare-out table");
  check(serving.includes("TTFT / ITL") && serving.includes("Capacity") && /requests\/s/.test(serving),
        `compare (serving): latency and capacity rows (${serving.slice(0, 200)})`);
  check(!serving.includes("≈~"), "compare (serving): no doubled estimate mark");

  // ---- pricing: options and the break-even chart ----
  await page.goto(url + "?view=pricing&type=p5.48xlarge&hours-per-month=200&months=12");
  await page.waitForSelector("#pricing-out canvas", {timeout: 30000});
  const pricing = await page.textContent("#pricing-out");
  check(pricing.includes("on-demand") && pricing.includes("spot") && pricing.includes("Break-even use"), "pricing: options table");
  check((await page.textContent("#pricing-out figcaption")).includes("breaks even"), "pricing: break-even chart captioned");
  const storage = await labelOf("pricing", "storage-gbyte-s");
  check(/^Storage bandwidth \(GB\/s\b/.test(storage), `pricing: a label and unit from the declaration (${storage})`);
  await shot(page, "pricing-en");
  await axe(page, "pricing");

  // ---- idle: files go to this server's /v1/idle only ----
  await page.goto(url + "?view=idle");
  await page.waitForSelector("#idle-files");
  await submitFresh(page, "idle", "idle without files");
  check((await page.textContent('#idle-form .field[data-field="body"] .err')).includes("telemetry"), "idle: no file is an error at the file field");
  const idleRequests = [];
  page.on("request", (r) => r.method() === "POST" && idleRequests.push(r.url()));
  await page.setInputFiles("#idle-files", [
    {name: "gpu-host-1.csv", mimeType: "text/csv", buffer: Buffer.from(telemetryCsv())},
    {name: "l40s-node.prom", mimeType: "text/plain", buffer: fs.readFileSync(path.join(process.env.TELEMETRY, "prom-nvidia-l40s__595.80__idle.prom"))},
  ]);
  await submitFresh(page, "idle", "idle");
  const idle = await page.textContent("#idle-out");
  check(/2 host\(s\)/.test(idle) && idle.includes("gpu-host-1") && /\$[\d,.]+ spent on idle GPUs/.test(idle), `idle: hosts, idle hours and waste (${idle.slice(0, 120)})`);
  check(idleRequests.length === 2 && idleRequests.every((u) => u.startsWith(url + "v1/idle?")), `idle: files posted to this server only (${idleRequests.join(", ")})`);
  // The hour-of-week grid: 7 days x 24 hours, the files' hours shaded.
  check(await page.locator("#idle-out table.week tbody tr").count() === 7 &&
        await page.locator("#idle-out table.week tbody td").count() === 7 * 24,
        "idle: the hour-of-week grid");
  check(await page.locator("#idle-out table.week td[style]").count() > 0, "idle: observed hours shaded");
  await shot(page, "idle-en");
  await axe(page, "idle");
  // Issue 42: README's fleet log (2.8 MB) is over the 1 MB --max-body as text: the page sends
  // it gzip-compressed (CompressionStream), and a file over the limit even so gets a message
  // naming the limit and --max-body, not a bare "payload too large".
  const idleEncodings = [];
  const onIdle = (r) => r.method() === "POST" && r.url().includes("/v1/idle?") && idleEncodings.push(r.headers()["content-encoding"] || "identity");
  page.on("request", onIdle);
  const fleet = fs.readFileSync(process.env.FLEET);
  check(fleet.length > 2e6, `the fleet log is over --max-body as text (${fleet.length} bytes)`);
  await page.setInputFiles("#idle-files", [{name: "fleet.csv", mimeType: "text/csv", buffer: fleet}]);
  await submitFresh(page, "idle", "idle (fleet log)");
  const fleetOut = await page.textContent("#idle-out");
  check(/5 host\(s\)/.test(fleetOut) && fleetOut.includes("one-of-eight") && fleetOut.includes("always-idle"),
        `idle: the 2.8 MB fleet log is analysed (${(fleetOut || (await page.textContent("#idle-status"))).slice(0, 160)})`);
  check(idleEncodings.length === 1 && idleEncodings[0] === "gzip", `idle: the upload went gzip-compressed (${idleEncodings.join(", ")})`);
  // Random bytes do not compress: 1.5 MB is over the limit even as gzip.
  await page.setInputFiles("#idle-files", [{name: "noise.csv", mimeType: "text/csv", buffer: require("crypto").randomBytes(1500000)}]);
  await submitFresh(page, "idle", "idle (over the limit)");
  const tooLarge = await page.textContent("#idle-status");
  check(/noise\.csv/.test(tooLarge) && /1 MB/.test(tooLarge) && tooLarge.includes("gpuadvisor serve --max-body"),
        `idle: over the body limit, the message names the limit and --max-body (${tooLarge})`);
  page.off("request", onIdle);

  // ---- commitments: a Cost and Usage Report sized on this server (issue 41) ----
  await page.goto(url + "?view=commitments");
  await page.waitForSelector("#commitments-file");
  await submitFresh(page, "commitments", "commitments without a file");
  check((await page.textContent('#commitments-form .field[data-field="body"] .err')).includes("Cost and Usage Report"), "commitments: no file is an error at the file field");
  const billPosts = [];
  const onBill = (r) => r.method() === "POST" && billPosts.push(r.url());
  page.on("request", onBill);
  await page.setInputFiles("#commitments-file", path.join(__dirname, "..", "..", "examples", "cur2-sample.csv.gz"));
  await page.fill("#commitments-form [name=discount]", "5");
  await submitFresh(page, "commitments", "commitments");
  const bill = await page.textContent("#commitments-out");
  check(/h of usage: on demand \$[\d,.]+\/h/.test(bill) && bill.includes("g5.xlarge") && /standard-ri-1y-no-upfront|ec2-instance-sp/.test(bill) && bill.includes("reserved instance"),
        `commitments: summary, the per-type table and the held RI (${(bill || (await page.textContent("#commitments-status"))).slice(0, 160)})`);
  check(billPosts.length === 1 && billPosts[0].startsWith(url + "v1/commitments?") && billPosts[0].includes("discount=5"), `commitments: the bill posted to this server only, with the form's options (${billPosts.join(", ")})`);
  page.off("request", onBill);
  await shot(page, "commitments-en");
  await axe(page, "commitments");

  // ---- languages: the switch relabels in place, keeps the form, asks the answer again ----
  await page.goto(url + "?view=estimate&task=finetune&model=llama-3.1-8b&tokens=2B&instance=p5.48xlarge");
  await page.waitForSelector("#estimate-out .membar", {timeout: 20000});
  await page.fill("#estimate-form input[name=tokens]", "3B");  // an edit not yet submitted
  await page.evaluate(() => (window.__sameDocument = true));
  const asked = [];
  const onRequest = (r) => r.url().includes("/v1/") && asked.push(r.headers()["accept-language"] || "");
  page.on("request", onRequest);
  await page.click('#lang button[data-lang="zh-CN"]');
  await page.waitForFunction(() => document.querySelector("#estimate-out h4") && document.querySelector("#estimate-out h4").textContent === "假设", null, {timeout: 20000});
  check(await page.evaluate(() => window.__sameDocument === true), "the language switch does not reload the page");
  check(await page.getAttribute("html", "lang") === "zh-CN", "the switch sets <html lang=\"zh-CN\">");
  check(await page.inputValue("#estimate-form input[name=tokens]") === "3B" && await page.inputValue("#estimate-form select[name=task]") === "finetune",
        "the switch keeps what the form holds (tokens 3B, task finetune)");
  const zhLabel = await page.textContent('#estimate-form .field[data-field="tokens"] label');
  const zhButton = await page.textContent("#estimate-form button[type=submit]");
  const zhNav = await page.textContent('nav a[data-view="catalog"]');
  check(zhLabel.startsWith("token 数") && zhButton === "估算" && zhNav === "目录", `the switch relabels the form and the nav (${zhLabel} | ${zhButton} | ${zhNav})`);
  check(new URL(page.url()).searchParams.get("lang") === "zh-CN" && new URL(page.url()).searchParams.get("tokens") === "2B",
        `the URL carries the language and the answer's values (${page.url()})`);
  check(asked.length > 0 && asked.every((l) => l === "zh-CN"), `requests after the switch send Accept-Language: zh-CN (${asked.join(", ")})`);
  page.off("request", onRequest);
  check(await page.getAttribute('#lang button[data-lang="zh-CN"]', "aria-pressed") === "true", "the switch says which language is on (aria-pressed)");
  // From the keyboard, back to English and again to Chinese.
  await page.focus('#lang button[data-lang="en"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.documentElement.lang === "en");
  check((await page.textContent('#estimate-form .field[data-field="tokens"] label')).startsWith("Tokens"), "the switch works from the keyboard (Enter)");
  await page.focus('#lang button[data-lang="zh-CN"]');
  await page.keyboard.press("Space");
  await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
  // The choice is remembered: a link without ?lang opens in Chinese.
  await page.goto(url + "?view=catalog");
  await page.waitForSelector("#catalog tbody tr", {timeout: 20000});
  check(await page.getAttribute("html", "lang") === "zh-CN", "the stored choice applies to a URL without ?lang");

  // ---- every view in Chinese, from ?lang=zh URLs ----
  const zhViews = [
    ["catalog", "?view=catalog&lang=zh", "#catalog tbody tr", "#catalog thead"],
    ["instance", "?view=instance&type=p5.48xlarge&region=us-east-1&lang=zh", "#instance-out figure canvas", "#instance-out"],
    ["estimate", "?view=estimate&task=finetune&model=llama-3.1-8b&tokens=2B&instance=p5.48xlarge&lang=zh", "#estimate-out .membar", "#estimate-out"],
    ["recommend", "?" + new URL(recUrl).searchParams.toString().replace(/&?lang=[^&]*/, "") + "&lang=zh", "#recommend-out canvas", "#recommend-out"],
    ["compare", "?view=compare&types=p5.48xlarge,p4d.24xlarge,g6e.48xlarge&task=finetune&model=llama-3.1-8b&tokens=2B&lang=zh", "#compare-out table", "#compare-out"],
    ["pricing", "?view=pricing&type=p5.48xlarge&hours-per-month=200&months=12&lang=zh", "#pricing-out canvas", "#pricing-out"],
    ["idle", "?view=idle&lang=zh", "#idle-files", "#idle-form"],
  ];
  const han = /[\u4e00-\u9fff]/;
  for (const [view, query, ready, answer] of zhViews) {
    await page.goto(url + query);
    await page.waitForSelector(ready, {timeout: 30000});
    if (view === "idle") {
      await page.setInputFiles("#idle-files", [{name: "gpu-host-1.csv", mimeType: "text/csv", buffer: Buffer.from(telemetryCsv())}]);
      await submitFresh(page, "idle", "idle (zh-CN)");
      await page.waitForSelector("#idle-out table", {timeout: 20000});
    }
    await page.waitForFunction((v) => !document.querySelector(`#${v}-status`).classList.contains("busy"), view, {timeout: 30000});
    check(await page.getAttribute("html", "lang") === "zh-CN", `${view} (?lang=zh): <html lang="zh-CN">`);
    const heading = await page.textContent(`#view-${view} h2`);
    const status = await page.textContent(`#${view}-status`);
    check(han.test(heading) && han.test(status), `${view} (zh-CN): heading and status in Chinese (${heading} | ${status.slice(0, 60)})`);
    // Every visible label of the form is a Chinese one (an option without a zh-CN label shows its English name).
    const english = await page.evaluate((v) => [...document.querySelectorAll(`#${v}-form .field:not([hidden]) > label > span:first-child, #${v}-form .field:not([hidden]) > legend`)]
      .filter((l) => !l.closest("[hidden]")).map((l) => l.textContent).filter((x) => !/[\u4e00-\u9fff]/.test(x)), view);
    check(english.length === 0, `${view} (zh-CN): no form label left in English (${english.join(", ")})`);
    if (view === "catalog") {
      const ningxia = await page.textContent('#catalog-form select[name=region] option[value="cn-northwest-1"]');
      check(ningxia.includes("宁夏"), `catalog (zh-CN): regions by their Chinese names (${ningxia})`);
    }
    const text = await page.textContent(answer);
    check(han.test(text), `${view} (zh-CN): the answer's own words in Chinese (${text.replace(/\s+/g, " ").slice(0, 80)})`);
    if (view === "pricing") {
      check(["按需", "竞价", "容量块"].every((w) => text.includes(w)) && /US\$[\d,.]+/.test(text), `zh-CN purchase terms and US$ amounts (${text.slice(0, 100)})`);
      const notPriced = await page.textContent("#pricing-out details");
      check(notPriced.includes("预留实例") && notPriced.includes("节省计划"), `zh-CN reserved instances and savings plans (${notPriced.slice(0, 80)})`);
    }
    if (view === "recommend") {
      const choices = await page.textContent('#recommend-form .field[data-field="purchase"]');
      check(["按需", "竞价", "预留实例", "容量块"].every((w) => choices.includes(w)), `zh-CN purchase choices (${choices.slice(0, 80)})`);
    }
    await shot(page, `${view}-zh`);
    await axe(page, `${view} (zh-CN)`);
  }
  // A catalog that mixes currencies (the AWS China regions price in CNY, keys spelled cny): each
  // cell with its own symbol (never a $ for yuan), sorted by currency, then amount.
  const yuanRoute = url + "v1/instances?**";
  await page.route(yuanRoute, async (route) => {
    const response = await route.fetch();
    const rows = await response.json();
    const cn = (type, price) => ({...rows[0], instance_type: type, region: "cn-north-1", currency: "CNY", on_demand_usd_per_hour: undefined,
                                  spot_usd_per_hour: undefined, on_demand_cny_per_hour: price, spot_cny_per_hour: null});
    await route.fulfill({response, json: [...rows, cn("zz9.yuan", 700.5), cn("zz8.yuan", 12.25)]});
  });
  await page.goto(url + "?view=catalog&lang=zh");
  await page.waitForSelector("#catalog tbody tr");
  const mixed = await page.evaluate(() => [...document.querySelectorAll("#catalog tbody tr")].map((tr) => [tr.querySelector("th").textContent, tr.querySelector("td").textContent]));
  const yuanCells = mixed.filter(([ty]) => ty.endsWith(".yuan"));
  check(yuanCells.length === 2 && yuanCells.every(([, c]) => c.startsWith("¥") && !c.includes("$")) && mixed.filter(([ty]) => !ty.endsWith(".yuan")).every(([, c]) => c === "–" || c.startsWith("US$")),
        `mixed currencies: each cell with its own symbol (${yuanCells.map((x) => x.join(" ")).join(", ")}; ${mixed[2].join(" ")})`);
  check(mixed[0][0] === "zz8.yuan" && mixed[1][0] === "zz9.yuan", `mixed currencies sort by currency, then amount (${mixed.slice(0, 3).map((x) => x[0]).join(", ")})`);
  check(!(await page.textContent("#catalog thead")).includes("$"), "mixed currencies: no currency in the price headers");
  await page.unroute(yuanRoute);
  // The catalog's own China regions (aws-cn, priced in CNY): a yuan price is never shown with $.
  await page.goto(url + "?view=pricing&type=g5.xlarge&region=cn-north-1&lang=zh");
  await page.waitForSelector("#pricing-out table.pricing", {timeout: 30000});
  const cnCells = await page.locator("#pricing-out table.pricing td.n").allTextContents();
  check(cnCells.some((c) => c.startsWith("¥")) && cnCells.every((c) => c.startsWith("¥") || c === "–" || /^\d+ %$/.test(c)),
        `cn-north-1 pricing in yuan, no $ (${cnCells.slice(0, 4).join(" ")})`);
  await page.goto(url + "?view=instance&type=g5.xlarge&region=cn-north-1&lang=zh");
  await page.waitForSelector("#instance-out table.pricing", {timeout: 30000});
  const regionPrices = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll("#instance-out table:not(.pricing) tbody tr")]
    .map((tr) => [tr.querySelector("th").textContent, tr.querySelector("td").textContent])));
  check(regionPrices["cn-north-1"].startsWith("¥") && regionPrices["us-east-1"].startsWith("US$"),
        `prices per region: each region in its own currency (cn-north-1 ${regionPrices["cn-north-1"]}, us-east-1 ${regionPrices["us-east-1"]})`);
  // Back to English (stored), from the keyboard.
  await page.focus('#lang button[data-lang="en"]');
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.documentElement.lang === "en");

  // ---- dark scheme ----
  await page.emulateMedia({colorScheme: "dark"});
  await page.goto(url + "?view=estimate&task=serve&model=llama-3.1-8b&rps=2&instance=g6e.xlarge");
  await page.waitForSelector("#estimate-out .membar", {timeout: 20000});
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(bg !== "rgb(255, 255, 255)", `dark scheme follows the system (${bg})`);
  await shot(page, "estimate-dark");
  await axe(page, "estimate (dark)");
  await page.emulateMedia({colorScheme: "light"});

  // ---- a 390-px phone in a German locale: a price on the first screen, no sideways page ----
  const mobile = await context.newPage();
  await mobile.setViewportSize({width: 390, height: 844});
  await mobile.goto(url + "?view=catalog", {waitUntil: "load"});
  await mobile.waitForSelector("#catalog tbody tr", {timeout: 20000});
  const box = await mobile.locator("#catalog tbody tr").first().locator("td").first().boundingBox();
  const priceText = await mobile.locator("#catalog tbody tr").first().locator("td").first().textContent();
  check(box && box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, `390 px: the first price is on screen (${priceText} at x ${box && Math.round(box.x)}..${box && Math.round(box.x + box.width)}, y ${box && Math.round(box.y)})`);
  const pageWidth = await mobile.evaluate(() => document.documentElement.scrollWidth);
  check(pageWidth <= 390, `390 px: the page itself does not scroll sideways (${pageWidth} px)`);
  await mobile.screenshot({path: path.join(process.env.SHOTS, "phone-catalog.png")});
  await axe(mobile, "catalog at 390 px");
  await mobile.close();
  const de = await chromium.launch({executablePath: process.env.CHROMIUM, headless: true, args});
  const dePage = await (await de.newContext({locale: "de-DE"})).newPage();
  await dePage.goto(url + "?view=catalog&gpu=H100");
  await dePage.waitForSelector("#catalog tbody tr");
  const dePrice = await dePage.locator("#catalog tbody tr").first().locator("td").first().textContent();
  check(/^\d{1,3}(\.\d{3})*,\d{3}$/.test(dePrice), `numbers in the user's locale (de-DE: ${dePrice})`);
  // A browser whose languages are Chinese gets the Chinese page without ?lang.
  const zhPage = await (await de.newContext({locale: "zh-CN"})).newPage();
  await zhPage.goto(url + "?view=catalog&gpu=H100");
  await zhPage.waitForSelector("#catalog tbody tr");
  const zhHead = await zhPage.textContent("#catalog thead");
  check(await zhPage.getAttribute("html", "lang") === "zh-CN" && zhHead.includes("按需"), `navigator.languages zh-CN: the Chinese page (${zhHead.slice(0, 40)})`);
  await de.close();

  check(external.length === 0, `no requests leave the server (${external.join(", ")})`);
  check(errors.length === 0, `no script errors (${errors.join("; ")})`);
  await context.close();
  console.log(`screenshots: ${process.env.SHOTS}/*.png`);
  if (failures.length) {
    console.log(`browser_test: ${failures.length} failed`);
    process.exit(1);
  }
  console.log("browser_test: all passed");
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
