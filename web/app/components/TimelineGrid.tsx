/**
 * The Photos page's grid: the whole library as month sections (a heading, square cells), as tall as
 * the library, of which only the sections near the screen are in the DOM; a cell whose item is not
 * held yet is a placeholder. It tells the timeline what is on screen, keeps the month under the
 * user's eyes in place when the layout changes (the buckets arrive, the width changes), and moves
 * the focus between tiles with the arrow keys (X selects). A timeline taller than a browser can lay
 * out scrolls scaled (timeline-scroll.ts): positions below are the timeline's, and the sections on
 * screen are drawn shifted to where the page's scroll position shows them.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { Timeline } from '~/hooks/useTimeline';
import { useElementSize, useIsoLayoutEffect } from '~/lib/element-size';
import { dayKey, dayLabel } from '~/lib/format';
import { monthLabel } from '~/lib/timeline';
import { toPage, toTimeline, scrollMap } from '~/lib/timeline-scroll';
import { HEADER_HEIGHT, itemsInRange, sectionAt, sectionsInRange } from '~/lib/timeline-sections';
import type { SectionLayout } from '~/lib/timeline-sections';
import type { GridSelection } from './MediaGrid';
import { STATUS_BAR_HEIGHT, Thumbnail, showsStatus } from './Thumbnail';
import './MediaGrid.css';
import './TimelineGrid.css';

/** The fixed top bar covers the top of the window: what is on screen starts below it. */
const inset = () => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--topbar-h')) || 0;
/** An element's top in the page. */
const pageTopOf = (el: HTMLElement | null) => (el ? el.getBoundingClientRect().top + window.scrollY : 0);

/** How the page scrolls through a layout (with room below the last month, so a jump can bring any month to the top). */
function scrollMapOf(layout: SectionLayout, screen: number) {
  const room = Math.max(0, screen - 8 - (layout.heights[layout.heights.length - 1] ?? screen));
  return scrollMap(layout.total + room, screen);
}

export interface TimelineGridProps {
  timeline: Timeline;
  label: string;
  selection?: GridSelection;
  /** Ids held, in order (a shift-click selects a range of them). */
  order: string[];
  hrefFor(id: string): string;
  onOpen(id: string): void;
  focusId?: string | null;
  onBroken?(id: string): void;
}

