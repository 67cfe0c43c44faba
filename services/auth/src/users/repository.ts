import { randomUUID } from 'node:crypto';
import type { FeatureSet } from '@trove/proto-events';
import { DuplicateKeyError, conflict, openCollection } from '@trove/kit';
import type { Collection, DocStore } from '@trove/kit';
import { USERS } from './document';
import type { UserDoc } from './document';

export interface UserChanges {
  name?: string;
  username?: string;
  passwordHash?: string;
  features?: FeatureSet;
  quotaBytes?: number | null;
}

const usernameTaken = () => conflict('username already exists');

/** User accounts in the document store. */
export class UsersRepository {
  private constructor(
    private readonly users: Collection<UserDoc>,
    private readonly now: () => Date,
  ) {}

  static async open(store: DocStore, opts: { now?: () => Date } = {}): Promise<UsersRepository> {
    const users = await openCollection(store, USERS);
    return new UsersRepository(users, opts.now ?? (() => new Date()));
  }

  /** Throws CONFLICT when the username is taken (case-insensitively). */
  async create(fields: {
    name: string;
    username: string;
    passwordHash: string;
    features?: FeatureSet;
    quotaBytes?: number | null;
  }): Promise<UserDoc> {
    const now = this.now();
    const doc: UserDoc = {
      _id: randomUUID(),
      ...fields,
      usernameKey: fields.username.toLowerCase(),
      createdAt: now,
      updatedAt: now,
    };
    try {
      return await this.users.insertOne(doc);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw usernameTaken();
      throw err;
    }
  }

  async findById(id: string): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id, deletingAt: { $exists: false } });
  }

  async findByUsername(username: string): Promise<UserDoc | null> {
    return this.users.findOne({ usernameKey: username.toLowerCase(), deletingAt: { $exists: false } });
  }

  /** Accounts (not being deleted) with one of these ids or user names (case-insensitive). */
  async findMany(ids: string[], usernames: string[]): Promise<UserDoc[]> {
    if (ids.length === 0 && usernames.length === 0) return [];
    const keys = usernames.map((u) => u.toLowerCase());
    return this.users.find({
      $or: [{ _id: { $in: ids } }, { usernameKey: { $in: keys } }],
      deletingAt: { $exists: false },
    });
  }

  /** Whether at least one account exists (one not being deleted). */
  async any(): Promise<boolean> {
    return (await this.users.find({ deletingAt: { $exists: false } }, { limit: 1 })).length > 0;
  }

  /** One page, ordered by username. */
  async list(page: number, limit: number): Promise<UserDoc[]> {
    return this.users.find(
      { deletingAt: { $exists: false } },
      { sort: { usernameKey: 1 }, skip: (page - 1) * limit, limit },
    );
  }

  /** The updated user, or null when there is no such user. Throws CONFLICT when the new username is taken. */
  async update(id: string, changes: UserChanges): Promise<UserDoc | null> {
    const set: Record<string, unknown> = { ...changes, updatedAt: this.now() };
    if (changes.username !== undefined) set.usernameKey = changes.username.toLowerCase();
    try {
      return await this.users.findOneAndUpdate({ _id: id, deletingAt: { $exists: false } }, { $set: set });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw usernameTaken();
      throw err;
    }
  }

  /**
   * Replaces a password hash by a stronger one of the same password (not a user-visible change:
   * updatedAt stays). Only if the hash is still the old one: a concurrent password change wins.
   */
  async upgradePasswordHash(id: string, oldHash: string, newHash: string): Promise<void> {
    await this.users.updateOne({ _id: id, passwordHash: oldHash }, { $set: { passwordHash: newHash } });
  }

  /** Marks the user as being deleted (idempotent); null when there is no such user at all. */
  async markDeleting(id: string): Promise<UserDoc | null> {
    const marked = await this.users.findOneAndUpdate(
      { _id: id, deletingAt: { $exists: false } },
      { $set: { deletingAt: this.now() } },
    );
    // Already marked (a retry, or a concurrent deletion): carry on with that mark.
    return marked ?? this.users.findOne({ _id: id });
  }

  /** Users whose deletion began but did not finish (the process stopped half-way). */
  async listDeleting(): Promise<UserDoc[]> {
    return this.users.find({ deletingAt: { $exists: true } });
  }

  async remove(id: string): Promise<void> {
    await this.users.deleteOne({ _id: id });
  }
}
