/**
 * The library's years and months down the side, each month as tall as its share of the timeline
 * (its section's height, else its count: GET /v1/timeline/buckets), with the part on screen marked.
 * Hovering shows the month; a click, a drag or the keyboard (a vertical slider: arrows a month,
 * Page Up/Down a year, Home/End) jumps there.
 */
import { useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useElementSize } from '~/lib/element-size';
import { monthLabel, yearLabels } from '~/lib/timeline';
import type { TimelineBucket } from '~/lib/timeline';
import './TimelineScrubber.css';

interface Props {
  /** Newest month first. */
  buckets: TimelineBucket[];
  /** The index of the month on screen. */
  current: number;
  /** Each month's top and height in the timeline (px), when laid out. */
  sections?: { tops: number[]; heights: number[]; total: number };
  onJump: (month: string) => void;
}

/** Year labels closer than this (their 11 px text and a little air) would touch: the lower one is left out. */
const YEAR_LABEL_GAP_PX = 14;

/** Where each month starts and ends down the bar, as fractions of its height. */
function layout(buckets: TimelineBucket[], sections?: Props['sections']): Array<{ from: number; to: number }> {
  if (sections && sections.total > 0 && sections.tops.length === buckets.length) {
    return buckets.map((_, i) => ({
      from: sections.tops[i] / sections.total,
      to: (sections.tops[i] + sections.heights[i]) / sections.total,
    }));
  }
  const total = buckets.reduce((sum, b) => sum + b.count, 0) || 1;
  let seen = 0;
  return buckets.map((b) => {
    const from = seen / total;
    seen += b.count;
    return { from, to: seen / total };
  });
}

export function TimelineScrubber({ buckets, current: at, sections, onJump }: Props) {
  const bar = useRef<HTMLDivElement>(null);
  const spans = useMemo(() => layout(buckets, sections), [buckets, sections]);
  const current = Math.min(Math.max(0, at), Math.max(0, buckets.length - 1));
  /** The month under the pointer (hover or drag), shown as a label beside it. */
  const [hover, setHover] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  /** The bar's height in px (null until measured): how close two year labels may come. */
  const [barHeight, setBarHeight] = useState<number | null>(null);
  const hasBar = buckets.length > 0;
  useElementSize(bar, (el) => setBarHeight(el.getBoundingClientRect().height), [hasBar]);

  if (buckets.length === 0) return null;

  const indexAt = (clientY: number): number => {
    const rect = bar.current?.getBoundingClientRect();
    if (!rect || rect.height === 0) return current;
    const f = Math.min(Math.max((clientY - rect.top) / rect.height, 0), 0.999999);
    const i = spans.findIndex((s) => f < s.to);
    return i < 0 ? spans.length - 1 : i;
  };
  const jumpTo = (i: number) => {
    const index = Math.min(Math.max(i, 0), buckets.length - 1);
    onJump(buckets[index].month);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
    setHover(indexAt(e.clientY));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging) return;
    setDragging(false);
    jumpTo(indexAt(e.clientY));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step: Record<string, number> = {
      ArrowDown: 1,
      ArrowRight: 1,
      ArrowUp: -1,
      ArrowLeft: -1,
      PageDown: 12,
      PageUp: -12,
    };
    if (e.key in step) jumpTo(current + step[e.key]);
    else if (e.key === 'Home') jumpTo(0);
    else if (e.key === 'End') jumpTo(buckets.length - 1);
    else return;
    e.preventDefault();
  };

  const shown = hover ?? current;
  // Until the bar is measured, every year (as the server renders it); then only those with room for their label.
  const years = yearLabels(
    buckets,
    spans.map((s) => s.from),
    barHeight ?? Infinity,
    YEAR_LABEL_GAP_PX,
  );

  return (
    <div className="timeline">
      <div
        ref={bar}
        className={`timeline-bar${dragging ? ' is-dragging' : ''}`}
        role="slider"
        tabIndex={0}
        aria-label="Timeline"
        aria-orientation="vertical"
        aria-valuemin={0}
        aria-valuemax={buckets.length - 1}
        aria-valuenow={current}
        aria-valuetext={monthLabel(buckets[current].month)}
        onPointerDown={onPointerDown}
        onPointerMove={(e) => setHover(indexAt(e.clientY))}
        onPointerUp={onPointerUp}
        onPointerCancel={() => setDragging(false)}
        onPointerLeave={() => (dragging ? undefined : setHover(null))}
        onKeyDown={onKeyDown}
      >
        {years.map(({ year, i }) => (
          <span key={year} className="timeline-year" style={{ top: `${spans[i].from * 100}%` }} aria-hidden="true">
            {year}
          </span>
        ))}
        {buckets.map((b, i) => (
          <span
            key={b.month}
            className={`timeline-month${i === current ? ' is-current' : ''}`}
            data-month={b.month}
            style={{ top: `${spans[i].from * 100}%`, height: `${(spans[i].to - spans[i].from) * 100}%` }}
          />
        ))}
        <span
          className="timeline-label"
          style={{ top: `${spans[shown].from * 100}%` }}
          aria-hidden="true"
          hidden={hover === null}
        >
          {monthLabel(buckets[shown].month)}
        </span>
      </div>
    </div>
  );
}
