import { randomUUID } from 'node:crypto';
import { createLogger } from '@trove/kit';
import { waitFor } from '@trove/kit/testing';
import { encodeEmbedding } from '@trove/proto-events';
import { processedResult } from '../places-things/processed.fake';
import { newTestServices } from '../test-services.fake';
import { DEFAULT_GROUPING } from './grouping';
import { RegroupWhenSettled } from './settle';
import type { SettleRules } from './settle';

const log = createLogger({ service: 'explore-test', level: 'silent' });

/** A unit vector at `degrees` from the first axis, in the plane of the first two (1024 dimensions). */
function direction(degrees: number): Float32Array {
  const v = new Float32Array(1024);
  v[0] = Math.cos((degrees * Math.PI) / 180);
  v[1] = Math.sin((degrees * Math.PI) / 180);
  return v;
}

describe('people regrouped once new faces settle', () => {
  const t = newTestServices();
  const alice = randomUUID();

  /** A photo of alice's with one face looking `degrees` away from the first one's. */
  const photo = async (degrees: number) => {
    const id = randomUUID();
    t.media.add(alice, id);
    const result = {
      ...processedResult(alice, id, '2024-06-01T12:00:00Z'),
      faces: [
        {
          box: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 },
          score: 0.9,
          quality: 0.9,
          embedding: encodeEmbedding(direction(degrees)),
          thumbnailKey: `media/${alice}/${id}/faces/0.webp`,
        },
      ],
    };
    await t.placesThings.itemProcessed(result);
    await t.people.itemProcessed(result);
  };
  const peopleCount = async () => (await t.people.list(alice, 1, 100)).length;

  // 0° and 60° are 0.5 apart (more than the 0.30 that makes two faces alike); 30° is 0.13 from each.
  // Arriving 0°, 60°, 30°, the incremental assignment makes two people; a regroup links all three.
  it('a photo linking two people arrived last: they become one person after the quiet time', async () => {
    expect(1 - Math.cos(Math.PI / 3)).toBeGreaterThan(DEFAULT_GROUPING.maxDistance);
    const regroups = new RegroupWhenSettled(t.people, { delayMs: 50, maxWaitMs: 1_000, maxFaces: 100 }, log);
    t.people.onFacesAdded((userId) => regroups.touch(userId));
    try {
      await photo(0);
      await photo(60);
      await photo(30);
      // Whatever already ran, the state needed is one person for the three photos.
      await waitFor(async () => (await peopleCount()) === 1, { what: 'the two people to merge' });
      expect((await t.people.list(alice, 1, 100))[0]!.mediaItemsCount).toBe(3);
    } finally {
      regroups.stop();
    }
  });
});

describe('RegroupWhenSettled', () => {
  /** A stand-in people service with `faces` faces, recording its regroups. */
  const people = (faces: number) => {
    const regrouped: string[] = [];
    const counted: string[] = [];
    return {
      regrouped,
      counted,
      faceCount: async (userId: string) => (counted.push(userId), faces),
      regroup: async (userId: string) => (regrouped.push(userId), { faces, people: 1 }),
    };
  };

  const started: RegroupWhenSettled[] = [];
  afterEach(() => started.splice(0).forEach((r) => r.stop()));
  /** A RegroupWhenSettled over a stand-in with `faces` faces (at most 10 regrouped; 10 ms of quiet unless said). */
  const settling = (faces: number, rules: Partial<SettleRules>) => {
    const p = people(faces);
    const regroups = new RegroupWhenSettled(p, { delayMs: 10, maxWaitMs: 1_000, maxFaces: 10, ...rules }, log);
    started.push(regroups);
    return { p, regroups };
  };

  it('new faces in a row make one regroup per user once they stop; later faces another', async () => {
    const { p, regroups } = settling(3, { delayMs: 30, maxWaitMs: 60_000 });
    for (let i = 0; i < 5; i++) regroups.touch('ann');
    regroups.touch('ben');
    expect(regroups.waiting).toBe(2);
    await waitFor(() => p.regrouped.length === 2, { what: 'both regroups' });
    expect(p.regrouped.sort()).toEqual(['ann', 'ben']);
    expect(regroups.waiting).toBe(0);
    regroups.touch('ann');
    await waitFor(() => p.regrouped.length === 3, { what: 'the next regroup' });
  });

  it('faces that keep coming still regroup within the longest wait', async () => {
    const { p, regroups } = settling(3, { delayMs: 60_000, maxWaitMs: 30 });
    regroups.touch('ann');
    regroups.touch('ann');
    await waitFor(() => p.regrouped.length === 1, { what: 'the capped wait' });
  });

  it('a library above the face limit is left to faces jobs; delay 0 and stop() schedule nothing', async () => {
    const { p, regroups } = settling(11, {});
    regroups.touch('ann');
    await waitFor(() => p.counted.length === 1 && regroups.waiting === 0, { what: 'the face count' });
    expect(p.regrouped).toEqual([]);
    regroups.stop();
    regroups.touch('ann');
    expect(regroups.waiting).toBe(0);
    const { regroups: off } = settling(3, { delayMs: 0 });
    off.touch('ann');
    expect(off.waiting).toBe(0);
  });
});
