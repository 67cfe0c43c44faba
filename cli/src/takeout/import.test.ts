import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fillIn, planTakeout, updateOf } from './import';
import { openTakeout } from './source';

describe('a Takeout folder, planned', () => {
  let root: string;
  const put = async (rel: string, data: string | object) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), typeof data === 'string' ? data : JSON.stringify(data));
  };
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'trove-takeout-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('gives each photo its folder’s album and its sidecar’s metadata, and leaves out the trashed', async () => {
    const gp = 'Takeout/Google Photos';
    await put(`${gp}/Photos from 2020/A.jpg`, 'a');
    await put(`${gp}/Photos from 2020/A.jpg.json`, { description: 'Alps', favorited: true });
    await put(`${gp}/Photos from 2020/B.mp4`, 'b');
    await put(`${gp}/Photos from 2020/B.mp4.supplemental-metadata.json`, { trashed: true });
    await put(`${gp}/Photos from 2020/C-edited.jpg`, 'c2');
    await put(`${gp}/Photos from 2020/C.jpg`, 'c');
    await put(`${gp}/Photos from 2020/C.jpg.json`, { archived: true });
    await put(`${gp}/Skiing/metadata.json`, { title: 'Skiing 2020' });
    await put(`${gp}/Skiing/A.jpg`, 'a');
    await put(`${gp}/Skiing/.DS_Store`, 'x');
    await put('Takeout/archive_browser.html', '<html/>');

    const applied: Array<[string, unknown]> = [];
    const takeout = await openTakeout([root]);
    const plan = await planTakeout(takeout.entries, async (id, update) => void applied.push([id, update]));
    await takeout.close();

    expect(plan.trashed).toBe(1);
    expect(plan.other).toBe(1);
    expect(plan.items.map((i) => [i.key, i.albums, Boolean(i.after)])).toEqual([
      [`${gp}/Photos from 2020/A.jpg`, [], true],
      [`${gp}/Photos from 2020/C-edited.jpg`, [], true],
      [`${gp}/Photos from 2020/C.jpg`, [], true],
      [`${gp}/Skiing/A.jpg`, ['Skiing 2020'], false],
    ]);
    await plan.items[0].after!('id-a');
    await plan.items[1].after!('id-c2');
    expect(applied).toEqual([
      ['id-a', { description: 'Alps', favourite: true }],
      ['id-c2', { hidden: true }],
    ]);
  });

  it('fills in the date and position a processed file lacks, and nothing it has', () => {
    const sidecar = {
      takenAt: '2019-07-01T16:53:20.000Z',
      latitude: 43.7,
      longitude: 7.25,
      favourite: false,
      archived: false,
      trashed: false,
    };
    // No date of its own: the server dated it by the stored upload (between its upload and its processing).
    const undated = {
      creationTime: '2026-11-27T10:00:05Z',
      createdAt: '2026-11-27T10:00:00Z',
      updatedAt: '2026-11-27T10:00:09Z',
      latitude: null,
    };
    expect(fillIn(sidecar, undated)).toEqual({ creationTime: sidecar.takenAt, latitude: 43.7, longitude: 7.25 });
    // A camera date and position of its own: kept.
    expect(fillIn(sidecar, { ...undated, creationTime: '2024-06-01T12:00:00+02:00', latitude: 48.85 })).toBeNull();
    // Run again after the fill-in: the date is the sidecar's now, the position set; nothing more to send.
    expect(fillIn(sidecar, { ...undated, creationTime: sidecar.takenAt, latitude: 43.7 })).toBeNull();
    // A sidecar without them fills nothing in.
    expect(fillIn({ favourite: true, archived: false, trashed: false }, undated)).toBeNull();
  });

  it('sends only what a sidecar sets', () => {
    expect(updateOf({ favourite: false, archived: false, trashed: false })).toBeNull();
    expect(updateOf({ favourite: false, archived: true, trashed: false, description: 'x' })).toEqual({
      description: 'x',
      hidden: true,
    });
  });

  it('refuses what is not a zip, a tgz or a folder', async () => {
    await put('export.7z', 'x');
    await expect(openTakeout([path.join(root, 'export.7z')])).rejects.toThrow('not a Takeout .zip, .tgz or folder');
    await expect(openTakeout([path.join(root, 'none.zip')])).rejects.toThrow('no such file or folder');
  });
});
