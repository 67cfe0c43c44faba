#!/usr/bin/env node
// Search benchmark (`make bench`; build first). Not a test: it prints figures, it asserts nothing
// about them.
//
// The explore service's search module on the embedded document store (as `make up` runs it): one
// library of N items (default 100 000) seeded straight into explore's store by the bench seeder
// (scripts/bench/seed-*.mjs: the search documents of the same library as bench-library's, with its
// places, things, named people, cameras and signs over 20 years), then a mix of queries timed one after another, as the RPC handler
// runs them: single words (a place, a thing, a person, a year, a month, a camera), word beginnings,
// two and three words, words written in pictures, and queries that match nothing.
// The first --indexed items (default 1000) also go through the module's own handling of a worker's
// result, on a store of their own (the media service's and the people's answers faked from the
// plan): that times indexing, and checks that the seeder writes the documents the module writes.
// The repository reads a user's items into memory (a page at a time) at their first query after a
// start: that query waits for it and is timed on its own; the timed rounds come after a warm-up round.
//
// Options: --items N (default 100000), --indexed N (default 1000), --rounds N passes over the query mix (default 3).
import { randomUUID } from 'node:crypto';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { args, log, percentile, require, root, secondsSince, sizeLabel } from './bench-common.mjs';
import { peopleNames, searchDoc, seedSearch } from './bench/seed-explore.mjs';
import { libraryPlan, processedResult } from './bench/seed-plan.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));
const { SearchRepository } = require(join(root, 'services/explore/dist/search/repository.js'));
const { SearchService } = require(join(root, 'services/explore/dist/search/service.js'));

const ITEMS = Number(args.items ?? 100_000);
const ROUNDS = Number(args.rounds ?? 3);
const INDEXED = Math.min(ITEMS, Number(args.indexed ?? 1000));

/** Queries by kind, with how many items of the library each is expected to find. */
const QUERIES = {
  'rare word (a file number, a sign)': [
    'img_04321',
    '04321',
    'grandma birthday',
    'fresh fish market',
    'welcome lisboa',
    'platform',
  ],
  place: ['mumbai', 'paris', 'münchen', 'new york', 'kyoto', 'reykjavik', 'iceland'],
  'word beginning': ['mumb', 'barc', 'edinb', 'venez', 'grand', 'sunse'],
  thing: ['dog', 'pizza', 'dining table', 'teddy bear', 'airplane'],
  person: ['anna', 'lucas', 'anna tom'],
  date: ['2022', 'april 2022', '3 april 2022', 'december', '2019 august'],
  camera: ['iphone 15', 'pixel', 'canon eos', 'ilce'],
  'two or three kinds': ['pizza paris', 'dog mumbai 2021', 'cake london', 'iphone kyoto 2023', 'person boat'],
  'broad (a third of the library or more)': ['person', 'apple', 'iphone'],
  nothing: ['zanzibar', 'pizza iceland 2005 train', 'qqqq'],
};

/** The media service's and the people's answers, from the plan. */
function fakesOf(plan) {
  const byId = new Map(plan.items.map((item) => [item.id, item]));
  const media = {
    stateOf: async (_user, id) => ({
      filename: byId.get(id).filename,
      description: byId.get(id).description,
      hidden: byId.get(id).hidden,
      trashed: byId.get(id).trashed,
      version: plan.now,
    }),
  };
  const people = { namesOf: async (_user, id) => peopleNames(plan, byId.get(id)) };
  return { media, people };
}

/** Indexes `items` through the module's handling of a worker's result, on a store of their own; answers ms per item. */
async function indexThroughEvents(plan, items) {
  const dir = await mkdtemp(join(tmpdir(), 'trove-bench-index-'));
  const store = await openDocStore({ service: 'explore', dataDir: dir });
  try {
    const repo = await SearchRepository.open(store);
    const { media, people } = fakesOf(plan);
    const search = new SearchService(repo, media, people);
    const started = performance.now();
    for (const item of items) await search.itemProcessed(processedResult(plan, item));
    const ms = (performance.now() - started) / items.length;
    const written = (doc) => doc && { ...doc, revision: 1 };
    for (const item of items) {
      if (!isDeepStrictEqual(written(await repo.item(plan.userId, item.id)), searchDoc(plan, item)))
        throw new Error(`the seeder's search document of ${item.filename} is not the one the module writes`);
    }
    return ms;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const dir = await mkdtemp(join(tmpdir(), 'trove-bench-search-'));
try {
  const benchStarted = performance.now();
  const plan = libraryPlan({ count: ITEMS, userId: randomUUID() });
  const { userId, items } = plan;
  log(`indexing ${INDEXED} items through the module's handling of a worker's result…`);
  const indexMs = await indexThroughEvents(plan, items.slice(0, INDEXED));
  log(`seeding ${ITEMS} items' search documents straight into explore's store…`);
  const store = await openDocStore({ service: 'explore', dataDir: dir });
  const seedStarted = performance.now();
  await seedSearch({ store, plan });
  const seedS = secondsSince(seedStarted);
  const search = new SearchService(await SearchRepository.open(store), fakesOf(plan).media);
  // The seeded documents are of the shape the module reads: one of them must be found by its file name.
  const probe = items.findLast((item) => !item.hidden && !item.trashed);
  const firstStarted = performance.now();
  if ((await search.search(userId, probe.filename, 1, 15))[0] !== probe.id)
    throw new Error('a seeded item is not found by its filename');
  const firstQueryMs = performance.now() - firstStarted;
  log(
    `seeded in ${seedS.toFixed(1)} s; the user's first query (items read into memory) took ${firstQueryMs.toFixed(0)} ms; timing queries…`,
  );

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
  const all = Object.values(timings)
    .flat()
    .sort((a, b) => a - b);
  const rows = [];
  for (const [kind, queries] of Object.entries(QUERIES)) {
    const sorted = [...timings[kind]].sort((a, b) => a - b);
    const matched = [];
    for (const q of queries) matched.push(await matchCount(q));
    rows.push([
      kind,
      `${percentile(sorted, 50).toFixed(1)} ms`,
      `${percentile(sorted, 99).toFixed(1)} ms`,
      `${Math.min(...matched)}–${Math.max(...matched)}`,
      queries.map((q) => `\`${q}\``).join(', '),
    ]);
  }
  await store.close();

  const cpu = cpus();
  console.log(
    `\nTrove search benchmark — ${ITEMS} items of one user on the embedded store, ${ROUNDS} timed rounds of ${all.length / ROUNDS} queries (page 1, limit 15)`,
  );
  console.log(
    `machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}; indexing one item through the event path: ${indexMs.toFixed(2)} ms (mean of ${INDEXED})\n`,
  );
  console.log('| queries | p50 | p99 | items matched | the queries |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`| **all** | ${percentile(all, 50).toFixed(1)} ms | ${percentile(all, 99).toFixed(1)} ms | | |\n`);
  console.log(
    `seeding the search documents of ${ITEMS} items straight into the store: ${seedS.toFixed(1)} s; the user's first query (reads the items into memory): ${firstQueryMs.toFixed(0)} ms; the whole search bench: ${secondsSince(benchStarted).toFixed(0)} s\n`,
  );
  const at = sizeLabel(ITEMS);
  console.log(`ratio search_p99_ms_at_${at} ${percentile(all, 99).toFixed(1)}`);
  console.log(`ratio search_p50_ms_at_${at} ${percentile(all, 50).toFixed(1)}`);
  console.log(`ratio search_first_query_ms_at_${at} ${firstQueryMs.toFixed(0)}`);
  console.log(`ratio search_index_ms_per_item ${indexMs.toFixed(2)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
