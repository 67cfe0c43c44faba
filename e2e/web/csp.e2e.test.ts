/**
 * Security L6 in a real browser: the web app under its Content-Security-Policy. Every page of the app
 * (an owner's, a visitor's of a shared link, the administrator's) must load, hydrate and work with no
 * CSP violation in the console (the fixtures fail a test on any, as on React errors); the inline scripts
 * carry the answer's nonce, a fresh one per answer; a script without it is refused (so the detector
 * itself is shown to catch a violation); HSTS goes out only over HTTPS.
 */
import { DESKTOP, eventually, nav, sharedAlbum, startWebApp } from './fixtures';
import type { WebApp } from './fixtures';

let web: WebApp;

beforeAll(async () => {
  web = await startWebApp();
}, 180_000);

afterAll(async () => {
  await web?.stop();
}, 60_000);

/** The policy of an answer, as directive → sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('the web app under its Content-Security-Policy (e2e)', () => {
  afterEach(async () => {
    if (web) expect(await web.closeContexts()).toEqual([]);
  });

  it('sends a strict policy whose nonce is on every inline script of the page, fresh per answer', async () => {
    const answers = await Promise.all([1, 2].map(() => fetch(`${web.origin}/login`)));
    const [first, second] = await Promise.all(
      answers.map(async (res) => ({
        policy: directives(res.headers.get('content-security-policy')),
        html: await res.text(),
      })),
    );
    expect(first.policy).toMatchObject({
      'default-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
    });
    const nonce = /^'nonce-([A-Za-z0-9+/=]{20,})'$/.exec(
      first.policy['script-src'].find((s) => s.startsWith("'nonce-")) ?? '',
    )?.[1];
    expect(nonce).toBeDefined();
    expect(first.policy['script-src']).not.toContain("'unsafe-inline'");
    expect(first.policy['script-src']).not.toContain("'unsafe-eval'");
    const scripts = [...first.html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(second.policy['script-src']).not.toContain(`'nonce-${nonce}'`);
  });

  it('sends HSTS only on answers that went out over HTTPS', async () => {
    const plain = await fetch(`${web.origin}/login`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    // The test stack trusts loopback as a proxy: the TLS-ending proxy says the browser used https.
    const secure = await fetch(`${web.origin}/login`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=15552000');
    await Promise.all([plain.body?.cancel(), secure.body?.cancel()]);
  });

  it("an owner's pages load, hydrate and work with no violation: photos, viewer and video, albums, favourites, settings, trash", async () => {
    const { page, items, user } = await web.session({ upload: ['jpeg', 'png', 'mp4'] });
    await sharedAlbum(user, 'Under the policy', [items.jpeg!, items.mp4!]);
    await page.goto(`${web.origin}/`);
    // Thumbnails (signed URLs on this origin) and the thumbhash placeholders (data: URLs) load.
    await eventually(() => page.locator('.grid img.thumb.loaded').count(), 3, 20_000);
    // Hydrated: the viewer opens on a click; the video (blob-free, from this origin) plays.
    const viewer = page.locator('dialog.viewer');
    let played = false;
    for (let i = 0; i < 3 && !played; i++) {
      await page.locator('.grid .tile-link').nth(i).click();
      await viewer.waitFor();
      if ((await viewer.locator('video').count()) > 0) {
        await eventually(
          () => viewer.locator('video').evaluate((v) => (v as HTMLVideoElement).readyState >= 2),
          true,
          20_000,
        );
        played = true;
      }
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'hidden' });
    }
    expect(played).toBe(true);
    await nav(page, 'Albums', '/albums');
    await page.locator('.album-link').first().click();
    await page.getByRole('heading', { name: 'Under the policy' }).waitFor();
    await nav(page, 'Favourites', '/favourites');
    await nav(page, 'Settings', '/settings');
    await nav(page, 'Trash', '/trash');
    await nav(page, 'Photos', '/');
    await eventually(() => page.locator('.grid img.thumb.loaded').count(), 3, 20_000);
  }, 120_000);

  it("a visitor's shared page and the administrator's page load with no violation", async () => {
    const { items, user } = await web.session({ upload: ['jpeg'], loggedIn: false });
    const albumId = await sharedAlbum(user, 'Shared under the policy', [items.jpeg!]);
    const visitor = await web.visitor(DESKTOP);
    await visitor.goto(`${web.origin}/share/${albumId}`);
    await visitor.getByRole('heading', { name: 'Shared under the policy' }).waitFor();
    await eventually(() => visitor.locator('.grid img.thumb.loaded').count(), 1, 15_000);
    await visitor.locator('.grid .tile-link').first().click();
    await visitor.locator('dialog.viewer').waitFor();
    const admin = await web.administrator();
    await admin.goto(`${web.origin}/admin/users`);
    await admin.locator('main').first().waitFor();
    await eventually(
      () =>
        admin
          .locator('main')
          .first()
          .textContent()
          .then((t) => (t ?? '').includes(user.username)),
      true,
    );
  });

  it('refuses a script without the nonce, and the violation is caught (the check above can fail)', async () => {
    const page = await web.visitor();
    await page.goto(`${web.origin}/login`);
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { injected?: boolean };
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 200));
      return w.injected === true;
    });
    expect(ran).toBe(false);
    const seen = await web.closeContexts();
    expect(seen).toEqual([expect.stringMatching(/Content Security Policy/)]);
  });
});
