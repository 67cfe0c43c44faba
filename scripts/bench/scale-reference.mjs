// The physical reference of `make bench-scale`: the media documents the store holds, copied into a
// SQLite file of their own (the `libsql` package, the engine the kit's store runs on) as a plain
// table of the fields the list queries filter and sort on plus the JSON document, with the ideal
// composite index of each query. A query reads its page through that index and parses each
// document with JSON.parse, as the store must decode them too: what SQLite itself costs for the
// same rows, against which the store's own list query is measured.
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';

const Database = require('libsql');
const { MEDIA_ITEMS } = require(join(root, 'services/media/dist/media-items/document.js'));

const COLUMNS = `id TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL, still TEXT, deleted INTEGER NOT NULL,
  hidden INTEGER NOT NULL, type TEXT NOT NULL, creation_at INTEGER NOT NULL, month_day TEXT NOT NULL,
  year INTEGER NOT NULL, doc TEXT NOT NULL`;

/** One ideal index per query: every condition an equality on a leading field, then the sort. */
const INDEXES = [
  'CREATE INDEX library ON items (user_id, deleted, hidden, still, creation_at DESC, id DESC)',
  'CREATE INDEX typed ON items (user_id, deleted, hidden, still, type, creation_at DESC, id DESC)',
  'CREATE INDEX years_ago ON items (user_id, month_day, deleted, hidden, still, creation_at DESC, id DESC, year)',
];

const LIBRARY = 'user_id = ? AND deleted = 0 AND hidden = 0 AND still IS NULL';
const NEWEST_FIRST = 'ORDER BY creation_at DESC, id DESC LIMIT ?';

/** The SQL of each query kind; `params` gives its parameters. */
const QUERIES = {
  first: { sql: `SELECT doc FROM items WHERE ${LIBRARY} ${NEWEST_FIRST}`, params: (q) => [q.userId, q.limit] },
  after: {
    sql: `SELECT doc FROM items WHERE ${LIBRARY} AND (creation_at, id) < (?, ?) ${NEWEST_FIRST}`,
    params: (q) => [q.userId, Date.parse(q.after.creationTime), q.after.id, q.limit],
  },
  type: {
    sql: `SELECT doc FROM items WHERE ${LIBRARY} AND type = ? ${NEWEST_FIRST}`,
    params: (q) => [q.userId, q.type, q.limit],
  },
  yearsAgo: {
    sql: `SELECT doc FROM items WHERE user_id = ? AND month_day = ? AND deleted = 0 AND hidden = 0 AND still IS NULL AND year < ? ${NEWEST_FIRST}`,
    params: (q) => [q.userId, q.monthDay, q.beforeYear, q.limit],
  },
};

/**
 * Builds the reference at `file` from the media store of `dataDir` (its services stopped) and opens
 * it (see `openReference`).
 */
export function buildReference({ dataDir, file }) {
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE items (${COLUMNS})`);
  db.prepare('ATTACH DATABASE ? AS media').run(join(dataDir, 'docstore', 'media.sqlite'));
  const field = (path) => `json_extract(doc, '$.${path}')`;
  db.exec(
    `INSERT INTO items SELECT ${[
      '_id',
      'userId',
      'stillMediaItemId',
      'deleted',
      'hidden',
      'mediaItemType',
      'creationAt."$date"',
      'creationMonthDay',
      'creationYear',
    ]
      .map(field)
      .join(', ')}, doc FROM media."d:${MEDIA_ITEMS.name}" ORDER BY rid`,
  );
  db.exec('DETACH DATABASE media');
  for (const sql of INDEXES) db.exec(sql);
  db.exec('ANALYZE');
  db.close();
  return openReference(file);
}

/**
 * Opens a reference `buildReference` made: `query(kind, q)` answers the page's documents
 * (JSON.parse'd), `plans()` SQLite's plan of each query (to show that each reads its index in order,
 * no sort), `rows` how many were copied.
 */
export function openReference(file) {
  const db = new Database(file);
  // The same page cache as the kit's store (16 MiB): neither side holds the library in its own memory.
  db.pragma('cache_size = -16384');
  const rows = db.prepare('SELECT count(*) FROM items').raw().get()[0];
  const statements = Object.fromEntries(
    Object.entries(QUERIES).map(([kind, { sql }]) => [kind, db.prepare(sql).raw()]),
  );
  return {
    rows,
    query: (kind, q) => statements[kind].all(...QUERIES[kind].params(q)).map(([doc]) => JSON.parse(doc)),
    plans: (examples) =>
      Object.entries(examples).map(([kind, q]) => {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${QUERIES[kind].sql}`)
          .raw()
          .all(...QUERIES[kind].params(q));
        return `${kind}: ${plan.map((row) => row[3]).join('; ')}`;
      }),
    close: () => db.close(),
  };
}
