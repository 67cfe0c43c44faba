import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { ZipFile } from 'yazl';
import { planTakeout } from './import';
import { openTakeout } from './source';

/** A .tgz of the files, in the order given, built with tar-stream (folders get their own entries, as tar writes). */
async function tgz(files: Record<string, string | Buffer | object>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const piece of archive) chunks.push(piece as Buffer);
  })();
  const folders = new Set<string>();
  for (const [name, data] of Object.entries(files)) {
    const folder = path.posix.dirname(name);
    if (!folders.has(folder)) {
      folders.add(folder);
      archive.entry({ name: folder + '/', type: 'directory' });
    }
    archive.entry({ name }, typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data));
  }
  archive.finalize();
  await collected;
  return gzipSync(Buffer.concat(chunks));
}

const text = async (stream: AsyncIterable<unknown>): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const piece of stream) chunks.push(piece as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('Takeout .tgz parts', () => {
  let root: string;
  const gp = 'Takeout/Google Photos';
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'trove-tgz-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('reads several parts, a sidecar in another part than its photo, with zip parts and folders', async () => {
    const big = 'x'.repeat(300_000);
    await writeFile(
      path.join(root, 'takeout-001.tgz'),
      await tgz({
        [`${gp}/Photos from 2020/B.jpg`]: 'b',
        [`${gp}/Photos from 2020/A.jpg`]: big,
        [`${gp}/Photos from 2020/A.jpg.json`]: { description: 'Alps', favorited: true },
        [`${gp}/Photos from 2020/C.png`]: 'c',
        'Takeout/archive_browser.html': '<html/>',
      }),
    );
    await writeFile(
      path.join(root, 'takeout-002.tar.gz'),
      await tgz({
        // C.png's sidecar, and B.jpg's, in another part than their photos.
        [`${gp}/Photos from 2020/C.png.supplemental-metadata.json`]: { archived: true },
        [`${gp}/Photos from 2020/B.jpg.json`]: { trashed: true },
        [`${gp}/Skiing/metadata.json`]: { title: 'Skiing 2020' },
        [`${gp}/Skiing/D.jpg`]: 'd',
      }),
    );
    // A zip part with E.jpg, whose sidecar is in an extracted folder.
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from('e'), `${gp}/Photos from 2021/E.jpg`);
    zip.end();
    const zipped: Buffer[] = [];
    for await (const piece of zip.outputStream) zipped.push(piece as Buffer);
    await writeFile(path.join(root, 'takeout-003.zip'), Buffer.concat(zipped));
    const folder = path.join(root, 'extracted');
    await mkdir(path.join(folder, gp, 'Photos from 2021'), { recursive: true });
    await writeFile(path.join(folder, gp, 'Photos from 2021/E.jpg.json'), JSON.stringify({ description: 'zip' }));

    const takeout = await openTakeout([
      path.join(root, 'takeout-001.tgz'),
      path.join(root, 'takeout-002.tar.gz'),
      path.join(root, 'takeout-003.zip'),
      folder,
    ]);
    try {
      const applied: Array<[string, unknown]> = [];
      const plan = await planTakeout(takeout.entries, async (id, update) => void applied.push([id, update]));
      expect(plan.trashed).toBe(1);
      expect(plan.other).toBe(1);
      // The zip's first, then each tar part's in archive order (the order they can be read in).
      expect(plan.items.map((i) => [i.key, i.albums, i.sha256 === undefined, Boolean(i.after)])).toEqual([
        [`${gp}/Photos from 2021/E.jpg`, [], true, true],
        [`${gp}/Photos from 2020/A.jpg`, [], false, true],
        [`${gp}/Photos from 2020/C.png`, [], false, true],
        [`${gp}/Skiing/D.jpg`, ['Skiing 2020'], false, false],
      ]);
      expect(plan.items[1].sha256).toBe(sha(big));
      for (const [i, id] of [0, 1, 2].map((n) => [n, `id-${n}`] as const)) await plan.items[i].after!(id);
      expect(applied).toEqual([
        ['id-0', { description: 'zip' }],
        ['id-1', { description: 'Alps', favourite: true }],
        ['id-2', { hidden: true }],
      ]);

      // Opened in archive order, at once (as the upload's lanes do): each as it passes.
      const [a, c, d] = await Promise.all([plan.items[1], plan.items[2], plan.items[3]].map((i) => i.source.open()));
      expect(await text(a)).toBe(big);
      expect(await text(c)).toBe('c');
      expect(await text(d)).toBe('d');
      // Dropped half-way, then asked again (an upload tried again): read from the start again.
      const first = await plan.items[1].source.open();
      first.destroy();
      expect(await text(await plan.items[2].source.open())).toBe('c');
      expect(await text(await plan.items[1].source.open())).toBe(big);
      expect(await text(await plan.items[0].source.open())).toBe('e');
    } finally {
      await takeout.close();
    }
  });

  it('names a damaged or truncated part, and refuses what is not a Takeout', async () => {
    const whole = await tgz({ [`${gp}/Photos from 2020/A.jpg`]: 'a'.repeat(200_000), [`${gp}/x.json`]: {} });
    const cut = path.join(root, 'takeout-002.tgz');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(openTakeout([cut])).rejects.toThrow(`${cut}: cannot read this .tgz`);
    const garbage = path.join(root, 'takeout-003.tgz');
    await writeFile(garbage, 'not a gzip at all');
    await expect(openTakeout([garbage])).rejects.toThrow(`${garbage}: cannot read this .tgz`);
    // A whole gzip whose tar is cut short.
    const tarCut = path.join(root, 'takeout-004.tgz');
    const { gunzipSync } = await import('node:zlib');
    await writeFile(tarCut, gzipSync(gunzipSync(whole).subarray(0, 1024 + 100)));
    await expect(openTakeout([tarCut])).rejects.toThrow(`${tarCut}: cannot read this .tgz`);
    await writeFile(path.join(root, 'export.rar'), 'x');
    await expect(openTakeout([path.join(root, 'export.rar')])).rejects.toThrow('not a Takeout .zip, .tgz or folder');
  });

  it('fails an open whose entry changed since the listing, naming the part', async () => {
    const file = path.join(root, 'takeout-001.tgz');
    await writeFile(file, await tgz({ [`${gp}/A.jpg`]: 'a', [`${gp}/B.jpg`]: 'b' }));
    const takeout = await openTakeout([file]);
    try {
      await writeFile(file, await tgz({ [`${gp}/A.jpg`]: 'a' }));
      const b = takeout.entries.find((e) => e.path.endsWith('B.jpg'))!;
      await expect(b.open()).rejects.toThrow(file);
      const a = takeout.entries.find((e) => e.path.endsWith('A.jpg'))!;
      expect(await text(await a.open())).toBe('a');
    } finally {
      await takeout.close();
    }
  });
});
