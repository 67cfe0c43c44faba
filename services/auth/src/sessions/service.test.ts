/**
 * Login, refresh and logout over the real repositories (SQLite) and password hashing, with a
 * recording fake of the revocation bucket.
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createLogger } from '@trove/kit';
import { docStorePerTest, waitFor } from '@trove/kit/testing';
import { LoginLimits } from '../login/limits';
import { LoginRateLimiter } from '../login/rate-limit';
import { LoginAttemptsRepository } from '../login/repository';
import { FakeRevocations } from '../ports/revocations.fake';
import { hashPassword, needsRehash } from '../users/passwords';
import { UsersRepository } from '../users/repository';
import { SessionsRepository } from './repository';
import { SessionsService } from './service';
import { AccessTokenIssuer } from './tokens';

const SECRET = 'k'.repeat(43);
const PASSWORD = 'Correct-Horse-42';

const db = docStorePerTest('auth');
let users: UsersRepository;
let revocations: FakeRevocations;
let sessions: SessionsService;
let userId: string;
/** The slowdowns login asked for, instead of waiting them. */
let slept: number[];
/**
 * The limiters' clock, stopped in the middle of a minute: on a slow machine a test's dozen logins could otherwise
 * straddle a window boundary, and the sliding window would weigh the earlier attempts down.
 */
const midMinute = () => Math.floor(Date.now() / 60_000) * 60_000 + 30_000;

beforeEach(async () => {
  users = await UsersRepository.open(db.store);
  revocations = new FakeRevocations();
  slept = [];
  const attempts = await LoginAttemptsRepository.open(db.store);
  const now = midMinute();
  sessions = new SessionsService({
    users,
    sessions: await SessionsRepository.open(db.store, { ttlMs: 24 * 3600 * 1000 }),
    tokens: new AccessTokenIssuer(SECRET, 900),
    limits: new LoginLimits({
      perClient: new LoginRateLimiter(attempts, { limit: 5, now: () => now }),
      perUsername: new LoginRateLimiter(attempts, { limit: 12, now: () => now }),
      slowDownAfter: 5,
      slowDownMs: 800,
      sleep: async (ms) => {
        slept.push(ms);
      },
    }),
    revocations,
    log: createLogger({ service: 'auth-test', level: 'silent' }),
  });
  userId = (await users.create({ name: 'Alice', username: 'Alice', passwordHash: await hashPassword(PASSWORD) }))._id;
});

const claims = (accessToken: string) => jwt.verify(accessToken, SECRET) as jwt.JwtPayload;

