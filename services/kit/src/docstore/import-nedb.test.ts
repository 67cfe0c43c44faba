/**
 * A service that ran on NeDB starts on SQLite: `openDocStore` imports its documents and indexes once, and the
 * NeDB directory is kept aside, renamed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type TempDir } from '../testing/temp';
import { DuplicateKeyError, openDocStore, type BaseDoc, type ImportSummary } from './index';
import { openNedbDocStore } from './nedb';

interface Item extends BaseDoc {
  userId: string;
  sha256?: string;
  takenAt?: Date;
  tags?: string[];
}

let dir: TempDir;

beforeEach(async () => {
  dir = await tempDir('trove-import-');
});
afterEach(async () => {
  await dir?.remove();
});

test('the first SQLite start imports the NeDB data of the service, the second does not import again', async () => {
  const nedb = await openNedbDocStore({ dir: join(dir.path, 'docstore', 'media') });
  const items = nedb.collection<Item>('media_items');
  await items.ensureIndex({ fields: { userId: 1, sha256: 1 }, unique: true });
  const docs: Item[] = Array.from({ length: 250 }, (_, i) => ({
    _id: `i${i}`,
    userId: i % 2 ? 'u1' : 'u2',
    sha256: `h${i}`,
    takenAt: new Date(Date.UTC(2020, 0, 1 + i)),
    tags: [`t${i % 3}`],
  }));
  await items.insertMany(docs);
  await nedb.collection<BaseDoc & { n: number }>('counters').insertOne({ _id: 'c', n: 1 });
  await nedb.close();

  const imports: ImportSummary[] = [];
  const onImport = (summary: ImportSummary): number => imports.push(summary);
  const store = await openDocStore({ service: 'media', dataDir: dir.path, onImport });
  expect(store.kind).toBe('sqlite');
  expect(imports).toEqual([
    expect.objectContaining({
      collections: { media_items: 250, counters: 1 },
      indexes: 1,
      movedTo: join(dir.path, 'docstore', 'media.nedb-imported'),
    }),
  ]);
  const imported = store.collection<Item>('media_items');
  expect(await imported.count({})).toBe(250);
  expect(await imported.findOne({ _id: 'i7' })).toEqual(docs[7]);
  expect(
    (await imported.find({ userId: 'u1', tags: 't1' }, { sort: { takenAt: -1 }, limit: 2 })).map((d) => d._id),
  ).toEqual(['i247', 'i241']);
  // The unique index came along.
  await expect(imported.insertOne({ _id: 'other', userId: 'u1', sha256: 'h1' })).rejects.toThrow(DuplicateKeyError);
  await imported.insertOne({ _id: 'new', userId: 'u1', sha256: 'new' });
  await store.close();
  expect(existsSync(join(dir.path, 'docstore', 'media'))).toBe(false);

  // NeDB files appearing again (say, a copy put back) are not imported over the SQLite data.
  const again = await openNedbDocStore({ dir: join(dir.path, 'docstore', 'media') });
  await again.collection<Item>('media_items').insertOne({ _id: 'stale', userId: 'u1' });
  await again.close();
  const reopened = await openDocStore({ service: 'media', dataDir: dir.path, onImport });
  expect(imports).toHaveLength(1);
  expect(await reopened.collection<Item>('media_items').count({})).toBe(251);
  expect(await reopened.collection<Item>('media_items').findOne({ _id: 'stale' })).toBeNull();
  await reopened.close();
});

test('TROVE_EMBEDDED_STORE=nedb keeps the NeDB directory in use, untouched by SQLite', async () => {
  const store = await openDocStore({ service: 'library', dataDir: dir.path, embedded: 'nedb' });
  expect(store.kind).toBe('nedb');
  await store.collection<BaseDoc>('albums').insertOne({ _id: 'a1' });
  await store.close();
  expect(existsSync(join(dir.path, 'docstore', 'library', 'albums.db'))).toBe(true);
  expect(existsSync(join(dir.path, 'docstore', 'library.sqlite'))).toBe(false);
});

test('a fresh data dir gets a SQLite file and nothing to import', async () => {
  const onImport = jest.fn();
  const store = await openDocStore({ service: 'auth', dataDir: dir.path, onImport });
  await store.collection<BaseDoc>('users').insertOne({ _id: 'u1' });
  await store.close();
  expect(onImport).not.toHaveBeenCalled();
  expect(existsSync(join(dir.path, 'docstore', 'auth.sqlite'))).toBe(true);
});
