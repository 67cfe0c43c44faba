/**
 * Deleting for good from the trash, in a real browser against the whole of Trove: the viewer's and
 * a selection's "Delete for good" ask first (Cancel keeps everything), then the item is gone from
 * the page and the API; "Empty trash" asks, has the server empty the trash (the rest is deleted in the background)
 * and leaves the page's trash empty.
 */
import { ok, status } from '../support/api';
import { eventually, nav, shot, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

describe('deleting for good from the trash (browser)', () => {
  it('deletes from the viewer and a selection after asking, then empties the trash', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png', 'mp4'] });
    const all = [items.jpeg!, items.png!, items.mp4!];
    await ok(user.api.POST('/v1/trash', { body: { mediaItems: all.map((i) => i.id) } }), 204);
    await nav(page, 'Trash', '/trash');
    await eventually(() => tiles(page).count(), 3);

    // From the viewer: the clip, after asking.
    await page.locator('.grid .tile', { has: page.locator('img[alt*="clip.mp4"]') }).click();
    const viewer = page.getByRole('dialog', { name: /clip\.mp4/ });
    await viewer.getByRole('button', { name: 'Delete for good' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this item for good?' })
      .getByRole('button', { name: 'Delete for good' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Deleted 1 item for good' }).waitFor();
    expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: items.mp4!.id } } }))).toBe(404);
    // The viewer moves on to a neighbour.
    const neighbour = page.getByRole('dialog', { name: /beach\.jpg|diagram\.png/ });
    await neighbour.waitFor();
    await page.keyboard.press('Escape');
    await neighbour.waitFor({ state: 'detached' });
    await eventually(() => tiles(page).count(), 2);

    // Focus is back on the tile the viewer showed last; its select button is still there to click (it
    // was under the focused link once).
    const focused = page.locator('.grid .tile', { has: page.locator('.tile-link:focus') });
    const href = await focused.locator('.tile-link').getAttribute('href');
    const [chosen, other] = href?.includes(items.png!.id) ? [items.png!, items.jpeg!] : [items.jpeg!, items.png!];
    await focused.hover();
    await focused.getByRole('button', { name: /^Select / }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await bar.getByRole('button', { name: 'Delete for good' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete this item for good?' });
    await ask.waitFor();
    await shot(page, 'trash-delete-for-good');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: chosen.id } } }))).toBe(200);

    await bar.getByRole('button', { name: 'Delete for good' }).click();
    await ask.getByRole('button', { name: 'Delete for good' }).click();
    await eventually(() => tiles(page).count(), 1);
    expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: chosen.id } } }))).toBe(404);

    await page.getByRole('button', { name: 'Empty trash' }).click();
    const emptying = page.getByRole('dialog', { name: 'Empty the trash?' });
    await emptying.getByRole('button', { name: 'Empty trash' }).click();
    // The server empties the trash in one call and deletes the items in the background.
    await page.getByRole('status').filter({ hasText: 'Deleting 1 item for good' }).waitFor();
    await page.getByRole('heading', { name: 'The trash is empty' }).waitFor();
    await expect(ok(user.api.GET('/v1/trash', {}))).resolves.toEqual([]);
    await eventually(() => status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: other.id } } })), 404);
    expect(await page.getByRole('button', { name: 'Empty trash' }).count()).toBe(0);
    expect(await emptying.count()).toBe(0);
  });
});
