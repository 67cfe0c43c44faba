/**
 * The auth service as it runs in its process, minus the process: its RPC handlers, wired by the `wire()`
 * main.ts runs from its configuration, on a real nats-server (JetStream: the revocation bucket and the
 * user events), its repositories on the embedded store (SQLite).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import * as contracts from '@trove/proto-events';
import type { UserDeletedV1 } from '@trove/proto-events';
import { commonSpec, loadConfig } from '@trove/kit';
import { startBusRig, tempDir, waitFor } from '@trove/kit/testing';
import type { BusRig, TempDir } from '@trove/kit/testing';
import { authSpec } from './config';
import { prepareDummyHash } from './users/passwords';
import { wire } from './wire';

const PASSWORD = 'a long enough passphrase 4 tests';

describe('auth over NATS: setup, users, sessions and deletion', () => {
  let rig: BusRig;
  let dir: TempDir;
  const secret = randomBytes(32).toString('hex');
  const deleted: UserDeletedV1[] = [];

  beforeAll(async () => {
    rig = await startBusRig({ service: 'auth', mediaItems: async () => [] });
    dir = await tempDir('trove-auth-bus-');
    const config = loadConfig(
      { ...commonSpec, ...authSpec },
      {
        TROVE_DATA_DIR: dir.path,
        TROVE_JWT_SECRET: secret,
        TROVE_LOGIN_RATE_LIMIT: '3',
        TROVE_LOGIN_SLOWDOWN_MS: '0',
      },
    );
    await prepareDummyHash();
    await rig.serveWiring(await wire({ bus: rig.bus, store: rig.store, log: rig.log, config }));
    await rig.client.consume(contracts.userDeletedEvent, { durable: 'test-user-deleted' }, async (e) => {
      deleted.push(e);
    });
  });
  afterAll(async () => {
    await rig?.close();
    await dir?.remove();
  });

  const login = (username: string, password = PASSWORD, clientAddress = '192.0.2.1') =>
    rig.client.request(contracts.loginRpc, { username, password, clientAddress });
  /** The access token's claims, checked with the configured secret (as the gateway does). */
  const claims = (token: string) => jwt.verify(token, secret) as jwt.JwtPayload & { sid: string };

  it('creates the first user, answers setup status and manages users', async () => {
    expect(await rig.client.request(contracts.setupStatusRpc, {})).toEqual({ needsSetup: true });
    const admin = await rig.client.request(contracts.createUserRpc, {
      name: 'Admin',
      username: 'admin',
      password: PASSWORD,
    });
    expect(admin).toMatchObject({ name: 'Admin', username: 'admin', quotaBytes: null });
    expect(await rig.client.request(contracts.setupStatusRpc, {})).toEqual({ needsSetup: false });

    await expect(
      rig.client.request(contracts.createUserRpc, { name: 'Short', username: 'short', password: 'abc' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const renamed = await rig.client.request(contracts.updateUserRpc, { id: admin.id, name: 'Administrator' });
    expect(renamed.name).toBe('Administrator');
    expect(await rig.client.request(contracts.getUserRpc, { id: admin.id })).toEqual(renamed);
    expect(
      (await rig.client.request(contracts.listUsersRpc, { page: 1, limit: 10 })).users.map((u) => u.username),
    ).toEqual(['admin']);
    await expect(rig.client.request(contracts.getUserRpc, { id: randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'user not found',
    });
  });

  it('logs in, refreshes (rotating the refresh token) and logs out', async () => {
    await rig.client.request(contracts.createUserRpc, { name: 'Alice', username: 'alice', password: PASSWORD });
    const pair = await login('alice');
    const { sub, sid } = claims(pair.accessToken);
    expect((await rig.client.request(contracts.getUserRpc, { id: sub! })).username).toBe('alice');

    const next = await rig.client.request(contracts.refreshRpc, { refreshToken: pair.refreshToken });
    expect(claims(next.accessToken)).toMatchObject({ sub, sid });
    expect(next.refreshToken).not.toBe(pair.refreshToken);
    await expect(rig.client.request(contracts.refreshRpc, { refreshToken: pair.refreshToken })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });

    await rig.client.request(contracts.logoutRpc, { userId: sub!, sessionId: sid });
    await expect(rig.client.request(contracts.refreshRpc, { refreshToken: next.refreshToken })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses wrong passwords, then every attempt from that address past the configured limit', async () => {
    await rig.client.request(contracts.createUserRpc, { name: 'Bob', username: 'bob', password: PASSWORD });
    for (let i = 0; i < 3; i++)
      await expect(login('bob', 'wrong password', '192.0.2.9')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(login('bob', PASSWORD, '192.0.2.9')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(claims((await login('bob', PASSWORD, '192.0.2.10')).accessToken).sub).toBeDefined();
  });

  it('deletes a user: its sessions end, it cannot log in, and the other services are told', async () => {
    const carol = await rig.client.request(contracts.createUserRpc, {
      name: 'Carol',
      username: 'carol',
      password: PASSWORD,
    });
    const pair = await login('carol');
    await rig.client.request(contracts.deleteUserRpc, { id: carol.id });

    await waitFor(async () => deleted.some((e) => e.userId === carol.id), { what: 'user.deleted published' });
    await expect(rig.client.request(contracts.getUserRpc, { id: carol.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(rig.client.request(contracts.refreshRpc, { refreshToken: pair.refreshToken })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(login('carol')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(rig.client.request(contracts.deleteUserRpc, { id: carol.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
