/**
 * Work items that ask for a subset of the components (an owner's features, a job): only those run,
 * the result says which it carries, an unknown name is skipped and logged, and a job's work reports
 * under its own de-duplication id and never dead-letters a file.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jobItemDoneEvent, mediaBlobKey, mediaProcessedEvent } from '@trove/proto-events';
import type { MediaItemProcessedV1, MessageContract, ProcessMediaItemV1 } from '@trove/proto-events';
import { openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { FIXTURES, itWithFixtures } from '@trove/kit/testing/media';
import { selectComponents } from './components';
import { reportJobItem } from './job-item';
import { closeExifTool } from '../components/metadata';
import { processItem } from './process';
import { recordingLog } from './work-item.fake';

// ExifTool's processes (the metadata reads start them) end with the suite, not with jest's worker: each test file has a pool of its own.
afterAll(() => closeExifTool());

let dir: TempDir;
let blobs: BlobStore;
let published: Array<{ subject: string; payload: unknown; msgId: string }>;
const lines: string[] = [];
const log = recordingLog(lines);

beforeAll(async () => {
  dir = await tempDir('trove-worker-components-');
  blobs = await openBlobStore({ dataDir: dir.path });
});
afterAll(() => dir.remove());
beforeEach(() => {
  published = [];
  lines.length = 0;
});

const events = {
  async publish<P>(contract: MessageContract<P>, payload: P, opts: { msgId: string }) {
    published.push({ subject: contract.subject, payload, msgId: opts.msgId });
  },
};
const deps = () => ({ blobs, log, events, tempRoot: dir.path });

async function stored(data: Buffer, extra: Partial<ProcessMediaItemV1>): Promise<ProcessMediaItemV1> {
  const userId = randomUUID();
  const mediaItemId = randomUUID();
  const originalKey = mediaBlobKey(userId, mediaItemId, 'original');
  await blobs.put(originalKey, Readable.from(data), { contentType: 'image/jpeg' });
  return {
    userId,
    mediaItemId,
    originalKey,
    mimeType: 'image/jpeg',
    mediaItemType: 'photo',
    filename: 'jobs.jpeg',
    ...extra,
  };
}

const result = () => published.find((p) => p.subject === mediaProcessedEvent.subject)?.payload as MediaItemProcessedV1;

describe('component subsets', () => {
  it('without a list every component runs and the result is a full one', () => {
    const all = selectComponents(
      {
        userId: randomUUID(),
        mediaItemId: randomUUID(),
        originalKey: 'k',
        mimeType: 'image/jpeg',
        mediaItemType: 'photo',
        filename: 'a',
      },
      log,
    );
    expect(['metadata', 'previews', 'places', 'things', 'faces'].every((c) => all.runs(c))).toBe(true);
    expect(all.carried).toBeUndefined();
  });

  itWithFixtures(
    'places only: no previews are made or stored, no things; the result carries places and its place',
    async () => {
      const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), { components: ['places'] });
      expect(await processItem(deps(), item)).toBe('processed');
      expect(result()).toMatchObject({ components: ['places'], place: expect.objectContaining({ country: 'India' }) });
      expect(result().things).toBeUndefined();
      expect(await blobs.head(mediaBlobKey(item.userId, item.mediaItemId, 'preview'))).toBeNull();
    },
  );

  itWithFixtures(
    'things and a component this worker does not have: things found, the unknown one skipped and logged, no place, no previews stored',
    async () => {
      const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), { components: ['things', 'telepathy'] });
      // Its best thing (a donut, says the model) scores just under the default threshold.
      expect(await processItem({ ...deps(), thingsMinScore: 0.5 }, item)).toBe('processed');
      expect(result().components).toEqual(['things']);
      expect(result().things?.map((t) => t.label)).toEqual(['Donut']);
      expect(result().place).toBeUndefined();
      expect(await blobs.head(mediaBlobKey(item.userId, item.mediaItemId, 'thumbnail'))).toBeNull();
      const skipped = lines
        .map((l) => JSON.parse(l) as { msg: string; unknown?: string[] })
        .find((l) => l.msg.startsWith('components this worker does not have'));
      expect(skipped?.unknown).toEqual(['telepathy']);
    },
  );

  itWithFixtures(
    "a job's work: the result names the job under its own de-duplication id, and the job hears the item is done",
    async () => {
      const jobId = randomUUID();
      const item = await stored(await readFile(join(FIXTURES, 'jobs.jpeg')), { components: ['metadata'], jobId });
      const outcome = await processItem(deps(), item);
      await reportJobItem(events, item, outcome);
      expect(published.map((p) => [p.subject, p.msgId])).toEqual([
        [mediaProcessedEvent.subject, `processed-${item.mediaItemId}-${jobId}`],
        [jobItemDoneEvent.subject, `job-item-${jobId}-${item.mediaItemId}`],
      ]);
      expect(result()).toMatchObject({ jobId, components: ['metadata'] });
    },
  );

  itWithFixtures(
    "a job's work on a file broken for good is not dead-lettered (the item keeps its state); the job hears it failed",
    async () => {
      const jobId = randomUUID();
      const header = (await readFile(join(FIXTURES, 'jobs.jpeg'))).subarray(0, 20);
      const item = await stored(Buffer.concat([header, randomBytes(20 * 1024)]), { components: ['metadata'], jobId });
      const outcome = await processItem(deps(), item);
      expect(outcome).toBe('failed');
      await reportJobItem(events, item, outcome);
      expect(published).toEqual([
        {
          subject: jobItemDoneEvent.subject,
          payload: { userId: item.userId, jobId, mediaItemId: item.mediaItemId, outcome: 'failed' },
          msgId: `job-item-${jobId}-${item.mediaItemId}`,
        },
      ]);
    },
  );

  it('upload work (no job) reports nothing to jobs', async () => {
    await reportJobItem(events, await stored(Buffer.from('x'), {}), 'processed');
    expect(published).toEqual([]);
  });
});
