/**
 * The timeline scrubber in a real browser against the whole of Trove: the library's months down the
 * side; hovering names the month, a click jumps to it (the first tiles are that month's, the URL
 * says `?at=`, a reload keeps it), and the keyboard moves it like a slider.
 */
import { jpegAt } from '@trove/kit/testing/media';
import { answer, offContract, uploadReady } from '../support/api';
import type { Api } from '../support/api';
import { eventually, shot, shots, tiles, webAppForSuite } from './fixtures';

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

describe('the timeline scrubber (browser)', () => {
  it('shows the months, names the one under the pointer, jumps to a clicked month and moves by keyboard', async () => {
    const { page, user, items } = await web().session({ upload: ['jpeg', 'png'] });
    const { jpeg, png } = items as Required<typeof items>;
    const sept = await uploadReady(user.api, await jpegAt(40, 10), 'september.jpg', 120_000);
    await setDate(user.api, png.id, '2023-02-10T12:00:00Z');
    await setDate(user.api, sept.id, '2021-09-05T12:00:00Z');
    await setDate(user.api, jpeg.id, '2019-06-20T12:00:00Z');

    await page.goto(`${web().origin}/`);
    const order = () => tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    await eventually(order, listing(png.id, sept.id, jpeg.id));
    const at = async () => new URL(page.url()).searchParams.get('at');
    const slider = page.getByRole('slider', { name: 'Timeline' });
    await expect(slider.getAttribute('aria-valuetext')).resolves.toBe('February 2023');
    const months = () =>
      page.locator('.timeline-month').evaluateAll((els) => els.map((e) => e.getAttribute('data-month')));
    expect(await months()).toEqual(['2023-02', '2021-09', '2019-06']);

    // Hovering names the month under the pointer.
    const september = page.locator('.timeline-month[data-month="2021-09"]');
    await september.hover({ force: true });
    await eventually(() => page.locator('.timeline-label:visible').textContent(), 'September 2021');
    await shot(page, 'timeline-hover');

    // A click jumps there: the list starts with that month's item.
    await september.click({ force: true });
    await eventually(at, '2021-09');
    await eventually(order, listing(sept.id, jpeg.id));
    await expect(slider.getAttribute('aria-valuetext')).resolves.toBe('September 2021');
    await shot(page, 'timeline-jumped');

    // A reload keeps the position.
    await page.reload();
    await eventually(order, listing(sept.id, jpeg.id));

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
});
