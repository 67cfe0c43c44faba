import { MAX_PAGE_HEIGHT, isScaled, scrollMap, toPage, toTimeline } from './timeline-scroll';

describe('the scaled scroll of a huge timeline', () => {
  it('is one to one while the timeline fits the page', () => {
    const m = scrollMap(5_000_000, 900);
    expect(m.page).toBe(5_000_000);
    expect(isScaled(m)).toBe(false);
    for (const y of [-300, 0, 1234.5, 4_999_100]) {
      expect(toTimeline(m, y)).toBe(y);
      expect(toPage(m, y)).toBe(y);
    }
  });

  it('keeps the grid within what browsers lay out and reaches both ends of the timeline', () => {
    const m = scrollMap(27_000_000, 900);
    expect(m.page).toBe(MAX_PAGE_HEIGHT);
    expect(isScaled(m)).toBe(true);
    expect(toTimeline(m, 0)).toBe(0);
    // The last screen of the page shows the last screen of the timeline.
    expect(toTimeline(m, m.page - m.screen)).toBeCloseTo(m.timeline - m.screen, 6);
    // Half way down the scrollbar is half way through the timeline.
    expect(toTimeline(m, (m.page - m.screen) / 2)).toBeCloseTo((m.timeline - m.screen) / 2, 6);
    // Above the grid (the page's heading) and past its end (an overscroll): one to one.
    expect(toTimeline(m, -120)).toBe(-120);
    expect(toTimeline(m, m.page - m.screen + 10)).toBeCloseTo(m.timeline - m.screen + 10, 6);
  });

  it('maps back where it maps to (a jump lands on its month)', () => {
    const m = scrollMap(260_000_000, 700, 16_000_000);
    for (const y of [-40, 0, 1, 999_999.5, 130_000_000, m.timeline - m.screen, m.timeline - 1]) {
      expect(toTimeline(m, toPage(m, y))).toBeCloseTo(y, 4);
    }
    // Scrolling a page pixel moves the timeline by its scale, no more.
    const scale = (m.timeline - m.screen) / (m.page - m.screen);
    expect(toTimeline(m, 1001) - toTimeline(m, 1000)).toBeCloseTo(scale, 6);
  });

  it('is one to one when the screen is taller than the page could scroll', () => {
    const m = scrollMap(27_000_000, 20_000_000, 16_000_000);
    expect(isScaled(m)).toBe(false);
    expect(toTimeline(m, 500)).toBe(500);
  });
});
