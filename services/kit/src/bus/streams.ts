import { STREAMS } from '@trove/proto-events';
import { RetentionPolicy, StorageType, nanos } from 'nats';
import type { JetStreamManager, StreamConfig } from 'nats';
import type { Logger } from '../log';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The streams' wanted configuration, derived from the contracts package. */
export function streamConfigs(): Array<Partial<StreamConfig> & { name: string }> {
  return Object.values(STREAMS).map((s) => ({
    name: s.name,
    subjects: [...s.subjects],
    retention: s.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(s.maxAgeDays * DAY_MS),
    // Publishers set Nats-Msg-Id; the server drops a repeat seen within this window.
    duplicate_window: nanos(2 * 60 * 1000),
  }));
}

/** Creates the streams, or brings an existing one's subjects and limits up to date. Idempotent. */
export async function ensureStreams(jsm: JetStreamManager): Promise<void> {
  for (const cfg of streamConfigs()) {
    try {
      const info = await jsm.streams.info(cfg.name);
      await jsm.streams.update(cfg.name, {
        ...info.config,
        subjects: cfg.subjects,
        max_age: cfg.max_age,
        duplicate_window: cfg.duplicate_window,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await jsm.streams.add(cfg);
      } catch (addErr) {
        // Another process created it between our info and add: fine. The server says so as "already in use" or,
        // when the two configurations differ in a default, "subjects overlap with an existing stream".
        if (!/already in use|already exists|subjects overlap/i.test(String((addErr as Error).message))) throw addErr;
        await jsm.streams.info(cfg.name).catch(() => {
          throw addErr; // the overlap is with another stream: a real conflict
        });
      }
    }
  }
}

/** Resolves once every Trove stream exists; throws after `timeoutMs` naming the missing one. */
export async function waitForStreams(jsm: JetStreamManager, log: Logger, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const cfg of streamConfigs()) {
    for (let attempt = 0; ; attempt++) {
      try {
        await jsm.streams.info(cfg.name);
        break;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (Date.now() > deadline)
          throw new Error(
            `stream ${cfg.name} was not created within ${timeoutMs} ms (by auth, media, library, explore or jobs)`,
          );
        if (attempt === 0) log.info({ stream: cfg.name }, 'waiting for the stream to be created by another service');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }
}

export function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number }; message?: string };
  return e?.code === '404' || /not found/i.test(e?.message ?? '');
}
