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

/**
 * The years the scrubber names: the first month of each year, at `from` (a fraction down a bar `heightPx` tall),
 * without those that would overlap the one named above them (closer than `gapPx`). The newest year is always named.
 * A library with a few items in many years would otherwise stack its labels on one another.
 */
export function yearLabels(
  buckets: readonly TimelineBucket[],
  from: readonly number[],
  heightPx: number,
  gapPx: number,
): Array<{ year: string; i: number }> {
  const labels: Array<{ year: string; i: number }> = [];
  let lastPx = -Infinity;
  for (const [i, b] of buckets.entries()) {
    const year = b.month.slice(0, 4);
    if (i > 0 && buckets[i - 1]!.month.slice(0, 4) === year) continue;
    const px = from[i]! * heightPx;
    if (labels.length > 0 && px - lastPx < gapPx) continue;
    labels.push({ year, i });
    lastPx = px;
  }
  return labels;
}
