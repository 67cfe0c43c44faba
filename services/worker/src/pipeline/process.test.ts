/**
 * The processing of one work item against a real filesystem blob store, with real files (made by
 * sharp and ffmpeg, or the phone photo beside the worker) and a recording publisher.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  decodeEmbedding,
  faceThumbnailKey,
  faceThumbnailsPrefix,
  mediaBlobKey,
  mediaProcessedEvent,
  validate,
} from '@trove/proto-events';
import type { MediaItemProcessedV1, MessageContract, ProcessMediaItemV1 } from '@trove/proto-events';
import { DLQ_REASON_HEADER, openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import {
  cornerImage,
  FIXTURES,
  HEIC_FIXTURE_PAIRING_ID,
  ffmpeg,
  H264_ARGS,
  itWithFixtures,
  rafLike,
  testClipArgs,
} from '@trove/kit/testing/media';
import { detectFileType } from '@trove/kit/filetype';
import { closeExifTool, closeOcr, DEFAULT_LIMITS } from '../components';
import { decodeHeifPrimary } from '../components/previews/heif';
import { grabFrame } from '../components/previews/frame';
import { avchdStream } from '../components/metadata/exiftool-cli.fake';
import { appleMovArgs, cutOff, TEST_FRAME_ARGS } from '../test-support.fake';
import { processItem } from './process';
import { recordingLog, silentLog } from './work-item.fake';

const execFileAsync = promisify(execFile);

let dir: TempDir;
let work: TempDir;
let blobs: BlobStore;
let published: Array<{
  subject: string;
  payload: MediaItemProcessedV1;
  msgId: string;
  headers?: Record<string, string>;
}>;
const log = silentLog;

beforeAll(async () => {
  dir = await tempDir('trove-worker-unit-');
  work = await tempDir('trove-worker-tmp-');
  blobs = await openBlobStore({ dataDir: dir.path });
});
afterAll(async () => {
  await closeOcr();
  await closeExifTool();
  await dir.remove();
  await work.remove();
});
beforeEach(() => {
  published = [];
});

const deps = () => ({
  blobs,
  log,
  tempRoot: work.path,
  events: {
    async publish<P>(
      contract: MessageContract<P>,
      payload: P,
      opts: { msgId: string; headers?: Record<string, string> },
    ) {
      published.push({
        subject: contract.subject,
        payload: payload as MediaItemProcessedV1,
        msgId: opts.msgId,
        ...(opts.headers && { headers: opts.headers }),
      });
    },
  },
});

async function stored(
  data: Buffer,
  mimeType: string,
  mediaItemType: 'photo' | 'video',
  filename: string,
): Promise<ProcessMediaItemV1> {
  const userId = randomUUID();
  const mediaItemId = randomUUID();
  const originalKey = mediaBlobKey(userId, mediaItemId, 'original');
  await blobs.put(originalKey, Readable.from(data), { contentType: mimeType });
  return { userId, mediaItemId, originalKey, mimeType, mediaItemType, filename };
}

/** What ffmpeg makes of `args` as `name` (in the work directory, removed again). */
async function encoded(name: string, args: string[]): Promise<Buffer> {
  const file = join(work.path, name);
  await ffmpeg([...args, file]);
  try {
    return await readFile(file);
  } finally {
    await rm(file);
  }
}

/** A 1 s test pattern and tone as MPEG-4 Part 2 and Opus in Matroska: a video no browser plays as it is. */
const MKV_ARGS = [...testClipArgs({ seconds: 1 }), '-c:v', 'mpeg4', '-c:a', 'libopus'];

/** A video that ffmpeg makes of `args`, stored as the original of a new item named `filename`. */
async function storedVideo(filename: string, mimeType: string, args: string[]): Promise<ProcessMediaItemV1> {
  return stored(await encoded(filename, args), mimeType, 'video', filename);
}

/**
 * Runs `test` with `tool` (its `*_PATH` variable) replaced by a shell script, `script(hang)`, where `hang` is the
 * command that records the script's pid and sleeps for ten minutes. After `test`: the hanging process was killed
 * and the work directory is empty. The variable is restored and the script removed whatever happens.
 */