export function TimelineGrid({
  timeline,
  label,
  selection,
  order,
  hrefFor,
  onOpen,
  focusId,
  onBroken,
}: TimelineGridProps) {
  const ref = useRef<HTMLDivElement>(null);
  const { layout, months, setWidth, setViewport } = timeline;
  /** What is on screen, px from the timeline's top; `shift`: the timeline's top minus the page's (0 unless scaled). */
  const view = useRef({ top: 0, height: 900, shift: 0 });
  /** The sections, drawn `drawnShift` px up; between renders a scroll moves them by a transform. */
  const content = useRef<HTMLDivElement>(null);
  const drawnShift = useRef(0);
  /** The month at the top of the screen and how far into it: it stays there when the layout changes. */
  const anchor = useRef<{ month: string; offset: number } | null>(null);
  // The viewport lives in a ref (read on scroll); a move renders again.
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useElementSize(ref, (el) => setWidth(Math.floor(el.clientWidth)), [setWidth]);

  const state = useRef({ layout, months });
  state.current = { layout, months };
  /** What is on screen now: the page's position below the grid's top and the timeline's. */
  const position = useCallback(() => {
    const el = ref.current;
    const topBar = inset();
    const screen = window.innerHeight - topBar;
    const onPage = el ? topBar - el.getBoundingClientRect().top : 0;
    return { onPage, top: toTimeline(scrollMapOf(state.current.layout, screen), onPage), height: screen };
  }, []);
  /** Between renders (on each scroll), the drawn sections follow the scaled position. */
  const follow = useCallback(() => {
    const c = content.current;
    if (!c) return;
    const { onPage, top } = position();
    const by = drawnShift.current - (top - onPage);
    c.style.transform = Math.abs(by) >= 0.5 ? `translateY(${by}px)` : '';
  }, [position]);
  const read = useCallback(() => {
    if (!ref.current) return;
    const { onPage, top, height } = position();
    const moved = Math.abs(view.current.top - top) >= 1 || view.current.height !== height;
    view.current = { top, height, shift: top - onPage };
    const { layout: l, months: ms } = state.current;
    const i = sectionAt(l, Math.max(0, top));
    if (i >= 0 && ms[i]) anchor.current = { month: ms[i].month, offset: top - l.tops[i] };
    setViewport(top, top + height, moved);
    if (moved) rerender();
  }, [setViewport, rerender, position]);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      follow();
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(read);
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [read, follow]);
  // Each render draws at the shift it read: no transform left over.
  useIsoLayoutEffect(() => follow());

  /** Scrolls the window so that the timeline's `y` is at the top of the screen. */
  const scrollToTimeline = useCallback((y: number) => {
    const screen = window.innerHeight - inset();
    const onPage = toPage(scrollMapOf(state.current.layout, screen), y);
    window.scrollTo({ top: Math.max(0, pageTopOf(ref.current) + onPage - inset()) });
  }, []);

  // The timeline scrolls through the window.
  useEffect(() => {
    timeline.scroller.current = (y: number) => scrollToTimeline(y - 8);
    return () => {
      timeline.scroller.current = null;
    };
  }, [timeline.scroller, scrollToTimeline]);

  // A new layout: the month that was at the top of the screen stays there.
  useIsoLayoutEffect(() => {
    const a = anchor.current;
    if (!a || layout.total === 0) return;
    const i = months.findIndex((m) => m.month === a.month);
    if (i < 0) return;
    // Months arrived above it (a link to a month, before the buckets): it starts just below the top bar.
    const offset = i > 0 ? Math.max(a.offset, -8) : a.offset;
    const want = layout.tops[i] + Math.min(offset, layout.heights[i]);
    if (Math.abs(want - view.current.top) >= 1) scrollToTimeline(want);
    read();
    // Only when the layout changes.
  }, [layout]);

  // Back from the viewer: bring its last item into view and give it focus.
  useEffect(() => {
    if (!focusId) return;
    focusTile(focusId);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusId]);

  /** Where an item held is: its month's index and its index in the month. */
  const locate = timeline.locate;

  const focusAt = (i: number, k: number) => {
    const item = timeline.slot(months[i].month, k);
    const { cols, row } = layout.geometry;
    const y = layout.tops[i] + HEADER_HEIGHT + Math.floor(k / cols) * row;
    const find = () =>
      item ? ref.current?.querySelector<HTMLElement>(`[data-id="${item.id}"] .tile-link`) : undefined;
    if (y < view.current.top || y + row > view.current.top + view.current.height) {
      scrollToTimeline(y - view.current.height / 3);
    }
    const el = find();
    if (el) el.focus({ preventScroll: true });
    else requestAnimationFrame(() => requestAnimationFrame(() => find()?.focus({ preventScroll: true })));
  };

  function focusTile(id: string) {
    const at = locate(id);
    if (at) focusAt(at[0], at[1]);
  }

  /** Arrow keys move between tiles, across months; X selects. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (!target.classList.contains('tile-link') || e.altKey || e.ctrlKey || e.metaKey) return;
    const id = target.closest('.tile')?.getAttribute('data-id') ?? '';
    if ((e.key === 'x' || e.key === 'X') && selection) {
      e.preventDefault();
      selection.dispatch({ type: 'toggle', id });
      return;
    }
    const at = locate(id);
    if (!at) return;
    let [i, k] = at;
    const { cols } = layout.geometry;
    const count = (m: number) => months[m].count;
    if (e.key === 'ArrowRight') {
      if (k + 1 < count(i)) k++;
      else if (i + 1 < months.length) [i, k] = [i + 1, 0];
      else return;
    } else if (e.key === 'ArrowLeft') {
      if (k > 0) k--;
      else if (i > 0) [i, k] = [i - 1, count(i - 1) - 1];
      else return;
    } else if (e.key === 'ArrowDown') {
      if (k + cols < count(i)) k += cols;
      else if (Math.floor(k / cols) < Math.floor((count(i) - 1) / cols)) k = count(i) - 1;
      else if (i + 1 < months.length) [i, k] = [i + 1, Math.min(k % cols, count(i + 1) - 1)];
      else return;
    } else if (e.key === 'ArrowUp') {
      if (k - cols >= 0) k -= cols;
      else if (i > 0) {
        const lastRow = Math.floor((count(i - 1) - 1) / cols) * cols;
        [i, k] = [i - 1, Math.min(lastRow + (k % cols), count(i - 1) - 1)];
      } else return;
    } else return;
    e.preventDefault();
    focusAt(i, k);
  };

  const onToggle = useCallback(
    (id: string, range: boolean) => selection?.dispatch(range ? { type: 'range', id, order } : { type: 'toggle', id }),
    [selection, order],
  );
  const selecting = (selection?.ids.size ?? 0) > 0;

  // Half a screen either side is in the DOM (the timeline holds more: three screens).
  const { top, height, shift } = view.current;
  drawnShift.current = shift;
  const overscan = height / 2;
  const [first, last] = sectionsInRange(layout, top - overscan, top + height + overscan);
  const { cols, cell, row } = layout.geometry;
  const sections: ReactNode[] = [];
  for (let i = first; i <= last; i++) {
    const { month, count } = months[i];
    const [from, to] = itemsInRange(layout, i, count, top - overscan, top + height + overscan);
    const cells: ReactNode[] = [];
    for (let k = from; k < to; k++) {
      const x = (k % cols) * row;
      const y = HEADER_HEIGHT + Math.floor(k / cols) * row;
      const item = timeline.slot(month, k);
      // The first item of each day held carries the day's name (the layout stays count-based: no day rows).
      const day = item ? dayKey(new Date(item.creationTime)) : null;
      const prev = k > 0 ? timeline.slot(month, k - 1) : undefined;
      if (item && day && (!prev || dayKey(new Date(prev.creationTime)) !== day)) {
        // Above the tile's status bar while it shows one ("Processing…" is written where the chip sits).
        const lift = showsStatus(item) ? STATUS_BAR_HEIGHT : 0;
        cells.push(
          <h3
            key={`d-${item.id}`}
            className="day-chip"
            style={{ left: x + 6, top: y + cell - 30 - lift, maxWidth: Math.max(40, cell - 12) }}
          >
            {dayLabel(day)}
          </h3>,
        );
      }
      cells.push(
        item ? (
          <Thumbnail
            key={item.id}
            item={item}
            href={hrefFor(item.id)}
            x={x}
            y={y}
            width={cell}
            height={cell}
            selectable={!!selection}
            selected={selection?.ids.has(item.id) ?? false}
            selecting={selecting}
            onOpen={onOpen}
            onToggle={onToggle}
            onBroken={onBroken}
          />
        ) : (
          <div key={`p-${k}`} className="tile-placeholder" style={{ left: x, top: y, width: cell, height: cell }} />
        ),
      );
    }
    sections.push(
      <section
        key={month}
        className="month-section"
        data-month={month}
        aria-labelledby={`month-${month}`}
        style={{ top: layout.tops[i] - shift, height: layout.heights[i] }}
      >
        <h2 id={`month-${month}`} className="month-heading" style={{ height: HEADER_HEIGHT }}>
          {monthLabel(month)}
        </h2>
        {cells}
      </section>,
    );
  }

  return (
    <div
      ref={ref}
      className="grid timeline-grid"
      role="region"
      aria-label={label}
      style={{ height: scrollMapOf(layout, height).page }}
      data-count={timeline.items.length}
      onKeyDown={onKeyDown}
    >
      <div ref={content} className="timeline-content">
        {sections}
      </div>
    </div>
  );
}
