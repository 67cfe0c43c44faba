import { DEFAULT_PARAMS, hashPassword, needsRehash, verifyDummy, verifyPassword } from './passwords';

// Cheap parameters keep the suite fast; one test covers the real defaults.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashing (scrypt)', () => {
  it('stores the algorithm, its parameters, a salt and the hash', async () => {
    const stored = await hashPassword('Correct-Horse-42', FAST);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(stored).not.toContain('Correct-Horse-42');
  });

  it('verifies the right password and rejects others', async () => {
    const stored = await hashPassword('Correct-Horse-42', FAST);
    await expect(verifyPassword('Correct-Horse-42', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct-horse-42', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('salts every hash differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same password!', FAST), hashPassword('same password!', FAST)]);
    expect(a).not.toBe(b);
  });

  it('uses N=2^15, r=8, p=3 by default (OWASP, 32 MiB a hash) and verifies with the parameters stored in the hash', async () => {
    expect(DEFAULT_PARAMS).toEqual({ N: 2 ** 15, r: 8, p: 3 });
    const strong = await hashPassword('Correct-Horse-42');
    expect(strong.startsWith('scrypt$32768$8$3$')).toBe(true);
    await expect(verifyPassword('Correct-Horse-42', strong)).resolves.toBe(true);
    expect(needsRehash(strong)).toBe(false);
  });

  it('hashes made with the earlier defaults (N=2^15 or 2^17, p=1) still verify and are due for rewriting', async () => {
    for (const N of [2 ** 15, 2 ** 17]) {
      const earlier = await hashPassword('Correct-Horse-42', { N, r: 8, p: 1 });
      await expect(verifyPassword('Correct-Horse-42', earlier)).resolves.toBe(true);
      expect(needsRehash(earlier)).toBe(true);
    }
  });

  it('tells when a hash was made with weaker parameters than the current ones', async () => {
    const weak = await hashPassword('Correct-Horse-42', FAST);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(weak, FAST)).toBe(false);
  });

  it('rejects malformed or hostile stored hashes instead of running them', async () => {
    for (const stored of [
      '',
      'plain',
      'bcrypt$1$2$3$4$5',
      'scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==',
      'scrypt$1073741824$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==',
    ]) {
      await expect(verifyPassword('x', stored)).resolves.toBe(false);
    }
  });

  it('spends hashing work on unknown users and always answers false', async () => {
    await expect(verifyDummy('anything')).resolves.toBe(false);
  });
});
