import { randomUUID } from 'node:crypto';
import type { BaseDoc, DocStore } from '@trove/kit';
import { docStorePerTest, waitFor } from '@trove/kit/testing';
import { PlacesThingsRepository } from './repository';
import type { PlaceFields } from './document';

describe('explore repository (NeDB)', () => {
  const db = docStorePerTest('explore');
  let repo: PlacesThingsRepository;
  const alice = randomUUID();
  const bob = randomUUID();
  const day = (d: number) => new Date(Date.UTC(2024, 5, d));
  const fields = (name: string): PlaceFields => ({
    name,
    town: null,
    city: name,
    state: null,
    country: 'France',
    countryCode: 'FR',
    postcode: null,
    latitude: 1,
    longitude: 2,
  });
  const visible = { hidden: false, trashed: false };

  beforeEach(async () => {
    repo = await PlacesThingsRepository.open(db.store);
  });

  /** A visible item of alice's in the place, taken on day `d`. */
  const itemIn = async (placeId: string, d: number, id = randomUUID()) => {
    await repo.fileItem(alice, id, day(d), { placeId });
    await repo.applyState(alice, id, visible, day(1));
    return id;
  };
  const summary = async (placeId: string) => {
    const p = await repo.group('place', alice, placeId);
    return { count: p?.mediaItemsCount, cover: p?.coverMediaItemId };
  };

  it('one place per user and key, also when created at the same moment', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => repo.placeFor(alice, 'k', fields('Paris'))));
    expect(new Set(ids).size).toBe(1);
    expect(await repo.placeFor(bob, 'k', fields('Paris'))).not.toBe(ids[0]);
    expect(await repo.thingFor(alice, 'k', 'Pizza')).not.toBe(ids[0]);
  });

  it('a state read earlier than the one stored is ignored; the same one again is applied; a retired item stays invisible', async () => {
    const place = await repo.placeFor(alice, 'k', fields('Paris'));
    const id = randomUUID();
    await repo.fileItem(alice, id, day(1), { placeId: place });
    expect((await repo.item(alice, id))?.visible).toBe(false);
    expect(await repo.applyState(alice, id, { hidden: true, trashed: false }, day(5))).toMatchObject({
      hidden: true,
      visible: false,
    });
    expect(await repo.applyState(alice, id, visible, day(4))).toBeNull();
    expect(await repo.applyState(alice, id, { hidden: true, trashed: false }, day(5))).toMatchObject({ hidden: true });
    expect(await repo.applyState(alice, id, { hidden: false, trashed: true }, day(6))).toMatchObject({
      trashed: true,
      visible: false,
    });
    expect(await repo.applyState(bob, id, visible, day(7))).toBeNull();
    expect(await repo.applyState(alice, id, visible, day(7))).toMatchObject({ visible: true });
    await repo.retireItem(alice, id);
    expect(await repo.applyState(alice, id, visible, day(30))).toBeNull();
    expect((await repo.item(alice, id))?.visible).toBe(false);
  });

  it('a summary counts visible items and covers with the newest (ties by id); nothing for an unknown group', async () => {
    const place = await repo.placeFor(alice, 'k', fields('Paris'));
    const a = await itemIn(place, 3);
    const b = await itemIn(place, 7);
    const hidden = await itemIn(place, 9);
    await repo.applyState(alice, hidden, { hidden: true, trashed: false }, day(2));
    await repo.refreshSummary('place', alice, place);
    expect(await summary(place)).toEqual({ count: 2, cover: b });
    expect(await repo.visibleItemIds('place', alice, place, 0, 10)).toEqual([b, a]);
    const [x, y] = [randomUUID(), randomUUID()].sort();
    await itemIn(place, 8, x);
    await itemIn(place, 8, y);
    await repo.refreshSummary('place', alice, place);
    expect(await summary(place)).toEqual({ count: 4, cover: y });
    expect(await repo.visibleItemIds('place', alice, place, 0, 10)).toEqual([y, x, b, a]);
    await expect(repo.refreshSummary('place', alice, randomUUID())).resolves.toBeUndefined();
    await expect(repo.refreshSummary('place', bob, place)).resolves.toBeUndefined();
  });

  it('a refresh that read before a change and writes after a later refresh does not overwrite it', async () => {
    // A store whose next summary write of a place waits until released: the refresh that makes it has read already.
    let release: () => void = () => {};
    let armed = false;
    const gated: DocStore = {
      kind: db.store.kind,
      ping: () => db.store.ping(),
      close: async () => {},
      collection: <T extends BaseDoc>(name: string) => {
        const inner = db.store.collection<T>(name);
        if (name !== 'explore_places') return inner;
        const updateOne: typeof inner.updateOne = async (...args) => {
          if (armed) {
            armed = false;
            await new Promise<void>((resolve) => (release = resolve));
          }
          return inner.updateOne(...args);
        };
        return Object.assign(Object.create(inner) as typeof inner, { updateOne });
      },
    };
    const racing = await PlacesThingsRepository.open(gated);
    const place = await racing.placeFor(alice, 'k', fields('Paris'));
    const id = await itemIn(place, 1);
    armed = true;
    const stale = racing.refreshSummary('place', alice, place); // reads count 1, then waits
    await waitFor(async () => armed === false, { what: 'the first refresh to reach its write' });
    await racing.applyState(alice, id, { hidden: true, trashed: false }, day(2));
    await racing.refreshSummary('place', alice, place);
    expect(await summary(place)).toEqual({ count: 0, cover: null });
    release();
    await stale;
    expect(await summary(place)).toEqual({ count: 0, cover: null });
  });

  it('lists only groups with a visible item: most items first, then by name, page by page', async () => {
    const [lyon, nice, paris, empty] = await Promise.all(
      ['Lyon', 'nice', 'Paris', 'Empty'].map((n) => repo.placeFor(alice, n, fields(n))),
    );
    for (const [place, count] of [
      [lyon!, 1],
      [nice!, 2],
      [paris!, 2],
    ] as const) {
      for (let i = 0; i < count; i++) await itemIn(place, i + 1);
      await repo.refreshSummary('place', alice, place);
    }
    await repo.refreshSummary('place', alice, empty!);
    const names = async (skip: number, limit: number) =>
      (await repo.listGroups('place', alice, skip, limit)).map((p) => p.name);
    expect(await names(0, 10)).toEqual(['nice', 'Paris', 'Lyon']);
    expect(await names(1, 1)).toEqual(['Paris']);
    expect(await repo.listGroups('place', bob, 0, 10)).toEqual([]);
  });

  it("deleting a user's data leaves other users' alone and remembers the deletion", async () => {
    const mine = await repo.placeFor(alice, 'k', fields('Paris'));
    const theirs = await repo.placeFor(bob, 'k', fields('Paris'));
    const thing = await repo.thingFor(alice, 'pizza', 'Pizza');
    const id = await itemIn(mine, 1);
    await repo.markUserDeleted(alice);
    await repo.deleteUserData(alice);
    expect(await repo.isUserDeleted(alice)).toBe(true);
    expect(await repo.isUserDeleted(bob)).toBe(false);
    expect([
      await repo.group('place', alice, mine),
      await repo.group('thing', alice, thing),
      await repo.item(alice, id),
    ]).toEqual([null, null, null]);
    expect((await repo.group('place', bob, theirs))?.name).toBe('Paris');
  });
});
