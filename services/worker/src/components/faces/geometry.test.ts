import {
  applySimilarity,
  ARCFACE_TEMPLATE,
  fitSimilarity,
  landmarkPoints,
  longSide,
  overlap,
  scaledTemplate,
  similarityScale,
  squareAround,
  suppressOverlaps,
  tiles,
} from './geometry';

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

describe('face alignment geometry', () => {
  const turn = (deg: number) => ({
    a: 2 * Math.cos((deg * Math.PI) / 180),
    b: 2 * Math.sin((deg * Math.PI) / 180),
    tx: 30,
    ty: -7,
  });

  it('fitSimilarity recovers a known scale, rotation and shift exactly', () => {
    const known = turn(12);
    const from = [...ARCFACE_TEMPLATE];
    const to = from.map((p) => applySimilarity(known, p));
    const fitted = fitSimilarity(from, to);
    for (const k of ['a', 'b', 'tx', 'ty'] as const) expect(fitted[k]).toBeCloseTo(known[k], 9);
    expect(similarityScale(fitted)).toBeCloseTo(2, 9);
  });

  it('fitSimilarity is the least-squares fit: noisy points give the transform in between, never a mirror', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 5, y: 8 },
    ];
    // The same triangle, shifted by (100, 50), one point off by a pixel.
    const to = [
      { x: 100, y: 50 },
      { x: 110, y: 50 },
      { x: 105, y: 59 },
    ];
    const fitted = fitSimilarity(from, to);
    expect(Math.abs(fitted.b)).toBeLessThan(0.05);
    expect(fitted.a).toBeGreaterThan(1);
    expect(fitted.a).toBeLessThan(1.1);
    // Mirrored points cannot be fitted by a similarity: the best one is a poor fit, not a reflection.
    const mirrored = from.map(({ x, y }) => ({ x: -x, y }));
    const m = fitSimilarity(from, mirrored);
    expect(applySimilarity(m, { x: 10, y: 0 }).x).not.toBeCloseTo(-10, 0);
  });

  it('fitSimilarity refuses too few or coincident points', () => {
    expect(() => fitSimilarity([{ x: 1, y: 1 }], [{ x: 2, y: 2 }])).toThrow();
    expect(() =>
      fitSimilarity(
        [
          { x: 1, y: 1 },
          { x: 1, y: 1 },
        ],
        [
          { x: 2, y: 2 },
          { x: 3, y: 3 },
        ],
      ),
    ).toThrow();
  });

  it('a tilted face found in a picture maps onto the template: eyes level, at the template points', () => {
    // The template, as a face 3× larger, turned 20° and moved: what a detector would report.
    const inPicture = turn(20);
    const [rightEye, leftEye, nose, mouth] = ARCFACE_TEMPLATE.map((p) => applySimilarity(inPicture, p));
    const toCrop = fitSimilarity(landmarkPoints({ rightEye, leftEye, nose, mouth }), ARCFACE_TEMPLATE);
    const eyes = [rightEye, leftEye].map((p) => applySimilarity(toCrop, p));
    expect(eyes[0].x).toBeCloseTo(ARCFACE_TEMPLATE[0].x, 6);
    expect(eyes[1].y).toBeCloseTo(ARCFACE_TEMPLATE[1].y, 6);
    expect(Math.abs(eyes[0].y - eyes[1].y)).toBeLessThan(0.2);
  });

  it('scaledTemplate: the ArcFace points at another size, and with more margin when zoom < 1', () => {
    expect(scaledTemplate(112)).toEqual(ARCFACE_TEMPLATE);
    const [eye224] = scaledTemplate(224);
    expect(eye224.x).toBeCloseTo(2 * ARCFACE_TEMPLATE[0].x, 9);
    const wide = scaledTemplate(224, 0.5);
    const eyeGap = (t: { x: number }[]) => t[1].x - t[0].x;
    expect(eyeGap(wide)).toBeCloseTo(eyeGap(scaledTemplate(224)) / 2, 9);
    // Zooming keeps the crop's centre where it is.
    expect((wide[0].x + wide[1].x) / 2).toBeCloseTo(112 + ((eye224.x + scaledTemplate(224)[1].x) / 2 - 112) / 2, 9);
  });
});
