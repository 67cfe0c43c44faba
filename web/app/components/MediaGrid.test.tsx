/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useReducer } from 'react';
import { itemsNewestFirst } from '../../test/fixtures';
import { emptySelection, selectionReducer } from '~/lib/selection';
import type { MediaItem } from '~/api/types';
import { MediaGrid } from './MediaGrid';

// jsdom does no layout: give the grid a width and the window a height.
class FakeResizeObserver {
  observe() {}
  disconnect() {}
}

beforeAll(() => {
  (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = FakeResizeObserver;
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 800 });
});

function Grid({
  items,
  onNearEnd = jest.fn(),
  onOpen = jest.fn(),
  locked,
}: {
  items: MediaItem[];
  onNearEnd?: () => void;
  onOpen?: (id: string) => void;
  locked?: { ids: ReadonlySet<string>; label: string };
}) {
  const [selection, dispatch] = useReducer(selectionReducer, emptySelection);
  return (
    <MediaGrid
      items={items}
      grouping="day"
      label="All photos"
      selection={{ ids: selection.ids, dispatch }}
      hrefFor={(id) => `?item=${id}`}
      onOpen={onOpen}
      onNearEnd={onNearEnd}
      locked={locked}
    />
  );
}

const flush = () => act(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));

describe('MediaGrid', () => {
  it('keeps the DOM small for tens of thousands of items (only what is near the screen)', async () => {
    const items = itemsNewestFirst(20_000);
    const { container } = render(<Grid items={items} />);
    await flush();
    const rendered = container.querySelectorAll('.tile').length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(200);
    // The grid is as tall as all rows together, so the scrollbar is right.
    expect(parseInt((container.querySelector('.grid') as HTMLElement).style.height, 10)).toBeGreaterThan(20_000 * 20);
  });

  it('groups by day under date headers', async () => {
    render(<Grid items={itemsNewestFirst(30)} />);
    await flush();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.length).toBeGreaterThanOrEqual(2);
    expect(new Set(headings).size).toBe(headings.length);
  });

  it('asks for more when the end of what is loaded is near', async () => {
    const onNearEnd = jest.fn();
    render(<Grid items={itemsNewestFirst(8)} onNearEnd={onNearEnd} />);
    await flush();
    expect(onNearEnd).toHaveBeenCalled();
  });

  it('selects with the check, a range with Shift, and a whole day with its header', async () => {
    const items = itemsNewestFirst(6, Date.parse('2024-06-24T23:00:00'));
    render(<Grid items={items} />);
    await flush();
    const checks = () => screen.getAllByRole('button', { name: /^Select Photo/ });
    fireEvent.click(checks()[0]);
    fireEvent.click(checks()[3], { shiftKey: true });
    expect(checks().map((c) => c.getAttribute('aria-pressed'))).toEqual([
      'true',
      'true',
      'true',
      'true',
      'false',
      'false',
    ]);
    fireEvent.click(screen.getAllByRole('button', { name: /^(Select|Deselect) all from/ })[0]);
    expect(checks().every((c) => c.getAttribute('aria-pressed') === 'true')).toBe(true);
  });

  it('shows locked items with their label and never selects them: not by a check, a range, a day or X', async () => {
    const items = itemsNewestFirst(6, Date.parse('2024-06-24T23:00:00'));
    const locked = { ids: new Set([items[1].id, items[2].id]), label: 'In this album' };
    const { container } = render(<Grid items={items} locked={locked} />);
    await flush();
    const tile = (i: number) => container.querySelector(`.tile[data-id="${items[i].id}"]`)!;
    expect(screen.getAllByText('In this album')).toHaveLength(2);
    expect(tile(1).hasAttribute('data-locked')).toBe(true);
    expect(tile(1).querySelector('.tile-link')!.getAttribute('aria-disabled')).toBe('true');
    expect(tile(0).querySelector('.tile-link')!.hasAttribute('aria-disabled')).toBe(false);
    // No check on a locked tile: four for the six items.
    const checks = () => screen.getAllByRole('button', { name: /^(Select|Deselect) Photo/ });
    expect(checks()).toHaveLength(4);
    fireEvent.click(checks()[0]);
    fireEvent.click(checks()[2], { shiftKey: true });
    const selected = () => items.map((_, i) => tile(i).hasAttribute('data-selected'));
    expect(selected()).toEqual([true, false, false, true, true, false]);
    fireEvent.click(screen.getByRole('button', { name: /^Select all from/ }));
    expect(selected()).toEqual([true, false, false, true, true, true]);
    fireEvent.keyDown(tile(1).querySelector('.tile-link')!, { key: 'x' });
    expect(selected()[1]).toBe(false);
  });
});
