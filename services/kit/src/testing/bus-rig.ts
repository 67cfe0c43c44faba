import { getMediaItemsRpc } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import { Bus, rpcHandler } from '../bus';
import type { AnyRpcHandler } from '../bus';
import type { DocStore } from '../docstore';
import type { Wiring } from '../service/wiring';
import { createLogger } from '../log';
import type { Logger } from '../log';
import { openTempDocStore } from './docstore';
import type { TempDocStore } from './docstore';
import { startNatsServer } from './nats-server';
import type { NatsServerHandle } from './nats-server';

/** What the stand-in media service answers to `trove.v1.media.getMany`: the user's items among `ids`. */
export type MediaItemsOf = (userId: string, ids: string[]) => Promise<MediaItemV1[]>;

export interface BusRigOptions {
  /** The service under test: its name on the bus and the owner of the store. */
  service: string;
  /** Where the rig and the service log; silent by default. */
  log?: Logger;
  /** The answers of the stand-in media service. */
  mediaItems: MediaItemsOf;
  /** More of the stand-in media service's RPCs, for a service that calls others than `getMany` (jobs: `walk`). */
  mediaHandlers?: AnyRpcHandler[];
}

/**
 * A service as it runs in its process, minus the process: what its handlers and consumers are
 * given. The test builds the service's domain on `store` and serves it on `bus`.
 */
export interface BusRig {
  readonly nats: NatsServerHandle;
  /** The logger to hand the service (silent unless the options gave one). */
  readonly log: Logger;
  /** The service's document store (the embedded one, in a temporary directory). */
  readonly store: DocStore;
  /** The service's connection, its JetStream streams made. */
  readonly bus: Bus;
  /** A caller's connection (the gateway's), RPCs timing out after 2 s. */
  readonly client: Bus;
  /** Starts what the service's `wire()` built, as `runService` does: its consumers, then its RPCs on `bus`. */
  serveWiring(wiring: Wiring): Promise<void>;
  /** Takes the stand-in media service off the bus: calls to it go unanswered, as when it is down. */
  stopMedia(): Promise<void>;
  /** Puts the stand-in media service back. */
  startMedia(): Promise<void>;
  /** Closes every connection and the store, and stops nats-server. */
  close(): Promise<void>;
}

/** Starts a real nats-server (JetStream), opens the service's store and connects the service, a stand-in media service and a client. */
export async function startBusRig(opts: BusRigOptions): Promise<BusRig> {
  const log = opts.log ?? createLogger({ service: `${opts.service}-test`, level: 'silent' });
  const nats = await startNatsServer();
  let temp: TempDocStore | undefined;
  const buses: Bus[] = [];
  let media: Bus | undefined;
  const close = async () => {
    await Promise.allSettled([...buses, media].map((b) => b?.close()));
    await Promise.allSettled([temp?.remove()]);
    await nats.stop();
  };
  const startMedia = async () => {
    const bus = await Bus.connect({ url: nats.url, name: 'media', log });
    media = bus;
    await bus.serve({
      name: 'media',
      version: '0.0.0',
      handlers: [
        rpcHandler(getMediaItemsRpc, async ({ userId, ids }) => ({ items: await opts.mediaItems(userId, ids) })),
        ...(opts.mediaHandlers ?? []),
      ],
    });
  };
  try {
    temp = await openTempDocStore(opts.service);
    const bus = await Bus.connect({ url: nats.url, name: opts.service, log, rpcTimeoutMs: 2000 });
    buses.push(bus);
    await bus.ensureStreams();
    await startMedia();
    const client = await Bus.connect({ url: nats.url, name: 'gateway', log, rpcTimeoutMs: 2000 });
    buses.push(client);
    return {
      nats,
      log,
      store: temp.store,
      bus,
      client,
      serveWiring: async (wiring) => {
        await wiring.consume();
        await bus.serve({
          name: opts.service,
          version: '0.0.0',
          description: wiring.description,
          handlers: wiring.handlers,
        });
      },
      stopMedia: async () => {
        await media?.close();
        media = undefined;
      },
      startMedia,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
