import { useFetcher } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { plural } from '~/lib/format';
import { Button } from './ui/Button';
import { Icon } from './ui/Icon';
import { Modal } from './ui/Modal';
import { useToast } from './ui/Toasts';

/** What the trash page's action answers to "empty": how many items the trash listed, or why it could not. */
export type Emptied = { emptied: number; error: null } | { emptied: null; error: string };

/**
 * "Empty trash": asks first, then has the server empty the whole trash in one call (the trash page's
 * action). The items leave the trash at once; the server deletes them for good in the background.
 * Stays mounted when the trash is empty (only the button goes), so that it can say what it did.
 */
export function EmptyTrash({ offered }: { offered: boolean }) {
  const [asking, setAsking] = useState(false);
  const emptying = useFetcher<Emptied>({ key: 'empty-trash' });
  const notify = useToast();
  const busy = emptying.state !== 'idle';

  useEffect(() => {
    if (emptying.state !== 'idle' || !emptying.data) return;
    const { emptied, error } = emptying.data;
    if (error !== null) notify(error, { tone: 'error' });
    else notify(emptied === 0 ? 'The trash was already empty' : `Deleting ${plural(emptied, 'item')} for good`);
    setAsking(false);
  }, [emptying.state, emptying.data, notify]);

  return (
    <>
      {offered ? (
        <Button onClick={() => setAsking(true)}>
          <Icon name="trash" size={20} /> Empty trash
        </Button>
      ) : null}
      {asking ? (
        <Modal title="Empty the trash?" onClose={() => (busy ? undefined : setAsking(false))}>
          <emptying.Form method="post">
            <p>Everything in the trash is deleted for good, with its original files. This cannot be undone.</p>
            <div className="form-actions">
              <Button type="button" onClick={() => setAsking(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" name="intent" value="empty" variant="danger" disabled={busy}>
                {busy ? 'Emptying…' : 'Empty trash'}
              </Button>
            </div>
          </emptying.Form>
        </Modal>
      ) : null}
    </>
  );
}
