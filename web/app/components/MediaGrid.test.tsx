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
}: {
  items: MediaItem[];
  onNearEnd?: () => void;
  onOpen?: (id: string) => void;
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
});
