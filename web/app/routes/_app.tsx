import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import type { ShouldRevalidateFunctionArgs } from '@remix-run/react';
import { Form, NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { SearchBox } from '~/components/SearchBox';
import { ShortcutsDialog } from '~/components/Shortcuts';
import { ThemeToggle } from '~/components/ThemeToggle';
import { TopBar } from '~/components/TopBar';
import { Button, IconButton } from '~/components/ui/Button';
import { Icon } from '~/components/ui/Icon';
import type { IconName } from '~/components/ui/Icon';
import { ToastProvider } from '~/components/ui/Toasts';
import { UploadProvider, useUploads } from '~/components/Uploads';
import { requireSession } from '~/lib/auth.server';
import { isTypingTarget } from '~/lib/keyboard';
import { keepLayoutOnSearchChange } from '~/lib/revalidate';
import '~/styles/shell.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';

/** Who is logged in changes with no theme (its form) and no search parameter (a jump, the viewer). */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs): boolean {
  return args.formAction === '/theme' ? false : keepLayoutOnSearchChange(args);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  return json({ username: session.username }, { headers: await session.headers() });
}

const NAV: { to: string; label: string; icon: IconName; end?: boolean }[] = [
  { to: '/', label: 'Photos', icon: 'photos', end: true },
  { to: '/explore', label: 'Explore', icon: 'explore' },
  { to: '/albums', label: 'Albums', icon: 'album' },
  { to: '/favourites', label: 'Favourites', icon: 'heart' },
  { to: '/hidden', label: 'Hidden', icon: 'hidden' },
  { to: '/trash', label: 'Trash', icon: 'trash' },
  { to: '/jobs', label: 'Jobs', icon: 'jobs' },
  { to: '/settings', label: 'Settings', icon: 'settings' },
];

/**
 * The library's destinations: a column on the side, a row along the bottom on a phone. That row scrolls
 * sideways when they do not all fit: the current page's destination is scrolled into it (Settings, Trash and
 * Jobs lie beyond the edge at first).
 */
function LibraryNav() {
  const list = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = list.current;
    const current = row?.querySelector('.nav-link.active');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const shown = row.getBoundingClientRect();
    const link = current.getBoundingClientRect();
    if (link.left < shown.left) row.scrollLeft -= shown.left - link.left;
    else if (link.right > shown.right) row.scrollLeft += link.right - shown.right;
  }, [pathname]);
  return (
    <nav className="sidenav" aria-label="Library">
      <ul ref={list}>
        {NAV.map((n) => (
          <li key={n.to}>
            <NavLink to={n.to} end={n.end} className="nav-link" prefetch="intent">
              <Icon name={n.icon} />
              <span>{n.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function AppTopBar({
  username,
  onShortcuts,
  searchRef,
}: {
  username: string;
  onShortcuts(): void;
  searchRef: RefObject<HTMLInputElement>;
}) {
  const uploads = useUploads();
  return (
    <TopBar signedIn search={<SearchBox ref={searchRef} />}>
      <Button variant="primary" onClick={uploads.openPicker} aria-keyshortcuts="U" title="Upload photos and videos (U)">
        <Icon name="upload" size={20} />
        <span className="hide-small">Upload</span>
      </Button>
      <IconButton
        icon="keyboard"
        label="Keyboard shortcuts"
        className="hide-small"
        onClick={onShortcuts}
        aria-keyshortcuts="Shift+?"
        title="Keyboard shortcuts (?)"
      />
      <ThemeToggle />
      <Form method="post" action="/logout" className="logout-form">
        <span className="username hide-small" title={`Logged in as ${username}`}>
          {username}
        </span>
        <IconButton type="submit" icon="logout" label={`Log out ${username}`} title="Log out" />
      </Form>
    </TopBar>
  );
}

function Shell({ username }: { username: string }) {
  const uploads = useUploads();
  const [shortcuts, setShortcuts] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.defaultPrevented ||
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        isTypingTarget(e.target) ||
        document.querySelector('dialog[open]')
      )
        return;
      if (e.key === '?') {
        e.preventDefault();
        setShortcuts(true);
      } else if (e.key === '/') {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === 'u' || e.key === 'U') {
        e.preventDefault();
        uploads.openPicker();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [uploads]);
  return (
    <div className="app">
      <AppTopBar username={username} onShortcuts={() => setShortcuts(true)} searchRef={searchRef} />
      <LibraryNav />
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
      {shortcuts ? <ShortcutsDialog onClose={() => setShortcuts(false)} /> : null}
    </div>
  );
}

export default function AppLayout() {
  const { username } = useLoaderData<typeof loader>();
  return (
    <ToastProvider>
      <UploadProvider>
        <Shell username={username} />
      </UploadProvider>
    </ToastProvider>
  );
}
