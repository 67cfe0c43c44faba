#!/usr/bin/env node
/**
 * What the places component costs: gazetteer load time (wall and CPU) and memory, first lookup,
 * time per lookup. Each run is a fresh process (cold load); figures are medians. Prints only, asserts
 * nothing. Needs the build: `npx tsc -b tsconfig.build.json`, then
 *   node services/worker/scripts/places-bench.mjs [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const places = fileURLToPath(new URL('../dist/components/places/index.js', import.meta.url));
const knownPoints = fileURLToPath(new URL('../src/components/places/known-points.json', import.meta.url));

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One measurement in this process: JSON on stdout. */
async function child() {
  globalThis.gc();
  const before = process.memoryUsage();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const { gazetteer, placeAt } = require(places);
  const g = await gazetteer();
  const loadMs = performance.now() - t0;
  const loadCpuMs = cpuMs() - cpu0;
  globalThis.gc();
  const after = process.memoryUsage();

  const t1 = performance.now();
  placeAt(g, 19.0609, 72.8269);
  const firstLookupMs = performance.now() - t1;

  // Photo-like positions: random places moved by up to ±0.2° (about 20 km); known points; the whole globe (mostly sea).
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const photos = Array.from({ length: 10_000 }, () => {
    const i = Math.floor(random() * g.size);
    return [g.lat[i] + (random() - 0.5) * 0.4, g.lon[i] + (random() - 0.5) * 0.4];
  });
  const known = JSON.parse(readFileSync(knownPoints, 'utf8')).map((p) => [p.lat, p.lon]);
  const globe = Array.from({ length: 10_000 }, () => [
    (Math.asin(2 * random() - 1) * 180) / Math.PI,
    random() * 360 - 180,
  ]);
  const perLookup = (positions, repeat) => {
    for (const [lat, lon] of positions.slice(0, 2000)) placeAt(g, lat, lon); // warm-up
    const t = performance.now();
    const c = cpuMs();
    let found = 0;
    for (let r = 0; r < repeat; r++) for (const [lat, lon] of positions) if (placeAt(g, lat, lon)) found++;
    const n = positions.length * repeat;
    return { wallUs: ((performance.now() - t) * 1000) / n, cpuUs: ((cpuMs() - c) * 1000) / n, found: found / n };
  };
  return {
    places: g.size,
    loadMs,
    loadCpuMs,
    rssMB: (after.rss - before.rss) / 2 ** 20,
    heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20,
    firstLookupMs,
    photos: perLookup(photos, 1),
    known: perLookup(known, 20),
    globe: perLookup(globe, 1),
  };
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await child()));
} else {
  if (!existsSync(places)) throw new Error(`${places} is missing: build first (npx tsc -b tsconfig.build.json)`);
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
  console.log(
    `places bench: ${runs} fresh processes, Node ${process.version}, ${cpus().length} CPUs, 1-min load average ${loadavg()[0].toFixed(1)}`,
  );
  const results = Array.from({ length: runs }, () =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8' }),
    ),
  );
  const median = (pick) => [...results.map(pick)].sort((a, b) => a - b)[Math.floor(results.length / 2)];
  const f = (pick, digits = 0) => median(pick).toFixed(digits);
  console.log(`  places in the gazetteer:              ${results[0].places}`);
  console.log(`  load (first use), wall:               ${f((r) => r.loadMs)} ms`);
  console.log(`  load (first use), CPU:                ${f((r) => r.loadCpuMs)} ms`);
  console.log(
    `  memory after load (after GC):         RSS +${f((r) => r.rssMB)} MB, JS heap +${f((r) => r.heapMB)} MB`,
  );
  console.log(`  first lookup after load:              ${f((r) => r.firstLookupMs, 1)} ms`);
  for (const [name, label] of [
    ['photos', '10k photo-like positions'],
    ['known', 'known points (x20)'],
    ['globe', '10k uniform globe positions'],
  ]) {
    console.log(
      `  per lookup, ${label.padEnd(30)}${f((r) => r[name].wallUs)} µs wall, ${f((r) => r[name].cpuUs)} µs CPU, ${f((r) => 100 * r[name].found)}% with a place`,
    );
  }
}
