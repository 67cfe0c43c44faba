import { openDocStore } from '../docstore';
import type { DocStore } from '../docstore';
import { tempDir } from './temp';

/** A service's document store opened in a directory of its own, which `remove()` closes and deletes. */
export interface TempDocStore {
  readonly store: DocStore;
  remove(): Promise<void>;
}

/**
 * The document store `service` would open without a MongoDB URL (the embedded one), in a fresh
 * temporary data directory: through `openDocStore`, so tests follow whatever adapter it picks.
 */
export async function openTempDocStore(service: string): Promise<TempDocStore> {
  const dir = await tempDir(`trove-${service}-`);
  try {
    const store = await openDocStore({ service, dataDir: dir.path });
    return {
      store,
      remove: async () => {
        try {
          await store.close();
        } finally {
          await dir.remove();
        }
      },
    };
  } catch (err) {
    await dir.remove();
    throw err;
  }
}

/**
 * A fresh, empty store for each test of the block this is called in (jest's `beforeEach`/`afterEach`,
 * registered here: call it before the block's own `beforeEach`, which then finds the store open).
 * Read `.store` inside hooks and tests, never at definition time.
 */
export function docStorePerTest(service: string): { readonly store: DocStore } {
  let current: TempDocStore | undefined;
  beforeEach(async () => {
    current = await openTempDocStore(service);
  });
  afterEach(async () => {
    await current?.remove();
    current = undefined;
  });
  return {
    get store(): DocStore {
      if (!current) throw new Error(`no ${service} store open: read it inside a test or a hook`);
      return current.store;
    },
  };
}
