import { nameProblem, passwordProblem, usernameProblem } from './policy';

describe('account policy', () => {
  it('accepts usernames of 3 to 32 letters, digits, _ . -', () => {
    for (const ok of ['bob', 'alice.smith', 'a_b-c', 'X'.repeat(32), 'user123'])
      expect(usernameProblem(ok)).toBeUndefined();
    for (const bad of ['ab', 'x'.repeat(33), 'has space', 'émile', 'a/b', 'semi;colon', ''])
      expect(usernameProblem(bad)).toMatch(/^username /);
  });

  it('accepts names of 1 to 100 characters without control characters', () => {
    expect(nameProblem('Alice Jansen')).toBeUndefined();
    expect(nameProblem('Zoë 李')).toBeUndefined();
    expect(nameProblem('   ')).toMatch(/^name /);
    expect(nameProblem('x'.repeat(101))).toMatch(/^name /);
    // Characters as the contract counts them (code points): 100 emoji are 100, not 200 UTF-16 units.
    expect(nameProblem('😀'.repeat(100))).toBeUndefined();
    expect(nameProblem('😀'.repeat(101))).toMatch(/^name /);
    expect(nameProblem('bad\nname')).toMatch(/^name /);
  });

  it.each([
    ['Tr0ub4dor&3x', undefined],
    ['correct horse battery staple', undefined],
    ['Kx9#mP2$vL', undefined],
    ['short1A!', /10 to 128/],
    ['x'.repeat(129), /10 to 128/],
    ['alllowercase', /too weak/],
    ['ALLUPPER123', /too weak/],
    ['onlyletterslower', undefined], // 16+ characters: a passphrase needs no mix
    ['Password123!', /too common/],
    ['Qwerty2024#!', /too common/],
    ['1234567890', /too common/],
    ['aaaaaaaaaaaa', /too common/],
    ['xXalice99Xx!', /username/],
    ['ALICE-rocks-42', /username/],
  ])('password %j → %s', (password, expected) => {
    const problem = passwordProblem(password, 'alice');
    if (expected === undefined) expect(problem).toBeUndefined();
    else {
      expect(problem).toMatch(expected);
      expect(problem).toMatch(/^password /);
    }
  });
});
