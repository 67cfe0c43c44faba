/**
 * The loaded part of a list of media items. The API pages a list that can change under us (uploads
 * arrive at the top, items leave for the trash), so the store keeps a *prefix* of the server's list:
 * every page is merged by id, and the next page to fetch is computed from how many items are held
 * (`floor(count / limit) + 1`). Overlaps are de-duplicated, and since the prefix only ever grows
 * from the top or shrinks by items we removed ourselves, no item is skipped.
 */
import type { MediaItem } from '~/api/types';

export type Order = 'newest' | 'as-given';

export interface StoreState {
  items: MediaItem[];
  /** The server said there is nothing after these. */
  complete: boolean;
}

/** Newest `creationTime` first, then by id so ties are stable. */
export function compareNewest(a: MediaItem, b: MediaItem): number {
  if (a.creationTime !== b.creationTime) return a.creationTime < b.creationTime ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Merges fetched items (new ones added, known ones replaced by their fresher copy). */
export function mergeItems(current: MediaItem[], incoming: MediaItem[], order: Order): MediaItem[] {
  if (incoming.length === 0) return current;
  const byId = new Map(incoming.map((i) => [i.id, i]));
  const merged = current.map((i) => {
    const fresh = byId.get(i.id);
    if (!fresh) return i;
    byId.delete(i.id);
    return fresh;
  });
  merged.push(...byId.values());
  if (order === 'newest') merged.sort(compareNewest);
  return merged;
}

export function applyPage(state: StoreState, page: MediaItem[], limit: number, order: Order): StoreState {
  return { items: mergeItems(state.items, page, order), complete: state.complete || page.length < limit };
}

/** The page that continues the prefix held. */
export function nextPage(count: number, limit: number): number {
  return Math.floor(count / limit) + 1;
}

export function removeItems(state: StoreState, ids: ReadonlySet<string>): StoreState {
  return { ...state, items: state.items.filter((i) => !ids.has(i.id)) };
}

/**
 * Replaces known items with fresher copies; unknown ones are ignored (they belong to no loaded page).
 * A processed item may move (its `creationTime` now comes from its metadata), so newest-first lists
 * are sorted again.
 */
export function updateItems(state: StoreState, fresh: MediaItem[], order: Order = 'as-given'): StoreState {
  if (fresh.length === 0) return state;
  const byId = new Map(fresh.map((i) => [i.id, i]));
  let changed = false;
  const items = state.items.map((i) => {
    const f = byId.get(i.id);
    if (f && f !== i) {
      changed = true;
      return f;
    }
    return i;
  });
  if (!changed) return state;
  if (order === 'newest') items.sort(compareNewest);
  return { ...state, items };
}

/**
 * Adds items we learnt about outside paging (just uploaded): only those that fall within the part
 * of the list held (or anywhere once the whole list is held), so the held part stays a prefix.
 */
export function insertItems(state: StoreState, incoming: MediaItem[], order: Order): StoreState {
  if (incoming.length === 0) return state;
  const last = state.items[state.items.length - 1];
  const within = incoming.filter((i) => state.complete || !last || (order === 'newest' && compareNewest(i, last) <= 0));
  return within.length ? { ...state, items: mergeItems(state.items, within, order) } : state;
}

/** Items whose processing is not finished: the grid polls them until they are ready. */
export function pendingIds(items: MediaItem[]): string[] {
  return items.filter((i) => i.status === 'PROCESSING' || i.status === 'UNSPECIFIED').map((i) => i.id);
}

/**
 * Applies a fresh first page as the truth about the top of the list: besides merging it, items held
 * that would sit among its items but are missing from it left the list elsewhere (another tab, the
 * trash sweeper) and are dropped. A short first page is the whole list.
 */
export function applyFirstPage(state: StoreState, page: MediaItem[], limit: number, order: Order): StoreState {
  const ids = new Set(page.map((i) => i.id));
  let items = state.items;
  if (page.length < limit) {
    items = items.filter((i) => ids.has(i.id));
  } else if (order === 'newest') {
    const last = page.reduce((a, b) => (compareNewest(a, b) > 0 ? a : b));
    items = items.filter((i) => ids.has(i.id) || compareNewest(i, last) > 0);
  }
  return { items: mergeItems(items, page, order), complete: page.length < limit || state.complete };
}
