/** The users form's fields, checked against the contract's limits before the API sees them. */
import type { UserRequest, UserUpdateRequest } from '~/api/types';

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.-]{3,32}$/;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
/** The administrator's user name when TROVE_ADMIN_USERNAME is unset (the gateway's default): the setup form's default. */
export const DEFAULT_ADMIN_USERNAME = 'admin';

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

export function newUser(form: FormData): { user: UserRequest } | { error: string } {
  const [name, username, password] = [field(form, 'name'), field(form, 'username').trim(), field(form, 'password')];
  const error = problem(name, username, password, true);
  return error ? { error } : { user: { name: name.trim(), username, password } };
}

export function userChange(form: FormData): { change: UserUpdateRequest } | { error: string } {
  const [name, username, password] = [field(form, 'name'), field(form, 'username').trim(), field(form, 'password')];
  const error = problem(name, username, password, false);
  return error ? { error } : { change: { name: name.trim(), username, ...(password ? { password } : {}) } };
}
