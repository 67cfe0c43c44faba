#!/usr/bin/env node
// Search benchmark (`make bench`; build first). Not a test: it prints figures, it asserts nothing.
//
// The explore service's search module on the embedded document store (NeDB, as `make up` runs it):
// one library of N items (default 100 000), then a mix of queries timed one after another, as the
// RPC handler runs them: single words (a place, a thing, a year, a month, a camera), word
// beginnings, two and three words, words written in pictures, and queries that match nothing.
// The first --indexed items (default 1000) go through the module's own event handling (a worker's
// result each, the media service's answer faked in memory), which times indexing; the rest are
// copies of their documents with new ids, dates and filenames, seeded straight into the store in
// bulk (`insertMany`, 5000 at a time: about 20 s for 100 000 where one by one takes 20 minutes).
// The repository reads every user's items into memory when it opens (here: an empty store) and a
// user's at their first query when they are not there yet (here: the seeded items, written behind
// its back): that first query is timed on its own, as what a start costs; the timed rounds come after
// a warm-up round.
//
// Options: --items N (default 100000), --indexed N (default 1000), --rounds N passes over the query mix (default 3).
import { randomUUID } from 'node:crypto';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { args, log, require, root } from './bench-common.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));
const { SearchRepository } = require(join(root, 'services/explore/dist/search/repository.js'));
const { Search } = require(join(root, 'services/explore/dist/search/service.js'));
const { terms, words } = require(join(root, 'services/explore/dist/search/text.js'));

const ITEMS = Number(args.items ?? 100_000);
const ROUNDS = Number(args.rounds ?? 3);
const INDEXED = Math.min(ITEMS, Number(args.indexed ?? 1000));

// ---- a library that looks like one: a few cameras, places and things that recur, dates over 20 years
/** A small deterministic generator, so that every run indexes the same library. */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = (list) => list[Math.floor(random() * list.length)];
const CAMERAS = [['Apple', 'iPhone 12 mini'], ['Apple', 'iPhone 15 Pro'], ['Google', 'Pixel 7'], ['SONY', 'ILCE-7M3'], ['Canon', 'Canon EOS R6'], ['samsung', 'SM-S911B']];
const PLACES = [
  ['Mumbai', 'Maharashtra', 'India'], ['Paris', 'Île-de-France', 'France'], ['Lyon', 'Auvergne-Rhône-Alpes', 'France'], ['Berlin', 'Berlin', 'Germany'],
  ['München', 'Bavaria', 'Germany'], ['London', 'England', 'United Kingdom'], ['Edinburgh', 'Scotland', 'United Kingdom'], ['New York', 'New York', 'United States'],
  ['San Francisco', 'California', 'United States'], ['Tokyo', 'Tokyo', 'Japan'], ['Kyoto', 'Kyoto', 'Japan'], ['Sydney', 'New South Wales', 'Australia'],
  ['Barcelona', 'Catalonia', 'Spain'], ['Madrid', 'Madrid', 'Spain'], ['Roma', 'Lazio', 'Italy'], ['Venezia', 'Veneto', 'Italy'], ['Amsterdam', 'North Holland', 'Netherlands'],
  ['Lisboa', 'Lisbon', 'Portugal'], ['Coimbatore', 'Tamil Nadu', 'India'], ['Reykjavík', 'Capital Region', 'Iceland'],
];
const THINGS = ['Person', 'Dog', 'Cat', 'Car', 'Bicycle', 'Pizza', 'Cake', 'Cup', 'Bottle', 'Dining Table', 'Chair', 'Couch', 'Potted Plant', 'Boat', 'Bird', 'Horse', 'Umbrella', 'Book', 'Clock', 'Bench', 'Train', 'Airplane', 'Sandwich', 'Wine Glass', 'Teddy Bear'];
const SIGNS = [['HAPPY', 'BIRTHDAY', 'GRANDMA'], ['OPEN'], ['EXIT'], ['STOP'], ['PLATFORM', '9'], ['FRESH', 'FISH', 'MARKET'], ['WELCOME', 'TO', 'LISBOA'], ['NO', 'PARKING']];
const DESCRIPTIONS = ['Sunset at the beach', 'Grandma turns ninety', 'First day of school', 'Picnic by the river', 'Our new kitchen', 'Snow in the garden', 'Wedding of Anna and Tom', 'Hiking the ridge'];

