import type { MessageContract, RpcContract } from '@trove/proto-events';
import { inboxPrefixOf, validate } from '@trove/proto-events';
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator } from 'nats';
import type { ConnectionOptions } from 'nats';
import type { JetStreamClient, JetStreamManager, NatsConnection, Service } from 'nats';
import { AppError } from '../errors';
import type { Logger } from '../log';
import { encodeJson } from './codec';
import { consume } from './consume';
import type { ConsumeOptions, ConsumerHandle, MessageHandler } from './consume';
import { outgoingHeaders } from './headers';
import { requestRpc, serveRpc } from './rpc';
import type { ServeOptions } from './rpc';
import { ensureStreams, waitForStreams } from './streams';
import type { EventPublisher } from './publisher';

export { rpcCommand, rpcHandler } from './rpc';
export type { AnyRpcHandler, RpcHandler, ServeOptions } from './rpc';
export type { ConsumeOptions, ConsumerHandle, MessageHandler, MessageMeta } from './consume';
export { DLQ_DELIVERIES_HEADER, DLQ_REASON_HEADER } from './consume';
export { REQUEST_ID_HEADER } from './headers';
export { jsonBytes } from './json-bytes';
export { streamConfigs } from './streams';
export type { EventPublisher } from './publisher';

export interface BusOptions {
  url: string;
  /** Connection name shown by the server (service name and pid). */
  name: string;
  log: Logger;
  /** Default RPC timeout. */
  rpcTimeoutMs?: number;
  /** Credentials and TLS (TROVE_NATS_* variables); never logged. */
  auth?: NatsAuth;
  /**
   * The service whose NATS user this is: its replies arrive under its own inbox prefix
   * (`_INBOX.<service>`), the only inbox its user may subscribe to (see proto-events' permissions).
   */
  service?: string;
}

export interface NatsAuth {
  user?: string;
  password?: string;
  token?: string;
  credsFile?: string;
  tlsCaFile?: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
}

/** nats.js options for the configured credentials and TLS. */
export function natsAuthOptions(auth: NatsAuth = {}): Partial<ConnectionOptions> {
  const o: Partial<ConnectionOptions> = {};
  if (auth.user !== undefined) Object.assign(o, { user: auth.user, pass: auth.password ?? '' });
  if (auth.token !== undefined) o.token = auth.token;
  if (auth.credsFile !== undefined) o.authenticator = credsAuthenticator(readFileSync(auth.credsFile));
  if (auth.tlsCaFile || auth.tlsCertFile) {
    o.tls = {
      ...(auth.tlsCaFile ? { caFile: auth.tlsCaFile } : {}),
      ...(auth.tlsCertFile ? { certFile: auth.tlsCertFile, keyFile: auth.tlsKeyFile } : {}),
    };
  }
  return o;
}

/**
 * The one way services talk: typed RPC over the NATS service API, JetStream events and work
 * queues, every message validated against its contract from `@trove/proto-events`.
 */
export class Bus implements EventPublisher {
  private consumers = new Set<ConsumerHandle>();
  private services: Service[] = [];
  private jsm?: JetStreamManager;

  private constructor(
    readonly nc: NatsConnection,
    private readonly log: Logger,
    private readonly rpcTimeoutMs: number,
  ) {}

  static async connect(opts: BusOptions): Promise<Bus> {
    const nc = await connect({
      ...natsAuthOptions(opts.auth),
      servers: opts.url,
      name: opts.name,
      ...(opts.service ? { inboxPrefix: inboxPrefixOf(opts.service) } : {}),
      // In a cluster NATS may start after us: keep trying instead of crash-looping.
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      // No stack captured for every request in case it fails (two Error objects a request, ~0.1 ms of
      // CPU on each side of an upload's registration); a failure still names its subject (requestRpc).
      noAsyncTraces: true,
    });
    const bus = new Bus(nc, opts.log, opts.rpcTimeoutMs ?? 5000);
    void bus.watchStatus();
    return bus;
  }

  /** True while the connection to NATS is up (readiness). */
  isConnected(): boolean {
    return !this.nc.isClosed() && !this.reconnecting;
  }

  private reconnecting = false;

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting') this.reconnecting = true;
      if (s.type === 'reconnect') this.reconnecting = false;
      // 'reconnecting' repeats every attempt: log only the transitions.
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
        this.log.warn({ nats: s.type, data: String(s.data) }, 'nats connection status');
    }
  }

  /** Answers the given contracts as service `name` (queue group = name). */
  async serve(opts: ServeOptions): Promise<Service> {
    const service = await serveRpc(this.nc, this.log, opts);
    this.services.push(service);
    return service;
  }

  request<Req, Res>(contract: RpcContract<Req, Res>, request: Req, opts: { timeoutMs?: number } = {}): Promise<Res> {
    return requestRpc(this.nc, contract, request, { timeoutMs: opts.timeoutMs ?? this.rpcTimeoutMs });
  }

  private jetstream(): JetStreamClient {
    return this.nc.jetstream();
  }

  private async manager(): Promise<JetStreamManager> {
    this.jsm ??= await this.nc.jetstreamManager();
    return this.jsm;
  }

  /** Creates or updates the JetStream streams the contracts use. Every service calls it at start. */
  async ensureStreams(): Promise<void> {
    await ensureStreams(await this.manager());
  }

  /**
   * For a service whose NATS user may not create streams (the worker): waits until the others made
   * them, logging while it waits, up to `timeoutMs`.
   */
  async waitForStreams(timeoutMs = 120_000): Promise<void> {
    await waitForStreams(await this.manager(), this.log, timeoutMs);
  }

  /**
   * Publishes an event or work item. `msgId` de-duplicates: a retry with the same id within the
   * stream's window is stored once. `headers` travel beside the payload (e.g. DLQ_REASON_HEADER).
   */
  async publish<P>(
    contract: MessageContract<P>,
    payload: P,
    opts: { msgId: string; headers?: Record<string, string> },
  ): Promise<void> {
    const check = validate(contract.payload, payload);
    if (!check.valid)
      throw new AppError('INTERNAL', `refusing to publish invalid ${contract.subject}: ${check.errors.join('; ')}`);
    const headers = outgoingHeaders();
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers.set(name, value);
    await this.jetstream().publish(contract.subject, encodeJson(payload), { msgID: opts.msgId, headers });
  }

  async consume<P>(
    contract: MessageContract<P>,
    options: ConsumeOptions,
    handler: MessageHandler<P>,
  ): Promise<ConsumerHandle> {
    const handle = await consume(this.nc, this.jetstream(), await this.manager(), this.log, contract, options, handler);
    this.consumers.add(handle);
    return {
      stop: async () => {
        this.consumers.delete(handle);
        await handle.stop();
      },
    };
  }

  /** Stops consumers and services and lets in-flight work finish; the connection stays for what remains to say. */
  async stopServing(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    this.consumers.clear();
    await Promise.allSettled(this.services.map((s) => s.stop()));
    this.services = [];
  }

  /** Stops consumers and services, lets in-flight work finish, then drains the connection. */
  async close(): Promise<void> {
    await this.stopServing();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => undefined);
  }
}

export { natsAuthorizationBlock, natsPasswordSecretName, natsServiceUsers } from './nats-users';
export type { NatsUser } from './nats-users';
