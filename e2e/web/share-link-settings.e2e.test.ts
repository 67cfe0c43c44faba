/**
 * Issue 32, part 5 (links and downloads), in a real browser against the whole of Trove: the owner
 * sets a shared link's expiry (in their own time zone), a password, and turns downloads off and on
 * in the album page; a visitor gets the password prompt, the API's message for a wrong password,
 * then the album with its expiry notice once unlocked (the token in an HttpOnly cookie scoped to
 * the album's pages); "Download album" answers a ZIP of the album's originals, for the owner and
 * for the visitor, and the visitor's goes away (403) when the owner turns downloads off.
 */
import { fromBuffer } from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import type { APIResponse } from 'playwright-core';
import { ok } from '../support/api';
import type { TestUser } from '../support/api';
import { PHONE, eventually, sharedAlbum, shot, shots, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** The names of a ZIP's entries and their sizes. */
function entries(zip: Buffer): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (err: Error | null, file: ZipFile) => {
      if (err) return reject(err);
      const out: { name: string; size: number }[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(out));
      file.on('entry', (entry: Entry) => {
        out.push({ name: entry.fileName, size: entry.uncompressedSize });
        file.readEntry();
      });
      file.readEntry();
    }),
  );
}

/** A download's answer checked as a ZIP of `count` entries; answers their names. */
async function expectZip(res: APIResponse, count: number): Promise<string[]> {
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/zip');
  expect(res.headers()['content-disposition']).toMatch(/^attachment; filename="Grandparents\.zip"/);
  const list = await entries(await res.body());
  expect(list).toHaveLength(count);
  for (const e of list) expect(e.size).toBeGreaterThan(0);
  return list.map((e) => e.name);
}

const albumOf = (user: TestUser, id: string) => ok(user.api.GET('/v1/albums/{id}', { params: { path: { id } } }));

