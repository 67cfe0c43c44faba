#!/usr/bin/env node
// Library benchmark (`make bench`; build first). Not a test: it prints figures, it asserts nothing.
//
// One user's library of N media items (default 100 000) seeded straight into the media service's
// embedded store (NeDB, as `make up` runs it; `insertMany` in batches, through the repository's own
// indexes), without blobs. Then:
//   1. the same list queries made directly on the store (the media repository, in this process):
//      the first page, a deep page, a filtered list (videos) and a years-ago day;
//   2. cold start: auth, media and the gateway started together on that data, until the gateway is ready;
//   3. the same queries through the API (HTTP → gateway → NATS → media), p50/p99 of each side;
//   4. the media process's resident memory after them.
//
// Options: --items N (default 100000), --rounds N timed passes over the four queries (default 20).
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { args, log, require, root } from './bench-common.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));
const { startStack } = require(join(root, 'services/kit/dist/testing/index.js'));
const { MediaRepository } = require(join(root, 'services/media/dist/items/repository.js'));
const { newMediaDoc, processedFields } = require(join(root, 'services/media/dist/items/document.js'));

const ITEMS = Number(args.items ?? 100_000);
const ROUNDS = Number(args.rounds ?? 20);
const LIMIT = 100;
const DEEP_PAGE = Math.max(1, Math.floor(ITEMS / LIMIT / 2));
const YEARS_AGO_DAY = '0415';

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

