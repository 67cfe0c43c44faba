import { useEffect, useState } from 'react';
import type { Dispatch, SetStateAction } from 'react';
import type { MediaItem } from '~/api/types';
import { getJson } from '~/lib/fetch-json.client';
import './Memories.css';

/** Today as `MMDD` in the browser's time zone. */
function monthDate(d = new Date()): string {
  return `${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

/** How long to wait before asking again after a failed fetch: a strip that silently never shows is worse than a late one. */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];

/** Items taken on this day in earlier years (`/v1/yearsAgo`), fetched again when `refresh` changes. */
export function useMemories(enabled: boolean, refresh: number): [MediaItem[], Dispatch<SetStateAction<MediaItem[]>>] {
  const [items, setItems] = useState<MediaItem[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const attempt = (n: number) => {
      getJson<{ items: MediaItem[] }>(`/api/years-ago?md=${monthDate()}`, controller.signal)
        .then((r) => setItems(r.items))
        .catch(() => {
          if (!controller.signal.aborted && n < RETRY_DELAYS_MS.length)
            timer = setTimeout(() => attempt(n + 1), RETRY_DELAYS_MS[n]);
        });
    };
    timer = setTimeout(() => attempt(0), 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [enabled, refresh]);
  return [items, setItems];
}

/** "On this day": items from this day in earlier years, by year. */
export function MemoriesStrip({ items, onOpen }: { items: MediaItem[]; onOpen(id: string): void }) {
  const thisYear = new Date().getFullYear();
  const byYear = new Map<number, MediaItem[]>();
  for (const i of items) {
    const y = new Date(i.creationTime).getFullYear();
    byYear.set(y, [...(byYear.get(y) ?? []), i]);
  }
  return (
    <section className="memories" aria-labelledby="memories-title">
      <h2 id="memories-title">On this day</h2>
      <ul className="memories-list">
        {[...byYear.entries()].map(([year, list]) => {
          const ago = thisYear - year;
          const cover = list[0];
          return (
            <li key={year}>
              <a
                href={`?item=${cover.id}&from=memories`}
                className="memory"
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(cover.id);
                }}
              >
                <img src={cover.thumbnailUrl} alt="" loading="lazy" />
                <span className="memory-label">
                  {ago === 1 ? '1 year ago' : `${ago} years ago`}
                  <span className="muted">
                    <span className="visually-hidden"> · </span>
                    {list.length === 1 ? '1 item' : `${list.length} items`}
                  </span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
