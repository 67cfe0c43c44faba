/**
 * `trove import takeout` end to end: the built CLI against a real stack with a worker (the sidecar's date and
 * position fill in what the files lack, which the server knows once it has read them). A two-part Takeout zip:
 * sidecars (also cut-short and `(1)` names) give descriptions, favourites, archived → hidden, trashed → left out,
 * the date of a file without one and the position of a file without one; an album folder makes its album,
 * "Photos from 2019" none. The same export as two `.tgz` parts (a sidecar moved to the other part) gives the same
 * library; a `.tgz` part cut short is named and nothing is sent.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegAt, noisePng } from '@trove/kit/testing/media';
import { pack } from 'tar-stream';
import { ZipFile } from 'yazl';
import { newUser, ok } from '../support/api';
import type { TestUser } from '../support/api';
import { albumCounts, allItems, apiKeyOf, lastLine, trove } from './cli';

describe('trove import takeout (e2e)', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    [stack, dir] = await Promise.all([
      startStack({ services: ['auth', 'media', 'library', 'worker', 'gateway'] }),
      mkdtemp(path.join(tmpdir(), 'trove-takeout-e2e-')),
    ]);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const year = 'Takeout/Google Photos/Photos from 2019';
  const album = 'Takeout/Google Photos/Rome trip';
  const long = 'a_very_long_file_name_that_google_cut_in_the_middle_of_it.jpg';
  const json = (o: unknown) => Buffer.from(JSON.stringify(o));
  const taken = { photoTakenTime: { timestamp: '1562000000' } };

  /** The export's two parts: the year folder, then the album folder. */
  async function exportParts(): Promise<Array<Record<string, Buffer>>> {
    const beach = await jpegAt(43.7, 7.25);
    return [
      {
        [`${year}/IMG_1.jpg`]: beach,
        [`${year}/IMG_1.jpg.json`]: json({ title: 'IMG_1.jpg', description: 'Beach', favorited: true, ...taken }),
        [`${year}/Screenshot.png`]: await noisePng(),
        // A PNG has no date or position of its own: the sidecar's fill them in.
        [`${year}/Screenshot.png.supplemental-metadata.json`]: json({
          title: 'Screenshot.png',
          archived: true,
          ...taken,
          geoData: { latitude: 41.9, longitude: 12.5, altitude: 0 },
        }),
        [`${year}/IMG_2.jpg`]: await jpegAt(1, 1),
        [`${year}/IMG_2.jpg.json`]: json({ title: 'IMG_2.jpg', trashed: true }),
        [`${year}/IMG_3(1).jpg`]: await jpegAt(2, 2),
        [`${year}/IMG_3.jpg(1).json`]: json({ title: 'IMG_3.jpg', description: 'the copy' }),
        [`${year}/${long}`]: await jpegAt(3, 3),
        [`${year}/a_very_long_file_name_that_google_cut_in_the_m.json`]: json({ description: 'long' }),
      },
      {
        [`${album}/metadata.json`]: json({ title: 'Rome, spring 2019' }),
        [`${album}/IMG_1.jpg`]: beach,
        [`${album}/IMG_1.jpg.json`]: json({ title: 'IMG_1.jpg', description: 'Beach', favorited: true }),
        [`${album}/IMG_4.jpg`]: await jpegAt(41.9, 12.5),
        'Takeout/archive_browser.html': Buffer.from('<html></html>'),
      },
    ];
  }

  /** Imports the parts twice as `user`, and checks what the library holds after each run (and what it says). */
  async function importsOnce(user: TestUser, files: string[], stderr = ''): Promise<void> {
    const env = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(user) };
    const first = await trove(['import', 'takeout', ...files], env).done;
    expect({ code: first.code, last: lastLine(first.stdout), stderr: first.stderr }).toEqual({
      code: 0,
      // IMG_1.jpg is in the album folder too: the same content, sent once.
      last: '5 uploaded, 1 skipped, 0 failed',
      stderr,
    });
    expect(first.stdout).toContain('left out: 1 in the trash, 1 not photos or videos');
    const visible = await allItems(user.api);
    const hidden = await ok(user.api.GET('/v1/hidden', { params: { query: { limit: 100 } } }), 200);
    const byName = Object.fromEntries([...visible, ...hidden].map((i) => [i.filename, i]));
    expect(Object.keys(byName).sort()).toEqual(['IMG_1.jpg', 'IMG_3(1).jpg', 'IMG_4.jpg', 'Screenshot.png', long]);
    expect(byName['IMG_1.jpg']).toMatchObject({ description: 'Beach', favourite: true, hidden: false });
    expect(byName['Screenshot.png']).toMatchObject({ hidden: true, favourite: false, latitude: 41.9, longitude: 12.5 });
    expect(Date.parse(byName['Screenshot.png']!.creationTime)).toBe(1562000000 * 1000);
    // IMG_1.jpg has a camera date and position of its own: its sidecar's date (2019) does not replace them.
    expect(byName['IMG_1.jpg']).toMatchObject({ creationTime: '2024-06-01T12:00:00+02:00', latitude: 43.7 });
    expect(byName['IMG_3(1).jpg']).toMatchObject({ description: 'the copy' });
    expect(byName[long]).toMatchObject({ description: 'long' });
    expect(byName['IMG_4.jpg']).toMatchObject({ description: null, favourite: false, hidden: false });
    expect(await albumCounts(user.api)).toEqual({ 'Rome, spring 2019': 2 });

    const again = await trove(['import', 'takeout', ...files], env).done;
    expect({ code: again.code, last: lastLine(again.stdout) }).toEqual({
      code: 0,
      last: '0 uploaded, 6 skipped, 0 failed',
    });
    expect((await allItems(user.api)).length + (await ok(user.api.GET('/v1/hidden'), 200)).length).toBe(5);
    expect(await albumCounts(user.api)).toEqual({ 'Rome, spring 2019': 2 });
  }

  it('imports a Takeout zip in two parts with what its sidecars say, once', async () => {
    const zips = await Promise.all(
      (await exportParts()).map(async (files, i) => {
        const zip = new ZipFile();
        for (const [name, data] of Object.entries(files)) zip.addBuffer(data, name);
        zip.end();
        const chunks: Buffer[] = [];
        for await (const piece of zip.outputStream) chunks.push(piece as Buffer);
        const file = path.join(dir, `takeout-2024-00${i + 1}.zip`);
        await writeFile(file, Buffer.concat(chunks));
        return file;
      }),
    );
    await importsOnce(await newUser(stack), zips);
  }, 180_000);

  it('imports the same export as .tgz parts alike, a sidecar in another part than its photo', async () => {
    const [one, two] = await exportParts();
    // Screenshot.png's sidecar moves to the second part.
    const moved = `${year}/Screenshot.png.supplemental-metadata.json`;
    two[moved] = one[moved]!;
    delete one[moved];
    const tgzs = await Promise.all(
      [one, two].map(async (files, i) => {
        const archive = pack();
        for (const [name, data] of Object.entries(files)) archive.entry({ name }, data);
        archive.finalize();
        const file = path.join(dir, `takeout-2024-00${i + 1}.tgz`);
        await pipeline(archive, createGzip(), createWriteStream(file));
        return file;
      }),
    );
    const user = await newUser(stack);
    await importsOnce(
      user,
      tgzs,
      'reading the .tgz parts through once (listing and hashing their files) before sending\n',
    );

    // A part cut short (a download that stopped): named, nothing sent, exit 2.
    const whole = await readFile(tgzs[1]!);
    const cut = path.join(dir, 'takeout-2024-003.tgz');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const env = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(user) };
    const broken = await trove(['import', 'takeout', tgzs[0]!, cut], env).done;
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${cut}: cannot read this .tgz`);
    expect((await allItems(user.api)).length + (await ok(user.api.GET('/v1/hidden'), 200)).length).toBe(5);
  }, 180_000);
});
