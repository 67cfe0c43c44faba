import { Form, useLocation, useSearchParams } from '@remix-run/react';
import { forwardRef, useEffect, useId, useState } from 'react';
import { getJson } from '~/lib/fetch-json.client';
import { MAX_QUERY_LENGTH } from '~/lib/media-views';
import type { Suggestion } from '~/lib/suggestions';
import { Icon } from './ui/Icon';
import './SearchBox.css';

/**
 * The header's search: a GET form to /search (works before scripts load), with suggestions as you
 * type — names of people, places and things that start with the words — offered by the browser's
 * own list (a datalist), so keys and screen readers work as with any text box.
 */
export const SearchBox = forwardRef<HTMLInputElement>(function SearchBox(_props, ref) {
  const location = useLocation();
  const [params] = useSearchParams();
  const current = location.pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const listId = useId();
  useEffect(() => setText(current), [current]);
  useEffect(() => {
    const q = text.trim();
    if (!q || q === current) {
      setSuggestions([]);
      return;
    }
    const abort = new AbortController();
    // A short pause first: one call for a burst of keys.
    const timer = setTimeout(() => {
      getJson<{ suggestions: Suggestion[] }>(`/api/suggestions?q=${encodeURIComponent(q)}`, abort.signal).then(
        (r) => setSuggestions(r.suggestions),
        () => undefined,
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, current]);
  return (
    <Form method="get" action="/search" role="search" className="search-box">
      <Icon name="search" size={20} />
      <input
        ref={ref}
        type="search"
        name="q"
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={MAX_QUERY_LENGTH}
        placeholder="Search"
        aria-label="Search your photos"
        aria-keyshortcuts="/"
        title="Search your photos (/)"
        list={listId}
        autoComplete="off"
        required
      />
      <datalist id={listId} data-testid="search-suggestions">
        {suggestions.map((s) => (
          <option key={`${s.kind}:${s.id}`} value={s.name} label={s.label} />
        ))}
      </datalist>
    </Form>
  );
});
