import { join } from 'node:path';
import { deadLetterSubject } from '@trove/proto-events';
import { AppError } from '../errors';
import { createLogger } from '../log';
import { startNatsServer } from '../testing/nats-server';
import type { NatsServerHandle } from '../testing/nats-server';
import { startProcess } from '../testing/process';
import { waitFor } from '../testing/wait';
import { echo, testEvent, testWork } from './fixtures/test-contracts';
import type { ConsumeOptions } from './consume';
import { Bus, DLQ_DELIVERIES_HEADER, DLQ_REASON_HEADER, rpcHandler } from './index';

const log = createLogger({ service: 'bus-test', level: 'silent' });

let nats: NatsServerHandle;
const buses: Bus[] = [];

async function bus(name = 'test'): Promise<Bus> {
  const b = await Bus.connect({ url: nats.url, name, log, rpcTimeoutMs: 1000 });
  buses.push(b);
  return b;
}

/** The echo contract answered by a service of its own, `service`, on `trove.v1.test.<service>`. */
const echoOf = (service: string) => ({ ...echo, subject: `trove.v1.test.${service}`, service });

/** Serves `contract` with `handle`, which never answers normally (it throws or hangs), on a connection of its own. */
async function serveUnanswering(contract: typeof echo, handle: (request: { text: string }) => Promise<never>) {
  const svc = await bus(contract.service);
  await svc.serve({ name: contract.service, version: '1.0.0', handlers: [rpcHandler(contract, handle)] });
  return contract;
}

/** The dead letters of `contract` as they arrive on `b`: the payload's `n` and the dead-letter headers. */
function watchDeadLetters(b: Bus, contract: { subject: string }) {
  const dead: Array<{ n: unknown; reason: string | undefined; deliveries: string | undefined }> = [];
  const sub = b.nc.subscribe(deadLetterSubject(contract.subject), {
    callback: (_e, msg) =>
      dead.push({
        n: (JSON.parse(new TextDecoder().decode(msg.data)) as { n: unknown }).n,
        reason: msg.headers?.get(DLQ_REASON_HEADER),
        deliveries: msg.headers?.get(DLQ_DELIVERIES_HEADER),
      }),
  });
  return { dead, sub };
}

/**
 * A consumer of the work stream `name` (durable `name`, on a connection of its own) that records each delivery's
 * number and fails it with the reason `failure` gives (none: it succeeds); the stream's dead letters are watched.
 */
async function failingConsumer(
  name: string,
  options: Omit<ConsumeOptions, 'durable'>,
  failure: (delivery: number) => string | undefined,
) {
  const work = testWork(name);
  const b = await bus(name);
  const { dead, sub } = watchDeadLetters(b, work);
  const attempts: number[] = [];
  const handle = await b.consume(work, { durable: name, ...options }, async (_p, meta) => {
    attempts.push(meta.delivery);
    const reason = failure(meta.delivery);
    if (reason) throw new Error(reason);
  });
  const stop = async () => {
    await handle.stop();
    sub.unsubscribe();
  };
  return { b, work, dead, attempts, stop };
}

beforeAll(async () => {
  nats = await startNatsServer();
});

afterAll(async () => {
  await Promise.allSettled(buses.map((b) => b.close()));
  await nats.stop();
});

