/**
 * The web app in a real browser against the whole of Trove: nats-server, the compiled services
 * (auth, gateway, media, worker, library) and the built web server, all started here; Debian's
 * chromium driven by playwright-core. It checks what a person would see — texts, counts, states —
 * never pixels, and saves screenshots of the main screens at desktop and phone widths to
 * artifacts/web/. Each test stands alone: its own user, with the library it needs uploaded through
 * the API, logged in through the login page in a fresh browser context (see ./fixtures).
 */
import type { Page } from 'playwright-core';
import { ok, settled, upload } from '../support/api';
import { DESKTOP, PHONE, eventually, hydrated, nav, sharedAlbum, shot, webAppForSuite, tiles } from './fixtures';

const web = webAppForSuite();
/** All three files, processed: the library most tests start from. */
const ALL = ['jpeg', 'png', 'mp4'] as const;

/**
 * Taps the first tile until the viewer opens. Under a loaded CI host a late re-layout (the scrubber, the
 * memories' pictures) can move the tile between Playwright's hit test and its tap, which then lands
 * beside it; a second tap on the settled page must open the viewer.
 */
async function openFirstTile(page: Page): Promise<void> {
  const viewer = page.locator('dialog.viewer');
  for (let attempt = 1; ; attempt++) {
    await page.locator('.grid .tile-link').first().click();
    try {
      await viewer.waitFor({ timeout: attempt < 3 ? 5000 : 30_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Runs `body` with the gateway stopped, and starts it again whatever happens. */
async function withGatewayDown(body: () => Promise<void>): Promise<void> {
  await web().stack.processes.gateway.stop();
  try {
    await body();
  } finally {
    if (
      web().stack.processes.gateway.child.exitCode !== null ||
      web().stack.processes.gateway.child.signalCode !== null
    )
      await web().stack.startService('gateway');
  }
}

describe('the web app in a browser (e2e)', () => {
  it('refuses wrong credentials with a clear message, then logs in', async () => {
    const { page, context, user } = await web().session({ loggedIn: false });
    await page.goto(`${web().origin}/`);
    await page.waitForURL(`${web().origin}/login`);
    await shot(page, 'login-desktop');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong username or password.');
    await web().logIn(page, user);
    await page.getByRole('heading', { name: 'No photos yet' }).waitFor();
    // The session cookie is httpOnly: the page's scripts cannot read any token.
    expect(await page.evaluate(() => document.cookie)).not.toContain('trove_session');
    const cookie = (await context.cookies()).find((c) => c.name === 'trove_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(Buffer.from(decodeURIComponent(cookie!.value), 'base64').toString()).not.toMatch(/eyJ/); // no readable JWT
  });

  it('uploads a JPEG, a PNG and an MP4 with a progress bar per file and overall', async () => {
    const { page, context } = await web().session();
    // A slow link, so the bars are seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 600 * 1024,
    });
    await page.getByTestId('upload-input').setInputFiles(ALL.map((kind) => web().files[kind]));
    const panel = page.getByRole('region', { name: 'Uploads' });
    await panel.waitFor();
    await expect(panel.getByRole('progressbar', { name: 'All uploads' }).count()).resolves.toBe(1);
    await expect(panel.getByRole('progressbar', { name: /^Upload of / }).count()).resolves.toBe(3);
    // Watch the bars: some value strictly between empty and full shows up while sending.
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const values = await panel
        .locator('progress')
        .evaluateAll((els) => els.map((e) => `${(e as HTMLProgressElement).value}/${(e as HTMLProgressElement).max}`));
      values.forEach((v) => seen.add(v));
      if ((await panel.locator('[data-status=done]').count()) === 3) break;
      await page.waitForTimeout(50);
    }
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(
      [...seen].some((v) => {
        const [a, b] = v.split('/').map(Number);
        return a > 0 && a < b;
      }),
    ).toBe(true);
    await expect(panel.locator('[data-status=done]').count()).resolves.toBe(3);
    await panel.getByRole('heading', { name: '3 items uploaded' }).waitFor();
    for (const name of ['beach.jpg', 'diagram.png', 'clip.mp4']) {
      const entry = panel.locator('li', { hasText: name });
      await expect(entry.getByText('Uploaded').count()).resolves.toBe(1);
      await expect(
        entry
          .getByRole('progressbar')
          .evaluate((e) => (e as HTMLProgressElement).value === (e as HTMLProgressElement).max),
      ).resolves.toBe(true);
    }
    await shot(page, 'upload-desktop');
  });

  it('shows the new items in the grid and turns them ready without a reload', async () => {
    const { page } = await web().session();
    // No thumbnail exists while an item is processed: a tile does not ask for one (a 404 each) until it is ready.
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404 && r.url().includes('/thumbnail')) missing.push(r.url());
    });
    await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
    await page.getByTestId('upload-input').setInputFiles(ALL.map((kind) => web().files[kind]));
    await eventually(() => tiles(page).count(), 3, 10_000);
    await eventually(() => page.locator('.grid .tile[data-status=READY]').count(), 3, 60_000);
    await expect(page.getByText('Processing…').count()).resolves.toBe(0);
    // Thumbnails loaded and faded in over their placeholders.
    await eventually(() => page.locator('.grid img.thumb.loaded').count(), 3, 15_000);
    await page.getByRole('heading', { name: 'Today' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
    expect(missing).toEqual([]);
  });

  it("writes a day's name above a tile's status bar, not over its text (an item that could not be processed)", async () => {
    const { page, user } = await web().session();
    // A JPEG cut off before its picture data: FAILED, and its tile says so along its bottom edge.
    const jpeg = web().files.jpeg.buffer;
    const headersOnly = jpeg.subarray(0, jpeg.indexOf(Buffer.from([0xff, 0xda])));
    const { id } = await ok(upload(user.api, headersOnly, 'cut-short.jpg'), 201);
    expect(await settled(user.api, id)).toMatchObject({ status: 'FAILED' });
    await page.reload();
    const status = page.locator(`.grid .tile[data-id="${id}"] .tile-status`);
    await status.getByText('Could not process').waitFor();
    const chip = page.locator('.day-chip', { hasText: 'Today' });
    const chipBox = (await chip.boundingBox())!;
    // Where the bar's words are (the bar itself fades in above them).
    const words = await status.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const { top, bottom, left, right } = range.getBoundingClientRect();
      return { top, bottom, left, right };
    });
    expect(chipBox.y + chipBox.height).toBeLessThanOrEqual(words.top);
    expect(chipBox.x).toBeLessThan(words.right); // the same tile's corner
  });

  it('shows the photo taken on this day four years ago in the "On this day" strip', async () => {
    const { page, user, items: uploaded } = await web().session({ upload: [...ALL], loggedIn: false });
    // The strip's data first (an answer without the photo fails here, saying what came instead), then the strip.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/years-ago' && r.status() === 200, {
      timeout: 60_000,
    });
    await web().logIn(page, user);
    const { items } = (await (await answered).json()) as { items: Array<{ filename: string }> };
    // With the photo's date beside it: a failure tells whether the date or the query was wrong.
    const fourYearsAgo = `${new Date().getUTCFullYear() - 4}${new Date().toISOString().slice(4, 10)}`;
    expect({ found: items.map((i) => i.filename), taken: uploaded.jpeg?.creationTime.slice(0, 10) }).toEqual({
      found: ['beach.jpg'],
      taken: fourYearsAgo,
    });
    const memories = page.getByRole('region', { name: 'On this day' });
    await memories.waitFor();
    await expect(memories.textContent()).resolves.toContain('4 years ago · 1 item');
    await memories.getByRole('link').click();
    const viewer = page.getByRole('dialog', { name: /beach\.jpg/ });
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Info' }).click();
    await expect(viewer.getByRole('complementary', { name: 'Info' }).textContent()).resolves.toContain(
      'Trove Test Camera',
    );
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('dialog.viewer').count(), 0);
  });

  it('moves between photos with the arrow keys and opens one with Enter', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await eventually(() => tiles(page).count(), 3);
    const focused = () =>
      page.evaluate(() => document.activeElement?.closest('.tile')?.getAttribute('data-id') ?? null);
    const first = await tiles(page).first().getAttribute('data-id');
    await tiles(page).first().locator('.tile-link').focus();
    await eventually(focused, first);
    await page.keyboard.press('ArrowRight');
    const second = await tiles(page).nth(1).getAttribute('data-id');
    await eventually(focused, second);
    await page.keyboard.press('Enter');
    await page.locator('dialog.viewer').waitFor();
    await expect(page.locator('dialog.viewer').textContent()).resolves.toContain('2 of 3');
    await page.keyboard.press('Escape');
    // Once (2026-11-29, a loaded CI) Esc left the viewer open here; if it happens again, say where the page was.
    await eventually(() => page.locator('dialog.viewer').count(), 0).catch(async (err: Error) => {
      await shot(page, 'arrow-keys-escape-failed');
      const where = await page.evaluate(() => ({
        url: location.href,
        state: JSON.stringify(history.state),
        modal: !!document.querySelector('dialog.viewer:modal'),
        focus: document.activeElement?.outerHTML.slice(0, 120),
      }));
      throw new Error(`${err.message}; the page: ${JSON.stringify(where)}`);
    });
    // Focus goes back to the tile the viewer showed.
    await eventually(focused, second);
  });

  it('takes files dropped anywhere on the page, and reports a duplicate as already in the library, with a link to it', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await eventually(() => tiles(page).count(), 3);
    // A real drag from the desktop cannot be scripted; the same DOM events with the file can.
    await page.evaluate(
      ({ b64, name }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name, { type: 'image/jpeg' }));
        (window as unknown as { dt: DataTransfer }).dt = dt;
        document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { b64: web().files.jpeg.buffer.toString('base64'), name: web().files.jpeg.name },
    );
    await page.getByText('Drop photos and videos to upload them').waitFor();
    await page.evaluate(() =>
      document.body.dispatchEvent(
        new DragEvent('drop', {
          dataTransfer: (window as unknown as { dt: DataTransfer }).dt,
          bubbles: true,
          cancelable: true,
        }),
      ),
    );
    await eventually(() => page.getByText('Drop photos and videos to upload them').count(), 0);
    const entry = page.getByRole('region', { name: 'Uploads' }).locator('li[data-status=duplicate]');
    await entry.waitFor({ timeout: 15_000 });
    await expect(entry.textContent()).resolves.toContain('Already in your library');
    await entry.getByRole('link', { name: 'Show it' }).click();
    await page.getByRole('dialog', { name: /beach\.jpg/ }).waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('dialog.viewer').count(), 0);
    await page.getByRole('button', { name: 'Close uploads' }).click();
    await shot(page, 'photos-desktop');
  });

  it('opens the viewer, steps with the arrow keys, plays and seeks the video, closes with Esc', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await tiles(page).first().locator('.tile-link').click();
    const viewer = page.locator('dialog.viewer');
    await viewer.waitFor();
    await expect(viewer.textContent()).resolves.toContain('1 of 3');
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      names.push((await viewer.locator('.viewer-name').textContent()) ?? '');
      if (i < 2) {
        await page.keyboard.press('ArrowRight');
        await eventually(
          () => viewer.textContent(),
          (v) => (v ?? '').includes(`${i + 2} of 3`),
        );
      }
    }
    expect([...names].sort()).toEqual(['beach.jpg', 'clip.mp4', 'diagram.png']);
    await page.keyboard.press('ArrowLeft');
    await eventually(() => viewer.locator('.viewer-name').textContent(), names[1]);
    // Step to the video and play it.
    const videoAt = names.indexOf('clip.mp4');
    for (let i = 1; i > videoAt; i--) await page.keyboard.press('ArrowLeft');
    for (let i = 1; i < videoAt; i++) await page.keyboard.press('ArrowRight');
    await eventually(() => viewer.locator('.viewer-name').textContent(), 'clip.mp4');
    const video = viewer.locator('video');
    await video.waitFor();
    const played = await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
      const start = Date.now();
      while (v.currentTime < 0.5 && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 50));
      const playedTo = v.currentTime;
      v.pause();
      v.currentTime = 2.5; // seeking needs Range answers all the way from the gateway
      await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
      return { playedTo, seekedTo: v.currentTime, duration: v.duration, error: v.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.playedTo).toBeGreaterThanOrEqual(0.5);
    expect(played.seekedTo).toBeCloseTo(2.5, 0);
    expect(played.duration).toBeCloseTo(3, 0);
    await viewer.getByRole('button', { name: 'Info' }).click();
    await viewer.getByRole('heading', { name: 'Info' }).waitFor();
    await expect(viewer.textContent()).resolves.toContain('640 × 360');
    await shot(page, 'viewer-desktop');
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('dialog.viewer').count(), 0);
    expect(new URL(page.url()).searchParams.get('item')).toBeNull();
  });

  it('favourites a photo in the viewer and finds it under Favourites', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await page
      .locator('.grid .tile', { has: page.locator('img[alt*="beach.jpg"]') })
      .locator('.tile-link')
      .click();
    const viewer = page.getByRole('dialog', { name: /beach\.jpg/ });
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Favourite' }).click();
    await eventually(() => viewer.getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Escape');
    await nav(page, 'Favourites', '/favourites');
    await eventually(() => tiles(page).count(), 1);
    await expect(page.locator('.grid img').getAttribute('alt')).resolves.toContain('beach.jpg');
  });

  it('moves an item to the trash, finds it there with the retention explained, and restores it', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await eventually(() => tiles(page).count(), 3);
    const png = page.locator('.grid .tile', { has: page.locator('img[alt*="diagram.png"]') });
    await png.hover();
    await png.getByRole('button', { name: /^Select / }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await expect(bar.textContent()).resolves.toContain('1 selected');
    await bar.getByRole('button', { name: 'Move to trash' }).click();
    await eventually(() => tiles(page).count(), 2);
    await page.getByRole('status').filter({ hasText: 'Moved 1 item to the trash' }).waitFor();

    await nav(page, 'Trash', '/trash');
    await eventually(() => tiles(page).count(), 1);
    await expect(page.locator('#retention').textContent()).resolves.toContain('30 days');
    await shot(page, 'trash-desktop');
    const trashed = tiles(page).first();
    await trashed.hover();
    await trashed.getByRole('button', { name: /^Select / }).click();
    await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('heading', { name: 'The trash is empty' }).waitFor();

    await nav(page, 'Photos', '/');
    await eventually(() => tiles(page).count(), 3);
  });

  it('creates an album from two selected items (shift-click), shares it, and shows it to a visitor without a session', async () => {
    const { page } = await web().session({ upload: [...ALL] });
    await eventually(() => tiles(page).count(), 3);
    const first = tiles(page).nth(0);
    await first.hover();
    await first.getByRole('button', { name: /^Select / }).click();
    await tiles(page)
      .nth(1)
      .getByRole('button', { name: /^Select / })
      .click({ modifiers: ['Shift'] });
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await expect(bar.textContent()).resolves.toContain('2 selected');
    await bar.getByRole('button', { name: 'Add to album' }).click();
    const picker = page.getByRole('dialog', { name: /Add 2 items to an album/ });
    await picker.getByLabel('New album').fill('Summer by the sea');
    await picker.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('status').getByRole('link', { name: 'Open album' }).click();
    await page.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
    await expect(page.getByTestId('album-count').textContent()).resolves.toBe('2 items');
    await eventually(() => tiles(page).count(), 2);

    await page.getByRole('switch', { name: 'Share by link' }).click();
    await eventually(() => page.getByRole('switch', { name: 'Share by link' }).getAttribute('aria-checked'), 'true');
    const link = await page.getByLabel('Public link').inputValue();
    expect(link).toMatch(new RegExp(`^${web().origin}/share/[0-9a-f-]{36}$`));
    await shot(page, 'album-desktop');

    await nav(page, 'Albums', '/albums');
    await expect(page.locator('.album-card').textContent()).resolves.toContain('Summer by the sea');
    await expect(page.locator('.album-card').textContent()).resolves.toContain('2 items');
    await shot(page, 'albums-desktop');

    const v = await web().visitor(DESKTOP);
    await v.goto(link);
    await v.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
    await expect(v.getByTestId('album-count').textContent()).resolves.toBe('2 items');
    await eventually(() => v.locator('.grid .tile').count(), 2);
    await eventually(() => v.locator('.grid img.thumb.loaded').count(), 2, 15_000);
    await v.locator('.grid .tile-link').first().click();
    await v.locator('dialog.viewer').waitFor();
    // A visitor sees the item but none of the owner's actions.
    await expect(v.locator('dialog.viewer').getByRole('button', { name: 'Move to trash' }).count()).resolves.toBe(0);
    await shot(v, 'shared-viewer-desktop');
    await v.keyboard.press('Escape');
    await shot(v, 'shared-desktop');
    expect((await v.context().cookies()).find((c) => c.name === 'trove_session')).toBeUndefined();

    // Add photos: the two items the album holds are marked and cannot be chosen; the third is added.
    await page.locator('.album-card').click();
    await page.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
    await page.locator('.album-tools').getByRole('link', { name: 'Add photos' }).click();
    await page.getByRole('heading', { name: 'Add to “Summer by the sea”' }).waitFor();
    await hydrated(page);
    await eventually(() => tiles(page).count(), 3);
    const held = page.locator('.grid .tile[data-locked]');
    await eventually(() => held.count(), 2);
    await expect(held.first().textContent()).resolves.toContain('In this album');
    // Marked disabled for assistive technology; a click (forced past that) selects nothing.
    await expect(held.first().locator('.tile-link').isDisabled()).resolves.toBe(true);
    await held.first().locator('.tile-link').click({ force: true });
    const free = page.locator('.grid .tile:not([data-locked])');
    await free.locator('.tile-link').click();
    await eventually(() => free.getAttribute('data-selected'), 'true');
    await expect(page.locator('.grid .tile[data-selected]').count()).resolves.toBe(1);
    await shot(page, 'album-add-desktop');
    await page.getByRole('button', { name: 'Add 1 item' }).click();
    await page.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
    await eventually(() => page.getByTestId('album-count').textContent(), '3 items');
  });

  it("on a phone, the navigation row shows it goes on past the edge, and keeps the current page's destination in it", async () => {
    const { page } = await web().session({ viewport: PHONE, phone: true });
    const row = page.getByRole('navigation', { name: 'Library' }).getByRole('list');
    /** Each destination's left and right edge, and the row's. */
    const edges = () =>
      row.evaluate((ul) => ({
        row: ul.getBoundingClientRect().toJSON() as DOMRect,
        links: [...ul.querySelectorAll('a')].map((a) => ({
          name: a.textContent,
          ...(a.getBoundingClientRect().toJSON() as DOMRect),
        })),
      }));
    const fullyIn = (link: DOMRect, { left, right }: DOMRect) => link.left >= left - 1 && link.right <= right + 1;
    // Not a row that looks complete: one destination is cut by the edge, enough of it shown to be seen (its label
    // is centred: a sliver of its box shows nothing).
    const first = await edges();
    const cut = first.links.find((l) => l.left < first.row.right && l.right > first.row.right + 1);
    expect(cut).toBeDefined();
    expect((first.row.right - cut!.left) / cut!.width).toBeGreaterThanOrEqual(0.4);
    const settings = () =>
      edges().then(({ row: r, links }) =>
        fullyIn(
          links.find((l) => l.name === 'Settings')!,
          r,
        ),
      );
    expect(await settings()).toBe(false);
    // Opened from elsewhere (a bookmark, a link), the Settings page scrolls its destination into the row.
    await page.goto(`${web().origin}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await eventually(settings, true, 5_000);
  });

  it('saves the main screens at phone width', async () => {
    const {
      page: p,
      user,
      items,
    } = await web().session({ upload: [...ALL], viewport: PHONE, phone: true, loggedIn: false });
    await sharedAlbum(user, 'Summer by the sea', [items.jpeg!, items.png!]);
    await p.goto(`${web().origin}/login`);
    await shot(p, 'login-phone');
    await web().logIn(p, user);
    await eventually(() => p.locator('.grid img.thumb.loaded').count(), 3, 15_000);
    // The JPEG was taken on this day years ago: its "On this day" strip arrives after the grid and
    // pushes it down; a tap before it lands would hit whatever moved under the finger.
    await p.getByRole('region', { name: 'On this day' }).waitFor();
    // So does the scrubber (the month counts come after the first page), and the grid is laid out again.
    await p.getByRole('slider', { name: 'Timeline' }).waitFor();
    await shot(p, 'photos-phone');
    await openFirstTile(p);
    await shot(p, 'viewer-phone');
    await p.keyboard.press('Escape');
    await nav(p, 'Albums', '/albums');
    await shot(p, 'albums-phone');
    await p.locator('.album-link').first().click();
    await p.getByRole('heading', { name: 'Summer by the sea' }).waitFor();
    await shot(p, 'album-phone');
    await nav(p, 'Trash', '/trash');
    await shot(p, 'trash-phone');
    await p.goto(`${web().origin}/no/such/page`);
    await p.getByRole('heading', { name: 'Page not found' }).waitFor();
    await shot(p, 'not-found-phone');
  });

  it('shows an error page that offers to retry while the API is down, and recovers', async () => {
    const { page, user, items } = await web().session({ upload: [...ALL] });
    await ok(user.api.POST('/v1/favourites', { body: { mediaItems: [items.jpeg!.id] } }), 204);
    await withGatewayDown(async () => {
      await page.goto(`${web().origin}/favourites`);
      await page.getByRole('heading', { name: 'Trove is unreachable' }).waitFor();
      await shot(page, 'error-desktop');
      await web().stack.startService('gateway');
    });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Favourites' }).waitFor();
    await eventually(() => tiles(page).count(), 1);
  });

  it('logs out: the session ends and the app sends the browser to the login page', async () => {
    const { page, context } = await web().session();
    await page.getByRole('button', { name: /^Log out/ }).click();
    await page.waitForURL(`${web().origin}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect((await context.cookies()).find((c) => c.name === 'trove_session')).toBeUndefined();
    await page.goto(`${web().origin}/favourites`);
    await page.waitForURL(`${web().origin}/login?redirectTo=%2Ffavourites`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
  });

  it('lands on the bare login page when a call under way at logout is answered 401 before the page changes', async () => {
    const { page } = await web().session();
    // Held: the home page's memories call, then the login page's data, so that the first is answered (401: the
    // session has ended) while the browser still shows the home page — the race a loaded host can produce.
    // Awaited: the route is in place before the request it must hold can leave.
    const hold = async (pattern: string) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(pattern, async (route) => {
        await released;
        await route.continue().catch(() => undefined);
      });
      return release;
    };
    const releaseMemories = await hold('**/api/years-ago**');
    const memoriesAsked = page.waitForRequest('**/api/years-ago**');
    await page.reload();
    await memoriesAsked;
    const releaseLogin = await hold('**/login?_data=**');
    const loggedOut = page.waitForResponse((r) => new URL(r.url()).pathname === '/logout');
    await page.getByRole('button', { name: /^Log out/ }).click();
    await loggedOut;
    const memoriesAnswered = page.waitForResponse('**/api/years-ago**');
    releaseMemories();
    expect((await memoriesAnswered).status()).toBe(401);
    releaseLogin();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(page.url()).toBe(`${web().origin}/login`);
  });

  it('says so on the login page when the server cannot be reached', async () => {
    const { page, user } = await web().session({ loggedIn: false });
    await page.goto(`${web().origin}/login`);
    await withGatewayDown(async () => {
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await eventually(
        () => page.getByRole('alert').textContent(),
        (t) => (t ?? '').includes('The Trove server cannot be reached'),
      );
    });
  });

  it('has no uncaught error or React error on any screen, as its owner or as a visitor', async () => {
    const { page, user, items } = await web().session({ upload: [...ALL] });
    const album = await sharedAlbum(user, 'Every screen', [items.jpeg!, items.mp4!]);
    await eventually(() => page.locator('.grid img.thumb.loaded').count(), 3, 15_000);
    for (const [name, path] of [
      ['Favourites', '/favourites'],
      ['Trash', '/trash'],
      ['Albums', '/albums'],
      ['Photos', '/'],
    ]) {
      await nav(page, name, path);
    }
    await tiles(page).first().locator('.tile-link').click();
    await page.locator('dialog.viewer').waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`${web().origin}/albums/${album}`);
    await page.getByRole('heading', { name: 'Every screen' }).waitFor();
    const v = await web().visitor();
    await v.goto(`${web().origin}/share/${album}`);
    await v.getByRole('heading', { name: 'Every screen' }).waitFor();
    await v.goto(`${web().origin}/no/such/page`);
    await v.getByRole('heading', { name: 'Page not found' }).waitFor();
    // The errors are checked after each test (afterEach); this test visits every screen once more.
    expect(await web().closeContexts()).toEqual([]);
  });
});
