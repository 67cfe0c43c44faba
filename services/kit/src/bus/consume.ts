import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { MessageContract } from '@trove/proto-events';
import { STREAMS, deadLetterSubject, validate } from '@trove/proto-events';
import { AckPolicy, DeliverPolicy, nanos } from 'nats';
import type { ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg, NatsConnection, Subscription } from 'nats';
import { runWithContext } from '../log';
import type { Logger } from '../log';
import { messageDuration, messageRedeliveries, observedGauge, secondsSince } from '../metrics';
import { decodeJson } from './codec';
import { incomingContext, outgoingHeaders, requestIdOf } from './headers';
import { isNotFound } from './streams';
import { ledgerKey, openCrashLedger, SoloGate } from './crash-ledger';
import type { Attempts, CrashLedger } from './crash-ledger';

const tracer = trace.getTracer('trove-bus');

export interface ConsumeOptions {
  /** Durable consumer name: every process using the same name shares the work. */
  durable: string;
  /** Messages processed at once by this process. */
  concurrency?: number;
  /** Deliveries before a message goes to the dead-letter subject. */
  maxDeliver?: number;
  /**
   * For messages that must eventually be applied (a user's deletion): failures are never
   * dead-lettered but retried without limit, with the backoff (whose last delay repeats).
   * A payload that fails its schema is still dead-lettered at once (it can never succeed).
   */
  retryForever?: boolean;
  /** How long a delivery may stay unacknowledged before the server redelivers it. */
  ackWaitMs?: number;
  /** Delay before redelivery after a failure, by attempt (the last value repeats). */
  backoffMs?: number[];
  /**
   * Crash accounting (crash-ledger.ts), for handlers that may kill their own process: a message in
   * flight at this many deaths of its process is dead-lettered as quarantined; one in flight at a
   * death runs alone afterwards; deaths do not count against `maxDeliver`. 0 (the default): off.
   */
  quarantineAfter?: number;
}

export interface MessageMeta {
  /** 1 on the first delivery. */
  delivery: number;
  /** Deaths of the handling process while this message was in flight (with `quarantineAfter`; else 0). */
  crashes: number;
  /** 1 on the first attempt: deliveries net of those a crash cut short (= `delivery` without `quarantineAfter`). */
  attempt: number;
  streamSequence: number;
  subject: string;
  /** A header of the message (e.g. DLQ_REASON_HEADER on a dead letter), or undefined when absent. */
  header(name: string): string | undefined;
}

export type MessageHandler<P> = (payload: P, meta: MessageMeta) => Promise<void>;

export interface ConsumerHandle {
  /** Stops pulling, waits for in-flight handlers, leaves unprocessed messages to other consumers. */
  stop(): Promise<void>;
}

export const DLQ_REASON_HEADER = 'Trove-Dlq-Reason';
export const DLQ_DELIVERIES_HEADER = 'Trove-Dlq-Deliveries';

const DEFAULTS = {
  concurrency: 4,
  maxDeliver: 5,
  retryForever: false,
  ackWaitMs: 30_000,
  backoffMs: [1_000, 5_000, 30_000, 120_000],
  quarantineAfter: 0,
};

