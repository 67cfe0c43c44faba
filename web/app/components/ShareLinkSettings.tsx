import { useFetcher } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import { LocalTime } from './LocalTime';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';

type Answer = { error: string | null };

/** `iso` as a `datetime-local` value in the browser's own time zone. */
function localInputValue(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A shared link's expiry (a date and time, or never) and password (set, change, remove; never shown):
 * each posts its own intent to the album's route (`share-expiry`, `share-password`).
 */
export function ShareLinkSettings({ expiresAt, passwordSet }: { expiresAt: string | null; passwordSet: boolean }) {
  const expiry = useFetcher<Answer>();
  const password = useFetcher<Answer>();
  const expiryId = useId();
  const passwordId = useId();
  const passwordForm = useRef<HTMLFormElement>(null);
  // The input's value is local time, filled once hydrated (the server reads it as UTC without scripts).
  const [local, setLocal] = useState('');
  useEffect(() => setLocal(expiresAt ? localInputValue(expiresAt) : ''), [expiresAt]);
  // The zone's offset on the chosen day, not today's: summer time may differ.
  const offset = local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).getTimezoneOffset() : 0;
  useEffect(() => {
    if (password.state === 'idle' && password.data && !password.data.error) passwordForm.current?.reset();
  }, [password.state, password.data]);

  return (
    <div className="share-settings">
      <expiry.Form method="post" className="share-setting">
        <input type="hidden" name="intent" value="share-expiry" />
        <input type="hidden" name="tzOffset" value={offset} />
        <label htmlFor={expiryId}>Link expires</label>
        <input
          type="datetime-local"
          value={local}
          onChange={(e) => setLocal(e.currentTarget.value)}
          id={expiryId}
          name="expiresAt"
        />
        <Button type="submit" size="small" disabled={expiry.state !== 'idle' || !local}>
          Set expiry
        </Button>
        <Button type="submit" size="small" name="never" value="true" disabled={expiry.state !== 'idle' || !expiresAt}>
          Never
        </Button>
        <span className="muted share-hint" data-testid="share-expiry-state">
          {expiresAt ? (
            <>
              The link stops working on <LocalTime iso={expiresAt} />.
            </>
          ) : (
            'The link never expires.'
          )}
        </span>
        <FormError className="share-hint">{expiry.data?.error}</FormError>
      </expiry.Form>

      <password.Form method="post" className="share-setting" ref={passwordForm}>
        <input type="hidden" name="intent" value="share-password" />
        <label htmlFor={passwordId}>Link password</label>
        <input
          id={passwordId}
          name="password"
          type="password"
          autoComplete="new-password"
          maxLength={200}
          placeholder={passwordSet ? 'A new password' : 'No password'}
        />
        <Button type="submit" size="small" disabled={password.state !== 'idle'}>
          {passwordSet ? 'Change password' : 'Set password'}
        </Button>
        {passwordSet ? (
          <Button type="submit" size="small" name="remove" value="true" disabled={password.state !== 'idle'}>
            Remove password
          </Button>
        ) : null}
        <span className="muted share-hint" data-testid="share-password-state">
          {passwordSet
            ? 'Password set: visitors must enter it. Changing or removing it signs out those who entered the old one.'
            : 'No password: anyone with the link can open it.'}
        </span>
        <FormError className="share-hint">{password.data?.error}</FormError>
      </password.Form>
    </div>
  );
}
