import { json } from '@remix-run/node';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData, useRouteError } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { ErrorPage } from '../components/ErrorPage';
import { Icon } from '../components/Icon';
import type { IconName } from '../components/Icon';
import { ShortcutsDialog } from '../components/Shortcuts';
import { ThemeToggle } from '../components/ThemeToggle';
import { ToastProvider } from '../components/Toasts';
import { UploadProvider, useUploads } from '../components/Uploads';
import { requireSession } from '../lib/auth.server';
import { keepOnViewerChange } from '../lib/revalidate';

export const shouldRevalidate = keepOnViewerChange;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  return json({ username: session.username }, { headers: await session.headers() });
}

const NAV: { to: string; label: string; icon: IconName; end?: boolean }[] = [
  { to: '/', label: 'Photos', icon: 'photos', end: true },
  { to: '/albums', label: 'Albums', icon: 'album' },
  { to: '/favourites', label: 'Favourites', icon: 'heart' },
  { to: '/hidden', label: 'Hidden', icon: 'hidden' },
  { to: '/trash', label: 'Trash', icon: 'trash' },
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

function TopBar({ username, onShortcuts }: { username: string; onShortcuts(): void }) {
  const uploads = useUploads();
  return (
    <header className="topbar">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <NavLink to="/" className="brand" aria-label="Trove, your photos">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <span>Trove</span>
      </NavLink>
      <div className="topbar-actions">
        <button type="button" className="button primary" onClick={uploads.openPicker} aria-keyshortcuts="U" title="Upload photos and videos (U)">
          <Icon name="upload" size={20} />
          <span className="hide-small">Upload</span>
        </button>
        <button type="button" className="icon-button hide-small" onClick={onShortcuts} aria-label="Keyboard shortcuts" aria-keyshortcuts="Shift+?" title="Keyboard shortcuts (?)">
          <Icon name="keyboard" />
        </button>
        <ThemeToggle />
        <Form method="post" action="/logout" className="logout-form">
          <span className="username hide-small" title={`Logged in as ${username}`}>
            {username}
          </span>
          <button type="submit" className="icon-button" aria-label={`Log out ${username}`} title="Log out">
            <Icon name="logout" />
          </button>
        </Form>
      </div>
    </header>
  );
}

function Shell({ username }: { username: string }) {
  const uploads = useUploads();
  const [shortcuts, setShortcuts] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || document.querySelector('dialog[open]')) return;
      if (e.key === '?') {
        e.preventDefault();
        setShortcuts(true);
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
      <TopBar username={username} onShortcuts={() => setShortcuts(true)} />
      <nav className="sidenav" aria-label="Library">
        <ul>
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

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
