import type { ShouldRevalidateFunctionArgs } from '@remix-run/react';

/** Search parameters that only say which item the viewer shows. */
const VIEWER_PARAMS = ['item', 'from'];

function withoutViewer(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const p of VIEWER_PARAMS) params.delete(p);
  params.sort();
  return `${url.pathname}?${params.toString()}`;
}

/**
 * Opening, stepping through and closing the viewer only changes `?item=`: the lists are already in
 * the browser, so loaders do not run again for it (nor for a theme change). The same URL without a
 * form is a revalidation the page asked for (useRevalidator: an album's count and cover after a
 * change): that runs.
 */
export function keepOnViewerChange({
  currentUrl,
  nextUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formAction === '/theme') return false;
  if (!formMethod && currentUrl.href !== nextUrl.href && withoutViewer(currentUrl) === withoutViewer(nextUrl))
    return false;
  return defaultShouldRevalidate;
}

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
