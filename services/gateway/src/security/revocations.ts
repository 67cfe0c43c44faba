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
  /**
   * Whether the list can be trusted to hold every revocation: its watch is healthy, or stopped being
   * so less than the grace ago. Past it a gateway cannot tell a revoked token from a valid one.
   */
  current(): boolean;
}

/** How often the watch's health is sampled, so the grace runs from when it broke, not from the next request. */
const HEALTH_SAMPLE_MS = 500;
/**
 * How often the bucket itself is asked for (a JetStream API call): a watch whose stream is gone or whose
 * JetStream is down may take its consumer's heartbeats to notice; this notices within seconds.
 */
const BUCKET_PROBE_MS = 2000;

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
  private readonly healthTimer: NodeJS.Timeout;
  /** When the watch stopped being healthy (undefined while it is). */
  private unhealthySince?: number;
  private readonly probeTimer: NodeJS.Timeout;
  /** The last probe of the bucket failed. */
  private bucketMissing = false;
  private probing = false;

  private constructor(
    private readonly kv: KV,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly connected: () => boolean,
    private readonly graceMs: number,
  ) {
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_MS);
    this.pruneTimer.unref();
    this.healthTimer = setInterval(() => this.sampleHealth(), HEALTH_SAMPLE_MS);
    this.healthTimer.unref();
    this.probeTimer = setInterval(() => void this.probeBucket(), BUCKET_PROBE_MS);
    this.probeTimer.unref();
  }

  private async probeBucket(): Promise<void> {
    if (this.probing || this.stopped || !this.connected()) return;
    this.probing = true;
    try {
      await this.kv.status();
      this.bucketMissing = false;
    } catch {
      this.bucketMissing = true;
    } finally {
      this.probing = false;
      this.sampleHealth();
    }
  }

  /**
   * Opens the bucket (creating it if the auth service has not yet) and waits for the first full copy.
   * `connected` tells whether the NATS connection is up; `graceMs` how long a broken watch is trusted still.
   */
  static async start(
    nc: NatsConnection,
    log: Logger,
    opts: { syncTimeoutMs?: number; now?: () => number; connected?: () => boolean; graceMs?: number } = {},
  ): Promise<RevocationList> {
    const kv = await nc.jetstream().views.kv(REVOCATIONS.bucket, { ttl: REVOCATIONS.ttlMs, history: 1 });
    const list = new RevocationList(
      kv,
      log,
      opts.now ?? Date.now,
      opts.connected ?? (() => !nc.isClosed()),
      opts.graceMs ?? 10_000,
    );
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

  /** False until the copy is complete, and again while a broken watch is being re-established or past its grace. */
  get ready(): boolean {
    return this.synced && !this.stopped && this.current();
  }

  current(): boolean {
    this.sampleHealth();
    return this.unhealthySince === undefined || this.now() - this.unhealthySince <= this.graceMs;
  }

  /** Notes when the watch breaks (synced copy lost, or the NATS connection down) and when it is back. */
  private sampleHealth(): void {
    const healthy = this.synced && !this.stopped && !this.bucketMissing && this.connected();
    if (healthy && this.unhealthySince !== undefined) {
      this.unhealthySince = undefined;
      this.log.info('revocation watch healthy again: access tokens accepted again');
    } else if (!healthy && this.unhealthySince === undefined && !this.stopped) {
      this.unhealthySince = this.now();
      this.log.warn(
        { graceMs: this.graceMs },
        'revocation watch down: access tokens are refused (503) once it stays down past the grace',
      );
    }
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
    clearInterval(this.healthTimer);
    clearInterval(this.probeTimer);
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
