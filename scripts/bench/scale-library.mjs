// One library size of `make bench-scale` on a stack of its own: seeded straight into the stores by
// the bench seeder, then (each part optional) the list queries on the store and on the SQLite
// reference side by side, cold start, the seeded library checked through the API, the same lists
// and a search mix through the API, the services' resident memory, and the web timeline in chromium.
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { log, require, root, secondsSince } from '../bench-common.mjs';
import { timeApi } from './api-timer.mjs';
import { buildReference } from './scale-reference.mjs';
import { measureTransportFloor } from './transport-floor.mjs';
import { storeQuery, timeStore } from './store-timer.mjs';
import { checkSeededLibrary } from './seed-check.mjs';
import { seedLibrary } from './seed-library.mjs';
import { libraryPlan, newestFirst, visible } from './seed-plan.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));
const { freePort, startStack } = require(join(root, 'services/kit/dist/testing/index.js'));
const { MediaItemsRepository } = require(join(root, 'services/media/dist/media-items/repository.js'));

/** What `make up` starts that reads the seeded data or answers the API (the worker and jobs read none of it). */
const SERVICES = ['auth', 'media', 'explore', 'library', 'gateway'];
const LIMIT = 100;
const YEARS_AGO_DAY = '0415';
const PASSWORD = 'Bench-Marking-Photos-42';
const USERNAME = 'library';
/** Blobs for (at any size): the first paint, around the jump, and spread over the ten-year scroll. */
const FIRST_PAINT_ITEMS = 1000;
const JUMP_ITEMS = 1000;
const ABOVE_JUMP_ITEMS = 200;
/** The newest of each month the ten-year scroll steps through (it waits for each month's first thumbnails). */
const MONTH_ITEMS = 30;

/** The search mix: a few queries of each kind of scripts/bench-search.mjs. */
const SEARCHES = [
  ...['img_04321', 'grandma birthday', 'welcome lisboa'], // rare words (a file number, signs)
  ...['mumbai', 'paris', 'münchen', 'new york', 'reykjavik'], // places
  ...['mumb', 'barc', 'grand'], // word beginnings
  ...['dog', 'pizza', 'dining table'], // things
  ...['anna', 'lucas', 'anna tom'], // people
  ...['2022', 'april 2022', '3 april 2022', 'december'], // dates
  ...['iphone 15', 'pixel', 'canon eos'], // cameras
  ...['pizza paris', 'dog mumbai 2021', 'cake london'], // two or three kinds
  ...['person', 'apple', 'iphone'], // broad: a third of the library or more
  ...['zanzibar', 'qqqq'], // nothing
];

function monthBeside(month, step) {
  const [y, m] = month.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1 + step, 1));
  return at.toISOString().slice(0, 7);
}

/**
 * The items whose blobs are stored (a million items' blobs, 3 fsynced files each, would take an
 * hour), about 6 000 whatever the size: the FIRST_PAINT_ITEMS newest shown (the first paint); the
 * JUMP_ITEMS newest from the jump month on and the ABOVE_JUMP_ITEMS just newer (what a jump there
 * shows); the MONTH_ITEMS newest of every month of the last eleven years (the ten-year scroll steps a
 * month at a time and waits for that month's first thumbnails; the rest of a month shows a broken
 * thumbnail, which costs the page no less memory); the item seed-check reads. `shown`: the
 * library's items newest first.
 */
