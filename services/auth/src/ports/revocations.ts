import { REVOCATIONS } from '@trove/proto-events';
import type { KV, NatsConnection } from 'nats';

/**
 * How auth tells every gateway to stop accepting access tokens (which the gateways verify on their
 * own, without asking auth per request): of one session, or of every session of a user.
 */
export interface Revocations {
  revokeSession(sessionId: string): Promise<void>;
  revokeUser(userId: string): Promise<void>;
}

/** Revocations written into the JetStream KV bucket every gateway watches. */
export class RevocationWriter implements Revocations {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection): Promise<RevocationWriter> {
    // Creates the bucket, or binds to it when the gateway (same options) created it first.
    const kv = await nc.jetstream().views.kv(REVOCATIONS.bucket, { ttl: REVOCATIONS.ttlMs, history: 1 });
    return new RevocationWriter(kv);
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.kv.put(REVOCATIONS.sessionKey(sessionId), this.value());
  }

  async revokeUser(userId: string): Promise<void> {
    await this.kv.put(REVOCATIONS.userKey(userId), this.value());
  }

  private value(): string {
    return JSON.stringify({ revokedAt: new Date().toISOString() });
  }
}
