import type { ShouldRevalidateFunctionArgs } from '@remix-run/react';
import { keepLayoutOnSearchChange, keepOnSearchChange, keepOnViewerChange } from './revalidate';

const origin = 'http://trove.test';
/** What Remix asks a route's shouldRevalidate when the page goes from `from` to `to`. */
const change = (from: string, to: string, form: Partial<ShouldRevalidateFunctionArgs> = {}) =>
  ({
    currentUrl: new URL(from, origin),
    nextUrl: new URL(to, origin),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...form,
  }) as ShouldRevalidateFunctionArgs;

describe('which loaders run again', () => {
  it('the layouts: not for a change of the search alone (a jump, the viewer, a query)', () => {
    expect(keepLayoutOnSearchChange(change('/', '/?at=2021-09'))).toBe(false);
    expect(keepLayoutOnSearchChange(change('/?at=2021-09', '/?at=2019-06&item=abc'))).toBe(false);
    expect(keepLayoutOnSearchChange(change('/search?q=dog', '/search?q=cat'))).toBe(false);
  });

  it('the layouts: as by default for another page or a form (the theme)', () => {
    expect(keepLayoutOnSearchChange(change('/', '/albums'))).toBe(true);
    expect(keepLayoutOnSearchChange(change('/', '/albums', { defaultShouldRevalidate: false }))).toBe(false);
    expect(keepLayoutOnSearchChange(change('/', '/', { formMethod: 'POST', formAction: '/theme' }))).toBe(true);
  });

  it("a list: not for the viewer's parameters, as by default for any other", () => {
    expect(keepOnViewerChange(change('/albums/a', '/albums/a?item=b&from=c'))).toBe(false);
    expect(keepOnViewerChange(change('/search?q=dog', '/search?q=cat'))).toBe(true);
    expect(keepOnViewerChange(change('/', '/', { formMethod: 'POST', formAction: '/theme' }))).toBe(false);
  });

  it("the timeline: not for a jump's ?at= either, as by default for a search or a form", () => {
    const timeline = keepOnSearchChange(['at']);
    expect(timeline(change('/', '/?at=2021-09'))).toBe(false);
    expect(timeline(change('/?at=2021-09', '/?at=2019-06&item=abc'))).toBe(false);
    expect(timeline(change('/?at=2021-09', '/?at=2021-09'))).toBe(true);
    expect(timeline(change('/', '/?type=video'))).toBe(true);
    expect(timeline(change('/', '/?at=2021-09', { formMethod: 'POST' }))).toBe(true);
  });

  it('a list: again when the page asks (useRevalidator: the same URL, no form), viewer open or not', () => {
    expect(keepOnViewerChange(change('/albums/a', '/albums/a'))).toBe(true);
    expect(keepOnViewerChange(change('/albums/a?item=b', '/albums/a?item=b'))).toBe(true);
  });
});
