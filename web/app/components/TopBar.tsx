import type { ReactNode } from 'react';
import { Brand } from './Brand';
import './TopBar.css';

/** The bar at the top of the app and of shared albums: the brand, the search (signed in), and the page's actions on the right. */
export function TopBar({
  signedIn = false,
  search,
  children,
}: {
  signedIn?: boolean;
  search?: ReactNode;
  children: ReactNode;
}) {
  return (
    <header className="topbar">
      {signedIn ? (
        <a href="#main" className="skip-link">
          Skip to content
        </a>
      ) : null}
      <Brand home={signedIn} />
      {search}
      <div className="topbar-actions">{children}</div>
    </header>
  );
}
