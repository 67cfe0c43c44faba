/** @jest-environment jsdom */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { MediaItem } from '~/api/types';
import { MAX_HELD_IDS } from '~/lib/album-held';
import { useHeldInAlbum } from './useHeldInAlbum';

const item = (id: string) => ({ id }) as MediaItem;

/** The web app's `/api/albums/<id>/held?ids=`: the album holds the ids in `inAlbum`. */
function answerHeld(inAlbum: Set<string>) {
  const asked: string[][] = [];
  globalThis.fetch = jest.fn(async (url: string | URL | Request) => {
    const u = new URL(String(url), 'http://web');
    expect(u.pathname).toBe('/api/albums/album-1/held');
    const ids = u.searchParams.get('ids')?.split(',') ?? [];
    asked.push(ids);
    // jsdom has no Response: what getJson reads of one.
    return { status: 200, ok: true, json: async () => ({ held: ids.filter((id) => inAlbum.has(id)) }) } as Response;
  }) as typeof fetch;
  return asked;
}

describe('useHeldInAlbum', () => {
  it('starts from what the loader found, asks about each later item once, in requests of at most MAX_HELD_IDS', async () => {
    const later = Array.from({ length: MAX_HELD_IDS + 3 }, (_, i) => `later-${i}`);
    const asked = answerHeld(new Set(['later-0', `later-${MAX_HELD_IDS + 1}`]));
    const first = [item('a'), item('b')];
    const { result, rerender } = renderHook(
      ({ items }) => useHeldInAlbum('album-1', items, { asked: ['a', 'b'], held: ['b'] }),
      {
        initialProps: { items: first },
      },
    );
    expect([...result.current]).toEqual(['b']);
    expect(asked).toEqual([]);
    rerender({ items: [...first, ...later.map(item)] });
    await waitFor(() => expect(result.current.size).toBe(3));
    expect([...result.current].sort()).toEqual(['b', 'later-0', `later-${MAX_HELD_IDS + 1}`].sort());
    expect(asked.map((a) => a.length)).toEqual([MAX_HELD_IDS, 3]);
    // The same items again (a poll's update): nothing asked again.
    rerender({ items: [...first, ...later.map(item)] });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(asked).toHaveLength(2);
  });

  it('marks nothing when the question fails', async () => {
    globalThis.fetch = jest.fn(
      async () => ({ status: 503, ok: false, json: async () => ({ message: 'down' }) }) as Response,
    ) as typeof fetch;
    const { result, rerender } = renderHook(({ items }) => useHeldInAlbum('album-1', items, { asked: [], held: [] }), {
      initialProps: { items: [] as MediaItem[] },
    });
    rerender({ items: [item('x')] });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(result.current.size).toBe(0);
    expect(globalThis.fetch).toHaveBeenCalledTimes(1);
  });
});
