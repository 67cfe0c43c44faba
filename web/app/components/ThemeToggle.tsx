import { useFetcher, useRouteLoaderData } from '@remix-run/react';
import { Icon } from './Icon';

type Theme = 'system' | 'light' | 'dark';
const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Cycles the theme System → Light → Dark; the choice is kept in a cookie so the server renders it. */
export function ThemeToggle() {
  const fetcher = useFetcher();
  const data = useRouteLoaderData<{ theme: Theme }>('root');
  const pending = fetcher.formData?.get('theme');
  const theme: Theme = pending === 'light' || pending === 'dark' || pending === 'system' ? pending : (data?.theme ?? 'system');
  const next = NEXT[theme];
  return (
    <fetcher.Form
      method="post"
      action="/theme"
      onSubmit={() => {
        document.documentElement.dataset.theme = next;
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <button type="submit" className="icon-button" aria-label={`Theme: ${LABEL[theme]}. Switch to ${LABEL[next]}`} title={`Theme: ${LABEL[theme]} (switch to ${LABEL[next]})`}>
        <Icon name={theme === 'dark' ? 'moon' : theme === 'light' ? 'sun' : 'auto'} />
      </button>
    </fetcher.Form>
  );
}
