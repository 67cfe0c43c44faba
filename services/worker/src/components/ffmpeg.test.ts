import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { ffmpeg, testClipArgs } from '@trove/kit/testing/media';
import { failureKind, runFfmpeg, ToolFailure } from './ffmpeg';

/** Bounds as a worker with the default memory gives them (limits.ts): large enough for these small files. */
const BOUNDS = { maxPixels: 25_000_000, threads: 1 };

/** Which ffmpeg failures fail the item for good and which are thrown back for a retry. */
describe('ffmpeg failures: deterministic (the file) or transient (the machine)', () => {
  let dir: TempDir;
  let clip: string;
  beforeAll(async () => {
    dir = await tempDir('trove-ffmpeg-unit-');
    clip = dir.file('clip.mp4');
    await ffmpeg([...testClipArgs({ seconds: 0.5, size: '64x48', audio: false }), '-c:v', 'mpeg4', clip]);
  });
  afterAll(() => dir.remove());

  it('ffmpeg refusing the input is the file: corrupt', async () => {
    const junk = await dir.write('junk.mov', Buffer.concat([Buffer.from('\0\0\0\x08wide'), Buffer.alloc(4096, 7)]));
    await expect(
      runFfmpeg({
        input: junk,
        outputOptions: ['-f', 'null'],
        output: '-',
        timeoutSeconds: 20,
        what: 'junk',
        ...BOUNDS,
      }),
    ).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'corrupt',
      message: expect.stringMatching(/^junk: ffmpeg failed: /),
    });
  });

  it('ffmpeg failing because the disk is full is the machine: tool (retried)', async () => {
    // /dev/full answers every write with ENOSPC, as a full disk does.
    await expect(
      runFfmpeg({
        input: clip,
        outputOptions: ['-c:v', 'copy', '-f', 'mp4'],
        output: '/dev/full',
        timeoutSeconds: 20,
        what: 'copy',
        ...BOUNDS,
      }),
    ).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'tool',
      message: expect.stringContaining('No space left on device'),
    });
  });

  it('a kill, a timeout, a missing binary or too much output is transient; an exit naming memory too', () => {
    for (const reason of ['spawn', 'signal', 'timeout', 'output'] as const)
      expect(failureKind(new ToolFailure(reason, 'x'))).toBe('tool');
    expect(failureKind(new ToolFailure('exit', 'Error while decoding: Cannot allocate memory'))).toBe('tool');
    expect(failureKind(new ToolFailure('exit', 'Invalid data found when processing input'))).toBe('corrupt');
    expect(failureKind(new Error('not a tool failure'))).toBe('tool');
  });
});
