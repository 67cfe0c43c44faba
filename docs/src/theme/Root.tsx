import React, { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useHistory, useLocation } from '@docusaurus/router';

/** The clean path of an `.html` address: `/x/index.html` and `/x.html` → `/x`, `/index.html` → `/`. */
export function cleanPath(pathname: string): string | undefined {
  const m = /^(.*?)(?:\/index)?\.html$/.exec(pathname);
  if (!m) return undefined;
  return m[1] === '' ? '/' : m[1];
}

/**
 * Wraps the whole app (swizzled theme Root). A page reached through an `.html` address — a host
 * serving `/docs/x/index.html` as is, or an old link — renders already (Docusaurus ignores the
 * suffix when matching routes); this replaces the address with the clean one. `/docs/x.html` also
 * has a static redirect page (plugin-client-redirects) for hosts that do not serve a fallback.
 */
export default function Root({ children }: { children: ReactNode }): ReactNode {
  const { pathname, search, hash } = useLocation();
  const history = useHistory();
  useEffect(() => {
    const clean = cleanPath(pathname);
    if (clean !== undefined && clean !== pathname) history.replace(`${clean}${search}${hash}`);
  }, [pathname, search, hash, history]);
  return <>{children}</>;
}
