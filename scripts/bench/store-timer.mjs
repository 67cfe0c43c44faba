// Times the store's list queries and the same on the SQLite reference from a process of its own, as
// the media service asks its store: the benchmark that seeded a library holds its plan (GBs at a
// million items, an 8 GiB heap), and that heap's collections, set off by the queries' own garbage,
// would be counted as the store's latency (at a million items the store's p99 read 13.5 ms against a
// p50 of 1.5 when timed in the bench's process).
//
// As a module: `timeStore({ dataDir, referenceFile, queries, rounds })` → `{ store, reference,
// warmUpSlowestMs }` (milliseconds by name on each side; see bench-common's `timeRounds`; no reference
// side without `referenceFile`). `queries`: name → `{ kind, q }` as scale-library's `listQueries` makes
// them (a kind of its own, `page`, is a list by page number). Run directly, it reads that job
// as JSON on stdin and writes the figures as JSON on stdout.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require, root, runJobInChild, timeRounds } from '../bench-common.mjs';
import { openReference } from './scale-reference.mjs';

const SELF = fileURLToPath(import.meta.url);

/** The store's answer to a list query (the media repository, as the media service asks it). */
export function storeQuery(repo, { kind, q }) {
  if (kind === 'yearsAgo') return repo.takenOn(q.userId, q.monthDay, q.beforeYear, 1, q.limit);
  return repo.list(q);
}

/**
 * @param {{ dataDir: string, referenceFile?: string, queries: Record<string, { kind: string, q: object }>, rounds: number }} job
 * @returns {Promise<{ store: Record<string, number[]>, reference: Record<string, number[]>, warmUpSlowestMs: { store: number, reference: number } }>}
 */
export function timeStore(job) {
  return runJobInChild(SELF, job, 'the store timer');
}

async function run({ dataDir, referenceFile, queries, rounds }) {
  const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));
  const { MediaItemsRepository } = require(join(root, 'services/media/dist/media-items/repository.js'));
  const store = await openDocStore({ service: 'media', dataDir });
  const reference = referenceFile ? openReference(referenceFile) : undefined;
  try {
    const repo = await MediaItemsRepository.open(store);
    const sides = { store: (name) => storeQuery(repo, queries[name]) };
    if (reference) sides.reference = async (name) => reference.query(queries[name].kind, queries[name].q);
    return await timeRounds(Object.keys(queries), rounds, sides);
  } finally {
    await store.close();
    reference?.close();
  }
}

if (process.argv[1] === SELF) {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await run(JSON.parse(input))));
}
