import { Form } from '@remix-run/react';
import { useId } from 'react';
import type { Album } from '~/api/types';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';
import { Modal } from './ui/Modal';

export interface AlbumDetailsDialogProps {
  title: string;
  submitLabel: string;
  /** The album being edited (its name and description are the defaults); absent when creating one. */
  album?: Pick<Album, 'name' | 'description'>;
  /** Sent as `intent` (routes with several actions). */
  intent?: string;
  /** The action's answer when the name was refused. */
  error?: string | null;
  busy: boolean;
  onClose(): void;
}

/** The name and description of an album, posted to the current route: "New album" and "Edit album". */
export function AlbumDetailsDialog({
  title,
  submitLabel,
  album,
  intent,
  error,
  busy,
  onClose,
}: AlbumDetailsDialogProps) {
  const id = useId();
  return (
    <Modal title={title} onClose={onClose}>
      <Form method="post" className="stack">
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          name="name"
          required
          maxLength={200}
          defaultValue={album?.name}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label htmlFor={`${id}-description`}>{album ? 'Description' : 'Description (optional)'}</label>
        <textarea
          id={`${id}-description`}
          name="description"
          maxLength={2000}
          rows={album ? 4 : 3}
          defaultValue={album?.description ?? ''}
        />
        <FormError id={`${id}-error`}>{error}</FormError>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {submitLabel}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
