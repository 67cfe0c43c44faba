import { docStorePerTest } from '@trove/kit/testing';
import { SessionsRepository } from './repository';
import { hashRefreshToken } from './tokens';

const USER = '0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5';
const DAY = 24 * 60 * 60 * 1000;

describe('sessions and refresh-token rotation', () => {
  const db = docStorePerTest('auth');
  let now: number;
  let sessions: SessionsRepository;

  beforeEach(async () => {
    now = Date.UTC(2024, 5, 24);
    sessions = await SessionsRepository.open(db.store, { ttlMs: 30 * DAY, now: () => now });
  });

  it('stores only the digest of the refresh token', async () => {
    const { session, refreshToken } = await sessions.create(USER);
    const stored = await db.store.collection('sessions').findOne({ _id: session._id });
    expect(JSON.stringify(stored)).not.toContain(refreshToken);
    expect(stored).toMatchObject({ userId: USER, refreshHash: hashRefreshToken(refreshToken) });
  });

  it('rotates: the new token works once, the old one is spent', async () => {
    const { session, refreshToken } = await sessions.create(USER);
    const first = await sessions.rotate(refreshToken);
    expect(first).toMatchObject({ kind: 'rotated', session: { _id: session._id, userId: USER } });
    const next = (first as { refreshToken: string }).refreshToken;
    expect(next).not.toBe(refreshToken);
    const second = await sessions.rotate(next);
    expect(second.kind).toBe('rotated');
  });

  it('reports a rotated token presented again as reuse (theft), naming the session', async () => {
    const { session, refreshToken } = await sessions.create(USER);
    await sessions.rotate(refreshToken);
    expect(await sessions.rotate(refreshToken)).toMatchObject({ kind: 'reused', session: { _id: session._id } });
  });

  it('lets only one of two concurrent uses of a token rotate', async () => {
    const { refreshToken } = await sessions.create(USER);
    const results = await Promise.all([sessions.rotate(refreshToken), sessions.rotate(refreshToken)]);
    expect(results.map((r) => r.kind).sort()).toEqual(['reused', 'rotated']);
  });

  it('refuses unknown tokens and sessions past their absolute expiry', async () => {
    expect(await sessions.rotate('not-a-token')).toEqual({ kind: 'invalid' });
    const { refreshToken } = await sessions.create(USER);
    now += 31 * DAY;
    expect(await sessions.rotate(refreshToken)).toEqual({ kind: 'invalid' });
  });

  it('deletes one session or all of a user; housekeeping removes expired ones', async () => {
    const a = await sessions.create(USER);
    const b = await sessions.create(USER);
    const other = await sessions.create('9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d');
    expect((await sessions.idsOfUser(USER)).sort()).toEqual([a.session._id, b.session._id].sort());
    await sessions.delete(a.session._id);
    expect(await sessions.rotate(a.refreshToken)).toEqual({ kind: 'invalid' });
    await sessions.deleteOfUser(USER);
    expect(await sessions.rotate(b.refreshToken)).toEqual({ kind: 'invalid' });
    now += 31 * DAY;
    expect(await sessions.purgeExpired()).toBe(1);
    expect(await sessions.rotate(other.refreshToken)).toEqual({ kind: 'invalid' });
  });
});
