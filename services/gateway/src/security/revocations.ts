import { REVOCATIONS } from '@trove/proto-events';
import type { Logger } from '@trove/kit';
import type { KV, KvEntry, NatsConnection, QueuedIterator } from 'nats';

const RETRY_MS = 1000;
const PRUNE_MS = 10 * 60 * 1000;

/** What token checks need from the revocation list. */
export interface Revocations {
  has(key: string): boolean;
  add(key: string): void;
  /** False until the list is loaded. */
  readonly ready: boolean;
}

/**
 * An in-memory copy of the revocation bucket the auth service writes (revoked sessions and users),
 * kept current by a KV watch: the watch first delivers every existing key, then each change. Checking
 * a token is then a map lookup instead of an RPC. Entries are dropped once older than the bucket's
 * TTL, like the bucket does, since every token they could match has expired by then.
 */
export class RevocationList implements Revocations {
  private readonly revoked = new Map<string, number>();
  private synced = false;
  private stopped = false;
  private watch?: QueuedIterator<KvEntry>;
  private readonly pruneTimer: NodeJS.Timeout;

  private constructor(
    private readonly kv: KV,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_MS);
    this.pruneTimer.unref();
  }

  /** Opens the bucket (creating it if the auth service has not yet) and waits for the first full copy. */
  static async start(nc: NatsConnection, log: Logger, opts: { syncTimeoutMs?: number; now?: () => number } = {}): Promise<RevocationList> {
    const kv = await nc.jetstream().views.kv(REVOCATIONS.bucket, { ttl: REVOCATIONS.ttlMs, history: 1 });
    const list = new RevocationList(kv, log, opts.now ?? Date.now);
    const timeoutMs = opts.syncTimeoutMs ?? 15_000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        list.stop();
        reject(new Error(`revocation list not loaded within ${timeoutMs} ms`));
      }, timeoutMs);
      void list.run(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return list;
  }

  /** False until the copy is complete (and again while a broken watch is being re-established). */
  get ready(): boolean {
    return this.synced && !this.stopped;
  }

  has(key: string): boolean {
    const expires = this.revoked.get(key);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.revoked.delete(key);
    return false;
  }

  add(key: string): void {
    this.revoked.set(key, this.now() + REVOCATIONS.ttlMs);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.pruneTimer);
    this.watch?.stop();
  }

  private async run(onFirstSync: () => void): Promise<void> {
    let first: (() => void) | undefined = onFirstSync;
    while (!this.stopped) {
      try {
        this.watch = await this.kv.watch({
          initializedFn: () => {
            this.synced = true;
            first?.();
            first = undefined;
          },
        });
        for await (const e of this.watch) this.apply(e);
      } catch (err) {
        this.log.warn({ err }, 'revocation watch failed; retrying');
      }
      this.synced = false;
      if (!this.stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  private apply(e: KvEntry): void {
    if (e.operation === 'PUT') this.revoked.set(e.key, e.created.getTime() + REVOCATIONS.ttlMs);
    else this.revoked.delete(e.key);
  }

  private prune(): void {
    const now = this.now();
    for (const [key, expires] of this.revoked) if (expires <= now) this.revoked.delete(key);
  }
}
