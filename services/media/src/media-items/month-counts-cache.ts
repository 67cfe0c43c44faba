/** A month's count of a view, as the timeline serves it. */
export interface MonthCount {
  month: string;
  count: number;
}

export interface MonthCountsCacheOptions {
  /**
   * How long an answer may be served: unbounded when this process makes every write of the items (the embedded
   * store, which one process owns), a few seconds when other replicas write them too (MongoDB): their writes do
   * not reach this cache, so they show here that much later at most.
   */
  maxAgeMs: number;
  /** How many users' answers are kept (the least recently used go first). */
  maxUsers?: number;
  now?: () => number;
}

/**
 * The timeline's per-month counts by user and query (`monthCounts` counts a month at a time: at a million items
 * that is a few hundred counts on every Photos page load). A write of the user's items forgets the user's answers;
 * an answer computed while a write happened is not kept (the write's generation moved on).
 */
export class MonthCountsCache {
  private readonly users = new Map<
    string,
    { generation: number; answers: Map<string, { at: number; counts: MonthCount[] }> }
  >();
  private readonly maxUsers: number;
  private readonly now: () => number;

  constructor(private readonly options: MonthCountsCacheOptions) {
    this.maxUsers = options.maxUsers ?? 1000;
    this.now = options.now ?? Date.now;
  }

  private user(userId: string) {
    let entry = this.users.get(userId);
    if (entry) {
      // Most recently used last (a Map keeps insertion order).
      this.users.delete(userId);
    } else {
      entry = { generation: 0, answers: new Map() };
    }
    this.users.set(userId, entry);
    while (this.users.size > this.maxUsers) this.users.delete(this.users.keys().next().value as string);
    return entry;
  }

  /** The cached answer of `key`, else `compute`'s (kept unless a write of the user's items came meanwhile). */
  async get(userId: string, key: string, compute: () => Promise<MonthCount[]>): Promise<MonthCount[]> {
    const entry = this.user(userId);
    const cached = entry.answers.get(key);
    if (cached && this.now() - cached.at <= this.options.maxAgeMs) return copy(cached.counts);
    const generation = entry.generation;
    const at = this.now();
    const counts = await compute();
    const current = this.users.get(userId);
    if (current && current.generation === generation) current.answers.set(key, { at, counts: copy(counts) });
    return counts;
  }

  /** The user's items changed: their answers are no longer right. */
  forget(userId: string): void {
    const entry = this.users.get(userId);
    if (!entry) return;
    entry.generation += 1;
    entry.answers.clear();
  }
}

const copy = (counts: MonthCount[]): MonthCount[] => counts.map((c) => ({ ...c }));
