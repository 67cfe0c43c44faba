/**
 * Which of the listed items an album holds already: the add picker marks them and does not let them be selected.
 * The loader answers for the first page; each page loaded later is asked about once, in the background (a failed
 * question marks nothing: adding an item the album holds changes nothing anyway).
 */
import { useEffect, useRef, useState } from 'react';
import type { MediaItem } from '~/api/types';
import { MAX_HELD_IDS } from '~/lib/album-held';
import { getJson } from '~/lib/fetch-json.client';

export function useHeldInAlbum(
  albumId: string,
  items: MediaItem[],
  initial: { asked: string[]; held: string[] },
): ReadonlySet<string> {
  const [held, setHeld] = useState<ReadonlySet<string>>(() => new Set(initial.held));
  const asked = useRef(new Set(initial.asked));

  useEffect(() => {
    const fresh = items.map((i) => i.id).filter((id) => !asked.current.has(id));
    for (let at = 0; at < fresh.length; at += MAX_HELD_IDS) {
      const ids = fresh.slice(at, at + MAX_HELD_IDS);
      for (const id of ids) asked.current.add(id);
      getJson<{ held: string[] }>(`/api/albums/${albumId}/held?ids=${ids.join(',')}`)
        .then((answer) => {
          if (answer.held.length > 0) setHeld((before) => new Set([...before, ...answer.held]));
        })
        .catch(() => undefined);
    }
  }, [albumId, items]);

  return held;
}
