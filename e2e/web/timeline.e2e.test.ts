/**
 * The timeline scrubber and the virtual timeline of the Photos page in a real browser against the
 * whole of Trove: the library's months down the side; hovering names the month, a click jumps to it
 * (that month's tiles at the top of the screen, the URL says `?at=`, a reload keeps it), the keyboard
 * moves it like a slider. With years of items: the first tiles show before the months are known,
 * scrolling up after a jump loads the newer items without moving what is on screen, the scrubber
 * follows the scroll, and the items far away leave the page (the DOM stays bounded).
 */
import { jpegAt } from '@trove/kit/testing/media';
import type { Page, Route } from 'playwright-core';
import { answer, offContract, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';
import { eventually, shot, shots, webAppForSuite } from './fixtures';

const web = webAppForSuite();

/** A match for exactly these tile ids, in this order. */
const listing =
  (...ids: string[]) =>
  (shown: Array<string | null>) =>
    shown.join() === ids.join();

const setDate = async (api: Api, id: string, creationTime: string) =>
  expect(
    await answer(api.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body: offContract({ creationTime }) })),
  ).toMatchObject({ status: 204 });

/** The ids of the tiles on screen (below the top bar), top to bottom. */
const onScreen = (page: Page) =>
  page.evaluate(() => {
    const inset = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--topbar-h')) || 0;
    return [...document.querySelectorAll('.grid .tile')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.top >= inset - 1 && r.top < window.innerHeight;
      })
      .map((e) => e.getAttribute('data-id'));
  });

/** The tiles on screen whose thumbnails are decoded and painted. */
const shownImages = (page: Page) =>
  page.evaluate(() => {
    const inset = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--topbar-h')) || 0;
    return [...document.querySelectorAll<HTMLImageElement>('.grid .tile img')].filter((img) => {
      const r = img.getBoundingClientRect();
      // Decoded, and drawn (a thumbnail fades in once the page has seen it load).
      return (
        r.bottom > inset &&
        r.top < window.innerHeight &&
        img.complete &&
        img.naturalWidth > 0 &&
        Number(getComputedStyle(img).opacity) > 0
      );
    }).length;
  });

/**
 * The months' answers (`/api/timeline`) say the newest month holds `extra` more items than the list gives
 * (`firstOnly`: the first answer alone). Answers how many were asked for and which month was inflated.
 */
async function overCount(page: Page, extra: number, firstOnly: boolean) {
  const seen = { calls: 0, month: '' };
  await page.route('**/api/timeline', async (route: Route) => {
    seen.calls++;
    if (firstOnly && seen.calls > 1) return route.continue();
    const answer = await route.fetch();
    const { buckets } = (await answer.json()) as { buckets: Array<{ month: string; count: number }> };
    seen.month = buckets[0].month;
    buckets[0].count += extra;
    return route.fulfill({ response: answer, json: { buckets } });
  });
  return seen;
}

/** The query strings of the timeline's chunk requests (`/api/items?...&at=`), as the page sends them. */
function chunkRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/items' && url.searchParams.has('at')) asked.push(url.search);
  });
  return asked;
}

