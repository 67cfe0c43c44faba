import { encodeEmbedding } from '@trove/proto-events';
import type { MediaItemProcessedV1 } from '@trove/proto-events';
import { processedResult } from '../places-things/processed.fake';
import { newTestServices } from '../test-services.fake';
import type { TestServices } from '../test-services.fake';
import { faceOf, randomPerson, seeded } from './synthetic.fake';

/**
 * A new item's faces are grouped against the user's known faces read a page at a time, and a
 * regroup reads them so too: the people must come out the same whatever the page size (pages of
 * two faces here, against one page for the whole library), faces of several items and several per
 * item crossing page ends.
 */
describe('grouping and regrouping read the known faces a page at a time', () => {
  const whole = newTestServices();
  const paged = newTestServices({ people: { facePageSize: 2 } });
  const userId = 'a5a5a5a5-0000-4000-8000-000000000001';
  const itemId = (n: number) => `0000000${n % 10}-${String(n).padStart(4, '0')}-4000-8000-000000000000`;

  /** Photos of five people, one to three faces each, the same in both libraries (seeded). */
  function results(): MediaItemProcessedV1[] {
    const random = seeded(7);
    const people = Array.from({ length: 5 }, () => randomPerson(random));
    return Array.from({ length: 24 }, (_, n) => {
      const who = [
        people[n % 5]!,
        ...(n % 3 === 0 ? [people[(n + 2) % 5]!] : []),
        ...(n % 4 === 0 ? [people[4]!] : []),
      ];
      return {
        ...processedResult(userId, itemId(n), `2024-06-${String((n % 28) + 1).padStart(2, '0')}T12:00:00Z`),
        faces: [...new Set(who)].map((person, i) => ({
          box: { x: i / 10, y: 0.1, width: 0.1, height: 0.1 },
          score: 0.9 - i / 100,
          embedding: encodeEmbedding(faceOf(person, random)),
          thumbnailKey: `media/${userId}/${itemId(n)}/faces/${i}.webp`,
        })),
      };
    });
  }

  /** Each person as the sorted list of their items (people ids are random), all of them sorted. */
  async function grouped(t: TestServices): Promise<string[]> {
    const people = await t.people.list(userId, 1, 100);
    const items = await Promise.all(
      people.map(async (p) => (await t.people.itemIds(userId, p.id, 1, 100)).sort().join(' ')),
    );
    return items.sort();
  }

  it('gives every face the same person with pages of two faces as with one page', async () => {
    for (const t of [whole, paged])
      for (const result of results()) {
        t.media.add(userId, result.mediaItemId);
        await t.placesThings.itemProcessed(result);
        await t.people.itemProcessed(result);
      }
    // The same results again (a job's rerun): each item's earlier faces are found across pages and replaced in place.
    for (const result of results().slice(0, 6)) await paged.people.itemProcessed(result);
    const expected = await grouped(whole);
    expect(expected).toHaveLength(5);
    expect(await grouped(paged)).toEqual(expected);
    // Regrouping reads them a page at a time too: the same people again.
    const [wholeCounts, pagedCounts] = [await whole.people.regroup(userId), await paged.people.regroup(userId)];
    expect(pagedCounts).toEqual(wholeCounts);
    expect(await grouped(paged)).toEqual(await grouped(whole));
  });
});
