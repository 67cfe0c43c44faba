import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileBytes, FileChangedError } from './file-bytes';

async function readAll(stream: FileBytes): Promise<{ data: Buffer; pieces: number[] }> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return { data: Buffer.concat(pieces), pieces: pieces.map((p) => p.length) };
}

describe('FileBytes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trove-file-bytes-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const fileOf = async (name: string, size: number) => {
    const data = Buffer.alloc(size);
    for (let at = 0; at < size; at++) data[at] = (at * 13) & 0xff;
    const file = path.join(dir, name);
    await writeFile(file, data);
    return { file, data };
  };

  it('reads exactly the file, in pieces of at most 1 MiB, each its own length (no short piece copied)', async () => {
    const { file, data } = await fileOf('photo.jpg', 2 * 1024 * 1024 + 5);
    const read = await readAll(new FileBytes(file, data.length));
    expect(read.data.equals(data)).toBe(true);
    expect(read.pieces).toEqual([1024 * 1024, 1024 * 1024, 5]);
  });

  it('reads an empty file as no bytes', async () => {
    const { file } = await fileOf('empty.jpg', 0);
    expect((await readAll(new FileBytes(file, 0))).data.length).toBe(0);
  });

  it('fails when the file grew or shrank since its size was taken, never sending a part of it as the whole', async () => {
    const { file, data } = await fileOf('changing.jpg', 4000);
    await expect(readAll(new FileBytes(file, data.length - 10))).rejects.toBeInstanceOf(FileChangedError);
    await expect(readAll(new FileBytes(file, data.length + 10))).rejects.toThrow(
      `${file} changed while it was being sent`,
    );
  });

  it('fails with the system’s error for a file that is not there', async () => {
    await expect(readAll(new FileBytes(path.join(dir, 'gone.jpg'), 10))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
