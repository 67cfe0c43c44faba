/**
 * A minimal async mutex: callers run one at a time, in arrival order. The embedded adapter takes it per
 * collection around every write, which makes read-modify-write sequences (findOneAndUpdate, upserts,
 * unique checks) atomic with respect to each other.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  runExclusive<R>(task: () => Promise<R>): Promise<R> {
    const run = this.tail.then(task);
    // The next caller waits for this one to settle, whatever its outcome.
    this.tail = run.catch(() => undefined);
    return run;
  }
}