/** A READY photo (one in 20 a video) taken some time in the last 20 years; a few favourites, hidden or trashed. */
function mediaDoc(userId, i, now) {
  const video = i % 20 === 0;
  const id = randomUUID();
  const doc = newMediaDoc(
    { id, userId, filename: `${video ? 'VID' : 'IMG'}_${String(i).padStart(6, '0')}.${video ? 'mp4' : 'jpg'}`, mimeType: video ? 'video/mp4' : 'image/jpeg', size: 2_000_000 + i, sha256: createHash('sha256').update(id).digest('hex'), originalKey: `originals/${userId}/${id}`, mediaItemType: video ? 'video' : 'photo' },
    now,
  );
  const taken = new Date(now.getTime() - Math.floor(random() * 20 * 365 * 86_400_000));
  const metadata = { creationTime: taken.toISOString(), width: 4032, height: 3024, latitude: 48.85, longitude: 2.35, cameraMake: 'Apple', cameraModel: 'iPhone 12 mini', focalLength: '4.2', apertureFNumber: '1.6', isoEquivalent: '100', exposureTime: '0.01', fps: video ? '30' : null, durationSeconds: video ? 12 : null, contentIdentifier: null };
  const processed = processedFields({ mimeType: doc.mimeType, category: 'default', placeholder: 'data:image/webp;base64,UklGRh4AAABXRUJQVlA4IBIAAAAwAQCdASoBAAEAAQAcJaQAA3AA/v3AgAA=', variants: { preview: `previews/${id}`, thumbnail: `thumbnails/${id}`, playback: null }, metadata }, now);
  const r = random();
  return { ...doc, ...processed, favourite: r < 0.05, hidden: r > 0.99, deleted: r > 0.98 && r <= 0.99, deletedAt: r > 0.98 && r <= 0.99 ? now : null };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sorted = (list) => [...list].sort((a, b) => a - b);

/** The four queries, by name: what the API is asked, and the same on the store. */
function queries(userId) {
  const year = new Date().getUTCFullYear();
  return {
    'first page': { path: `/v1/mediaItems?limit=${LIMIT}`, store: (repo) => repo.list({ userId, view: 'library', page: 1, limit: LIMIT }) },
    [`deep page (${DEEP_PAGE})`]: { path: `/v1/mediaItems?limit=${LIMIT}&page=${DEEP_PAGE}`, store: (repo) => repo.list({ userId, view: 'library', page: DEEP_PAGE, limit: LIMIT }) },
    'filtered (videos)': { path: `/v1/mediaItems?limit=${LIMIT}&type=video`, store: (repo) => repo.list({ userId, view: 'library', page: 1, limit: LIMIT, type: 'video' }) },
    [`years ago (${YEARS_AGO_DAY})`]: { path: `/v1/yearsAgo/${YEARS_AGO_DAY}/mediaItems?limit=${LIMIT}`, store: (repo) => repo.takenOn(userId, YEARS_AGO_DAY, year, 1, LIMIT) },
  };
}

/** Runs each query once to warm up, then ROUNDS times; milliseconds by query name. */
async function timeAll(named, run) {
  const ms = Object.fromEntries(Object.keys(named).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, q] of Object.entries(named)) {
      const t = performance.now();
      await run(q);
      if (round > 0) ms[name].push(performance.now() - t);
    }
  }
  return ms;
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const benchStarted = performance.now();
const stack = await startStack({ services: ['auth', 'gateway', 'media'], env: { TROVE_VALIDATE_RESPONSES: 'false' }, readyTimeoutMs: 300_000 });
try {
  const base = stack.gatewayUrl;
  const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
  const password = 'Bench-Marking-Photos-42';
  const created = await fetch(`${base}/v1/users`, { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Bench', username: 'library', password }) });
  if (created.status !== 201) throw new Error(`creating the user: ${created.status} ${await created.text()}`);
  const userId = (await created.json()).id;
  const login = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'library', password }) });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const auth = { Authorization: `Bearer ${(await login.json()).accessToken}` };

  // The stores are each one process's: stop every service, seed media's, query it here, close it.
  await Promise.all(['gateway', 'media', 'auth'].map((name) => stack.processes[name].stop()));
  log(`seeding ${ITEMS} media items straight into the media store…`);
  const seedStarted = performance.now();
  const store = await openDocStore({ service: 'media', dataDir: stack.dataDir });
  const repo = await MediaRepository.open(store);
  const items = store.collection('media_items');
  const now = new Date();
  for (let from = 0; from < ITEMS; from += 5000) {
    const batch = [];
    for (let i = from; i < Math.min(ITEMS, from + 5000); i++) batch.push(mediaDoc(userId, i, now));
    await items.insertMany(batch);
  }
  const seedS = (performance.now() - seedStarted) / 1000;
  log(`seeded in ${seedS.toFixed(1)} s; the queries on the store…`);
  const named = queries(userId);
  const storeMs = await timeAll(named, (q) => q.store(repo));
  await store.close();

  log('cold start…');
  const startStarted = performance.now();
  await Promise.all(['auth', 'media', 'gateway'].map((name) => stack.startService(name)));
  const coldStartS = (performance.now() - startStarted) / 1000;
  log(`ready in ${coldStartS.toFixed(1)} s; the queries through the API…`);
  const apiMs = await timeAll(named, async (q) => {
    const res = await fetch(`${base}${q.path}`, { headers: auth });
    if (res.status !== 200) throw new Error(`${q.path}: ${res.status} ${await res.text()}`);
    await res.json();
  });
  const mediaRss = await rssMiB(stack.processes.media.child.pid);

  console.log(`\nTrove library benchmark — ${ITEMS} media items of one user seeded into the media service's embedded store (NeDB), no blobs; ${ROUNDS} timed rounds, ${LIMIT} items a page\n`);
  console.log('| query | store p50 | store p99 | API p50 | API p99 |');
  console.log('|---|---|---|---|---|');
  for (const name of Object.keys(named)) {
    const s = sorted(storeMs[name]);
    const a = sorted(apiMs[name]);
    console.log(`| ${name} | ${percentile(s, 50).toFixed(1)} ms | ${percentile(s, 99).toFixed(1)} ms | ${percentile(a, 50).toFixed(1)} ms | ${percentile(a, 99).toFixed(1)} ms |`);
  }
  const storeAll = sorted(Object.values(storeMs).flat());
  const apiAll = sorted(Object.values(apiMs).flat());
  console.log(`| **all** | ${percentile(storeAll, 50).toFixed(1)} ms | ${percentile(storeAll, 99).toFixed(1)} ms | ${percentile(apiAll, 50).toFixed(1)} ms | ${percentile(apiAll, 99).toFixed(1)} ms |\n`);
  console.log(`seeding: ${seedS.toFixed(1)} s; cold start (auth, media, gateway on that data, until the gateway is ready): ${coldStartS.toFixed(1)} s; media RSS after the queries: ${mediaRss.toFixed(0)} MiB; the whole library bench: ${((performance.now() - benchStarted) / 1000).toFixed(0)} s\n`);
  const at = ITEMS % 1000 === 0 ? `${ITEMS / 1000}k` : String(ITEMS);
  console.log(`ratio list_p99_vs_store_p99_at_${at} ${(percentile(apiAll, 99) / percentile(storeAll, 99)).toFixed(2)}`);
  console.log(`ratio list_api_p99_ms_at_${at} ${percentile(apiAll, 99).toFixed(1)}`);
  console.log(`ratio list_store_p99_ms_at_${at} ${percentile(storeAll, 99).toFixed(1)}`);
  console.log(`ratio media_rss_mib_at_${at} ${mediaRss.toFixed(0)}`);
  console.log(`ratio cold_start_s_at_${at} ${coldStartS.toFixed(1)}`);
  console.log(`ratio library_seed_s_at_${at} ${seedS.toFixed(1)}`);
} catch (err) {
  for (const name of ['gateway', 'media']) log(`${name}'s last output:`, stack.processes[name]?.output().split('\n').slice(-6).join('\n').slice(0, 3000));
  throw err;
} finally {
  await stack.stop();
}
