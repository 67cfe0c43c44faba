import { useFetcher } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { CSSProperties } from 'react';
import type { MediaItem } from '~/api/types';
import { altText } from '~/lib/format';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';
import { useToast } from './ui/Toasts';

/** What the person page's action answers. */
interface Saved {
  error: string | null;
}

/**
 * The person's cover face, and a disclosure to choose it from their photos (or go back to the
 * newest). A plain form inside <details>: it works before scripts load; with them the choice shows
 * at once (the chosen photo stands in until the face is known) and a toast offers to undo it.
 */
export function CoverPicker({
  personId,
  label,
  face,
  coverMediaItemId,
  photos,
}: {
  personId: string;
  label: string;
  face: CSSProperties | null;
  coverMediaItemId: string | null;
  photos: MediaItem[];
}) {
  const saving = useFetcher<Saved>({ key: `person-cover-${personId}` });
  const notify = useToast();
  const details = useRef<HTMLDetailsElement>(null);
  const pending = saving.formData?.get('cover');
  const standIn = typeof pending === 'string' ? photos.find((p) => p.id === pending) : undefined;

  useEffect(() => {
    if (saving.state === 'idle' && saving.data && !saving.data.error && details.current) details.current.open = false;
  }, [saving.state, saving.data]);

  // Undo puts back the cover there was: the newest photo (automatic) or the one chosen before.
  const previous = coverMediaItemId && coverMediaItemId !== photos[0]?.id ? coverMediaItemId : '';
  const choose = (cover: string) => {
    saving.submit({ intent: 'cover', cover }, { method: 'post' });
    notify(`Cover of ${label} changed`, {
      action: { label: 'Undo', run: () => saving.submit({ intent: 'cover', cover: previous }, { method: 'post' }) },
    });
  };

  return (
    <div className="person-cover">
      <span
        className="person-face"
        data-testid="person-cover"
        data-cover={standIn?.id ?? coverMediaItemId ?? ''}
        aria-busy={saving.state !== 'idle'}
        style={standIn ? undefined : (face ?? undefined)}
      >
        {standIn?.thumbnailUrl ? <img src={standIn.thumbnailUrl} alt="" /> : null}
      </span>
      {photos.length > 1 ? (
        <details ref={details} className="cover-picker">
          <summary>Choose cover</summary>
          <saving.Form
            method="post"
            onSubmit={(e) => {
              e.preventDefault();
              const cover = new FormData(e.currentTarget).get('cover');
              if (typeof cover === 'string') choose(cover);
            }}
          >
            <input type="hidden" name="intent" value="cover" />
            <fieldset>
              <legend>Cover of {label}</legend>
              <label className="cover-choice newest">
                <input type="radio" name="cover" value="" defaultChecked={!previous} />
                <span>Newest photo</span>
              </label>
              {photos.map((p) => (
                <label key={p.id} className="cover-choice">
                  <input type="radio" name="cover" value={p.id} defaultChecked={p.id === previous} />
                  {p.thumbnailUrl ? (
                    <img src={p.thumbnailUrl} alt={altText(p)} loading="lazy" decoding="async" />
                  ) : (
                    <span>{altText(p)}</span>
                  )}
                </label>
              ))}
            </fieldset>
            <Button type="submit" size="small" variant="primary" disabled={saving.state !== 'idle'}>
              Use as cover
            </Button>
          </saving.Form>
          <FormError>{saving.data?.error}</FormError>
        </details>
      ) : null}
    </div>
  );
}
