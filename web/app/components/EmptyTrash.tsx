import { useRevalidator } from '@remix-run/react';
import { useState } from 'react';
import type { MediaItem } from '~/api/types';
import { getJson, postJson } from '~/lib/fetch-json.client';
import { doneMessage } from '~/lib/item-effects';
import { Button } from './ui/Button';
import { Icon } from './ui/Icon';
import { Modal } from './ui/Modal';
import { useToast } from './ui/Toasts';

/** Items deleted per request: a page of the trash as the JSON route lists it. */
const ROUND = 100;

/**
 * "Empty trash": asks first, then deletes the trash for good a page at a time (the API deletes
 * listed ids), counting as it goes. Stops when a page comes back with nothing new: what is left
 * is being deleted by the server's own sweep already.
 */
export function EmptyTrash() {
  const [asking, setAsking] = useState(false);
  const [deleted, setDeleted] = useState<number | null>(null);
  const notify = useToast();
  const revalidator = useRevalidator();

  const empty = async () => {
    let total = 0;
    let previous = new Set<string>();
    setDeleted(0);
    try {
      for (;;) {
        const { items } = await getJson<{ items: MediaItem[] }>(`/api/items?view=trash&page=1&limit=${ROUND}`);
        const ids = items.map((i) => i.id).filter((id) => !previous.has(id));
        if (ids.length === 0) break;
        await postJson('/api/items', { intent: 'purge', ids });
        total += ids.length;
        previous = new Set(ids);
        setDeleted(total);
      }
      notify(total === 0 ? 'The trash was already empty' : doneMessage('purge', total));
    } catch (err) {
      notify(err instanceof Error ? err.message : 'That did not work.', { tone: 'error' });
    } finally {
      setDeleted(null);
      setAsking(false);
      revalidator.revalidate();
    }
  };

  const running = deleted !== null;
  return (
    <>
      <Button onClick={() => setAsking(true)}>
        <Icon name="trash" size={20} /> Empty trash
      </Button>
      {asking ? (
        <Modal title="Empty the trash?" onClose={() => (running ? undefined : setAsking(false))}>
          <p>Everything in the trash is deleted for good now, with its original files. This cannot be undone.</p>
          {running ? <p role="status">Deleting… {deleted.toLocaleString('en-GB')} deleted so far</p> : null}
          <div className="form-actions">
            <Button onClick={() => setAsking(false)} disabled={running}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void empty()} disabled={running}>
              {running ? 'Deleting…' : 'Empty trash'}
            </Button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
