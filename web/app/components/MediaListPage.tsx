import type { ReactNode } from 'react';
import { MediaBrowser } from './MediaBrowser';
import type { MediaBrowserProps } from './MediaBrowser';

/** A page of the library that is one list of media items (Photos, Favourites, Hidden, Trash): its heading, a note, the list. */
export function MediaListPage({ title, note, ...list }: { title: string; note?: ReactNode } & MediaBrowserProps) {
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {note}
      </div>
      <MediaBrowser {...list} />
    </>
  );
}
