import { useFetcher } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { PasswordChangeResult } from '~/routes/api.password';
import type { PasswordField } from '~/lib/password-change';
import { Button } from './ui/Button';
import { FormError } from './ui/FormError';

const FIELDS: Array<{ name: PasswordField; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'New password again', autoComplete: 'new-password' },
];

/** Changing one's own password: the current one proves it is you; the other sessions are logged out. */
export function PasswordChange() {
  const fetcher = useFetcher<PasswordChangeResult>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  // A change that went through leaves no password in the page.
  useEffect(() => {
    if (result?.done) form.current?.reset();
  }, [result]);
  return (
    <fetcher.Form method="post" action="/api/password" ref={form} className="password-change" noValidate>
      <p className="muted">
        Your other devices and browsers are logged out when it changes; this one stays logged in. API keys keep working
        until you revoke them.
      </p>
      {FIELDS.map((f) => (
        <label key={f.name}>
          {f.label}
          <input
            name={f.name}
            type="password"
            autoComplete={f.autoComplete}
            required
            maxLength={4096}
            aria-invalid={result?.field === f.name || undefined}
            aria-describedby={result?.field === f.name ? 'password-change-error' : undefined}
          />
        </label>
      ))}
      <FormError id="password-change-error">{result?.error}</FormError>
      {result?.done ? (
        <p role="status" className="password-changed">
          Password changed. Your other sessions were logged out.
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
