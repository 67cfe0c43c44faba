import { Form } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ApiKey } from '~/api/types';
import { useCopy } from '~/hooks/useCopy';
import { API_KEY_NAME_MAX, keyCreated, keyLastUsed } from '~/lib/api-keys';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';
import { Icon } from './ui/Icon';
import { Modal } from './ui/Modal';
import { TableHead } from './ui/TableHead';
import './ApiKeys.css';

/** What the settings action answered about keys: the new key (its secret, this once), a revoked id, or a refusal. */
export interface ApiKeysResult {
  intent: 'create-key' | 'revoke-key';
  error: string | null;
  created: { id: string; name: string; key: string } | null;
  revoked: string | null;
}

/** A key just made: its secret to copy, shown this once (it is in the action's answer only, never in the loader's). */
function NewKey({ name, secret, onDone }: { name: string; secret: string; onDone(): void }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const { copied, copy } = useCopy(field, secret);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="panel new-api-key" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        Your new key “{name}”
      </h3>
      <p id={`${id}-note`} className="new-api-key-note">
        <Icon name="info" size={18} /> Copy it now: you won’t see it again. Keep it like a password; revoke it here if
        it leaks.
      </p>
      <div className="new-api-key-row">
        <label htmlFor={`${id}-key`} className="visually-hidden">
          New API key
        </label>
        <input
          id={`${id}-key`}
          ref={field}
          readOnly
          value={secret}
          data-testid="new-api-key"
          aria-describedby={`${id}-note`}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button size="small" variant="primary" onClick={() => void copy()}>
          <Icon name="copy" size={18} /> {copied ? 'Copied' : 'Copy key'}
        </Button>
        <Button size="small" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

/**
 * The settings page's "API keys": the user's keys (name, made, last used), a form to make one
 * (posts `intent=create-key` to the route), the new key once, and "Revoke" behind a confirmation
 * (`intent=revoke-key`).
 */
export function ApiKeys({ keys, result, busy }: { keys: ApiKey[]; result: ApiKeysResult | null; busy: boolean }) {
  const id = useId();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const created = result?.created && result.created.id !== dismissed ? result.created : null;
  const createError = result?.intent === 'create-key' ? result.error : null;
  const revokeError = result?.intent === 'revoke-key' ? result.error : null;

  // The revocation went through: the confirmation has done its job.
  useEffect(() => {
    if (!busy && revoking && result?.revoked === revoking.id) setRevoking(null);
  }, [busy, revoking, result]);

  return (
    <>
      <p className="muted">
        A key lets a script or the <code>trove</code> command act as you, without your password: it is sent as the{' '}
        <code>X-Api-Key</code> header. Revoke a key you no longer use.
      </p>
      {created ? <NewKey name={created.name} secret={created.key} onDone={() => setDismissed(created.id)} /> : null}
      {/* A new form after each key made, so its name field is empty again. */}
      <Form method="post" className="api-key-form" key={result?.created?.id ?? 'new'}>
        <input type="hidden" name="intent" value="create-key" />
        <div className="api-key-field">
          <label htmlFor={`${id}-name`}>Name of a new key</label>
          <input
            id={`${id}-name`}
            name="name"
            required
            maxLength={API_KEY_NAME_MAX}
            placeholder="e.g. laptop"
            autoComplete="off"
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? `${id}-error` : undefined}
          />
        </div>
        <Button type="submit" variant="primary" disabled={busy}>
          <Icon name="plus" size={20} /> Create key
        </Button>
        <FormError id={`${id}-error`} className="api-key-error">
          {createError}
        </FormError>
      </Form>
      {keys.length ? (
        <table className="api-key-table" data-testid="api-keys">
          <TableHead columns={['Name', 'Created', 'Last used']} />
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td className="api-key-name">{k.name}</td>
                <td>
                  <time dateTime={k.createdAt}>{keyCreated(k.createdAt)}</time>
                </td>
                <td>{k.lastUsedAt ? <time dateTime={k.lastUsedAt}>{keyLastUsed(k.lastUsedAt)}</time> : 'Never'}</td>
                <td className="api-key-actions">
                  <Button size="small" variant="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted" data-testid="api-keys">
          No API keys yet.
        </p>
      )}
      {revoking ? (
        <Modal title={`Revoke “${revoking.name}”?`} onClose={() => setRevoking(null)}>
          <p>Anything using this key — a script, the trove command — is refused from now on. This cannot be undone.</p>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="revoke-key" />
            <input type="hidden" name="id" value={revoking.id} />
            <FormError>{revokeError}</FormError>
            <div className="form-actions">
              <Button onClick={() => setRevoking(null)}>Cancel</Button>
              <Button type="submit" variant="danger" disabled={busy}>
                Revoke key
              </Button>
            </div>
          </Form>
        </Modal>
      ) : null}
    </>
  );
}
