/**
 * The scroll position of a timeline taller than a browser can lay out. Chromium stops laying out
 * at 2^25 px (33.5M) and Firefox near 17.9M, while a million items at a comfortable tile size are
 * ~27M px: the grid is kept at most `MAX_PAGE_HEIGHT` tall and the page's scroll position maps
 * linearly onto the whole timeline, so the scrollbar spans the library and the tiles keep their
 * size (a scroll moves the content a little faster than the wheel: timeline/page, 1.1× at 1M).
 */

/** The tallest grid the page holds (below Firefox's limit). */
export const MAX_PAGE_HEIGHT = 16_000_000;

export interface ScrollMap {
  /** The timeline's height (px), including the room below its last month. */
  timeline: number;
  /** The grid's height in the page: the timeline's, at most MAX_PAGE_HEIGHT. */
  page: number;
  /** What is on screen (px). */
  screen: number;
}

export function scrollMap(timeline: number, screen: number, max = MAX_PAGE_HEIGHT): ScrollMap {
  return { timeline, page: Math.min(timeline, max), screen };
}

/** Whether the timeline is taller than the grid (its positions are scaled). */
export const isScaled = (m: ScrollMap) => m.timeline > m.page && m.page > m.screen;

/**
 * The timeline's position at `y` px of the page below the grid's top: the top of the screen maps
 * from [0, page - screen] onto [0, timeline - screen], so both ends are reached; above the grid and
 * past its end (an overscroll), one to one.
 */
export function toTimeline(m: ScrollMap, y: number): number {
  if (!isScaled(m) || y <= 0) return y;
  const span = m.page - m.screen;
  if (y >= span) return y + m.timeline - m.page;
  return (y * (m.timeline - m.screen)) / span;
}

/** The page's position (below the grid's top) that shows the timeline's `y` at the top of the screen. */
export function toPage(m: ScrollMap, y: number): number {
  if (!isScaled(m) || y <= 0) return y;
  const span = m.timeline - m.screen;
  if (y >= span) return y - m.timeline + m.page;
  return (y * (m.page - m.screen)) / span;
}
