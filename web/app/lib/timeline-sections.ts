/**
 * The geometry of the virtual timeline (the Photos page): one section per month of the whole
 * library, sized from its count alone (a heading, then rows of square cells), so the page is as tall
 * as the library before any of it is loaded, nothing moves as items arrive, and any month (or any
 * item inside one) has a known place. Items are fetched in chunks of a month: chunk `n` of month `m`
 * is page `n + 1` of the list taken before the end of `m`.
 */
import type { MediaItem } from '~/api/types';
import type { TimelineBucket } from './timeline';

/** Items per fetch inside a month (random access: `takenBefore=<month end>&page=N&limit=CHUNK`). */
export const CHUNK = 100;
export const GAP = 4;
/** A month's heading. */
export const HEADER_HEIGHT = 56;
/** Space after a month. */
export const SECTION_GAP = 12;
export interface Geometry {
  cols: number;
  /** A cell's side. */
  cell: number;
  /** A row's pitch: cell + gap. */
  row: number;
}

export interface SectionLayout {
  geometry: Geometry;
  /** Each month's top (px, from the grid's top) and height, in the buckets' order (newest first). */
  tops: number[];
  heights: number[];
  total: number;
}

/** The UTC month (`YYYY-MM`) an item was taken in, as the API counts its buckets. */
export function itemMonth(item: Pick<MediaItem, 'creationTime'>): string {
  const t = new Date(item.creationTime);
  return Number.isNaN(t.getTime()) ? item.creationTime.slice(0, 7) : t.toISOString().slice(0, 7);
}

/** Cells near `target` px wide filling `width`. */
export function geometryFor(width: number, target: number): Geometry {
  const c = Math.max(2, Math.round((width + GAP) / (target + GAP)));
  const cell = Math.max(1, Math.floor((width - GAP * (c - 1)) / c));
  return { cols: c, cell, row: cell + GAP };
}

function sectionHeight(count: number, g: Geometry): number {
  return HEADER_HEIGHT + Math.ceil(count / g.cols) * g.row - GAP + SECTION_GAP;
}

/** Cell sizes that suit the screen: smaller on phones. */
export function targetCellFor(width: number): number {
  if (width < 480) return 100;
  if (width < 800) return 130;
  return 180;
}

/**
 * Nothing is laid out before the grid's width is known (on the server): no tile of a wrong size is
 * sent. The tiles keep their size whatever the library's: a timeline taller than a browser's tallest
 * box scrolls scaled (timeline-scroll.ts).
 */
export function layoutSections(months: TimelineBucket[], width: number): SectionLayout {
  const geometry = geometryFor(width, targetCellFor(width));
  if (width <= 0) return { geometry, tops: months.map(() => 0), heights: months.map(() => 0), total: 0 };
  const tops: number[] = [];
  const heights: number[] = [];
  let y = 0;
  for (const m of months) {
    const h = sectionHeight(m.count, geometry);
    tops.push(y);
    heights.push(h);
    y += h;
  }
  return { geometry, tops, heights, total: y };
}

/** The index of the month at `y` (the last whose top is at or above it); -1 when there is none. */
export function sectionAt(layout: SectionLayout, y: number): number {
  const { tops } = layout;
  if (tops.length === 0) return -1;
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tops[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Item indexes `[from, to)` of month `i` whose rows overlap `[top, bottom]` (page coordinates of the
 * grid). A row's cells are `cell` px tall; the gap below them is no row's (a jump puts the screen's
 * top in the gap above a month, give or take a scaled pixel: the month above is not on screen).
 */
export function itemsInRange(
  layout: SectionLayout,
  i: number,
  count: number,
  top: number,
  bottom: number,
): [number, number] {
  const { row, cols, cell } = layout.geometry;
  const start = layout.tops[i] + HEADER_HEIGHT;
  const firstRow = Math.max(0, Math.floor((top - start - cell) / row) + 1);
  const lastRow = Math.floor((bottom - start) / row);
  if (lastRow < 0) return [0, 0];
  return [Math.min(count, firstRow * cols), Math.min(count, (lastRow + 1) * cols)];
}

/** Months overlapping `[top, bottom]`: `[first, last]` (empty when last < first). */
export function sectionsInRange(layout: SectionLayout, top: number, bottom: number): [number, number] {
  if (layout.total === 0 || bottom < 0 || top > layout.total) return [0, -1];
  return [Math.max(0, sectionAt(layout, top)), sectionAt(layout, bottom)];
}

/** The chunks covering item indexes `[from, to)`. */
export function chunksOf(from: number, to: number): number[] {
  const out: number[] = [];
  for (let c = Math.floor(from / CHUNK); c * CHUNK < to; c++) out.push(c);
  return out;
}

/**
 * The months a first page (newest first) shows, before the buckets are known: each month's items
 * in that page are its newest, so they start its slots. The last month may have more than it shows.
 */
export function monthsOfPage(items: MediaItem[]): { months: TimelineBucket[]; slots: Map<string, MediaItem[]> } {
  const slots = new Map<string, MediaItem[]>();
  for (const item of items) {
    const m = itemMonth(item);
    const list = slots.get(m);
    if (list) list.push(item);
    else slots.set(m, [item]);
  }
  const months = [...slots.keys()]
    .sort((a, b) => (a < b ? 1 : -1))
    .map((month) => ({
      month,
      count: slots.get(month)?.length ?? 0,
    }));
  return { months, slots };
}
