/**
 * Web II in a real browser against the whole of Trove (the browser suite's stack plus the explore
 * and jobs services): search from the header, people (named and then found by search, hidden and
 * listed with "Show hidden", merged, given another cover), a job started from /jobs, and
 * screenshots of the main pages at 1280 and 390 px in both themes (artifacts/web/, gitignored).
 *
 * One user's library serves the search, people and screenshot tests: the seed HEIC (a pizza, in
 * Mumbai) and the seed group photo cut into its left and right halves, so that some people are in
 * one half only and merging two of them makes a person in both photos.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { waitFor, waitForProgress } from '@trove/kit/testing';
import { describeWithFixtures, FIXTURES, heicFixture } from '@trove/kit/testing/media';
import type { components } from '@trove/openapi';
import { newUser, ok, uploadReady } from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';
import { DESKTOP, PHONE, eventually, pngSize, shots, startWebApp, tiles } from './fixtures';
import type { WebApp } from './fixtures';

type Person = components['schemas']['Person'];

/** Finding, embedding and cutting the faces of a group photo is slow on a shared machine. */
const PROCESSING_MS = 300_000;

let web: WebApp;
let owner: TestUser;
let heic: MediaItem;
let left: MediaItem;
let right: MediaItem;

const byId = (id: string) => ({ params: { path: { id } } });
const personOf = (api: Api, id: string): Promise<Person> => ok(api.GET('/v1/explore/people/{id}', byId(id)), 200);
const peopleIn = (api: Api, item: MediaItem): Promise<Person[]> =>
  ok(api.GET('/v1/mediaItems/{id}/people', byId(item.id)), 200);
const found = async (api: Api, q: string) =>
  (await ok(api.GET('/v1/search', { params: { query: { q } } }), 200)).map((i) => i.id);

/** The group photo's left or right half, as a JPEG. */
async function half(side: 'left' | 'right'): Promise<Buffer> {
  const group = await readFile(join(FIXTURES, 'faces.jpg'));
  const { width, height } = await sharp(group).metadata();
  const cut = Math.floor(width! / 2);
  const region = side === 'left' ? { left: 0, width: cut } : { left: cut, width: width! - cut };
  return sharp(group)
    .extract({ ...region, top: 0, height: height! })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Waits until `q` finds exactly `ids` through the API (the index follows events on its own). */
async function searchable(api: Api, q: string, ids: string[]): Promise<void> {
  const want = JSON.stringify([...ids].sort());
  await waitFor(async () => JSON.stringify((await found(api, q)).sort()) === want, {
    timeoutMs: 60_000,
    intervalMs: 200,
    what: `"${q}" to find ${want}`,
  });
}

/** Searches from the header's box as a person would: type, press Enter. */
async function searchFromHeader(page: Page, q: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search your photos' });
  await box.fill(q);
  await box.press('Enter');
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === q);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** The hrefs of the result grid's tiles, once there are `n` of them. */
async function tileLinks(page: Page, n: number): Promise<string[]> {
  await eventually(() => tiles(page).count(), n, 30_000);
  return tiles(page)
    .locator('a.tile-link')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
}

/** What the browser gets for the face a person's cover shows (its background image): status and type. */
async function coverFace(page: Page): Promise<[number, string | null]> {
  return page.getByTestId('person-cover').evaluate(async (el) => {
    const url = /url\("?([^")]+)"?\)/.exec(getComputedStyle(el).backgroundImage)?.[1];
    if (!url) return [0, null] as [number, string | null];
    const res = await fetch(url);
    return [res.status, res.headers.get('content-type')] as [number, string | null];
  });
}

/**
 * The people of the halves once explore has them all, each counted in the halves they are in: who
 * is in the left half only, in the right half only, and everyone.
 */