function library(n) {
  const userId = randomUUID();
  const items = [];
  for (let i = 0; i < n; i++) {
    const [make, model] = pick(CAMERAS);
    const year = 2005 + Math.floor(random() * 20);
    const taken = `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T12:00:00+01:00`;
    const [city, state, country] = pick(PLACES);
    const things = random() < 0.45 ? ['Person'] : [];
    for (let t = Math.floor(random() * 3); t > 0; t--) things.push(pick(THINGS));
    items.push({
      id: randomUUID(),
      filename: `${pick(['IMG_', 'DSC0', 'PXL_'])}${String(i).padStart(5, '0')}.${pick(['HEIC', 'JPG', 'jpeg'])}`,
      description: random() < 0.05 ? pick(DESCRIPTIONS) : null,
      result: {
        userId,
        mimeType: 'image/jpeg',
        metadata: { creationTime: taken, width: 4032, height: 3024, latitude: null, longitude: null, cameraMake: make, cameraModel: model, focalLength: null, apertureFNumber: null, isoEquivalent: null, exposureTime: null, fps: null, durationSeconds: null },
        category: 'default',
        placeholder: null,
        variants: { preview: null, thumbnail: null, playback: null },
        things: [...new Set(things)].map((label) => ({ label, score: 0.8 })),
        place: random() < 0.8 ? { name: city, town: null, city, state, country, countryCode: 'XX', latitude: 0, longitude: 0, distanceKm: 1, postcode: null } : null,
        words: random() < 0.04 ? pick(SIGNS) : [],
      },
    });
  }
  return { userId, items };
}

