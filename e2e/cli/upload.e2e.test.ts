/**
 * The `trove` command end to end: the built CLI (cli/bin/trove.js) run as a child process against a real stack
 * (nats-server, auth, media, library and the gateway as their own processes), signed in with an API key.
 *
 * - `trove login` reads the user's name and password from standard input and keeps an API key in a 0600 file;
 * - a folder tree of camera files (JPEGs with EXIF, PNGs, a DNG, MP4 and MOV clips) in nested folders with junk beside
 *   them: all uploaded; run again: 0 uploaded, all skipped; `--album-per-folder` makes the folders' albums;
 * - an upload SIGKILLed in the middle, then run again: exactly one item per file, none lost, none twice.
 * (`trove import takeout`: takeout.e2e.test.ts.)
 *
 * No worker runs: what is counted here is what the upload created, not its processing (2 shared cores).
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { dngLike, ffmpeg, H264_ARGS, jpegAt, noisePng, testClipArgs } from '@trove/kit/testing/media';
import { newUser, ok } from '../support/api';
import { albumCounts, allItems, apiKeyOf, lastLine, trove } from './cli';

describe('trove (e2e)', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    [stack, dir] = await Promise.all([
      startStack({ services: ['auth', 'media', 'library', 'gateway'] }),
      mkdtemp(path.join(tmpdir(), 'trove-cli-e2e-')),
    ]);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('logs in from standard input and keeps an API key in a file only its owner reads', async () => {
    const user = await newUser(stack);
    const config = path.join(dir, 'config-home');
    const run = await trove(
      ['login', '--server', stack.gatewayUrl],
      { XDG_CONFIG_HOME: config },
      `${user.username}\n${user.password}\n`,
    ).done;
    expect(run).toMatchObject({ code: 0 });
    const file = path.join(config, 'trove', 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { server: string; apiKey: string };
    expect(saved.server).toBe(stack.gatewayUrl);
    expect(saved.apiKey).toMatch(/^trove_/);
    expect(run.stdout + run.stderr).not.toContain(user.password);
    // The key works (the config file alone, no variables) and is listed under the machine's name.
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    const upload = await trove(['upload', empty], { XDG_CONFIG_HOME: config }).done;
    expect({ code: upload.code, last: lastLine(upload.stdout) }).toEqual({
      code: 0,
      last: '0 uploaded, 0 skipped, 0 failed',
    });
    const keys = await ok(user.api.GET('/v1/apiKeys'), 200);
    expect(keys).toHaveLength(1);

    const wrong = await trove(
      ['login', '--server', stack.gatewayUrl],
      { XDG_CONFIG_HOME: path.join(dir, 'other') },
      `${user.username}\nnot-the-password\n`,
    ).done;
    expect({ code: wrong.code, stderr: wrong.stderr.trim().split('\n').at(-1) }).toEqual({
      code: 2,
      stderr: 'trove: wrong username or password',
    });
  });

  it('uploads a folder tree once, skips it all the second time, and files albums after the folders', async () => {
    const user = await newUser(stack);
    const env = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(user) };
    const root = path.join(dir, 'Pictures');
    const put = async (rel: string, data: Buffer | string) => {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), data);
    };
    // 24 media files in nested folders: 8 in Summer, 6 in Winter, 6 in Phone, 4 in Raw.
    for (let i = 0; i < 8; i++) await put(`Camera/2019/Summer/IMG_${1000 + i}.JPG`, await jpegAt(43 + i / 10, 11));
    for (let i = 0; i < 5; i++) await put(`Camera/2020/Winter/DSC_${2000 + i}.jpg`, await jpegAt(60, 10 + i / 10));
    const clip = path.join(dir, 'clip.mp4');
    await ffmpeg(['-y', ...testClipArgs({ seconds: 1, size: '160x120', audio: false }), ...H264_ARGS, clip]);
    await put('Camera/2020/Winter/MVI_2005.MP4', await readFile(clip));
    for (let i = 0; i < 5; i++) await put(`Phone/Screenshot_${i}.png`, await noisePng());
    await ffmpeg([
      '-y',
      ...testClipArgs({ seconds: 1, size: '128x96', audio: false }),
      ...H264_ARGS,
      '-f',
      'mov',
      path.join(root, 'Phone/IMG_0007.MOV'),
    ]);
    for (let i = 0; i < 4; i++) await put(`Camera/Raw/RAW_${i}.DNG`, dngLike(await jpegAt(1, i), 1));
    // Junk: hidden files and folders, sidecars, documents.
    await put('.DS_Store', 'junk');
    await put('Camera/2019/Summer/.picasa.ini', 'junk');
    await put('Camera/2019/Summer/.thumbnails/IMG_1000.JPG', await jpegAt(0, 0));
    await put('Camera/Raw/RAW_0.xmp', '<x:xmpmeta/>');
    await put('Phone/notes.txt', 'shopping list');
    await put('Thumbs.db', 'junk');

    const first = await trove(['upload', root, '--album-per-folder', '--concurrency', '3'], env).done;
    expect({ code: first.code, last: lastLine(first.stdout), stderr: first.stderr }).toEqual({
      code: 0,
      last: '24 uploaded, 0 skipped, 0 failed',
      stderr: '',
    });
    expect(first.stdout).toContain('24 files');
    expect(first.stdout).toContain('left out: 3 hidden, 3 not photos or videos');
    const items = await allItems(user.api);
    expect(items).toHaveLength(24);
    expect(new Set(items.map((i) => i.filename))).toContain('MVI_2005.MP4');
    expect(await albumCounts(user.api)).toEqual({ Summer: 8, Winter: 6, Phone: 6, Raw: 4 });

    const second = await trove(['upload', root, '--album-per-folder', '--json'], env).done;
    expect(second.code).toBe(0);
    const events = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.at(-1)).toEqual({ event: 'summary', uploaded: 0, skipped: 24, failed: 0 });
    expect(await allItems(user.api)).toHaveLength(24);
    expect(await albumCounts(user.api)).toEqual({ Summer: 8, Winter: 6, Phone: 6, Raw: 4 });
  }, 180_000);

  it('killed in the middle and run again, ends with exactly one item per file', async () => {
    const user = await newUser(stack);
    const env = { TROVE_SERVER: stack.gatewayUrl, TROVE_API_KEY: await apiKeyOf(user) };
    const root = path.join(dir, 'Sixty');
    await mkdir(root);
    // 60 different files of ~1.5 MB (one photo, each with its own trailing bytes after the image): big enough that
    // the kill lands while bodies are on the wire.
    const photo = await jpegAt(52, 5);
    const FILES = 60;
    for (let i = 0; i < FILES; i++) {
      const tail = Buffer.alloc(1_500_000, i);
      tail.writeUInt32BE(i, 0);
      await writeFile(path.join(root, `IMG_${String(i).padStart(4, '0')}.jpg`), Buffer.concat([photo, tail]));
    }

    const killed = trove(['upload', root, '--album', 'Sixty', '--concurrency', '2'], env);
    await waitFor(() => ((killed.stdout().match(/^uploaded /gm)?.length ?? 0) >= 5 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 20,
      what: 'the first uploads',
    });
    killed.child.kill('SIGKILL');
    const cut = await killed.done;
    expect(cut.signal).toBe('SIGKILL');
    const before = (await allItems(user.api)).length;
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(FILES);

    const rerun = await trove(['upload', root, '--album', 'Sixty', '--concurrency', '2'], env).done;
    expect({ code: rerun.code, stderr: rerun.stderr }).toEqual({ code: 0, stderr: '' });
    const [uploaded, skipped, failed] = lastLine(rerun.stdout)
      .match(/^(\d+) uploaded, (\d+) skipped, (\d+) failed$/)!
      .slice(1)
      .map(Number);
    expect(failed).toBe(0);
    expect(uploaded + skipped).toBe(FILES);
    expect(skipped).toBeGreaterThanOrEqual(before);
    const items = await allItems(user.api);
    expect(items).toHaveLength(FILES);
    expect(new Set(items.map((i) => i.filename)).size).toBe(FILES);
    expect(await albumCounts(user.api)).toEqual({ Sixty: FILES });
  }, 180_000);
});