describe('the timeline scrubber (browser)', () => {
  it('shows the months, names the one under the pointer, jumps to a clicked month and moves by keyboard', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png'] });
    const { jpeg, png } = items as Required<typeof items>;
    const sept = await uploadReady(user.api, await jpegAt(40, 10), 'september.jpg', 120_000);
    await setDate(user.api, png.id, '2023-02-10T12:00:00Z');
    await setDate(user.api, sept.id, '2021-09-05T12:00:00Z');
    await setDate(user.api, jpeg.id, '2019-06-20T12:00:00Z');

    await page.goto(`${web().origin}/`);
    const order = () => onScreen(page);
    await eventually(order, listing(png.id, sept.id, jpeg.id));
    const at = async () => new URL(page.url()).searchParams.get('at');
    const slider = page.getByRole('slider', { name: 'Timeline' });
    await expect(slider.getAttribute('aria-valuetext')).resolves.toBe('February 2023');
    const months = () =>
      page.locator('.timeline-month').evaluateAll((els) => els.map((e) => e.getAttribute('data-month')));
    expect(await months()).toEqual(['2023-02', '2021-09', '2019-06']);
    // Each month is a section with its heading.
    expect(await page.getByRole('heading', { level: 2, name: 'September 2021' }).count()).toBe(1);

    // Hovering names the month under the pointer.
    const september = page.locator('.timeline-month[data-month="2021-09"]');
    await september.hover({ force: true });
    await eventually(() => page.locator('.timeline-label:visible').textContent(), 'September 2021');
    await shot(page, 'timeline-hover');

    // A click jumps there: the screen starts with that month's item. The URL says where (`?at=`) and no
    // loader runs again for it (the layouts' loaders read no search parameter; the page's keeps its items).
    const loaderCalls: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).searchParams.has('_data')) loaderCalls.push(request.url());
    };
    page.on('request', onRequest);
    await september.click({ force: true });
    await eventually(at, '2021-09');
    page.off('request', onRequest);
    expect(loaderCalls).toEqual([]);
    await eventually(order, listing(sept.id, jpeg.id));
    await expect(slider.getAttribute('aria-valuetext')).resolves.toBe('September 2021');
    await shot(page, 'timeline-jumped');

    // A reload keeps the position.
    await page.reload();
    await eventually(order, listing(sept.id, jpeg.id));
    await eventually(() => slider.getAttribute('aria-valuetext'), 'September 2021');

    // The keyboard: one month older, then back to the newest.
    await slider.focus();
    await page.keyboard.press('ArrowDown');
    await eventually(at, '2019-06');
    await eventually(order, listing(jpeg.id));
    await eventually(() => slider.getAttribute('aria-valuetext'), 'June 2019');
    await page.keyboard.press('Home');
    await eventually(at, '2023-02');
    await eventually(order, listing(png.id, sept.id, jpeg.id));
    await shots(page, 'timeline');
  });

  it('a month holding fewer items than its count (changed on another device) is asked for once, then the months again', async () => {
    const { page, items } = await web().session({ upload: ['jpeg', 'png'] });
    const { jpeg, png } = items as Required<typeof items>;
    // Away from the page the login opened, whose requests are not this test's.
    await page.goto('about:blank');
    // The months say the newest one holds five more items than it does.
    const timeline = await overCount(page, 5, true);
    const asked = chunkRequests(page);
    await page.goto(`${web().origin}/`);
    // The screen lacks the month's five: it asks for them, gets fewer, and asks for the months again
    // (not for the items in a loop); with the true counts, both items are on screen and nothing is missing.
    await eventually(async () => timeline.calls, 2);
    await eventually(async () => (await onScreen(page)).sort().join(), [jpeg.id, png.id].sort().join());
    await eventually(() => page.locator('.tile-placeholder').count(), 0);
    const ofMonth = asked.filter((q) => new URLSearchParams(q).get('at') === timeline.month);
    expect(ofMonth.length).toBeGreaterThanOrEqual(1);
    expect(ofMonth.length).toBeLessThanOrEqual(2);
  });

  it('a month whose count the list never reaches is asked for once, not again on each move', async () => {
    const { page, items } = await web().session({ upload: ['jpeg'] });
    const { jpeg } = items as Required<typeof items>;
    // Away from the page the login opened, whose requests are not this test's.
    await page.goto('about:blank');
    // Every answer of the months says the newest holds three more items than the list gives.
    const timeline = await overCount(page, 3, false);
    const asked = chunkRequests(page);
    await page.goto(`${web().origin}/`);
    await eventually(async () => timeline.calls, 2);
    await eventually(async () => (await onScreen(page)).join(), jpeg.id);
    // The screen still lacks three, and the page moves (a resize looks at the screen again): nothing is asked.
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    for (const width of [1200, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await frames();
    }
    expect(asked).toHaveLength(1);
    expect(timeline.calls).toBe(2);
  });

  it('a chunk that failed is asked for again a while later, not at once', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png'] });
    const { jpeg, png } = items as Required<typeof items>;
    await setDate(user.api, png.id, '2023-02-10T12:00:00Z');
    await setDate(user.api, jpeg.id, '2019-06-20T12:00:00Z');
    await page.goto('about:blank');
    // The newer month's first answer fails; the page opens at the older one, so it has to ask for it.
    const asked: number[] = [];
    await page.route('**/api/items?*', async (route: Route) => {
      if (new URL(route.request().url()).searchParams.get('at') !== '2023-02') return route.continue();
      asked.push(Date.now());
      if (asked.length === 1) return route.fulfill({ status: 500, json: { message: 'the server is down' } });
      return route.continue();
    });
    await page.goto(`${web().origin}/?at=2019-06`);
    await eventually(() => page.locator(`.grid .tile[data-id="${png.id}"]`).count(), 1);
    expect(asked).toHaveLength(2);
    expect(asked[1] - asked[0]).toBeGreaterThanOrEqual(2500);
  });

  it('names no two years on top of each other: a few items a year under a big month keep only the years with room', async () => {
    const { page } = await web().session({ upload: ['png'] });
    // The months' answer: this month holds nearly everything, then one item a year back to 1990, squeezed together
    // at the bottom of the bar.
    const now = new Date().toISOString().slice(0, 7);
    const years = Array.from({ length: 30 }, (_, k) => ({ month: `${Number(now.slice(0, 4)) - 1 - k}-06`, count: 1 }));
    await page.route('**/api/timeline', (route: Route) =>
      route.fulfill({ json: { buckets: [{ month: now, count: 3000 }, ...years] } }),
    );
    await page.goto(`${web().origin}/`);
    await page.getByRole('slider', { name: 'Timeline' }).waitFor();
    const labels = page.locator('.timeline-year');
    await eventually(
      () => labels.count(),
      (n) => n > 1 && n < 31,
    );
    const boxes = (await labels.evaluateAll((els) =>
      els.map((e) => ({ text: e.textContent, ...(e.getBoundingClientRect().toJSON() as DOMRect) })),
    )) as Array<DOMRect & { text: string }>;
    expect(boxes[0].text).toBe(now.slice(0, 4));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom);
    await shot(page, 'timeline-years-crowded');
  });

  it('over years of items: paints before the months are known, loads upwards after a jump, follows the scroll and unloads far away', async () => {
    const { page, user } = await web().session();
    // Two items a month over ten years, 2016 to 2025.
    const months = Array.from({ length: 120 }, (_, i) => {
      const d = new Date(Date.UTC(2025, 11 - i, 15));
      return d.toISOString().slice(0, 7);
    });
    const byMonth = new Map<string, MediaItem[]>();
    const work = months.flatMap((month, m) => [0, 1].map((k) => ({ month, day: 10 + k * 5, n: m * 2 + k })));
    const queue = [...work];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let w = queue.shift(); w; w = queue.shift()) {
          const item = await uploadReady(
            user.api,
            await jpegAt(-70 + w.n * 0.5, 20 + w.n * 0.25),
            `p${w.n}.jpg`,
            180_000,
          );
          await setDate(user.api, item.id, `${w.month}-${w.day}T12:00:00Z`);
          byMonth.set(w.month, [...(byMonth.get(w.month) ?? []), item]);
        }
      }),
    );
    const monthOf = new Map([...byMonth].flatMap(([month, items]) => items.map((i) => [i.id, month] as const)));
    const monthsOnScreen = async () => [...new Set((await onScreen(page)).map((id) => monthOf.get(id ?? '')))];

    // The months are held back: the first tiles are painted all the same.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let asked = false;
    await page.route('**/api/timeline', async (route: Route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto(`${web().origin}/`);
    await eventually(
      () => shownImages(page),
      (n) => n >= 4,
    );
    expect(await monthsOnScreen()).toContain('2025-12');
    expect(asked).toBe(true);
    expect(await page.getByRole('slider', { name: 'Timeline' }).count()).toBe(0);
    release();
    const slider = page.getByRole('slider', { name: 'Timeline' });
    await eventually(() => slider.count(), 1);
    // The page is as tall as the whole library.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(120 * 150);

    // A jump through the scrubber to March 2018: its tiles are at the top of the screen.
    await page.locator('.timeline-month[data-month="2018-03"]').click({ force: true });
    await eventually(() => slider.getAttribute('aria-valuetext'), 'March 2018');
    await eventually(async () => (await monthsOnScreen())[0], '2018-03');
    await eventually(
      () => shownImages(page),
      (n) => n >= 2,
    );
    await shot(page, 'timeline-years-jumped');

    // Scrolling up loads the newer months; what is on screen does not move as they arrive.
    const headingTop = () =>
      page.evaluate(() => document.getElementById('month-2018-03')?.getBoundingClientRect().top ?? null);
    await page.mouse.move(400, 400);
    await page.mouse.wheel(0, -700);
    await eventually(async () => (await monthsOnScreen()).includes('2018-05'), true);
    const before = await headingTop();
    await eventually(
      () => shownImages(page),
      (n) => n >= 4,
    );
    expect(await headingTop()).toBe(before);
    // The scrubber follows: the month at the top of the screen is a newer one.
    await eventually(
      () => slider.getAttribute('aria-valuetext'),
      (v) => v === 'May 2018' || v === 'June 2018' || v === 'April 2018',
    );
    await shot(page, 'timeline-years-scrolled-up');

    // Through the whole library, a screen at a time: the page never holds more than a few screens of it.
    await page.evaluate(() => window.scrollTo(0, 0));
    let maxTiles = 0;
    let maxHeld = 0;
    for (let step = 0; step < 400; step++) {
      const { tiles, held, end } = await page.evaluate(() => {
        window.scrollBy(0, window.innerHeight);
        const grid = document.querySelector('.grid');
        return {
          tiles: document.querySelectorAll('.grid .tile, .grid .tile-placeholder').length,
          held: Number(grid?.getAttribute('data-count')),
          end: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
        };
      });
      maxTiles = Math.max(maxTiles, tiles);
      maxHeld = Math.max(maxHeld, held);
      await eventually(
        () => shownImages(page),
        (n) => n >= 1,
      );
      if (end) break;
    }
    // At the end: the oldest month, its thumbnails shown.
    await eventually(
      () =>
        page
          .locator('.month-section[data-month="2016-01"] .tile img')
          .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
      2,
    );
    expect(maxTiles).toBeLessThanOrEqual(40);
    expect(maxHeld).toBeLessThan(120);
    // The newest items left the page (DOM and memory) far behind.
    const newest = byMonth.get('2025-12') ?? [];
    expect(await page.locator(`.grid .tile[data-id="${newest[0].id}"]`).count()).toBe(0);
    await eventually(
      async () => Number(await page.locator('.grid').getAttribute('data-count')),
      (n) => n < 120,
    );
    await shot(page, 'timeline-years-end');
  }, 600_000);
});
