import { Fragment, useEffect, useId, useRef, useState } from 'react';
import type { ClipboardEvent, FormEvent, KeyboardEvent, ReactNode } from 'react';
import type { MediaItem } from '~/api/types';
import { fromLocalInput, parsePlace, splitLatLon, toLocalInput } from '~/lib/date-place';
import type { DatePlaceChange } from '~/lib/date-place';
import { formatDateTime } from '~/lib/format';
import { Button, IconButton } from './ui/Button';
import { FormError } from './ui/FormError';

export type SaveChange = (change: DatePlaceChange) => Promise<void>;

interface EditableRowProps {
  label: string;
  /** The value as the panel shows it. */
  value: ReactNode;
  /** "date taken", "location": names the buttons. */
  what: string;
  /** The fields' values as a change, or what is wrong with them. */
  read(): DatePlaceChange | string;
  /** Fills the fields from the item when the form opens. */
  onOpen(): void;
  onSave: SaveChange;
  /** A button that goes back to the file's own value. */
  reset: { label: string; title: string; change: DatePlaceChange };
  /** The form's fields (the first is focused when it opens). */
  children: ReactNode;
}

/**
 * A row of the info panel whose value can be edited in place: Edit opens a small form; Enter saves,
 * Esc cancels (and leaves the viewer open); the API's message shows when it refuses.
 */
function EditableRow({ label, value, what, read, onOpen, onSave, reset, children }: EditableRowProps) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const shown = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  const errorId = useId();
  // Closed, the keyboard goes back to the Edit button, where it was.
  useEffect(() => {
    if (!editing && refocus.current) shown.current?.querySelector('button')?.focus();
    refocus.current = false;
  }, [editing]);

  const close = () => {
    refocus.current = true;
    setEditing(false);
    setError('');
  };
  const save = (change: DatePlaceChange | string) => {
    if (typeof change === 'string') return setError(change);
    setSaving(true);
    setError('');
    onSave(change).then(
      () => {
        setSaving(false);
        close();
      },
      (err: unknown) => {
        setSaving(false);
        setError(err instanceof Error ? err.message : 'Could not save.');
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Escape') {
      // Cancelling the edit is all Esc does here: the viewer's dialog stays open.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
      // Date inputs do not all submit on Enter by themselves.
      e.preventDefault();
      e.currentTarget.requestSubmit();
    }
  };

  return (
    <div className="info-row editable">
      <dt>{label}</dt>
      {editing ? (
        <dd>
          <form
            className="edit-form"
            aria-label={`Edit ${what}`}
            aria-describedby={error ? errorId : undefined}
            noValidate
            onKeyDown={onKeyDown}
            // What was wrong goes once the fields change.
            onChange={() => setError('')}
            onPaste={() => setError('')}
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              save(read());
            }}
          >
            {children}
            <FormError id={errorId}>{error}</FormError>
            <div className="edit-actions">
              <Button type="submit" size="small" variant="primary" disabled={saving}>
                {saving ? 'Saving…' : 'Save'}
              </Button>
              <Button size="small" onClick={close} disabled={saving}>
                Cancel
              </Button>
              <Button size="small" title={reset.title} onClick={() => save(reset.change)} disabled={saving}>
                {reset.label}
              </Button>
            </div>
          </form>
        </dd>
      ) : (
        <dd className="editable-value" ref={shown}>
          <span>{value}</span>
          <IconButton
            icon="edit"
            size="small"
            label={`Edit ${what}`}
            title={`Edit ${what}`}
            onClick={() => {
              onOpen();
              setEditing(true);
            }}
          />
        </dd>
      )}
    </div>
  );
}

/** "Taken", editable in the browser's local time (sent with its offset). */
export function DateRow({ item, onSave }: { item: MediaItem; onSave: SaveChange }) {
  const [text, setText] = useState('');
  const id = useId();
  return (
    <EditableRow
      label="Taken"
      value={formatDateTime(item.creationTime)}
      what="date taken"
      onOpen={() => setText(toLocalInput(item.creationTime))}
      read={() => {
        const creationTime = fromLocalInput(text);
        return creationTime ? { creationTime } : 'Enter a date and time.';
      }}
      onSave={onSave}
      reset={{ label: 'Reset', title: 'Go back to the date the file gives', change: { creationTime: null } }}
    >
      <label htmlFor={id} className="visually-hidden">
        Date taken
      </label>
      <input
        id={id}
        type="datetime-local"
        step={1}
        value={text}
        required
        autoFocus
        onChange={(e) => setText(e.target.value)}
      />
    </EditableRow>
  );
}

/** "Location", editable as latitude and longitude (a pasted "lat, lon" fills both). */
export function PlaceRow({ item, value, onSave }: { item: MediaItem; value: ReactNode; onSave: SaveChange }) {
  const [lat, setLat] = useState('');
  const [lon, setLon] = useState('');
  const id = useId();
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const both = splitLatLon(e.clipboardData.getData('text'));
    if (!both) return;
    e.preventDefault();
    setLat(both[0]);
    setLon(both[1]);
  };
  return (
    <EditableRow
      label="Location"
      value={value}
      what="location"
      onOpen={() => {
        setLat(item.latitude === null ? '' : String(item.latitude));
        setLon(item.longitude === null ? '' : String(item.longitude));
      }}
      read={() => {
        const parsed = parsePlace(lat, lon);
        if ('error' in parsed) return parsed.error;
        return parsed.place ?? 'Enter a latitude and a longitude (or paste “lat, lon”).';
      }}
      onSave={onSave}
      reset={{
        label: 'Clear',
        title: 'Remove this location (the file’s own position, if it has one, is used again)',
        change: { latitude: null, longitude: null },
      }}
    >
      <div className="edit-place">
        {(
          [
            ['Latitude', lat, setLat, '52.3731'],
            ['Longitude', lon, setLon, '4.8922'],
          ] as const
        ).map(([label, value, set, example], i) => (
          <Fragment key={label}>
            <label htmlFor={`${id}-${i}`}>{label}</label>
            <input
              id={`${id}-${i}`}
              type="text"
              inputMode="decimal"
              placeholder={example}
              autoFocus={i === 0}
              value={value}
              onPaste={onPaste}
              onChange={(e) => set(e.target.value)}
            />
          </Fragment>
        ))}
      </div>
    </EditableRow>
  );
}
