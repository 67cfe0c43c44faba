import type { MediaItem } from '~/api/types';
import {
  CHUNK,
  GAP,
  HEADER_HEIGHT,
  SECTION_GAP,
  chunksOf,
  itemMonth,
  itemsInRange,
  layoutSections,
  monthsOfPage,
  sectionAt,
  sectionsInRange,
} from './timeline-sections';
import { MAX_PAGE_HEIGHT } from './timeline-scroll';

const item = (id: string, creationTime: string) => ({ id, creationTime }) as MediaItem;

describe('the timeline sections', () => {
  it('sizes each month from its count alone: a heading and rows of square cells', () => {
    const l = layoutSections(
      [
        { month: '2024-06', count: 10 },
        { month: '2024-05', count: 1 },
      ],
      1000,
    );
    const { cols, cell, row } = l.geometry;
    expect(cols).toBe(5);
    expect(cell * cols + GAP * (cols - 1)).toBeLessThanOrEqual(1000);
    expect(row).toBe(cell + GAP);
    expect(l.tops).toEqual([0, HEADER_HEIGHT + 2 * row - GAP + SECTION_GAP]);
    expect(l.total).toBe(l.tops[1] + HEADER_HEIGHT + row - GAP + SECTION_GAP);
  });

  it('lays out nothing before the width is known (the server renders no tile)', () => {
    const l = layoutSections([{ month: '2024-06', count: 10 }], 0);
    expect(l.total).toBe(0);
    expect(sectionsInRange(l, 0, 900)).toEqual([0, -1]);
  });

  it('gives a million items the tiles of a small library (the page scrolls scaled instead)', () => {
    const months = Array.from({ length: 250 }, (_, i) => ({ month: `${2000 + Math.floor(i / 12)}-01`, count: 4000 }));
    const big = layoutSections(months, 1000);
    const small = layoutSections(months.slice(0, 3), 1000);
    expect(big.geometry).toEqual(small.geometry);
    expect(big.total).toBeGreaterThan(MAX_PAGE_HEIGHT);
  });

  it('finds the month at a height, the months and items in a range, and the chunks to fetch', () => {
    const l = layoutSections(
      [
        { month: '2024-06', count: 500 },
        { month: '2024-05', count: 3 },
      ],
      1000,
    );
    expect(sectionAt(l, -50)).toBe(0);
    expect(sectionAt(l, l.tops[1] - 1)).toBe(0);
    expect(sectionAt(l, l.tops[1])).toBe(1);
    expect(sectionsInRange(l, 0, l.tops[1] + 1)).toEqual([0, 1]);
    expect(sectionsInRange(l, l.total + 10, l.total + 20)).toEqual([0, -1]);
    const { row, cols } = l.geometry;
    // Rows 40 to 42 of the first month.
    const top = HEADER_HEIGHT + 40 * row + 1;
    expect(itemsInRange(l, 0, 500, top, top + 2 * row)).toEqual([40 * cols, 43 * cols]);
    expect(itemsInRange(l, 1, 3, 0, 10)).toEqual([0, 0]);
    // The gaps are no row's: between two rows, and below the month's last row (where a jump puts the screen's top).
    const gap = HEADER_HEIGHT + 40 * row - GAP + 1;
    expect(itemsInRange(l, 0, 500, gap, gap + 2)).toEqual([40 * cols, 40 * cols]);
    const [from, to] = itemsInRange(l, 0, 500, l.tops[1] - 8 - 1.7, l.tops[1] + 400);
    expect(to - from).toBe(0);
    expect(itemsInRange(l, 1, 3, l.tops[1] - 8, l.tops[1] + 400)).toEqual([0, 3]);
    expect(chunksOf(40 * cols, 43 * cols)).toEqual([Math.floor((40 * cols) / CHUNK)]);
    expect(chunksOf(95, 205)).toEqual([0, 1, 2]);
    expect(chunksOf(0, 0)).toEqual([]);
  });

  it('starts each month of a first page with its items (UTC months, as the API counts them)', () => {
    const { months, slots } = monthsOfPage([
      item('a', '2024-06-01T00:30:00Z'),
      item('b', '2024-05-31T23:30:00Z'),
      item('c', '2024-05-02T10:00:00Z'),
      item('d', '2019-01-01T00:00:00.000Z'),
    ]);
    expect(months).toEqual([
      { month: '2024-06', count: 1 },
      { month: '2024-05', count: 2 },
      { month: '2019-01', count: 1 },
    ]);
    expect(slots.get('2024-05')?.map((i) => i.id)).toEqual(['b', 'c']);
    expect(itemMonth(item('x', '2024-06-30T23:00:00-02:00'))).toBe('2024-07');
  });
});
