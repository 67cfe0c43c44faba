import type { AnyRpcHandler, Bus, ConsumerHandle } from '../bus';
import type { DocStore } from '../docstore';
import type { Logger } from '../log';

/**
 * What every service's `wire()` (src/wire.ts) is given: the process's connections. `runService` hands
 * its own; the bus tests hand a bus rig's, so they test the wiring main.ts runs instead of a copy of it.
 */
export interface WireDeps {
  bus: Bus;
  /** The service's own document store. */
  store: DocStore;
  log: Logger;
}

/** What a service's `wire()` gives back: its edge (handlers.ts, events.ts), ready to start. */
export interface Wiring {
  /** The service's description on the NATS service API. */
  description: string;
  /** Every RPC the service answers (handlers.ts). */
  handlers: AnyRpcHandler[];
  /** Subscribes every consumer of the service (events.ts). */
  consume(): Promise<ConsumerHandle[]>;
}
