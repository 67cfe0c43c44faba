import { appendFile, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { openSqliteDocStore } from '../docstore/sqlite/store';
import { SCHEMA_VERSION } from '../docstore/sqlite/connection';
import { tempDir, type TempDir } from '../testing/temp';
import { backup, backupName, listBackups, readManifest, restore, RestoreRefused, verify } from './index';

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir('trove-backup-');
});
afterEach(() => dir.remove());

/** A data dir as the services leave it: a store per service, secrets, blobs with a symlink sidecar, a temp write. */
async function seed(data: string) {
  const store = await openSqliteDocStore({ file: join(data, 'docstore', 'media.sqlite') });
  const items = store.collection<{ _id: string; n: number }>('mediaItems');
  for (let n = 0; n < 5; n++) await items.insertOne({ _id: `i${n}`, n });
  await store.collection<{ _id: string }>('albums').insertOne({ _id: 'a1' });
  await mkdir(join(data, 'secrets'), { recursive: true });
  await writeFile(join(data, 'secrets', 'jwt-secret'), 'shh\n', { mode: 0o600 });
  await mkdir(join(data, 'blobs', 'u1', 'originals'), { recursive: true });
  await writeFile(join(data, 'blobs', 'u1', 'originals', 'i0'), 'original bytes');
  await symlink('{"contentType":"image/jpeg"}', join(data, 'blobs', 'u1', 'originals', 'i0.meta.json'));
  await mkdir(join(data, 'blobs', '.tmp'), { recursive: true });
  await writeFile(join(data, 'blobs', '.tmp', 'half'), 'half-written');
  await mkdir(join(data, 'nats'), { recursive: true });
  return store; // left open: the backup reads a live store
}

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s));

it('copies a live store, the secrets and the blobs with a manifest that verify accepts', async () => {
  const data = dir.file('data');
  const store = await seed(data);
  try {
    const { path, manifest } = await backup({ dataDir: data, troveVersion: '9.9.9', now: at(0) });
    expect(path).toBe(join(data, 'backups', backupName(at(0))));
    expect(manifest.troveVersion).toBe('9.9.9');
    expect(manifest.stores).toEqual([
      expect.objectContaining({
        service: 'media',
        file: 'docstore/media.sqlite',
        schemaVersion: SCHEMA_VERSION,
        collections: { albums: 1, mediaItems: 5 },
      }),
    ]);
    expect(manifest.secrets).toEqual(['jwt-secret']);
    // The original and its sidecar; not the in-flight temp file.
    expect(manifest.blobs).toEqual({ count: 2, bytes: 'original bytes'.length, linked: 0 });
    expect(await readlink(join(path, 'blobs', 'u1', 'originals', 'i0.meta.json'))).toBe('{"contentType":"image/jpeg"}');
    expect(await readdir(path)).toEqual(expect.not.arrayContaining(['nats', 'backups']));
    expect(await verify(path)).toEqual([]);
  } finally {
    await store.close();
  }
});

it('links unchanged blobs to the previous backup and copies changed ones', async () => {
  const data = dir.file('data');
  await (await seed(data)).close();
  await writeFile(join(data, 'blobs', 'u1', 'originals', 'i1'), 'second');
  const first = await backup({ dataDir: data, troveVersion: '1', now: at(0) });
  await writeFile(join(data, 'blobs', 'u1', 'originals', 'i1'), 'second, edited');
  const second = await backup({ dataDir: data, troveVersion: '1', now: at(1) });
  const ino = async (b: string, f: string) => (await stat(join(b, 'blobs', 'u1', 'originals', f))).ino;
  expect(await ino(second.path, 'i0')).toBe(await ino(first.path, 'i0'));
  expect(await ino(second.path, 'i1')).not.toBe(await ino(first.path, 'i1'));
  expect(second.manifest.blobs.linked).toBe(1);
  expect(await readFile(join(second.path, 'blobs', 'u1', 'originals', 'i1'), 'utf8')).toBe('second, edited');
  expect(await readFile(join(first.path, 'blobs', 'u1', 'originals', 'i1'), 'utf8')).toBe('second');
});

it('keeps the newest TROVE_BACKUP_KEEP backups in TROVE_BACKUP_DIR', async () => {
  const data = dir.file('data');
  await (await seed(data)).close();
  const into = dir.file('elsewhere');
  for (let s = 0; s < 4; s++) await backup({ dataDir: data, backupDir: into, keep: 2, troveVersion: '1', now: at(s) });
  expect(await listBackups(into)).toEqual([backupName(at(2)), backupName(at(3))]);
  await expect(backup({ dataDir: data, keep: 0, troveVersion: '1' })).rejects.toThrow(/at least 1/);
  await expect(backup({ dataDir: dir.file('nothing'), troveVersion: '1' })).rejects.toThrow(/nothing to back up/);
  expect(await readdir(join(dir.file('nothing'), 'backups'))).toEqual([]);
});

it('restores into an empty directory a library that opens with the same documents', async () => {
  const data = dir.file('data');
  await (await seed(data)).close();
  const { path } = await backup({ dataDir: data, troveVersion: '1', now: at(0) });
  const target = dir.file('restored');
  await restore({ backupPath: path, dataDir: target });
  const store = await openSqliteDocStore({ file: join(target, 'docstore', 'media.sqlite') });
  try {
    expect(await store.collection<{ _id: string; n: number }>('mediaItems').count({})).toBe(5);
  } finally {
    await store.close();
  }
  expect(await readFile(join(target, 'blobs', 'u1', 'originals', 'i0'), 'utf8')).toBe('original bytes');
  expect((await stat(join(target, 'secrets', 'jwt-secret'))).mode & 0o777).toBe(0o600);
});

it('refuses a non-empty data directory and a damaged backup', async () => {
  const data = dir.file('data');
  await (await seed(data)).close();
  const { path } = await backup({ dataDir: data, troveVersion: '1', now: at(0) });
  await expect(restore({ backupPath: path, dataDir: data })).rejects.toThrow(RestoreRefused);
  await expect(restore({ backupPath: path, dataDir: data })).rejects.toThrow(/is not empty/);

  await appendFile(join(path, 'docstore', 'media.sqlite'), 'x');
  await writeFile(join(path, 'blobs', 'stray'), 'x');
  const problems = await verify(path);
  expect(problems).toEqual([
    expect.stringMatching(/^docstore\/media.sqlite: sha256 /),
    expect.stringMatching(/^blobs: 3 files/),
  ]);
  await expect(restore({ backupPath: path, dataDir: dir.file('new') })).rejects.toThrow(/is damaged/);
  await expect(readManifest(dir.path)).rejects.toThrow(/not a Trove backup/);
});

it('a store from a newer Trove is refused; an older one (no version) is brought to the current version', async () => {
  const newer = dir.file('newer.sqlite');
  const raw = new Database(newer);
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  await expect(openSqliteDocStore({ file: newer })).rejects.toThrow(/newer than the .* this Trove reads/);

  const older = dir.file('older.sqlite');
  const old = new Database(older);
  old.exec(`CREATE TABLE "d:things" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  old.close();
  const store = await openSqliteDocStore({ file: older });
  await store.close();
  const check = new Database(older);
  expect(check.prepare('PRAGMA user_version').raw().get()).toEqual([SCHEMA_VERSION]);
  check.close();
});
