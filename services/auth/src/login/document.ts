import { defineCollection } from '@trove/kit';

/** Login attempts of one key in one fixed window. */
export interface AttemptsDoc {
  /** `<key digest>:<window number>` */
  _id: string;
  count: number;
  /** When the document stops mattering: housekeeping deletes it. */
  expiresAt: Date;
}

export const LOGIN_ATTEMPTS = defineCollection<AttemptsDoc>('login_attempts', [{ fields: { expiresAt: 1 } }]);
