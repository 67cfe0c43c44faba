import { itemsNewestFirst, makeItem } from '../../test/fixtures';
import {
  applyFirstPage,
  applyPage,
  compareNewest,
  insertItems,
  mergeItems,
  nextPage,
  pendingIds,
  removeItems,
  updateItems,
} from './media-store';
import type { StoreState } from './media-store';

const empty: StoreState = { items: [], complete: false };
const ids = (s: StoreState) => s.items.map((i) => i.id);

describe('media store', () => {
  it('merges pages by id, newest first, and knows the list is complete after a short page', () => {
    const all = itemsNewestFirst(5);
    let s = applyPage(empty, all.slice(0, 2), 2, 'newest');
    expect(s.complete).toBe(false);
    // An overlapping page (the list grew at the top meanwhile) brings no duplicates.
    s = applyPage(s, all.slice(1, 3), 2, 'newest');
    expect(ids(s)).toEqual(all.slice(0, 3).map((i) => i.id));
    s = applyPage(s, all.slice(3, 4), 2, 'newest');
    expect(s.complete).toBe(true);
  });

  it('continues the held prefix with floor(count / limit) + 1', () => {
    expect(nextPage(0, 100)).toBe(1);
    expect(nextPage(99, 100)).toBe(1);
    expect(nextPage(100, 100)).toBe(2);
    expect(nextPage(203, 100)).toBe(3);
  });

  it('keeps the given order for albums and appends new items', () => {
    const [a, b, c] = itemsNewestFirst(3);
    expect(mergeItems([c, a], [b, a], 'as-given').map((i) => i.id)).toEqual([c.id, a.id, b.id]);
  });

  it('replaces items with fresher copies and re-sorts a processed item by its real date', () => {
    const [a, b, c] = itemsNewestFirst(3);
    const s: StoreState = { items: [a, b, c], complete: true };
    const processed = { ...a, status: 'READY' as const, creationTime: '2001-01-01T00:00:00.000Z' };
    expect(ids(updateItems(s, [processed], 'newest'))).toEqual([b.id, c.id, a.id]);
    expect(updateItems(s, [makeItem()], 'newest')).toBe(s);
  });

  it('removes items and lists the ones still processing', () => {
    const [a, b] = itemsNewestFirst(2);
    const s: StoreState = { items: [a, { ...b, status: 'PROCESSING' }], complete: false };
    expect(ids(removeItems(s, new Set([a.id])))).toEqual([b.id]);
    expect(pendingIds(s.items)).toEqual([b.id]);
  });

  it('inserts just-uploaded items only where they fall within the part held', () => {
    const held = itemsNewestFirst(3, Date.parse('2024-06-24T12:00:00Z'));
    const s: StoreState = { items: held, complete: false };
    const newer = makeItem({ creationTime: '2024-06-25T00:00:00.000Z' });
    const older = makeItem({ creationTime: '2001-01-01T00:00:00.000Z' });
    expect(ids(insertItems(s, [newer, older], 'newest'))).toEqual([newer.id, ...held.map((i) => i.id)]);
    // Once the whole list is held, anything goes in its place.
    expect(ids(insertItems({ ...s, complete: true }, [older], 'newest')).at(-1)).toBe(older.id);
  });

  it('takes a fresh first page as the truth about the top of the list', () => {
    const [a, b, c, d] = itemsNewestFirst(4);
    const s: StoreState = { items: [a, b, c, d], complete: false };
    // b left the list elsewhere; d is below the page and stays.
    const next = applyFirstPage(s, [a, c], 2, 'newest');
    expect(ids(next)).toEqual([a.id, c.id, d.id]);
    // A short first page is the whole list.
    expect(ids(applyFirstPage(s, [a], 2, 'newest'))).toEqual([a.id]);
    expect(applyFirstPage(s, [a], 2, 'newest').complete).toBe(true);
  });

  it('orders ties by id', () => {
    const x = makeItem({ id: '00000000-0000-4000-8000-00000000000a', creationTime: '2024-01-01T00:00:00Z' });
    const y = makeItem({ id: '00000000-0000-4000-8000-00000000000b', creationTime: '2024-01-01T00:00:00Z' });
    expect([y, x].sort(compareNewest)).toEqual([x, y]);
  });
});
