import { randomUUID } from 'node:crypto';
import { listAlbumMediaItemsRpc, listSharedAlbumMediaItemsRpc, locateContentRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import { ownerOriginals, visitorOriginals } from './album-originals';

const owner = randomUUID();
const album = randomUUID();
const contributor = randomUUID();
const still = { id: randomUUID(), userId: owner, motionMediaItemId: randomUUID(), filename: 'IMG_7.HEIC' };
/** Added to the album by a member who contributes: it stays theirs. */
const plain = { id: randomUUID(), userId: contributor, motionMediaItemId: null, filename: 'IMG_8.jpg' };
const files: Record<string, string> = {
  [still.id]: 'IMG_7.HEIC',
  [still.motionMediaItemId]: 'IMG_7.MOV',
  [plain.id]: 'IMG_8.jpg',
};

/** Whose each file is (the media service's answer); a test may make one lie. */
const ownerOf = (id: string) => (id === plain.id ? contributor : owner);

/** The library's one page and the media service's locations, as the bus answers them. */
function fakeBus(calls: string[], locatedOwner = ownerOf): Bus {
  const item = (i: typeof still | typeof plain) => ({
    ...i,
    createdAt: '2024-06-24T19:02:41.000Z',
    metadata: { creationTime: '2024-06-24T18:15:12.000Z' },
  });
  return {
    request: async (contract: { subject: string }, payload: { id: string; userId?: string }) => {
      calls.push(`${contract.subject} ${payload.userId ?? 'visitor'}`);
      if (contract.subject === listAlbumMediaItemsRpc.subject) return { items: [item(still), item(plain)] };
      if (contract.subject === listSharedAlbumMediaItemsRpc.subject)
        return { userId: owner, items: [item(still), item(plain)] };
      if (contract.subject === locateContentRpc.subject)
        return {
          key: `k/${payload.id}`,
          filename: files[payload.id],
          userId: locatedOwner(payload.id),
          hidden: false,
          deleted: false,
        };
      throw new Error(`unexpected ${contract.subject}`);
    },
  } as unknown as Bus;
}

const all = async <T>(pages: AsyncIterable<T[]>) => {
  const out: T[] = [];
  for await (const page of pages) out.push(...page);
  return out;
};

describe("an album ZIP's entries", () => {
  it("the owner's: each original under its file name, a Live Photo's motion part right after its still", async () => {
    const calls: string[] = [];
    const entries = await all(ownerOriginals(fakeBus(calls), owner, album));
    expect(entries.map((e) => [e.name, e.key])).toEqual([
      ['IMG_7.HEIC', `k/${still.id}`],
      ['IMG_7.MOV', `k/${still.motionMediaItemId}`],
      ['IMG_8.jpg', `k/${plain.id}`],
    ]);
    expect(entries[0]!.mtime?.toISOString()).toBe('2024-06-24T18:15:12.000Z');
    // The list asked as the caller, each location as the item's own user; one page (fewer than a full page answered).
    expect(calls).toEqual([
      `${listAlbumMediaItemsRpc.subject} ${owner}`,
      `${locateContentRpc.subject} ${owner}`,
      `${locateContentRpc.subject} ${owner}`,
      `${locateContentRpc.subject} ${contributor}`,
    ]);
  });

  it("a visitor's: numbered with the original's extension, the motion part included, a contributor's item too", async () => {
    const entries = await all(visitorOriginals(fakeBus([]), album));
    expect(entries.map((e) => e.name)).toEqual(['0001.heic', '0001-motion.mov', '0002.jpg']);
    expect(entries[2]!.key).toBe(`k/${plain.id}`);
  });

  it("a visitor's stops at a file that is not the listed item's own", async () => {
    const stranger = randomUUID();
    await expect(
      all(
        visitorOriginals(
          fakeBus([], () => stranger),
          album,
        ),
      ),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
