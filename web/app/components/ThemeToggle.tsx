import { useFetcher, useFetchers, useRouteLoaderData } from '@remix-run/react';
import { isTheme } from '~/lib/theme';
import type { Theme } from '~/lib/theme';
import { IconButton } from './ui/Button';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The theme in effect: the one being saved (so the switch is instant), else the one the cookie holds. */
export function useTheme(): Theme {
  const saving = useFetchers()
    .find((f) => f.formAction === '/theme')
    ?.formData?.get('theme');
  const saved = useRouteLoaderData<{ theme: Theme }>('root')?.theme;
  return isTheme(saving) ? saving : (saved ?? 'system');
}

/** Cycles the theme System → Light → Dark; the choice is kept in a cookie so the server renders it. */
export function ThemeToggle() {
  const fetcher = useFetcher();
  const theme = useTheme();
  const next = NEXT[theme];
  return (
    <fetcher.Form method="post" action="/theme">
      <input type="hidden" name="theme" value={next} />
      <IconButton
        type="submit"
        icon={theme === 'dark' ? 'moon' : theme === 'light' ? 'sun' : 'auto'}
        label={`Theme: ${LABEL[theme]}. Switch to ${LABEL[next]}`}
        title={`Theme: ${LABEL[theme]} (switch to ${LABEL[next]})`}
      />
    </fetcher.Form>
  );
}
