import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempDir } from '../testing/temp';
import type { TempDir } from '../testing/temp';
import { GatheredFileWriter } from './gathered-file';
import { ByteMeter } from './meter';
import { BlobTooLargeError } from './port';

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir('trove-gathered-');
});
afterEach(async () => {
  await dir.remove();
});

const chunksOf = (data: Buffer, size: number) =>
  Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));

describe('GatheredFileWriter', () => {
  it.each([
    ['socket-sized chunks', 64 * 1024, 256 * 1024],
    ['more small chunks than one writev may take', 7, 64 * 1024],
    ['chunks larger than a write', 300 * 1024, 256 * 1024],
  ])('writes every byte in order: %s', async (_name, chunkSize, gatherBytes) => {
    const data = randomBytes(1_700_003);
    const path = join(dir.path, 'file');
    await pipeline(
      Readable.from(chunksOf(data, chunkSize), { objectMode: false }),
      new GatheredFileWriter(path, gatherBytes),
    );
    expect((await readFile(path)).equals(data)).toBe(true);
  });

  it('makes an empty file of an empty stream', async () => {
    const path = join(dir.path, 'empty');
    await pipeline(Readable.from([]), new GatheredFileWriter(path));
    expect((await readFile(path)).length).toBe(0);
  });

  it('never writes over an existing file', async () => {
    const path = join(dir.path, 'taken');
    await writeFile(path, 'kept');
    await expect(pipeline(Readable.from([Buffer.from('new')]), new GatheredFileWriter(path))).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await readFile(path, 'utf8')).toBe('kept');
  });

  it('counts and hashes what it writes with a meter', async () => {
    const data = randomBytes(700_001);
    const meter = new ByteMeter(data.length);
    await pipeline(
      Readable.from(chunksOf(data, 65_536)),
      new GatheredFileWriter(join(dir.path, 'metered'), 256 * 1024, meter),
    );
    expect(meter.result()).toEqual({ size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
  });

  it('fails once the meter’s limit is passed, before writing what passed it', async () => {
    const data = randomBytes(600_000);
    const path = join(dir.path, 'too-large');
    const meter = new ByteMeter(500_000);
    await expect(
      pipeline(Readable.from(chunksOf(data, 65_536)), new GatheredFileWriter(path, 64 * 1024, meter)),
    ).rejects.toBeInstanceOf(BlobTooLargeError);
    // What was written stops short of the limit: the piece that passed it never went to the file.
    expect((await readFile(path)).length).toBeLessThanOrEqual(500_000);
    expect(() => meter.result()).toThrow('body not fully read');
  });
});
