import { REVOCATIONS } from '@trove/proto-events';
import type { Revocations } from './revocations';

/** Revocations recorded in memory, as the keys the KV bucket would get (`session.<id>`, `user.<id>`). */
export class FakeRevocations implements Revocations {
  readonly keys: string[] = [];

  async revokeSession(sessionId: string): Promise<void> {
    this.keys.push(REVOCATIONS.sessionKey(sessionId));
  }

  async revokeUser(userId: string): Promise<void> {
    this.keys.push(REVOCATIONS.userKey(userId));
  }
}
