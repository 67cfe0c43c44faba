import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { walk } from './walk';

describe('walk', () => {
  let root: string;
  const put = async (rel: string, bytes = 3) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), Buffer.alloc(bytes, 1));
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'trove-walk-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('takes photos and videos of every folder, sorted, and counts hidden and unsupported entries', async () => {
    await put('2019/Summer/IMG_0001.JPG', 10);
    await put('2019/Summer/IMG_0002.heic');
    await put('2019/Summer/clip.MOV');
    await put('2019/Summer/notes.txt');
    await put('2019/Summer/.DS_Store');
    await put('2019/.thumbnails/IMG_0001.jpg');
    await put('2019/.thumbnails/IMG_0002.jpg');
    await put('raw/DSC_1.NEF');
    await put('raw/DSC_1.xmp');
    await put('scan.jpeg');
    await put('scan.tiff');
    await put('Thumbs.db');

    const found = await walk([root]);

    expect(found.files.map((f) => path.relative(root, f.path))).toEqual([
      '2019/Summer/IMG_0001.JPG',
      '2019/Summer/IMG_0002.heic',
      '2019/Summer/clip.MOV',
      'raw/DSC_1.NEF',
      'scan.jpeg',
      'scan.tiff',
    ]);
    // .DS_Store and the .thumbnails folder (once, whatever it holds).
    expect(found.hidden).toBe(2);
    expect(found.unsupported).toBe(3);
    expect(found.files[0]).toEqual({
      path: path.join(root, '2019/Summer/IMG_0001.JPG'),
      size: 10,
      folder: path.join(root, '2019/Summer'),
    });
  });

  it('takes a file named on the command line, hidden or not, and each file once across overlapping arguments', async () => {
    await put('a/one.png');
    await put('a/.hidden.png');
    const found = await walk([path.join(root, 'a'), path.join(root, 'a/one.png'), path.join(root, 'a/.hidden.png')]);
    expect(found.files.map((f) => path.basename(f.path))).toEqual(['one.png', '.hidden.png']);
    expect(found.hidden).toBe(1);
  });

  it('follows links to files but not to folders (no cycles)', async () => {
    await put('real/p.gif');
    await symlink(path.join(root, 'real/p.gif'), path.join(root, 'real/link.gif'));
    await symlink(root, path.join(root, 'real/loop'));
    const found = await walk([path.join(root, 'real')]);
    // The link and its target are one file: sent once.
    expect(found.files.map((f) => path.basename(f.path))).toEqual(['link.gif']);
    expect(found.hidden).toBe(1);
  });

  it('says which argument does not exist', async () => {
    await expect(walk([path.join(root, 'nope')])).rejects.toThrow(`no such file or folder: ${path.join(root, 'nope')}`);
  });
});
