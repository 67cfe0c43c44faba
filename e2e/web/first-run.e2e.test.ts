/**
 * The first run in a browser: a fresh stack (no user yet), the login page says how to get an
 * account and offers "Set up Trove"; a wrong administrator password is refused on the form with
 * nothing created; the right one creates the account through the admin API and lands logged in.
 * Afterwards the offer is gone and /setup leads to the login page.
 */
import type { Page } from 'playwright-core';
import { webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** The gateway's answer to GET /v1/setup. */
async function needsSetup(): Promise<boolean> {
  const res = await fetch(`${web().stack.gatewayUrl}/v1/setup`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { needsSetup: boolean }).needsSetup;
}

async function fillSetup(page: Page, adminPassword: string): Promise<void> {
  await page.getByLabel('Administrator user name').fill(web().stack.adminUsername);
  await page.getByLabel('Administrator password').fill(adminPassword);
  await page.getByLabel('Name', { exact: true }).fill('First Person');
  await page.getByLabel('Username', { exact: true }).fill('first');
  await page.getByLabel('Password', { exact: true }).fill('a long enough password');
  await page.getByRole('button', { name: 'Create the account and log in' }).click();
}

describe('first run (browser)', () => {
  it('offers "Set up Trove" while no user exists; a wrong admin password is refused, the right one creates the account and logs it in', async () => {
    expect(await needsSetup()).toBe(true);
    const page = await web().visitor();
    await page.goto(`${web().origin}/`);
    await page.waitForURL(`${web().origin}/login`);
    await page.getByText('no account exists yet').waitFor();
    await page.getByRole('link', { name: 'Set up Trove' }).click();
    await page.waitForURL(`${web().origin}/setup`);
    await page.getByRole('heading', { name: 'Set up Trove' }).waitFor();

    // A wrong administrator password: a clear error on the form, nothing created.
    await fillSetup(page, 'not the admin password');
    await page.getByText('Wrong administrator user name or password').waitFor();
    expect(page.url()).toBe(`${web().origin}/setup`);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('First Person');
    expect(await needsSetup()).toBe(true);

    // The right one: the account is made and the browser lands logged in on the library.
    await fillSetup(page, web().stack.adminPassword);
    await page.waitForURL(`${web().origin}/`);
    expect((await page.context().cookies()).some((c) => c.name === 'trove_session')).toBe(true);
    expect(await needsSetup()).toBe(false);
    // The session is the new user's: the library answers without sending the browser back to log in.
    const home = await page.goto(`${web().origin}/`);
    expect(home?.status()).toBe(200);
    expect(page.url()).toBe(`${web().origin}/`);
  });

  it('once a user exists, the login page offers no setup and /setup sends to the login page', async () => {
    expect(await needsSetup()).toBe(false);
    const page = await web().visitor();
    await page.goto(`${web().origin}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Set up Trove' }).count()).toBe(0);
    await page.goto(`${web().origin}/setup`);
    await page.waitForURL(`${web().origin}/login`);
  });
});
