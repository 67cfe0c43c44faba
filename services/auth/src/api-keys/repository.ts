import { randomUUID } from 'node:crypto';
import { openCollection } from '@trove/kit';
import type { Collection, DocStore } from '@trove/kit';
import { API_KEYS } from './document';
import type { ApiKeyDoc } from './document';

/** API keys in the document store (`api_keys`). Every method but `findByHash` is scoped to one user. */
export class ApiKeysRepository {
  private constructor(
    private readonly keys: Collection<ApiKeyDoc>,
    private readonly now: () => Date,
  ) {}

  static async open(store: DocStore, opts: { now?: () => Date } = {}): Promise<ApiKeysRepository> {
    return new ApiKeysRepository(await openCollection(store, API_KEYS), opts.now ?? (() => new Date()));
  }

  async create(userId: string, name: string, keyHash: string): Promise<ApiKeyDoc> {
    const doc: ApiKeyDoc = { _id: randomUUID(), userId, name, keyHash, createdAt: this.now(), lastUsedAt: null };
    return this.keys.insertOne(doc);
  }

  /** Newest first. */
  async listOfUser(userId: string): Promise<ApiKeyDoc[]> {
    return this.keys.find({ userId }, { sort: { createdAt: -1, _id: -1 } });
  }

  async countOfUser(userId: string): Promise<number> {
    return this.keys.count({ userId });
  }

  async findOfUser(userId: string, id: string): Promise<ApiKeyDoc | null> {
    return this.keys.findOne({ _id: id, userId });
  }

  async findByHash(keyHash: string): Promise<ApiKeyDoc | null> {
    return this.keys.findOne({ keyHash });
  }

  /** Notes a use, unless one was noted less than `minIntervalMs` ago (a busy script must not write per call). */
  async touch(id: string, minIntervalMs: number): Promise<void> {
    const now = this.now();
    await this.keys.updateOne(
      { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now.getTime() - minIntervalMs) } }] },
      { $set: { lastUsedAt: now } },
    );
  }

  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    return (await this.keys.deleteOne({ _id: id, userId })) > 0;
  }

  /** Ids of every key of a user (a deletion revokes them). */
  async idsOfUser(userId: string): Promise<string[]> {
    return (await this.keys.find({ userId })).map((k) => k._id);
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.keys.deleteMany({ userId });
  }
}