describe('login', () => {
  it('answers an access token for the user and its new session, and a refresh token', async () => {
    const pair = await sessions.login({ username: 'alice', password: PASSWORD });
    expect(pair).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
    expect(claims(pair.accessToken)).toMatchObject({ sub: userId, sid: expect.any(String), iss: 'trove' });
  });

  it('a wrong password and an unknown username fail alike', async () => {
    const unauthorized = { code: 'UNAUTHORIZED', message: 'Unauthorized' };
    await expect(sessions.login({ username: 'alice', password: 'Wrong-Horse-42' })).rejects.toMatchObject(unauthorized);
    await expect(sessions.login({ username: 'mallory', password: PASSWORD })).rejects.toMatchObject(unauthorized);
  });

  const wrong = (username: string, clientAddress?: string) =>
    expect(sessions.login({ username, password: 'nope', clientAddress })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  const limited = { code: 'TOO_MANY_REQUESTS', details: { retryAfterSeconds: expect.any(Number) } };

  it('refuses one address over the limit on a user name, even with the right password; the owner elsewhere logs in, slowed down', async () => {
    for (let i = 0; i < 5; i++) await wrong('ALICE', '198.51.100.7');
    await expect(
      sessions.login({ username: 'alice', password: PASSWORD, clientAddress: '198.51.100.7' }),
    ).rejects.toMatchObject(limited);
    expect(slept).toEqual([]);
    await expect(
      sessions.login({ username: 'alice', password: PASSWORD, clientAddress: '203.0.113.5' }),
    ).resolves.toMatchObject({ accessToken: expect.any(String) });
    // The user name has had more attempts than the tight limit: that login waited first.
    expect(slept).toEqual([800]);
  });

  it('refuses one address over the limit across user names', async () => {
    for (let i = 0; i < 5; i++) await wrong(`user${i}`, '203.0.113.9');
    await expect(
      sessions.login({ username: 'bob', password: 'nope', clientAddress: '203.0.113.9' }),
    ).rejects.toMatchObject(limited);
  });

  it('refuses a user name over its much higher limit from all addresses together, even with the right password', async () => {
    for (let i = 0; i < 12; i++) await wrong('alice', `10.0.0.${i}`);
    expect(slept).toEqual(Array(7).fill(800));
    await expect(
      sessions.login({ username: 'alice', password: PASSWORD, clientAddress: '10.0.1.1' }),
    ).rejects.toMatchObject(limited);
    // Another user name is not affected.
    await wrong('bob', '10.0.1.1');
  });

  it('does not count attempts an address was refused against the user name', async () => {
    for (let i = 0; i < 40; i++)
      await sessions
        .login({ username: 'alice', password: 'nope', clientAddress: '198.51.100.66' })
        .catch(() => undefined);
    await expect(
      sessions.login({ username: 'alice', password: PASSWORD, clientAddress: '203.0.113.5' }),
    ).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('limits logins without a client address per user name at the tight limit', async () => {
    for (let i = 0; i < 5; i++) await wrong('alice');
    await expect(sessions.login({ username: 'alice', password: PASSWORD })).rejects.toMatchObject(limited);
  });

  it('upgrades a hash made with weaker parameters, and the password keeps working', async () => {
    const weak = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const old = await users.create({ name: 'Old', username: 'old-timer', passwordHash: weak });
    await sessions.login({ username: 'old-timer', password: PASSWORD });
    const upgraded = await waitFor(
      async () => {
        const hash = (await users.findById(old._id))!.passwordHash;
        return hash !== weak ? hash : undefined;
      },
      { what: 'the upgraded hash' },
    );
    expect(needsRehash(upgraded)).toBe(false);
    await expect(sessions.login({ username: 'old-timer', password: PASSWORD })).resolves.toMatchObject({
      expiresIn: 900,
    });
  });
});

describe('refresh and logout', () => {
  it('rotates: the new refresh token works, the spent one revokes the session for both holders', async () => {
    const first = await sessions.login({ username: 'alice', password: PASSWORD });
    const sid = claims(first.accessToken).sid as string;
    const second = await sessions.refresh(first.refreshToken);
    expect(claims(second.accessToken)).toMatchObject({ sub: userId, sid });
    expect(second.refreshToken).not.toBe(first.refreshToken);

    await expect(sessions.refresh(first.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(revocations.keys).toEqual([`session.${sid}`]);
    await expect(sessions.refresh(second.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('an unknown token, or a user being deleted, gets no new pair', async () => {
    await expect(sessions.refresh(randomUUID())).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const pair = await sessions.login({ username: 'alice', password: PASSWORD });
    await users.markDeleting(userId);
    await expect(sessions.refresh(pair.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(revocations.keys).toEqual([]);
  });

  it('logout revokes the session and spends its refresh token', async () => {
    const pair = await sessions.login({ username: 'alice', password: PASSWORD });
    const sid = claims(pair.accessToken).sid as string;
    await sessions.logout(sid);
    expect(revocations.keys).toEqual([`session.${sid}`]);
    await expect(sessions.refresh(pair.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('a user changing their own password', () => {
  const NEW = 'Battery-Staple-77';
  const twoSessions = async () => {
    const here = await sessions.login({ username: 'alice', password: PASSWORD });
    const elsewhere = await sessions.login({ username: 'alice', password: PASSWORD });
    return { here, elsewhere, sid: claims(here.accessToken).sid as string };
  };

  it('proves the current password, ends every other session and keeps the caller’s', async () => {
    const { here, elsewhere, sid } = await twoSessions();
    await sessions.changePassword({ userId, sessionId: sid, currentPassword: PASSWORD, newPassword: NEW });
    expect(revocations.keys).toEqual([`session.${claims(elsewhere.accessToken).sid as string}`]);
    await expect(sessions.refresh(elsewhere.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(sessions.refresh(here.refreshToken)).resolves.toMatchObject({ expiresIn: 900 });
    await expect(sessions.login({ username: 'alice', password: PASSWORD })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(sessions.login({ username: 'alice', password: NEW })).resolves.toMatchObject({ expiresIn: 900 });
  });

  it('with an API key (no session of the caller) ends every session', async () => {
    const { here, elsewhere } = await twoSessions();
    await sessions.changePassword({ userId, currentPassword: PASSWORD, newPassword: NEW });
    expect(revocations.keys).toHaveLength(2);
    for (const pair of [here, elsewhere])
      await expect(sessions.refresh(pair.refreshToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a wrong current password, a weak, reused or username-bearing new one with a 400 naming the field; nothing changes', async () => {
    const { sid } = await twoSessions();
    const change = (currentPassword: string, newPassword: string) =>
      sessions.changePassword({ userId, sessionId: sid, currentPassword, newPassword, clientAddress: '192.0.2.1' });
    await expect(change('Wrong-Horse-42', NEW)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'currentPassword is not your password',
    });
    for (const [weak, why] of [
      ['short', /^newPassword must be/],
      ['password123456', /^newPassword is too common/],
      ['My-Alice-Password-9', /^newPassword must not contain the username/],
      [PASSWORD, /^newPassword must differ/],
    ] as const)
      await expect(change(PASSWORD, weak)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(why),
      });
    expect(revocations.keys).toEqual([]);
    await expect(sessions.login({ username: 'alice', password: PASSWORD })).resolves.toMatchObject({ expiresIn: 900 });
  });

  it('counts guesses of the current password against the login limits', async () => {
    for (let i = 0; i < 5; i++)
      await expect(
        sessions.changePassword({
          userId,
          currentPassword: `Guess-${i}-Horse`,
          newPassword: NEW,
          clientAddress: '192.0.2.9',
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      sessions.changePassword({ userId, currentPassword: PASSWORD, newPassword: NEW, clientAddress: '192.0.2.9' }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', message: 'too many password change attempts' });
  });

  it('a user that no longer exists gets a 401', async () => {
    await users.markDeleting(userId);
    await expect(
      sessions.changePassword({ userId, currentPassword: PASSWORD, newPassword: NEW }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
