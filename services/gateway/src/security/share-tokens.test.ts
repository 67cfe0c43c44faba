import { randomUUID } from 'node:crypto';
import { ShareTokens } from './share-tokens';

describe('share unlock tokens', () => {
  const secret = 'x'.repeat(40);
  const album = randomUUID();
  const key = randomUUID();
  let now = 1_800_000_000_000;
  const tokens = new ShareTokens(secret, 60, () => now);

  it('opens the album and key it was made for, until it expires', () => {
    const token = tokens.issue(album, key);
    expect(tokens.verify(token, album, key)).toBe(true);
    expect(tokens.verify(token, randomUUID(), key)).toBe(false);
    // A new password is a new key: the token stops.
    expect(tokens.verify(token, album, randomUUID())).toBe(false);
    expect(new ShareTokens('y'.repeat(40), 60, () => now).verify(token, album, key)).toBe(false);
    now += 60_000;
    expect(tokens.verify(token, album, key)).toBe(false);
  });

  it('refuses anything malformed, or an expiry moved later', () => {
    const token = tokens.issue(album, key);
    const [exp, sig] = token.split('.');
    for (const bad of [undefined, '', 'abc', `${exp}.`, `.${sig}`, `${Number(exp) + 1000}.${sig}`, `${token}x`])
      expect(tokens.verify(bad, album, key)).toBe(false);
  });
});
