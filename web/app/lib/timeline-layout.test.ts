import { aspectRatio, groupConsecutive, layoutTimeline, targetRowHeightFor, visibleBlocks } from './timeline-layout';
import type { Block } from './timeline-layout';

const opts = { width: 1000, targetRowHeight: 200, gap: 4, headerHeight: 40, groupGap: 10 };
const rows = (blocks: Block[]) => blocks.filter((b): b is Extract<Block, { kind: 'row' }> => b.kind === 'row');

describe('timeline layout', () => {
  it('bounds extreme aspect ratios and treats unknown sizes as square', () => {
    expect(aspectRatio({ width: 4000, height: 1000 })).toBe(3);
    expect(aspectRatio({ width: 100, height: 1000 })).toBe(0.4);
    expect(aspectRatio({ width: null, height: 300 })).toBe(1);
    expect(aspectRatio({ width: 300, height: 200 })).toBe(1.5);
  });

  it('groups consecutive items by key, keeping their order', () => {
    const items = ['a', 'a', 'b', 'a'];
    expect(
      groupConsecutive(
        items,
        (x) => x,
        (k) => k.toUpperCase(),
      ),
    ).toEqual([
      { key: 'a', label: 'A', start: 0, end: 2 },
      { key: 'b', label: 'B', start: 2, end: 3 },
      { key: 'a', label: 'A', start: 3, end: 4 },
    ]);
  });

  it('lays full rows exactly as wide as the grid and keeps the last row at the target height', () => {
    const items = Array.from({ length: 7 }, () => ({ width: 1500, height: 1000 }));
    const { blocks } = layoutTimeline(items, [{ key: 'd', label: 'D', start: 0, end: 7 }], opts);
    expect(blocks[0]).toMatchObject({ kind: 'header', y: 0, height: 40 });
    const all = rows(blocks);
    const [full, last] = [all[0], all[all.length - 1]];
    expect(all).toHaveLength(2);
    const right = (r: typeof full) => r.tiles[r.tiles.length - 1].x + r.tiles[r.tiles.length - 1].width;
    expect(right(full)).toBe(1000);
    expect(full.height).toBeLessThanOrEqual(200);
    expect(last.height).toBe(200);
    expect(right(last)).toBeLessThan(1000);
    // Every item is placed once, in order, without overlaps within a row.
    expect(rows(blocks).flatMap((r) => r.tiles.map((t) => t.index))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const r of rows(blocks)) {
      for (let i = 1; i < r.tiles.length; i++)
        expect(r.tiles[i].x).toBeGreaterThanOrEqual(r.tiles[i - 1].x + r.tiles[i - 1].width);
    }
  });

  it('keeps each tile close to its item’s aspect ratio (no distortion, so no shift when the image loads)', () => {
    const items = [
      { width: 4000, height: 3000 },
      { width: 3000, height: 4000 },
      { width: 1920, height: 1080 },
      { width: 1000, height: 1000 },
      { width: 2000, height: 1000 },
    ];
    const { blocks } = layoutTimeline(items, [{ key: 'd', label: 'D', start: 0, end: items.length }], opts);
    for (const r of rows(blocks)) {
      r.tiles
        .slice(0, -1)
        .forEach((t) => expect(Math.abs(t.width / t.height - aspectRatio(items[t.index]))).toBeLessThan(0.02));
    }
  });

  it('stacks groups with their headers and gaps, and reports the total height', () => {
    const items = Array.from({ length: 4 }, () => ({ width: 1000, height: 1000 }));
    const layout = layoutTimeline(
      items,
      [
        { key: 'a', label: 'A', start: 0, end: 2 },
        { key: 'b', label: 'B', start: 2, end: 4 },
      ],
      opts,
    );
    const headers = layout.blocks.filter((b) => b.kind === 'header');
    expect(headers.map((h) => h.y)).toEqual([0, 40 + 200 + 10]);
    expect(layout.height).toBe(2 * (40 + 200 + 10));
  });

  it('finds the blocks on screen with a binary search', () => {
    const items = Array.from({ length: 5000 }, () => ({ width: 1000, height: 1000 }));
    const { blocks, height } = layoutTimeline(items, [{ key: 'all', label: '', start: 0, end: items.length }], {
      ...opts,
      headerHeight: 0,
    });
    const [first, last] = visibleBlocks(blocks, 50_000, 50_900);
    expect(blocks[first].y).toBeLessThanOrEqual(50_000);
    expect(blocks[first].y + blocks[first].height).toBeGreaterThanOrEqual(50_000);
    expect(blocks[last].y).toBeLessThanOrEqual(50_900);
    expect(last - first).toBeLessThan(8);
    expect(visibleBlocks(blocks, height + 10, height + 500)[0]).toBe(blocks.length - 1);
    expect(visibleBlocks([], 0, 100)).toEqual([0, -1]);
  });

  it('uses smaller rows on phones', () => {
    expect(targetRowHeightFor(360)).toBeLessThan(targetRowHeightFor(1280));
    expect(
      layoutTimeline([{ width: 1, height: 1 }], [{ key: 'a', label: 'A', start: 0, end: 1 }], { ...opts, width: 0 }),
    ).toEqual({ blocks: [], height: 0 });
  });
});
