/**
 * Deleting for good from the trash, in a real browser against the whole of Trove: a selection's
 * "Delete for good" asks first (Cancel keeps everything), then the item is gone from the page and
 * the API; "Empty trash" asks, deletes the rest and leaves the trash empty.
 */
import { ok, status } from '../support/api';
import { eventually, nav, shot, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

describe('deleting for good from the trash (browser)', () => {
  it('deletes a selected item after asking, then empties the trash', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png', 'mp4'] });
    const all = [items.jpeg!, items.png!, items.mp4!];
    await ok(user.api.POST('/v1/trash', { body: { mediaItems: all.map((i) => i.id) } }), 204);
    await nav(page, 'Trash', '/trash');
    await eventually(() => tiles(page).count(), 3);

    const png = page.locator('.grid .tile', { has: page.locator('img[alt*="diagram.png"]') });
    await png.hover();
    await png.getByRole('button', { name: /^Select / }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await bar.getByRole('button', { name: 'Delete for good' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete this item for good?' });
    await ask.waitFor();
    await shot(page, 'trash-delete-for-good');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: items.png!.id } } }))).toBe(200);

    await bar.getByRole('button', { name: 'Delete for good' }).click();
    await ask.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted 1 item for good' }).waitFor();
    await eventually(() => tiles(page).count(), 2);
    expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: items.png!.id } } }))).toBe(404);

    await page.getByRole('button', { name: 'Empty trash' }).click();
    const emptying = page.getByRole('dialog', { name: 'Empty the trash?' });
    await emptying.getByRole('button', { name: 'Empty trash' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted 2 items for good' }).waitFor();
    await page.getByRole('heading', { name: 'The trash is empty' }).waitFor();
    await expect(ok(user.api.GET('/v1/trash', {}))).resolves.toEqual([]);
    for (const item of [items.jpeg!, items.mp4!])
      expect(await status(user.api.GET('/v1/mediaItems/{id}', { params: { path: { id: item.id } } }))).toBe(404);
    expect(await page.getByRole('button', { name: 'Empty trash' }).count()).toBe(0);
  });
});
