import { useEffect, useId, useState } from 'react';
import type { MediaItem } from '~/api/types';
import { explorePath, placeLabel } from '~/lib/explore';
import type { ItemEntries } from '~/lib/explore';
import { getJson } from '~/lib/fetch-json.client';
import {
  cameraSummary,
  dimensionsSummary,
  exposureSummary,
  formatBytes,
  formatCoordinates,
  formatDateTime,
} from '~/lib/format';
import { DateRow, PlaceRow } from './DatePlaceEditor';
import type { SaveChange } from './DatePlaceEditor';
import { Button } from './ui/Button';
import './InfoPanel.css';

export interface InfoPanelProps {
  item: MediaItem;
  /** Who added the item, when it is another user's. */
  addedBy?: string;
  /** Absent: read-only (shared albums). */
  onDescribe?(description: string | null): Promise<void>;
  /** Changes when and where it was taken; absent: read-only. */
  onEdit?: SaveChange;
}

/** The viewer's details: date, camera, exposure, dimensions, file, size, location, description. */
export function InfoPanel({ item, addedBy, onDescribe, onEdit }: InfoPanelProps) {
  const titleId = useId();
  const rows: [string, string | null][] = [
    ['Added by', addedBy ?? null],
    ['Taken', onEdit ? null : formatDateTime(item.creationTime)],
    ['Camera', cameraSummary(item)],
    ['Exposure', exposureSummary(item)],
    ['Dimensions', dimensionsSummary(item)],
    ['Frame rate', item.fps ? `${Number(item.fps)} fps` : null],
    ['File name', item.filename],
    ['Size', formatBytes(item.size)],
    ['Type', item.mimeType],
    // Shared albums do not tell visitors when the owner uploaded.
    ['Uploaded', item.createdAt ? formatDateTime(item.createdAt) : null],
  ];
  const location = formatCoordinates(item.latitude, item.longitude);
  const place = location ? (
    <a
      href={`https://www.openstreetmap.org/?mlat=${item.latitude}&mlon=${item.longitude}#map=15/${item.latitude}/${item.longitude}`}
      target="_blank"
      rel="noreferrer noopener"
    >
      {location}
    </a>
  ) : (
    'Unknown'
  );
  return (
    <aside className="info-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Info</h2>
      {onDescribe ? (
        <DescriptionEditor key={item.id} value={item.description} onSave={onDescribe} />
      ) : item.description ? (
        <p className="description">{item.description}</p>
      ) : null}
      <dl>
        {onEdit ? <DateRow key={`${item.id}-date`} item={item} onSave={onEdit} /> : null}
        {rows
          .filter((r): r is [string, string] => !!r[1])
          .map(([k, v]) => (
            <div key={k} className="info-row">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        {onEdit ? (
          <PlaceRow key={`${item.id}-place`} item={item} value={place} onSave={onEdit} />
        ) : (
          <div className="info-row">
            <dt>Location</dt>
            <dd>{place}</dd>
          </div>
        )}
        {onDescribe && item.status === 'READY' ? (
          <EntryRows key={`${item.id}@${item.latitude},${item.longitude}`} itemId={item.id} />
        ) : null}
        {item.status !== 'READY' ? (
          <div className="info-row">
            <dt>Status</dt>
            <dd>
              {item.status === 'FAILED'
                ? `Could not process${item.failureReason ? `: ${item.failureReason}` : ''}`
                : 'Processing…'}
            </dd>
          </div>
        ) : null}
      </dl>
    </aside>
  );
}

/** The item's place, things, people and albums, each linking to its page (asked for when the panel opens: owners only). Plain links: the panel is also used outside Remix's router (its tests). */
function EntryRows({ itemId }: { itemId: string }) {
  const [entries, setEntries] = useState<ItemEntries | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    setEntries(null);
    getJson<ItemEntries>(`/api/item-entries?id=${itemId}`, abort.signal).then(setEntries, () => undefined);
    return () => abort.abort();
  }, [itemId]);
  if (!entries) return null;
  const rows = [
    {
      label: entries.places.length > 1 ? 'Places' : 'Place',
      links: entries.places.map((p) => ({ to: explorePath('place', p.id), text: placeLabel(p) })),
    },
    { label: 'Things', links: entries.things.map((t) => ({ to: explorePath('thing', t.id), text: t.name })) },
    {
      label: 'People',
      links: entries.people.map((p) => ({ to: explorePath('person', p.id), text: p.name || 'Unnamed person' })),
    },
    {
      label: entries.albums.length > 1 ? 'Albums' : 'Album',
      links: entries.albums.map((a) => ({ to: `/albums/${a.id}`, text: a.name })),
    },
  ];
  return (
    <>
      {rows
        .filter((r) => r.links.length > 0)
        .map((r) => (
          <div key={r.label} className="info-row" data-testid={`info-${r.label.toLowerCase()}`}>
            <dt>{r.label}</dt>
            <dd className="entry-links">
              {r.links.map((l) => (
                <a key={l.to} href={l.to}>
                  {l.text}
                </a>
              ))}
            </dd>
          </div>
        ))}
    </>
  );
}

function DescriptionEditor({ value, onSave }: { value: string | null; onSave(d: string | null): Promise<void> }) {
  const [text, setText] = useState(value ?? '');
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');
  const id = useId();
  useEffect(() => setText(value ?? ''), [value]);
  const dirty = text.trim() !== (value ?? '').trim();
  return (
    <form
      className="description-form"
      onSubmit={(e) => {
        e.preventDefault();
        setState('saving');
        onSave(text.trim() ? text.trim() : null).then(
          () => setState('saved'),
          () => setState('error'),
        );
      }}
    >
      <label htmlFor={id}>Description</label>
      <textarea
        id={id}
        value={text}
        maxLength={2000}
        rows={3}
        placeholder="Add a description"
        onChange={(e) => {
          setText(e.target.value);
          setState('idle');
        }}
      />
      <div className="description-actions">
        <Button type="submit" size="small" disabled={!dirty || state === 'saving'}>
          {state === 'saving' ? 'Saving…' : 'Save'}
        </Button>
        <span role="status" className="muted">
          {state === 'saved' ? 'Saved' : state === 'error' ? 'Could not save' : ''}
        </span>
      </div>
    </form>
  );
}
