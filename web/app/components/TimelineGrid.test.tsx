/** @jest-environment jsdom */
import { act, render } from '@testing-library/react';
import type { Timeline } from '~/hooks/useTimeline';
import { MAX_PAGE_HEIGHT } from '~/lib/timeline-scroll';
import { layoutSections, sectionAt } from '~/lib/timeline-sections';
import { TimelineGrid } from './TimelineGrid';

// jsdom does no layout: the grid is 1000 px wide at the page's top, the window 800 px tall, and
// the window's scroll position is what `scrollTo` last set.
class FakeResizeObserver {
  observe() {}
  disconnect() {}
}
let scrolled = 0;
const SCREEN = 800;

beforeAll(() => {
  (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = FakeResizeObserver;
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: SCREEN });
  Object.defineProperty(window, 'scrollY', { configurable: true, get: () => scrolled });
  const rect = HTMLElement.prototype.getBoundingClientRect;
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    if (this.classList.contains('timeline-grid')) return { top: -scrolled, bottom: 0, height: 0 } as DOMRect;
    return rect.call(this);
  };
  window.scrollTo = ((opts: ScrollToOptions) => {
    scrolled = opts.top ?? 0;
    window.dispatchEvent(new Event('scroll'));
  }) as typeof window.scrollTo;
});

/** A library of `perMonth` items in each of `count` months, none of them held (placeholders). */
function fakeTimeline(count: number, perMonth: number) {
  const months = Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(2026, 10 - i, 1));
    return { month: d.toISOString().slice(0, 7), count: perMonth };
  });
  const viewports: Array<[number, number]> = [];
  const timeline = {
    items: [],
    months,
    bucketsLoaded: true,
    layout: layoutSections(months, 1000),
    slot: () => undefined,
    locate: () => null,
    current: 0,
    setWidth: () => undefined,
    setViewport: (top: number, bottom: number) => viewports.push([top, bottom]),
    jump: () => undefined,
    scroller: { current: null },
  } as unknown as Timeline;
  return { timeline, viewports };
}

const frame = () => act(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));

function Grid({ timeline }: { timeline: Timeline }) {
  return (
    <TimelineGrid timeline={timeline} label="Photos" order={[]} hrefFor={(id) => `?item=${id}`} onOpen={() => {}} />
  );
}

/** Where a drawn section is in the page (its top plus the box's transform, if any). */
function pageTopOf(section: HTMLElement): number {
  const by = /translateY\((-?[\d.]+)px\)/.exec((section.parentElement as HTMLElement).style.transform);
  return parseFloat(section.style.top) + (by ? parseFloat(by[1]) : 0);
}

describe('TimelineGrid', () => {
  beforeEach(() => {
    scrolled = 0;
  });

  it('draws a small library one to one', async () => {
    const { timeline } = fakeTimeline(12, 100);
    const { container } = render(<Grid timeline={timeline} />);
    await frame();
    const grid = container.querySelector('.timeline-grid') as HTMLElement;
    expect(parseFloat(grid.style.height)).toBeGreaterThanOrEqual(timeline.layout.total);
    act(() => timeline.scroller.current?.(timeline.layout.tops[5]));
    await frame();
    const section = container.querySelector('.month-section[data-month="2026-06"]') as HTMLElement;
    expect(pageTopOf(section)).toBe(timeline.layout.tops[5]);
  });

  it('keeps a million items within what browsers lay out, at the same tile size, and scrolls them scaled', async () => {
    const { timeline, viewports } = fakeTimeline(250, 4000);
    const small = fakeTimeline(3, 4000).timeline;
    expect(timeline.layout.geometry).toEqual(small.layout.geometry);
    expect(timeline.layout.total).toBeGreaterThan(MAX_PAGE_HEIGHT);

    const { container } = render(<Grid timeline={timeline} />);
    await frame();
    const grid = container.querySelector('.timeline-grid') as HTMLElement;
    expect(parseFloat(grid.style.height)).toBe(MAX_PAGE_HEIGHT);
    const cell = container.querySelector('.tile-placeholder') as HTMLElement;
    expect(parseFloat(cell.style.width)).toBe(small.layout.geometry.cell);

    // Half way down the page is half way through the library: that month is drawn on screen.
    act(() => {
      scrolled = (MAX_PAGE_HEIGHT - SCREEN) / 2;
      window.dispatchEvent(new Event('scroll'));
    });
    await frame();
    const [top] = viewports[viewports.length - 1];
    expect(top).toBeCloseTo((timeline.layout.total + 0 - SCREEN) / 2, -3);
    const i = sectionAt(timeline.layout, top);
    const section = container.querySelector(`.month-section[data-month="${timeline.months[i].month}"]`) as HTMLElement;
    expect(section).not.toBeNull();
    const at = pageTopOf(section);
    expect(at).toBeLessThanOrEqual(scrolled);
    expect(at + timeline.layout.heights[i]).toBeGreaterThan(scrolled);
    // The timeline's position inside that month is where the screen's top is in the page.
    expect(scrolled - at).toBeCloseTo(top - timeline.layout.tops[i], 0);

    // A jump to an old month puts its top just below the top of the screen.
    const old = 240;
    act(() => timeline.scroller.current?.(timeline.layout.tops[old]));
    await frame();
    expect(scrolled).toBeLessThan(MAX_PAGE_HEIGHT);
    const jumped = container.querySelector(`.month-section[data-month="${timeline.months[old].month}"]`) as HTMLElement;
    expect(jumped).not.toBeNull();
    expect(pageTopOf(jumped) - scrolled).toBeGreaterThan(0);
    expect(pageTopOf(jumped) - scrolled).toBeLessThan(20);

    // A scroll between renders moves the drawn sections with the scaled position at once.
    const before = pageTopOf(jumped);
    act(() => {
      scrolled += 100;
      window.dispatchEvent(new Event('scroll'));
    });
    const scale = (timeline.layout.total - SCREEN) / (MAX_PAGE_HEIGHT - SCREEN);
    expect(before - pageTopOf(jumped)).toBeCloseTo(100 * (scale - 1), 0);
  });
});