export function blobSample(plan, shown, jumpMonth) {
  const keep = new Set();
  const add = (items) => items.forEach((i) => keep.add(i.id));
  add(shown.slice(0, FIRST_PAINT_ITEMS));
  const nextMonth = `${monthBeside(jumpMonth, 1)}-01T00:00:00.000Z`;
  const jump = shown.findIndex((i) => i.creationTime < nextMonth);
  if (jump >= 0) add(shown.slice(Math.max(0, jump - ABOVE_JUMP_ITEMS), jump + JUMP_ITEMS));
  const elevenYearsAgo = new Date(plan.now.getTime() - 11 * 365.25 * 86_400_000).toISOString();
  const perMonth = new Map();
  for (const item of shown) {
    if (item.creationTime < elevenYearsAgo) break;
    const month = item.creationTime.slice(0, 7);
    const n = perMonth.get(month) ?? 0;
    if (n < MONTH_ITEMS) keep.add(item.id);
    perMonth.set(month, n + 1);
  }
  keep.add(plan.items.find((i) => visible(i) && !i.video).id);
  return plan.items.filter((i) => keep.has(i.id));
}

/**
 * The four list queries, each as the store, the reference and the API are asked it. The deep page
 * is the page after one in the middle of the library, by cursor: the API follows the X-Next-Cursor of
 * the page taken before the middle (`takenBefore`), the store and the reference start after that
 * page's last item. That page starts at an item no other shares the creation time with (else
 * `takenBefore` would start it at the tie's other item). `shown`: the library's items newest first.
 */
function listQueries(plan, shown) {
  const { userId } = plan;
  const year = new Date().getUTCFullYear();
  let start = Math.max(0, Math.floor(shown.length / 2) - LIMIT);
  while (start > 0 && shown[start - 1].creationTime === shown[start].creationTime) start++;
  const anchor = shown[start + LIMIT - 1];
  const after = { creationTime: anchor.creationTime, id: anchor.id };
  const base = { userId, view: 'library', page: 1, limit: LIMIT };
  const deepPage = Math.floor((start + LIMIT) / LIMIT) + 1;
  return {
    before: shown[start],
    expectedDeep: shown.slice(start + LIMIT, start + 2 * LIMIT).map((i) => i.id),
    queries: {
      'first page': { kind: 'first', q: base, path: `/v1/mediaItems?limit=${LIMIT}` },
      [`deep page (~${deepPage}, by cursor)`]: { kind: 'after', q: { ...base, after }, path: null },
      'filtered (videos)': {
        kind: 'type',
        q: { ...base, type: 'video' },
        path: `/v1/mediaItems?limit=${LIMIT}&type=video`,
      },
      [`years ago (${YEARS_AGO_DAY})`]: {
        kind: 'yearsAgo',
        q: { userId, monthDay: YEARS_AGO_DAY, beforeYear: year, limit: LIMIT },
        path: `/v1/yearsAgo/${YEARS_AGO_DAY}/mediaItems?limit=${LIMIT}`,
      },
    },
  };
}

