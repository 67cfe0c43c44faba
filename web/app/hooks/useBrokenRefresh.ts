/**
 * Thumbnails whose content URLs failed (their signatures expired while the page stayed open): the
 * items are asked for again, once each, gathered for a moment and at most `MAX_IDS_PER_ASK` a
 * request, and the fresh copies go to `update`.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { MediaItem } from '~/api/types';
import { getJson } from '~/lib/fetch-json.client';

/** Ids in one `GET /api/items?ids=` (the polls of items processing ask as many). */
export const MAX_IDS_PER_ASK = 50;
const GATHER_MS = 250;

export function useBrokenRefresh(update: (items: MediaItem[]) => void): (id: string) => void {
  const tried = useRef(new Set<string>());
  const waiting = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(update);
  latest.current = update;
  useEffect(() => () => clearTimeout(timer.current), []);

  return useCallback((id: string) => {
    if (tried.current.has(id)) return;
    tried.current.add(id);
    waiting.current.push(id);
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      while (waiting.current.length > 0) {
        const ids = waiting.current.splice(0, MAX_IDS_PER_ASK);
        getJson<{ items: MediaItem[] }>(`/api/items?ids=${ids.join(',')}`)
          .then(({ items }) => latest.current(items))
          .catch(() => undefined);
      }
    }, GATHER_MS);
  }, []);
}
