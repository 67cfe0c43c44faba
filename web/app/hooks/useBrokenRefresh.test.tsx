/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react';
import type { MediaItem } from '~/api/types';
import { MAX_IDS_PER_ASK, useBrokenRefresh } from './useBrokenRefresh';

/** The web app's `/api/items?ids=` answering each id asked with a fresh item. */
function answerIds() {
  const asked: string[][] = [];
  globalThis.fetch = jest.fn(async (url: string | URL | Request) => {
    const ids = new URL(String(url), 'http://web').searchParams.get('ids')?.split(',') ?? [];
    asked.push(ids);
    const items = ids.map((id) => ({ id, creationTime: '2024-01-01T00:00:00Z' }));
    // jsdom has no Response: what getJson reads of one.
    return { status: 200, ok: true, json: async () => ({ items }) } as Response;
  }) as typeof fetch;
  return asked;
}

describe('useBrokenRefresh', () => {
  afterEach(() => jest.useRealTimers());

  it('asks for each broken item once, gathered, and hands the fresh copies over', async () => {
    jest.useFakeTimers();
    const asked = answerIds();
    const updated: MediaItem[][] = [];
    const { result } = renderHook(() => useBrokenRefresh((items) => updated.push(items)));
    act(() => {
      result.current('a');
      result.current('b');
      result.current('a');
    });
    expect(asked).toHaveLength(0);
    await act(async () => {
      jest.advanceTimersByTime(300);
    });
    jest.useRealTimers();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(asked).toEqual([['a', 'b']]);
    expect(updated.flat().map((i) => i.id)).toEqual(['a', 'b']);
    // Once each: a thumbnail that fails again is not asked for again.
    act(() => result.current('b'));
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(asked).toHaveLength(1);
  });

  it('asks for more than a request holds in several requests, losing none', async () => {
    const asked = answerIds();
    const updated: MediaItem[][] = [];
    const { result } = renderHook(() => useBrokenRefresh((items) => updated.push(items)));
    const ids = Array.from({ length: MAX_IDS_PER_ASK * 2 + 7 }, (_, i) => `item-${i}`);
    act(() => ids.forEach((id) => result.current(id)));
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(asked.map((a) => a.length)).toEqual([MAX_IDS_PER_ASK, MAX_IDS_PER_ASK, 7]);
    expect(
      updated
        .flat()
        .map((i) => i.id)
        .sort(),
    ).toEqual([...ids].sort());
  });
});
