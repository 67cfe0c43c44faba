/**
 * `trove export` and `trove import` end to end: the built CLI against a real stack (nats-server, auth, media, library,
 * explore and the gateway as their own processes), signed in with API keys.
 *
 * User A uploads five photos, favourites one, describes one, sets the date of one, hides one, trashes one and makes an
 * album; `trove export` writes the four others (originals byte for byte, each with its sidecar) and the album manifest;
 * run again, nothing is fetched. `trove import` of that folder into user B brings back the items, the favourite, the
 * description, the date, the hidden flag and the album; run again, nothing is sent or changed twice.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegAt } from '@trove/kit/testing/media';
import { newUser, ok, upload } from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';
import { allItems, apiKeyOf, lastLine, trove } from './cli';

/** Every item of the user but the trashed: the visible and the hidden ones. */
async function library(api: Api): Promise<MediaItem[]> {
  const hidden = await ok(api.GET('/v1/hidden', { params: { query: { limit: 100 } } }), 200);
  return [...(await allItems(api)), ...hidden];
}

/** The files under `dir`, relative, `/` separated. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('trove export / trove import (e2e)', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    [stack, dir] = await Promise.all([
      startStack({ services: ['auth', 'media', 'library', 'explore', 'gateway'] }),
      mkdtemp(path.join(tmpdir(), 'trove-export-e2e-')),
    ]);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports a library with its sidecars and albums, re-runs without fetching, and imports it into another account', async () => {
    const a: TestUser = await newUser(stack);
    const b: TestUser = await newUser(stack);
    const photos = await Promise.all([1, 2, 3, 4, 5].map((i) => jpegAt(40 + i, 5 + i)));
    const ids: string[] = [];
    for (const [i, photo] of photos.entries()) {
      ids.push((await ok(upload(a.api, photo, `IMG_${i + 1}.jpg`), 201)).id);
    }
    const put = (id: string, body: Record<string, unknown>) =>
      ok(a.api.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body }), 204);
    await put(ids[0], { favourite: true });
    await put(ids[1], { description: 'Grandma at the lake' });
    await put(ids[2], { creationTime: '2015-05-06T07:08:09Z' });
    await put(ids[3], { hidden: true });
    await ok(a.api.DELETE('/v1/mediaItems/{id}', { params: { path: { id: ids[4] } } }), 204);
    const album = await ok(
      a.api.POST('/v1/albums', { body: { name: 'Lake 2015', description: 'The summer at the lake' } }),
      201,
    );
    await ok(
      a.api.POST('/v1/albums/{id}/mediaItems', {
        params: { path: { id: album.id } },
        body: { mediaItems: [ids[2], ids[1]] },
      }),
      204,
    );

    // Export: four items (the trashed one left out, and said so), each original byte for byte beside its sidecar.
    const out = path.join(dir, 'export');
    const envA = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(a) };
    const first = await trove(['export', out], envA).done;
    expect({ code: first.code, last: lastLine(first.stdout), stderr: first.stderr }).toEqual({
      code: 0,
      last: '4 exported, 0 unchanged, 0 failed',
      stderr: '1 items in the trash were not exported (restore them first to export them)\n',
    });
    const files = await filesUnder(out);
    expect(files.filter((f) => f.endsWith('.trove.json'))).toHaveLength(4);
    expect(files).toContain('2015/05/IMG_3.jpg');
    expect(files).toContain('albums.json');
    expect(files).toContain('trove-export.json');
    expect(files.filter((f) => f.includes('IMG_5'))).toEqual([]);
    const sidecars = new Map<string, Record<string, unknown>>();
    for (const f of files.filter((f) => f.endsWith('.trove.json'))) {
      const sidecar = JSON.parse(await readFile(path.join(out, f), 'utf8')) as Record<string, unknown>;
      const original = f.slice(0, -'.trove.json'.length);
      const i = ids.indexOf(sidecar.id as string);
      expect(Buffer.compare(await readFile(path.join(out, original)), photos[i])).toBe(0);
      sidecars.set(sidecar.id as string, sidecar);
    }
    expect(sidecars.get(ids[0])).toMatchObject({ favourite: true, hidden: false, albums: [] });
    expect(sidecars.get(ids[1])).toMatchObject({ description: 'Grandma at the lake', albums: ['Lake 2015'] });
    expect(Date.parse(sidecars.get(ids[2])!.creationTime as string)).toBe(Date.parse('2015-05-06T07:08:09Z'));
    expect(sidecars.get(ids[3])).toMatchObject({ hidden: true });
    const albums = JSON.parse(await readFile(path.join(out, 'albums.json'), 'utf8')) as unknown;
    expect(albums).toEqual([
      expect.objectContaining({
        name: 'Lake 2015',
        description: 'The summer at the lake',
        items: ['2015/05/IMG_3.jpg', expect.stringMatching(/\/IMG_2\.jpg$/)],
      }),
    ]);
    expect(JSON.parse(await readFile(path.join(out, 'trove-export.json'), 'utf8'))).toMatchObject({
      format: 'trove-export',
      version: 1,
      user: { id: a.id, username: a.username },
      items: 4,
    });

    // Again: nothing fetched or written.
    const second = await trove(['export', out, '--json'], envA).done;
    expect(second.code).toBe(0);
    expect(JSON.parse(lastLine(second.stdout))).toEqual({ event: 'summary', exported: 0, unchanged: 4, failed: 0 });

    // Import into B: the items with their favourite, description, date and hidden flag, and the album.
    const envB = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(b) };
    const imported = await trove(['import', out], envB).done;
    expect({ code: imported.code, last: lastLine(imported.stdout), stderr: imported.stderr }).toEqual({
      code: 0,
      last: '4 uploaded, 0 skipped, 0 failed',
      stderr: '',
    });
    const items = await library(b.api);
    expect(items).toHaveLength(4);
    const byName = new Map(items.map((i) => [i.filename, i]));
    expect(byName.get('IMG_1.jpg')).toMatchObject({ favourite: true, hidden: false });
    expect(byName.get('IMG_2.jpg')).toMatchObject({ description: 'Grandma at the lake', favourite: false });
    expect(Date.parse(byName.get('IMG_3.jpg')!.creationTime)).toBe(Date.parse('2015-05-06T07:08:09Z'));
    expect(byName.get('IMG_4.jpg')).toMatchObject({ hidden: true });
    const bAlbums = await ok(b.api.GET('/v1/albums', { params: { query: { limit: 100 } } }), 200);
    expect(bAlbums.map((x) => [x.name, x.description, x.mediaItemsCount])).toEqual([
      ['Lake 2015', 'The summer at the lake', 2],
    ]);
    const inAlbum = await ok(b.api.GET('/v1/albums/{id}/mediaItems', { params: { path: { id: bAlbums[0].id } } }), 200);
    expect(inAlbum.map((i) => i.filename)).toEqual(['IMG_3.jpg', 'IMG_2.jpg']);

    // Again: nothing sent, nothing changed.
    const again = await trove(['import', out], envB).done;
    expect({ code: again.code, last: lastLine(again.stdout) }).toEqual({
      code: 0,
      last: '0 uploaded, 4 skipped, 0 failed',
    });
    const after = await library(b.api);
    expect(after.map((i) => [i.id, i.updatedAt]).sort()).toEqual(items.map((i) => [i.id, i.updatedAt]).sort());
    const albumsAfter = await ok(b.api.GET('/v1/albums', { params: { query: { limit: 100 } } }), 200);
    expect(albumsAfter.map((x) => [x.name, x.mediaItemsCount])).toEqual([['Lake 2015', 2]]);
  }, 90_000);
});
