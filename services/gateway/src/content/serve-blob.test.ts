import { contentDisposition, etagMatches, parseRange } from './serve-blob';

describe('parseRange', () => {
  it('serves single ranges, open-ended and suffix ranges, clamped to the size', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=999-999', 1000)).toEqual({ start: 999, end: 999 });
  });

  it('answers unsatisfiable for ranges past the end', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=1000-2000', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, several ranges, malformed ones', () => {
    for (const h of [undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=5-1', 'bytes=-', 'bytes=a-b'])
      expect(parseRange(h, 1000)).toBeNull();
  });
});

describe('etagMatches', () => {
  it('compares weakly, in lists, and * matches anything', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('IMG_1.jpg')).toBe(`inline; filename="IMG_1.jpg"; filename*=UTF-8''IMG_1.jpg`);
    expect(contentDisposition('Café "x".jpg')).toBe(
      `inline; filename="Caf_ _x_.jpg"; filename*=UTF-8''Caf%C3%A9%20%22x%22.jpg`,
    );
  });
});
