/** Synthetic face embeddings: people as random unit directions, their faces as noisy copies (seeded, so tests repeat). */

/** A seeded uniform random source (kit's mulberry32). */
export { seededRandom as seeded } from '@trove/kit/testing';

const gaussian = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

function unit(values: Float32Array): Float32Array {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
}

export const DIMENSIONS = 1024;

/** A random unit direction: one person. */
export function randomPerson(random: () => number, dimensions = DIMENSIONS): Float32Array {
  return unit(Float32Array.from({ length: dimensions }, () => gaussian(random)));
}

/** One face of `person`: noise of about `noise` length added, length 1 again. */
export function faceOf(person: Float32Array, random: () => number, noise = 0.35): Float32Array {
  const scale = noise / Math.sqrt(person.length);
  return unit(person.map((v) => v + gaussian(random) * scale));
}

/** The same items in a shuffled order. */
export function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
