/**
 * The Photos page's virtual timeline in the browser: the library's months (GET /v1/timeline/buckets,
 * fetched after the first page is on screen), laid out whole (timeline-sections.ts), and the items
 * of only the part near the screen. Chunks of a month load as they come near the viewport, from
 * wherever it is (a jump, scrolling up or down), and are dropped again far from it, so the DOM and
 * the memory stay bounded whatever the library's size. It answers the same list interface as
 * useMediaList (the items held, in order) for the selection, the actions and the viewer.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { MediaItem } from '~/api/types';
import { getJson } from '~/lib/fetch-json.client';
import { pendingIds } from '~/lib/media-store';
import type { TimelineBucket } from '~/lib/timeline';
import {
  CHUNK,
  chunksOf,
  itemMonth,
  itemsInRange,
  layoutSections,
  monthsOfPage,
  sectionAt,
  sectionsInRange,
} from '~/lib/timeline-sections';
import type { SectionLayout } from '~/lib/timeline-sections';
import { MAX_IDS_PER_ASK, useBrokenRefresh } from './useBrokenRefresh';
import type { MediaList } from './useMediaList';
import { POLL_MS } from './useMediaList';

/** Chunks fetched at once. */
const MAX_IN_FLIGHT = 4;
/** After a chunk failed to load: when what the screen lacks is asked for again. */
const RETRY_MS = 3000;

type Slots = Array<MediaItem | undefined>;

export interface Timeline extends MediaList {
  /** The library's months, newest first (from the first page until the buckets are known). */
  months: TimelineBucket[];
  bucketsLoaded: boolean;
  layout: SectionLayout;
  /** Item `index` of `month`, when held. */
  slot(month: string, index: number): MediaItem | undefined;
  /** Where an item held is: its month's index and its index in the month. */
  locate(id: string): [number, number] | null;
  /** The month at the top of the screen (an index of `months`). */
  current: number;
  /** The grid reports its width and what of it is on screen (px from its top). */
  setWidth(width: number): void;
  setViewport(top: number, bottom: number, moved: boolean): void;
  /** Scrolls to month `index` (the grid registers how: `scroller`). */
  jump(index: number): void;
  scroller: { current: ((y: number) => void) | null };
}