async function peopleOfHalves(api: Api): Promise<{ leftOnly: Person[]; rightOnly: Person[]; all: Person[] }> {
  return waitForProgress(
    async () => {
      const [inLeft, inRight] = await Promise.all([peopleIn(api, left), peopleIn(api, right)]);
      const all = [...new Map([...inLeft, ...inRight].map((p) => [p.id, p])).values()];
      const counted = all.every(
        (p) =>
          p.mediaItemsCount === Number(inLeft.some((q) => q.id === p.id)) + Number(inRight.some((q) => q.id === p.id)),
      );
      const leftOnly = inLeft.filter((p) => !inRight.some((q) => q.id === p.id));
      const rightOnly = inRight.filter((p) => !inLeft.some((q) => q.id === p.id));
      const ready = counted && leftOnly.length >= 1 && rightOnly.length >= 2;
      return { progress: all.length, result: ready ? { leftOnly, rightOnly, all } : undefined };
    },
    { stallMs: 90_000, intervalMs: 250, what: 'the people of both halves of the group photo, counted' },
  );
}

beforeAll(async () => {
  web = await startWebApp({ services: ['explore', 'jobs'] });
  owner = await newUser(web.stack);
  [heic, left, right] = await Promise.all([
    uploadReady(owner.api, await heicFixture(), 'IMG_0543.HEIC', PROCESSING_MS),
    uploadReady(owner.api, await half('left'), 'left.jpg', PROCESSING_MS),
    uploadReady(owner.api, await half('right'), 'right.jpg', PROCESSING_MS),
  ]);
}, PROCESSING_MS + 240_000);

afterAll(async () => {
  await web?.stop();
}, 60_000);

afterEach(async () => {
  // Uncaught exceptions and React errors (e.g. hydration mismatches) in any page of the test: there must be none.
  if (web) expect(await web.closeContexts()).toEqual([]);
});

