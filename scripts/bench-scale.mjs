#!/usr/bin/env node
// Scale benchmark (`make bench-scale`; build first; not part of `make bench`). Not a test: it prints
// figures, it asserts nothing about them (it does check that each seeded library answers the
// plan's items). Three libraries of one user, each on a stack of its own, seeded straight into the
// stores by the bench seeder (scripts/bench/seed-*.mjs: every item's media and explore documents;
// blobs for a sample, see blobSample in scripts/bench/scale-library.mjs):
//   1. --browser-small N items (default 10 000): the web timeline in Debian's chromium (its stack kept
//      running until the big library's timeline, whose runs alternate with its own);
//   2. --small N items (default 100 000) and 3. --items N (default 1 000 000), each:
//      - the four list queries (first page, a deep page by cursor from the middle of the library,
//        the videos, a years-ago day) on the store (the media repository, in this process) and on
//        the same rows in a SQLite file of their own with the ideal index of each query
//        (scripts/bench/scale-reference.mjs), side by side, round after round;
//      - cold start (auth, media, explore, library and the gateway on that data until all are
//        ready), a check through the API that the seeded library is real;
//      - the same lists through the API; a search mix through the API (the user's first query timed
//        on its own); the resident memory of the media and explore processes;
//   and at --items: the web timeline in chromium (first paint, a month jump through the scrubber,
//   the JS heap after scrolling ten years: scripts/bench/timeline-browser.mjs).
// Prints a table per size, each phase's seconds, the whole run's, and `ratio NAME VALUE` lines.
//
// Options: --items N (default 1000000), --small N (default 100000), --browser-small N (default
// 10000), --rounds N timed passes over the lists after WARM_UP_ROUNDS not counted (default 100: 400 samples a side, so that p99 is not the one slowest), --search-rounds N (default 10: 320 samples, so that p99 is not the one slowest).
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { WARM_UP_ROUNDS, args, log, percentile, secondsSince, sizeLabel } from './bench-common.mjs';
import { measureLibrary } from './bench/scale-library.mjs';

