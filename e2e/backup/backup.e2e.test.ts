/**
 * `make backup` while a stack runs (and while an upload is in flight), `make restore` into an empty directory, a new
 * stack on the restored data: the same users, items, dates, flags, descriptions, albums and byte-identical originals;
 * an item the backup caught half-processed is processed again, none is half-present. The scripts run as `make` runs them.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { startStack, tempDir, waitFor } from '@trove/kit/testing';
import type { Stack, TempDir } from '@trove/kit/testing';
import { jpegAt, noiseJpeg } from '@trove/kit/testing/media';
import { createApi, login, newUser, ok, upload, uploadReady, settled } from '../support/api';
import type { Api, MediaItem } from '../support/api';
import { content } from '../media/support';

const ROOT = resolve(__dirname, '..', '..');
const SERVICES = ['auth', 'media', 'library', 'worker', 'gateway'];

function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', script), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const facts = (i: MediaItem) => ({
  id: i.id,
  filename: i.filename,
  creationTime: i.creationTime,
  favourite: i.favourite,
  description: i.description,
  status: i.status,
});

async function library(api: Api) {
  const items = await ok(api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }), 200);
  const albums = await ok(api.GET('/v1/albums'), 200);
  const albumItems = await Promise.all(
    albums.map(async (a) =>
      (await ok(api.GET('/v1/albums/{id}/mediaItems', { params: { path: { id: a.id } } }), 200)).map((i) => i.id),
    ),
  );
  return { items, albums: albums.map((a, n) => ({ name: a.name, items: albumItems[n].sort() })) };
}

let first: Stack | undefined;
let second: Stack | undefined;
let work: TempDir;

beforeAll(async () => {
  work = await tempDir('trove-backup-e2e-');
  first = await startStack({ services: SERVICES });
}, 120_000);

afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await work?.remove();
});

it('a backup taken while the stack runs restores to the same library', async () => {
  const stack = first!;
  const user = await newUser(stack);
  const a = await uploadReady(user.api, await jpegAt(48.85, 2.35), 'paris.jpg');
  const b = await uploadReady(user.api, await noiseJpeg(320, 200), 'noise.jpg');
  const c = await uploadReady(user.api, await noiseJpeg(200, 320), 'tall.jpg');
  await ok(user.api.PUT('/v1/mediaItems/{id}', { params: { path: { id: a.id } }, body: { favourite: true } }), 204);
  await ok(
    user.api.PUT('/v1/mediaItems/{id}', { params: { path: { id: b.id } }, body: { description: 'the noisy one' } }),
    204,
  );
  const album = await ok(user.api.POST('/v1/albums', { body: { name: 'Trip' } }), 201);
  await ok(
    user.api.POST('/v1/albums/{id}/mediaItems', {
      params: { path: { id: album.id } },
      body: { mediaItems: [a.id, c.id] },
    }),
    204,
  );
  const before = await library(user.api);
  const originals = new Map<string, Buffer>();
  for (const i of [a, b, c]) originals.set(i.id, (await content(user.api, i.id, 'original')).bytes);

  // With the worker stopped, an upload stays PROCESSING: the backup surely catches one half-processed item, whose
  // queued work (in JetStream, which is not backed up) is lost. Another upload runs during the backup itself.
  await stack.processes.worker.stop();
  const pending = await ok(upload(user.api, await noiseJpeg(640, 480), 'pending.jpg'), 201);
  const backups = join(work.path, 'backups');
  const env = { TROVE_DATA_DIR: stack.dataDir, TROVE_BACKUP_DIR: backups, TROVE_BACKUP_KEEP: '3' };
  const inFlight = upload(user.api, await noiseJpeg(1600, 1200), 'in-flight.jpg');
  const [taken] = await Promise.all([run('backup.mjs', [], env), inFlight]);
  expect(taken).toMatchObject({ code: 0, stderr: '' });
  const path = taken.stdout.trim().split('\n').at(-1)!;
  expect(path.startsWith(join(backups, 'trove-'))).toBe(true);
  // A second backup links the unchanged blobs against the first.
  const again = await run('backup.mjs', [], env);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/\(([1-9]\d*) linked to the previous backup\)/);
  await first!.stop();
  first = undefined;

  const restored = join(work.path, 'restored');
  const done = await run('restore.mjs', [path], { TROVE_DATA_DIR: restored });
  expect(done).toMatchObject({ code: 0, stderr: '' });
  const refused = await run('restore.mjs', [path], { TROVE_DATA_DIR: restored });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/is not empty/);

  // A new stack on the restored data; an item caught PROCESSING is queued again at once (after 10 s, not the default 30 minutes).
  second = await startStack({
    services: SERVICES,
    env: { TROVE_DATA_DIR: restored },
    serviceEnv: {
      media: { TROVE_PROCESSING_STUCK_AFTER_SECONDS: '10', TROVE_PROCESSING_CHECK_INTERVAL_SECONDS: '1' },
    },
  });
  const tokens = await ok(login(second.gatewayUrl, user.username, user.password), 200);
  const api = createApi(second.gatewayUrl, { bearer: tokens.accessToken });
  const after = await library(api);
  const known = new Set([a.id, b.id, c.id]);
  expect(after.items.filter((i) => known.has(i.id)).map(facts)).toEqual(before.items.map(facts));
  expect(after.albums).toEqual(before.albums);
  for (const [id, bytes] of originals) expect((await content(api, id, 'original')).bytes.equals(bytes)).toBe(true);
  // The half-processed item is there and processed again; the in-flight upload is absent, or there and READY too.
  expect(after.items.map((i) => i.id)).toContain(pending.id);
  for (const extra of after.items.filter((i) => !known.has(i.id))) {
    expect(await settled(api, extra.id, 60_000)).toMatchObject({ status: 'READY' });
    expect((await content(api, extra.id, 'original')).status).toBe(200);
  }
  await waitFor(async () => (await library(api)).items.every((i) => i.status === 'READY') || undefined, {
    timeoutMs: 60_000,
    what: 'every restored item READY',
  });
}, 240_000);
