/**
 * Contract shapes. A contract names a subject, its JSON Schemas and who is on each end; the
 * phantom `_types` field carries the TypeScript types derived from those schemas so the bus can
 * type requests, replies and payloads without any cast at the call site.
 */
export type JsonSchema = Record<string, unknown>;

/** Request/reply through the NATS service API, load-shared by a queue group named after the service. */
export interface RpcContract<Req, Res> {
  readonly kind: 'rpc';
  readonly subject: string;
  /** The service that answers (its queue group). */
  readonly service: string;
  readonly callers: readonly string[];
  readonly summary: string;
  readonly request: JsonSchema;
  readonly response: JsonSchema;
  readonly _types?: { request: Req; response: Res };
}

/** A JetStream message: an event fanned out to every consumer, or a work item taken by one worker. */
export interface MessageContract<P> {
  readonly kind: 'event' | 'work';
  readonly subject: string;
  /** The JetStream stream that stores it. */
  readonly stream: string;
  readonly publishers: readonly string[];
  readonly consumers: readonly string[];
  readonly summary: string;
  readonly payload: JsonSchema;
  readonly _types?: { payload: P };
}

export type RequestOf<C> = C extends RpcContract<infer Req, unknown> ? Req : never;
export type ResponseOf<C> = C extends RpcContract<unknown, infer Res> ? Res : never;
export type PayloadOf<C> = C extends MessageContract<infer P> ? P : never;

export function defineRpc<Req, Res>(c: Omit<RpcContract<Req, Res>, 'kind' | '_types'>): RpcContract<Req, Res> {
  return { kind: 'rpc', ...c };
}

export function defineEvent<P>(c: Omit<MessageContract<P>, 'kind' | '_types' | 'stream'>): MessageContract<P> {
  return { kind: 'event', stream: STREAMS.events.name, ...c };
}

export function defineWork<P>(c: Omit<MessageContract<P>, 'kind' | '_types' | 'stream'>): MessageContract<P> {
  return { kind: 'work', stream: STREAMS.work.name, ...c };
}

/**
 * JetStream key-value bucket of crash markers, for consumers that ask the kit bus for crash accounting
 * (`quarantineAfter`): the worker's work consumer. Its readers and writers are the services named here.
 */
export const CRASH_LEDGER = { bucket: 'TROVE_CRASH_LEDGER', users: ['worker'] } as const;

/**
 * The JetStream streams. Subjects carry the contract version (`v1`) so a breaking change ships as a
 * new subject that old and new services can serve side by side during a rolling upgrade.
 */
export const STREAMS = {
  /** Domain events: every interested service has its own durable consumer (fan-out). */
  events: { name: 'TROVE_EVENTS', subjects: ['events.v1.>'], retention: 'limits', maxAgeDays: 7 },
  /** Work queues: each item is removed once one worker acks it. */
  work: { name: 'TROVE_WORK', subjects: ['work.v1.>'], retention: 'workqueue', maxAgeDays: 30 },
  /** Dead letters: items that failed every delivery, kept for inspection and replay. */
  deadLetters: { name: 'TROVE_DLQ', subjects: ['dlq.>'], retention: 'limits', maxAgeDays: 30 },
} as const;

/** Where a message that exhausted its deliveries is republished. */
export function deadLetterSubject(subject: string): string {
  return `dlq.${subject}`;
}
