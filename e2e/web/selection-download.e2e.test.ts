/**
 * "Download" of selected items, in a real browser against the whole of Trove: the browser saves a
 * ZIP of the originals (the page stays where it was); a viewer of a shared album downloads the
 * owner's photo from it, and once the owner trashed it the page says so and starts no download.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { ok } from '../support/api';
import { unzip } from '../support/zip';
import { albumWithMember, eventually, hydrated, shot, tiles, webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** Selects the tiles whose image is one of `names`. */
async function select(page: Page, names: string[]): Promise<void> {
  for (const name of names) {
    const tile = page.locator('.grid .tile', { has: page.locator(`img[alt*="${name}"]`) });
    await tile.hover();
    await tile.getByRole('button', { name: /^Select / }).click();
  }
}

/** Clicks Download in the selection bar and answers the ZIP the browser saved: its file name and entries. */
async function downloadSelected(page: Page) {
  const bar = page.getByRole('toolbar', { name: 'Selected items' });
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    bar.getByRole('button', { name: 'Download' }).click(),
  ]);
  const path = await saved.path();
  return { filename: saved.suggestedFilename(), entries: await unzip(await readFile(path)) };
}

describe('downloading selected items (browser)', () => {
  it('saves the selected originals as a ZIP while the page stays where it was', async () => {
    const { page } = await web().session({ upload: ['jpeg', 'png', 'mp4'] });
    await eventually(() => tiles(page).count(), 3);
    const url = page.url();

    await select(page, ['diagram.png', 'beach.jpg']);
    await shot(page, 'selection-download');
    const { filename, entries } = await downloadSelected(page);
    expect(filename).toBe('trove-2-items.zip');
    expect(entries.map((e) => e.name).sort()).toEqual(['beach.jpg', 'diagram.png']);
    const bytes = Object.fromEntries(entries.map((e) => [e.name, e.bytes]));
    expect(bytes['beach.jpg']!.equals(web().files.jpeg.buffer)).toBe(true);
    expect(bytes['diagram.png']!.equals(web().files.png.buffer)).toBe(true);
    await page.getByRole('status').filter({ hasText: 'Downloading 2 items as a ZIP' }).waitFor();
    expect(page.url()).toBe(url);
    expect(await page.getByRole('toolbar', { name: 'Selected items' }).count()).toBe(0);
  });

  it("a viewer of a shared album downloads the owner's photo from it, until the owner trashes it", async () => {
    const owner = await web().session({ upload: ['jpeg'] });
    const member = await web().session();
    const albumId = await albumWithMember(owner.user, 'Grandma’s garden', [owner.items.jpeg!], member.user, 'viewer');

    await member.page.goto(`${web().origin}/albums/${albumId}`);
    await hydrated(member.page);
    await eventually(() => tiles(member.page).count(), 1);
    await select(member.page, ['beach.jpg']);
    const offered = await member.page
      .getByRole('toolbar', { name: 'Selected items' })
      .locator('.selection-actions button')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('title')));
    expect(offered).toEqual(['Download']);
    const { filename, entries } = await downloadSelected(member.page);
    expect(filename).toBe('trove-1-item.zip');
    expect(entries.map((e) => e.name)).toEqual(['beach.jpg']);
    expect(entries[0]!.bytes.equals(web().files.jpeg.buffer)).toBe(true);

    // The owner trashes it while the member's page still shows it: the page says so, no download starts.
    await select(member.page, ['beach.jpg']);
    await ok(owner.user.api.POST('/v1/trash', { body: { mediaItems: [owner.items.jpeg!.id] } }), 204);
    let downloads = 0;
    member.page.on('download', () => (downloads += 1));
    await member.page
      .getByRole('toolbar', { name: 'Selected items' })
      .getByRole('button', { name: 'Download' })
      .click();
    await member.page.getByRole('status').filter({ hasText: 'Some of these items are no longer there' }).waitFor();
    expect(downloads).toBe(0);
  });
});
