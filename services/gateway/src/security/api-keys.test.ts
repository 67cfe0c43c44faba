import { REVOCATIONS } from '@trove/proto-events';
import { ApiKeyResolver } from './api-keys';
import type { ApiKeyOwner } from './api-keys';
import type { Revocations } from './revocations';

const KEY = `trove_${'A'.repeat(43)}`;
const OWNER: ApiKeyOwner = {
  userId: '0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5',
  keyId: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
};

class Revoked implements Revocations {
  readonly keys = new Set<string>();
  readonly ready = true;
  has(key: string) {
    return this.keys.has(key);
  }
  add(key: string) {
    this.keys.add(key);
  }
  current() {
    return true;
  }
}

describe('ApiKeyResolver', () => {
  let now: number;
  let asked: string[];
  let revoked: Revoked;
  let resolver: ApiKeyResolver;

  beforeEach(() => {
    now = 0;
    asked = [];
    revoked = new Revoked();
    resolver = new ApiKeyResolver(
      async (hash) => {
        asked.push(hash);
        return OWNER;
      },
      revoked,
      { ttlMs: 1000, now: () => now },
    );
  });

  it('asks auth with the digest, never the key, and reuses the answer until it is stale', async () => {
    expect(await resolver.resolve(KEY)).toEqual(OWNER);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(asked[0]).not.toContain(KEY);
    now = 999;
    await resolver.resolve(KEY);
    expect(asked).toHaveLength(1);
    now = 1000;
    await resolver.resolve(KEY);
    expect(asked).toHaveLength(2);
  });

  it('refuses a remembered key the moment its key or its user is revoked', async () => {
    expect(await resolver.resolve(KEY)).toEqual(OWNER);
    revoked.add(REVOCATIONS.sessionKey(OWNER.keyId));
    expect(await resolver.resolve(KEY)).toBeUndefined();
    revoked.keys.clear();
    revoked.add(REVOCATIONS.userKey(OWNER.userId));
    expect(await resolver.resolve(KEY)).toBeUndefined();
  });

  it('refuses keys of the wrong shape without asking', async () => {
    for (const bad of ['', 'trove_', `trove_${'A'.repeat(42)}`, `Trove_${'A'.repeat(43)}`, `trove_${'A'.repeat(42)}!`])
      expect(await resolver.resolve(bad)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
