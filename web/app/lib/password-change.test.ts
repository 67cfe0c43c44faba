import { passwordChangeFrom, passwordRefusal } from './password-change';

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe('passwordChangeFrom', () => {
  it('answers the two passwords when the new one is typed twice alike', () => {
    expect(
      passwordChangeFrom(
        form({ currentPassword: 'old one', newPassword: 'New-Pass-42x', confirmPassword: 'New-Pass-42x' }),
      ),
    ).toEqual({ currentPassword: 'old one', newPassword: 'New-Pass-42x' });
  });

  it('names the field of the first problem', () => {
    expect(passwordChangeFrom(form({ newPassword: 'a', confirmPassword: 'a' }))).toMatchObject({
      field: 'currentPassword',
    });
    expect(passwordChangeFrom(form({ currentPassword: 'x' }))).toMatchObject({ field: 'newPassword' });
    expect(
      passwordChangeFrom(form({ currentPassword: 'x', newPassword: 'New-Pass-42x', confirmPassword: 'New-Pass-42y' })),
    ).toEqual({ error: 'The two new passwords are not the same.', field: 'confirmPassword' });
    expect(
      passwordChangeFrom(
        form({ currentPassword: 'x', newPassword: 'y'.repeat(5000), confirmPassword: 'y'.repeat(5000) }),
      ),
    ).toMatchObject({ field: 'newPassword' });
  });
});

describe('passwordRefusal', () => {
  it('reads the API’s 400 messages as sentences about the field', () => {
    expect(passwordRefusal(400, 'currentPassword is not your password')).toEqual({
      error: 'That is not your current password.',
      field: 'currentPassword',
    });
    expect(passwordRefusal(400, 'newPassword must be 10 to 128 characters')).toEqual({
      error: 'The new password must be 10 to 128 characters.',
      field: 'newPassword',
    });
    expect(passwordRefusal(400, 'newPassword is too common: choose a less guessable one')).toMatchObject({
      error: 'The new password is too common: choose a less guessable one.',
    });
  });

  it('says when to try again after too many attempts, and stays vague about the rest', () => {
    expect(passwordRefusal(429, 'too many password change attempts', 42)).toEqual({
      error: 'Too many attempts: try again in 42 s.',
    });
    expect(passwordRefusal(429, 'too many', undefined).error).toBe('Too many attempts: try again later.');
    expect(passwordRefusal(503, 'auth unavailable').error).toMatch(/could not be changed right now/);
  });
});
