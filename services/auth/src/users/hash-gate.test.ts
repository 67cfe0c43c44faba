import { AppError } from '@trove/kit';
import { HashGate } from './hash-gate';

/** A piece of work the test finishes by hand. */
function pending(): { promise: Promise<string>; finish: (value: string) => void } {
  let finish!: (value: string) => void;
  const promise = new Promise<string>((resolve) => (finish = resolve));
  return { promise, finish };
}

describe('HashGate', () => {
  it('runs at most `concurrency` at once and starts the next as one ends, in arrival order', async () => {
    const gate = new HashGate({ concurrency: 2, maxQueued: 10, maxWaitMs: 60_000 });
    const works = [pending(), pending(), pending(), pending()];
    const started: number[] = [];
    const results = works.map((w, i) =>
      gate.run(() => {
        started.push(i);
        return w.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.load).toEqual({ running: 2, waiting: 2 });

    works[1].finish('b');
    await expect(results[1]).resolves.toBe('b');
    expect(started).toEqual([0, 1, 2]);
    expect(gate.load).toEqual({ running: 2, waiting: 1 });

    works[0].finish('a');
    works[2].finish('c');
    await Promise.all([results[0], results[2]]);
    expect(started).toEqual([0, 1, 2, 3]);
    works[3].finish('d');
    await expect(results[3]).resolves.toBe('d');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once with 429 and a Retry-After when the queue is full', async () => {
    const gate = new HashGate({ concurrency: 1, maxQueued: 1, maxWaitMs: 2500 });
    const first = pending();
    const running = gate.run(() => first.promise);
    const queued = gate.run(async () => 'queued');
    const refused = gate.run(async () => 'never');
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { retryAfterSeconds: 3 } });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    first.finish('first');
    await expect(running).resolves.toBe('first');
    await expect(queued).resolves.toBe('queued');
  });

  it('refuses a waiting one whose wait runs out, and the slot goes on to the next', async () => {
    jest.useFakeTimers();
    try {
      const gate = new HashGate({ concurrency: 1, maxQueued: 5, maxWaitMs: 1000 });
      const first = pending();
      const running = gate.run(() => first.promise);
      const timedOut = gate.run(async () => 'late');
      jest.advanceTimersByTime(1000);
      await expect(timedOut).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      expect(gate.load).toEqual({ running: 1, waiting: 0 });
      const next = gate.run(async () => 'next');
      first.finish('first');
      await expect(running).resolves.toBe('first');
      await expect(next).resolves.toBe('next');
      expect(gate.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('frees the slot when the work fails', async () => {
    const gate = new HashGate({ concurrency: 1, maxQueued: 1, maxWaitMs: 60_000 });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'after')).resolves.toBe('after');
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
