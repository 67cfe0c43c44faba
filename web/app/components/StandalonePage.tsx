import type { ReactNode } from 'react';
import { ThemeToggle } from './ThemeToggle';
import { TopBar } from './TopBar';

/**
 * A page outside the app's layout (the users' administration, a shared album's visitors): the top bar with
 * only the theme toggle, then the page's content, styled by `<kind>-page` and `<kind>-content`.
 */
export function StandalonePage({ kind, children }: { kind: 'admin' | 'shared'; children: ReactNode }) {
  return (
    <div className={`${kind}-page`}>
      <TopBar>
        <ThemeToggle />
      </TopBar>
      <main id="main" className={`content ${kind}-content`}>
        {children}
      </main>
    </div>
  );
}
