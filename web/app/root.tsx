import { json } from '@remix-run/node';
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ErrorPage } from './components/ErrorPage';
import { readTheme } from './lib/theme.server';
import type { Theme } from './lib/theme.server';
import styles from './styles/app.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: 'Trove' }, { name: 'description', content: 'Trove — Smarter Home for all your Photos and Videos' }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ theme: await readTheme(request) });
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<{ theme: Theme }>('root');
  const theme = data?.theme ?? 'system';
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content={theme === 'system' ? 'light dark' : theme} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
