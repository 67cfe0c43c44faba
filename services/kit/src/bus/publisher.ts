import type { MessageContract } from '@trove/proto-events';

/**
 * What a service's domain publishes events and work items through: the Bus in the process, a recorder in
 * unit tests. Every service takes this one type (never the whole Bus), so a fake needs only `publish`.
 */
export interface EventPublisher {
  /** Publishes `payload` under `contract`; `msgId` de-duplicates retries, `headers` travel beside it. */
  publish<P>(
    contract: MessageContract<P>,
    payload: P,
    opts: { msgId: string; headers?: Record<string, string> },
  ): Promise<void>;
}
