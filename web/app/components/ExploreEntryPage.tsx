import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { ExploreKind, MediaItem } from '~/api/types';
import { plural } from '~/lib/format';
import { MediaBrowser } from './MediaBrowser';
import { EmptyState } from './ui/EmptyState';

const LIST: Record<ExploreKind, { to: string; label: string }> = {
  place: { to: '/explore/places', label: 'Places' },
  thing: { to: '/explore/things', label: 'Things' },
  person: { to: '/explore/people', label: 'People' },
};

/** The page of a place, thing or person: the way back, its name and count, its tools, and its photos in the library's grid. */
export function ExploreEntryPage(props: {
  kind: ExploreKind;
  id: string;
  title: ReactNode;
  label: string;
  count: number;
  items: MediaItem[];
  focus: MediaItem | null;
  children?: ReactNode;
}) {
  const { kind, id, title, label, count, items, focus, children } = props;
  return (
    <>
      <div className="page-head">
        <p className="crumb">
          <Link to="/explore">Explore</Link> › <Link to={LIST[kind].to}>{LIST[kind].label}</Link>
        </p>
        <h1>{title}</h1>
        <p className="muted" data-testid="entry-count">
          {plural(count, 'item')}
        </p>
        {children}
      </div>
      <MediaBrowser
        key={id}
        view={{ kind, id }}
        initial={items}
        focus={focus}
        label={`Photos and videos of ${label}, newest first`}
        bulk={['favourite', 'addToAlbum', 'download', 'hide', 'trash']}
        empty={
          <EmptyState icon={kind} title="Nothing to show">
            <p>None of its photos is in the library any more (hidden or in the trash).</p>
          </EmptyState>
        }
      />
    </>
  );
}
