/**
 * API keys in the settings page, in a real browser against the whole of Trove: a key made on the
 * page is shown once (with a copy button), works as `X-Api-Key` against the gateway, is listed with
 * when it was last used, and once revoked through the confirmation the same call is refused.
 */
import { eventually, nav, shots, webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** The status of GET /v1/mediaItems with `key` as X-Api-Key, straight at the gateway. */
async function listWith(key: string): Promise<number> {
  const res = await fetch(`${web().stack.gatewayUrl}/v1/mediaItems`, { headers: { 'X-Api-Key': key } });
  await res.body?.cancel();
  return res.status;
}

describe('API keys in the settings (browser)', () => {
  it('makes a key shown once, which works as X-Api-Key until it is revoked on the page', async () => {
    const { page, context } = await web().session();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web().origin });
    await nav(page, 'Settings', '/settings');
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByText('No API keys yet.').waitFor();

    // A blank name is refused by the server with the form's message, nothing made.
    await keys.getByLabel('Name of a new key').fill('   ');
    await keys.getByRole('button', { name: 'Create key' }).click();
    await expect(keys.getByRole('alert').textContent()).resolves.toContain('Give the key a name');
    await expect(keys.getByLabel('Name of a new key').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(keys.getByText('No API keys yet.').count()).resolves.toBe(1);

    await keys.getByLabel('Name of a new key').fill('backup script');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByRole('region', { name: 'Your new key “backup script”' });
    await shown.waitFor();
    await expect(shown.textContent()).resolves.toContain('you won’t see it again');
    const key = await shown.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^trove_[A-Za-z0-9_-]{20,}$/);
    await expect(keys.getByRole('alert').count()).resolves.toBe(0);
    await expect(keys.getByLabel('Name of a new key').inputValue()).resolves.toBe('');
    const row = keys.getByTestId('api-keys').getByRole('row', { name: /backup script/ });
    await expect(row.textContent()).resolves.toContain('Never');

    // The copy button puts exactly that key on the clipboard.
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
    await shots(page, 'settings-api-key-new');

    expect(await listWith(key)).toBe(200);

    // Loaded again, the page lists the key and when it was used, never its secret.
    await eventually(
      async () => {
        await page.reload();
        return (await row.textContent()) ?? '';
      },
      (text) => / UTC$/.test(text.replace(/Revoke$/, '').trim()),
    );
    await expect(page.getByTestId('new-api-key').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(key);

    // Revoke asks first; Cancel keeps the key.
    await row.getByRole('button', { name: 'Revoke backup script' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “backup script”?' });
    await confirm.waitFor();
    await shots(page, 'settings-api-key-revoke');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await listWith(key)).toBe(200);

    await row.getByRole('button', { name: 'Revoke backup script' }).click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'detached' });
    await keys.getByText('No API keys yet.').waitFor();
    expect(await listWith(key)).toBe(401);
  });
});
