/**
 * Web II in a real browser against the whole of Trove (the browser suite's stack plus the explore
 * service): the explore rows and pages from the seed HEIC (Mumbai, a pizza), the viewer's links to
 * them, the settings page, and the administrator's users page behind the browser's basic-auth
 * dialog. Screenshots at 1280 and 390 px, light and dark, go to artifacts/web/.
 */
import { waitFor } from '@trove/kit/testing';
import { heicFixture, itWithFixtures } from '@trove/kit/testing/media';
import { adminApi, ok, uploadReady } from '../support/api';
import type { Api } from '../support/api';
import { eventually, nav, shots, webAppForSuite, tiles } from './fixtures';

const web = webAppForSuite({ services: ['explore'] });

/** Waits until explore has filed the user's photos under at least one place and one thing (it follows the worker on its own). */
async function filed(api: Api): Promise<void> {
  await waitFor(
    async () => {
      const [places, things] = await Promise.all([
        ok(api.GET('/v1/explore/places'), 200),
        ok(api.GET('/v1/explore/things'), 200),
      ]);
      return places.length > 0 && things.length > 0 ? true : undefined;
    },
    { timeoutMs: 60_000, what: 'the HEIC to be filed under its place and thing' },
  );
}

describe('Web II in a browser (e2e)', () => {
  itWithFixtures(
    'explore rows show the HEIC’s place and thing; their pages hold it; the viewer links to them',
    async () => {
      const { page, user } = await web().session();
      const heic = await uploadReady(user.api, await heicFixture(), 'IMG_0543.HEIC', 120_000);
      await filed(user.api);

      await nav(page, 'Explore', '/explore');
      const places = page.getByRole('region', { name: 'Places' });
      const things = page.getByRole('region', { name: 'Things' });
      await places.getByRole('link', { name: /Mumbai, India/ }).waitFor();
      await things.getByRole('link', { name: /Pizza/ }).waitFor();
      await expect(places.getByRole('link', { name: /Mumbai, India/ }).textContent()).resolves.toContain('1 item');
      await shots(page, 'explore');

      // `/` focuses the header's search; typing offers the names that start with the words.
      await page.keyboard.press('/');
      const search = page.getByRole('combobox', { name: 'Search your photos' }); // a text box with suggestions;
      await eventually(() => search.evaluate((el) => el === document.activeElement), true);
      await page.keyboard.type('mum');
      await eventually(
        () =>
          page
            .getByTestId('search-suggestions')
            .locator('option')
            .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
        (v) => v.join() === 'Mumbai',
      );
      await search.fill('');

      await things.getByRole('link', { name: /Pizza/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Pizza' }).waitFor();
      await eventually(() => tiles(page).count(), 1);
      await shots(page, 'explore-thing');

      // The viewer's info panel names the place and the thing, linking to their pages.
      await tiles(page).first().click();
      const viewer = page.getByRole('dialog', { name: /IMG_0543/ });
      await viewer.waitFor();
      await viewer.getByRole('button', { name: 'Info' }).click();
      const info = viewer.getByRole('complementary', { name: 'Info' });
      await info.getByRole('link', { name: 'Pizza' }).waitFor();
      await info.getByRole('link', { name: 'Mumbai, India' }).click();
      await page.getByRole('heading', { level: 1, name: 'Mumbai, India' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/explore\/places\/[0-9a-f-]{36}$/);
      await eventually(() => tiles(page).count(), 1);
      expect(await page.getByTestId('place-map').count()).toBe(0); // no tile server configured: no map, no calls
      expect(await tiles(page).first().locator('a').getAttribute('href')).toContain(heic.id);
    },
    240_000,
  );

  it('settings show the features, disk use in GB and the version; the theme is chosen there', async () => {
    const { page } = await web().session();
    await nav(page, 'Settings', '/settings');
    await expect(page.getByTestId('features').textContent()).resolves.toMatch(/Favourites\s*On/);
    await expect(page.getByTestId('disk').textContent()).resolves.toMatch(/Used[\d.,]+ GB/);
    await expect(page.getByTestId('version').textContent()).resolves.toMatch(/Version\S+Build\S+/);
    // Saved once the theme route has answered (the page shows the choice at once, before that).
    const saved = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/theme' && r.request().method() === 'POST',
    );
    await page.getByRole('radio', { name: 'Dark' }).check();
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme ?? ''), 'dark');
    expect((await saved).ok()).toBe(true);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.reload();
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme ?? ''), 'dark');
    await expect(page.getByRole('radio', { name: 'Dark' }).isChecked()).resolves.toBe(true);
    await shots(page, 'settings');
  });

  it('/admin/users asks for the admin credentials, creates a user who then logs in, edits and deletes with confirmation', async () => {
    // Without credentials the answer is the basic-auth challenge (which makes a browser show its dialog).
    const challenge = await fetch(`${web().origin}/admin/users`);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toMatch(/^Basic /);
    await challenge.body?.cancel();

    const page = await web().administrator();
    await page.goto(`${web().origin}/admin/users`);
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('link', { name: 'New user' }).click();
    const username = `web2-${Date.now().toString(36)}`;
    const password = 'a-long-enough-passphrase-42';
    await page.getByLabel('Name', { exact: true }).fill('Dana Admin-Made');
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Storage quota (GiB)').fill('2.5');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').filter({ hasText: 'User created.' }).waitFor();
    await page.getByRole('cell', { name: username, exact: true }).waitFor();
    // The quota reaches the account in bytes, and the list shows it in GiB.
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
    await row.getByRole('cell', { name: '2.5 GiB', exact: true }).waitFor();
    const quotaOf = async () =>
      (await ok(adminApi(web().stack).GET('/v1/users', { params: { query: { limit: 100 } } }), 200)).find(
        (u) => u.username === username,
      )?.quotaBytes;
    expect(await quotaOf()).toBe(2.5 * 1024 ** 3);
    await shots(page, 'admin-users');

    // The new user logs in through the login page.
    const other = await web().visitor();
    await other.goto(`${web().origin}/login`);
    await other.getByLabel('Username', { exact: true }).fill(username);
    await other.getByLabel('Password').fill(password);
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.waitForURL(`${web().origin}/`);
    await other.getByRole('heading', { name: 'No photos yet' }).waitFor();

    // Edit the name and lift the quota (the form shows the current one; empty is unlimited), then delete with confirmation.
    await page.getByRole('link', { name: `Edit ${username}` }).click();
    await page.getByLabel('Name', { exact: true }).fill('Dana Renamed');
    expect(await page.getByLabel('Storage quota (GiB)').inputValue()).toBe('2.5');
    await page.getByLabel('Storage quota (GiB)').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Dana Renamed' }).waitFor();
    await row.getByRole('cell', { name: 'Unlimited', exact: true }).waitFor();
    expect(await quotaOf()).toBeNull();
    await page.getByRole('link', { name: `Delete ${username}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${username}?` });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('status').filter({ hasText: 'User deleted.' }).waitFor();
    expect(await page.getByRole('cell', { name: username, exact: true }).count()).toBe(0);
  });
});
