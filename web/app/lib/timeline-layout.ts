/**
 * The photo grid's geometry, computed from the items' width and height alone, so nothing shifts as
 * thumbnails load: items grouped by day (a header per day), each day laid out in justified rows
 * (every full row exactly as wide as the grid, heights near a target), and the whole flattened into
 * absolutely positioned blocks the grid renders only when they are on screen.
 */
export interface Sized {
  width: number | null;
  height: number | null;
}

export interface Group {
  /** Stable key (e.g. `2024-06-24`); the label is the caller's. */
  key: string;
  label: string;
  /** Items `[start, end)` of the list. */
  start: number;
  end: number;
}

export interface Tile {
  /** Index of the item in the list. */
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Block =
  | { kind: 'header'; group: number; y: number; height: number }
  | { kind: 'row'; group: number; y: number; height: number; tiles: Tile[] };

export interface TimelineLayout {
  blocks: Block[];
  height: number;
}

export interface LayoutOptions {
  width: number;
  targetRowHeight: number;
  gap: number;
  /** Height of a day header; 0 lays out groups without headers. */
  headerHeight: number;
  /** Space after each group. */
  groupGap: number;
}

/** Width over height, bounded so a panorama or a sliver cannot wreck a row; unknown sizes are square. */
export function aspectRatio(item: Sized): number {
  if (!item.width || !item.height) return 1;
  return Math.min(3, Math.max(0.4, item.width / item.height));
}

/** Consecutive items with the same key form a group (items are already in display order). */
export function groupConsecutive<T>(items: T[], keyOf: (item: T) => string, labelOf: (key: string) => string): Group[] {
  const groups: Group[] = [];
  items.forEach((item, i) => {
    const key = keyOf(item);
    const last = groups[groups.length - 1];
    if (last && last.key === key) last.end = i + 1;
    else groups.push({ key, label: labelOf(key), start: i, end: i + 1 });
  });
  return groups;
}

/** Justified rows for items `[start, end)`, starting at `top`. */
function layoutRows(
  items: Sized[],
  start: number,
  end: number,
  top: number,
  group: number,
  o: LayoutOptions,
  out: Block[],
): number {
  let y = top;
  let row: number[] = [];
  let ratioSum = 0;
  const flush = (full: boolean) => {
    if (row.length === 0) return;
    const gaps = o.gap * (row.length - 1);
    let h = (o.width - gaps) / ratioSum;
    if (!full) h = Math.min(h, o.targetRowHeight);
    h = Math.max(1, Math.floor(h));
    let x = 0;
    const tiles: Tile[] = row.map((index, k) => {
      const isLast = k === row.length - 1;
      // The last tile of a full row takes what rounding left over, so rows end flush.
      const w = full && isLast ? Math.max(1, o.width - x) : Math.max(1, Math.floor(aspectRatio(items[index]) * h));
      const tile = { index, x, y, width: w, height: h };
      x += w + o.gap;
      return tile;
    });
    out.push({ kind: 'row', group, y, height: h, tiles });
    y += h + o.gap;
    row = [];
    ratioSum = 0;
  };
  for (let i = start; i < end; i++) {
    row.push(i);
    ratioSum += aspectRatio(items[i]);
    const widthAtTarget = ratioSum * o.targetRowHeight + o.gap * (row.length - 1);
    if (widthAtTarget >= o.width) flush(true);
  }
  flush(false);
  return y - o.gap;
}

export function layoutTimeline(items: Sized[], groups: Group[], o: LayoutOptions): TimelineLayout {
  const blocks: Block[] = [];
  if (o.width <= 0) return { blocks, height: 0 };
  let y = 0;
  groups.forEach((g, gi) => {
    if (o.headerHeight > 0) {
      blocks.push({ kind: 'header', group: gi, y, height: o.headerHeight });
      y += o.headerHeight;
    }
    y = layoutRows(items, g.start, g.end, y, gi, o, blocks) + o.groupGap;
  });
  return { blocks, height: Math.max(0, y) };
}

/** Indexes `[first, last]` of the blocks overlapping `[top, bottom]` (binary search; blocks are sorted by y). */
export function visibleBlocks(blocks: Block[], top: number, bottom: number): [number, number] {
  if (blocks.length === 0) return [0, -1];
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid].y + blocks[mid].height < top) lo = mid + 1;
    else hi = mid;
  }
  let last = lo;
  while (last + 1 < blocks.length && blocks[last + 1].y <= bottom) last++;
  return [lo, last];
}

/** Row heights that suit the screen: smaller on phones. */
export function targetRowHeightFor(width: number): number {
  if (width < 480) return 110;
  if (width < 800) return 150;
  if (width < 1400) return 200;
  return 240;
}
