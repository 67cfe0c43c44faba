/**
 * For tests only: the ExifTool that exiftool-vendored bundles, run as a plain command (not the worker's pool), to
 * write tags into files a test makes and to read what ExifTool itself says of them (`-j -n -G1`), the reference
 * the worker's fields are compared with. Also a transport stream with an AVCHD camera's H.264 user data (MDPM).
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpeg, H264_ARGS } from '@trove/kit/testing/media';

const execFileAsync = promisify(execFile);
const SCRIPT = join(dirname(require.resolve('exiftool-vendored.pl/package.json')), 'bin', 'exiftool');

/** `exiftool ARGS`; resolves with its stdout. Writes with `-o` or `-overwrite_original` as the test says. */
export async function exiftoolCli(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('perl', [SCRIPT, ...args], { maxBuffer: 16 * 1024 ** 2 });
  return stdout;
}

/** What ExifTool says of a file: `exiftool -j -n -G1 -a`, one object of `Group:Tag` → value. */
export async function exiftoolJson(file: string): Promise<Record<string, unknown>> {
  return (JSON.parse(await exiftoolCli(['-j', '-n', '-G1', '-a', file])) as Array<Record<string, unknown>>)[0];
}

/** The MDPM user data of the H.264 SEI as Sony's AVCHD cameras write it (ExifTool's H264.pm), BCD dates. */
export interface Mdpm {
  /** `[year, month, day, hour, minute, second]`; no field may be 0 (the bytes go in unescaped). */
  date: [number, number, number, number, number, number];
  /** Hours east of UTC, whole. */
  zoneHours: number;
  dst: boolean;
  /** 12 characters, the Sony model field. */
  model: string;
}

const bcd = (n: number) => Number.parseInt(String(n), 16);

/**
 * An H.264 transport stream (188-byte packets) of `seconds` seconds whose first frame carries the MDPM
 * user data `mdpm` (date with zone, maker Sony, model); with `m2ts` a 4-byte timestamp goes before every
 * packet, as AVCHD's .MTS files have. ffmpeg cannot write MDPM: the SEI NAL unit is put into the raw stream
 * before the first IDR slice, then the stream is remuxed (through MP4: ffmpeg's raw H.264 has no timestamps).
 * Only `dest` is left behind.
 */
export async function avchdStream(
  dest: string,
  mdpm: Mdpm,
  opts: { seconds?: number; m2ts?: boolean } = {},
): Promise<void> {
  const raw = `${dest}.h264`;
  const mp4 = `${dest}.mp4`;
  try {
    await writeStream(dest, raw, mp4, mdpm, opts);
  } finally {
    await Promise.all([rm(raw, { force: true }), rm(mp4, { force: true })]);
  }
}

async function writeStream(
  dest: string,
  raw: string,
  mp4: string,
  mdpm: Mdpm,
  opts: { seconds?: number; m2ts?: boolean },
): Promise<void> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x180:rate=25:duration=${opts.seconds ?? 1}`,
    ...H264_ARGS,
    '-bsf:v',
    'h264_mp4toannexb',
    '-f',
    'h264',
    raw,
  ]);
  const stream = await readFile(raw);
  const [y, mo, d, h, mi, s] = mdpm.date;
  const zone = (mdpm.dst ? 0x40 : 0) | (mdpm.zoneHours < 0 ? 0x20 : 0) | (Math.abs(mdpm.zoneHours) << 1);
  const model = Buffer.from(mdpm.model.padEnd(12, ' ').slice(0, 12), 'latin1');
  const entries = Buffer.from([
    0x18,
    zone,
    bcd(Math.floor(y / 100)),
    bcd(y % 100),
    bcd(mo),
    0x19,
    bcd(d),
    bcd(h),
    bcd(mi),
    bcd(s),
    0xe0,
    0x01,
    0x08,
    0x01,
    0x01, // MakeModel: 0x0108 Sony
    0xe4,
    ...model.subarray(0, 4),
    0xe5,
    ...model.subarray(4, 8),
    0xe6,
    ...model.subarray(8, 12),
  ]);
  const payload = Buffer.concat([
    Buffer.from('17ee8c60f84d11d98cd60800200c9a66', 'hex'),
    Buffer.from('MDPM'),
    Buffer.from([6]),
    entries,
  ]);
  const sei = Buffer.concat([Buffer.from([0, 0, 0, 1, 0x06, 0x05, payload.length]), payload, Buffer.from([0x80])]);
  let idr = 0;
  while (
    idr + 3 < stream.length &&
    !(stream[idr] === 0 && stream[idr + 1] === 0 && stream[idr + 2] === 1 && (stream[idr + 3] & 0x1f) === 5)
  )
    idr++;
  if (idr + 3 >= stream.length) throw new Error('no IDR slice in the encoded stream');
  const at = stream[idr - 1] === 0 ? idr - 1 : idr;
  await writeFile(raw, Buffer.concat([stream.subarray(0, at), sei, stream.subarray(at)]));
  await ffmpeg(['-f', 'h264', '-framerate', '25', '-i', raw, '-c', 'copy', '-f', 'mp4', mp4]);
  await ffmpeg(['-i', mp4, '-c', 'copy', '-f', 'mpegts', dest]);
  if (opts.m2ts) {
    const ts = await readFile(dest);
    const parts: Buffer[] = [];
    for (let i = 0; i + 188 <= ts.length; i += 188) parts.push(Buffer.alloc(4), ts.subarray(i, i + 188));
    await writeFile(dest, Buffer.concat(parts));
  }
}
