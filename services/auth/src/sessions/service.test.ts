/**
 * Login, refresh and logout over the real repositories (NeDB) and password hashing, with a
 * recording fake of the revocation bucket.
 */
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createLogger, openDocStore } from '@trove/kit';
import type { DocStore } from '@trove/kit';
import { tempDir } from '../../../kit/src/testing/temp';
import type { TempDir } from '../../../kit/src/testing/temp';
import { waitFor } from '../../../kit/src/testing/wait';
import { LoginRateLimiter } from '../login/rate-limit';
import { LoginAttemptsRepository } from '../login/repository';
import { FakeRevocations } from '../ports/revocations.fake';
import { hashPassword, needsRehash } from '../users/passwords';
import { UsersRepository } from '../users/repository';
import { SessionsRepository } from './repository';
import { Sessions } from './service';
import { AccessTokenIssuer } from './tokens';

const SECRET = 'k'.repeat(43);
const PASSWORD = 'Correct-Horse-42';

let dir: TempDir;
let store: DocStore;
let users: UsersRepository;
let revocations: FakeRevocations;
let sessions: Sessions;
let userId: string;

beforeEach(async () => {
  dir = await tempDir('trove-auth-sessions-');
  store = await openDocStore({ service: 'auth', dataDir: dir.path });
  users = await UsersRepository.open(store);
  revocations = new FakeRevocations();
  sessions = new Sessions({
    users,
    sessions: await SessionsRepository.open(store, { ttlMs: 24 * 3600 * 1000 }),
    tokens: new AccessTokenIssuer(SECRET, 900),
    limiter: new LoginRateLimiter(await LoginAttemptsRepository.open(store), { limit: 5 }),
    revocations,
    log: createLogger({ service: 'auth-test', level: 'silent' }),
  });
  userId = (await users.create({ name: 'Alice', username: 'Alice', passwordHash: await hashPassword(PASSWORD) }))._id;
});
afterEach(async () => {
  await store.close();
  await dir.remove();
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

  it('refuses attempts over the limit, even with the right password, per user name and per client address', async () => {
    const wrong = (username: string, clientAddress?: string) => expect(sessions.login({ username, password: 'nope', clientAddress })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    for (let i = 0; i < 5; i++) await wrong('ALICE', `10.0.0.${i}`);
    await expect(sessions.login({ username: 'alice', password: PASSWORD })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { retryAfterSeconds: expect.any(Number) } });
    for (let i = 0; i < 5; i++) await wrong(`user${i}`, '203.0.113.9');
    await expect(sessions.login({ username: 'bob', password: 'nope', clientAddress: '203.0.113.9' })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('upgrades a hash made with weaker parameters, and the password keeps working', async () => {
    const weak = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
    const old = await users.create({ name: 'Old', username: 'old-timer', passwordHash: weak });
    await sessions.login({ username: 'old-timer', password: PASSWORD });
    const upgraded = await waitFor(async () => {
      const hash = (await users.findById(old._id))!.passwordHash;
      return hash !== weak ? hash : undefined;
    }, { what: 'the upgraded hash' });
    expect(needsRehash(upgraded)).toBe(false);
    await expect(sessions.login({ username: 'old-timer', password: PASSWORD })).resolves.toMatchObject({ expiresIn: 900 });
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
