import type { ReactNode } from 'react';
import { Brand } from './Brand';
import './TopBar.css';

/** The bar at the top of the app and of shared albums: the brand, and the page's actions on the right. */
export function TopBar({ signedIn = false, children }: { signedIn?: boolean; children: ReactNode }) {
  return (
    <header className="topbar">
      {signedIn ? (
        <a href="#main" className="skip-link">
          Skip to content
        </a>
      ) : null}
      <Brand home={signedIn} />
      <div className="topbar-actions">{children}</div>
    </header>
  );
}
