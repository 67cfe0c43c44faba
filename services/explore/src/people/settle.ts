import type { Logger } from '@trove/kit';

/** When explore regroups a user's people by itself (TROVE_PEOPLE_REGROUP_DELAY_SECONDS, TROVE_PEOPLE_REGROUP_MAX_FACES). */
export interface SettleRules {
  /** Quiet time after a user's last new face before their people are regrouped; 0: never by itself. */
  delayMs: number;
  /** The longest a regroup waits while new faces keep coming (a long upload still regroups now and then). */
  maxWaitMs: number;
  /** Libraries with more faces wait for a `faces` job instead: regrouping compares every face with every other. */
  maxFaces: number;
}

export const DEFAULT_SETTLE: SettleRules = { delayMs: 2_000, maxWaitMs: 60_000, maxFaces: 2_000 };

interface Regrouper {
  faceCount(userId: string): Promise<number>;
  regroup(userId: string): Promise<unknown>;
}

/**
 * Regroups a user's people once their new faces have settled. The incremental assignment gives a
 * new face the person of its nearest look-alike and never merges two people, so a person whose
 * first photos did not look alike enough stays split until a later photo links them and a
 * regroup runs (the photos of a batch arrive in any order). One timer per user, restarted by each
 * new face and capped at `maxWaitMs`; timers never keep the process alive.
 */
export class RegroupWhenSettled {
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  private stopped = false;

  constructor(
    private readonly people: Regrouper,
    private readonly rules: SettleRules,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user has new faces: their regroup waits for the next quiet `delayMs`. */
  touch(userId: string): void {
    if (this.stopped || this.rules.delayMs <= 0) return;
    const earlier = this.pending.get(userId);
    if (earlier) clearTimeout(earlier.timer);
    const since = earlier?.since ?? this.now();
    const wait = Math.max(0, Math.min(this.rules.delayMs, since + this.rules.maxWaitMs - this.now()));
    const timer = setTimeout(() => void this.run(userId), wait);
    timer.unref();
    this.pending.set(userId, { timer, since });
  }

  /** Users whose regroup is waiting. */
  get waiting(): number {
    return this.pending.size;
  }

  /** No regroup starts after this (the service is stopping). */
  stop(): void {
    this.stopped = true;
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private async run(userId: string): Promise<void> {
    this.pending.delete(userId);
    if (this.stopped) return;
    try {
      const faces = await this.people.faceCount(userId);
      if (faces > this.rules.maxFaces) return;
      const counts = await this.people.regroup(userId);
      this.log.info({ userId, ...(counts as object) }, 'people regrouped after new faces');
    } catch (err) {
      this.log.error({ userId, err }, 'people regroup after new faces failed (a faces job regroups too)');
    }
  }
}