/** Creates or updates the durable pull consumer for a contract's subject. */
async function ensureConsumer(
  jsm: JetStreamManager,
  contract: MessageContract<unknown>,
  o: Required<ConsumeOptions>,
): Promise<void> {
  const cfg = {
    durable_name: o.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: contract.subject,
    // With crash accounting the consumer counts attempts itself (deliveries lost to crashes are free);
    // the server's bound is then only a backstop, far enough not to cut an innocent message short.
    max_deliver: o.retryForever ? -1 : o.quarantineAfter > 0 ? 3 * (o.maxDeliver + o.quarantineAfter) : o.maxDeliver,
    ack_wait: nanos(o.ackWaitMs),
    max_ack_pending: Math.max(o.concurrency * 4, 64),
  };
  try {
    await jsm.consumers.info(contract.stream, o.durable);
    await jsm.consumers.update(contract.stream, o.durable, {
      max_deliver: cfg.max_deliver,
      ack_wait: cfg.ack_wait,
      max_ack_pending: cfg.max_ack_pending,
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.consumers.add(contract.stream, cfg);
  }
}

/**
 * Consumes a JetStream subject through a durable pull consumer with bounded concurrency.
 * Success acks; failure naks with backoff; the last failed delivery (or a payload that fails its
 * schema) is republished on `dlq.<subject>` and terminated. A message whose consumer died on its
 * last delivery is moved to the dead-letter subject from the server's max-deliveries advisory.
 */
export async function consume<P>(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  log: Logger,
  contract: MessageContract<P>,
  options: ConsumeOptions,
  handler: MessageHandler<P>,
): Promise<ConsumerHandle> {
  const o: Required<ConsumeOptions> = { ...DEFAULTS, ...options } as Required<ConsumeOptions>;
  await ensureConsumer(jsm, contract as MessageContract<unknown>, o);
  const consumer = await js.consumers.get(contract.stream, o.durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: o.concurrency });
  const advisories = watchMaxDeliveries(nc, js, jsm, log, contract as MessageContract<unknown>, o.durable);
  observeConsumer(jsm, contract.stream, o.durable);
  const crashes: CrashAccounting | null =
    o.quarantineAfter > 0
      ? { ledger: await openCrashLedger(js), gate: new SoloGate(), inFlight: new Map(), finished: new Map() }
      : null;

  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const m of messages) {
      const p = processMessage(js, log, contract, o, handler, m, crashes).finally(() => inFlight.delete(p));
      inFlight.add(p);
      while (inFlight.size >= o.concurrency) await Promise.race(inFlight);
    }
  })();

  return {
    async stop() {
      messages.stop();
      advisories.unsubscribe();
      // Whatever happens to the process from here on is not these messages' doing.
      if (crashes)
        await Promise.allSettled(
          [...crashes.inFlight].map(([key, attempts]) => crashes.ledger.stopping(key, attempts)),
        );
      await loop.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}

async function processMessage<P>(
  js: JetStreamClient,
  log: Logger,
  contract: MessageContract<P>,
  o: Required<ConsumeOptions>,
  handler: MessageHandler<P>,
  m: JsMsg,
  accounting: CrashAccounting | null,
): Promise<void> {
  const delivery = m.info.redeliveryCount;
  const meta: MessageMeta = {
    delivery,
    crashes: 0,
    attempt: delivery,
    streamSequence: m.info.streamSequence,
    subject: m.subject,
    header: (name) => m.headers?.get(name) || undefined,
  };
  const key = ledgerKey(o.durable, m.info.streamSequence);
  let leave: (() => void) | null = null;
  let attempts: Attempts | null = null;
  /** With crash accounting: the delivery of this message being handled here already, if any. */
  let original: Promise<void> | undefined;
  let finished = () => {};
  const parentCtx = incomingContext(m.headers);
  const span = tracer.startSpan(
    `consume ${m.subject}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': m.subject } },
    parentCtx,
  );
  const started = process.hrtime.bigint();
  let outcome = 'ack';
  if (delivery > 1) messageRedeliveries.inc({ subject: contract.subject });
  // Long handlers tell the server they are alive so the message is not redelivered under them.
  const heartbeat = setInterval(() => m.working(), Math.max(500, Math.floor(o.ackWaitMs / 2)));
  try {
    const decoded = decodeJson(m.data);
    const check = decoded.ok ? validate(contract.payload, decoded.value) : { valid: false, errors: ['not valid JSON'] };
    if (!decoded.ok || !check.valid) {
      // A malformed message will never succeed: dead-letter it at once instead of retrying.
      outcome = 'dead_letter';
      await deadLetter(js, m, `invalid payload: ${check.errors.join('; ')}`, delivery);
      m.term();
      log.warn(
        { subject: m.subject, seq: meta.streamSequence, errors: check.errors },
        'message failed its schema; dead-lettered',
      );
      return;
    }
    // A redelivery of a message this process is still handling (it waited past its ack wait in the
    // client's buffer) is no crash, and must not run beside it: it waits for that one's outcome.
    original = accounting?.finished.get(key);
    if (original) {
      await original;
      outcome = 'duplicate';
      if ((await accounting!.ledger.read(key)).settled) m.term();
      else m.nak(o.backoffMs[0] ?? 0);
      return;
    }
    if (accounting) {
      accounting.finished.set(key, new Promise<void>((resolve) => (finished = resolve)));
      const known = await accounting.ledger.read(key);
      if (known.settled) {
        outcome = 'duplicate';
        m.term();
        log.info(
          { subject: m.subject, seq: meta.streamSequence, delivery },
          'stale delivery of a settled message dropped',
        );
        return;
      }
      meta.crashes = known.crashes;
      meta.attempt = known.failures + 1;
      if (known.crashes >= o.quarantineAfter) {
        outcome = 'quarantined';
        const reason = `quarantined: the process handling it died ${known.crashes} times while it was in flight`;
        await deadLetter(js, m, reason, delivery);
        m.term();
        await accounting.ledger.finish(key, known, true);
        log.error(
          { subject: m.subject, seq: meta.streamSequence, delivery, crashes: known.crashes },
          'message quarantined: its process died in it again and again; dead-lettered',
        );
        return;
      }
      // After a crash it runs alone: should the process die again, nothing else was in flight.
      leave = await accounting.gate.enter(known.crashes > 0);
      await accounting.ledger.begin(key, known);
      attempts = known;
      accounting.inFlight.set(key, known);
    }
    await context.with(trace.setSpan(parentCtx, span), () =>
      runWithContext({ requestId: requestIdOf(m.headers) }, () => handler(decoded.value as P, meta)),
    );
    await m.ackAck();
    if (attempts) await settle(accounting!, key, attempts, true, log);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    const reason = (err as Error)?.message ?? String(err);
    // Deliveries cut short by a crash are not the message's failures: they do not count.
    const attempt = meta.attempt;
    const last = !o.retryForever && attempt >= o.maxDeliver;
    // Before the redelivery can read it: the process is alive, this delivery is over.
    if (attempts) await settle(accounting!, key, { ...attempts, failures: attempts.failures + 1 }, last, log);
    if (last) {
      outcome = 'dead_letter';
      await deadLetter(js, m, reason, delivery).catch((e) => log.error({ err: e }, 'dead-letter publish failed'));
      // No reason on the +TERM: nats-server before 2.10 ignores a +TERM that carries one (the DLQ header has it).
      m.term();
      log.error(
        { subject: m.subject, seq: meta.streamSequence, delivery, reason },
        'message failed its last delivery; dead-lettered',
      );
    } else {
      outcome = 'retry';
      const delay = o.backoffMs[Math.min(attempt - 1, o.backoffMs.length - 1)] ?? 0;
      m.nak(delay);
      log.warn({ subject: m.subject, seq: meta.streamSequence, delivery, delay, reason }, 'message failed; will retry');
    }
  } finally {
    leave?.();
    if (accounting && !original) {
      accounting.inFlight.delete(key);
      accounting.finished.delete(key);
      finished();
    }
    clearInterval(heartbeat);
    messageDuration.observe({ subject: contract.subject, outcome }, secondsSince(started));
    span.end();
  }
}

interface CrashAccounting {
  ledger: CrashLedger;
  gate: SoloGate;
  /** Ledger keys of the messages being handled, with what the ledger knows of them. */
  inFlight: Map<string, Attempts>;
  /** Settles when this process is done with the delivery it is handling of a message (by ledger key). */
  finished: Map<string, Promise<void>>;
}

/** Marks a delivery over in the ledger; a ledger that cannot be written only weakens the accounting. */
async function settle(
  accounting: CrashAccounting,
  key: string,
  attempts: Attempts,
  done: boolean,
  log: Logger,
): Promise<void> {
  await accounting.ledger
    .finish(key, attempts, done)
    .catch((err: unknown) => log.warn({ err, key }, 'crash ledger not updated'));
}

async function deadLetter(js: JetStreamClient, m: JsMsg, reason: string, deliveries: number): Promise<void> {
  const h = outgoingHeaders();
  h.set(DLQ_REASON_HEADER, reason.replace(/[\r\n]+/g, ' ').slice(0, 1000));
  h.set(DLQ_DELIVERIES_HEADER, String(deliveries));
  await js.publish(deadLetterSubject(m.subject), m.data, {
    headers: h,
    msgID: `dlq-${m.info.stream}-${m.info.streamSequence}`,
  });
}

/**
 * When a consumer process dies during a message's last delivery, nobody nak's it: the server
 * gives up and emits an advisory. We pick that message from the stream and dead-letter it, so
 * nothing is silently stuck. Only a work queue's message is then removed: it belongs to this one
 * consumer, whereas an event stays in its stream for every other consumer that has not had it
 * yet. A queue group makes one replica do it.
 */
function watchMaxDeliveries(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  log: Logger,
  contract: MessageContract<unknown>,
  durable: string,
): Subscription {
  const subject = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${contract.stream}.${durable}`;
  return nc.subscribe(subject, {
    queue: `${durable}-advisories`,
    callback: (err, msg) => {
      if (err) return;
      const decoded = decodeJson(msg.data);
      const advisory = (decoded.ok ? decoded.value : {}) as { stream_seq?: number; deliveries?: number };
      const seq = advisory.stream_seq;
      if (typeof seq !== 'number') return;
      void (async () => {
        try {
          const stored = await jsm.streams.getMessage(contract.stream, { seq });
          const h = outgoingHeaders();
          h.set(DLQ_REASON_HEADER, 'maximum deliveries reached without an answer from a consumer');
          h.set(DLQ_DELIVERIES_HEADER, String(advisory.deliveries ?? ''));
          await js.publish(deadLetterSubject(stored.subject), stored.data, {
            headers: h,
            msgID: `dlq-${contract.stream}-${seq}`,
          });
          if (ownsItsMessages(contract.stream)) await jsm.streams.deleteMessage(contract.stream, seq, false);
          log.error({ subject: stored.subject, seq }, 'message exhausted its deliveries; dead-lettered');
        } catch (e) {
          // Already handled by the consumer that term'd it, or by another replica.
          if (!isNotFound(e)) log.warn({ err: e, seq }, 'max-deliveries advisory not handled');
        }
      })();
    },
  });
}

/** True for a work-queue stream, whose messages are each for one consumer only. */
function ownsItsMessages(stream: string): boolean {
  return Object.values(STREAMS).some((s) => s.name === stream && s.retention === 'workqueue');
}

/** Durable consumers of this process, whose backlog the queue gauges report at each scrape. */
const observedConsumers = new Map<string, { jsm: JetStreamManager; stream: string; durable: string }>();

function observeConsumer(jsm: JetStreamManager, stream: string, durable: string): void {
  observedConsumers.set(`${stream}/${durable}`, { jsm, stream, durable });
  if (observedConsumers.size > 1) return; // the gauges exist already
  const read = (field: 'num_pending' | 'num_ack_pending' | 'num_redelivered') => async () => {
    const infos = await Promise.all(
      [...observedConsumers.values()].map(async (c) => ({
        c,
        info: await c.jsm.consumers.info(c.stream, c.durable).catch(() => undefined),
      })),
    );
    return infos
      .filter((i) => i.info)
      .map(({ c, info }) => ({ labels: { stream: c.stream, consumer: c.durable }, value: info![field] }));
  };
  observedGauge(
    'trove_queue_pending_messages',
    'Messages not yet delivered to a durable consumer (its backlog).',
    ['stream', 'consumer'],
    read('num_pending'),
  );
  observedGauge(
    'trove_queue_unacked_messages',
    'Messages delivered to a durable consumer and not yet acknowledged.',
    ['stream', 'consumer'],
    read('num_ack_pending'),
  );
  observedGauge(
    'trove_queue_redelivered_messages',
    'Messages of a durable consumer delivered more than once and not yet acknowledged.',
    ['stream', 'consumer'],
    read('num_redelivered'),
  );
}
