/**
 * Changing one's own password in the settings page, in a real browser against the whole of Trove:
 * a wrong current password and two different new ones are refused on the form, nothing changed;
 * then the change goes through, this browser stays logged in, another browser's session ends, and
 * only the new password logs in.
 */
import { PASSWORD, answer, login } from '../support/api';
import { eventually, nav, shot, webAppForSuite } from './fixtures';

const web = webAppForSuite();

describe('changing your password (browser)', () => {
  it('refuses a wrong current password and a mistyped new one, then changes it and logs out the other sessions', async () => {
    const { page, user, context } = await web().session();
    const elsewhere = await web().sessionOf(user);

    await nav(page, 'Settings', '/settings');
    const section = page.getByRole('region', { name: 'Password' });
    const fill = async (current: string, next: string, again: string) => {
      await section.getByLabel('Current password').fill(current);
      await section.getByLabel('New password', { exact: true }).fill(next);
      await section.getByLabel('New password again').fill(again);
      await section.getByRole('button', { name: 'Change password' }).click();
    };
    const NEW = 'Silver-Morning-Tide-63';

    // Each answer replaces the last one's message: wait for this one's text, not for any alert.
    const refusal = (text: string | RegExp) => section.getByRole('alert').filter({ hasText: text }).waitFor();
    await fill('Not-The-Password-1', NEW, NEW);
    await refusal(/^That is not your current password\.$/);
    await expect(section.getByLabel('Current password').getAttribute('aria-invalid')).resolves.toBe('true');
    await fill(PASSWORD, NEW, `${NEW}x`);
    await refusal(/^The two new passwords are not the same\.$/);
    await fill(PASSWORD, 'short', 'short');
    await refusal(/^The new password must be/);
    expect((await answer(login(web().stack.gatewayUrl, user.username, PASSWORD))).status).toBe(200);

    await fill(PASSWORD, NEW, NEW);
    await section.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await expect(section.getByLabel('Current password').inputValue()).resolves.toBe('');
    await shot(page, 'settings-password-changed');

    // This browser goes on; the other one is sent to the login page at its next request.
    await nav(page, 'Photos', '/');
    await eventually(async () => {
      await elsewhere.goto(`${web().origin}/settings`);
      return new URL(elsewhere.url()).pathname;
    }, '/login');
    expect((await answer(login(web().stack.gatewayUrl, user.username, PASSWORD))).status).toBe(401);
    expect((await answer(login(web().stack.gatewayUrl, user.username, NEW))).status).toBe(200);

    // A form sent once the session is gone leads to the login page, which comes back here.
    await nav(page, 'Settings', '/settings');
    await context.clearCookies();
    await fill(NEW, PASSWORD, PASSWORD);
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirectTo') === '/settings');
  });
});
