/** The timeline's months: `YYYY-MM` (UTC, as the API counts them) and where a jump to one starts. */

/** One month of the library and how many items it has (GET /v1/timeline/buckets). */
export interface TimelineBucket {
  month: string;
  count: number;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM`, or null. */
export function parseMonth(value: string | null | undefined): string | null {
  return value && MONTH.test(value) ? value : null;
}

/** The last instant of the month (UTC): a list `takenBefore` it starts with the month's newest item. */
export function monthEnd(month: string): string {
  const [, y, m] = MONTH.exec(month) ?? [];
  return new Date(Date.UTC(Number(y), Number(m), 1) - 1).toISOString();
}

/** "June 2024". */
export function monthLabel(month: string): string {
  const [, y, m] = MONTH.exec(month) ?? [];
  return new Date(Date.UTC(Number(y), Number(m) - 1, 1)).toLocaleDateString('en', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
