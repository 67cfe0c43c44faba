import { randomUUID } from 'node:crypto';
import { AppError } from '@trove/kit';
import type { MediaItemProcessedV1, MediaPlaceV1 } from '@trove/proto-events';
import { processedResult, workerPlace } from '../places-things/processed.fake';
import { newTestServices } from '../test-services.fake';
import type { PeopleNames } from './people';

/** People by item: what the people domain would answer. */
class FakePeople implements PeopleNames {
  readonly names = new Map<string, string[]>();
  async namesOf(_userId: string, mediaItemId: string): Promise<string[]> {
    return this.names.get(mediaItemId) ?? [];
  }
}

// Both ways the repository answers queries: from each user's items held in memory (the embedded
// store's default) and from the store's own matching (MongoDB's way, here on the embedded SQLite store).
describe.each([
  ['items in memory', true],
  ['the store matching', false],
])(
  'search (index, matching, ranking, visibility) on the embedded store and a fake media service, %s',
  (_how, inMemory) => {
    const people = new FakePeople();
    const t = newTestServices({ searchInMemory: inMemory, names: people });
    const alice = randomUUID();
    const bob = randomUUID();
    const mumbai = workerPlace('Mumbai', 'Maharashtra', 'India', { town: 'Bandra', countryCode: 'IN' });
    const paris = workerPlace('Paris', 'Île-de-France', 'France');

    beforeEach(() => people.names.clear());

    interface Found {
      taken?: string;
      place?: MediaPlaceV1 | null;
      things?: string[];
      words?: string[];
      camera?: [string, string];
    }
    const result = (userId: string, id: string, found: Found): MediaItemProcessedV1 => {
      const r = processedResult(userId, id, found.taken ?? '2024-06-01T12:00:00+02:00', {
        place: found.place,
        things: found.things,
      });
      if (found.place === undefined) delete r.place;
      if (found.words) r.words = found.words;
      if (found.camera) r.metadata = { ...r.metadata, cameraMake: found.camera[0], cameraModel: found.camera[1] };
      return r;
    };
    /** An item of the user's with these texts, processed with what the worker found. */
    const item = async (
      userId: string,
      texts: { filename?: string; description?: string | null },
      found: Found = {},
      id = randomUUID(),
    ) => {
      t.media.add(userId, id, texts);
      await t.search.itemProcessed(result(userId, id, found));
      return id;
    };
    const find = (q: string, userId = alice, page = 1, limit = 15) => t.search.search(userId, q, page, limit);

    it('finds an item by each of its fields, folded and by word beginnings', async () => {
      const heic = await item(
        alice,
        { filename: 'IMG_0543.HEIC', description: 'Dinner at Café Madras' },
        {
          taken: '2022-04-03T12:56:11.991+05:30',
          place: mumbai,
          things: ['Pizza', 'Dining Table'],
          camera: ['Apple', 'iPhone 12 mini'],
        },
      );
      const card = await item(
        alice,
        { filename: 'card.png' },
        { words: ['HAPPY', 'BIRTHDAY', 'GRANDMA'], place: paris },
      );
      for (const q of [
        'img_0543',
        '0543',
        'heic',
        'cafe',
        'CAFÉ',
        'madras',
        'apple',
        'iphone 12',
        '2022',
        'april',
        'april 2022',
        '3 april',
        'mumbai',
        'Mumb',
        'bandra',
        'maharashtra',
        'india',
        'pizza',
        'dining table',
        'din',
      ]) {
        expect([q, await find(q)]).toEqual([q, [heic]]);
      }
      for (const q of ['birthday', 'grandma birthday', 'ile-de-france', 'ÎLE', 'paris', 'fra'])
        expect([q, await find(q)]).toEqual([q, [card]]);
      expect(await find('pizza paris')).toEqual([]);
      expect(await find('mu')).toEqual([]);
      expect(await find('mumbaix')).toEqual([]);
      expect(await find('2024')).toEqual([card]);
    });

    it('refuses a query without a word', async () => {
      for (const q of ['', '   ', '!?', '— …']) {
        await expect(find(q)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
        await expect(find(q)).rejects.toBeInstanceOf(AppError);
      }
    });

    it('ranks more matched fields first, then whole words, then the newest', async () => {
      const old = await item(alice, { filename: 'a.jpg' }, { taken: '2020-01-01T00:00:00Z', things: ['Cat'] });
      const recent = await item(alice, { filename: 'b.jpg' }, { taken: '2023-01-01T00:00:00Z', things: ['Cat'] });
      const prefix = await item(
        alice,
        { filename: 'c.jpg', description: 'catalogue' },
        { taken: '2024-01-01T00:00:00Z' },
      );
      const twoFields = await item(alice, { filename: 'cat.jpg' }, { taken: '2019-01-01T00:00:00Z', things: ['Cat'] });
      expect(await find('cat')).toEqual([twoFields, recent, old, prefix]);
      expect(await find('cat', alice, 2, 3)).toEqual([prefix]);
    });

    it('pages through many matches in the same order as one page of them all', async () => {
      for (let i = 0; i < 40; i++) {
        const things = i % 3 === 0 ? ['Cat'] : i % 3 === 1 ? ['Catamaran'] : [];
        await item(
          alice,
          { filename: i % 2 === 0 ? `cat${i}.jpg` : `cat.jpg`, description: i % 5 === 0 ? 'a cat' : null },
          { taken: `20${10 + (i % 7)}-01-01T00:00:00Z`, things },
        );
      }
      const all = await find('cat', alice, 1, 100);
      expect(all).toHaveLength(40);
      const pages: string[] = [];
      for (let page = 1; page <= 20; page++) pages.push(...(await find('cat', alice, page, 2)));
      expect(pages).toEqual(all);
    });

    it('leaves trashed and hidden items out, and finds them again once restored', async () => {
      const id = await item(alice, { filename: 'beach.jpg' });
      t.media.set(id, { trashed: true });
      await t.search.itemChanged(alice, id);
      expect(await find('beach')).toEqual([]);
      t.media.set(id, { trashed: false, hidden: true });
      await t.search.itemChanged(alice, id);
      expect(await find('beach')).toEqual([]);
      t.media.set(id, { hidden: false });
      await t.search.itemChanged(alice, id);
      expect(await find('beach')).toEqual([id]);
    });

    it('follows description edits, never going back to an older read', async () => {
      const id = await item(alice, { filename: 'x.jpg', description: 'lake' });
      t.media.set(id, { description: 'Sunset over the lagoon' });
      await t.search.itemChanged(alice, id);
      expect(await find('lagoon')).toEqual([id]);
      expect(await find('lake')).toEqual([]);
      // A late processed result reads the media service again: the description stays.
      await t.search.itemProcessed(result(alice, id, {}));
      expect(await find('lagoon')).toEqual([id]);
    });

    it('keeps what an item had when a result does not say (a worker without that component)', async () => {
      const id = await item(alice, { filename: 'x.jpg' }, { place: mumbai, things: ['Pizza'], words: ['OPEN'] });
      await t.search.itemProcessed(result(alice, id, {}));
      expect(await find('mumbai pizza open')).toEqual([id]);
      await t.search.itemProcessed(result(alice, id, { place: null, things: [], words: [] }));
      expect(await find('mumbai')).toEqual([]);
      expect(await find('pizza')).toEqual([]);
      expect(await find('open')).toEqual([]);
    });

    it("answers only the caller's items", async () => {
      const mine = await item(alice, { filename: 'pizza.jpg' });
      const theirs = await item(bob, { filename: 'pizza.jpg' });
      expect(await find('pizza', alice)).toEqual([mine]);
      expect(await find('pizza', bob)).toEqual([theirs]);
    });

    it('adds the names of the people in an item, and follows renames', async () => {
      const id = randomUUID();
      people.names.set(id, ['Zoë Ann']);
      await item(alice, { filename: 'x.jpg' }, {}, id);
      expect(await find('zoe')).toEqual([id]);
      people.names.set(id, ['Marie-Claire']);
      await t.search.peopleChanged(alice, [id]);
      expect(await find('zoe')).toEqual([]);
      expect(await find('marie claire')).toEqual([id]);
      // Not indexed yet: nothing to change (the result's processing asks for the names itself).
      await t.search.peopleChanged(alice, [randomUUID()]);
    });

    it('forgets purged items; a late result for one is not indexed', async () => {
      const id = await item(alice, { filename: 'gone.jpg' });
      t.media.purge(id);
      await t.search.itemChanged(alice, id);
      expect(await find('gone')).toEqual([]);
      await t.search.itemProcessed(result(alice, id, { things: ['Gone'] }));
      t.media.add(alice, id, { filename: 'gone.jpg' }); // even if the media service answered again, nothing of it is left
      expect(await find('gone')).toEqual([]);
    });

    it('forgets a deleted user, also when a result comes late', async () => {
      await item(alice, { filename: 'mine.jpg' });
      const other = await item(bob, { filename: 'mine.jpg' });
      await t.search.userDeleted(alice);
      expect(await find('mine')).toEqual([]);
      await item(alice, { filename: 'mine.jpg' });
      expect(await find('mine')).toEqual([]);
      expect(await find('mine', bob)).toEqual([other]);
    });

    it('answers the same after a restart, from what the store holds, and follows changes made since', async () => {
      const beach = await item(alice, { filename: 'beach.jpg' }, { taken: '2021-01-01T00:00:00Z' });
      const dunes = await item(
        alice,
        { filename: 'dunes.jpg', description: 'beach at dusk' },
        { taken: '2020-01-01T00:00:00Z' },
      );
      expect(await find('beac')).toEqual([beach, dunes]);
      await t.restart();
      expect(await find('beac')).toEqual([beach, dunes]);
      t.media.set(beach, { trashed: true });
      await t.search.itemChanged(alice, beach);
      const later = await item(alice, { filename: 'beachball.png' }, { taken: '2022-01-01T00:00:00Z' });
      expect(await find('beac')).toEqual([later, dunes]);
      await t.search.itemPurged(alice, dunes);
      expect(await find('beac')).toEqual([later]);
    });
  },
);
