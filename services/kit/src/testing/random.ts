/**
 * A small seeded uniform random source (mulberry32: exact 32-bit arithmetic, period 2^32), so that
 * tests and the bench's seeded libraries repeat. A linear congruential one multiplying past 2^53 in
 * floating point loses bits and falls into short cycles.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
