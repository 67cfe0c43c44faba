import { REVOCATIONS } from './auth';
import { catalogue } from './catalogue';
import { CRASH_LEDGER, STREAMS, deadLetterSubject } from './contract';
import type { MessageContract, RpcContract } from './contract';

/**
 * What each service may publish and subscribe to on NATS, derived from the contracts: the RPCs it
 * answers and calls, the events and work it publishes and consumes, the KV bucket it writes or
 * watches, plus the JetStream API subjects those need. `make up`, the chart and the test stack give
 * every service its own NATS user with exactly these lists, so a compromised process (the worker
 * opens hostile files) cannot call what its contracts do not name — auth's user administration,
 * another service's queue, a stream's configuration.
 */

/** Every service with a NATS identity. */
export const BUS_SERVICES = ['gateway', 'auth', 'media', 'library', 'explore', 'jobs', 'worker'] as const;
export type BusService = (typeof BUS_SERVICES)[number];

/**
 * Services that may not create or change the JetStream streams: the worker parses hostile files,
 * the gateway faces the internet and uses no stream. They wait for the others to make them.
 */
const NO_STREAM_ADMIN: readonly string[] = ['gateway', 'worker'];

/** Who writes and who watches each KV bucket. */
const KV_BUCKETS = [
  { bucket: REVOCATIONS.bucket, writers: ['auth'], watchers: ['gateway'] },
  { bucket: CRASH_LEDGER.bucket, writers: CRASH_LEDGER.users, watchers: [] },
] as const;

/** The JetStream stream behind a KV bucket. */
const kvStream = (bucket: string): string => `KV_${bucket}`;

export interface NatsPermissions {
  /** Subjects the service may publish to (NATS wildcards). */
  publish: string[];
  /** Subjects the service may subscribe to. */
  subscribe: string[];
}

/**
 * The reply inbox prefix of a service's connection (`_INBOX.<service>`): replies to its requests,
 * JetStream acks to its publishes and its KV watch arrive there, and only it may subscribe to it,
 * so no other service can read the answers meant for it (a login's tokens, for one).
 */
export function inboxPrefixOf(service: string): string {
  return `_INBOX.${service}`;
}

/**
 * What a service does about the JetStream streams at start: create or update them (`manage`), wait
 * until another service made them (`wait`: its user may not change them), or nothing (`none`: it uses none).
 * A service not in BUS_SERVICES (a test's) manages them.
 */
export function streamDutyOf(service: string): 'manage' | 'wait' | 'none' {
  if (!NO_STREAM_ADMIN.includes(service)) return 'manage';
  const usesStreams = catalogue.some(
    (c) => !isRpc(c) && (c.publishers.includes(service) || c.consumers.includes(service)),
  );
  return usesStreams ? 'wait' : 'none';
}

const isRpc = (c: RpcContract<unknown, unknown> | MessageContract<unknown>): c is RpcContract<unknown, unknown> =>
  c.kind === 'rpc';

/** The allow-lists of one service's NATS user. Unknown services get only the common subjects. */
export function natsPermissionsOf(service: string): NatsPermissions {
  const pub = new Set<string>(['$JS.API.INFO']);
  const sub = new Set<string>([
    `${inboxPrefixOf(service)}.>`,
    // The NATS service API: discovery and health pings, answered through allow_responses.
    '$SRV.PING',
    '$SRV.INFO',
    '$SRV.STATS',
    `$SRV.*.${service}`,
    `$SRV.*.${service}.*`,
  ]);
  const streams = new Set<string>();
  for (const c of catalogue) {
    if (isRpc(c)) {
      if (c.service === service) sub.add(c.subject);
      if (c.callers.includes(service)) pub.add(c.subject);
      continue;
    }
    const stream = c.stream;
    if (c.publishers.includes(service)) {
      pub.add(c.subject);
      streams.add(stream);
    }
    if (c.consumers.includes(service)) {
      streams.add(stream);
      // Its durable consumer, filtered on this subject only: made, read, pulled from, acknowledged.
      pub.add(`$JS.API.CONSUMER.CREATE.${stream}.*.${c.subject}`);
      pub.add(`$JS.API.CONSUMER.INFO.${stream}.*`);
      pub.add(`$JS.API.CONSUMER.MSG.NEXT.${stream}.*`);
      pub.add(`$JS.ACK.${stream}.>`);
      // A message that fails its last delivery is dead-lettered by its consumer (the server's advisory
      // names the ones whose consumer died), read back from the stream and, from a work queue, removed.
      pub.add(deadLetterSubject(c.subject));
      streams.add(STREAMS.deadLetters.name);
      sub.add(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.*`);
      pub.add(`$JS.API.STREAM.MSG.GET.${stream}`);
      if (stream === STREAMS.work.name) pub.add(`$JS.API.STREAM.MSG.DELETE.${stream}`);
    }
  }
  const admin = streamDutyOf(service) === 'manage' && streams.size > 0;
  for (const s of admin ? Object.values(STREAMS).map((x) => x.name) : streams) {
    pub.add(`$JS.API.STREAM.INFO.${s}`);
    if (admin) {
      pub.add(`$JS.API.STREAM.CREATE.${s}`);
      pub.add(`$JS.API.STREAM.UPDATE.${s}`);
    }
  }
  for (const kv of KV_BUCKETS) {
    const stream = kvStream(kv.bucket);
    const writer = (kv.writers as readonly string[]).includes(service);
    const watcher = (kv.watchers as readonly string[]).includes(service);
    if (!writer && !watcher) continue;
    // Either end creates the bucket when it starts first (same options).
    pub.add(`$JS.API.STREAM.INFO.${stream}`);
    pub.add(`$JS.API.STREAM.CREATE.${stream}`);
    if (writer) {
      // A writer reads its own keys back (kv.get: a direct get, or a stream message get on older servers).
      pub.add(`$KV.${kv.bucket}.>`);
      pub.add(`$JS.API.DIRECT.GET.${stream}.>`);
      pub.add(`$JS.API.STREAM.MSG.GET.${stream}`);
    }
    if (watcher) {
      // The watch: an ordered push consumer delivered to this service's inbox, with flow control.
      pub.add(`$JS.API.CONSUMER.CREATE.${stream}`);
      pub.add(`$JS.API.CONSUMER.CREATE.${stream}.>`);
      pub.add(`$JS.API.CONSUMER.DELETE.${stream}.>`);
      pub.add(`$JS.FC.${stream}.>`);
    }
  }
  return { publish: [...pub].sort(), subscribe: [...sub].sort() };
}