export function useTimeline({
  initial,
  at = null,
  poll = true,
}: {
  initial: MediaItem[];
  /** The month a link (or a reload) asked for: the timeline goes there once the months are known. */
  at?: string | null;
  poll?: boolean;
}): Timeline {
  const seeded = useMemo(() => monthsOfPage(initial), [initial]);
  const slots = useRef<Map<string, Slots>>(null as unknown as Map<string, Slots>);
  if (slots.current === null) slots.current = new Map(seeded.slots);
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const [buckets, setBuckets] = useState<TimelineBucket[] | null>(null);
  const [width, setWidth] = useState(0);
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [inFlight, setInFlight] = useState(0);
  const viewport = useRef<[number, number] | null>(null);
  const flying = useRef(new Set<string>());
  /** A month's generation: answers for a month dropped since they were asked for are ignored. */
  const generation = useRef(new Map<string, number>());
  const scroller = useRef<((y: number) => void) | null>(null);
  /**
   * Months whose answer held fewer items than their bucket counts (changed on another device): not
   * asked again until their count changes (else the screen, still lacking them, would ask in a loop).
   */
  const stale = useRef(new Set<string>());

  const months = buckets ?? seeded.months;
  const layout = useMemo(() => layoutSections(months, width), [months, width]);
  const index = useMemo(() => new Map(months.map((m, i) => [m.month, i])), [months]);
  const state = useRef({ months, layout, index });
  state.current = { months, layout, index };

  // The page's requests end with it (a late 401 after logging out must not send the next page to the login).
  const life = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    life.current = controller;
    return () => controller.abort();
  }, []);

  const drop = useCallback((month: string) => {
    slots.current.delete(month);
    stale.current.delete(month);
    generation.current.set(month, (generation.current.get(month) ?? 0) + 1);
  }, []);

  // --- the buckets ---------------------------------------------------------------------------
  const bucketsTimer = useRef<ReturnType<typeof setTimeout>>();
  const loadBuckets = useCallback(() => {
    getJson<{ buckets: TimelineBucket[] }>('/api/timeline', life.current?.signal)
      .then(({ buckets: fresh }) => {
        setBuckets((old) => {
          // A month whose count changed is fetched again (its items moved).
          const before = new Map((old ?? []).map((b) => [b.month, b.count]));
          if (old) for (const b of fresh) if (before.get(b.month) !== b.count) drop(b.month);
          return fresh;
        });
        setError(null);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : 'Could not load the timeline.'));
  }, [drop]);
  const refreshBuckets = useCallback(() => {
    clearTimeout(bucketsTimer.current);
    bucketsTimer.current = setTimeout(loadBuckets, 300);
  }, [loadBuckets]);
  useEffect(() => {
    loadBuckets();
    return () => clearTimeout(bucketsTimer.current);
  }, [loadBuckets]);

  // A fresh first page (revalidation): its items start their months again.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    for (const [month, items] of seeded.slots) {
      const held = slots.current.get(month) ?? [];
      slots.current.set(month, [...items, ...held.slice(items.length)]);
    }
    bump();
    refreshBuckets();
  }, [seeded, refreshBuckets]);

  // --- loading and dropping ------------------------------------------------------------------
  const fetchChunk = useCallback(
    (month: string, chunk: number, then: () => void) => {
      const key = `${month}:${chunk}`;
      if (flying.current.has(key)) return;
      flying.current.add(key);
      setInFlight(flying.current.size);
      const gen = generation.current.get(month) ?? 0;
      getJson<{ items: MediaItem[] }>(
        `/api/items?view=library&at=${month}&page=${chunk + 1}&limit=${CHUNK}`,
        life.current?.signal,
      )
        .then(({ items }) => {
          setError(null);
          if ((generation.current.get(month) ?? 0) !== gen) return;
          const held = slots.current.get(month) ?? [];
          const inMonth = items.filter((item) => itemMonth(item) === month);
          inMonth.forEach((item, i) => {
            held[chunk * CHUNK + i] = item;
          });
          slots.current.set(month, held);
          const { index: at, months: ms } = state.current;
          const i = at.get(month);
          const expected = i === undefined ? 0 : Math.min(CHUNK, ms[i].count - chunk * CHUNK);
          if (inMonth.length < expected) {
            stale.current.add(month);
            refreshBuckets();
          }
          bump();
        })
        .then(
          () => true,
          (err: unknown) => {
            setError(err instanceof Error ? err.message : 'Could not load these items.');
            return false;
          },
        )
        .then((ok) => {
          flying.current.delete(key);
          setInFlight(flying.current.size);
          // A failure is asked again a while later, not at once (a server down would be asked in a loop),
          // unless the page is gone by then.
          if (ok) then();
          else setTimeout(() => life.current?.signal.aborted || then(), RETRY_MS);
        });
    },
    [refreshBuckets],
  );

  /** Fetches what the screen (then a screen around it) lacks; drops what is far away. */
  const settle = useCallback(() => {
    const view = viewport.current;
    const { months: ms, layout: l } = state.current;
    if (!view || l.total === 0) return;
    const screen = Math.max(400, view[1] - view[0]);
    /** The chunks with items missing within `margin` px of the screen. */
    const missing = (margin: number) => {
      const out: Array<[string, number]> = [];
      const [first, last] = sectionsInRange(l, view[0] - margin, view[1] + margin);
      for (let i = first; i <= last; i++) {
        const { month, count } = ms[i];
        if (stale.current.has(month)) continue;
        const [from, to] = itemsInRange(l, i, count, view[0] - margin, view[1] + margin);
        const held = slots.current.get(month);
        for (const c of chunksOf(from, to)) {
          const end = Math.min(count, (c + 1) * CHUNK);
          let lacking = false;
          for (let k = Math.max(from, c * CHUNK); k < Math.min(end, to) && !lacking; k++) lacking = !held?.[k];
          if (lacking) out.push([month, c]);
        }
      }
      return out;
    };
    // The screen's chunks first, then (once all have arrived) a screen around it: after a jump, the
    // month above must not be drawn first, its thumbnails taking the browser's connections to the
    // server (six) before the ones on screen.
    const onScreen = missing(0);
    const wanted = onScreen.length > 0 ? onScreen : missing(screen);
    for (const [month, c] of wanted) {
      if (flying.current.size >= MAX_IN_FLIGHT) break;
      fetchChunk(month, c, () => settle());
    }

    // Keep three screens either side; drop the rest, by chunk.
    const keepTop = view[0] - 3 * screen;
    const keepBottom = view[1] + 3 * screen;
    let dropped = false;
    for (const [month, held] of slots.current) {
      const i = state.current.index.get(month);
      if (i === undefined) {
        // Not a month of the library (any more).
        if (buckets !== null) {
          drop(month);
          dropped = true;
        }
        continue;
      }
      const [from, to] = itemsInRange(l, i, ms[i].count, keepTop, keepBottom);
      const lo = Math.floor(from / CHUNK) * CHUNK;
      const hi = Math.ceil(to / CHUNK) * CHUNK;
      if (to <= from) {
        drop(month);
        dropped = true;
        continue;
      }
      for (let k = 0; k < held.length; k++) {
        if ((k < lo || k >= hi) && held[k]) {
          held[k] = undefined;
          dropped = true;
        }
      }
    }
    if (dropped) bump();
  }, [fetchChunk, drop, buckets]);

  const setViewport = useCallback(
    (top: number, bottom: number, moved: boolean) => {
      viewport.current = [top, bottom];
      // The month a little below the top (a jump puts a month's top just below it).
      if (moved) setCurrent(Math.max(0, sectionAt(state.current.layout, top + 24)));
      settle();
    },
    [settle],
  );
  // A new layout (buckets, width) has other places for the same months.
  useEffect(() => settle(), [layout, settle]);

  const jump = useCallback((i: number) => {
    const top = state.current.layout.tops[i];
    if (top === undefined) return;
    setCurrent(i);
    // The newest month: the top of the page (its heading and the memories too).
    scroller.current?.(i === 0 ? -Infinity : top);
  }, []);

  // A link to a month: there (or to the nearest older month) once the months are known and laid out.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current || !at || buckets === null || layout.total === 0) return;
    arrived.current = true;
    const i = months.findIndex((m) => m.month <= at);
    if (i >= 0) jump(i);
  }, [at, buckets, layout, months, jump]);

  // --- the list interface ---------------------------------------------------------------------
  const items = useMemo(() => {
    const out: MediaItem[] = [];
    for (const m of months) for (const item of slots.current.get(m.month) ?? []) if (item) out.push(item);
    return out;
    // `version` says the slots changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [months, version]);

  const slot = useCallback((month: string, i: number) => slots.current.get(month)?.[i], []);
  const locate = useCallback((id: string): [number, number] | null => {
    for (const [month, held] of slots.current) {
      const k = held.findIndex((item) => item?.id === id);
      const i = state.current.index.get(month);
      if (k >= 0 && i !== undefined) return [i, k];
    }
    return null;
  }, []);

  const remove = useCallback((ids: Iterable<string>) => {
    const gone = new Set(ids);
    const removed = new Map<string, number>();
    for (const [month, held] of slots.current) {
      for (let k = held.length - 1; k >= 0; k--) {
        const item = held[k];
        if (item && gone.has(item.id)) {
          held.splice(k, 1);
          removed.set(month, (removed.get(month) ?? 0) + 1);
        }
      }
    }
    if (removed.size === 0) return;
    setBuckets((b) =>
      b ? b.map((m) => ({ ...m, count: m.count - (removed.get(m.month) ?? 0) })).filter((m) => m.count > 0) : b,
    );
    bump();
  }, []);

  const update = useCallback(
    (fresh: MediaItem[]) => {
      const byId = new Map(fresh.map((i) => [i.id, i]));
      let changed = false;
      let moved = false;
      for (const [month, held] of slots.current) {
        held.forEach((item, k) => {
          const f = item && byId.get(item.id);
          if (!f || f === item) return;
          changed = true;
          const processed = item.status === 'PROCESSING' || item.status === 'UNSPECIFIED';
          // An edit keeps its place until the timeline is loaded again (the viewer stays on it), as lists do.
          if (itemMonth(f) === month || !processed) held[k] = f;
          else {
            // Processing read the file's own date, in another month: both are fetched again.
            drop(month);
            drop(itemMonth(f));
            moved = true;
          }
        });
      }
      if (moved) refreshBuckets();
      if (changed) bump();
    },
    [drop, refreshBuckets],
  );

  const addById = useCallback(
    (ids: string[]) => {
      if (ids.length === 0) return;
      getJson<{ items: MediaItem[] }>(`/api/items?ids=${ids.slice(0, MAX_IDS_PER_ASK).join(',')}`)
        .then(({ items: added }) => {
          for (const item of added) drop(itemMonth(item));
          bump();
          refreshBuckets();
        })
        .catch(() => undefined);
    },
    [drop, refreshBuckets],
  );

  // Items still processing: ask again until they are ready (or failed).
  const [pollTick, setPollTick] = useState(0);
  const pendingKey = poll ? pendingIds(items).slice(0, MAX_IDS_PER_ASK).join(',') : '';
  useEffect(() => {
    if (!pendingKey) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<{ items: MediaItem[] }>(`/api/items?ids=${pendingKey}`, controller.signal)
        .then(({ items: fresh }) => update(fresh))
        .catch(() => undefined)
        .finally(() => !controller.signal.aborted && setPollTick((t) => t + 1));
    }, POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pendingKey, update, pollTick]);

  const refreshBroken = useBrokenRefresh(update);

  /** The viewer stepped near the end of what is held: the next chunk after it. */
  const last = items[items.length - 1];
  const lastMonth = last ? index.get(itemMonth(last)) : undefined;
  const lastIndex =
    last && lastMonth !== undefined ? (slots.current.get(months[lastMonth].month)?.indexOf(last) ?? -1) : -1;
  const complete =
    months.length === 0 ||
    (buckets !== null && lastMonth === months.length - 1 && lastIndex >= months[lastMonth].count - 1);
  const loadMore = useCallback(() => {
    if (complete || lastMonth === undefined) return;
    const m = months[lastMonth];
    if (lastIndex + 1 < m.count) fetchChunk(m.month, Math.floor((lastIndex + 1) / CHUNK), () => undefined);
    else if (months[lastMonth + 1]) fetchChunk(months[lastMonth + 1].month, 0, () => undefined);
  }, [complete, lastMonth, lastIndex, months, fetchChunk]);

  return {
    items,
    complete,
    loading: inFlight > 0,
    error,
    loadMore,
    remove,
    update,
    addById,
    refreshBroken,
    months,
    bucketsLoaded: buckets !== null,
    layout,
    slot,
    locate,
    current: Math.min(current, Math.max(0, months.length - 1)),
    setWidth,
    setViewport,
    jump,
    scroller,
  };
}