/** Queries by kind, with how many items of the library each is expected to find. */
const QUERIES = {
  'rare word (a file number, a sign)': ['img_04321', '04321', 'grandma birthday', 'fresh fish market', 'welcome lisboa', 'platform'],
  'place': ['mumbai', 'paris', 'münchen', 'new york', 'kyoto', 'reykjavik', 'iceland'],
  'word beginning': ['mumb', 'barc', 'edinb', 'venez', 'grand', 'sunse'],
  'thing': ['dog', 'pizza', 'dining table', 'teddy bear', 'airplane'],
  'date': ['2022', 'april 2022', '3 april 2022', 'december', '2019 august'],
  'camera': ['iphone 15', 'pixel', 'canon eos', 'ilce'],
  'two or three kinds': ['pizza paris', 'dog mumbai 2021', 'cake london', 'iphone kyoto 2023', 'person boat'],
  'broad (a third of the library or more)': ['person', 'apple', 'iphone'],
  'nothing': ['zanzibar', 'pizza iceland 2005 train', 'qqqq'],
};

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const dir = await mkdtemp(join(tmpdir(), 'trove-bench-search-'));
try {
  const store = await openDocStore({ service: 'explore', dataDir: dir });
  const { userId, items } = library(ITEMS);
  const byId = new Map(items.map((item) => [item.id, item]));
  const version = new Date('2024-01-01T00:00:00Z');
  const media = { stateOf: async (_user, id) => ({ filename: byId.get(id).filename, description: byId.get(id).description, hidden: false, trashed: false, version }) };
  const search = new Search(await SearchRepository.open(store), media);

  log(`indexing ${INDEXED} items through the module's handling of a worker's result…`);
  const benchStarted = performance.now();
  const started = performance.now();
  for (const item of items.slice(0, INDEXED)) await search.itemProcessed({ ...item.result, mediaItemId: item.id });
  const indexMs = (performance.now() - started) / INDEXED;

  // The rest: each a copy of an indexed item's document with its own id, filename and date taken.
  const collection = store.collection('search_items');
  const model = await collection.find({ userId });
  log(`seeding ${ITEMS - INDEXED} more straight into the store, in bulk…`);
  const seedStarted = performance.now();
  for (let from = INDEXED; from < ITEMS; from += 5000) {
    const batch = items.slice(from, Math.min(ITEMS, from + 5000)).map((item, i) => {
      const like = model[(from + i) % model.length];
      const fields = { ...like.fields, filename: words(item.filename), date: words(`${2005 + ((from + i) % 20)} ${like.fields.date.slice(1).join(' ')}`) };
      return { ...like, _id: item.id, fields, terms: terms(Object.values(fields).flat()), creationTime: new Date(Date.parse(like.creationTime) - i * 60_000), revision: 1 };
    });
    await collection.insertMany(batch);
  }
  const seedS = (performance.now() - seedStarted) / 1000;
  // The bulk load made documents of the shape the module reads: one of them must be found by its file name.
  const probe = items[ITEMS - 1];
  const firstStarted = performance.now();
  if ((await search.search(userId, probe.filename, 1, 15))[0] !== probe.id) throw new Error('a bulk-loaded item is not found by its filename');
  const firstQueryMs = performance.now() - firstStarted;
  log(`seeded in ${seedS.toFixed(1)} s; the user's first query (items read into memory) took ${firstQueryMs.toFixed(0)} ms; timing queries…`);

  // One round warms up (the first queries pay for lazily built state); the rounds after it are timed.
  const timings = Object.fromEntries(Object.keys(QUERIES).map((kind) => [kind, []]));
  const hits = {};
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [kind, queries] of Object.entries(QUERIES)) {
      for (const q of queries) {
        const t = performance.now();
        const ids = await search.search(userId, q, 1, 15);
        const ms = performance.now() - t;
        if (round > 0) timings[kind].push(ms);
        hits[q] = ids.length;
      }
    }
  }
  const matchCount = async (q) => (await search.search(userId, q, 1, ITEMS)).length;
  const all = Object.values(timings).flat().sort((a, b) => a - b);
  const rows = [];
  for (const [kind, queries] of Object.entries(QUERIES)) {
    const sorted = [...timings[kind]].sort((a, b) => a - b);
    const matched = [];
    for (const q of queries) matched.push(await matchCount(q));
    rows.push([kind, `${percentile(sorted, 50).toFixed(1)} ms`, `${percentile(sorted, 99).toFixed(1)} ms`, `${Math.min(...matched)}–${Math.max(...matched)}`, queries.map((q) => `\`${q}\``).join(', ')]);
  }
  await store.close();

  const cpu = cpus();
  console.log(`\nTrove search benchmark — ${ITEMS} items of one user on the embedded store (NeDB), ${ROUNDS} timed rounds of ${all.length / ROUNDS} queries (page 1, limit 15)`);
  console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}; indexing one item through the event path: ${indexMs.toFixed(2)} ms (mean of ${INDEXED})\n`);
  console.log('| queries | p50 | p99 | items matched | the queries |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`| **all** | ${percentile(all, 50).toFixed(1)} ms | ${percentile(all, 99).toFixed(1)} ms | | |\n`);
  console.log(`seeding ${ITEMS - INDEXED} items straight into the store: ${seedS.toFixed(1)} s; the user's first query (reads the items into memory): ${firstQueryMs.toFixed(0)} ms; the whole search bench: ${((performance.now() - benchStarted) / 1000).toFixed(0)} s\n`);
  const at = ITEMS % 1000 === 0 ? `${ITEMS / 1000}k` : String(ITEMS);
  console.log(`ratio search_p99_ms_at_${at} ${percentile(all, 99).toFixed(1)}`);
  console.log(`ratio search_p50_ms_at_${at} ${percentile(all, 50).toFixed(1)}`);
  console.log(`ratio search_first_query_ms_at_${at} ${firstQueryMs.toFixed(0)}`);
  console.log(`ratio search_index_ms_per_item ${indexMs.toFixed(2)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
