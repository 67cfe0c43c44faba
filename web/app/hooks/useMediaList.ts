/**
 * A list of media items in the browser: starts from the loader's first page, fetches the next pages
 * as the grid asks, polls items still processing until they are ready, and takes local changes
 * (removed by an action, updated, just uploaded) without a reload.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAGE_LIMIT } from '~/api/types';
import type { MediaItem } from '~/api/types';
import { getJson } from '~/lib/fetch-json.client';
import { pageUrl } from '~/lib/media-views';
import {
  applyFirstPage,
  applyPage,
  insertItems,
  nextPage,
  pendingIds,
  removeItems,
  updateItems,
} from '~/lib/media-store';
import type { Order, StoreState } from '~/lib/media-store';
import { MAX_IDS_PER_ASK, useBrokenRefresh } from './useBrokenRefresh';

/** How often items still processing are asked for again. */
export const POLL_MS = 2000;

export interface MediaList {
  items: MediaItem[];
  complete: boolean;
  loading: boolean;
  error: string | null;
  loadMore(): void;
  remove(ids: Iterable<string>): void;
  update(items: MediaItem[]): void;
  /** Fetches these (new) items and shows them where they belong. */
  addById(ids: string[]): void;
  /** Fetches fresh copies of items whose content URLs failed (expired signatures), once per item, batched. */
  refreshBroken(id: string): void;
}

export function useMediaList(opts: {
  viewQuery: string;
  initial: MediaItem[];
  order: Order;
  poll?: boolean;
}): MediaList {
  const { viewQuery, initial, order, poll = true } = opts;
  const [state, setState] = useState<StoreState>(() =>
    applyPage({ items: [], complete: false }, initial, PAGE_LIMIT, order),
  );
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const busy = useRef(false);
  /** A full page that brought nothing new: the next fetch skips past it. */
  const skipTo = useRef(0);
  const firstRender = useRef(true);
  const [pollTick, setPollTick] = useState(0);

  // The loader's first page changed (revalidation): take it as the truth about the top of the list.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    setState((s) => applyFirstPage(s, initial, PAGE_LIMIT, order));
  }, [initial, order]);

  const loadMore = useCallback(() => {
    if (busy.current || stateRef.current.complete) return;
    busy.current = true;
    setLoading(true);
    const before = stateRef.current.items.length;
    const page = Math.max(nextPage(before, PAGE_LIMIT), skipTo.current);
    getJson<{ items: MediaItem[] }>(pageUrl(viewQuery, page))
      .then(({ items }) => {
        setError(null);
        setState((s) => {
          const next = applyPage(s, items, PAGE_LIMIT, order);
          skipTo.current = next.items.length === s.items.length && items.length === PAGE_LIMIT ? page + 1 : 0;
          return next;
        });
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Could not load more items.'))
      .finally(() => {
        busy.current = false;
        setLoading(false);
      });
  }, [viewQuery, order]);

  // Items still processing: ask again until they are ready (or failed).
  const pendingKey = poll ? pendingIds(state.items).slice(0, MAX_IDS_PER_ASK).join(',') : '';
  useEffect(() => {
    if (!pendingKey) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<{ items: MediaItem[] }>(`/api/items?ids=${pendingKey}`, controller.signal)
        .then(({ items }) => setState((s) => updateItems(s, items, order)))
        .catch(() => undefined)
        // Items still processing keep the same key: the tick re-arms the timer.
        .finally(() => !controller.signal.aborted && setPollTick((t) => t + 1));
    }, POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pendingKey, order, pollTick]);

  const remove = useCallback((ids: Iterable<string>) => setState((s) => removeItems(s, new Set(ids))), []);
  const update = useCallback((items: MediaItem[]) => setState((s) => updateItems(s, items, order)), [order]);
  const addById = useCallback(
    (ids: string[]) => {
      if (ids.length === 0) return;
      getJson<{ items: MediaItem[] }>(`/api/items?ids=${ids.slice(0, MAX_IDS_PER_ASK).join(',')}`)
        .then(({ items }) => setState((s) => insertItems(s, items, order)))
        .catch(() => undefined);
    },
    [order],
  );

  const refreshBroken = useBrokenRefresh(update);

  return {
    items: state.items,
    complete: state.complete,
    loading,
    error,
    loadMore,
    remove,
    update,
    addById,
    refreshBroken,
  };
}