/** CPU seconds (user + system) a process has used so far. */
async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** The whole machine's busy CPU seconds so far (every core, from /proc/stat's first line). */
async function machineBusySeconds() {
  const [, ...ticks] = (await readFile('/proc/stat', 'utf8')).split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = ticks[3] + ticks[4]; // idle, iowait
  return (ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / 100;
}

/**
 * Who used the CPU while `run` ran: each named process, this bench's own process, and the machine
 * (the rest is chromium, nats-server and anything else): a slow figure then says whether the page or
 * a neighbour was busy.
 */
async function cpuWhile(pids, run) {
  const read = async () => ({
    machine: await machineBusySeconds(),
    bench: process.cpuUsage(),
    ...Object.fromEntries(await Promise.all(Object.entries(pids).map(async ([n, pid]) => [n, await cpuSeconds(pid)]))),
  });
  const before = await read();
  const started = performance.now();
  const result = await run();
  const after = await read();
  const usage = Object.fromEntries(Object.keys(pids).map((n) => [n, after[n] - before[n]]));
  usage.bench = (after.bench.user - before.bench.user + after.bench.system - before.bench.system) / 1e6;
  usage.machine = after.machine - before.machine;
  usage.wallSeconds = (performance.now() - started) / 1000;
  return { result, usage };
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** The timeline measurement module (scripts/bench/timeline-browser.mjs), or null while it is missing. */
async function timelineModule() {
  try {
    return await import('./timeline-browser.mjs');
  } catch (err) {
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('timeline-browser')) return null;
    throw err;
  }
}

/**
 * Seeds `items` items on a stack of their own and measures what `parts` asks: `lists` (store,
 * reference and API lists, cold start, API check, search, RSS) and `timeline` (chromium); with
 * `web`, it measures nothing in the browser but leaves the stack and its web app running and answers
 * them as `figures.site` (its `stop()` ends them), for a later `timeline` measurement to take `alongside`:
 * the runs then alternate between the two sites (see measureTimelines), and `figures.alongsideTimeline` is
 * the other site's. `phase(name, seconds)` is told each step's time. Answers the figures.
 */
export async function measureLibrary({ items, label, rounds, searchRounds, jumpMonth, parts, phase, alongside }) {
  let lastSeconds = 0;
  const step = async (name, task) => {
    const started = performance.now();
    const result = await task();
    const seconds = secondsSince(started);
    lastSeconds = seconds;
    phase(`${label}: ${name}`, seconds);
    log(`${label}: ${name} in ${seconds.toFixed(1)} s`);
    return result;
  };
  const stack = await step('stack started', () =>
    startStack({
      services: SERVICES,
      // The web server logs every browser session in from one address.
      env: { TROVE_VALIDATE_RESPONSES: 'false', TROVE_LOGIN_RATE_LIMIT: '1000' },
      readyTimeoutMs: 600_000,
    }),
  );
  const figures = { items, label };
  try {
    const base = stack.gatewayUrl;
    const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
    const created = await fetch(`${base}/v1/users`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', username: USERNAME, password: PASSWORD }),
    });
    if (created.status !== 201) throw new Error(`creating the user: ${created.status} ${await created.text()}`);
    const userId = (await created.json()).id;
    // Logged in once the services are up again after seeding (an access token outlives no long seeding).
    const auth = {};
    const logIn = async () => {
      const login = await fetch(`${base}/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
      });
      if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
      auth.Authorization = `Bearer ${(await login.json()).accessToken}`;
    };
    // A kept-alive connection the server closed as idle (its 5 s keep-alive timeout, passed while this
    // process collected its million-item heap) fails the request sent on it: a GET is asked again once.
    const fetchOnce = async (url, init) => {
      try {
        return await fetch(url, init);
      } catch (err) {
        if (err?.cause?.code !== 'UND_ERR_SOCKET') throw err;
        log(`${label}: ${url}: the connection was closed (${err.cause.message}); asked again`);
        return fetch(url, init);
      }
    };
    const get = async (path) => {
      const res = await fetchOnce(`${base}${path}`, { headers: auth });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return { body: await res.json(), headers: res.headers };
    };
    const api = async (path) => (await get(path)).body;

    // The stores are each one process's: stop every service, seed, query media's store here, close it.
    await Promise.all(SERVICES.map((name) => stack.processes[name].stop()));
    const plan = await step('plan', () => libraryPlan({ count: items, userId }));
    const shown = plan.items.filter(visible).sort(newestFirst);
    const blobItems = blobSample(plan, shown, jumpMonth);
    log(`${label}: seeding ${items} items (blobs for ${blobItems.length} of them)…`);
    const seeding = await step('seed', () => seedLibrary(stack.dataDir, plan, { blobItems }));
    for (const part of ['blobs', 'media', 'explore'])
      phase(`${label}:   seed ${part} (side by side)`, seeding[`${part}S`]);
    figures.seeding = seeding;
    figures.blobItems = blobItems.length;

    if (parts.lists) {
      const lists = listQueries(plan, shown);
      const names = Object.keys(lists.queries);
      const referenceFile = join(stack.dataDir, 'bench-reference.sqlite');
      const store = await openDocStore({ service: 'media', dataDir: stack.dataDir });
      const reference = await step('SQLite reference built', () =>
        buildReference({ dataDir: stack.dataDir, file: referenceFile }),
      );
      try {
        try {
          const repo = await MediaItemsRepository.open(store);
          // The same rows on every side: the store's pages are the reference's, the deep one the plan's.
          for (const name of names) {
            const { kind, q } = lists.queries[name];
            const fromStore = (await storeQuery(repo, lists.queries[name])).map((d) => d._id);
            const fromReference = reference.query(kind, q).map((d) => d._id);
            if (!isDeepStrictEqual(fromStore, fromReference) || fromStore.length === 0)
              throw new Error(
                `${name}: the store's page (${fromStore.length}) is not the reference's (${fromReference.length})`,
              );
            if (kind === 'after' && !isDeepStrictEqual(fromStore, lists.expectedDeep))
              throw new Error(`${name}: not the plan's items`);
          }
          const examples = Object.fromEntries(names.map((n) => [lists.queries[n].kind, lists.queries[n].q]));
          figures.referencePlans = reference.plans(examples);
          figures.referenceRows = reference.rows;
        } finally {
          await store.close();
          reference.close();
        }
        // From a process of its own, as the API's: this one's heap (the plan) would add its collections.
        const ms = await step('store and reference queries', () =>
          timeStore({
            dataDir: stack.dataDir,
            referenceFile,
            queries: Object.fromEntries(names.map((n) => [n, { kind: lists.queries[n].kind, q: lists.queries[n].q }])),
            rounds,
          }),
        );
        figures.storeMs = ms.store;
        figures.referenceMs = ms.reference;
        figures.warmUpSlowestMs = { ...ms.warmUpSlowestMs };
      } finally {
        await rm(referenceFile, { force: true });
      }

      await step('cold start', () => Promise.all(SERVICES.map((n) => stack.startService(n))));
      figures.coldStartS = lastSeconds;
      await logIn();
      figures.checks = await step('checked through the API', () =>
        checkSeededLibrary({ api, plan, seeded: seeding.seeded, bytes: seeding.bytes }),
      );

      // The deep page through the API: the cursor of the page taken before the middle of the library.
      const taken = await get(
        `/v1/mediaItems?limit=${LIMIT}&takenBefore=${encodeURIComponent(lists.before.creationTime)}`,
      );
      const cursor = taken.headers.get('x-next-cursor');
      if (!cursor)
        throw new Error('no X-Next-Cursor on a full page of the library: this build has no keyset pagination');
      const deepName = names[1];
      lists.queries[deepName].path = `/v1/mediaItems?limit=${LIMIT}&cursor=${encodeURIComponent(cursor)}`;
      const apiDeep = (await api(lists.queries[deepName].path)).map((i) => i.id);
      if (!isDeepStrictEqual(apiDeep, lists.expectedDeep))
        throw new Error(`${deepName} through the API (${lists.queries[deepName].path}): not the plan's items`);
      // From a process of its own: this one's heap (the plan) would add its collections to the API's times.
      const apiTimes = await step('API list queries', () =>
        timeApi({
          base,
          authorization: auth.Authorization,
          paths: Object.fromEntries(names.map((name) => [name, lists.queries[name].path])),
          rounds,
        }),
      );
      figures.apiMs = apiTimes.ms;
      figures.warmUpSlowestMs.api = apiTimes.warmUpSlowestMs;
      // The same shape of call with no work in it (a first page's bytes, as many calls as the lists made).
      const firstPage = await fetchOnce(`${base}${lists.queries[names[0]].path}`, { headers: auth });
      const floor = await step('the transport floor', async () =>
        measureTransportFloor({ page: Buffer.from(await firstPage.arrayBuffer()), rounds: rounds * names.length }),
      );
      figures.floorMs = floor.ms;

      // Search: the user's first query on its own (it may load what the later ones reuse; until it
      // is answered, a busy explore may let the gateway's RPC time out: asked again, for up to 5 min).
      const probe = shown[shown.length - 1];
      const searchPath = (q) => `/v1/search?q=${encodeURIComponent(q)}&limit=15`;
      const firstStarted = performance.now();
      let found;
      for (let tries = 1; !found; tries++) {
        const res = await fetchOnce(`${base}${searchPath(probe.filename)}`, { headers: auth });
        if (res.status === 200) found = await res.json();
        else if (res.status !== 503 || secondsSince(firstStarted) > 300)
          throw new Error(`the first search: ${res.status} ${await res.text()} (try ${tries})`);
        else figures.searchFirstTries = tries + 1;
      }
      figures.searchFirstMs = performance.now() - firstStarted;
      if (found[0]?.id !== probe.id) throw new Error(`search: ${probe.filename} is not found first`);
      // From a process of its own too, as the lists: this one's heap (the plan) would add its collections.
      const searchTimes = await step('API searches', () =>
        timeApi({
          base,
          authorization: auth.Authorization,
          paths: Object.fromEntries(SEARCHES.map((q) => [q, searchPath(q)])),
          rounds: searchRounds,
        }),
      );
      figures.searchMs = searchTimes.ms;
      figures.warmUpSlowestMs.search = searchTimes.warmUpSlowestMs;
      figures.mediaRss = await rssMiB(stack.processes.media.child.pid);
      figures.exploreRss = await rssMiB(stack.processes.explore.child.pid);
    } else {
      await step('start', () => Promise.all(SERVICES.map((n) => stack.startService(n))));
    }

    if (parts.timeline || parts.web) {
      const timeline = await timelineModule();
      if (!timeline) {
        log(`${label}: scripts/bench/timeline-browser.mjs is missing: the timeline is not measured`);
      } else {
        const port = await freePort();
        const web = await step('web app started', () =>
          stack.startExtra('web', join(root, 'web/server.mjs'), {
            TROVE_API_URL: stack.gatewayUrl,
            TROVE_WEB_PORT: String(port),
            TROVE_WEB_HOST: '127.0.0.1',
            TROVE_SESSION_SECRET: randomBytes(32).toString('base64url'),
          }),
        );
        const site = {
          label,
          webUrl: `http://127.0.0.1:${port}`,
          username: USERNAME,
          password: PASSWORD,
          pids: { ...Object.fromEntries(SERVICES.map((n) => [n, stack.processes[n].child.pid])), web: web.child.pid },
          stop: () => step('stack stopped (data removed)', () => stack.stop()),
        };
        if (parts.web) figures.site = site;
        else {
          const sites = alongside ? [alongside, site] : [site];
          // Every process of both stacks: whose CPU the measurement had.
          const pids = Object.assign(
            {},
            ...sites.map((s) =>
              Object.fromEntries(
                Object.entries(s.pids).map(([n, pid]) => [sites.length > 1 ? `${n} (${s.label})` : n, pid]),
              ),
            ),
          );
          const measured = await step('timeline in chromium', () =>
            cpuWhile(pids, () =>
              timeline.measureTimelines({
                sites,
                month: jumpMonth,
                years: 10,
                // Medians of nine: one slow navigation among five moved a median by a third.
                runs: 9,
              }),
            ),
          );
          figures.timeline = measured.result.at(-1);
          if (alongside) figures.alongsideTimeline = measured.result[0];
          figures.timelineCpu = measured.usage;
        }
      }
    }
    return figures;
  } catch (err) {
    for (const name of ['gateway', 'media', 'explore'])
      log(`${name}'s last output:`, stack.processes[name]?.output().split('\n').slice(-6).join('\n').slice(0, 3000));
    throw err;
  } finally {
    // A site kept for a later measurement is stopped by its caller (`figures.site.stop()`).
    if (!figures.site) await step('stack stopped (data removed)', () => stack.stop());
  }
}
