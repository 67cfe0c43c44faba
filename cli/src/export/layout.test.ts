import { Names, monthFolder, parseSidecar, plan, safeName, sidecarOf, sidecarText } from './layout';
import type { ItemFacts, OnDisk } from './layout';

const item: ItemFacts = {
  id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c',
  filename: 'IMG_0001.JPG',
  mimeType: 'image/jpeg',
  size: 1234,
  updatedAt: '2024-06-24T19:02:55.000Z',
  creationTime: '2019-07-14T14:30:00.000Z',
  latitude: 52.37,
  longitude: 4.89,
  description: 'Sunset',
  favourite: true,
  hidden: false,
};
const SHA = 'a'.repeat(64);

describe('export layout', () => {
  it('files an item under the UTC year and month it was taken', () => {
    expect(monthFolder('2019-07-14T14:30:00.000Z')).toBe('2019/07');
    // 23:30 at −02:00 is already August in UTC.
    expect(monthFolder('2019-07-31T23:30:00-02:00')).toBe('2019/08');
    expect(monthFolder('not a date')).toBe('unknown-date');
  });

  it('makes uploaded names safe on any disk, never a folder, a hidden file or a sidecar', () => {
    expect(safeName('IMG_0001.JPG', 'id')).toBe('IMG_0001.JPG');
    expect(safeName('../../etc/passwd', 'id')).toBe('passwd');
    expect(safeName('C:\\Users\\me\\a.jpg', 'id')).toBe('a.jpg');
    expect(safeName('..', 'id')).toBe('id');
    expect(safeName('.hidden.jpg', 'id')).toBe('hidden.jpg');
    expect(safeName('a:b*c?.jpg', 'id')).toBe('a_b_c_.jpg');
    expect(safeName('line\nbreak.jpg', 'id')).toBe('line_break.jpg');
    expect(safeName('x.jpg.trove.json', 'id')).toBe('x.jpg.trove.json_');
    expect(safeName('trailing. ', 'id')).toBe('trailing');
    const long = safeName(`${'é'.repeat(300)}.jpeg`, 'id');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('gives each file a name of its own in its folder, whatever the case, leaving paths already on disk alone', () => {
    const names = new Names();
    names.take('2019/07/IMG_1.jpg');
    names.take('2019/07/IMG_1.jpg.trove.json');
    names.take('2019/07/notes (2).jpg.trove.json');
    expect(names.claim('2019/07', 'img_1.JPG')).toBe('2019/07/img_1 (2).JPG');
    expect(names.claim('2019/07', 'IMG_1.jpg')).toBe('2019/07/IMG_1 (3).jpg');
    expect(names.claim('2019/08', 'IMG_1.jpg')).toBe('2019/08/IMG_1.jpg');
    // A free file name whose sidecar name is taken is not free.
    expect(names.claim('2019/07', 'notes.jpg')).toBe('2019/07/notes.jpg');
    expect(names.claim('2019/07', 'notes.jpg')).toBe('2019/07/notes (3).jpg');
    expect(names.claim('2019/07', 'noext')).toBe('2019/07/noext');
    expect(names.claim('2019/07', 'noext')).toBe('2019/07/noext (2)');
  });

  it('writes a sidecar with everything the file may not hold, in a stable shape that reads back', () => {
    const sidecar = sidecarOf(item, SHA, { albums: ['Trips', 'Best'], people: ['Ann', 'Bo', 'Ann'] });
    expect(sidecar).toEqual({
      format: 'trove-sidecar',
      version: 1,
      id: item.id,
      filename: 'IMG_0001.JPG',
      mimeType: 'image/jpeg',
      size: 1234,
      sha256: SHA,
      updatedAt: item.updatedAt,
      creationTime: '2019-07-14T14:30:00.000Z',
      position: { latitude: 52.37, longitude: 4.89 },
      description: 'Sunset',
      favourite: true,
      hidden: false,
      albums: ['Best', 'Trips'],
      people: ['Ann', 'Bo'],
    });
    expect(
      sidecarOf({ ...item, latitude: null, longitude: null, description: '' }, SHA, { albums: [], people: [] }),
    ).toMatchObject({ position: null, description: null });
    const live = sidecarOf(item, SHA, { albums: [], people: [], livePhoto: { motion: 'IMG_0001.MOV' } });
    expect(live.livePhoto).toEqual({ motion: 'IMG_0001.MOV' });
    const text = sidecarText(sidecar);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseSidecar(text)).toEqual(sidecar);
    expect(parseSidecar('{"format":"other"}')).toBeUndefined();
    expect(parseSidecar('not json')).toBeUndefined();
  });

  describe('a re-run', () => {
    const wanted = (sha: string) => sidecarText(sidecarOf(item, sha, { albums: [], people: [] }));
    const onDisk = (over: Partial<OnDisk> = {}): OnDisk => ({
      rel: '2019/07/IMG_0001.JPG',
      sidecar: sidecarOf(item, SHA, { albums: [], people: [] }),
      sidecarText: wanted(SHA),
      fileSize: item.size,
      ...over,
    });

    it('leaves an item whose file and sidecar are as they should be', () => {
      expect(plan(item, onDisk(), wanted)).toBe('unchanged');
    });

    it('rewrites only the sidecar when what Trove knows changed (the original of an id never changes)', () => {
      const before = sidecarText(sidecarOf({ ...item, favourite: false }, SHA, { albums: [], people: [] }));
      expect(plan(item, onDisk({ sidecarText: before }), wanted)).toBe('sidecar');
    });

    it('downloads again when the file is new, missing (killed before its rename) or of another size', () => {
      expect(plan(item, undefined, wanted)).toBe('download');
      expect(plan(item, onDisk({ fileSize: undefined }), wanted)).toBe('download');
      expect(plan(item, onDisk({ fileSize: 17 }), wanted)).toBe('download');
      expect(plan({ ...item, id: 'other' }, onDisk(), wanted)).toBe('download');
    });
  });
});
