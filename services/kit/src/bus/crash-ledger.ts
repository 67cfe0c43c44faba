/**
 * Crash accounting for a durable consumer whose handler may kill its own process (a worker opening
 * hostile files: a decoder that runs out of memory, a native crash). JetStream counts every
 * delivery alike, so a crash would spend a delivery of every message in flight with the culprit,
 * other users' items among them, and the culprit would keep coming back until its deliveries ran
 * out, taking the others down with it each time.
 *
 * Before a delivery is handled, a marker "running" is written to a JetStream key-value bucket
 * (surviving the process); when the handler returns or throws, the marker says "finished". A
 * delivery that finds the marker still "running" knows the process that had the previous delivery
 * died under it: one crash more for this message. A message with a crash behind it runs alone in
 * its process (the solo gate): if the process dies again, nothing else was in flight, so the crash
 * is its own. A message that has been in flight at `quarantineAfter` crashes is quarantined:
 * dead-lettered with a reason instead of handled again. An innocent message can be in flight at one
 * crash only (afterwards it runs alone), so with `quarantineAfter` ≥ 2 it is never quarantined for
 * another's crash. `maxDeliver` counts the handler's own failures, recorded here too: a delivery
 * cut short by a crash, or lost while it waited at the gate, costs the message nothing.
 *
 * A message settled for good leaves a marker saying so: a delivery of it that was already on its
 * way (it waited in the client's buffer past its ack wait) is dropped instead of handled again.
 *
 * A graceful stop is not a crash: the markers of the messages in flight then say "stopping".
 */
import type { JetStreamClient, KV } from 'nats';
import { CRASH_LEDGER } from '@trove/proto-events';
import { decodeJson, encodeJson } from './codec';

/** The bucket of markers, shared by every consumer that asks for crash accounting (its users get NATS access to it). */
export const CRASH_LEDGER_BUCKET = CRASH_LEDGER.bucket;
/** Markers outlive any delivery; one whose message is long gone expires. */
const MARKER_TTL_MS = 7 * 24 * 3600 * 1000;

/** What the ledger knows of one message. */
export interface Attempts {
  /** Deliveries of this message during which its process died. */
  crashes: number;
  /** Deliveries whose handler threw (the message's own failures, what `maxDeliver` counts). */
  failures: number;
  /** Settled for good (handled, dead-lettered or quarantined): a stale redelivery is dropped. */
  settled?: boolean;
}

interface Marker extends Attempts {
  /** A delivery is being handled (or its process died during it). */
  running: boolean;
  /** The process stopped gracefully while handling it: not a crash. */
  stopping?: boolean;
}

export interface CrashLedger {
  /** The message's record, counting the previous delivery as a crash if its process died in it. */
  read(key: string): Promise<Attempts>;
  /** The delivery is about to be handled (written before the handler runs). */
  begin(key: string, attempts: Attempts): Promise<void>;
  /** The handler returned or threw: the process is alive. `done`: the message is settled for good. */
  finish(key: string, attempts: Attempts, done: boolean): Promise<void>;
  /** The process is stopping gracefully while the message is in flight. */
  stopping(key: string, attempts: Attempts): Promise<void>;
}

export async function openCrashLedger(js: JetStreamClient): Promise<CrashLedger> {
  const kv: KV = await js.views.kv(CRASH_LEDGER_BUCKET, { history: 1, ttl: MARKER_TTL_MS });
  const put = (key: string, marker: Marker) => kv.put(key, encodeJson(marker)).then(() => undefined);
  return {
    async read(key) {
      const entry = await kv.get(key);
      const decoded = entry && entry.operation === 'PUT' ? decodeJson(entry.value) : null;
      const previous = decoded?.ok ? (decoded.value as Partial<Marker>) : {};
      const attempts = {
        crashes: previous.crashes ?? 0,
        failures: previous.failures ?? 0,
        ...(previous.settled ? { settled: true } : {}),
      };
      if (!previous.running || previous.settled) return attempts;
      // Counted once: this delivery may itself wait (at the solo gate) before it begins.
      if (!previous.stopping) attempts.crashes++;
      await put(key, { ...attempts, running: false });
      return attempts;
    },
    async begin(key, attempts) {
      await put(key, { ...attempts, running: true });
    },
    async finish(key, attempts, done) {
      // A settled marker stays (until its TTL) for deliveries of the message still on their way.
      await put(key, { ...attempts, running: false, ...(done ? { settled: true } : {}) });
    },
    async stopping(key, attempts) {
      await put(key, { ...attempts, running: true, stopping: true });
    },
  };
}

/** The ledger key of one message of one durable consumer (its stream sequence survives redeliveries). */
export const ledgerKey = (durable: string, streamSequence: number) => `${durable}.${streamSequence}`;

/**
 * Lets messages run side by side (shared) or one alone (solo), first come first served: a solo
 * message waits for those running to finish, and those arriving after it wait for it.
 */
export class SoloGate {
  private running = 0;
  private soloRunning = false;
  private readonly queue: Array<{ solo: boolean; go: () => void }> = [];

  async enter(solo: boolean): Promise<() => void> {
    if (this.queue.length === 0 && this.canRun(solo)) this.start(solo);
    else await new Promise<void>((go) => this.queue.push({ solo, go }));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
      if (solo) this.soloRunning = false;
      this.drain();
    };
  }

  private canRun(solo: boolean): boolean {
    return !this.soloRunning && (!solo || this.running === 0);
  }

  private start(solo: boolean): void {
    this.running++;
    if (solo) this.soloRunning = true;
  }

  private drain(): void {
    while (this.queue.length && this.canRun(this.queue[0].solo)) {
      const next = this.queue.shift()!;
      this.start(next.solo);
      next.go();
    }
  }
}
