import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256File, sha256Of } from './hash';

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('sha256File', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trove-hash-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('hashes files of every size around its read size, many at once, as one pass over their bytes would', async () => {
    const sizes = [0, 1, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 + 17];
    const files = await Promise.all(
      sizes.map(async (size, i) => {
        // Different bytes in every file, so that a read buffer shared by two hashes would show.
        const data = Buffer.alloc(size);
        for (let at = 0; at < size; at++) data[at] = (at * 31 + i * 7) & 0xff;
        const file = path.join(dir, `f${i}`);
        await writeFile(file, data);
        return { file, data };
      }),
    );
    for (let round = 0; round < 3; round++) {
      const got = await Promise.all(files.map((f) => sha256File(f.file)));
      expect(got).toEqual(files.map((f) => digest(f.data)));
    }
    expect(await sha256Of(createReadStream(files[5].file))).toBe(digest(files[5].data));
  });

  it('fails for a file that is not there', async () => {
    await expect(sha256File(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
