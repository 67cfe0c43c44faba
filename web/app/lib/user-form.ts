/** The users form's fields, checked against the contract's limits before the API sees them. */
import type { UserRequest, UserUpdateRequest } from '~/api/types';

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.-]{3,32}$/;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
/** The administrator's user name when TROVE_ADMIN_USERNAME is unset (the gateway's default): the setup form's default. */
export const DEFAULT_ADMIN_USERNAME = 'admin';

/** Quotas are entered in GiB (2^30 bytes), as the users page shows them. */
export const GIB = 1024 ** 3;
/** The largest quota the API holds exactly (2^53 − 1 bytes), in whole GiB. */
export const QUOTA_MAX_GIB = Math.floor(Number.MAX_SAFE_INTEGER / GIB);

/**
 * The quota field (GiB, decimals allowed, as typed: "50", "0.5", "1,5"): empty → null (unlimited),
 * else whole bytes; or what is wrong with it.
 */
export function parseQuotaGib(text: string): { quotaBytes: number | null } | { error: string } {
  const t = text.trim().replace(',', '.');
  if (t === '') return { quotaBytes: null };
  if (!/^\d+(\.\d+)?$/.test(t) || Number(t) > QUOTA_MAX_GIB)
    return { error: `Give the storage quota in GiB (0 to ${QUOTA_MAX_GIB}), or leave it empty for unlimited.` };
  return { quotaBytes: Math.round(Number(t) * GIB) };
}

/** A quota as the page shows it and the form is filled with: GiB with at most two decimals ("" for unlimited). */
export function quotaGib(quotaBytes: number | null | undefined): string {
  if (quotaBytes === null || quotaBytes === undefined) return '';
  return String(Math.round((quotaBytes / GIB) * 100) / 100);
}

function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
}

/** What is wrong with the fields given (a blank password on edit means "unchanged"), or null. */
function problem(name: string, username: string, password: string, passwordRequired: boolean): string | null {
  if (!name.trim() || name.trim().length > NAME_MAX) return `Give a name of 1 to ${NAME_MAX} characters.`;
  if (!USERNAME_PATTERN.test(username)) return 'A username is 3 to 32 letters, digits, dots, dashes or underscores.';
  if ((passwordRequired || password) && (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX))
    return `A password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`;
  return null;
}

/** The form's fields, trimmed and checked (a blank password allowed unless `passwordRequired`), or the first problem. */
function fields(
  form: FormData,
  passwordRequired: boolean,
): { name: string; username: string; password: string; quotaBytes: number | null } | { error: string } {
  const [name, username, password] = [field(form, 'name'), field(form, 'username').trim(), field(form, 'password')];
  const error = problem(name, username, password, passwordRequired);
  if (error) return { error };
  const quota = parseQuotaGib(field(form, 'quotaGib'));
  if ('error' in quota) return quota;
  return { name: name.trim(), username, password, quotaBytes: quota.quotaBytes };
}

/** A new user; an empty quota leaves it to the server's default (TROVE_DEFAULT_QUOTA_BYTES, unlimited when unset). */
export function newUser(form: FormData): { user: UserRequest } | { error: string } {
  const f = fields(form, true);
  if ('error' in f) return f;
  const { quotaBytes, ...user } = f;
  return { user: { ...user, ...(quotaBytes === null ? {} : { quotaBytes }) } };
}

/** A user's changes; the quota is always sent (the form shows the current one): empty → unlimited. */
export function userChange(form: FormData): { change: UserUpdateRequest } | { error: string } {
  const f = fields(form, false);
  if ('error' in f) return f;
  const { password, ...change } = f;
  return { change: { ...change, ...(password ? { password } : {}) } };
}
