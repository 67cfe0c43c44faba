import { longSide, overlap, squareAround, suppressOverlaps, tiles } from './geometry';

const box = (x1: number, y1: number, x2: number, y2: number, score = 1) => ({ x1, y1, x2, y2, score });

describe('face geometry', () => {
  it('overlap: intersection over union and over the smaller box', () => {
    expect(overlap(box(0, 0, 10, 10), box(5, 0, 15, 10))).toEqual({ iou: 50 / 150, ofSmaller: 0.5 });
    expect(overlap(box(0, 0, 10, 10), box(2, 2, 4, 4))).toEqual({ iou: 4 / 100, ofSmaller: 1 });
    expect(overlap(box(0, 0, 10, 10), box(10, 0, 20, 10))).toEqual({ iou: 0, ofSmaller: 0 });
  });

  it('suppressOverlaps keeps the best of each face: overlapping or contained boxes go, separate ones stay', () => {
    const best = box(0, 0, 10, 10, 0.9);
    const shifted = box(1, 1, 11, 11, 0.8);
    const inside = box(0, 0, 5, 5, 0.95);
    const apart = box(20, 20, 30, 30, 0.7);
    expect(suppressOverlaps([apart, shifted, best], 0.3)).toEqual([best, apart]);
    // A better fragment wins over the whole face: the face is then left out, which the verification pass makes rare.
    expect(suppressOverlaps([best, inside], 0.3)).toEqual([inside]);
  });

  it('squareAround centres a square of scale × the long side on the box', () => {
    expect(longSide(box(10, 20, 30, 60))).toBe(40);
    expect(squareAround(box(10, 20, 30, 60), 1.5)).toEqual({ left: -10, top: 10, side: 60 });
  });

  it('tiles: one square for the whole picture; n×n overlapping squares inside it that cover it', () => {
    expect(tiles(1000, 727, 1)).toEqual([{ left: 0, top: -136.5, side: 1000 }]);
    const squares = tiles(1000, 727, 3);
    expect(squares).toHaveLength(9);
    for (const { left, top, side } of squares) {
      expect(side).toBe(400);
      expect([left >= 0, top >= 0, left + side <= 1000, top + side <= 727]).toEqual([true, true, true, true]);
    }
    // Every pixel of the picture is in some tile.
    for (let y = 0; y < 727; y += 13) {
      for (let x = 0; x < 1000; x += 13)
        expect(squares.some((s) => x >= s.left && x < s.left + s.side && y >= s.top && y < s.top + s.side)).toBe(true);
    }
    // A narrow picture: 3 squares down its long side, each centred across (reaching past the short side).
    expect(tiles(600, 2000, 3)).toEqual([0, 600, 1200].map((top) => ({ left: -100, top, side: 800 })));
  });
});
