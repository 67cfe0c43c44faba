import type { ShouldRevalidateFunctionArgs } from '@remix-run/react';

/** Search parameters that only say which item the viewer shows. */
const VIEWER_PARAMS = ['item', 'from'];

function without(url: URL, params: readonly string[]): string {
  const search = new URLSearchParams(url.search);
  for (const p of params) search.delete(p);
  search.sort();
  return `${url.pathname}?${search.toString()}`;
}

/**
 * A list's shouldRevalidate: opening, stepping through and closing the viewer only changes `?item=`
 * (and whatever `extra` parameters the page keeps in the browser, e.g. the timeline's `?at=`): the
 * lists are already in the browser, so loaders do not run again for it (nor for a theme change). The
 * same URL without a form is a revalidation the page asked for (useRevalidator: an album's count and
 * cover after a change): that runs.
 */
export function keepOnSearchChange(extra: readonly string[] = []) {
  const ignored = [...VIEWER_PARAMS, ...extra];
  return ({ currentUrl, nextUrl, formMethod, formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) => {
    if (formAction === '/theme') return false;
    if (!formMethod && currentUrl.href !== nextUrl.href && without(currentUrl, ignored) === without(nextUrl, ignored))
      return false;
    return defaultShouldRevalidate;
  };
}

/** The lists' shouldRevalidate: see keepOnSearchChange. */
export const keepOnViewerChange = keepOnSearchChange();

/**
 * The layouts' loaders (root: the theme; the app's shell: who is logged in) read no search parameter:
 * a change of the search alone (the viewer's `?item=`, a timeline jump's `?at=`, a search's `?q=`)
 * does not run them again, which would only add two requests beside the page's own. A form (the
 * theme's included) or another page revalidates them as by default.
 */
export function keepLayoutOnSearchChange({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}
