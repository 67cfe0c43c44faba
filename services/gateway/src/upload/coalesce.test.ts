import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Coalesce } from './coalesce';

async function gathered(chunks: Buffer[], size: number): Promise<Buffer[]> {
  // 'data' events, as a pipe sees them (an async iterator would join what is buffered).
  const out: Buffer[] = [];
  const coalesce = Readable.from(chunks).pipe(new Coalesce(size));
  coalesce.on('data', (chunk: Buffer) => out.push(chunk));
  await finished(coalesce);
  return out;
}

describe('gathering an upload into larger writes', () => {
  it('hands the same bytes on in chunks of the given size at least, the last one what is left', async () => {
    const data = randomBytes(10 * 1000 + 123);
    const chunks = Array.from({ length: Math.ceil(data.length / 1000) }, (_, i) => data.subarray(i * 1000, (i + 1) * 1000));
    const out = await gathered(chunks, 4096);
    expect(Buffer.concat(out).equals(data)).toBe(true);
    expect(out.map((c) => c.length)).toEqual([5000, 5000, 123]);
  });

  it('passes a chunk already as large on as it is, and an empty stream as nothing', async () => {
    const big = randomBytes(9000);
    const out = await gathered([big], 4096);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(big);
    await expect(gathered([], 4096)).resolves.toEqual([]);
  });
});