describeWithFixtures('search, people and jobs in a browser (e2e)', () => {
  it('"pizza" typed in the header’s box and submitted shows the seed HEIC in the results grid', async () => {
    await searchable(owner.api, 'pizza', [heic.id]);
    const page = await web.sessionOf(owner);
    await searchFromHeader(page, 'pizza');
    const [href] = await tileLinks(page, 1);
    expect(href).toContain(heic.id);
  }, 120_000);

  it(
    'people: named (the name stays after a reload and is found by search), hidden then listed with "Show hidden", two merged into one in both photos, the cover chosen from their photos',
    async () => {
      const { leftOnly, rightOnly } = await peopleOfHalves(owner.api);
      const named = leftOnly[0]!;
      const [hidden, merged] = rightOnly as [Person, Person];
      const personLink = (page: Page, id: string) => page.locator(`.explore-list a[href="/explore/people/${id}"]`);
      const page = await web.sessionOf(owner);

      // Naming: inline on the person's page; after a reload it is still there; search finds their photo by it.
      await page.goto(`${web.origin}/explore/people/${named.id}`);
      await page.getByRole('heading', { level: 1, name: 'Add a name' }).waitFor();
      expect(await coverFace(page)).toEqual([200, 'image/webp']); // the face's own thumbnail, through the web server
      await page.getByLabel('Name this person').fill('Zephyrine');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('heading', { level: 1, name: 'Zephyrine' }).waitFor();
      await waitFor(async () => (await personOf(owner.api, named.id)).name === 'Zephyrine', {
        timeoutMs: 30_000,
        what: 'the name to be saved',
      });
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Zephyrine' }).waitFor();
      await searchable(owner.api, 'zephyrine', [left.id]);
      await searchFromHeader(page, 'Zephyrine');
      expect(await tileLinks(page, 1)).toEqual([expect.stringContaining(left.id)]);

      // Hiding: the switch on their page; the list leaves them out until "Show hidden", which lists only them.
      await page.goto(`${web.origin}/explore/people/${hidden.id}`);
      await page.getByRole('switch', { name: 'Hidden from People' }).click();
      await eventually(
        () => page.getByRole('switch', { name: 'Hidden from People' }).getAttribute('aria-checked'),
        'true',
      );
      await waitFor(async () => (await personOf(owner.api, hidden.id)).hidden, {
        timeoutMs: 30_000,
        what: 'the person to be hidden',
      });
      await page.goto(`${web.origin}/explore/people`);
      await personLink(page, named.id).waitFor();
      expect(await personLink(page, hidden.id).count()).toBe(0);
      await page.getByRole('switch', { name: 'Show hidden' }).click();
      await page.waitForURL((url) => url.searchParams.get('hidden') === 'true');
      await personLink(page, hidden.id).waitFor();
      expect(await page.locator('.explore-list > li').count()).toBe(1);
      await expect(page.getByRole('switch', { name: 'Show hidden' }).getAttribute('aria-checked')).resolves.toBe(
        'true',
      );
      await page.getByRole('switch', { name: 'Show hidden' }).click();
      await page.waitForURL((url) => !url.searchParams.has('hidden'));
      await personLink(page, named.id).waitFor();

      // Merging: pick two, "Merge", confirm (it cannot be undone); the one kept is in both photos.
      await page.getByRole('link', { name: 'Select to merge' }).click();
      await page.getByRole('checkbox', { name: 'Select Zephyrine' }).check();
      await page.locator(`.explore-card:has(a[href="/explore/people/${merged.id}"]) input.person-pick`).check();
      await page.getByText('2 selected').waitFor();
      await page.getByRole('button', { name: 'Merge', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Merge 2 people?' });
      await confirm.waitFor();
      await expect(confirm.getByRole('radio', { name: 'Zephyrine' }).isChecked()).resolves.toBe(true);
      await shots(page, 'people-merge');
      await confirm.getByRole('button', { name: 'Merge people' }).click();
      await page.getByRole('status').filter({ hasText: 'Merged into Zephyrine.' }).waitFor();
      expect(await personLink(page, merged.id).count()).toBe(0);
      expect((await personOf(owner.api, named.id)).mediaItemsCount).toBe(2);
      await page.getByRole('status').getByRole('link', { name: 'Zephyrine' }).click();
      await page.getByRole('heading', { level: 1, name: 'Zephyrine' }).waitFor();
      await expect(page.getByTestId('entry-count').textContent()).resolves.toBe('2 items');
      const photos = (await tileLinks(page, 2)).map((href) =>
        href.includes(left.id) ? 'left' : href.includes(right.id) ? 'right' : href,
      );
      expect(photos.sort()).toEqual(['left', 'right']);

      // The cover: chosen among their photos; the page shows it at once and keeps it after a reload.
      const cover = page.getByTestId('person-cover');
      const before = (await personOf(owner.api, named.id)).coverMediaItemId!;
      const other = before === left.id ? right : left;
      expect(await cover.getAttribute('data-cover')).toBe(before);
      await page.getByText('Choose cover').click();
      await page.getByRole('radio', { name: new RegExp(other.filename.replace('.', '\\.')) }).check();
      await shots(page, 'person-cover');
      await page.getByRole('button', { name: 'Use as cover' }).click();
      await eventually(() => cover.getAttribute('data-cover'), other.id);
      await page.getByRole('status').filter({ hasText: 'Cover of Zephyrine changed' }).waitFor();
      await waitFor(async () => (await personOf(owner.api, named.id)).coverMediaItemId === other.id, {
        timeoutMs: 30_000,
        what: 'the cover to be saved',
      });
      await page.reload();
      await eventually(() => cover.getAttribute('data-cover'), other.id);
      expect(await coverFace(page)).toEqual([200, 'image/webp']);
      expect((await personOf(owner.api, named.id)).coverMediaItemFace).toMatchObject({ mediaItemId: other.id });
    },
    PROCESSING_MS,
  );

  it(
    'faces: "Move to" gives a face to another person for good; "Not this person" takes it away from that person',
    async () => {
      const { leftOnly, all } = await peopleOfHalves(owner.api);
      // Two people of one face each that the test before left alone (unnamed, not hidden).
      const single = all.filter((p) => p.mediaItemsCount === 1 && p.name === '' && !p.hidden);
      const [from, to] = [single.find((p) => leftOnly.some((q) => q.id === p.id))!, single.at(-1)!];
      expect(from.id).not.toBe(to.id);
      const facesOf = (id: string) =>
        ok(owner.api.GET('/v1/explore/people/{id}/faces', { params: { path: { id }, query: { limit: 100 } } }), 200);
      const [face] = await facesOf(from.id);
      const page = await web.sessionOf(owner);

      await page.goto(`${web.origin}/explore/people/${from.id}`);
      const faces = page.locator('details.person-faces');
      await faces.locator('summary').click();
      await faces.getByLabel('Move to').selectOption(to.id);
      await faces.getByRole('button', { name: 'Move', exact: true }).click();
      await waitFor(async () => (await facesOf(to.id)).some((f) => f.id === face!.id), {
        timeoutMs: 30_000,
        what: 'the face to move',
      });
      expect((await facesOf(from.id)).some((f) => f.id === face!.id)).toBe(false);

      await page.goto(`${web.origin}/explore/people/${to.id}`);
      await page.locator('details.person-faces summary').filter({ hasText: 'Faces (2)' }).click();
      await shots(page, 'person-faces');
      const moved = page.locator('details.person-faces li').filter({ has: page.locator(`input[value="${face!.id}"]`) });
      await moved.getByRole('button', { name: 'Not this person' }).click();
      await waitFor(async () => !(await facesOf(to.id)).some((f) => f.id === face!.id), {
        timeoutMs: 30_000,
        what: 'the face to leave the person',
      });
      await page.locator('details.person-faces summary').filter({ hasText: 'Faces (1)' }).waitFor();
    },
    PROCESSING_MS,
  );

  it('a job started from /jobs (components ticked) shows its progress bar and reaches completed', async () => {
    const { page } = await web.session({ upload: ['jpeg', 'png'] });
    await page.goto(`${web.origin}/jobs`);
    await page.getByRole('checkbox', { name: /^Metadata/ }).check();
    await page.getByRole('button', { name: 'Start job' }).click();
    const job = page.getByTestId('job').first();
    const bar = job.getByRole('progressbar', { name: 'Progress of metadata' });
    await bar.waitFor();
    // The page asks again every 2 s while the job runs: wait while the bar moves.
    const done = await waitForProgress(
      async () => {
        const [status, [value, max]] = await Promise.all([
          job.getAttribute('data-status'),
          bar.evaluate((el) => [(el as HTMLProgressElement).value, (el as HTMLProgressElement).max]),
        ]);
        return { progress: value!, result: status === 'COMPLETED' ? { value, max } : undefined };
      },
      { stallMs: 120_000, intervalMs: 250, what: 'the job to complete on the page' },
    );
    expect(done).toEqual({ value: 2, max: 2 });
    await expect(job.getByTestId('job-progress').textContent()).resolves.toMatch(/^2 of 2 · started/);
    await expect(job.textContent()).resolves.toContain('completed');
  }, 240_000);

  it('screenshots of the main pages at 1280 and 390 px, light and dark, are saved as PNGs of those widths', async () => {
    await searchable(owner.api, 'pizza', [heic.id]);
    const person = (await peopleIn(owner.api, left))[0]!;
    const page = await web.sessionOf(owner);
    const pages: Array<[string, string, () => Promise<unknown>]> = [
      ['library', '/', () => eventually(() => page.locator('.grid img.thumb.loaded').count(), 3, 30_000)],
      [
        'explore',
        '/explore',
        () => page.getByRole('region', { name: 'People' }).locator('.explore-card').first().waitFor(),
      ],
      [
        'person',
        `/explore/people/${person.id}`,
        async () => expect(await coverFace(page)).toEqual([200, 'image/webp']),
      ],
      ['search', '/search?q=pizza', () => eventually(() => tiles(page).count(), 1, 30_000)],
      ['jobs', '/jobs', () => page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor()],
      ['settings', '/settings', () => page.getByTestId('version').waitFor()],
    ];
    const files: string[] = [];
    for (const [name, path, shown] of pages) {
      await page.goto(`${web.origin}${path}`);
      await shown();
      files.push(...(await shots(page, `main-${name}`)));
    }
    expect(files).toHaveLength(pages.length * 4);
    for (const file of files) {
      const png = await readFile(file);
      expect([file, pngSize(png).width]).toEqual([file, /-desktop-/.test(file) ? DESKTOP.width : PHONE.width]);
      expect(png.length).toBeGreaterThan(2_000);
    }
  }, 180_000);
});
