/** The API-keys section of the settings page: its form's name field and how the keys' times read. */

/** The contract's limit on a key's name (ApiKeyRequest.name). */
export const API_KEY_NAME_MAX = 100;

/** A key's name as the API takes it: trimmed, 1 to 100 characters; else null. */
export function apiKeyName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length > 0 && t.length <= API_KEY_NAME_MAX ? t : null;
}

export const API_KEY_NAME_PROBLEM = `Give the key a name of 1 to ${API_KEY_NAME_MAX} characters, e.g. the machine it is for.`;

// In UTC, said so: the page is rendered on the server, whose time zone may not be the browser's,
// and the text must be the same on both (else React reports a hydration mismatch).
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MINUTE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** When a key was made: "1 Jun 2024" (UTC); "" for a date that is not one. */
export function keyCreated(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : DAY.format(d);
}

/** When a key was last used: "Never", or "2 Jun 2024, 08:30 UTC" (the API keeps it to the minute). */
export function keyLastUsed(iso: string | null): string {
  if (iso === null) return 'Never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${MINUTE.format(d)} UTC`;
}
