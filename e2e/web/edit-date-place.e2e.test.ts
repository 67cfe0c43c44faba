/**
 * Editing when and where a photo was taken, in the viewer's info panel, in a real browser (in the
 * Europe/Amsterdam time zone) against the whole of Trove: the date is typed in local time and
 * reaches the API with that day's offset, a pasted "lat, lon" fills both fields, a latitude out of
 * range is refused on the page and changes nothing, Esc cancels an edit without closing the viewer,
 * and the library, loaded again, is in the order of the new date.
 */
import { getItem } from '../support/api';
import { eventually, shot, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

describe('editing the date and place of a photo (browser)', () => {
  it('saves a new date and place from the info panel; the API and the panel show them, the library reorders', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png'], timezoneId: 'Europe/Amsterdam' });
    const { jpeg, png } = items as Required<typeof items>;
    // The PNG has no date of its own (its upload time: now), the JPEG was taken four years ago.
    const order = () => tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    await eventually(order, (ids) => ids.length === 2);
    expect(await order()).toEqual([png.id, jpeg.id]);

    await tiles(page).first().locator('.tile-link').click();
    const viewer = page.getByRole('dialog', { name: /diagram\.png/ });
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Info' }).click();
    const info = viewer.getByRole('complementary', { name: 'Info' });

    // Esc cancels the edit, and only the edit.
    await info.getByRole('button', { name: 'Edit date taken' }).click();
    await info.getByLabel('Date taken', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await info.getByLabel('Date taken', { exact: true }).waitFor({ state: 'detached' });
    expect(await page.locator('dialog.viewer[open]').count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit date taken');

    // A date in local time; Enter saves it.
    await info.getByRole('button', { name: 'Edit date taken' }).click();
    await info.getByLabel('Date taken', { exact: true }).fill('2019-07-14T16:30');
    await page.keyboard.press('Enter');
    await info.getByLabel('Date taken', { exact: true }).waitFor({ state: 'detached' });
    expect(await getItem(user.api, png.id)).toMatchObject({ creationTime: '2019-07-14T16:30:00+02:00' });
    // The page shows the saved value once its data is read again.
    const shows = (pattern: RegExp) => (text: string | null) => pattern.test(text ?? '');
    await eventually(() => info.locator('.info-row', { hasText: 'Taken' }).textContent(), shows(/14 Jul 2019.*16:30/));
    await eventually(() => viewer.locator('.viewer-date').textContent(), shows(/14 Jul 2019.*16:30/));

    // A latitude out of range is refused on the page; nothing changes.
    await info.getByRole('button', { name: 'Edit location' }).click();
    const form = info.getByRole('form', { name: 'Edit location' });
    await form.getByLabel('Latitude').fill('95');
    await form.getByLabel('Longitude').fill('2.2945');
    await form.getByLabel('Longitude').press('Enter');
    await expect(form.getByRole('alert').textContent()).resolves.toBe('The latitude must be a number from −90 to 90.');
    expect(await getItem(user.api, png.id)).toMatchObject({ latitude: null, longitude: null });

    // "lat, lon" pasted into one field fills both.
    await form.getByLabel('Latitude').fill('');
    await form.getByLabel('Latitude').evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, '48.8584, 2.2945');
    await eventually(() => form.getByLabel('Latitude').inputValue(), '48.8584');
    await expect(form.getByLabel('Longitude').inputValue()).resolves.toBe('2.2945');
    expect(await form.getByRole('alert').count()).toBe(0);
    await shot(page, 'viewer-edit-place');
    await form.getByLabel('Latitude').press('Enter');
    await form.waitFor({ state: 'detached' });
    expect(await getItem(user.api, png.id)).toMatchObject({ latitude: 48.8584, longitude: 2.2945 });
    await eventually(
      () => info.locator('.info-row', { hasText: 'Location' }).textContent(),
      shows(/48\.85840° N, 2\.29450° E/),
    );
    await shot(page, 'viewer-edited-date-place');

    // What the API refuses comes back with its message (here asked for straight from the page).
    const refused = await page.evaluate(async (id) => {
      const res = await fetch('/api/items', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ intent: 'edit', id, latitude: 95, longitude: 0 }),
      });
      return { status: res.status, body: (await res.json()) as { message?: string } };
    }, png.id);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/latitude/i);
    expect(await getItem(user.api, png.id)).toMatchObject({ latitude: 48.8584, longitude: 2.2945 });

    // The viewer closes on Esc; loaded again, the library is in the order of the new date.
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('dialog.viewer').count(), 0);
    await page.reload();
    await eventually(order, (ids) => ids.length === 2);
    expect(await order()).toEqual([jpeg.id, png.id]);
  });
});
