// The web timeline measured in Debian's chromium (playwright-core, the flags of the browser e2e), against
// any Trove: its web URL and one user, logged in through the login page. Three figures:
//   firstPaintMs  navigation to `/` until the first thumbnails on screen are decoded (median of runs);
//   monthJumpMs   a click on the scrubber's month until that month's first thumbnails are decoded (median);
//   heapMiB       the page's JS heap after scrolling through `years` years (a month per step, each step
//                 waiting for its thumbnails), after a forced garbage collection.
// The browser's HTTP cache is off, so every run fetches what a first visit fetches. Given two sites
// (measureTimelines), the runs alternate between them, so that their ratios do not measure the host's drift.
import { join } from 'node:path';
import { log, require, root } from '../bench-common.mjs';

const { chromium } = require('playwright-core');
const { chromiumArgs, requireChromium } = require(join(root, 'services/kit/dist/testing/index.js'));

const VIEWPORT = { width: 1280, height: 800 };
/** How many of the first thumbnails on screen must be decoded. */
const FIRST = 6;

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * In the page: `performance.now()` once the first FIRST thumbnails on screen (of `month`'s section
 * when given, which must then be at the top of the screen) are decoded; null until then.
 */
/* global document, window, getComputedStyle */
function thumbnailsShown({ month, first }) {
  const inset = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--topbar-h')) || 0;
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > inset && r.top < window.innerHeight && r.width > 0;
  };
  let scope = document;
  if (month) {
    const section = document.querySelector(`.month-section[data-month="${month}"]`);
    if (!section) return null;
    const top = section.getBoundingClientRect().top;
    if (top > window.innerHeight / 2 || section.getBoundingClientRect().bottom < inset) return null;
    scope = section;
  }
  const cells = [...scope.querySelectorAll('.grid .tile, .grid .tile-placeholder, .month-section .tile')].filter(
    onScreen,
  );
  if (cells.length === 0) return null;
  const wanted = cells.slice(0, first);
  for (const cell of wanted) {
    const img = cell.querySelector('img');
    // Decoded and drawn (not still transparent, as a thumbnail is until the page has seen it load).
    if (!img || !img.complete || img.naturalWidth === 0 || Number(getComputedStyle(img).opacity) === 0) return null;
  }
  return performance.now();
}

async function waitShown(page, month, timeout) {
  const handle = await page.waitForFunction(thumbnailsShown, { month, first: FIRST }, { polling: 'raf', timeout });
  return handle.jsonValue();
}

/** A logged-in page of one Trove's web app: `origin`, `page` and its CDP session. */
async function openSite(browser, { webUrl, username, password }, timeoutMs) {
  const origin = new URL(webUrl).origin;
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Performance.enable');
  await page.goto(`${origin}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${origin}/`);
  return { origin, page, cdp };
}

/** One run on a site: (1) a navigation to the Photos page until its first thumbnails show, (2) a click on `month` in the scrubber until its thumbnails show. */
async function timeRun({ origin, page }, month, timeoutMs) {
  // The page's own time, from the navigation's start.
  await page.goto(`${origin}/`, { waitUntil: 'commit' });
  const firstPaint = await waitShown(page, null, timeoutMs);
  const slider = page.getByRole('slider', { name: 'Timeline' });
  await slider.waitFor();
  const target = page.locator(`.timeline-month[data-month="${month}"]`);
  if ((await target.count()) === 0) throw new Error(`the timeline has no month ${month}`);
  const bar = await slider.boundingBox();
  const span = await target.boundingBox();
  if (!bar || !span) throw new Error('the scrubber is not on screen');
  const x = bar.x + bar.width / 2;
  const y = span.y + Math.min(span.height / 2, Math.max(0, span.height - 0.5));
  const started = await page.evaluate(() => performance.now());
  await page.mouse.click(x, y);
  const done = await waitShown(page, month, timeoutMs);
  // Nothing of this site runs while the other site is measured.
  await page.goto('about:blank');
  return { firstPaint, jump: done - started };
}

