import { json } from '@remix-run/node';
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTheme } from './components/ThemeToggle';
import { useNonce } from './lib/nonce';
import { keepLayoutOnSearchChange } from './lib/revalidate';
import type { Theme } from './lib/theme';
import { readTheme } from './lib/theme.server';
import globalStyles from './styles/global.css?url';
import darkTheme from './styles/theme-dark.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: globalStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/** When the dark colours apply: the user's choice, or the system's. */
const DARK_MEDIA: Record<Theme, string> = { system: '(prefers-color-scheme: dark)', dark: 'all', light: 'not all' };

export const meta: MetaFunction = () => [
  { title: 'Trove' },
  { name: 'description', content: 'Trove — Smarter Home for all your Photos and Videos' },
];

export { keepLayoutOnSearchChange as shouldRevalidate };

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ theme: await readTheme(request) });
}

export function Layout({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const nonce = useNonce();
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content={theme === 'system' ? 'light dark' : theme} />
        <Meta />
        <Links />
        {/* After every other stylesheet: its colours replace the light ones. */}
        <link rel="stylesheet" href={darkTheme} media={DARK_MEDIA[theme]} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // The page runs (is hydrated) from here on: until then what React handles (a double-click, a toggle)
  // does nothing. Browser tests wait for this mark before they act.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

export { RouteErrorBoundary as ErrorBoundary } from './components/ErrorPage';