describe('RPC over the NATS service API', () => {
  it('spreads requests over two replicas of a queue group', async () => {
    const counts: Record<string, number> = { a: 0, b: 0 };
    for (const replica of ['a', 'b']) {
      const b = await bus(`echo-${replica}`);
      await b.serve({
        name: 'echo',
        version: '1.0.0',
        handlers: [
          rpcHandler(echo, async ({ text }) => {
            counts[replica]++;
            // Keep each replica busy a little so the server spreads the work.
            await new Promise((r) => setTimeout(r, 5));
            return { text, replica };
          }),
        ],
      });
    }
    const client = await bus('client');
    const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => client.request(echo, { text: `hi ${i}` })));
    expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 60 }, (_, i) => `hi ${i}`));
    expect(counts.a + counts.b).toBe(60);
    expect(counts.a).toBeGreaterThan(0);
    expect(counts.b).toBeGreaterThan(0);
  });

  it('rejects a request that breaks its schema with a clear BAD_REQUEST, and keeps serving', async () => {
    const client = await bus('client-bad');
    const bad = client.request(echo, { text: 'x'.repeat(101) });
    await expect(bad).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/text.*100/) });
    await expect(client.request(echo, { text: 'still here' })).resolves.toMatchObject({ text: 'still here' });
  });

  it('carries application errors with their code and details', async () => {
    const contract = await serveUnanswering(echoOf('fails'), async ({ text }) => {
      if (text === 'boom') throw new Error('secret internal detail');
      throw new AppError('CONFLICT', 'already exists', { id: 'abc' });
    });
    const client = await bus('client-err');
    await expect(client.request(contract, { text: 'x' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'already exists',
      details: { id: 'abc' },
    });
    const internal = await client.request(contract, { text: 'boom' }).catch((e: AppError) => e);
    expect(internal).toMatchObject({ code: 'INTERNAL', message: 'internal error' });
  });

  it('fails fast with UNAVAILABLE when the service is down', async () => {
    const client = await bus('client-down');
    const contract = echoOf('nobody');
    const started = Date.now();
    await expect(client.request(contract, { text: 'x' }, { timeoutMs: 2000 })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'nobody service is unavailable',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up within its timeout when the service does not answer', async () => {
    const contract = await serveUnanswering(echoOf('slow'), () => new Promise(() => undefined));
    const client = await bus('client-slow');
    const started = Date.now();
    await expect(client.request(contract, { text: 'x' }, { timeoutMs: 500 })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'slow service did not answer in time',
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('JetStream work queues', () => {
  beforeAll(async () => {
    const b = await bus('streams');
    await b.ensureStreams();
    await b.ensureStreams(); // idempotent
  });

  it('processes each published item once, and de-duplicates by message id', async () => {
    const work = testWork('dedupe');
    const producer = await bus('producer');
    for (let n = 0; n < 10; n++) await producer.publish(work, { n }, { msgId: `dedupe-${n}` });
    for (let n = 0; n < 10; n++) await producer.publish(work, { n }, { msgId: `dedupe-${n}` });
    const seen: number[] = [];
    const consumer = await bus('consumer');
    const handle = await consumer.consume(work, { durable: 'dedupe' }, async ({ n }) => {
      seen.push(n);
    });
    await waitFor(() => seen.length >= 10, { what: '10 items' });
    await new Promise((r) => setTimeout(r, 300));
    await handle.stop();
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('publishes headers beside the payload, which the consumer reads', async () => {
    const work = testWork('headers');
    const b = await bus('headers');
    const got: Array<string | undefined> = [];
    const handle = await b.consume(work, { durable: 'headers' }, async (_p, meta) => {
      got.push(meta.header(DLQ_REASON_HEADER));
    });
    await b.publish(
      work,
      { n: 1 },
      { msgId: 'headers-1', headers: { [DLQ_REASON_HEADER]: 'broken.jpg: JPEG is truncated' } },
    );
    await waitFor(() => got.length === 1, { what: 'the item' });
    await handle.stop();
    expect(got).toEqual(['broken.jpg: JPEG is truncated']);
  });

  it('naks a failing item with backoff until its max deliveries, then dead-letters it', async () => {
    const { b, work, dead, attempts, stop } = await failingConsumer(
      'poison',
      { maxDeliver: 3, backoffMs: [50, 100] },
      () => 'cannot process this',
    );
    await b.publish(work, { n: 42 }, { msgId: 'poison-42' });
    await waitFor(() => dead.length === 1, { what: 'dead letter' });
    await stop();
    expect(attempts).toEqual([1, 2, 3]);
    expect(dead).toEqual([{ n: 42, reason: 'cannot process this', deliveries: '3' }]);
  });

  it('dead-letters a message that fails its schema at once', async () => {
    const work = testWork('invalid');
    const b = await bus('invalid');
    const { dead, sub } = watchDeadLetters(b, work);
    let called = 0;
    const handle = await b.consume(work, { durable: 'invalid' }, async () => {
      called++;
    });
    // Bypass the typed publish to put a malformed message on the stream.
    await b.nc.jetstream().publish(work.subject, new TextEncoder().encode('{"n":"not a number"}'));
    await waitFor(() => dead.length === 1, { what: 'dead letter' });
    await handle.stop();
    sub.unsubscribe();
    expect(called).toBe(0);
    expect(dead[0]?.reason).toMatch(/invalid payload: \/n must be integer/);
  });

  it('loses no message when a consumer process is killed mid-stream and another takes over', async () => {
    const name = 'killed';
    const work = testWork(name);
    const producer = await bus('producer-killed');
    const total = 30;
    for (let n = 0; n < total; n++) await producer.publish(work, { n }, { msgId: `killed-${n}` });

    const entry = join(__dirname, '..', '..', 'dist', 'bus', 'fixtures', 'consumer-process.js');
    const first = startProcess('consumer-1', entry, {}, [nats.url, name, 'killed', '150']);
    await first.waitForOutput(/done \d+\n[\s\S]*done \d+\n[\s\S]*done \d+/);
    await first.kill(); // SIGKILL: in-flight items are never acked
    const doneBy = (out: string) => [...out.matchAll(/done (\d+)/g)].map((m) => Number(m[1]));
    const firstDone = doneBy(first.output());
    expect(firstDone.length).toBeLessThan(total);

    const second = startProcess('consumer-2', entry, {}, [nats.url, name, 'killed', '10']);
    try {
      await waitFor(() => new Set([...firstDone, ...doneBy(second.output())]).size === total, {
        timeoutMs: 30_000,
        what: 'all items processed',
      });
    } finally {
      await second.stop();
    }
    const all = new Set([...firstDone, ...doneBy(second.output())]);
    expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
    // Work-queue retention: everything acked is gone from the stream.
    const jsm = await producer.nc.jetstreamManager();
    await waitFor(
      async () =>
        (await jsm.consumers.info(work.stream, 'killed')).num_pending === 0 &&
        (await jsm.consumers.info(work.stream, 'killed')).num_ack_pending === 0,
      { what: 'consumer drained' },
    );
  });

  it('retries a message that must be applied beyond its max deliveries, and never dead-letters it', async () => {
    // The store is "down" for the first seven deliveries, more than maxDeliver allows.
    const { b, work, dead, attempts, stop } = await failingConsumer(
      'forever',
      { maxDeliver: 2, retryForever: true, backoffMs: [20] },
      (delivery) => (delivery <= 7 ? 'store unavailable' : undefined),
    );
    await b.publish(work, { n: 7 }, { msgId: 'forever-7' });
    await waitFor(() => attempts.length === 8, { what: 'eighth delivery' });
    const jsm = await b.nc.jetstreamManager();
    await waitFor(async () => (await jsm.consumers.info(work.stream, 'forever')).num_ack_pending === 0, {
      what: 'acked',
    });
    await stop();
    expect(attempts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(dead).toEqual([]);
  });

  it('quarantines a message that kills its consumer process twice, without costing the messages in flight with it a delivery', async () => {
    const name = 'crashing';
    const work = testWork(name);
    const b = await bus('crashing');
    const { dead, sub } = watchDeadLetters(b, work);
    // Item 0 kills its process; item 1 (in flight with it, and failing one attempt of its own) has maxDeliver 2.
    for (let n = 0; n < 4; n++) await b.publish(work, { n }, { msgId: `crashing-${n}` });
    const entry = join(__dirname, '..', '..', 'dist', 'bus', 'fixtures', 'crashing-consumer.js');
    const runs: Array<ReturnType<typeof startProcess>> = [];
    const output = () => runs.map((r) => r.output()).join('');
    const done = () => new Set([...output().matchAll(/done (\d+)/g)].map((m) => Number(m[1])));
    try {
      // The test is the supervisor: a consumer that died is started again, as Kubernetes would.
      await waitFor(
        () => {
          const last = runs.at(-1);
          if (!last || last.child.exitCode !== null || last.child.signalCode !== null)
            runs.push(startProcess(`consumer-${runs.length + 1}`, entry, {}, [nats.url, name, 'crashing']));
          return done().size === 3 && dead.length === 1;
        },
        // The consumers' output tells what happened when it does not end so.
        { timeoutMs: 40_000, intervalMs: 100, what: 'items 1-3 done and item 0 quarantined' },
      ).catch((err: Error) => {
        throw new Error(`${err.message}; dead letters ${JSON.stringify(dead)}; output:\n${output()}`);
      });
    } finally {
      await Promise.all(runs.map((r) => r.kill()));
      sub.unsubscribe();
    }
    expect([...done()].sort()).toEqual([1, 2, 3]);
    expect(dead.map(({ n, reason }) => ({ n, reason }))).toEqual([
      { n: 0, reason: 'quarantined: the process handling it died 2 times while it was in flight' },
    ]);
    const starts = [...output().matchAll(/start (\d+) (\d+) (\d+) (\d+)/g)].map((m) => ({
      n: Number(m[1]),
      attempt: Number(m[2]),
      crashes: Number(m[3]),
      inFlight: Number(m[4]),
    }));
    // Item 0 ran twice and killed its process both times: the second time alone.
    expect(starts.filter((s) => s.n === 0).map((s) => [s.crashes, s.inFlight])).toEqual([
      [0, expect.any(Number)],
      [1, 1],
    ]);
    // After a crash a message runs alone; item 1's crash did not count against its two attempts.
    for (const s of starts.filter((x) => x.crashes > 0)) expect(s.inFlight).toBe(1);
    // Its attempts, net of crashes: the one cut short, the one failing of its own, the last one (its maxDeliver) succeeding.
    expect(starts.filter((s) => s.n === 1).map((s) => s.attempt)).toEqual([1, 1, 2]);
    expect(runs.length).toBe(3);
  }, 60_000);

  it('dead-letters an event whose consumer died on its last delivery without taking it from the other consumers', async () => {
    const name = 'shared-event';
    const event = testEvent(name);
    const b = await bus('advisory');
    const { dead, sub } = watchDeadLetters(b, event);
    const entry = join(__dirname, '..', '..', 'dist', 'bus', 'fixtures', 'consumer-process.js');
    const dying = startProcess('consumer-dies', entry, {}, [nats.url, name, 'dies', '60000', 'event', '1', '4000']);
    await dying.waitForOutput(/consuming/);
    await b.publish(event, { n: 5 }, { msgId: 'shared-event-5' });
    try {
      await dying.waitForOutput(/start 5/);
    } finally {
      await dying.kill(); // SIGKILL on its only delivery: the server gives up after ack_wait
    }
    // A live replica of the dead consumer (same options): it handles the max-deliveries advisory.
    const replica = await b.consume(
      event,
      { durable: 'dies', concurrency: 2, ackWaitMs: 4000, maxDeliver: 1, backoffMs: [100] },
      async () => {
        throw new Error('the replica never gets the event: its one delivery went to the killed process');
      },
    );
    await waitFor(() => dead.length === 1, { timeoutMs: 20_000, what: 'dead letter from the advisory' });
    await replica.stop();
    sub.unsubscribe();
    expect(dead.map((d) => d.n)).toEqual([5]);

    // Another service's consumer of the same event, arriving afterwards, still gets it.
    const others: number[] = [];
    const other = await b.consume(event, { durable: 'other-service' }, async ({ n }) => {
      others.push(n);
    });
    await waitFor(() => others.length === 1, { what: 'the event for the other consumer' });
    await other.stop();
    expect(others).toEqual([5]);
  });
});
