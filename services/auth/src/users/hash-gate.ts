import { AppError } from '@trove/kit';

export interface HashGateOptions {
  /** Hashes that may run at once (each costs scrypt's memory: 128 MiB at the default parameters). */
  concurrency: number;
  /** Hashes that may wait for a turn; one more is refused at once. */
  maxQueued: number;
  /** How long a waiting hash may wait for its turn before it is refused. */
  maxWaitMs: number;
}

/**
 * Bounds how many password hashes run at once, so auth's memory stays bounded whatever arrives:
 * a burst of logins (or of unknown user names, which cost the same on purpose) queues briefly and
 * is then answered 429 with Retry-After instead of allocating scrypt's memory once per request.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: { start: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly opts: HashGateOptions) {}

  /** Runs `work` when a slot is free; refuses with TOO_MANY_REQUESTS when the queue is full or the wait too long. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) await this.turn();
    else this.running++;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** How many hashes run and wait now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private turn(): Promise<void> {
    if (this.waiting.length >= this.opts.maxQueued) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const entry = {
        // The slot is handed over by release(): `running` is not decremented in between.
        start: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(this.busy());
        }, this.opts.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running--;
  }

  private busy(): AppError {
    const retryAfterSeconds = Math.max(1, Math.ceil(this.opts.maxWaitMs / 1000));
    return new AppError('TOO_MANY_REQUESTS', 'too many logins at once, try again shortly', { retryAfterSeconds });
  }
}
