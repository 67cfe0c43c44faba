import { getUserRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { PerUserSource } from '../features/recent-features';

/** A user's storage quota in bytes (null: unlimited), as the auth service keeps it. */
export class UserQuotas implements PerUserSource<number | null> {
  constructor(private readonly bus: Bus) {}

  async of(userId: string): Promise<number | null> {
    return (await this.bus.request(getUserRpc, { id: userId })).quotaBytes;
  }
}