describe('shared link settings and album downloads (browser)', () => {
  it('owner sets expiry, password and downloads; a visitor unlocks the link and downloads the album', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png'], timezoneId: 'Europe/Amsterdam' });
    const albumId = await sharedAlbum(user, 'Grandparents', [items.jpeg!, items.png!]);
    await page.goto(`${web().origin}/albums/${albumId}`);
    await page.getByRole('heading', { name: 'Grandparents' }).waitFor();
    const link = await page.getByLabel('Public link').inputValue();

    // Downloads need locations shown (originals keep their GPS position); then off and on again.
    const sw = (name: string) => page.getByRole('switch', { name });
    await sw('Show where photos were taken').click();
    await eventually(() => sw('Show where photos were taken').getAttribute('aria-checked'), 'true');
    await eventually(() => sw('Allow downloads').getAttribute('aria-checked'), 'true');
    await sw('Allow downloads').click();
    await eventually(() => sw('Allow downloads').getAttribute('aria-checked'), 'false');
    // The switch moves at once; what the API keeps follows the post.
    await eventually(
      () => albumOf(user, albumId),
      (a) => !a.shareAllowDownload && a.shareLocation,
    );
    await sw('Allow downloads').click();
    await eventually(() => sw('Allow downloads').getAttribute('aria-checked'), 'true');
    await eventually(
      () => albumOf(user, albumId),
      (a) => a.shareAllowDownload,
    );

    // An expiry typed in the owner's local time (Amsterdam, +02:00 in July).
    const year = new Date().getFullYear() + 1;
    await page.getByLabel('Link expires').fill(`${year}-07-01T10:30`);
    await page.getByRole('button', { name: 'Set expiry' }).click();
    await eventually(
      () => page.getByTestId('share-expiry-state').textContent(),
      (t) => /stops working/.test(t ?? ''),
    );
    expect((await albumOf(user, albumId)).shareExpiresAt).toBe(`${year}-07-01T08:30:00.000Z`);
    // Loaded again, the page shows it in the browser's zone (the server renders UTC; the browser, its own time).
    await page.reload();
    await eventually(
      () => page.getByTestId('share-expiry-state').textContent(),
      `The link stops working on Thu, 1 Jul ${year}, 10:30.`,
    );
    await expect(page.getByLabel('Link expires').inputValue()).resolves.toBe(`${year}-07-01T10:30`);

    // A password: the page says one is set, never what it is.
    await page.getByLabel('Link password').fill('grandma-2030');
    await page.getByRole('button', { name: 'Set password' }).click();
    await eventually(
      () => page.getByTestId('share-password-state').textContent(),
      (t) => /^Password set/.test(t ?? ''),
    );
    expect(await albumOf(user, albumId)).toMatchObject({ sharePasswordSet: true });
    expect(await page.getByLabel('Link password').inputValue()).toBe('');
    expect(await page.content()).not.toContain('grandma-2030');
    await page.getByRole('button', { name: 'Remove password' }).waitFor();
    await shots(page, 'share-link-settings');

    // The owner's own download: the album's two originals under their file names.
    await page.getByRole('link', { name: 'Download album' }).waitFor();
    expect(
      (await expectZip(await page.request.get(`${web().origin}/api/albums/${albumId}/download`), 2)).sort(),
    ).toEqual(['beach.jpg', 'diagram.png']);

    // A visitor: the prompt, a wrong password with the API's message, then the album.
    const v = await web().visitor();
    await v.goto(link);
    await v.getByRole('heading', { name: 'This album has a password' }).waitFor();
    expect(await v.locator('.grid .tile').count()).toBe(0);
    await v.getByLabel('Password').fill('grandpa-2030');
    await v.getByRole('button', { name: 'Open album' }).click();
    await eventually(() => v.getByRole('alert').textContent(), 'wrong password');
    await shots(v, 'share-password-prompt');
    await v.getByLabel('Password').fill('grandma-2030');
    await v.getByRole('button', { name: 'Open album' }).click();
    await v.getByRole('heading', { name: 'Grandparents' }).waitFor();
    await eventually(() => tiles(v).count(), 2);
    await eventually(() => v.locator('.grid img.thumb.loaded').count(), 2, 15_000);
    await expect(v.getByTestId('share-expiry').textContent()).resolves.toMatch(
      new RegExp(`^This link expires on .*1 Jul ${year}`),
    );
    const cookie = (await v.context().cookies()).find((c) => c.name === `trove_share_${albumId}`);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/share/${albumId}` });
    expect(cookie!.expires * 1000).toBeLessThanOrEqual(Date.now() + 12 * 3600 * 1000 + 60_000);
    await shots(v, 'share-unlocked');

    // The visitor's download: numbered entries, through the link's cookie.
    const downloadLink = v.getByRole('link', { name: 'Download album' });
    expect(await downloadLink.getAttribute('href')).toBe(`/share/${albumId}/download`);
    const [saved] = await Promise.all([v.waitForEvent('download'), downloadLink.click()]);
    expect(saved.suggestedFilename()).toBe('Grandparents.zip');
    expect((await expectZip(await v.request.get(`${web().origin}/share/${albumId}/download`), 2)).sort()).toEqual([
      '0001.jpg',
      '0002.png',
    ]);

    // Downloads off: no link on the visitor's page, and the ZIP refused.
    await sw('Allow downloads').click();
    await eventually(
      () => albumOf(user, albumId),
      (a) => !a.shareAllowDownload,
    );
    await v.reload();
    await v.getByRole('heading', { name: 'Grandparents' }).waitFor();
    expect(await v.getByRole('link', { name: 'Download album' }).count()).toBe(0);
    const refused = await v.request.get(`${web().origin}/share/${albumId}/download`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ message: 'downloads are off for this link' });

    // A new password signs the visitor out: the prompt again.
    await page.getByLabel('Link password').fill('grandma-2031');
    await page.getByRole('button', { name: 'Change password' }).click();
    await eventually(() => page.getByLabel('Link password').inputValue(), '');
    await v.reload();
    await v.getByRole('heading', { name: 'This album has a password' }).waitFor();

    // The owner's settings at phone width.
    await page.setViewportSize(PHONE);
    await shot(page, 'share-link-settings-owner-phone');
  });
});
