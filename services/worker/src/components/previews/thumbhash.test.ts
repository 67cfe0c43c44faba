import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { cornerImage } from '@trove/kit/testing/media';
import { rgbaToThumbHash } from './thumbhash';

const execFileAsync = promisify(execFile);

/** The `thumbhash` package itself, run by plain Node (it is ESM-only, which jest's CommonJS runtime cannot load). */
async function packageHash(w: number, h: number, rgba: Uint8Array): Promise<number[]> {
  const script = `
    import { rgbaToThumbHash } from 'thumbhash';
    const [w, h, b64] = process.argv.slice(1);
    process.stdout.write(JSON.stringify(Array.from(rgbaToThumbHash(Number(w), Number(h), Buffer.from(b64, 'base64')))));
  `;
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--input-type=module', '-e', script, String(w), String(h), Buffer.from(rgba).toString('base64')],
    { cwd: __dirname },
  );
  return JSON.parse(stdout) as number[];
}

describe('rgbaToThumbHash (port of the thumbhash package)', () => {
  it('matches the package byte for byte, opaque and with alpha, landscape and portrait', async () => {
    const images = [
      await (await cornerImage(100, 75)).ensureAlpha().raw().toBuffer({ resolveWithObject: true }),
      await (await cornerImage(60, 100)).ensureAlpha(0.4).raw().toBuffer({ resolveWithObject: true }),
      await sharp({ create: { width: 1, height: 1, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 1 } } })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    ];
    for (const { data, info } of images) {
      const ours = Array.from(rgbaToThumbHash(info.width, info.height, data));
      expect(ours).toEqual(await packageHash(info.width, info.height, data));
    }
  });

  it('refuses images over 100 px, as the package does', () => {
    expect(() => rgbaToThumbHash(101, 10, new Uint8Array(101 * 10 * 4))).toThrow(/doesn't fit/);
  });
});
