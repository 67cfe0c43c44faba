/** The "change your password" form: what it sends, and how the API's refusals read to a person. */

/** What the settings form posts, checked before the API is asked. */
export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/** The longest password field the API takes. */
const MAX = 4096;

/** The form's fields, or the first problem with them (the new password typed twice alike, none empty). */
export function passwordChangeFrom(form: FormData): PasswordChange | { error: string; field: PasswordField } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const currentPassword = text('currentPassword');
  const newPassword = text('newPassword');
  if (!currentPassword) return { error: 'Enter your current password.', field: 'currentPassword' };
  if (!newPassword) return { error: 'Choose a new password.', field: 'newPassword' };
  if (currentPassword.length > MAX || newPassword.length > MAX)
    return { error: 'That password is far too long.', field: 'newPassword' };
  if (newPassword !== text('confirmPassword'))
    return { error: 'The two new passwords are not the same.', field: 'confirmPassword' };
  return { currentPassword, newPassword };
}

export type PasswordField = 'currentPassword' | 'newPassword' | 'confirmPassword';

/**
 * The API's answer to a refused change, for the form: its 400 messages name the field
 * (`currentPassword is not your password`, `newPassword is too weak: …`), a 429 says when to try again.
 */
export function passwordRefusal(
  status: number,
  message: string,
  retryAfterSeconds?: number,
): { error: string; field?: PasswordField } {
  if (status === 429) {
    const wait = retryAfterSeconds && retryAfterSeconds > 0 ? ` in ${retryAfterSeconds} s` : ' later';
    return { error: `Too many attempts: try again${wait}.` };
  }
  if (status !== 400) return { error: 'Your password could not be changed right now. Try again.' };
  if (message.startsWith('currentPassword'))
    return { error: 'That is not your current password.', field: 'currentPassword' };
  const rule = /^newPassword (.+)$/.exec(message);
  if (rule) return { error: `The new password ${rule[1]}.`.replace(/\.\.$/, '.'), field: 'newPassword' };
  return { error: message };
}
