import { defineCollection } from '@trove/kit';

/** One user's running total: the bytes of their originals (trash included). `_id` is the user id. */
export interface UsageDoc {
  _id: string;
  bytes: number;
  updatedAt: Date;
}

/** No index but `_id`: a total is read and changed by user id only. */
export const USAGE = defineCollection<UsageDoc>('media_usage', []);
