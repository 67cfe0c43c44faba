/**
 * The viewer's slideshow, and zooming a photo in the viewer, in a real browser against the whole of Trove: a double-click
 * zooms about the pointer and lays the original over the preview, the keys and the wheel zoom, a
 * drag moves the picture, 0 or a wheel turned back brings the whole picture back. (Which originals
 * are laid over the preview — those a browser draws — is lib/zoom's unit test.)
 */
import type { Locator } from 'playwright-core';
import { eventually, shot, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** The zoom's scale and translation as the page applies them. */
async function zoomOf(frame: Locator): Promise<{ scale: number; x: number; y: number }> {
  const transform = await frame.locator('.viewer-zoom-content').evaluate((el) => (el as HTMLElement).style.transform);
  const m = /translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(transform);
  if (!m) throw new Error(`unexpected transform ${transform}`);
  return { x: Number(m[1]), y: Number(m[2]), scale: Number(m[3]) };
}

describe('the viewer: zoom and slideshow (browser)', () => {
  it('double-click, keys, wheel and drag; the original replaces the preview once zoomed', async () => {
    const { page, items } = await web().session({ upload: ['jpeg'] });
    await eventually(() => tiles(page).count(), 1);
    await tiles(page).first().click();
    const viewer = page.getByRole('dialog', { name: /beach\.jpg/ });
    const frame = viewer.locator('.viewer-zoom');
    await frame.waitFor();
    expect(await frame.locator('img.viewer-original').count()).toBe(0);
    const box = (await frame.boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];

    // A double-click a little left of the middle: 2.5×, that point kept under the pointer.
    await page.mouse.dblclick(cx - 100, cy);
    await eventually(async () => (await zoomOf(frame)).scale, 2.5);
    const zoomed = await zoomOf(frame);
    expect((cx - 100 - box.x - zoomed.x) / zoomed.scale).toBeCloseTo(box.width / 2 - 100, 0);
    // The original (a JPEG: the browser draws it) is laid over the preview once loaded.
    const original = frame.locator('img.viewer-original.loaded');
    await original.waitFor();
    expect(new URL((await original.getAttribute('src'))!, web().origin).pathname).toBe(
      `/v1/mediaItems/${items.jpeg!.id}/original`,
    );
    await shot(page, 'viewer-zoomed');

    // A drag moves it; the keys zoom; 0 brings the whole picture back.
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 60, cy + 40, { steps: 4 });
    await page.mouse.up();
    const dragged = await zoomOf(frame);
    expect(dragged.x).toBeCloseTo(zoomed.x + 60, 0);
    await page.keyboard.press('+');
    await eventually(async () => (await zoomOf(frame)).scale, 3.75);
    await page.keyboard.press('0');
    await eventually(
      async () => zoomOf(frame),
      (z) => z.scale === 1 && z.x === 0 && z.y === 0,
    );

    // The wheel zooms in and out, never below the whole picture.
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -400);
    await eventually(
      async () => (await zoomOf(frame)).scale,
      (s) => s > 1.5,
    );
    await page.mouse.wheel(0, 4000);
    await eventually(async () => (await zoomOf(frame)).scale, 1);
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('dialog.viewer').count(), 0);
  });

  it('a slideshow steps through the list and stops after the last item', async () => {
    const { page } = await web().session({ upload: ['jpeg', 'png'] });
    await eventually(() => tiles(page).count(), 2);
    await tiles(page).first().click();
    const viewer = page.locator('dialog.viewer');
    await expect(viewer.locator('.viewer-date').textContent()).resolves.toMatch(/1 of 2$/);
    const slideshow = viewer.getByRole('button', { name: 'Slideshow' });
    await slideshow.click();
    await eventually(() => slideshow.getAttribute('aria-pressed'), 'true');
    await eventually(
      () => viewer.locator('.viewer-date').textContent(),
      (t) => /2 of 2$/.test(t ?? ''),
      10_000,
    );
    await eventually(() => slideshow.getAttribute('aria-pressed'), 'false', 10_000);
    await expect(viewer.locator('.viewer-date').textContent()).resolves.toMatch(/2 of 2$/);
  });
});
