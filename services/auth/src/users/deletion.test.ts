import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, openDocStore } from '@trove/kit';
import type { Bus, DocStore } from '@trove/kit';
import type { RevocationWriter } from '../sessions/revocations';
import { SessionStore } from '../sessions/sessions';
import { deleteUser, resumeDeletions } from './deletion';
import type { DeletionDeps } from './deletion';
import { UsersRepository } from './repository';

describe('user deletion', () => {
  let dir: string;
  let store: DocStore;
  let deps: DeletionDeps;
  let published: Array<{ subject: string; payload: unknown; msgId: string }>;
  let revoked: string[];
  let publishFails: boolean;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trove-deletion-'));
    store = await openDocStore({ service: 'auth', dataDir: dir });
    published = [];
    revoked = [];
    publishFails = false;
    const bus = {
      async publish(contract: { subject: string }, payload: unknown, opts: { msgId: string }) {
        if (publishFails) throw new Error('nats is down');
        published.push({ subject: contract.subject, payload, msgId: opts.msgId });
      },
    } as unknown as Bus;
    const revocations = {
      async revokeUser(id: string) {
        revoked.push(`user.${id}`);
      },
    } as unknown as RevocationWriter;
    deps = {
      users: await UsersRepository.open(store),
      sessions: await SessionStore.open(store, { ttlMs: 60_000 }),
      revocations,
      bus,
      log: createLogger({ service: 'test', level: 'silent' }),
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('revokes the user, deletes its sessions, publishes user.deleted, then removes it', async () => {
    const user = await deps.users.create({ name: 'A', username: 'alice', passwordHash: 'h' });
    const { refreshToken } = await deps.sessions.create(user._id);
    expect(await deleteUser(deps, user._id)).toBe(true);
    expect(revoked).toEqual([`user.${user._id}`]);
    expect(await deps.sessions.rotate(refreshToken)).toEqual({ kind: 'invalid' });
    expect(published).toEqual([
      { subject: 'events.v1.user.deleted', payload: { userId: user._id, deletedAt: expect.any(String) }, msgId: `user-deleted-${user._id}` },
    ]);
    expect(await deps.users.listDeleting()).toEqual([]);
    expect(await deleteUser(deps, user._id)).toBe(false);
  });

  it('an interrupted deletion leaves the user gone for callers and is finished at the next start', async () => {
    const user = await deps.users.create({ name: 'A', username: 'alice', passwordHash: 'h' });
    publishFails = true;
    await expect(deleteUser(deps, user._id)).rejects.toThrow(/nats is down/);
    expect(await deps.users.findById(user._id)).toBeNull();
    expect(await deps.users.findByUsername('alice')).toBeNull();

    publishFails = false;
    await resumeDeletions(deps);
    expect(published).toHaveLength(1);
    expect(await deps.users.listDeleting()).toEqual([]);
  });
});
