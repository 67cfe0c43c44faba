/** A leap second as RFC 3339 writes it (`23:59:60`), which the `date-time` format accepts and `Date` cannot hold. */
const LEAP_SECOND = /(T\d{2}:\d{2}:)60(?:\.\d+)?/i;

/**
 * The date-time with a leap second (`2016-12-31T23:59:60Z`), valid in the contract but beyond `Date`, written as the
 * minute's last millisecond (`…23:59:59.999Z`, the offset kept), so that it still sorts after every instant of that
 * minute and before the next one. Any other text is answered as it is.
 */
export function withoutLeapSecond(text: string): string {
  return text.replace(LEAP_SECOND, '$159.999');
}

/** The instant an RFC 3339 date-time names (a leap second as `withoutLeapSecond`); an invalid `Date` when it names none. */
export function instantOf(text: string): Date {
  return new Date(withoutLeapSecond(text));
}
