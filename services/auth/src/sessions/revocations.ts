import { REVOCATIONS } from '@trove/proto-events';
import type { KV, NatsConnection } from 'nats';

/**
 * Writes revocations into the JetStream KV bucket every gateway watches: from then on the gateway
 * rejects access tokens of that session or user, without asking this service per request.
 */
export class RevocationWriter {
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
