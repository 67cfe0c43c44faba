/**
 * What a valid account looks like. Each check answers a message that starts with the field's
 * name (the gateway returns it as the 400 message), or undefined when the value is fine.
 */

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.-]{3,32}$/;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;
/** From this length a password needs no particular mix of characters (a passphrase). */
export const PASSPHRASE_LENGTH = 16;
const NAME_MAX = 100;

/**
 * Words that make a password guessable whatever digits and symbols surround them
 * ("Password123!", "Qwerty2024#"): the check strips everything but letters and compares.
 */
const COMMON_WORDS = new Set([
  'password',
  'passwort',
  'passwd',
  'pass',
  'qwerty',
  'qwertz',
  'azerty',
  'qwertyuiop',
  'asdf',
  'asdfgh',
  'asdfghjkl',
  'zxcvbnm',
  'abc',
  'abcd',
  'abcdef',
  'abcdefg',
  'abcdefgh',
  'letmein',
  'welcome',
  'admin',
  'administrator',
  'root',
  'login',
  'iloveyou',
  'monkey',
  'dragon',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'soccer',
  'master',
  'superman',
  'batman',
  'trustno',
  'secret',
  'changeme',
  'default',
  'hello',
  'helloworld',
  'starwars',
  'shadow',
  'michael',
  'trove',
  'photos',
  'summer',
  'winter',
  'spring',
  'autumn',
  'test',
  'testing',
  'user',
  'guest',
  'computer',
  'internet',
  'freedom',
  'whatever',
  'qazwsx',
  'zaq',
]);

/** Whole passwords seen at the top of breach lists that pass the length and mix rules. */
const COMMON_PASSWORDS = new Set([
  '1234567890',
  '0123456789',
  '1234512345',
  '1111111111',
  '0000000000',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'q1w2e3r4t5',
  'zaq12wsx',
  '123qweasdzxc',
  '1q2w3e4r5t6y',
  'qwerty123456',
  'qwe123qwe123',
  '!qaz2wsx',
  '1qaz@wsx',
  '!qaz@wsx#edc',
  'p@ssw0rd123',
]);

/** C0 control characters and DEL: invisible, and trouble in logs and terminals. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export function nameProblem(name: string): string | undefined {
  if (name.trim().length === 0) return 'name must not be empty';
  // Counted in characters (code points), as the contract's maxLength counts them: an emoji is one.
  if ([...name].length > NAME_MAX) return `name must be at most ${NAME_MAX} characters`;
  if (hasControl(name)) return 'name must not contain control characters';
  return undefined;
}

export function usernameProblem(username: string): string | undefined {
  if (!USERNAME_PATTERN.test(username)) return 'username must be 3 to 32 characters: letters, digits, "_", "." or "-"';
  return undefined;
}

/** Length, a mix of character classes (or passphrase length), no username inside, not a common password. */
export function passwordProblem(password: string, username: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    return `password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
  if (hasControl(password)) return 'password must not contain control characters';
  const lower = password.toLowerCase();
  if (username.length >= 3 && lower.includes(username.toLowerCase())) return 'password must not contain the username';
  const letters = lower.replace(/[^a-z]/g, '');
  if (COMMON_PASSWORDS.has(lower) || COMMON_WORDS.has(letters) || new Set(lower).size <= 3)
    return 'password is too common: choose a less guessable one';
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 3 && length < PASSPHRASE_LENGTH) {
    return `password is too weak: use at least 3 of lower-case letters, upper-case letters, digits and symbols, or ${PASSPHRASE_LENGTH} characters or more`;
  }
  return undefined;
}
