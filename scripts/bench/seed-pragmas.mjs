// The seeder's connections to the embedded stores (the services open their own).

/**
 * Seeding settings of an embedded SQLite store's connection: no fsync at each commit (a crash while
 * seeding loses a bench run, nothing else) and a page cache of 256 MiB, so that the key tables'
 * B-trees of a million documents stay in memory while their random keys go in. Per connection:
 * closing the store ends them.
 */
export function forSeeding(store) {
  if (store.kind !== 'sqlite' || !store.db) return;
  store.db.pragma('synchronous = OFF');
  store.db.pragma('cache_size = -262144');
}