/** (3) Through `years` years from the newest month, a month per step (the slider's arrow key); then the JS heap. */
async function scrollYears({ origin, page, cdp }, years, timeoutMs) {
  await page.goto(`${origin}/`, { waitUntil: 'commit' });
  await waitShown(page, null, timeoutMs);
  const slider = page.getByRole('slider', { name: 'Timeline' });
  await slider.waitFor();
  const months = await page
    .locator('.timeline-month')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-month')));
  const steps = Math.min(years * 12, months.length - 1);
  await slider.focus();
  const stepStarted = performance.now();
  let maxNodes = 0;
  for (let i = 1; i <= steps; i++) {
    await page.keyboard.press('ArrowDown');
    await waitShown(page, months[i], timeoutMs);
    if (i % 12 === 0) {
      const { metrics } = await cdp.send('Performance.getMetrics');
      maxNodes = Math.max(maxNodes, metrics.find((m) => m.name === 'Nodes')?.value ?? 0);
    }
  }
  const scrollSeconds = (performance.now() - stepStarted) / 1000;
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
  const heapMiB = metric('JSHeapUsedSize') / 2 ** 20;
  const tiles = await page.locator('.grid .tile').count();
  const held = Number(await page.locator('.grid').getAttribute('data-count'));
  await page.goto('about:blank');
  return {
    heapMiB,
    details: {
      months: months.length,
      monthSteps: steps,
      lastMonth: months[steps],
      scrollSeconds: Math.round(scrollSeconds * 10) / 10,
      jsHeapTotalMiB: metric('JSHeapTotalSize') / 2 ** 20,
      domNodes: metric('Nodes'),
      maxDomNodesWhileScrolling: maxNodes,
      tilesInDom: tiles,
      itemsHeld: held,
      viewport: VIEWPORT,
    },
  };
}

/**
 * The three figures on each of `sites` (each a web URL and one user), in one chromium, a context each. The runs
 * alternate between the sites (the first site first in even runs, the other in odd ones), so that a host whose speed
 * drifts (a shared machine) slows every site alike and a ratio of two sites' figures holds; then each site's scroll.
 *
 * @param {{ sites: Array<{ webUrl: string, username: string, password: string }>, month: string, years?: number,
 *           runs?: number, timeoutMs?: number }} opts
 * @returns {Promise<Array<{ firstPaintMs: number, monthJumpMs: number, heapMiB: number, details: object }>>}
 */
export async function measureTimelines({ sites, month, years = 10, runs = 5, timeoutMs = 60_000 }) {
  const executablePath = requireChromium();
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new Error(`month must be YYYY-MM, not ${month}`);
  const browser = await chromium.launch({ executablePath, args: [...chromiumArgs] });
  try {
    const opened = [];
    for (const site of sites) opened.push(await openSite(browser, site, timeoutMs));
    const times = opened.map(() => ({ firstPaint: [], monthJump: [] }));
    for (let run = 0; run < runs; run++) {
      const order = opened.map((_, i) => i);
      if (run % 2 === 1) order.reverse();
      for (const i of order) {
        const { firstPaint, jump } = await timeRun(opened[i], month, timeoutMs);
        times[i].firstPaint.push(firstPaint);
        times[i].monthJump.push(jump);
        log(
          `timeline ${sites[i].label ?? sites[i].webUrl} run ${run + 1}: first paint ${firstPaint.toFixed(0)} ms, jump ${jump.toFixed(0)} ms`,
        );
      }
    }
    const results = [];
    for (const [i, site] of opened.entries()) {
      const { heapMiB, details } = await scrollYears(site, years, timeoutMs);
      const { firstPaint, monthJump } = times[i];
      results.push({
        firstPaintMs: median(firstPaint),
        monthJumpMs: median(monthJump),
        heapMiB,
        details: {
          firstPaintRunsMs: firstPaint.map((v) => Math.round(v)),
          monthJumpRunsMs: monthJump.map((v) => Math.round(v)),
          ...details,
        },
      });
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * The three figures on one site (see `measureTimelines`).
 *
 * @param {{ webUrl: string, username: string, password: string, month: string, years?: number,
 *           runs?: number, timeoutMs?: number }} opts
 * @returns {Promise<{ firstPaintMs: number, monthJumpMs: number, heapMiB: number, details: object }>}
 */
export async function measureTimeline({ webUrl, username, password, ...rest }) {
  const [result] = await measureTimelines({ sites: [{ webUrl, username, password }], ...rest });
  return result;
}