async function withHangingTool(
  tool: 'ffmpeg' | 'ffprobe',
  script: (hang: string) => string,
  test: () => Promise<void>,
): Promise<void> {
  const tools = await tempDir(`trove-fake-${tool}-`);
  const pidFile = tools.file('pid');
  const fake = await tools.write(tool, `#!/bin/sh\n${script(`echo $$ > '${pidFile}'; exec sleep 600`)}\n`);
  await chmod(fake, 0o755);
  const variable = `${tool.toUpperCase()}_PATH`;
  const saved = process.env[variable];
  process.env[variable] = fake;
  try {
    await test();
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(await readdir(work.path)).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env[variable];
    else process.env[variable] = saved;
    await tools.remove();
  }
}

/**
 * `item` processed in a process of its own (fixtures/process-in-child.ts, built), after `warmUp`: its outcome, and
 * the child's resident memory before it, at its peak, and at the peak of the warm-up item's second run.
 */
async function processInChild(warmUp: ProcessMediaItemV1, item: ProcessMediaItemV1): Promise<ChildMemory> {
  const fixture = join(__dirname, '..', '..', 'dist', 'pipeline', 'fixtures', 'process-in-child.js');
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: build first (npx tsc -b tsconfig.build.json)`);
  const args = ['--expose-gc', fixture, dir.path, work.path, JSON.stringify(warmUp), JSON.stringify(item)];
  const { stdout } = await execFileAsync(process.execPath, args);
  return JSON.parse(stdout.trim().split('\n').pop()!) as ChildMemory;
}

interface ChildMemory {
  outcome: string;
  baseline: number;
  peak: number;
  /** The peak while the warm-up item was processed a second time: an ordinary item's working memory. */
  warmUpPeak: number;
}

const bytesOf = async (key: string) => {
  const { body } = await blobs.get(key);
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('processItem', () => {
  itWithFixtures(
    'a phone JPEG: preview and thumbnail stored as WebP under the item keys, the result published once per item',
    async () => {
      const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), 'image/jpeg', 'photo', 'jobs.jpeg');
      expect(await processItem(deps(), item)).toBe('processed');
      expect(published).toHaveLength(1);
      const { subject, payload, msgId } = published[0];
      expect(subject).toBe('events.v1.media.processed');
      expect(msgId).toBe(`processed-${item.mediaItemId}`);
      expect(payload).toMatchObject({
        userId: item.userId,
        mediaItemId: item.mediaItemId,
        mimeType: 'image/jpeg',
        category: 'default',
        placeholder: expect.any(String),
        variants: {
          preview: mediaBlobKey(item.userId, item.mediaItemId, 'preview'),
          thumbnail: mediaBlobKey(item.userId, item.mediaItemId, 'thumbnail'),
          playback: null,
        },
        metadata: {
          width: 1330,
          height: 2364,
          cameraMake: 'Apple',
          cameraModel: 'iPhone 15 Pro',
          creationTime: '2024-06-08T15:40:54.820+05:30',
        },
        // Its best guess, a "donut" at 0.54 (the dessert cup), is over the default threshold.
        things: [{ label: 'Donut', score: expect.any(Number) }],
        // A meal tray: no one in it.
        faces: [],
        // The napkin's sideways print, "vistara / Fly the new feeling": its larger words are read.
        words: expect.arrayContaining(['Fly']),
        // Its GPS position, 11.0221 N 76.7419 E, is west of Coimbatore.
        place: {
          name: 'Coimbatore',
          town: null,
          city: 'Coimbatore',
          state: 'Tamil Nadu',
          country: 'India',
          countryCode: 'IN',
          postcode: '641109',
        },
      });
      expect(validate(mediaProcessedEvent.payload, payload)).toEqual({ valid: true, errors: [] });
      const preview = await sharp(await bytesOf(payload.variants.preview!)).metadata();
      expect(preview).toMatchObject({ format: 'webp', height: 2048 });
      expect((await blobs.head(payload.variants.thumbnail!))?.contentType).toBe('image/webp');
      // Temp files are gone.
      expect(await readdir(work.path)).toEqual([]);
    },
  );

  itWithFixtures(
    'a phone HEIC: the things seen in it and its Live Photo pairing id are published with the result; alone it is a default photo',
    async () => {
      const item = await stored(
        await readFile(join(FIXTURES, 'IMG_0543.HEIC')),
        'image/heic',
        'photo',
        'IMG_0543.HEIC',
      );
      expect(await processItem(deps(), item)).toBe('processed');
      // The pizza (the model's "dining table" has the pizza's box: one object under two labels, the better kept).
      expect(published[0].payload.things?.map((t) => t.label)).toEqual(['Pizza']);
      expect(published[0].payload.things?.[0].score).toBeCloseTo(0.6, 1);
      expect(published[0].payload.metadata.contentIdentifier).toBe(HEIC_FIXTURE_PAIRING_ID);
      expect(published[0].payload.category).toBe('default');
      // A higher threshold from the configuration drops the table (a large thing needs 0.43 of it: 0.30).
      expect(await processItem({ ...deps(), thingsMinScore: 0.7 }, item)).toBe('processed');
      expect(published[1].payload.things?.map((t) => t.label)).toEqual(['Pizza']);
    },
  );

  itWithFixtures(
    'a group photo: its faces published with the result, each thumbnail stored under its key as a WebP',
    async () => {
      const item = await stored(await readFile(join(FIXTURES, 'faces.jpg')), 'image/jpeg', 'photo', 'faces.jpg');
      expect(await processItem(deps(), item)).toBe('processed');
      const { payload } = published[0];
      expect(validate(mediaProcessedEvent.payload, payload)).toEqual({ valid: true, errors: [] });
      const faces = payload.faces!;
      expect(faces.length).toBeGreaterThanOrEqual(8);
      for (const [index, { box, score, embedding, thumbnailKey }] of faces.entries()) {
        expect(thumbnailKey).toBe(faceThumbnailKey(item.userId, item.mediaItemId, index));
        expect((await blobs.head(thumbnailKey))?.contentType).toBe('image/webp');
        const thumbnail = await sharp(await bytesOf(thumbnailKey)).metadata();
        expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['webp', 160, 160]);
        expect(box.x + box.width).toBeLessThanOrEqual(1.0001);
        expect(score).toBeGreaterThanOrEqual(0.7);
        const values = decodeEmbedding(embedding);
        expect(values).toHaveLength(1024);
        expect(Math.hypot(...values)).toBeCloseTo(1, 5);
      }
      const thumbnails = async () => {
        const keys: string[] = [];
        for await (const blob of blobs.list(faceThumbnailsPrefix(item.userId, item.mediaItemId))) keys.push(blob.key);
        return keys.sort();
      };
      expect(await thumbnails()).toEqual(faces.map((f) => f.thumbnailKey).sort());

      // Processed again with a stricter minimum from the configuration: fewer faces, and no thumbnail of the earlier extra ones left.
      expect(await processItem({ ...deps(), faces: { minScore: 0.9 } }, item)).toBe('processed');
      const fewer = published[1].payload.faces!;
      expect(fewer.length).toBeGreaterThan(0);
      expect(fewer.length).toBeLessThan(faces.length);
      expect(fewer.every((f) => f.score >= 0.9)).toBe(true);
      expect(await thumbnails()).toEqual(fewer.map((f) => f.thumbnailKey).sort());
    },
    120_000,
  );

  describe("a pet's face (the models stood in for: one face on a cat, one beside it)", () => {
    const face = (x: number) => ({
      box: { x, y: 0.4, width: 0.1, height: 0.1 },
      score: 0.9,
      quality: 1,
      embedding: new Float32Array(1024).fill(1 / 32),
      thumbnail: Buffer.from('face'),
    });
    const cat = { cls: 'cat', score: 0.65, box: { x1: 0, y1: 0, x2: 0.5, y2: 1 } };
    let thingsRuns = 0;
    const detectors = {
      faces: async () => [face(0.2), face(0.7)],
      things: async () => (thingsRuns++, { things: [{ label: 'Cat', score: 0.65 }], objects: [cat] }),
    };
    const photo = async () => {
      const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: 'olive' } })
        .png()
        .toBuffer();
      return stored(png, 'image/png', 'photo', 'cat.png');
    };

    it('is left out of the result: the face on the cat goes, the other stays', async () => {
      thingsRuns = 0;
      expect(await processItem({ ...deps(), detectors }, await photo())).toBe('processed');
      expect(published[0].payload.things).toEqual([{ label: 'Cat', score: 0.65 }]);
      expect(published[0].payload.faces?.map((f) => f.box.x)).toEqual([0.7]);
      expect(thingsRuns).toBe(1);
    });

    it('is left out by a job that runs the faces alone too: the things are looked at, not reported', async () => {
      thingsRuns = 0;
      const item = { ...(await photo()), components: ['faces'] };
      expect(await processItem({ ...deps(), detectors }, item)).toBe('processed');
      expect(published[0].payload.faces?.map((f) => f.box.x)).toEqual([0.7]);
      expect(published[0].payload).not.toHaveProperty('things');
      expect(thingsRuns).toBe(1);
    });

    it('costs a photo without faces no look for animals when its things are not asked for', async () => {
      thingsRuns = 0;
      const item = { ...(await photo()), components: ['faces'] };
      expect(await processItem({ ...deps(), detectors: { ...detectors, faces: async () => [] } }, item)).toBe(
        'processed',
      );
      expect(published[0].payload.faces).toEqual([]);
      expect(thingsRuns).toBe(0);
    });
  });

  it('processing the same item twice gives the same result', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
    const item = await stored(png, 'image/png', 'photo', 'Screenshot 2024-01-01.png');
    await processItem(deps(), item);
    await processItem(deps(), item);
    expect(published).toHaveLength(2);
    expect(published[1]).toEqual(published[0]);
    expect(published[0].payload.category).toBe('screenshot');
    expect(published[0].payload.place).toBeNull(); // no GPS position
    // No EXIF date: the date in the file's name.
    expect(published[0].payload.metadata.creationTime).toBe('2024-01-01T00:00:00Z');
  });

  it('a video that browsers cannot play gets a playback transcode; its poster makes the thumbnail', async () => {
    const item = await storedVideo('clip.mkv', 'video/x-matroska', MKV_ARGS);
    await processItem(deps(), item);
    const { payload } = published[0];
    expect(payload.variants.playback).toBe(mediaBlobKey(item.userId, item.mediaItemId, 'playback'));
    expect((await blobs.head(payload.variants.playback!))?.contentType).toBe('video/mp4');
    expect(payload.metadata).toMatchObject({ width: 320, height: 240, fps: '30' });
    expect((await sharp(await bytesOf(payload.variants.thumbnail!)).metadata()).format).toBe('webp');
    // The poster frame went through the things detector: a test pattern has none. Videos are not read (no words at all).
    expect(payload.things).toEqual([]);
    expect(payload).not.toHaveProperty('words');
    // Faces are looked for in photos only: a video's result has none, not even an empty list.
    expect(payload).not.toHaveProperty('faces');
  });

  it('a JPEG XL photo and an AVCHD .mts video: READY with WebP preview and thumbnail, their metadata published', async () => {
    const jxlFile = join(work.path, 'photo.jxl');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=320x200', '-frames:v', '1', '-c:v', 'libjxl', jxlFile]);
    const photo = await stored(await readFile(jxlFile), 'image/jxl', 'photo', 'IMG_20240102_030405.jxl');
    await rm(jxlFile);
    expect(await processItem(deps(), photo)).toBe('processed');
    expect(published[0].payload.metadata).toMatchObject({
      width: 320,
      height: 200,
      creationTime: '2024-01-02T03:04:05Z',
    });
    expect(await sharp(await bytesOf(published[0].payload.variants.preview!)).metadata()).toMatchObject({
      format: 'webp',
      width: 320,
      height: 200,
    });

    const mts = join(work.path, '00000.mts');
    await avchdStream(
      mts,
      { date: [2019, 4, 24, 22, 24, 11], zoneHours: 2, dst: true, model: 'ILCE-7M3' },
      { m2ts: true, seconds: 2 },
    );
    const video = await stored(await readFile(mts), 'video/m2ts', 'video', '00000.MTS');
    await rm(mts);
    expect(await processItem(deps(), video)).toBe('processed');
    const { payload } = published[1];
    expect(payload.metadata).toMatchObject({
      width: 320,
      height: 180,
      creationTime: '2019-04-24T22:24:11+02:00',
      cameraMake: 'Sony',
      cameraModel: 'ILCE-7M3',
    });
    expect((await sharp(await bytesOf(payload.variants.thumbnail!)).metadata()).format).toBe('webp');
    // MPEG-TS is no browser's: the playback copy is an MP4.
    expect((await blobs.head(payload.variants.playback!))?.contentType).toBe('video/mp4');
  });

  itWithFixtures(
    'the motion part of a Live Photo: its QuickTime content identifier is published as the pairing id; an ordinary video has none',
    async () => {
      const live = await storedVideo('IMG_0543.MOV', 'video/quicktime', [
        ...testClipArgs({ seconds: 0.5, size: '64x48', audio: false }),
        ...H264_ARGS,
        ...appleMovArgs({ 'content.identifier': HEIC_FIXTURE_PAIRING_ID }),
      ]);
      await processItem(deps(), live);
      expect(published[0].payload.metadata.contentIdentifier).toBe(HEIC_FIXTURE_PAIRING_ID);
      expect(published[0].payload.category).toBe('default');
      expect(validate(mediaProcessedEvent.payload, published[0].payload)).toEqual({ valid: true, errors: [] });

      await processItem(
        deps(),
        await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), 'image/jpeg', 'photo', 'jobs.jpeg'),
      );
      expect(published[1].payload.metadata.contentIdentifier).toBeNull();
    },
  );

  itWithFixtures('a place lookup that fails is logged, and the item is processed without a place', async () => {
    const lines: string[] = [];
    const recording = recordingLog(lines);
    const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), 'image/jpeg', 'photo', 'jobs.jpeg');
    const broken = () => Promise.reject(new Error('gazetteer unreadable'));
    expect(await processItem({ ...deps(), log: recording, findPlace: broken }, item)).toBe('processed');
    expect(published[0].payload.place).toBeNull();
    const failure = lines
      .map((l) => JSON.parse(l) as { msg: string; mediaItemId: string; ms: number; err: { message: string } })
      .find((l) => l.msg.startsWith('place lookup failed'));
    expect(failure).toMatchObject({
      mediaItemId: item.mediaItemId,
      ms: expect.any(Number),
      err: { message: 'gazetteer unreadable' },
    });
  });

  itWithFixtures(
    'a JPEG cut off before its end marker (as cameras leave them) is processed: decoded as far as it goes, a warning logged with the item id',
    async () => {
      const whole = await readFile(join(FIXTURES, 'jobs.jpeg'));
      const item = await stored(cutOff(whole, 1 / 3), 'image/jpeg', 'photo', 'holiday.jpg');
      const lines: string[] = [];
      const recording = recordingLog(lines);
      expect(await processItem({ ...deps(), log: recording }, item)).toBe('processed');
      expect(published).toHaveLength(1);
      expect(published[0].payload).toMatchObject({
        mediaItemId: item.mediaItemId,
        variants: { preview: mediaBlobKey(item.userId, item.mediaItemId, 'preview') },
      });
      const preview = await sharp(await bytesOf(mediaBlobKey(item.userId, item.mediaItemId, 'preview'))).metadata();
      expect(preview).toMatchObject({ format: 'webp', width: 1152, height: 2048 });
      const warning = lines
        .map((l) => JSON.parse(l) as { level: number; msg: string; mediaItemId: string; warning: string })
        .find((l) => l.msg === 'media item decoded with a warning');
      expect(warning).toMatchObject({
        mediaItemId: item.mediaItemId,
        warning: expect.stringMatching(/^holiday\.jpg: JPEG ends without its end-of-image marker/),
      });
      expect(warning?.warning).not.toContain(work.path);
      expect(await readdir(work.path)).toEqual([]);
    },
  );

  itWithFixtures(
    'a file that is broken for good (a JPEG header, then random bytes) is failed at once: its failure published with the reason, nothing thrown to retry',
    async () => {
      const jpegHeader = (await readFile(join(FIXTURES, 'jobs.jpeg'))).subarray(0, 20);
      const item = await stored(
        Buffer.concat([jpegHeader, randomBytes(20 * 1024)]),
        'image/jpeg',
        'photo',
        'broken.jpg',
      );
      expect(await processItem(deps(), item)).toBe('failed');
      expect(published).toEqual([
        {
          subject: 'dlq.work.v1.media.process',
          payload: item,
          msgId: `failed-${item.mediaItemId}`,
          headers: { [DLQ_REASON_HEADER]: 'broken.jpg: JPEG is malformed or cut off before its picture data' },
        },
      ]);
      expect(await blobs.head(mediaBlobKey(item.userId, item.mediaItemId, 'preview'))).toBeNull();
      expect(await readdir(work.path)).toEqual([]);
    },
  );

  it('a Fujifilm RAF (sniffed by its magic, typed as ExifTool types it): READY with the camera, date and size ExifTool reads, pictured from its embedded JPEG', async () => {
    const jpeg = await (
      await cornerImage(300, 200)
    )
      .withExif({ IFD0: { Make: 'FUJIFILM', Model: 'X-T30' }, IFD2: { DateTimeOriginal: '2021:06:12 09:08:07' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const raf = rafLike(jpeg);
    const type = detectFileType(raf.subarray(0, 4100));
    expect(type).toEqual({ mimeType: 'image/x-fujifilm-raf', mediaItemType: 'photo', extension: 'raf' });
    const item = await stored(raf, type!.mimeType, 'photo', 'DSCF0001.RAF');
    expect(await processItem(deps(), item)).toBe('processed');
    const { payload } = published[0];
    expect(payload.mimeType).toBe('image/x-fujifilm-raf');
    expect(payload.metadata).toMatchObject({
      cameraMake: 'FUJIFILM',
      cameraModel: 'X-T30',
      width: 200,
      height: 300,
      creationTime: '2021-06-12T09:08:07Z',
    });
    expect(await sharp(await bytesOf(payload.variants.preview!)).metadata()).toMatchObject({ width: 200, height: 300 });
  });

  it("a movie ffprobe reads but ffmpeg can never decode (a track without its sample table) is FAILED at once with ffmpeg's reason, not retried", async () => {
    const mov = await encoded('whole.mov', [...testClipArgs({ seconds: 1, audio: false }), ...H264_ARGS]);
    // The track's sample sizes box renamed to `free`: the header parses, no frame can be found.
    const stsz = mov.indexOf('stsz');
    expect(stsz).toBeGreaterThan(0);
    mov.write('free', stsz, 'latin1');
    const item = await stored(mov, 'video/quicktime', 'video', 'stripped.mov');
    expect(await processItem(deps(), item)).toBe('failed');
    expect(published).toHaveLength(1);
    expect(published[0].subject).toBe('dlq.work.v1.media.process');
    expect(published[0].headers?.[DLQ_REASON_HEADER]).toMatch(
      /^frame of stripped\.mov: ffmpeg failed: \[mov,mp4,m4a,3gp,3g2,mj2\] stream 0, missing mandatory atoms, broken header/,
    );
    expect(await readdir(work.path)).toEqual([]);
  });

  it("a failure that is not the file's (the blob store refusing the preview) is thrown, for the queue to retry", async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
    const item = await stored(png, 'image/png', 'photo', 'fine.png');
    const refusing = new Proxy(blobs, {
      get: (target, name) =>
        name === 'put'
          ? () => Promise.reject(new Error('disk full'))
          : (Reflect.get(target, name) as () => unknown).bind(target),
    });
    await expect(processItem({ ...deps(), blobs: refusing }, item)).rejects.toThrow('disk full');
    expect(published).toEqual([]);
  });

  it('an ffprobe that hangs is killed at its timeout, and the item is thrown back to the queue as a tool error', async () => {
    const item = await storedVideo('clip.mp4', 'video/mp4', [
      ...testClipArgs({ seconds: 1, audio: false }),
      ...H264_ARGS,
    ]);
    await withHangingTool(
      'ffprobe',
      (hang) => hang,
      async () => {
        const started = Date.now();
        const err = (await processItem(
          { ...deps(), limits: { ...DEFAULT_LIMITS, probeTimeoutSeconds: 1 } },
          item,
        ).catch((e: unknown) => e)) as Error;
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(err.message).toBe('clip.mp4: ffprobe cannot read it: did not finish within 1 s; killed');
        expect(err.cause).toMatchObject({ name: 'MediaError', kind: 'tool' });
        expect(published).toEqual([]);
      },
    );
  });

  itWithFixtures('a photo over the size limit fails as too large before its bytes are fetched', async () => {
    const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), 'image/jpeg', 'photo', 'jobs.jpeg');
    const fetching = new Proxy(blobs, {
      get: (target, name) =>
        name === 'get'
          ? () => Promise.reject(new Error('fetched'))
          : (Reflect.get(target, name) as () => unknown).bind(target),
    });
    expect(
      await processItem({ ...deps(), blobs: fetching, limits: { ...DEFAULT_LIMITS, maxImageBytes: 100_000 } }, item),
    ).toBe('failed');
    expect(published[0].headers?.[DLQ_REASON_HEADER]).toMatch(
      /^jobs\.jpeg: 0\.\d+ MiB is more than the 0\.095 MiB a photo may have$/,
    );
  });

  it('a 300 MB JPEG (a photo with a long tail) is processed in a child process whose memory grows by far less than its size', async () => {
    const photo = await (await cornerImage(1200, 800)).jpeg().toBuffer();
    const size = 300 * 1024 ** 2;
    const zeros = Buffer.alloc(1024 ** 2);
    const tail = Readable.from(
      (function* () {
        yield photo;
        for (let sent = photo.length; sent < size; sent += zeros.length)
          yield zeros.subarray(0, Math.min(zeros.length, size - sent));
      })(),
    );
    const big = await stored(Buffer.alloc(0), 'image/jpeg', 'photo', 'long.jpg');
    await blobs.put(big.originalKey, tail, { contentType: 'image/jpeg' });
    expect((await blobs.head(big.originalKey))?.size).toBe(size);
    const warmUp = await stored(photo, 'image/jpeg', 'photo', 'warm-up.jpg');
    const { outcome, baseline, peak, warmUpPeak } = await processInChild(warmUp, big);
    const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
    console.log(`300 MB JPEG: child RSS ${mib(baseline)} → peak ${mib(peak)}; same picture alone: ${mib(warmUpPeak)}`);
    expect(outcome).toBe('processed');
    // The same picture alone costs the analysis' working memory; the long tail adds only what
    // streams churn until the collector runs: tens of megabytes, whatever the file's size.
    expect(peak - warmUpPeak).toBeLessThan(size / 3);
    await blobs.delete(big.originalKey);
  }, 120_000);

  describe('decompression bombs and costly videos (hostile input)', () => {
    const reasonOf = () => published.at(-1)?.headers?.[DLQ_REASON_HEADER];

    it("a 0.7 MB PNG of 16000x16000 (within libvips' own limit, beyond one item's memory share) is refused from its header, with bounded memory", async () => {
      const png = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: 'black' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(png.length).toBeLessThan(1024 ** 2);
      const bomb = await stored(png, 'image/png', 'photo', 'bomb.png');
      const warmUp = await stored(
        await (await cornerImage(120, 80)).png().toBuffer(),
        'image/png',
        'photo',
        'warm-up.png',
      );
      const started = Date.now();
      const { outcome, baseline, peak } = await processInChild(warmUp, bomb);
      expect(outcome).toBe('failed');
      expect(Date.now() - started).toBeLessThan(30_000);
      // Decoded it would be 768 MB (RGB) or 1 GiB (RGBA); refused, the child grows by little.
      expect(peak - baseline).toBeLessThan(64 * 1024 ** 2);
      expect(await processItem(deps(), bomb)).toBe('failed');
      expect(reasonOf()).toMatch(/^bomb\.png: cannot decode the image: .*exceeds pixel limit/i);
    }, 60_000);

    it('a JPEG whose header declares 60000x60000 is refused as too large at once', async () => {
      const jpeg = await (await cornerImage(64, 48)).jpeg().toBuffer();
      const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
      jpeg.writeUInt16BE(60000, sof + 5);
      jpeg.writeUInt16BE(60000, sof + 7);
      const started = Date.now();
      expect(await processItem(deps(), await stored(jpeg, 'image/jpeg', 'photo', 'huge.jpg'))).toBe('failed');
      expect(Date.now() - started).toBeLessThan(10_000);
      // Refused by the first reader of its header (the metadata's, or the decoder's).
      expect(reasonOf()).toMatch(/^huge\.jpg: .*exceeds pixel limit/i);
    });

    it('a HEIF whose header declares 20000x20000 is refused before any pixel is decoded, by libvips and by libheif', async () => {
      const avif = await (await cornerImage(64, 48)).avif().toBuffer();
      const ispe = avif.indexOf(Buffer.from('ispe'));
      expect(ispe).toBeGreaterThan(0);
      avif.writeUInt32BE(20000, ispe + 8); // after the box type: version and flags (4 bytes), then width and height
      avif.writeUInt32BE(20000, ispe + 12);
      expect(await processItem(deps(), await stored(avif, 'image/avif', 'photo', 'huge.avif'))).toBe('failed');
      expect(reasonOf()).toMatch(/^huge\.avif: .*(exceeds pixel limit|is more than the \d+ megapixels)/i);
      // libheif (the HEVC path) reads the size from the header and refuses before decoding.
      await expect(decodeHeifPrimary(avif, 'huge.avif', 50e6)).rejects.toMatchObject({
        kind: 'too-large',
        message:
          "huge.avif: 20000x20000 is more than the 50 megapixels a picture may have here (the worker's memory per item)",
      });
    });

    it("a BMP whose header declares 30000x30000 is refused from that size before ffmpeg decodes it (the item's share)", async () => {
      const bmp = await encoded('small.bmp', [...TEST_FRAME_ARGS]);
      bmp.writeInt32LE(30000, 18); // BITMAPINFOHEADER: width, then height
      bmp.writeInt32LE(30000, 22);
      const started = Date.now();
      expect(await processItem(deps(), await stored(bmp, 'image/bmp', 'photo', 'huge.bmp'))).toBe('failed');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(reasonOf()).toBe(
        "huge.bmp: 30000x30000 is more than the 37 megapixels a picture may have here (the worker's memory per item)",
      );
    });

    it("a video of 10240x5760 (beyond the frames ffmpeg may decode in one item's share) is refused from its probed size, quickly", async () => {
      const item = await storedVideo('wide.mp4', 'video/mp4', [
        ...['-f', 'lavfi', '-i', 'color=c=black:size=10240x5760:rate=1', '-frames:v', '1'],
        ...H264_ARGS,
      ]);
      const started = Date.now();
      expect(await processItem(deps(), item)).toBe('failed');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(reasonOf()).toBe(
        "wide.mp4: 10240x5760 is more than the 37 megapixels a picture may have here (the worker's memory per item)",
      );
    }, 60_000);

    it('ffmpeg itself refuses a frame beyond -max_pixels (a size the probe did not see), as too large', async () => {
      const file = join(work.path, 'clip.mp4');
      await ffmpeg([...testClipArgs({ seconds: 1 }), file]);
      try {
        await expect(
          grabFrame(file, 0, 'clip.mp4', { timeoutSeconds: 30, maxPixels: 320 * 240 - 1, threads: 1 }),
        ).rejects.toMatchObject({
          kind: 'too-large',
          message: expect.stringMatching(/exceeds specified max pixel count/),
        });
        // At the limit it decodes.
        expect(
          (await grabFrame(file, 0, 'clip.mp4', { timeoutSeconds: 30, maxPixels: 320 * 240, threads: 1 }))!.length,
        ).toBeGreaterThan(0);
      } finally {
        await rm(file);
      }
    }, 30_000);

    it('a video whose transcode outlasts its budget (from its duration and size) has ffmpeg killed and is FAILED, not retried', async () => {
      const item = await storedVideo('slow.mkv', 'video/x-matroska', MKV_ARGS);
      // ffmpeg as a hostile file makes it: the transcode (the one run with +faststart) never ends; frames are grabbed for real.
      const real = (await execFileAsync('sh', ['-c', 'command -v ffmpeg'])).stdout.trim();
      const script = (hang: string) => `case "$*" in *faststart*) ${hang};; esac\nexec '${real}' "$@"`;
      await withHangingTool('ffmpeg', script, async () => {
        const started = Date.now();
        // 1 s of 320x240 at 2 s per second of video: the floor, 3 s, is its budget.
        const limits = { ...DEFAULT_LIMITS, transcodeMinSeconds: 3, transcodeSecondsPer1080pSecond: 2 };
        expect(await processItem({ ...deps(), limits }, item)).toBe('failed');
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(reasonOf()).toMatch(
          /^slow\.mkv: making a copy browsers play took longer than its budget of 3 s \(1(\.\d+)? s at 320x240\); ffmpeg was killed$/,
        );
      });
    }, 60_000);
  });

  it('an item whose original is gone (purged meanwhile) is skipped', async () => {
    const item = await stored(Buffer.from('x'), 'image/jpeg', 'photo', 'x.jpg');
    await blobs.delete(item.originalKey);
    expect(await processItem(deps(), item)).toBe('gone');
    expect(published).toEqual([]);
  });
});