// A million items' plan and explore's documents outgrow Node's default heap: run again with 8 GiB
// (the seeding processes it forks inherit the flag).
const HEAP_MIB = 8192;
if (getHeapStatistics().heap_size_limit < HEAP_MIB * 0.9 * 2 ** 20) {
  const again = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MIB}`, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exit(again.status ?? 1);
}

const ITEMS = Number(args.items ?? 1_000_000);
const SMALL = Number(args.small ?? 100_000);
const BROWSER_SMALL = Number(args['browser-small'] ?? 10_000);
const ROUNDS = Number(args.rounds ?? 100);
const SEARCH_ROUNDS = Number(args['search-rounds'] ?? 10);
const now = new Date();
/** The month the timeline jumps to: June six years ago (every size's plan has items in it). */
const JUMP_MONTH = `${now.getUTCFullYear() - 6}-06`;

const started = performance.now();
const phases = [];
const phase = (name, seconds) => phases.push([name, seconds]);
const big = sizeLabel(ITEMS);
const small = sizeLabel(SMALL);
const browserSmall = sizeLabel(BROWSER_SMALL);
const common = { rounds: ROUNDS, searchRounds: SEARCH_ROUNDS, jumpMonth: JUMP_MONTH, phase };

log(`scale bench: ${BROWSER_SMALL} items (browser), ${SMALL} and ${ITEMS} items; the jump month ${JUMP_MONTH}`);
// The small library's web app is kept running beside the others: the timeline's runs alternate between it and the
// big one's (a host whose speed drifts over the run's half hour then slows both alike).
const browserSite = await measureLibrary({
  ...common,
  items: BROWSER_SMALL,
  label: browserSmall,
  parts: { web: true },
});
let atSmall;
let atBig;
try {
  atSmall = await measureLibrary({ ...common, items: SMALL, label: small, parts: { lists: true } });
  atBig = await measureLibrary({
    ...common,
    items: ITEMS,
    label: big,
    parts: { lists: true, timeline: true },
    alongside: browserSite.site,
  });
} finally {
  await browserSite.site?.stop();
}
const atBrowserSmall = { ...browserSite, timeline: atBig.alongsideTimeline };
const totalS = secondsSince(started);

const sorted = (list) => [...list].sort((a, b) => a - b);
const p = (list, q) => percentile(sorted(list), q);
const all = (byName) => Object.values(byName).flat();
const ms = (v) => `${v.toFixed(1)} ms`;

const cpu = cpus();
console.log(
  `\nTrove scale benchmark — one user's library at ${SMALL} and ${ITEMS} items (and ${BROWSER_SMALL} for the browser), each on a stack of its own; ${ROUNDS} timed rounds of the lists, ${SEARCH_ROUNDS} of ${Object.keys(atBig.searchMs).length} searches`,
);
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}; load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const at of [atSmall, atBig]) {
  console.log(
    `\n${at.items} items (blobs for ${at.blobItems} of them; the media store's seeding: ${at.seeding.mediaCpuS.toFixed(0)} CPU s):\n`,
  );
  console.log('| query | store p50 | store p99 | SQLite p50 | SQLite p99 | API p50 | API p99 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const name of Object.keys(at.storeMs)) {
    const [s, r, a] = [at.storeMs[name], at.referenceMs[name], at.apiMs[name]];
    console.log(
      `| ${name} | ${ms(p(s, 50))} | ${ms(p(s, 99))} | ${ms(p(r, 50))} | ${ms(p(r, 99))} | ${ms(p(a, 50))} | ${ms(p(a, 99))} |`,
    );
  }
  const [s, r, a] = [all(at.storeMs), all(at.referenceMs), all(at.apiMs)];
  console.log(
    `| **all** | ${ms(p(s, 50))} | ${ms(p(s, 99))} | ${ms(p(r, 50))} | ${ms(p(r, 99))} | ${ms(p(a, 50))} | ${ms(p(a, 99))} |`,
  );
  console.log(
    `| *the transport alone* (HTTP and a NATS request/reply carrying the first page's bytes, no work: scripts/bench/transport-floor.mjs) | | | | | ${ms(p(at.floorMs, 50))} | ${ms(p(at.floorMs, 99))} |`,
  );
  const searches = all(at.searchMs);
  console.log(
    `\nsearch through the API: p50 ${ms(p(searches, 50))}, p99 ${ms(p(searches, 99))} (the user's first query: ${ms(at.searchFirstMs)}${at.searchFirstTries ? `, answered at try ${at.searchFirstTries}` : ''}); media RSS ${at.mediaRss.toFixed(0)} MiB, explore RSS ${at.exploreRss.toFixed(0)} MiB; cold start ${at.coldStartS.toFixed(1)} s`,
  );
  // The slowest searches, each by its slowest time: what a p99 above its goal is made of.
  const slowest = Object.entries(at.searchMs)
    .map(([q, times]) => [q, Math.max(...times)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  console.log(`slowest searches (slowest of their rounds): ${slowest.map(([q, t]) => `"${q}" ${ms(t)}`).join(', ')}`);
  const warm = at.warmUpSlowestMs;
  console.log(
    `the ${WARM_UP_ROUNDS} warm-up rounds before each timed loop (not counted), their slowest answer: store ${ms(warm.store)}, SQLite ${ms(warm.reference)}, API ${ms(warm.api)}, search ${ms(warm.search)}`,
  );
  console.log(`the reference (${at.referenceRows} rows) reads: ${at.referencePlans.join(' | ')}`);
  console.log(`checked through the API: ${at.checks.join('; ')}`);
}
const timelines = [atBrowserSmall, atBig].filter((at) => at.timeline);
if (timelines.length > 0) {
  console.log('\n| timeline (chromium) | first paint | month jump | JS heap |');
  console.log('|---|---|---|---|');
  for (const at of timelines) {
    const t = at.timeline;
    console.log(`| ${at.items} items | ${ms(t.firstPaintMs)} | ${ms(t.monthJumpMs)} | ${t.heapMiB.toFixed(1)} MiB |`);
  }
  for (const at of timelines)
    if (at.timeline.details) console.log(`${at.items} items: ${JSON.stringify(at.timeline.details)}`);
  for (const at of timelines.filter((t) => t.timelineCpu)) {
    const { wallSeconds, machine, bench, ...services } = at.timelineCpu;
    const named = Object.values(services).reduce((a, b) => a + b, 0) + bench;
    console.log(
      `${at.alongsideTimeline ? `${BROWSER_SMALL} and ${at.items} items (their runs alternating)` : `${at.items} items`}, CPU seconds during the timeline's ${wallSeconds.toFixed(1)} s (${cpu.length} cores: ${(cpu.length * wallSeconds).toFixed(0)} available): the machine ${machine.toFixed(1)}; ${Object.entries(
        services,
      )
        .map(([n, sec]) => `${n} ${sec.toFixed(1)}`)
        .join(
          ', ',
        )}, the bench ${bench.toFixed(1)}; the rest (chromium, nats-server, others) ${(machine - named).toFixed(1)}`,
    );
  }
}
console.log('\n| phase | seconds |');
console.log('|---|---|');
for (const [name, seconds] of phases) console.log(`| ${name} | ${seconds.toFixed(1)} |`);
console.log(`| **the whole run** | ${totalS.toFixed(1)} |\n`);

const line = (name, value) => console.log(`ratio ${name} ${value}`);
const apiP99 = (at) => p(all(at.apiMs), 99);
const storeP99 = (at) => p(all(at.storeMs), 99);
const referenceP99 = (at) => p(all(at.referenceMs), 99);
line(`list_p99_vs_store_p99_at_${big}`, (apiP99(atBig) / storeP99(atBig)).toFixed(2));
line(`store_p99_vs_sqlite_p99_at_${big}`, (storeP99(atBig) / referenceP99(atBig)).toFixed(2));
line(`list_p99_growth_${small}_to_${big}`, (apiP99(atBig) / apiP99(atSmall)).toFixed(2));
line(`search_p99_ms_at_${big}`, p(all(atBig.searchMs), 99).toFixed(1));
line(`media_rss_mib_at_${big}`, atBig.mediaRss.toFixed(0));
line(`explore_rss_mib_at_${big}`, atBig.exploreRss.toFixed(0));
line(`cold_start_s_at_${big}`, atBig.coldStartS.toFixed(1));
if (atBig.timeline && atBrowserSmall.timeline) {
  const [t0, t1] = [atBrowserSmall.timeline, atBig.timeline];
  line(`timeline_first_paint_growth_${browserSmall}_to_${big}`, (t1.firstPaintMs / t0.firstPaintMs).toFixed(2));
  line(`timeline_month_jump_growth_${browserSmall}_to_${big}`, (t1.monthJumpMs / t0.monthJumpMs).toFixed(2));
  line(`timeline_js_heap_mib_at_${big}`, t1.heapMiB.toFixed(1));
} else {
  log('the timeline was not measured (scripts/bench/timeline-browser.mjs missing): no timeline_* ratio lines');
}
// For information: the figures behind the ratios, and the same at the small size. Prefixed `scale_`: `make bench`
// prints lines of some of these names at 100k over other queries (offset pages, its own library), with other goals.
for (const at of [atBig, atSmall]) {
  const size = sizeLabel(at.items);
  line(`scale_list_api_p99_ms_at_${size}`, apiP99(at).toFixed(1));
  line(`scale_list_store_p99_ms_at_${size}`, storeP99(at).toFixed(1));
  line(`scale_list_sqlite_p99_ms_at_${size}`, referenceP99(at).toFixed(1));
  line(`scale_list_floor_p99_ms_at_${size}`, p(at.floorMs, 99).toFixed(1));
  line(`scale_search_first_query_ms_at_${size}`, at.searchFirstMs.toFixed(0));
  line(`scale_seed_s_at_${size}`, at.seeding.seconds.toFixed(1));
}
// Beside the list ratio, the same call with no work in it: a floor over 3 × the store's p99 puts that bound out of reach here.
line(`scale_list_floor_p99_vs_store_p99_at_${big}`, (p(atBig.floorMs, 99) / storeP99(atBig)).toFixed(2));
line(`scale_list_p99_vs_store_p99_at_${small}`, (apiP99(atSmall) / storeP99(atSmall)).toFixed(2));
line(`scale_store_p99_vs_sqlite_p99_at_${small}`, (storeP99(atSmall) / referenceP99(atSmall)).toFixed(2));
line(`scale_search_p99_ms_at_${small}`, p(all(atSmall.searchMs), 99).toFixed(1));
line(`scale_media_rss_mib_at_${small}`, atSmall.mediaRss.toFixed(0));
line(`scale_explore_rss_mib_at_${small}`, atSmall.exploreRss.toFixed(0));
line(`scale_cold_start_s_at_${small}`, atSmall.coldStartS.toFixed(1));
for (const at of timelines) {
  const size = sizeLabel(at.items);
  line(`scale_timeline_first_paint_ms_at_${size}`, at.timeline.firstPaintMs.toFixed(0));
  line(`scale_timeline_month_jump_ms_at_${size}`, at.timeline.monthJumpMs.toFixed(0));
}
line('scale_bench_total_s', totalS.toFixed(0));
