import { MAX_SCALE, UNZOOMED, bounded, fitted, originalShowsInBrowser, panBy, zoomAt } from './zoom';

const frame = { width: 1000, height: 500 };
/** A landscape picture of the frame's shape: shown 1000 × 500, filling it. */
const wide = { width: 4000, height: 2000 };
/** A portrait picture: shown 250 × 500, 375 px from the left. */
const tall = { width: 1000, height: 2000 };

describe('the viewer zoom', () => {
  it('fits a picture whole, centred', () => {
    expect(fitted(tall, frame)).toEqual({ left: 375, top: 0, width: 250, height: 500 });
    expect(fitted(wide, frame)).toEqual({ left: 0, top: 0, width: 1000, height: 500 });
  });

  it('zooms about the pointer: the point under it stays', () => {
    const v = zoomAt(UNZOOMED, 2, 300, 200, wide, frame);
    expect(v).toEqual({ scale: 2, x: -300, y: -200 });
    // The frame point (300, 200) shows the picture point (300, 200) before and after.
    expect((300 - v.x) / v.scale).toBe(300);
  });

  it('keeps the zoomed picture over the frame, and centres an axis where it is smaller', () => {
    // Zooming at a corner cannot pull the picture's edge inside the frame.
    expect(zoomAt(UNZOOMED, 2, 0, 0, wide, frame)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(panBy({ scale: 2, x: 0, y: 0 }, 5000, 5000, wide, frame)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(panBy({ scale: 2, x: 0, y: 0 }, -5000, -5000, wide, frame)).toEqual({ scale: 2, x: -1000, y: -500 });
    // A portrait picture at 2×: 500 px wide in a 1000 px frame, so centred across; its height covers the frame.
    const v = zoomAt(UNZOOMED, 2, 500, 250, tall, frame);
    expect(v.x + 375 * 2).toBe(250);
    expect(panBy(v, 400, 0, tall, frame).x).toBe(v.x);
  });

  it('zooms a picture not loaded yet as if it filled the frame, whatever kind of box the frame is', () => {
    // A DOMRect's fields are getters on its prototype.
    class Rect {
      get width() {
        return 1000;
      }
      get height() {
        return 500;
      }
    }
    const v = zoomAt(UNZOOMED, 2, 300, 200, { width: 0, height: 0 }, new Rect());
    expect(v).toEqual({ scale: 2, x: -300, y: -200 });
  });

  it('stays between 1× and the maximum; back at 1× it is the picture as fitted', () => {
    expect(zoomAt(UNZOOMED, 100, 10, 10, wide, frame).scale).toBe(MAX_SCALE);
    expect(zoomAt({ scale: 3, x: -50, y: -40 }, 0.5, 10, 10, wide, frame)).toEqual(UNZOOMED);
    expect(bounded({ scale: 1, x: 30, y: 30 }, wide, frame)).toEqual(UNZOOMED);
  });

  it('shows the original when zoomed only for the types a browser draws', () => {
    expect(originalShowsInBrowser('image/jpeg')).toBe(true);
    expect(originalShowsInBrowser('IMAGE/PNG')).toBe(true);
    expect(originalShowsInBrowser('image/heic')).toBe(false);
    expect(originalShowsInBrowser('image/x-canon-cr2')).toBe(false);
  });
});
